/* diff_png_source.h: a PNG file's image data read in pieces (see
 * diff_png_source.c), as input for diff_rowpull (diff_inflate.h). */
#ifndef GT_DIFF_PNG_SOURCE_H
#define GT_DIFF_PNG_SOURCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct diff_png_source {
    int fd;
    uint8_t *buf;
    size_t cap, pos, end; /* the file's bytes at hand: buf[pos..end) */
    uint64_t file_size;
    uint32_t width, height;
    int channels, depth;  /* 1 to 4 (grey, grey+alpha, RGB, RGBA); 8 or 16 */
    uint32_t idat_left;   /* data bytes of the current IDAT not handed out */
    uint32_t crc;         /* of the current IDAT so far */
    int idat_over;        /* a chunk other than IDAT came after them */
} diff_png_source;

/* Opens the file and reads up to its image data. Returns 0, or -1 for a
 * file that cannot be read, that is outside the layouts taken, or that
 * has a bad chunk (nothing to close then). */
int diff_png_source_open(diff_png_source *s, const char *path);

/* A diff_inflate_feed: the next piece of image data (ctx: the source). */
int diff_png_source_feed(void *ctx, const uint8_t **data, uint32_t *n);

/* After the stream's end: reads the rest of the file to IEND, checking
 * every CRC. Returns 0, or -1 for anything wrong. */
int diff_png_source_finish(diff_png_source *s);

void diff_png_source_close(diff_png_source *s);

#endif
