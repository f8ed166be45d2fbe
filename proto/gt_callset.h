/* gt_callset.h: sets of call or frame numbers as a user writes them on a
 * command line (replay's --frames, --calls and --snapshot, extract's
 * --frames): one grammar for every tool, after apitrace's call sets.
 *
 *   SET   = RANGE { "," RANGE }
 *   RANGE = N          just N
 *         | A "-" B    A to B, both included, A <= B
 *         | A "-"      A and every number after it
 *         | "-" B      0 to B
 *
 * Numbers are decimal, without sign or spaces, up to 2^64 - 1. No GL, no
 * allocation but the set's own.
 *
 * Error style: 0, or -1 with one line in the caller's err buffer that names
 * the argument and quotes its value, such as
 * "--snapshot '30-20': 30-20 runs backwards (A > B); expected ...". */
#ifndef GT_CALLSET_H
#define GT_CALLSET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Range k (0 <= k < n) is bounds[2k]..bounds[2k+1], inclusive, in the
 * order written; an open end is UINT64_MAX. The flat pairs are what
 * gt_replay_options.snap_calls takes. */
typedef struct gt_callset {
    uint64_t *bounds;
    size_t n;
} gt_callset;

/* Parses `text`, the value of the command-line argument `arg` (used in
 * messages only), into *set. On failure *set is left empty. */
int gt_callset_parse(const char *arg, const char *text, gt_callset *set, char *err, size_t errlen);

/* The same grammar restricted to one range (no comma list), for options
 * that select a single span: *first..*last. */
int gt_callset_parse_range(const char *arg, const char *text, uint64_t *first, uint64_t *last, char *err,
                           size_t errlen);

/* 1 when n lies in one of the set's ranges. */
int gt_callset_contains(const gt_callset *set, uint64_t n);

/* Frees the ranges and empties the set; safe on an empty set. */
void gt_callset_free(gt_callset *set);

#ifdef __cplusplus
}
#endif

#endif
