/* gt_wire_times.h: start times of a chunk's records as differences
 * (FORMAT.md, "Times within a chunk"). Private to proto/: the writer codes
 * a chunk before compressing it, the reader decodes it after. */
#ifndef GT_WIRE_TIMES_H
#define GT_WIRE_TIMES_H

#include <stddef.h>
#include <stdint.h>

/* 1 when every record of the chunk (`len` bytes of framed records) that
 * begins with fields 1 and 2 can have its start time's difference from the
 * one before (zigzag) in its field's bytes: gt_times_to_delta can code it.
 * base: the first such record keeps its time (GT_CHUNK_TIMES_BASE); else
 * it too is a difference, from 0 (format 3). */
int gt_times_codable(const uint8_t *recs, size_t len, int base);

/* In place: each such record's field 2 becomes its difference from the
 * previous such record's, zigzag, in as many varint bytes as it had (the
 * first: kept with base, else from 0). Call only when gt_times_codable
 * said 1. */
void gt_times_to_delta(uint8_t *recs, size_t len, int base);

/* In place, the inverse. -1 when a sum does not fit its bytes (damage). */
int gt_times_from_delta(uint8_t *recs, size_t len, int base);

#endif
