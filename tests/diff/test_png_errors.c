/* test_png_errors.c: unreadable, truncated and corrupt files give -1 and a
 * message naming the file (and where in it), never a crash; thousands of
 * random corruptions included, in files that take each path of the fast
 * decoder (run under ASan/UBSan by the sanitizer CI).
 * usage: test_png_errors SCRATCH_DIR */
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "gt_diff.h"
#include "tcheck.h"
#include "tpng.h"

static const char *dir;

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

typedef struct buf {
    uint8_t *p;
    size_t n;
} buf;

static buf slurp(const char *path)
{
    buf b = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return b;
    fseek(f, 0, SEEK_END);
    b.n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    b.p = malloc(b.n + 1);
    if (fread(b.p, 1, b.n, f) != b.n)
        b.n = 0;
    fclose(f);
    return b;
}

static void spit(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(p, 1, n, f);
        fclose(f);
    }
}

/* Offset of the first chunk of the given type, or 0. */
static size_t find_chunk(const buf *b, const char *type)
{
    for (size_t off = 8; off + 12 <= b->n; off += 12 + be32(b->p + off))
        if (memcmp(b->p + off + 4, type, 4) == 0)
            return off;
    return 0;
}

static void fix_crc(buf *b, size_t chunk)
{
    uint32_t len = be32(b->p + chunk);
    put32(b->p + chunk + 8 + len, crc32_of(b->p + chunk + 4, len + 4));
}

/* Decoding `data` must fail with a message naming the file and containing
 * `want` (case-sensitive). */
