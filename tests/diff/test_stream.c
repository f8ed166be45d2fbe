/* test_stream.c: exact mode on pairs of files compares every sample at the
 * file's full depth, as ImageMagick's `compare -metric AE` counts: a
 * change only in the low byte of a 16-bit sample counts, an 8-bit file
 * equals the 16-bit file of its values times 257 and differs from one
 * that merely rounds to the same 8 bits. Checked against counts made here
 * from the samples themselves, for every pair of the layouts read while
 * streaming (8/16-bit grey, grey and alpha, RGB, RGBA), every filter, split IDATs, one and two
 * threads, with ignore regions, --ignore-alpha and a diff image; a file
 * damaged in the middle of its image data or cut short anywhere is still
 * reported as an error.
 * usage: test_stream SCRATCH_DIR */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gt_diff.h"
#include "tcheck.h"
#include "tpng.h"

static const char *dir;
static uint32_t rng = 777;

static uint32_t next(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* A file's pixels as RGBA at 16 bits, the way ImageMagick holds them. */
typedef struct pic {
    uint32_t w, h;
    uint16_t *v; /* 4 per pixel */
} pic;

static pic make_pic(uint32_t w, uint32_t h)
{
    pic p = {w, h, malloc((size_t)w * h * 4 * sizeof(uint16_t))};
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        p.v[i] = (uint16_t)(i % 4 == 3 ? 0xffff : ((i * 2654435761u) >> 7) + next() % 300);
    return p;
}

/* Brings p to what a file of `channels` (1 grey, 2 grey and alpha, 3 RGB,
 * 4 RGBA) at `depth` bits can hold: grey in R, G and B alike, alpha
 * opaque when there is none, 8 bits as v8 * 257. */
static void fit(pic *p, int depth, int channels)
{
    for (size_t i = 0; i < (size_t)p->w * p->h * 4; i++) {
        if (i % 4 == 3 && channels % 2)
            p->v[i] = 0xffff;
        if (i % 4 && i % 4 < 3 && channels < 3)
            p->v[i] = p->v[i - i % 4];
        if (depth == 8)
            p->v[i] = (uint16_t)((p->v[i] + 128) / 257 * 257);
    }
}

static void write_pic(const char *path, const pic *p, int depth, int channels, int filter, size_t idat)
{
    static const int types[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                PNG_COLOR_TYPE_RGBA};
    static const int from[5][4] = {{0}, {0}, {0, 3}, {0, 1, 2}, {0, 1, 2, 3}};
    uint16_t *s = malloc((size_t)p->w * p->h * channels * sizeof *s);
    for (size_t i = 0; i < (size_t)p->w * p->h; i++)
        for (int c = 0; c < channels; c++) {
            uint16_t v = p->v[i * 4 + from[channels][c]];
            s[i * channels + c] = depth == 16 ? v : (uint16_t)(v / 257);
        }
    tpng t = {.w = p->w, .h = p->h, .color_type = types[channels], .depth = depth, .filter = filter,
              .idat_size = idat, .samples = s};
    CHECK(tpng_write(path, &t) == 0, "%s", path);
    free(s);
}

/* Pixels that differ in any compared channel, outside one ignored
 * rectangle (w = 0: none). */
static uint64_t truth(const pic *e, const pic *a, int nch, gt_diff_rect ign)
{
    uint64_t n = 0;
    for (uint32_t y = 0; y < e->h; y++)
        for (uint32_t x = 0; x < e->w; x++) {
            if (ign.w && x >= ign.x && x < ign.x + ign.w && y >= ign.y && y < ign.y + ign.h)
                continue;
            const uint16_t *pe = e->v + ((size_t)y * e->w + x) * 4, *pa = a->v + ((size_t)y * a->w + x) * 4;
            for (int c = 0; c < nch; c++)
                if (pe[c] != pa[c]) {
                    n++;
                    break;
                }
        }
    return n;
}

static gt_diff_pair run_one(const char *pe, const char *pa, const gt_diff_options *o, unsigned threads,
                            const char *diff_dir)
{
    gt_diff_batch b = {0};
    gt_diff_pair out = {0};
    if (gt_diff_batch_add(&b, "pair.png", pe, pa) != 0) {
        CHECK(0, "out of memory");
        return out;
    }
    gt_diff_batch_run(&b, o, diff_dir, threads);
    out = b.pairs[0];
    out.name = out.expected = out.actual = out.diff_image = NULL; /* freed with the batch */
    gt_diff_batch_free(&b);
    return out;
}

/* Every pair of layouts: a few pixels changed, some only in the low byte
 * of a 16-bit sample. */
static void layouts(void)
{
    static const int filters[] = {PNG_FILTER_NONE, PNG_FILTER_SUB, PNG_FILTER_UP, PNG_FILTER_AVG,
                                  PNG_FILTER_PAETH, PNG_ALL_FILTERS};
    static const char *names[] = {"", "grey", "ga", "rgb", "rgba"};
    uint32_t w = 97, h = 71;
    for (int le = 0; le < 8; le++)
        for (int la = 0; la < 8; la++) {
            int de = le & 4 ? 16 : 8, ce = 1 + (le & 3), da = la & 4 ? 16 : 8, ca = 1 + (la & 3);
            int filter = filters[(le * 8 + la) % 6];
            pic e = make_pic(w, h);
            fit(&e, de, ce);
            pic a = {w, h, malloc((size_t)w * h * 4 * sizeof(uint16_t))};
            memcpy(a.v, e.v, (size_t)w * h * 4 * sizeof(uint16_t));
            for (int k = 0; k < 40; k++) {
                size_t i = next() % ((size_t)w * h * 4);
                a.v[i] = (uint16_t)(k % 2 ? a.v[i] ^ 1 : a.v[i] + 3000); /* low byte only, or plainly */
            }
            fit(&a, da, ca);
            char pe[4096], pa[4096], label[64];
            snprintf(label, sizeof label, "%s%d_%s%d_f%d", names[ce], de, names[ca], da, filter);
            snprintf(pe, sizeof pe, "%s/%s_e.png", dir, label);
            snprintf(pa, sizeof pa, "%s/%s_a.png", dir, label);
            write_pic(pe, &e, de, ce, filter, le == la ? 100 : 0);
            write_pic(pa, &a, da, ca, filter, 0);
            gt_diff_options o;
            gt_diff_options_init(&o);
            uint64_t want = truth(&e, &a, 4, (gt_diff_rect){0, 0, 0, 0});
            CHECK(want > 0, "%s: the change did not survive the layout", label);
            for (unsigned t = 1; t <= 2; t++) {
                gt_diff_pair p = run_one(pe, pa, &o, t, NULL);
                CHECK(p.has_result && p.result.diff_pixels == want && !p.result.identical && !p.result.pass &&
                          p.width == w && p.height == h,
                      "%s, %u threads: %llu pixels differ, the samples say %llu (%s)", label, t,
                      (unsigned long long)p.result.diff_pixels, (unsigned long long)want, p.message);
            }
            /* An ignored rectangle and --ignore-alpha. */
            gt_diff_rect ign = {10, 5, 30, 40};
            o.ignore = &ign;
            o.n_ignore = 1;
            o.ignore_alpha = 1;
            gt_diff_pair p = run_one(pe, pa, &o, 2, NULL);
            uint64_t want2 = truth(&e, &a, 3, ign);
            CHECK(p.has_result && p.result.diff_pixels == want2 &&
                      p.result.compared_pixels == (uint64_t)w * h - (uint64_t)ign.w * ign.h,
                  "%s, ignoring: %llu pixels differ of %llu, the samples say %llu", label,
                  (unsigned long long)p.result.diff_pixels, (unsigned long long)p.result.compared_pixels,
                  (unsigned long long)want2);
            free(e.v);
            free(a.v);
        }
}

/* 8-bit pairs of a million pixels and more are read while streaming too
 * (smaller ones decode whole): RGBA rows of Average and Paeth (unfiltered
 * two at a time) and RGB rows (widened while unfiltered), changes here and
 * there, one and two threads. */
static void large_eight_bit(void)
{
    static const int filters[] = {PNG_FILTER_AVG, PNG_FILTER_PAETH, PNG_ALL_FILTERS};
    uint32_t w = 1100, h = 1000;
    for (int k = 0; k < 3; k++) {
        int ce = k == 2 ? 3 : 4, ca = k == 1 ? 3 : 4;
        /* A gradient, not noise: libpng deflates noise of this size
         * slowly, and the filters have work either way. */
        pic e = {w, h, malloc((size_t)w * h * 4 * sizeof(uint16_t))};
        for (size_t i = 0; i < (size_t)w * h * 4; i++)
            e.v[i] = (uint16_t)((i / 4 % w) * 41 + (i / 4 / w) * 23 + (i % 4) * 9000 + next() % 600);
        fit(&e, 8, ce < ca ? ce : ca);
        pic a = {w, h, malloc((size_t)w * h * 4 * sizeof(uint16_t))};
        memcpy(a.v, e.v, (size_t)w * h * 4 * sizeof(uint16_t));
        for (int j = 0; j < 300; j++) {
            size_t i = next() % ((size_t)w * h * 4);
            a.v[i] = (uint16_t)(a.v[i] + 5000);
        }
        fit(&a, 8, ce < ca ? ce : ca);
        char pe[4096], pa[4096];
        snprintf(pe, sizeof pe, "%s/large%d_e.png", dir, k);
        snprintf(pa, sizeof pa, "%s/large%d_a.png", dir, k);
        write_pic(pe, &e, 8, ce, filters[k], 0);
        write_pic(pa, &a, 8, ca, filters[k], 0);
        uint64_t want = truth(&e, &a, 4, (gt_diff_rect){0, 0, 0, 0});
        gt_diff_options o;
        gt_diff_options_init(&o);
        for (unsigned t = 1; t <= 2; t++) {
            gt_diff_pair p = run_one(pe, pa, &o, t, NULL);
            CHECK(p.has_result && p.result.diff_pixels == want && want > 0,
                  "large %d, %u threads: %llu pixels differ, the samples say %llu (%s)", k, t,
                  (unsigned long long)p.result.diff_pixels, (unsigned long long)want, p.message);
        }
        free(e.v);
        free(a.v);
    }
}

/* The cases a user meets: the same picture at 8 and 16 bits is equal; a
 * 16-bit picture that only rounds to the same 8 bits is not; a change in
 * one low byte fails the pair and gets a diff image. */
static void depth_cases(void)
{
    uint32_t w = 64, h = 48;
    pic e = make_pic(w, h);
    fit(&e, 8, 4);
    char p8[4096], p16[4096], q16[4096], ddir[4096];
    snprintf(p8, sizeof p8, "%s/same8.png", dir);
    snprintf(p16, sizeof p16, "%s/same16.png", dir);
    snprintf(q16, sizeof q16, "%s/near16.png", dir);
    snprintf(ddir, sizeof ddir, "%s/diffs", dir);
    write_pic(p8, &e, 8, 4, 0, 0);
    write_pic(p16, &e, 16, 4, 0, 0);
    gt_diff_options o;
    gt_diff_options_init(&o);
    gt_diff_pair p = run_one(p8, p16, &o, 2, NULL);
    CHECK(p.has_result && p.result.identical && p.result.pass && p.status == GT_DIFF_PASS,
          "8-bit file and its 16-bit equal differ: %s", p.message);
    e.v[4 * 100 + 1] ^= 0x10; /* rounds to the same 8 bits */
    write_pic(q16, &e, 16, 4, 0, 0);
    for (unsigned t = 1; t <= 2; t++) {
        p = run_one(p8, q16, &o, t, ddir);
        CHECK(p.has_result && p.result.diff_pixels == 1 && !p.result.identical && p.status == GT_DIFF_FAIL &&
                  p.result.bbox.x == 100 % w && p.result.bbox.y == 100 / w && p.result.bbox.w == 1 &&
                  p.result.max_channel_diff == 0,
              "%u threads: a change below 8 bits: %llu pixels, box %u,%u (%s)", t,
              (unsigned long long)p.result.diff_pixels, p.result.bbox.x, p.result.bbox.y, p.message);
    }
    char img[4200];
    snprintf(img, sizeof img, "%s/pair.png", ddir);
    struct stat st;
    CHECK(stat(img, &st) == 0 && st.st_size > 0, "no diff image at %s", img);
    free(e.v);
}

/* Writes n bytes to path. */
static void put_file(const char *path, const uint8_t *d, long n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(d, 1, (size_t)n, f) == (size_t)n && fclose(f) == 0, "cannot write %s", path);
}

