/* gt_texel.h: bytes of one pixel of a client-memory image, by format and
 * type, as the GLES 3.2 specification's tables 8.2 and 8.4 give them.
 * Shared by capture (how much to record) and replay (how much a call
 * needs), so the two can never disagree. Nothing here talks to GL. */
#ifndef GT_TEXEL_H
#define GT_TEXEL_H

#include <stddef.h>

/* Bytes per pixel, or -1 for a format/type pair this does not know (the
 * GL would reject most of them; the caller records or checks nothing). */
static inline long gt_texel_bytes(unsigned format, unsigned type)
{
    int comps;
    switch (format) {
    case 0x1903: case 0x8D94: case 0x1906: case 0x1909: case 0x1902: case 0x1901: /* RED RED_INTEGER ALPHA LUMINANCE DEPTH_COMPONENT STENCIL_INDEX */
        comps = 1;
        break;
    case 0x8227: case 0x8228: case 0x190A: case 0x84F9: /* RG RG_INTEGER LUMINANCE_ALPHA DEPTH_STENCIL */
        comps = 2;
        break;
    case 0x1907: case 0x8D98: /* RGB RGB_INTEGER */
        comps = 3;
        break;
    case 0x1908: case 0x8D99: case 0x80E1: /* RGBA RGBA_INTEGER BGRA_EXT */
        comps = 4;
        break;
    default:
        return -1;
    }
    switch (type) {
    case 0x1400: case 0x1401: return comps;      /* BYTE UNSIGNED_BYTE */
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: return 2L * comps; /* SHORT USHORT HALF_FLOAT(_OES) */
    case 0x1404: case 0x1405: case 0x1406: return 4L * comps; /* INT UINT FLOAT */
    case 0x8363: case 0x8033: case 0x8034: return 2; /* 5_6_5 4_4_4_4 5_5_5_1 */
    case 0x8368: case 0x84FA: case 0x8C3B: case 0x8C3E: return 4; /* 2_10_10_10_REV 24_8 10F_11F_11F_REV 5_9_9_9_REV */
    case 0x8DAD: return 8; /* FLOAT_32_UNSIGNED_INT_24_8_REV */
    default: return -1;
    }
}

/* BGRA8 pixels to RGBA8 in place (and back: the swap is its own inverse).
 * Both sides read RGBA8 snapshots as BGRA where the framebuffer says
 * that is its own layout (GL_IMPLEMENTATION_COLOR_READ_FORMAT): a copy in
 * the driver, where the RGBA read converts pixel by pixel. Four pixels a
 * step in a vector register (GCC's vector extension: SSE2 on any x86-64). */
static inline void gt_texel_swap_red_blue(unsigned char *px, size_t n)
{
    typedef unsigned int gt_v4u __attribute__((vector_size(16)));
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        gt_v4u v;
        __builtin_memcpy(&v, px + 4 * i, sizeof v);
        v = (v & 0xff00ff00u) | ((v >> 16) & 0xffu) | ((v & 0xffu) << 16);
        __builtin_memcpy(px + 4 * i, &v, sizeof v);
    }
    for (; i < n; i++) {
        unsigned char b = px[4 * i];
        px[4 * i] = px[4 * i + 2];
        px[4 * i + 2] = b;
    }
}

/* A float as a 16-bit half float, rounded to nearest even (GLES 3.2
 * section 2.3.4.2's format): exact for every value a half holds, which is
 * how both sides use it, writing back half-float texels read as floats
 * (the GL has no half read of colour). Subnormal halves are multiples of
 * 2^-24; NaN stays NaN. */
