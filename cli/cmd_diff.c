/* cmd_diff.c: `gltrace diff EXPECTED ACTUAL [options]`, the command-line
 * face of the diff library: parse arguments, run the batch, print one line
 * per pair worth reading, write the reports asked for. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_compare_args.h"
#include "gt_cli.h"
#include "gt_diff.h"

static const char usage_text[] =
    "usage: gltrace diff EXPECTED ACTUAL [options]\n"
    "\n"
    "Compares two PNG files, or two directories of PNGs paired by relative path.\n"
    "\n"
    "comparison:\n"
    CLI_COMPARE_USAGE
    "  To compare renders of another driver: --mode perceptual (defaults as\n"
    "  above). A --max-diff budget forgives shading noise on highlights but\n"
    "  can also let a small missing object through (bench/diff/README.md).\n"
    "\n"
    "outputs:\n"
    "  --diff-image FILE  two files: write the diff image to FILE\n"
    "  --diff-dir DIR     write a diff image for each differing pair into DIR\n"
    "  --json FILE        JSON report ('-' for standard output)\n"
    "  --junit FILE       JUnit XML report\n"
    "  --html DIR         HTML report folder (index.html and image copies)\n"
    "  -j, --jobs N       threads (default: one per CPU)\n"
    "  -q, --quiet        print nothing but errors\n"
    "  -v, --verbose      print passing pairs too\n"
    "\n"
    "Depth: --mode exact compares every sample at the file's own depth, as\n"
    "ImageMagick's compare -metric AE does: a change in the low byte of a 16-bit\n"
    "sample counts, and an 8-bit file equals a 16-bit one of its values times\n"
    "257 (16-bit files that are interlaced or have a tRNS chunk are the\n"
    "exception: rounded to 8 bits first). The other modes, tolerances and the\n"
    "metrics (largest channel difference, RMSE) work on 8-bit values.\n"
    "\n"
    "Diff images: differences red, anti-aliasing yellow, within tolerance pale\n"
    "orange, ignored regions blue, over a faded grey copy of EXPECTED.\n"
    "Exit status: 0 all pairs match, 1 differences, 2 error.\n";

typedef struct args {
    const char *paths[2];
    int npaths;
    cli_compare_args c;
    const char *diff_image, *diff_dir, *json, *junit, *html;
    unsigned jobs;
    int quiet, verbose;
} args;

static int bad_arg(const char *fmt, const char *arg)
{
    fputs("gltrace diff: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return -1;
}

/* Handles one option that takes a value. Returns 0, or -1 after printing
 * what was wrong. */
static int option_value(args *a, const char *opt, const char *v)
{
    unsigned long u;
    char err[256];
    if (cli_compare_takes_value(opt)) {
        if (cli_compare_value(&a->c, opt, v, err, sizeof err) != 0)
            return bad_arg("%s", err);
    } else if (!strcmp(opt, "--jobs") || !strcmp(opt, "-j")) {
        char *end;
        errno = 0;
        u = strtoul(v, &end, 10);
        if (!*v || *v == '-' || *v == '+' || errno || *end || u == 0 || u > 1024)
            return bad_arg("--jobs '%s': expected an integer 1..1024", v);
        a->jobs = (unsigned)u;
    } else if (!strcmp(opt, "--diff-image")) {
        a->diff_image = v;
    } else if (!strcmp(opt, "--diff-dir")) {
        a->diff_dir = v;
    } else if (!strcmp(opt, "--json")) {
        a->json = v;
    } else if (!strcmp(opt, "--junit")) {
        a->junit = v;
    } else if (!strcmp(opt, "--html")) {
        a->html = v;
    } else {
        return bad_arg("unknown option '%s'", opt);
    }
    return 0;
}

static const char *const valued[] = {"--jobs", "-j", "--diff-image", "--diff-dir", "--json", "--junit", "--html"};

static int is_valued(const char *opt)
{
    if (cli_compare_takes_value(opt))
        return 1;
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (!strcmp(opt, valued[i]))
            return 1;
    return 0;
}

/* Returns 0 to go on, 1 after --help, -1 on a bad argument. */
static int parse_args(args *a, int argc, char **argv)
{
    int only_paths = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (only_paths || s[0] != '-' || !s[1]) {
            if (a->npaths == 2)
                return bad_arg("unexpected argument '%s' (give EXPECTED and ACTUAL only)", s);
            a->paths[a->npaths++] = s;
        } else if (!strcmp(s, "--")) {
            only_paths = 1;
        } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            fputs(usage_text, stdout);
            return 1;
        } else if (cli_compare_flag(&a->c, s)) {
        } else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
            a->quiet = 1;
        } else if (!strcmp(s, "-v") || !strcmp(s, "--verbose")) {
            a->verbose = 1;
        } else {
            char opt[32];
            const char *eq = strchr(s, '=');
            const char *v;
            if (eq && s[1] == '-' && (size_t)(eq - s) < sizeof opt) {
                memcpy(opt, s, (size_t)(eq - s));
                opt[eq - s] = 0;
                v = eq + 1;
            } else {
                snprintf(opt, sizeof opt, "%s", s);
                if (!is_valued(opt))
                    return bad_arg("unknown option '%s'", s);
                if (i + 1 == argc)
                    return bad_arg("option '%s' needs a value", s);
                v = argv[++i];
            }
            if (option_value(a, eq && s[1] == '-' ? opt : s, v) != 0)
                return -1;
        }
    }
    if (a->npaths != 2)
        return bad_arg("%s", a->npaths ? "missing ACTUAL" : "missing EXPECTED and ACTUAL");
    char err[256];
    if (cli_compare_finish(&a->c, err, sizeof err) != 0)
        return bad_arg("%s", err);
    return 0;
}

static void print_pair(FILE *f, const gt_diff_pair *p)
{
    static const char *const tag[] = {"PASS", "FAIL", "ERROR"};
    fprintf(f, "%-5s %s", tag[p->status], p->name);
    if (p->status == GT_DIFF_ERROR || !p->has_result) {
        fprintf(f, ": %s\n", p->message);
        return;
    }
    const gt_diff_result *r = &p->result;
    if (r->identical) {
        fputs(": identical\n", f);
        return;
    }
    fprintf(f, ": %llu pixels differ (%.4f%%)", (unsigned long long)r->diff_pixels, r->diff_percent);
    if (r->aa_pixels)
        fprintf(f, ", %llu anti-aliased", (unsigned long long)r->aa_pixels);
    if (r->isolated_pixels)
        fprintf(f, ", %llu isolated", (unsigned long long)r->isolated_pixels);
    fprintf(f, ", largest channel difference %u, RMSE %.3f, PSNR %.2f dB", r->max_channel_diff,
            r->rmse, r->psnr);
    if (r->bbox.w)
        fprintf(f, ", box x %u y %u %ux%u", r->bbox.x, r->bbox.y, r->bbox.w, r->bbox.h);
    if (p->diff_image)
        fprintf(f, ", diff image %s", p->diff_image);
    fputc('\n', f);
}

static int write_report(const char *path, const gt_diff_batch *b, const gt_diff_options *o,
                        int (*fn)(FILE *, const gt_diff_batch *, const gt_diff_options *))
{
    int to_stdout = !strcmp(path, "-");
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gltrace diff: %s: cannot create: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = fn(f, b, o);
    if (to_stdout)
        rc |= fflush(f);
    else
        rc |= fclose(f);
    if (rc != 0)
        fprintf(stderr, "gltrace diff: %s: write error\n", path);
    return rc ? -1 : 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

/* Fills the batch from the two paths. Returns 0 or -1 (message printed). */
static int make_batch(const args *a, gt_diff_batch *b)
{
    struct stat se, sa;
    const char *pe = a->paths[0], *pa = a->paths[1];
    int de = stat(pe, &se) == 0 && S_ISDIR(se.st_mode);
    int da = stat(pa, &sa) == 0 && S_ISDIR(sa.st_mode);
    if (de != da) {
        fprintf(stderr, "gltrace diff: %s is a %s but %s is not: give two files or two directories\n",
                de ? pe : pa, "directory", de ? pa : pe);
        return -1;
    }
    if (de) {
        char err[GT_DIFF_ERR_MAX];
        if (a->diff_image) {
            fprintf(stderr, "gltrace diff: --diff-image is for two files; use --diff-dir for directories\n");
            return -1;
        }
        if (gt_diff_batch_add_dirs(b, pe, pa, err) != 0) {
            fprintf(stderr, "gltrace diff: %s\n", err);
            return -1;
        }
        /* Two empty folders are a broken CI setup, not a pass. */
        if (b->n == 0) {
            fprintf(stderr, "gltrace diff: no .png files in %s or %s\n", pe, pa);
            return -1;
        }
        return 0;
    }
    if (gt_diff_batch_add(b, base_name(pe), pe, pa) != 0 ||
        (a->diff_image && !(b->pairs[0].diff_image = strdup(a->diff_image)))) {
        fprintf(stderr, "gltrace diff: out of memory\n");
        return -1;
    }
    return 0;
}

int gt_cmd_diff(int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    cli_compare_args_init(&a.c);
    int rc = parse_args(&a, argc, argv);
    if (rc != 0)
        return rc > 0 ? 0 : 2;

    gt_diff_batch b = {0};
    if (make_batch(&a, &b) != 0) {
        gt_diff_batch_free(&b);
        return 2;
    }
    /* The HTML report needs diff images; put them straight into it. */
    char *html_diffs = NULL;
    const char *diff_dir = a.diff_dir;
    if (a.html && !diff_dir) {
        size_t n = strlen(a.html) + 16;
        html_diffs = malloc(n);
        if (!html_diffs) {
            gt_diff_batch_free(&b);
            return 2;
        }
        snprintf(html_diffs, n, "%s/img/diff", a.html);
        diff_dir = html_diffs;
    }
    gt_diff_batch_run(&b, &a.c.o, diff_dir, a.jobs);

    size_t pass, fail, error;
    gt_diff_batch_counts(&b, &pass, &fail, &error);
    /* With the JSON on standard output, the text goes to standard error. */
    FILE *text = a.json && !strcmp(a.json, "-") ? stderr : stdout;
    for (size_t i = 0; i < b.n; i++) {
        const gt_diff_pair *p = &b.pairs[i];
        if (p->status == GT_DIFF_ERROR)
            print_pair(stderr, p);
        else if (!a.quiet && (p->status == GT_DIFF_FAIL || a.verbose || b.n == 1))
            print_pair(text, p);
    }
    if (!a.quiet && b.n != 1)
        fprintf(text, "%zu pairs: %zu passed, %zu failed, %zu error%s\n", b.n, pass, fail, error,
                error == 1 ? "" : "s");

    int report_failed = 0;
    if (a.json)
        report_failed |= write_report(a.json, &b, &a.c.o, gt_diff_report_json);
    if (a.junit)
        report_failed |= write_report(a.junit, &b, &a.c.o, gt_diff_report_junit);
    if (a.html) {
        char err[GT_DIFF_ERR_MAX];
        if (gt_diff_report_html(a.html, &b, &a.c.o, err) != 0) {
            fprintf(stderr, "gltrace diff: %s\n", err);
            report_failed = 1;
        } else if (!a.quiet) {
            fprintf(text, "HTML report: %s/index.html\n", a.html);
        }
    }
    gt_diff_batch_free(&b);
    free(html_diffs);
    if (error || report_failed)
        return 2;
    return fail ? 1 : 0;
}
