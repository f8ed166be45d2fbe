/* diff_unfilter.c: PNG row reconstruction. Sub, Average and Paeth depend on
 * the byte one pixel to the left, so they run pixel by pixel; for 4-byte
 * pixels the SSE2 versions work on a whole pixel per step, which is where
 * the fast decoder wins most of its time over libpng. */
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
static __m128i load4(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_cvtsi32_si128(v);
}

static void store4(uint8_t *p, __m128i v)
{
    int32_t x = _mm_cvtsi128_si32(v);
    memcpy(p, &x, 4);
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

/* One pixel per step, 4 lanes widened to 16 bits. */
static void unfilter4_sse2(int filter, const uint8_t *in, const uint8_t *prev,
                           uint8_t *out, size_t len)
{
    const __m128i z = _mm_setzero_si128();
    __m128i a = z, c = z;
    switch (filter) {
    case 1:
        for (size_t i = 0; i < len; i += 4) {
            a = _mm_add_epi8(a, load4(in + i));
            store4(out + i, a);
        }
        break;
    case 3:
        for (size_t i = 0; i < len; i += 4) {
            __m128i b = _mm_unpacklo_epi8(load4(prev + i), z);
            __m128i avg = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
            __m128i x = _mm_add_epi8(_mm_packus_epi16(avg, avg), load4(in + i));
            a = _mm_unpacklo_epi8(x, z);
            store4(out + i, x);
        }
        break;
    case 4:
        for (size_t i = 0; i < len; i += 4) {
            __m128i b = _mm_unpacklo_epi8(load4(prev + i), z);
            __m128i pred = paeth4(a, b, c);
            __m128i x = _mm_add_epi8(_mm_packus_epi16(pred, pred), load4(in + i));
            a = _mm_unpacklo_epi8(x, z);
            c = b;
            store4(out + i, x);
        }
        break;
    }
}

/* Two Paeth rows at once, the second one pixel behind the first: its
 * "above" pixels are the first row's, already computed one step earlier.
 * Each row is a chain of dependent steps; running two side by side lets
 * the CPU overlap them (measured: bench/diff/README.md). */
static void paeth4_pair(const uint8_t *in0, const uint8_t *in1, const uint8_t *prev, uint8_t *out0,
                        uint8_t *out1, size_t len)
{
    const __m128i z = _mm_setzero_si128();
    __m128i a0 = z, c0 = z, a1 = z, c1 = z;
    for (size_t i = 0; i <= len; i += 4) {
        if (i < len) {
            __m128i b0 = _mm_unpacklo_epi8(load4(prev + i), z);
            __m128i p0 = paeth4(a0, b0, c0);
            __m128i x0 = _mm_add_epi8(_mm_packus_epi16(p0, p0), load4(in0 + i));
            a0 = _mm_unpacklo_epi8(x0, z);
            c0 = b0;
            store4(out0 + i, x0);
        }
        if (i) {
            size_t j = i - 4;
            __m128i b1 = _mm_unpacklo_epi8(load4(out0 + j), z);
            __m128i p1 = paeth4(a1, b1, c1);
            __m128i x1 = _mm_add_epi8(_mm_packus_epi16(p1, p1), load4(in1 + j));
            a1 = _mm_unpacklo_epi8(x1, z);
            c1 = b1;
            store4(out1 + j, x1);
        }
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
    if (bpp == 4 && filter != 2 && len % 4 == 0) {
        unfilter4_sse2(filter, in, prev, out, len);
        free(zeros);
        return 0;
    }
#endif
    unfilter_scalar(filter, in, prev, out, len, (size_t)bpp);
    free(zeros);
    return 0;
}

int diff_unfilter_paeth_pair(const uint8_t *in0, const uint8_t *in1, const uint8_t *prev, uint8_t *out0,
                             uint8_t *out1, size_t len, int bpp)
{
#ifdef __SSE2__
    if (bpp == 4 && prev && len % 4 == 0) {
        paeth4_pair(in0, in1, prev, out0, out1, len);
        return 0;
    }
#else
    (void)in0, (void)in1, (void)prev, (void)out0, (void)out1, (void)len, (void)bpp;
#endif
    return -1;
}
