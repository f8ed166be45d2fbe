/* The texel conversions capture and trim write float and integer levels
 * back with (api/gt_texel.h): every value a half, an 11-bit or a 10-bit
 * float holds must come back as the same bits, since a level read back as
 * floats and written so must replay exactly; so must an integer level's
 * extremes, read back as 32-bit integers. Each value is made from its bits here
 * (ldexpf), not by the code under test. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_texel.h"

static int failures;

/* A half's value from its bits (IEEE 754 binary16). */
static float half_value(unsigned h)
{
    unsigned e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(1024 + m), (int)e - 25);
    return h & 0x8000 ? -v : v;
}

/* Every half: its value converts back to it (NaN to a NaN). */
static void halves(void)
{
    for (unsigned h = 0; h < 65536; h++) {
        float v = half_value(h);
        unsigned got = gt_texel_half(v);
        int ok = isnan(v) ? (got & 0x7c00) == 0x7c00 && (got & 0x3ff) : got == h;
        if (!ok && failures++ < 10)
            printf("FAIL half %04x: %g came back as %04x\n", h, (double)v, got);
    }
    /* Rounding where a float falls between halves: to nearest, ties to even. */
    static const struct { float v; unsigned h; } near[] = {
        {65504.0f, 0x7bff}, {65519.0f, 0x7bff}, {65520.0f, 0x7c00}, {1e-8f, 0x0000}, {3e-8f, 0x0001},
        {1.0f + 1.0f / 2048, 0x3c00}, {1.0f + 3.0f / 2048, 0x3c02},
    };
    for (size_t i = 0; i < sizeof near / sizeof near[0]; i++)
        if (gt_texel_half(near[i].v) != near[i].h && failures++ < 20)
            printf("FAIL half of %.9g: %04x, not %04x\n", (double)near[i].v, gt_texel_half(near[i].v), near[i].h);
}

/* Every 11-bit (red) and 10-bit (blue) float: packed back to its bits. */
static void r11g11b10(void)
{
    for (unsigned x = 0; x < 2048; x++) {
        if ((x >> 6) == 31 && (x & 63))
            continue; /* NaN */
        float red = half_value(x << 4), blue = half_value((x & 1023) << 5);
        float rgb[3] = {red, red, blue};
        unsigned want = x | x << 11 | (x & 1023) << 22;
        if ((x & 1023) >> 5 == 31 && (x & 31))
            continue; /* the blue value a NaN */
        unsigned got = gt_texel_r11g11b10(rgb);
        if (got != want && failures++ < 30)
            printf("FAIL r11g11b10 %03x: %08x, not %08x\n", x, got, want);
    }
}

/* Pixels read as RGBA floats, packed as each level type is written, in place. */
static void pack(void)
{
    float px[8] = {1.0f, 0.5f, -2.0f, 0.25f, 65504.0f, 0.0f, 1.0f, 1.0f};
    unsigned char b[sizeof px];
    memcpy(b, px, sizeof px);
    size_t n = gt_texel_pack_floats(b, 2, 2, 0x140B, b); /* RG16F: two halves a pixel */
    unsigned short h[4];
    memcpy(h, b, sizeof h);
    if (n != 8 || h[0] != 0x3c00 || h[1] != 0x3800 || h[2] != 0x7bff || h[3] != 0)
        failures++, printf("FAIL pack RG16F: %zu bytes, %04x %04x %04x %04x\n", n, h[0], h[1], h[2], h[3]);
    memcpy(b, px, sizeof px);
    n = gt_texel_pack_floats(b, 2, 1, 0x1406, b); /* R32F: the red floats */
    float f[2];
    memcpy(f, b, sizeof f);
    if (n != 8 || f[0] != 1.0f || f[1] != 65504.0f)
        failures++, printf("FAIL pack R32F: %zu bytes, %g %g\n", n, (double)f[0], (double)f[1]);
    memcpy(b, px, sizeof px);
    n = gt_texel_pack_floats(b, 1, 3, 0x8C3B, b); /* R11F_G11F_B10F: negative blue is 0 */
    unsigned p;
    memcpy(&p, b, 4);
    if (n != 4 || p != (0x3c0u | 0x380u << 11))
        failures++, printf("FAIL pack R11F_G11F_B10F: %zu bytes, %08x\n", n, p);
}

/* Pixels read as RGBA 32-bit integers (signed ones sign-extended, as the
 * GL returns them), packed as each integer level type is written. */
