/* diff_inflate.c: the inflate step of the fast PNG decoder. Two libraries,
 * because neither is the faster on every image (bench/diff/README.md):
 * on noisy 8-bit images, which deflate to about half their size in short
 * matches, ISA-L's igzip inflates 1.4-1.5 times faster than libdeflate;
 * on rendered frames (long matches, 5:1 and better) and on nearly
 * incompressible data libdeflate is the faster, up to three times. The
 * compression ratio is known before inflating, so it picks the library. */
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdlib.h>

#include "diff_inflate.h"

/* The band of out/in ratios where igzip measured faster. */
static int igzip_suits(size_t zn, size_t n)
{
    return n < UINT32_MAX && zn < UINT32_MAX && 2 * n >= 3 * zn && n <= 4 * zn;
}

static int inflate_igzip(const uint8_t *z, size_t zn, uint8_t *out, size_t n)
{
    struct inflate_state *s = malloc(sizeof *s); /* 87 KB: not for a thread's stack */
    if (!s)
        return -1;
    isal_inflate_init(s);
    s->crc_flag = ISAL_ZLIB; /* parses the header, checks the Adler-32 */
    s->next_in = (uint8_t *)z;
    s->avail_in = (uint32_t)zn;
    s->next_out = out;
    s->avail_out = (uint32_t)n;
    int rc = isal_inflate_stateless(s);
    int ok = rc == ISAL_DECOMP_OK && s->total_out == n;
    free(s);
    return ok ? 0 : -1;
}

static int inflate_libdeflate(const uint8_t *z, size_t zn, uint8_t *out, size_t n)
{
    struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor();
    if (!dec)
        return -1;
    size_t got = 0;
    enum libdeflate_result rc = libdeflate_zlib_decompress(dec, z, zn, out, n, &got);
    libdeflate_free_decompressor(dec);
    return rc == LIBDEFLATE_SUCCESS && got == n ? 0 : -1;
}

int diff_inflate(const uint8_t *z, size_t zn, uint8_t *out, size_t n)
{
    if (igzip_suits(zn, n))
        return inflate_igzip(z, zn, out, n);
    return inflate_libdeflate(z, zn, out, n);
}
