/* gt_diff.h: image comparison for regression testing.
 *
 * The library decodes PNG files, compares two images under one of four
 * modes, renders a picture of the differences and writes JSON, JUnit XML and
 * HTML reports. It knows nothing of GL or of traces: capture, replay and the
 * command line all use it through this header only.
 *
 * Pixels are always 8-bit RGBA in memory. PNG input of any colour type and
 * bit depth is converted on reading; 16-bit samples are rounded to 8 bits
 * (as libpng's png_set_scale_16), so tolerances and metrics are always in
 * 8-bit units (0..255). One exception, for files: gt_diff_batch_run in
 * EXACT mode compares the two files' samples at full depth while reading
 * them (as ImageMagick's compare -metric AE counts), so a change in the low
 * byte of a 16-bit sample counts, and an 8-bit file equals the 16-bit file
 * of its values times 257; 16-bit files that are interlaced or carry a tRNS
 * chunk are rounded to 8 bits first, like everything else.
 *
 * Errors: functions that can fail return 0 on success and -1 on failure,
 * and write a one-line message naming the file (and the byte offset when
 * the file is at fault) into the caller's `err` buffer. No function prints,
 * exits or aborts on bad input.
 */
#ifndef GT_DIFF_H
#define GT_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of the `err` buffers the functions below write into. */
#define GT_DIFF_ERR_MAX 512

/* ---- images ------------------------------------------------------------ */

/* An 8-bit RGBA image, rows top to bottom, no padding: pixel (x, y) is at
 * rgba[4 * (y * width + x)]. */
typedef struct gt_diff_image {
    uint32_t width, height;
    uint8_t *rgba;
} gt_diff_image;

/* Allocates a width x height image, all zero. Returns 0 or -1 (out of
 * memory, or a size whose byte count overflows). */
int gt_diff_image_alloc(gt_diff_image *img, uint32_t width, uint32_t height);

/* Frees the pixels and zeroes the struct; safe on a zeroed struct. */
void gt_diff_image_free(gt_diff_image *img);

/* A 64-bit hash of the size and pixels. Equal images hash equal; replay can
 * store it instead of a reference PNG. */
uint64_t gt_diff_image_hash(const gt_diff_image *img);

/* ---- PNG --------------------------------------------------------------- */

/* Decodes the PNG file `path` into *img (8-bit RGBA, see above). Accepts
 * every PNG colour type and bit depth, interlaced or not. A truncated,
 * corrupt or non-PNG file gives -1 and a message such as
 * "a.png: truncated at byte 4096 of 4096 (IDAT data incomplete)". */
int gt_diff_png_read(const char *path, gt_diff_image *img, char *err);

/* Same, from `size` bytes in memory; `name` is used in messages only. */
int gt_diff_png_read_mem(const void *data, size_t size, const char *name,
                         gt_diff_image *img, char *err);

/* Writes *img as an 8-bit RGBA PNG. Favours speed over size: fast zlib
 * level and no per-row filter search, since diff images are looked at once
 * and thrown away. */
int gt_diff_png_write(const char *path, const gt_diff_image *img, char *err);

/* ---- comparison -------------------------------------------------------- */

typedef enum gt_diff_mode {
    /* Any change in any channel is a difference. Identical buffers are
     * detected first and stop there. */
    GT_DIFF_EXACT,
    /* A pixel differs when one channel differs by more than `tolerance`. */
    GT_DIFF_TOLERANCE,
    /* A pixel differs when its YIQ colour distance
     * 0.5053*dY^2 + 0.299*dI^2 + 0.1957*dQ^2 exceeds 35215 * threshold^2
     * (the metric of pixelmatch and odiff). Anti-aliased pixels are detected
     * and, unless `count_aa` is set, not counted as differences. With a
     * radius, a pixel also passes when a pixel within it in the other image
     * (both ways) is within the threshold. */
    GT_DIFF_PERCEPTUAL,
    /* As TOLERANCE, but a pixel also passes when some pixel of the other
     * image within `radius` (both ways) is within tolerance: absorbs edges
     * that different rasterisers place one pixel apart. */
    GT_DIFF_POSITION,
} gt_diff_mode;

