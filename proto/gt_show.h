/* gt_show.h: a trace record, or the metadata, as text or JSON: what
 * `gltrace dump` and `info` print, and what a viewer can serve. No GL: values
 * are named from the API description's tables (gt_api.h). */
#ifndef GT_SHOW_H
#define GT_SHOW_H

#include <stdio.h>

#include "gltrace.pb-c.h"
#include "gt_snapshot.h"
#include "gt_trace.h"

/* Before a record in the text dump: a trimmed trace's marker
 * (replay/TRIM.md) opens its part, the setup or the kept calls, with a
 * line of its own ("---- setup: ... ----"); nothing for other records. */
void gt_show_trim_part(FILE *f, const Gltrace__GLMessage *m);

/* One record: `json` selects JSON Lines, `full` shows all data behind
 * pointers instead of a shortened view. `chain` keeps the pixels of coded
 * snapshots (gt_snapshot.h) across the records of one trace, given in call
 * order, so that they are shown by their pixels as raw ones are; NULL:
 * shown by their coding alone. */
void gt_show_record(FILE *f, const Gltrace__GLMessage *m, const gt_record *rec, int json, int full,
                    gt_snap_chain *chain);

/* The pixels of a snapshot record of thread `tid`: its contents when raw,
 * else decoded through `chain` (which must see every snapshot of the trace
 * in call order, this one included). 0 with *px, *n; -1 with a reason.
 * px NULL: the snapshot only joins the chain (nothing is decoded). */
int gt_show_snapshot_pixels(gt_snap_chain *chain, const Gltrace__GLMessage__FrameBuffer *fb, uint64_t tid,
                            const uint8_t **px, size_t *n, char *err, size_t errlen);

/* The metadata message as one JSON object. */
void gt_show_metadata_json(FILE *f, const Gltrace__TraceMetadata *m);

/* s (len bytes) as a JSON string literal. */
void gt_show_json_string(FILE *f, const char *s, size_t len);

/* The function's name (from api/functions.tsv) or "functionN". */
const char *gt_show_name(const Gltrace__GLMessage *m, char *buf, size_t len);

#endif