static void pack_ints(void)
{
    int px[8] = {-128, 127, -1, 0, -32768, 32767, 2147483647, -2147483647 - 1};
    int px8[8] = {-128, 127, 5, 6, -1, 0, 7, 8};
    unsigned char b[sizeof px];
    memcpy(b, px8, sizeof px8);
    size_t n = gt_texel_pack_ints(b, 2, 2, 0x1400, b); /* RG8I: a byte each */
    signed char c[4];
    memcpy(c, b, sizeof c);
    if (n != 4 || c[0] != -128 || c[1] != 127 || c[2] != -1 || c[3] != 0)
        failures++, printf("FAIL pack RG8I: %zu bytes, %d %d %d %d\n", n, c[0], c[1], c[2], c[3]);
    memcpy(b, px, sizeof px);
    n = gt_texel_pack_ints(b, 2, 1, 0x1402, b); /* R16I: the red shorts */
    short s[2];
    memcpy(s, b, sizeof s);
    if (n != 4 || s[0] != -128 || s[1] != -32768)
        failures++, printf("FAIL pack R16I: %zu bytes, %d %d\n", n, s[0], s[1]);
    memcpy(b, px, sizeof px);
    n = gt_texel_pack_ints(b, 2, 4, 0x1404, b); /* RGBA32I: as read */
    if (n != sizeof px || memcmp(b, px, sizeof px) != 0)
        failures++, printf("FAIL pack RGBA32I: %zu bytes\n", n);
    unsigned u[8] = {255, 0, 65535, 1, 1023, 512, 1, 3};
    memcpy(b, u, sizeof u);
    n = gt_texel_pack_ints(b, 2, 3, 0x1403, b); /* RGB16UI (not renderable, but packed alike) */
    unsigned short us[6];
    memcpy(us, b, sizeof us);
    if (n != 12 || us[0] != 255 || us[1] != 0 || us[2] != 65535 || us[3] != 1023 || us[4] != 512 || us[5] != 1)
        failures++, printf("FAIL pack RGB16UI: %zu bytes\n", n);
    memcpy(b, u, sizeof u);
    n = gt_texel_pack_ints(b, 2, 4, 0x8368, b); /* RGB10_A2UI */
    unsigned p[2];
    memcpy(p, b, sizeof p);
    if (n != 8 || p[0] != (255u | 65535u % 1024 << 20 | 1u << 30) || p[1] != (1023u | 512u << 10 | 1u << 20 | 3u << 30))
        failures++, printf("FAIL pack RGB10_A2UI: %zu bytes, %08x %08x\n", n, p[0], p[1]);
}

/* The integer formats' table against the GL header's names. */
static void integer_formats(void)
{
    static const struct { GLenum internal, format, type; int comps; } want[] = {
        {GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 1}, {GL_R8I, GL_RED_INTEGER, GL_BYTE, 1},
        {GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT, 1}, {GL_R16I, GL_RED_INTEGER, GL_SHORT, 1},
        {GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 1}, {GL_R32I, GL_RED_INTEGER, GL_INT, 1},
        {GL_RG8UI, GL_RG_INTEGER, GL_UNSIGNED_BYTE, 2}, {GL_RG8I, GL_RG_INTEGER, GL_BYTE, 2},
        {GL_RG16UI, GL_RG_INTEGER, GL_UNSIGNED_SHORT, 2}, {GL_RG16I, GL_RG_INTEGER, GL_SHORT, 2},
        {GL_RG32UI, GL_RG_INTEGER, GL_UNSIGNED_INT, 2}, {GL_RG32I, GL_RG_INTEGER, GL_INT, 2},
        {GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4}, {GL_RGBA8I, GL_RGBA_INTEGER, GL_BYTE, 4},
        {GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT, 4}, {GL_RGBA16I, GL_RGBA_INTEGER, GL_SHORT, 4},
        {GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 4}, {GL_RGBA32I, GL_RGBA_INTEGER, GL_INT, 4},
        {GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, 4},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        unsigned f = 0, t = 0;
        int c = 0;
        if (!gt_texel_integer(want[i].internal, &f, &t, &c) || f != want[i].format || t != want[i].type ||
            c != want[i].comps)
            failures++, printf("FAIL integer format %04x: %04x %04x %d\n", want[i].internal, f, t, c);
    }
    unsigned f, t;
    int c;
    if (gt_texel_integer(GL_RGBA8, &f, &t, &c) || gt_texel_integer(GL_RGB8UI, &f, &t, &c))
        failures++, printf("FAIL integer format: RGBA8 or RGB8UI (not colour-renderable) taken\n");
}

int main(void)
{
    integer_formats();
    halves();
    r11g11b10();
    pack();
    pack_ints();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok: every half, 11-bit and 10-bit float came back as its bits; integer levels packed\n");
    return 0;
}