/* One flipped byte in the middle of the image data (CRC fixed up or not):
 * an error naming the file, never a result. */
static void damaged(void)
{
    uint32_t w = 300, h = 200;
    pic e = make_pic(w, h);
    char pe[4096], pa[4096];
    snprintf(pe, sizeof pe, "%s/good.png", dir);
    snprintf(pa, sizeof pa, "%s/bad.png", dir);
    write_pic(pe, &e, 16, 4, 0, 1000);
    write_pic(pa, &e, 16, 4, 0, 1000);
    FILE *f = fopen(pa, "r+b");
    CHECK(f != NULL, "%s", pa);
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, n / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, n / 2, SEEK_SET);
    fputc(c ^ 0x40, f);
    fclose(f);
    gt_diff_options o;
    gt_diff_options_init(&o);
    for (unsigned t = 1; t <= 2; t++) {
        gt_diff_pair p = run_one(pe, pa, &o, t, NULL);
        CHECK(p.status == GT_DIFF_ERROR && !p.has_result && strstr(p.message, "bad.png"),
              "%u threads: damaged file: status %d, %s", t, (int)p.status, p.message);
    }
    /* Cut short anywhere: in a chunk header, in image data, before IEND. */
    static const long cuts[] = {7, 20, 40, 60, 1000, 20000, 100000, -13, -12, -1};
    uint8_t *good = malloc((size_t)n);
    FILE *g0 = fopen(pe, "rb"); /* bad.png before the flip: the same bytes */
    CHECK(good && g0 && fread(good, 1, (size_t)n, g0) == (size_t)n, "cannot read %s", pe);
    if (g0)
        fclose(g0);
    for (size_t k = 0; good && k < sizeof cuts / sizeof cuts[0]; k++) {
        long at = cuts[k] < 0 ? n + cuts[k] : cuts[k];
        put_file(pa, good, at);
        gt_diff_pair p = run_one(pe, pa, &o, 1 + k % 2, NULL);
        CHECK(p.status == GT_DIFF_ERROR && !p.has_result && strstr(p.message, "bad.png"),
              "cut at byte %ld of %ld: status %d, %s", at, n, (int)p.status, p.message);
    }
    /* Flipped bytes anywhere: an error, or (a damaged ancillary chunk,
     * which libpng lets pass) a result; never a crash (run under ASan). */
    for (int k = 0; good && k < 200; k++) {
        long at = (long)(next() % (uint32_t)n);
        uint8_t was = good[at];
        good[at] ^= (uint8_t)(1 << (next() % 8));
        put_file(pa, good, n);
        good[at] = was;
        gt_diff_pair p = run_one(pe, pa, &o, 1 + k % 2, NULL);
        CHECK(p.status == GT_DIFF_ERROR ? !p.has_result : p.has_result,
              "byte %ld flipped: status %d without a result", at, (int)p.status);
    }
    free(good);
    free(e.v);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_stream SCRATCH_DIR\n");
        return 2;
    }
    dir = argv[1];
    if (tpng_fresh_dir(dir) != 0)
        return 2;
    layouts();
    large_eight_bit();
    depth_cases();
    damaged();
    return tcheck_exit("test_stream");
}