/* A rectangle in pixels; x, y its top-left corner. */
typedef struct gt_diff_rect {
    uint32_t x, y, w, h;
} gt_diff_rect;

/* What to do with isolated differences: differing pixels with fewer than
 * two differing pixels among their eight neighbours. Renderers on other
 * drivers scatter such pixels (precision of shading and texture filtering,
 * measured on llvmpipe against softpipe: bench/diff/README.md); a missing
 * object, a thin line or a wrong colour covers neighbouring pixels and
 * still counts. A lone changed pixel is not seen by this filter. */
typedef enum gt_diff_isolated {
    GT_DIFF_ISOLATED_DEFAULT, /* IGNORE in PERCEPTUAL and POSITION, else COUNT */
    GT_DIFF_ISOLATED_COUNT,
    GT_DIFF_ISOLATED_IGNORE,
} gt_diff_isolated;

typedef struct gt_diff_options {
    gt_diff_mode mode;
    unsigned tolerance;      /* TOLERANCE, POSITION: per channel, 0..255 */
    double threshold;        /* PERCEPTUAL: 0..1, default 0.1 */
    unsigned radius;         /* POSITION, PERCEPTUAL: pixels, default 1 */
    int count_aa;            /* PERCEPTUAL: anti-aliased pixels count too */
    gt_diff_isolated isolated;
    int ignore_alpha;        /* compare RGB only (alpha treated as opaque) */
    /* Budget: the pair passes when the differing pixels are within every
     * budget that is set. Negative means unset; both unset means zero
     * pixels may differ. */
    int64_t max_diff_pixels;
    double max_diff_percent;
    const gt_diff_rect *ignore; /* regions left out of every metric */
    size_t n_ignore;
} gt_diff_options;

/* Fills *o with the defaults: EXACT, tolerance 0, threshold 0.1, radius 1,
 * anti-aliasing excluded, isolated differences as the mode says (see
 * gt_diff_isolated), alpha compared, no budget, no ignore regions. */
void gt_diff_options_init(gt_diff_options *o);

/* Parses a mode name ("exact", "tolerance", "perceptual", "position").
 * Returns 0 or -1 for an unknown name. */
int gt_diff_mode_parse(const char *name, gt_diff_mode *mode);
const char *gt_diff_mode_name(gt_diff_mode mode);

/* Metrics of one comparison. Pixels inside ignore regions are left out of
 * all of them; `compared_pixels` is what remains. */
typedef struct gt_diff_result {
    uint64_t compared_pixels;
    uint64_t diff_pixels;     /* pixels that count as differences */
    double diff_percent;      /* of compared_pixels */
    uint64_t aa_pixels;       /* PERCEPTUAL: differing but anti-aliased */
    uint64_t isolated_pixels; /* differing but isolated, not counted */
    unsigned max_channel_diff;/* largest |expected - actual| of any channel */
    double rmse;              /* over all compared channels, 0..255 */
    double psnr;              /* dB; INFINITY when the images are equal */
    gt_diff_rect bbox;        /* of the counted differences; w = 0 if none */
    int identical;            /* every compared channel equal */
    int pass;                 /* diff_pixels within the budget */
} gt_diff_result;

/* Per-pixel classification written by gt_diff_compare when asked for. */
enum {
    GT_DIFF_PX_SAME = 0,
    GT_DIFF_PX_DIFF = 1,      /* counted difference */
    GT_DIFF_PX_AA = 2,        /* differing, anti-aliased, not counted */
    GT_DIFF_PX_IGNORED = 3,   /* inside an ignore region */
    GT_DIFF_PX_MINOR = 4,     /* differing but within tolerance/threshold */
    GT_DIFF_PX_ISOLATED = 5,  /* over it, but isolated and not counted */
};

/* Compares two images of the same size under *o. When `mask` is not NULL it
 * receives width*height GT_DIFF_PX_* values (and the exact-match shortcut
 * is still taken: an identical pair fills it with SAME/IGNORED).
 * `threads` > 1 splits the work into row bands. Returns 0, or -1 when the
 * sizes differ or an option is out of range (message in err). */
int gt_diff_compare(const gt_diff_image *expected, const gt_diff_image *actual,
                    const gt_diff_options *o, unsigned threads,
                    gt_diff_result *r, uint8_t *mask, char *err);

