/* cli_compare_args.h: the image-comparison options `gltrace diff` and
 * `gltrace replay` share, parsed one way for both so the two commands mean
 * the same by them. Error style: functions return -1 and write one line
 * (without the command's name) into err. */
#ifndef CLI_COMPARE_ARGS_H
#define CLI_COMPARE_ARGS_H

#include <stddef.h>

#include "gt_diff.h"

#define CLI_COMPARE_MAX_IGNORE 64

/* The options' help, as both commands print it. */
#define CLI_COMPARE_USAGE                                                                  \
    "  --mode MODE        exact (default), tolerance, perceptual or position\n"          \
    "  --tolerance N      largest per-channel difference that passes, 0..255\n"          \
    "                     (tolerance and position modes; default 0)\n"                   \
    "  --threshold T      perceptual: YIQ distance threshold 0..1 (default 0.1)\n"       \
    "  --radius R         position, perceptual: a pixel also passes if one within\n"     \
    "                     R pixels in the other image matches, both ways; 0..8\n"        \
    "                     (default 1)\n"                                                 \
    "  --count-aa         perceptual: count anti-aliased pixels as differences\n"        \
    "  --isolated WHAT    count or ignore differing pixels with fewer than two\n"        \
    "                     differing neighbours (driver noise); default: ignore\n"        \
    "                     in perceptual and position modes, count otherwise\n"           \
    "  --ignore-alpha     compare RGB only\n"                                            \
    "  --ignore X,Y,W,H   leave a rectangle out of the comparison (repeatable)\n"        \
    "  --max-diff N       pass when at most N pixels differ; N% for a percentage\n"      \
    "                     (both forms may be given; default: none may differ)\n"         \
    "  Giving --tolerance or --threshold without --mode selects the tolerance\n"         \
    "  or perceptual mode.\n"

typedef struct cli_compare_args {
    gt_diff_options o;
    gt_diff_rect ignore[CLI_COMPARE_MAX_IGNORE];
    int mode_given, tol_given, thr_given, rad_given, iso_given;
    int given;             /* any comparison option at all */
} cli_compare_args;

void cli_compare_args_init(cli_compare_args *a);

/* 1 when `opt` is a comparison option that takes a value. */
int cli_compare_takes_value(const char *opt);

/* Takes a flag (--count-aa, --ignore-alpha): 1 when it is one, else 0. */
int cli_compare_flag(cli_compare_args *a, const char *opt);

/* Takes `opt` with its value: 0, or -1 (err says what is wrong). */
int cli_compare_value(cli_compare_args *a, const char *opt, const char *v, char *err, size_t len);

/* After all options: the mode an option implies when none was given, and
 * options that cannot apply to the mode refused. 0, or -1 with err. */
int cli_compare_finish(cli_compare_args *a, char *err, size_t len);

#endif