static inline unsigned short gt_texel_half(float f)
{
    unsigned int x;
    __builtin_memcpy(&x, &f, sizeof x);
    unsigned int sign = (x >> 16) & 0x8000u, mag = x & 0x7fffffffu;
    if (mag > 0x7f800000u) /* NaN: a quiet one */
        return (unsigned short)(sign | 0x7e00u);
    if (mag >= 0x47800000u) /* 65536 or more, or infinity: infinity */
        return (unsigned short)(sign | 0x7c00u);
    if (mag < 0x38800000u) /* below 2^-14: a subnormal half, in units of 2^-24 (exact scaling) */
        return (unsigned short)(sign | (unsigned int)__builtin_rintf(__builtin_fabsf(f) * 16777216.0f));
    unsigned int h = (mag - 0x38000000u) >> 13, rest = mag & 0x1fffu; /* exponent rebiased 127 -> 15 */
    h += rest > 0x1000u || (rest == 0x1000u && (h & 1u)); /* a carry into the exponent rounds up, to infinity too */
    return (unsigned short)(sign | h);
}

/* Three floats as GL_UNSIGNED_INT_10F_11F_11F_REV (GLES 3.2 sections
 * 2.3.4.3-4): unsigned 11-bit floats for red and green and a 10-bit one
 * for blue, each a half's exponent and its top mantissa bits, so exact
 * for every value the format holds (what a level of it reads back as). */
static inline unsigned int gt_texel_r11g11b10(const float *rgb)
{
    unsigned int r = gt_texel_half(rgb[0]), g = gt_texel_half(rgb[1]), b = gt_texel_half(rgb[2]);
    r = r & 0x8000u ? 0 : r >> 4, g = g & 0x8000u ? 0 : g >> 4, b = b & 0x8000u ? 0 : b >> 5; /* no sign: 0 */
    return r | g << 11 | b << 22;
}

/* npx pixels read as four floats each (glReadPixels GL_RGBA GL_FLOAT), as
 * a level of `comps` components is written back: type 0x140B
 * (GL_HALF_FLOAT) halves, 0x8C3B (GL_UNSIGNED_INT_10F_11F_11F_REV) red,
 * green and blue packed in 32 bits, else floats. out may be rgba itself:
 * a pixel's output never passes its input. Returns the bytes written. */
static inline size_t gt_texel_pack_floats(const unsigned char *rgba, size_t npx, int comps, unsigned type,
                                          unsigned char *out)
{
    size_t size = type == 0x8C3B ? 4 : type == 0x140B ? 2 : 4, stride = type == 0x8C3B ? 4 : (size_t)comps * size;
    for (size_t i = 0; i < npx; i++) {
        float v[4];
        __builtin_memcpy(v, rgba + i * 16, sizeof v);
        unsigned char *o = out + i * stride;
        if (type == 0x8C3B) {
            unsigned int p = gt_texel_r11g11b10(v);
            __builtin_memcpy(o, &p, 4);
            continue;
        }
        for (int c = 0; c < comps; c++) {
            unsigned short h = gt_texel_half(v[c]);
            __builtin_memcpy(o + (size_t)c * size, size == 2 ? (const void *)&h : (const void *)&v[c], size);
        }
    }
    return npx * stride;
}

/* npx pixels read as four 32-bit integers each (glReadPixels
 * GL_RGBA_INTEGER with GL_UNSIGNED_INT or GL_INT), as a level of `comps`
 * components of an integer format is written back: type 0x1400/0x1401
 * (GL_BYTE, GL_UNSIGNED_BYTE) a byte a component, 0x1402/0x1403 (GL_SHORT,
 * GL_UNSIGNED_SHORT) two, 0x1404/0x1405 (GL_INT, GL_UNSIGNED_INT) four,
 * 0x8368 (GL_UNSIGNED_INT_2_10_10_10_REV) RGB10_A2UI's 32 bits. A level's
 * values fit its type, so the low bytes are exact, sign included (two's
 * complement). out may be rgba itself. Returns the bytes written. */
