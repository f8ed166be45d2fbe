/* diff_unfilter.c: PNG row reconstruction. Sub, Average and Paeth depend on
 * the byte one pixel to the left, so they run pixel by pixel; for pixels of
 * 4, 6 and 8 bytes (8-bit RGBA, 16-bit RGB and RGBA) the SSE2 versions work on
 * a whole pixel per step, which is where the fast decoder wins most of its
 * time over libpng. */
#include <stdlib.h>
#include <string.h>

#include "diff_unfilter.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static uint8_t paeth(int a, int b, int c)
{
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc)
        return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

static void unfilter_scalar(int filter, const uint8_t *in, const uint8_t *prev,
                            uint8_t *out, size_t len, size_t bpp)
{
    size_t i;
    switch (filter) {
    case 1:
        for (i = 0; i < bpp && i < len; i++)
            out[i] = in[i];
        for (; i < len; i++)
            out[i] = (uint8_t)(in[i] + out[i - bpp]);
        break;
    case 2:
        for (i = 0; i < len; i++)
            out[i] = (uint8_t)(in[i] + prev[i]);
        break;
    case 3:
        for (i = 0; i < bpp && i < len; i++)
            out[i] = (uint8_t)(in[i] + (prev[i] >> 1));
        for (; i < len; i++)
            out[i] = (uint8_t)(in[i] + ((out[i - bpp] + prev[i]) >> 1));
        break;
    case 4:
        for (i = 0; i < bpp && i < len; i++)
            out[i] = (uint8_t)(in[i] + prev[i]); /* a = c = 0: paeth is b */
        for (; i < len; i++)
            out[i] = (uint8_t)(in[i] + paeth(out[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
}

#ifdef __SSE2__
/* A pixel of n = 4, 6 or 8 bytes in the low lanes of a register. Built
 * from whole 1, 2, 4 and 8-byte accesses in general registers: a memcpy of
 * n bytes into a stack variable read back at once stalls store forwarding
 * (measured: ten times slower). */
static uint64_t ld16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static uint64_t ld32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static __m128i loadn(const uint8_t *p, size_t n)
{
    switch (n) {
    case 4:
        return _mm_cvtsi32_si128((int)ld32(p));
    case 6:
        return _mm_cvtsi64_si128((long long)(ld32(p) | ld16(p + 4) << 32));
    default:
        return _mm_loadl_epi64((const __m128i *)(const void *)p);
    }
}

static void storen(uint8_t *p, __m128i x, size_t n)
{
    uint64_t v = (uint64_t)_mm_cvtsi128_si64(x);
    uint32_t lo = (uint32_t)v;
    uint16_t w16;
    switch (n) {
    case 4:
        memcpy(p, &lo, 4);
        break;
    case 6:
        w16 = (uint16_t)(v >> 32);
        memcpy(p, &lo, 4);
        memcpy(p + 4, &w16, 2);
        break;
    default:
        _mm_storel_epi64((__m128i *)(void *)p, x);
    }
}

/* |x| for 16-bit lanes without SSSE3. */
static __m128i abs16(__m128i x)
{
    __m128i neg = _mm_sub_epi16(_mm_setzero_si128(), x);
    return _mm_max_epi16(x, neg);
}

/* The Paeth predictor of a, b, c (16-bit lanes): pa = |b - c|,
 * pb = |a - c|, pc = |a + b - 2c|; a on ties, then b, as the spec says. */
static __m128i paeth4(__m128i a, __m128i b, __m128i c)
{
    __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
    __m128i pc = abs16(_mm_add_epi16(pa, pb));
    pa = abs16(pa);
    pb = abs16(pb);
    __m128i use_c = _mm_and_si128(_mm_cmpgt_epi16(pa, pc), _mm_cmpgt_epi16(pb, pc));
    __m128i use_b = _mm_andnot_si128(use_c, _mm_cmpgt_epi16(pa, pb));
    __m128i use_a = _mm_andnot_si128(_mm_or_si128(use_b, use_c), _mm_set1_epi16(-1));
    return _mm_or_si128(_mm_or_si128(_mm_and_si128(use_a, a), _mm_and_si128(use_b, b)), _mm_and_si128(use_c, c));
}

/* The Average predictor on bytes: floor((a + b) / 2) is pavgb's rounded
 * up mean less the lost half, (a ^ b) & 1. One step shorter on the chain
 * through a than widening to 16 bits: 30% faster on Average rows. */
static __m128i avg8(__m128i a, __m128i b)
{
    return _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1)));
}

/* One pixel per step, its bpp bytes widened to 16-bit lanes. Inlined with
 * a constant bpp, so the loads and stores are fixed-size. */
static inline __attribute__((always_inline)) void unfilter_px_sse2(int filter, const uint8_t *in,
                                                                   const uint8_t *prev, uint8_t *out,
                                                                   size_t len, size_t bpp)
{
    const __m128i z = _mm_setzero_si128();
    __m128i a = z, c = z;
    switch (filter) {
    case 1:
        for (size_t i = 0; i < len; i += bpp) {
            a = _mm_add_epi8(a, loadn(in + i, bpp));
            storen(out + i, a, bpp);
        }
        break;
    case 3: /* on bytes: a stays packed */
        for (size_t i = 0; i < len; i += bpp) {
            a = _mm_add_epi8(avg8(a, loadn(prev + i, bpp)), loadn(in + i, bpp));
            storen(out + i, a, bpp);
        }
        break;
    case 4:
        for (size_t i = 0; i < len; i += bpp) {
            __m128i b = _mm_unpacklo_epi8(loadn(prev + i, bpp), z);
            __m128i pred = paeth4(a, b, c);
            __m128i x = _mm_add_epi8(_mm_packus_epi16(pred, pred), loadn(in + i, bpp));
            a = _mm_unpacklo_epi8(x, z);
            c = b;
            storen(out + i, x, bpp);
        }
        break;
    }
}

/* Returns 0 when an SSE2 version ran. A step writes exactly one pixel and
 * reads that pixel's filtered bytes first, so in-place compaction holds. */
static int unfilter_sse2(int filter, const uint8_t *in, const uint8_t *prev, uint8_t *out, size_t len,
                         int bpp)
{
    if (filter == 2 || len % (size_t)bpp != 0)
        return -1;
    /* 3-byte pixels stay scalar: their three byte chains overlap in the
     * CPU and measured faster than one register step per pixel. */
    switch (bpp) {
    case 4:
        unfilter_px_sse2(filter, in, prev, out, len, 4);
        return 0;
    case 6:
        unfilter_px_sse2(filter, in, prev, out, len, 6);
        return 0;
    case 8:
        unfilter_px_sse2(filter, in, prev, out, len, 8);
        return 0;
    }
    return -1;
}

/* One step of Average (3) or Paeth (4) on a 4-byte pixel: a, b, c are
 * the left, above and above-left pixels in 16-bit lanes. */
static inline __attribute__((always_inline)) __m128i predict_step(int filter, __m128i a, __m128i b, __m128i c,
                                                                  const uint8_t *in)
{
    __m128i pred = filter == 4 ? paeth4(a, b, c) : _mm_srli_epi16(_mm_add_epi16(a, b), 1);
    return _mm_add_epi8(_mm_packus_epi16(pred, pred), loadn(in, 4));
}

/* Two Average rows at once as pair4 below does, on bytes (avg8), and the
 * second row's "above" pixel is the first row's from the step before,
 * kept in a register rather than read back from memory. */
static void avg4_pair(const uint8_t *in0, const uint8_t *in1, const uint8_t *prev, uint8_t *out0, uint8_t *out1,
                      size_t len)
{
    const __m128i z = _mm_setzero_si128();
    __m128i a0 = z, a1 = z, up = z;
    for (size_t i = 0; i <= len; i += 4) {
        __m128i x0 = z;
        if (i < len) {
            x0 = _mm_add_epi8(avg8(a0, loadn(prev + i, 4)), loadn(in0 + i, 4));
            a0 = x0;
            storen(out0 + i, x0, 4);
        }
        if (i) {
            size_t j = i - 4;
            __m128i x1 = _mm_add_epi8(avg8(a1, up), loadn(in1 + j, 4));
            a1 = x1;
            storen(out1 + j, x1, 4);
        }
        up = x0;
    }
}

/* Two rows of the same filter at once, the second one pixel behind the
 * first: its "above" pixels are the first row's, already computed one
 * step earlier. Each row is a chain of dependent steps; running two side
 * by side lets the CPU overlap them (measured: bench/diff/README.md). */
static inline __attribute__((always_inline)) void pair4(int filter, const uint8_t *in0, const uint8_t *in1,
                                                        const uint8_t *prev, uint8_t *out0, uint8_t *out1,
                                                        size_t len)
{
    const __m128i z = _mm_setzero_si128();
    __m128i a0 = z, c0 = z, a1 = z, c1 = z;
    for (size_t i = 0; i <= len; i += 4) {
        if (i < len) {
            __m128i b0 = _mm_unpacklo_epi8(loadn(prev + i, 4), z);
            __m128i x0 = predict_step(filter, a0, b0, c0, in0 + i);
            a0 = _mm_unpacklo_epi8(x0, z);
            c0 = b0;
            storen(out0 + i, x0, 4);
        }
        if (i) {
            size_t j = i - 4;
            __m128i b1 = _mm_unpacklo_epi8(loadn(out0 + j, 4), z);
            __m128i x1 = predict_step(filter, a1, b1, c1, in1 + j);
            a1 = _mm_unpacklo_epi8(x1, z);
            c1 = b1;
            storen(out1 + j, x1, 4);
        }
    }
}

/* An RGB row straight into RGBA: 4 lanes per step, the fourth carrying
 * whatever byte follows the pixel; lanes never mix, so that lane's garbage
 * stays there, and the store sets it to opaque. */
static inline __attribute__((always_inline)) void rgb_row(int filter, const uint8_t *in, const uint8_t *prev,
                                                          uint8_t *out, size_t w)
{
    const __m128i z = _mm_setzero_si128(), opaque = _mm_cvtsi32_si128((int)0xff000000u);
    __m128i a = z, c = z;
    for (size_t x = 0; x < w; x++) {
        __m128i b = _mm_unpacklo_epi8(loadn(prev + 4 * x, 4), z), pred;
        switch (filter) {
        case 0:
            pred = z;
            break;
        case 1:
            pred = a;
            break;
        case 2:
            pred = b;
            break;
        case 3:
            pred = _mm_srli_epi16(_mm_add_epi16(a, b), 1); /* (a is widened here) */
            break;
        default:
            pred = paeth4(a, b, c);
        }
        __m128i px = _mm_add_epi8(_mm_packus_epi16(pred, pred), loadn(in + 3 * x, 4));
        a = _mm_unpacklo_epi8(px, z);
        c = b;
        storen(out + 4 * x, _mm_or_si128(px, opaque), 4);
    }
}
#endif

int diff_unfilter_row(int filter, const uint8_t *in, const uint8_t *prev,
                      uint8_t *out, size_t len, int bpp)
{
    if (filter < 0 || filter > 4)
        return -1;
    if (filter == 0 || (filter == 2 && !prev)) {
        memmove(out, in, len); /* may overlap: in-place compaction */
        return 0;
    }
    uint8_t *zeros = NULL;
    if (!prev) {
        /* First row: "above" is all zero. Rare enough to allocate for. */
        zeros = calloc(len ? len : 1, 1);
        if (!zeros)
            return -1;
        prev = zeros;
    }
#ifdef __SSE2__
    if (unfilter_sse2(filter, in, prev, out, len, bpp) == 0) {
        free(zeros);
        return 0;
    }
#endif
    unfilter_scalar(filter, in, prev, out, len, (size_t)bpp);
    free(zeros);
    return 0;
}

int diff_unfilter_pair(int filter, const uint8_t *in0, const uint8_t *in1, const uint8_t *prev, uint8_t *out0,
                       uint8_t *out1, size_t len, int bpp)
{
#ifdef __SSE2__
    if (bpp == 4 && prev && len % 4 == 0 && (filter == 3 || filter == 4)) {
        if (filter == 3)
            avg4_pair(in0, in1, prev, out0, out1, len);
        else
            pair4(4, in0, in1, prev, out0, out1, len);
        return 0;
    }
#else
    (void)filter, (void)in0, (void)in1, (void)prev, (void)out0, (void)out1, (void)len, (void)bpp;
#endif
    return -1;
}

int diff_unfilter_rgb_to_rgba(int filter, const uint8_t *in, const uint8_t *prev, uint8_t *out, size_t w)
{
#ifdef __SSE2__
    switch (filter) {
    case 0:
        rgb_row(0, in, prev, out, w);
        return 0;
    case 1:
        rgb_row(1, in, prev, out, w);
        return 0;
    case 2:
        rgb_row(2, in, prev, out, w);
        return 0;
    case 3:
        rgb_row(3, in, prev, out, w);
        return 0;
    case 4:
        rgb_row(4, in, prev, out, w);
        return 0;
    }
#else
    (void)filter, (void)in, (void)prev, (void)out, (void)w;
#endif
    return -1;
}
