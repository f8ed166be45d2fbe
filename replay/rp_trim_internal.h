/* rp_trim_internal.h: what the parts of the trim share (gt_trim.h is the
 * public side): the plan, one bit per original record of the setup saying
 * whether it is left out, made by replaying up to the start
 * (rp_trim_plan.c), and the writing of the trimmed trace from it
 * (rp_trim_write.c). */
#ifndef RP_TRIM_INTERNAL_H
#define RP_TRIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "gt_trim.h"

typedef struct rp_trim_plan {
    uint8_t *drop;          /* bit per seq below first_kept: left out of the setup */
    uint64_t first_kept;    /* seq of the first record kept verbatim */
    uint64_t start_frame;   /* the frame it lies in */
    uint64_t dropped_draws, dropped_other;
} rp_trim_plan;

static inline int rp_trim_dropped(const rp_trim_plan *p, uint64_t seq)
{
    return seq < p->first_kept && (p->drop[seq >> 3] >> (seq & 7) & 1);
}

/* Replays `in` up to the start `opt` asks for and fills the plan. 0, or -1
 * with sum->error set. */
int rp_trim_plan_make(const char *in, const gt_trim_options *opt, rp_trim_plan *plan, gt_trim_summary *sum);
void rp_trim_plan_free(rp_trim_plan *plan);

/* Writes `out`: the setup records the plan keeps, a marker, and the records
 * of the kept frames or calls, renumbered from 0. 0, or -1 with sum->error
 * set (`out` is then removed). */
int rp_trim_write(const char *in, const char *out, const gt_trim_options *opt, const rp_trim_plan *plan,
                  gt_trim_summary *sum);

#endif