/* Renders the picture of the differences: a faded grey copy of `expected`
 * with counted differences in red, anti-aliased ones in yellow, differences
 * within tolerance in pale orange and ignore regions tinted blue. */
int gt_diff_render(const gt_diff_image *expected, const uint8_t *mask,
                   gt_diff_image *out);

/* ---- batches of file pairs -------------------------------------------- */

typedef enum gt_diff_status {
    GT_DIFF_PASS,     /* within the budget */
    GT_DIFF_FAIL,     /* differences, a size mismatch or a missing file */
    GT_DIFF_ERROR,    /* a file could not be read or decoded */
} gt_diff_status;

typedef struct gt_diff_pair {
    char *name;          /* relative path (directories) or file name */
    char *expected;      /* path, NULL when missing from EXPECTED */
    char *actual;        /* path, NULL when missing from ACTUAL */
    gt_diff_status status;
    char message[GT_DIFF_ERR_MAX]; /* why it failed or errored; "" on pass */
    uint32_t width, height;        /* of expected (0 if unread) */
    uint32_t actual_width, actual_height;
    int has_result;                /* both decoded, same size: result set */
    gt_diff_result result;
    /* Diff image. Before gt_diff_batch_run: NULL, or a malloc'd path the
     * caller chooses (else diff_dir/NAME is used). After: the path written,
     * or NULL when none was (no difference, or not asked for). */
    char *diff_image;
} gt_diff_pair;

typedef struct gt_diff_batch {
    gt_diff_pair *pairs;
    size_t n, cap;
} gt_diff_batch;

/* Appends a pair; either path may be NULL (missing file). Returns 0/-1. */
int gt_diff_batch_add(gt_diff_batch *b, const char *name,
                      const char *expected, const char *actual);

/* Pairs every *.png below `expected_dir` with the file at the same relative
 * path below `actual_dir`, and adds the PNGs found only in `actual_dir`
 * too, sorted by name. Returns 0, or -1 if a directory cannot be read. */
int gt_diff_batch_add_dirs(gt_diff_batch *b, const char *expected_dir,
                           const char *actual_dir, char *err);

/* Compares every pair on `threads` threads (0: one per online CPU). A
 * single pair decodes its two files on two threads at once. When `diff_dir`
 * is set, a diff image is written to diff_dir/NAME for each pair with any
 * differing pixel. Each pair's outcome lands in its status and message;
 * this function itself cannot fail. */
void gt_diff_batch_run(gt_diff_batch *b, const gt_diff_options *o,
                       const char *diff_dir, unsigned threads);

/* Counts of each status. */
void gt_diff_batch_counts(const gt_diff_batch *b, size_t *pass, size_t *fail,
                          size_t *error);

void gt_diff_batch_free(gt_diff_batch *b);

/* ---- reports ------------------------------------------------------------ */

/* Writes the JSON report (options, summary, one object per pair) to f. */
int gt_diff_report_json(FILE *f, const gt_diff_batch *b,
                        const gt_diff_options *o);

/* Writes a JUnit XML report: one testcase per pair, <failure> or <error>
 * with the message and metrics. */
int gt_diff_report_junit(FILE *f, const gt_diff_batch *b,
                         const gt_diff_options *o);

/* Writes a self-contained HTML report into directory `dir` (created if
 * needed): index.html plus copies of the expected, actual and diff images
 * of every pair. Failures come first; each pair shows the three images side
 * by side, a slider and a toggle to flick between expected and actual, and
 * its metrics. */
int gt_diff_report_html(const char *dir, const gt_diff_batch *b,
                        const gt_diff_options *o, char *err);

/* ---- escaping ---------------------------------------------------------- */

/* The escapers of the reports above, for other tools' reports (replay's)
 * so that every report of the project escapes strings alike. */

/* Writes s as a JSON string literal (with quotes); NULL gives null. Bytes
 * that are not valid UTF-8 become U+FFFD, since file names are bytes. */
void gt_diff_json_str(FILE *f, const char *s);

/* Writes s escaped for XML/HTML text and attribute values (invalid UTF-8
 * and control characters become U+FFFD). */
void gt_diff_xml_str(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif
