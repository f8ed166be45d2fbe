/* cli_compare_args.c: parsing of the comparison options shared by
 * `gltrace diff` and `gltrace replay` (see cli_compare_args.h). */
#include "cli_compare_args.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

void cli_compare_args_init(cli_compare_args *a)
{
    memset(a, 0, sizeof *a);
    gt_diff_options_init(&a->o);
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-' || *s == '+')
        return -1;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int parse_rect(const char *s, gt_diff_rect *r)
{
    unsigned long v[4];
    const char *p = s;
    for (int i = 0; i < 4; i++) {
        char buf[32];
        size_t n = strcspn(p, ",");
        if (n == 0 || n >= sizeof buf || (i < 3 && p[n] != ',') || (i == 3 && p[n]))
            return -1;
        memcpy(buf, p, n);
        buf[n] = 0;
        if (parse_uint(buf, UINT32_MAX, &v[i]) != 0)
            return -1;
        p += n + (i < 3);
    }
    *r = (gt_diff_rect){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (uint32_t)v[3]};
    return 0;
}

static int parse_budget(const char *s, gt_diff_options *o)
{
    size_t n = strlen(s);
    if (n > 1 && s[n - 1] == '%') {
        char buf[64];
        double v;
        if (n >= sizeof buf)
            return -1;
        memcpy(buf, s, n - 1);
        buf[n - 1] = 0;
        if (parse_double(buf, &v) != 0 || v < 0 || v > 100)
            return -1;
        o->max_diff_percent = v;
        return 0;
    }
    unsigned long v;
    if (parse_uint(s, LONG_MAX, &v) != 0)
        return -1;
    o->max_diff_pixels = (int64_t)v;
    return 0;
}

static const char *const valued[] = {"--mode", "--tolerance", "--threshold", "--radius",
                                     "--isolated", "--ignore", "--max-diff"};

int cli_compare_takes_value(const char *opt)
{
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (!strcmp(opt, valued[i]))
            return 1;
    return 0;
}

int cli_compare_flag(cli_compare_args *a, const char *opt)
{
    if (!strcmp(opt, "--count-aa"))
        a->o.count_aa = 1;
    else if (!strcmp(opt, "--ignore-alpha"))
        a->o.ignore_alpha = 1;
    else
        return 0;
    a->given = 1;
    return 1;
}

int cli_compare_value(cli_compare_args *a, const char *opt, const char *v, char *err, size_t len)
{
    unsigned long u;
    double d;
    a->given = 1;
    if (!strcmp(opt, "--mode")) {
        if (gt_diff_mode_parse(v, &a->o.mode) != 0)
            return fail(err, len, "unknown mode '%s' (exact, tolerance, perceptual or position)", v);
        a->mode_given = 1;
    } else if (!strcmp(opt, "--tolerance")) {
        if (parse_uint(v, 255, &u) != 0)
            return fail(err, len, "--tolerance '%s': expected an integer 0..255", v);
        a->o.tolerance = (unsigned)u;
        a->tol_given = 1;
    } else if (!strcmp(opt, "--threshold")) {
        if (parse_double(v, &d) != 0 || d < 0 || d > 1)
            return fail(err, len, "--threshold '%s': expected a number 0..1", v);
        a->o.threshold = d;
        a->thr_given = 1;
    } else if (!strcmp(opt, "--radius")) {
        if (parse_uint(v, 8, &u) != 0)
            return fail(err, len, "--radius '%s': expected an integer 0..8", v);
        a->o.radius = (unsigned)u;
        a->rad_given = 1;
    } else if (!strcmp(opt, "--isolated")) {
        if (!strcmp(v, "count"))
            a->o.isolated = GT_DIFF_ISOLATED_COUNT;
        else if (!strcmp(v, "ignore"))
            a->o.isolated = GT_DIFF_ISOLATED_IGNORE;
        else
            return fail(err, len, "--isolated '%s': expected count or ignore", v);
        a->iso_given = 1;
    } else if (!strcmp(opt, "--ignore")) {
        if (a->o.n_ignore == CLI_COMPARE_MAX_IGNORE)
            return fail(err, len, "too many --ignore regions (at most 64): '%s'", v);
        if (parse_rect(v, &a->ignore[a->o.n_ignore]) != 0)
            return fail(err, len, "--ignore '%s': expected X,Y,W,H in pixels", v);
        a->o.n_ignore++;
    } else if (!strcmp(opt, "--max-diff")) {
        if (parse_budget(v, &a->o) != 0)
            return fail(err, len, "--max-diff '%s': expected a pixel count or a percentage such as 0.5%%", v);
    } else {
        return fail(err, len, "unknown option '%s'", opt);
    }
    return 0;
}

int cli_compare_finish(cli_compare_args *a, char *err, size_t len)
{
    /* An option of one mode says which mode the user means... */
    int implied = a->tol_given ? GT_DIFF_TOLERANCE : -1;
    if (a->thr_given)
        implied = GT_DIFF_PERCEPTUAL;
    if (!a->mode_given && implied >= 0)
        a->o.mode = (gt_diff_mode)implied;
    /* ...and one that cannot apply to the chosen mode is a mistake. */
    gt_diff_mode m = a->o.mode;
    if (a->thr_given && m != GT_DIFF_PERCEPTUAL)
        return fail(err, len, "--threshold applies to --mode perceptual, not %s", gt_diff_mode_name(m));
    if (a->rad_given && m != GT_DIFF_POSITION && m != GT_DIFF_PERCEPTUAL)
        return fail(err, len, "--radius applies to --mode position or perceptual, not %s", gt_diff_mode_name(m));
    if (a->iso_given && m == GT_DIFF_EXACT)
        return fail(err, len, "--isolated does not apply to --mode %s: exact means every pixel", gt_diff_mode_name(m));
    if (a->tol_given && m != GT_DIFF_TOLERANCE && m != GT_DIFF_POSITION)
        return fail(err, len, "--tolerance applies to --mode tolerance or position, not %s", gt_diff_mode_name(m));
    if (a->o.count_aa && m != GT_DIFF_PERCEPTUAL)
        return fail(err, len, "--count-aa applies to --mode perceptual, not %s", gt_diff_mode_name(m));
    a->o.ignore = a->ignore;
    return 0;
}
