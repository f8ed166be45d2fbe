/* gt_trace.h: the trace container, writer and reader (see FORMAT.md).
 *
 * Format code: depends on zstd and libc only, nothing GL. Error style of this
 * layer: functions return 0 / a pointer on success and -1 / NULL on failure,
 * with a message in the caller's or the object's error buffer that names the
 * file and the byte offset. */
#ifndef GT_TRACE_H
#define GT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GT_FORMAT_VERSION 4u

/* Synthetic function numbers (also in api/functions.tsv). */
#define GT_FN_INVALID 3000
#define GT_FN_VERTEX_ATTRIB_POINTER_DATA 3001
#define GT_FN_METADATA 3002
#define GT_FN_UNCOVERED 3003
#define GT_FN_SNAPSHOT 3004
#define GT_FN_MAPPED_DATA 3005
#define GT_FN_SURFACE 3006
#define GT_FN_CONTEXT 3007
#define GT_FN_CURRENT 3008 /* gltraceCurrent: a thread's current context when tracing began */
/* gltraceSurfaceContents: a new surface's colour buffer when a context first
 * binds it (undefined by EGL: what the recorded process found there is what
 * replay writes into its own surface; not a comparison). */
#define GT_FN_SURFACE_CONTENTS 3009
/* gltraceFrameEnd: a frame of a program that never swaps ended where
 * capture would have taken its snapshot (at glFinish), before a mid-run
 * start (no pixels read there): it ends a frame as a snapshot does. */
#define GT_FN_FRAME_END 3010
#define GT_FN_SYNTHETIC_LAST 3999 /* 3000-3999: records gltrace adds, not calls */

/* Whether a function number is a record gltrace adds: calls are numbered
 * below 3000 and, appended to api/functions.tsv later, from 4000 on
 * (glDrawElementsBaseVertex, eglSwapBuffersWithDamageKHR, ...): a test of
 * `>= GT_FN_INVALID` alone takes those calls for records of ours. */
#define GT_FN_IS_SYNTHETIC(fn) ((fn) >= GT_FN_INVALID && (fn) <= GT_FN_SYNTHETIC_LAST)

/* GLMessage field numbers of ours (see gltrace.proto). */
#define GT_FIELD_SEQ 9
#define GT_FIELD_THREAD_ID 10

#define GT_ERRLEN 512

/* ---------------------------------------------------------------- writer */

typedef struct gt_writer gt_writer;

/* What a chunk holds; the writer fills in the sizes itself. */
typedef struct gt_chunk_info {
    uint64_t thread_id;
    uint64_t first_seq;
    uint64_t last_seq;
    uint64_t first_frame;
    uint32_t record_count;
    uint32_t flags; /* GT_CHUNK_* */
} gt_chunk_info;

/* Chunk header flags. Compaction writes every thread's chunks of a range
 * of seqs together, by first seq, all flagged GT_CHUNK_RANGES and the
 * range's last one GT_CHUNK_COMPLETE (every record up to its last seq is
 * in it or before it in the file). A file cut short then starts at the
 * first call, and a reader stops at the first record missing: a prefix of
 * the calls (FORMAT.md). */
#define GT_CHUNK_COMPLETE 1u
#define GT_CHUNK_RANGES 2u
/* The chunk's records carry their start times as differences (gt_writer
 * codes them, gt_reader restores them; FORMAT.md). */
#define GT_CHUNK_TIMES 4u
/* With GT_CHUNK_TIMES: the first timed record holds its time as it is, the
 * others their differences (format 4). Without it (format 3) the first
 * held its difference from 0: twice the time, which does not fit the
 * time's own varint bytes for half of each length's range (a clock past
 * 2^41 ns, 37 minutes after boot, up to 2^42), and such chunks went
 * uncoded. */
#define GT_CHUNK_TIMES_BASE 8u

/* Creates (truncates) `path`. `level` is the zstd level. On failure returns
 * NULL and writes a message into err (errlen bytes). */
gt_writer *gt_writer_open(const char *path, int level, char *err, size_t errlen);
/* The same trace written to `fd` (a socket: the bytes are those of the
 * file, sent in order; nothing is ever re-written), which the writer then
 * owns; `name` names it in messages. */
gt_writer *gt_writer_open_fd(int fd, const char *name, int level, char *err, size_t errlen);

/* Compresses `len` bytes of legacy-framed records as one chunk and writes its
 * header and data frame. Not thread-safe: one thread writes. Returns 0, or -1
 * with gt_writer_error() set (the file is then left as it was before the
 * chunk, as far as the filesystem allows). */
int gt_writer_chunk(gt_writer *w, const gt_chunk_info *info, const void *records, size_t len);

/* Sets the zstd level of the chunks written from now on (each chunk is an
 * independent frame, so levels may differ). Returns 0 or -1. */
int gt_writer_set_level(gt_writer *w, int level);

/* Writes the seek index and closes the file. Returns 0 or -1. Frees w. */
int gt_writer_close(gt_writer *w, char *err, size_t errlen);

/* Closes the file descriptor without writing the index (used after a fork in
 * the child, or when giving up). Frees w. */
void gt_writer_abandon(gt_writer *w);

const char *gt_writer_error(const gt_writer *w);

/* Nonzero when the last gt_writer_chunk failed for want of space (ENOSPC,
 * EFBIG, EDQUOT): a smaller chunk may still fit, which the capture uses to
 * keep as much of the trace as the disk holds. */