static void expect_error(const char *label, const uint8_t *data, size_t n, const char *want)
{
    char path[4096], err[GT_DIFF_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/%s.png", dir, label);
    spit(path, data, n);
    gt_diff_image img;
    int rc = gt_diff_png_read(path, &img, err);
    CHECK(rc == -1, "%s: decoded a broken file", label);
    const char *at = strstr(err, path);
    CHECK(at != NULL, "%s: message does not name the file: %s", label, err);
    /* Look past the file name, which may itself contain the word. */
    CHECK(at && strstr(at + strlen(path), want) != NULL, "%s: message lacks '%s': %s", label, want, err);
    if (rc == 0)
        gt_diff_image_free(&img);
}

static buf good_file(const char *name, int color_type, int interlace)
{
    uint32_t w = 64, h = 40;
    int ch = tpng_channels(color_type);
    uint16_t *s = malloc(sizeof *s * w * h * ch);
    for (size_t i = 0; i < (size_t)w * h * ch; i++)
        s[i] = (uint16_t)((i * 7919) % 251);
    static uint8_t pal[256][3];
    tpng p = {.w = w, .h = h, .color_type = color_type, .depth = 8, .interlace = interlace,
              .samples = s, .palette = color_type == PNG_COLOR_TYPE_PALETTE ? (const uint8_t(*)[3])pal : NULL,
              .npalette = 256};
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    tpng_write(path, &p);
    free(s);
    return slurp(path);
}

/* RGBA that deflates about 2:1, like noise: the fast decoder's igzip path
 * (diff_inflate.c takes igzip between 1.5:1 and 4:1). */
static buf noisy_file(const char *name)
{
    uint32_t w = 64, h = 40, rng = 7;
    uint16_t *s = malloc(sizeof *s * w * h * 4);
    for (size_t i = 0; i < (size_t)w * h * 4; i++) {
        rng = rng * 1664525u + 1013904223u;
        s[i] = (uint16_t)((i / 4 % w + i / 4 / w + (rng >> 28)) % 256);
    }
    tpng p = {.w = w, .h = h, .color_type = PNG_COLOR_TYPE_RGBA, .depth = 8, .samples = s};
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    tpng_write(path, &p);
    free(s);
    buf b = slurp(path);
    double ratio = (double)h * (w * 4 + 1) / (double)b.n;
    CHECK(ratio > 1.6 && ratio < 3.8, "%s compresses %.2f:1, outside the band it is for", name, ratio);
    return b;
}

static void truncations(const buf *g, const char *kind)
{
    size_t idat = find_chunk(g, "IDAT");
    size_t cuts[] = {0, 4, 8, 20, 33, idat + 8 + 10, g->n / 2, g->n - 12, g->n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s_cut%zu", kind, cuts[i]);
        /* Too short for a signature: "not a PNG"; else "truncated". */
        expect_error(label, g->p, cuts[i], cuts[i] < 8 ? "not a PNG" : "truncated");
        if (cuts[i] >= 8) {
            char at[64];
            snprintf(at, sizeof at, "file is %zu bytes", cuts[i]);
            expect_error(label, g->p, cuts[i], at);
        }
    }
}

static void corruptions(const buf *g, const char *kind)
{
    char label[64];
    buf b = {malloc(g->n), g->n};
    size_t idat = find_chunk(g, "IDAT"), ihdr = find_chunk(g, "IHDR");

    /* A flipped bit in the pixel data: the CRC catches it. */
    memcpy(b.p, g->p, g->n);
    b.p[idat + 8 + 20] ^= 0x10;
    snprintf(label, sizeof label, "%s_idat_crc", kind);
    expect_error(label, b.p, b.n, "CRC error");

    /* The same with the CRC fixed: zlib must catch it (or the data is
     * short); either way an error that names the file. */
    fix_crc(&b, idat);
    snprintf(label, sizeof label, "%s_idat_zlib", kind);
    expect_error(label, b.p, b.n, "corrupt PNG");

    /* Zero width. */
    memcpy(b.p, g->p, g->n);
    put32(b.p + ihdr + 8, 0);
    fix_crc(&b, ihdr);
    snprintf(label, sizeof label, "%s_zero_width", kind);
    expect_error(label, b.p, b.n, "width");

    /* A header promising 100000x100000 pixels over a few KB of data: an
     * error, without trying to allocate 40 GB. */
    memcpy(b.p, g->p, g->n);
    put32(b.p + ihdr + 8, 100000);
    put32(b.p + ihdr + 12, 100000);
    fix_crc(&b, ihdr);
    snprintf(label, sizeof label, "%s_huge", kind);
    expect_error(label, b.p, b.n, "cannot hold");

    /* Bad signature. */
    memcpy(b.p, g->p, g->n);
    b.p[1] = 'Q';
    snprintf(label, sizeof label, "%s_signature", kind);
    expect_error(label, b.p, b.n, "not a PNG");
    free(b.p);
}

/* Random byte changes and cuts: any outcome but a crash or a silent
 * half-message is acceptable. */
static void random_damage(const buf *g, const char *kind, int rounds)
{
    uint32_t rng = 99;
    buf b = {malloc(g->n), g->n};
    char path[4096], err[GT_DIFF_ERR_MAX];
    snprintf(path, sizeof path, "%s/%s_random.png", dir, kind);
    int failed = 0, decoded = 0;
    for (int r = 0; r < rounds; r++) {
        memcpy(b.p, g->p, g->n);
        size_t n = g->n;
        int edits = 1 + (int)((rng = rng * 1664525u + 1013904223u) >> 29);
        for (int e = 0; e < edits; e++) {
            rng = rng * 1664525u + 1013904223u;
            b.p[8 + (rng >> 8) % (g->n - 8)] = (uint8_t)(rng >> 3);
        }
        if (r % 3 == 0)
            n = 8 + (rng >> 4) % (g->n - 8);
        /* Fixing CRCs now and then gets damage past the CRC check into
         * libpng's and libdeflate's own parsing. */
        if (r % 2 == 0)
            for (size_t off = 8; off + 12 <= n && be32(b.p + off) <= n - off - 12; off += 12 + be32(b.p + off))
                fix_crc(&b, off);
        spit(path, b.p, n);
        gt_diff_image img;
        err[0] = 0;
        if (gt_diff_png_read(path, &img, err) == 0) {
            decoded++;
            gt_diff_image_free(&img);
        } else if (!strstr(err, path)) {
            if (failed++ < 5)
                CHECK(0, "%s round %d: message without the file name: '%s'", kind, r, err);
        }
    }
    CHECK(failed == 0, "%s: %d of %d damaged files gave no proper message", kind, failed, rounds);
    fprintf(stderr, "%s: %d damaged files, %d still decoded (damage in ancillary data or "
                    "unused bits), the rest refused with a message\n",
            kind, rounds, decoded);
    free(b.p);
}

static void unreadable(void)
{
    char path[4096], err[GT_DIFF_ERR_MAX] = "";
    gt_diff_image img;
    snprintf(path, sizeof path, "%s/does-not-exist.png", dir);
    CHECK(gt_diff_png_read(path, &img, err) == -1 && strstr(err, path) && strstr(err, "cannot open"),
          "missing file: %s", err);
    CHECK(gt_diff_png_read(dir, &img, err) == -1 && strstr(err, "not a regular file"), "directory: %s", err);
    snprintf(path, sizeof path, "%s/text.png", dir);
    spit(path, (const uint8_t *)"hello, this is not an image\n", 28);
    CHECK(gt_diff_png_read(path, &img, err) == -1 && strstr(err, path) && strstr(err, "not a PNG"),
          "text file: %s", err);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_png_errors SCRATCH_DIR\n");
        return 2;
    }
    dir = argv[1];
    if (tpng_fresh_dir(dir) != 0)
        return 2;
    crc_init();
    /* RGBA and RGB go through the fast decoder first (RGBA inflated whole
     * or in slices, RGB through a window), palette+interlaced through
     * libpng only: all must refuse the same damage. */
    buf rgba = good_file("good_rgba", PNG_COLOR_TYPE_RGBA, 0);
    buf rgb = good_file("good_rgb", PNG_COLOR_TYPE_RGB, 0);
    buf noisy = noisy_file("good_noisy");
    buf pal = good_file("good_palette", PNG_COLOR_TYPE_PALETTE, 1);
    CHECK(rgba.n > 100 && rgb.n > 100 && noisy.n > 100 && pal.n > 100, "could not write the good files");
    truncations(&rgba, "rgba");
    truncations(&rgb, "rgb");
    truncations(&noisy, "noisy");
    truncations(&pal, "palette");
    corruptions(&rgba, "rgba");
    corruptions(&rgb, "rgb");
    corruptions(&noisy, "noisy");
    corruptions(&pal, "palette");
    random_damage(&rgba, "rgba", 1500);
    random_damage(&rgb, "rgb", 1500);
    random_damage(&noisy, "noisy", 1500);
    random_damage(&pal, "palette", 1500);
    unreadable();
    free(rgba.p);
    free(rgb.p);
    free(noisy.p);
    free(pal.p);
    return tcheck_exit("test_png_errors");
}