static inline size_t gt_texel_pack_ints(const unsigned char *rgba, size_t npx, int comps, unsigned type,
                                        unsigned char *out)
{
    size_t size = type == 0x1400 || type == 0x1401 ? 1 : type == 0x1402 || type == 0x1403 ? 2 : 4;
    size_t stride = type == 0x8368 ? 4 : (size_t)comps * size;
    for (size_t i = 0; i < npx; i++) {
        unsigned int v[4];
        __builtin_memcpy(v, rgba + i * 16, sizeof v);
        unsigned char *o = out + i * stride;
        if (type == 0x8368) {
            unsigned int p = (v[0] & 0x3ffu) | (v[1] & 0x3ffu) << 10 | (v[2] & 0x3ffu) << 20 | (v[3] & 3u) << 30;
            __builtin_memcpy(o, &p, 4);
            continue;
        }
        for (int c = 0; c < comps; c++)
            for (size_t b = 0; b < size; b++)
                o[(size_t)c * size + b] = (unsigned char)(v[c] >> (8 * b));
    }
    return npx * stride;
}
/* The colour-renderable integer formats (GLES 3.2 table 8.10): the
 * format and type a level of internal format `internal` is written with
 * (GL_RED_INTEGER, GL_RG_INTEGER or GL_RGBA_INTEGER; its component type,
 * or GL_UNSIGNED_INT_2_10_10_10_REV for RGB10_A2UI) and its components.
 * Read back, such a level comes as four 32-bit integers a pixel
 * (GL_RGBA_INTEGER with GL_INT when the type is signed, else
 * GL_UNSIGNED_INT), which gt_texel_pack_ints packs. 0 for another
 * internal format. Shared by capture and trim, which read them back. */
static inline int gt_texel_integer(unsigned internal, unsigned *format, unsigned *type, int *comps)
{
    static const struct { unsigned internal, format, type; int comps; } in[] = {
        {0x8232, 0x8D94, 0x1401, 1}, {0x8231, 0x8D94, 0x1400, 1}, /* R8UI, R8I: RED_INTEGER (U)BYTE */
        {0x8234, 0x8D94, 0x1403, 1}, {0x8233, 0x8D94, 0x1402, 1}, /* R16UI, R16I: (U)SHORT */
        {0x8236, 0x8D94, 0x1405, 1}, {0x8235, 0x8D94, 0x1404, 1}, /* R32UI, R32I: (U)INT */
        {0x8238, 0x8228, 0x1401, 2}, {0x8237, 0x8228, 0x1400, 2}, /* RG8UI, RG8I: RG_INTEGER */
        {0x823A, 0x8228, 0x1403, 2}, {0x8239, 0x8228, 0x1402, 2}, /* RG16UI, RG16I */
        {0x823C, 0x8228, 0x1405, 2}, {0x823B, 0x8228, 0x1404, 2}, /* RG32UI, RG32I */
        {0x8D7C, 0x8D99, 0x1401, 4}, {0x8D8E, 0x8D99, 0x1400, 4}, /* RGBA8UI, RGBA8I: RGBA_INTEGER */
        {0x8D76, 0x8D99, 0x1403, 4}, {0x8D88, 0x8D99, 0x1402, 4}, /* RGBA16UI, RGBA16I */
        {0x8D70, 0x8D99, 0x1405, 4}, {0x8D82, 0x8D99, 0x1404, 4}, /* RGBA32UI, RGBA32I */
        {0x906F, 0x8D99, 0x8368, 4},                              /* RGB10_A2UI: UNSIGNED_INT_2_10_10_10_REV */
    };
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (in[i].internal == internal) {
            *format = in[i].format, *type = in[i].type, *comps = in[i].comps;
            return 1;
        }
    return 0;
}

/* Whether an integer level of `type` (gt_texel_integer's) is read back
 * as signed integers. */
static inline int gt_texel_signed(unsigned type)
{
    return type == 0x1400 || type == 0x1402 || type == 0x1404; /* BYTE SHORT INT */
}

#endif
