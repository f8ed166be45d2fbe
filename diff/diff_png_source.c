/* diff_png_source.c: a PNG file read in pieces through one small buffer,
 * for the streaming comparison (diff_stream.c). Reading a whole 4K 16-bit
 * file into memory takes 40-50 MB of fresh pages, whose first touch on
 * the machines this runs on costs more than inflating them
 * (bench/diff/README.md); a 256 KB buffer reused for the whole file costs
 * nothing of the kind. Takes 8 or 16-bit grey, grey and alpha, RGB or
 * RGBA, not interlaced, without tRNS, checks every chunk's CRC as it
 * goes, and says no (-1) to anything else or anything wrong: the caller
 * then reads the file the ordinary way, where libpng names the fault. */
#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff_png_source.h"

#define BUF_SIZE ((size_t)256 << 10)

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Makes at least `need` bytes available at pos (need <= BUF_SIZE).
 * Returns 0, or -1 at the end of the file or on a read error. */
static int fill(diff_png_source *s, size_t need)
{
    if (s->end - s->pos >= need)
        return 0;
    if (s->cap - s->pos < need) {
        memmove(s->buf, s->buf + s->pos, s->end - s->pos);
        s->end -= s->pos;
        s->pos = 0;
    }
    while (s->end - s->pos < need) {
        ssize_t r = read(s->fd, s->buf + s->end, s->cap - s->end);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        s->end += (size_t)r;
    }
    return 0;
}

/* Skips a chunk's data and checks its CRC (the 8-byte header at pos has
 * been read: len and type given). */
static int skip_chunk(diff_png_source *s, uint32_t len, const uint8_t type[4])
{
    uint32_t crc = libdeflate_crc32(0, type, 4);
    while (len) {
        if (fill(s, 1) != 0)
            return -1;
        size_t n = s->end - s->pos < len ? s->end - s->pos : len;
        crc = libdeflate_crc32(crc, s->buf + s->pos, n);
        s->pos += n;
        len -= (uint32_t)n;
    }
    if (fill(s, 4) != 0 || be32(s->buf + s->pos) != crc)
        return -1;
    s->pos += 4;
    return 0;
}

/* Reads chunk headers up to the first IDAT, whose data is then next. */
/* The next chunk's length and type, read past (PNG caps lengths at 2^31-1). */
static int chunk_head(diff_png_source *s, uint32_t *len, uint8_t type[4])
{
    if (fill(s, 8) != 0)
        return -1;
    *len = be32(s->buf + s->pos);
    memcpy(type, s->buf + s->pos + 4, 4);
    s->pos += 8;
    return *len > 0x7fffffffu ? -1 : 0;
}

static int read_header(diff_png_source *s)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (fill(s, 8 + 25) != 0 || memcmp(s->buf, sig, 8) != 0)
        return -1;
    const uint8_t *c = s->buf + 8, *body = c + 8;
    if (be32(c) != 13 || memcmp(c + 4, "IHDR", 4) != 0 || libdeflate_crc32(0, c + 4, 17) != be32(c + 21))
        return -1;
    s->width = be32(body);
    s->height = be32(body + 4);
    s->depth = body[8];
    int ctype = body[9];
    if ((s->depth != 8 && s->depth != 16) || (ctype & 1) || ctype > 6 || body[10] || body[11] || body[12])
        return -1;
    if (s->width == 0 || s->height == 0 || s->width > 1000000 || s->height > 1000000)
        return -1;
    static const int channels[7] = {1, 0, 3, 0, 2, 0, 4}; /* grey, RGB, grey+alpha, RGBA */
    s->channels = channels[ctype];
    s->pos = 8 + 25;
    for (;;) {
        uint32_t len;
        uint8_t type[4];
        if (chunk_head(s, &len, type) != 0)
            return -1;
        if (memcmp(type, "IDAT", 4) == 0) {
            s->idat_left = len;
            s->crc = libdeflate_crc32(0, type, 4);
            return 0;
        }
        if (memcmp(type, "tRNS", 4) == 0 || memcmp(type, "IEND", 4) == 0)
            return -1; /* transparency key: libpng's job; no image data */
        if (!(type[0] & 0x20) && memcmp(type, "PLTE", 4) != 0)
            return -1; /* unknown critical chunk */
        if (skip_chunk(s, len, type) != 0)
            return -1;
    }
}

int diff_png_source_open(diff_png_source *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0)
        return -1;
    struct stat st;
    s->buf = malloc(BUF_SIZE);
    s->cap = BUF_SIZE;
    if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) || !s->buf || read_header(s) != 0) {
        diff_png_source_close(s);
        return -1;
    }
    s->file_size = (uint64_t)st.st_size;
    return 0;
}

/* Ends the current IDAT chunk (checks its CRC) and reads the next
 * header: 1 when it is another IDAT, 0 when the image data is over (the
 * header is left unread), -1 on a bad CRC or the end of the file. */
static int next_idat(diff_png_source *s)
{
    if (fill(s, 12) != 0 || be32(s->buf + s->pos) != s->crc)
        return -1;
    s->pos += 4;
    const uint8_t *h = s->buf + s->pos;
    if (memcmp(h + 4, "IDAT", 4) != 0) {
        s->idat_over = 1;
        return 0;
    }
    s->idat_left = be32(h);
    if (s->idat_left > 0x7fffffffu)
        return -1;
    s->crc = libdeflate_crc32(0, h + 4, 4);
    s->pos += 8;
    return 1;
}

int diff_png_source_feed(void *ctx, const uint8_t **data, uint32_t *n)
{
    diff_png_source *s = ctx;
    while (s->idat_left == 0)
        if (s->idat_over || next_idat(s) != 1)
            return -1;
    if (fill(s, 1) != 0)
        return -1;
    size_t avail = s->end - s->pos;
    *n = (uint32_t)(avail < s->idat_left ? avail : s->idat_left);
    *data = s->buf + s->pos;
    s->crc = libdeflate_crc32(s->crc, *data, *n);
    s->pos += *n;
    s->idat_left -= *n;
    return 0;
}

int diff_png_source_finish(diff_png_source *s)
{
    /* Image data past the stream's end is skipped, as libpng does. */
    while (!s->idat_over) {
        while (s->idat_left) {
            if (fill(s, 1) != 0)
                return -1;
            size_t n = s->end - s->pos < s->idat_left ? s->end - s->pos : s->idat_left;
            s->crc = libdeflate_crc32(s->crc, s->buf + s->pos, n);
            s->pos += n;
            s->idat_left -= (uint32_t)n;
        }
        if (next_idat(s) < 0)
            return -1;
    }
    for (;;) {
        uint32_t len;
        uint8_t type[4];
        if (chunk_head(s, &len, type) != 0)
            return -1;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "tRNS", 4) == 0 ||
            (!(type[0] & 0x20) && memcmp(type, "IEND", 4) != 0 && memcmp(type, "PLTE", 4) != 0))
            return -1; /* IDATs must be consecutive; the rest as read_header */
        if (skip_chunk(s, len, type) != 0)
            return -1;
        if (memcmp(type, "IEND", 4) == 0)
            return 0;
    }
}

void diff_png_source_close(diff_png_source *s)
{
    if (s->fd >= 0)
        close(s->fd);
    free(s->buf);
    s->fd = -1;
    s->buf = NULL;
}