int gt_writer_no_space(const gt_writer *w);

/* Bytes written so far (compressed, headers included) and taken in. */
uint64_t gt_writer_bytes_out(const gt_writer *w);
uint64_t gt_writer_bytes_in(const gt_writer *w);

/* ---------------------------------------------------------------- reader */

typedef struct gt_reader gt_reader;

typedef enum gt_format { GT_FORMAT_ZSTD = 1, GT_FORMAT_LEGACY = 2 } gt_format;

typedef struct gt_record {
    const uint8_t *data;   /* one GLMessage, valid until the next call */
    size_t size;
    uint64_t seq;          /* global call number (legacy: index in file) */
    uint64_t thread_id;    /* from the chunk (legacy: 0) */
    uint64_t offset;       /* file offset of the chunk (legacy: of the record) */
    uint64_t scan;         /* the id its gt_reader_set_scanner scan had, 0 none */
} gt_record;

typedef struct gt_reader_stats {
    gt_format format;
    int has_index;          /* the file ended with a valid seek index */
    uint64_t file_size;
    uint64_t uncompressed_size; /* sum over the chunks read so far/indexed */
    uint64_t chunks;
    uint64_t records;       /* from chunk headers (legacy: counted as read) */
    uint64_t frames;        /* highest first_frame seen + 0 (see FORMAT.md) */
} gt_reader_stats;

/* Opens a trace (format detected by content). On failure returns NULL with a
 * message in err naming the file (and offset where one applies). A damaged
 * file still opens when its first chunk is readable: the damage is reported
 * by gt_reader_next() once every record before it has been delivered. */
gt_reader *gt_reader_open(const char *path, char *err, size_t errlen);

/* Next record in call (seq) order. Returns 1 with *rec filled, 0 at the
 * clean end, -1 on damage (gt_reader_error() names file and offset). */
int gt_reader_next(gt_reader *r, gt_record *rec);

/* The reader finds each record's seq before it delivers the record before
 * it (gt_wire_find_varint). A caller that parses every record anyway can
 * do that instead, so the record is read once: `scan` must return what
 * gt_wire_find_varint(msg, len, GT_FIELD_SEQ, seq) would. Each scan gets a
 * new id (never 0), which the record carries when delivered; `keep` is the
 * id of the record this call of gt_reader_next delivers (0: none yet), so
 * the caller keeps what it parsed of that one. Zstd container only. */
typedef int (*gt_record_scanner)(void *ctx, const uint8_t *msg, size_t len, uint64_t id, uint64_t keep,
                                 uint64_t *seq);
void gt_reader_set_scanner(gt_reader *r, gt_record_scanner scan, void *ctx);

/* Positions the reader at the first chunk that holds frame `frame` (uses the
 * seek index, or the chunk headers walked at open). Returns 0 or -1. */
int gt_reader_seek_frame(gt_reader *r, uint64_t frame);

/* Positions the reader at call `seq`: the next record delivered is the
 * first with seq >= `seq`; chunks wholly before it are not decompressed. */
int gt_reader_seek_seq(gt_reader *r, uint64_t seq);

const char *gt_reader_error(const gt_reader *r);
void gt_reader_stats_get(const gt_reader *r, gt_reader_stats *st);
void gt_reader_close(gt_reader *r);

/* ---------------------------------------------------------------- compaction */

/* Rewrites the complete trace `in` as `out` with each thread's records in
 * chunks of about `chunk_bytes` uncompressed (0: 4 MiB), zstd `level`,
 * counting a frame after each record whose function number is one of
 * `frame_fns`. Returns 0, or -1 with a message in err (`out` is then
 * removed; `in` is never touched). A damaged trace, or one without its
 * seek index (the app ended before capture finished), is refused, -2 for
 * the latter: it is left as capture wrote it, the evidence of how it ended. */
int gt_compact(const char *in, const char *out, int level, size_t chunk_bytes, const int32_t *frame_fns,
               size_t nframe_fns, char *err, size_t errlen);

/* ---------------------------------------------------------------- frames */

/* Where a trace's frames end (gt_frames.c): at its swaps (records for which
 * `swap` says so: gt_api_ends_frame), or in a trace that never swaps, at
 * its runs of snapshot and gltraceFrameEnd records. swaps: the trace's
 * swaps (with `all`; else 1 when it has one: the scan stops there).
 * last_seq[i]: the seq of the last record of frame i of a trace that never
 * swaps. 0, or -1 with a message in err when the trace cannot be read. */
typedef struct gt_frame_ends {
    uint64_t swaps;
    uint64_t *last_seq;
    size_t n, cap;
} gt_frame_ends;
int gt_frames_scan(const char *path, int (*swap)(uint64_t fn, uint64_t alias), int all, gt_frame_ends *fe,
                   char *err, size_t errlen);
void gt_frames_free(gt_frame_ends *fe);

/* ---------------------------------------------------------------- wire */

/* Finds the first varint field `field` at top level of a message. Returns 1
 * and *val, 0 when absent, -1 when the message is malformed. Used by the
 * reader for seq, and by tools that need one field without a full decode. */
int gt_wire_find_varint(const uint8_t *msg, size_t len, uint32_t field, uint64_t *val);

uint32_t gt_crc32(const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
