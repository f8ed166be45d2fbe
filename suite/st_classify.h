/* st_classify.h: statuses from a replay child's end and its report. */
#ifndef ST_CLASSIFY_H
#define ST_CLASSIFY_H

#include "st_internal.h"

/* What happened, before labels: Pass, Fail, Crash, Timeout or Error, with
 * x's snapshots, first difference and message filled from the report. */
st_status st_classify_run(const st_trace *t, const st_child *c, const char *out_dir, st_result *x);

/* The status the labels make of it: an expected crash, timeout or failure
 * is ExpectedFail (and its absence UnexpectedPass); a flaky trace's failure
 * is a Flake. */
st_status st_classify_labels(st_status raw, unsigned labels);

/* The key of a snapshot in `checksums:`, "CALL-WHAT" (malloc'd). */
char *st_snap_key(const st_snap *s);

#endif
