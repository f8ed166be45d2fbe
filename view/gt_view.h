/* gt_view.h: `gltrace view`, the trace viewer: an index of a trace kept
 * beside it (gt_view_index_*), a local HTTP server for the page
 * (gt_view_serve) and a folder that opens from disk (gt_view_export).
 *
 * Error style: 0 / a pointer on success, -1 / NULL with one line in the
 * caller's err buffer naming the file (and offset) or argument at fault.
 * Nothing here exits; the server prints its URL and one line per refused
 * request class on stderr only through the caller's log callback. */
#ifndef GT_VIEW_H
#define GT_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gltrace.pb-c.h"
#include "gt_diff.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GT_VIEW_INDEX_VERSION 2u /* 2: frames of a trace that never swaps end at its snapshots */

/* Flags of a call in the index. */
#define GT_VIEW_DRAW 0x01u      /* class draw (api/annotations.txt) */
#define GT_VIEW_FRAME_END 0x02u /* class frame: ends its frame */
#define GT_VIEW_SNAPSHOT 0x04u  /* a gltraceSnapshot record (image) */
#define GT_VIEW_PUSH 0x08u      /* opens a debug group / marker */
#define GT_VIEW_POP 0x10u       /* closes one */
#define GT_VIEW_ERROR 0x20u     /* returned a GL error value (error holds it) */
#define GT_VIEW_CPU 0x40u       /* cpu holds the call's thread time */
#define GT_VIEW_SYNTHETIC 0x80u /* a record gltrace added, not a call */

/* One record of the trace, 48 bytes, in call order. */
typedef struct gt_view_call {
    uint64_t seq;     /* call number, as `gltrace dump` prints it */
    uint64_t offset;  /* file offset of its chunk (legacy: of the record) */
    int64_t t;        /* start, CLOCK_MONOTONIC ns */
    uint32_t dur;     /* wall ns in the driver, saturated at 2^32 - 1 */
    uint32_t cpu;     /* thread CPU ns (GT_VIEW_CPU) */
    uint32_t frame;   /* frame-ending calls before it, all threads */
    uint16_t fn;      /* function number (api/functions.tsv) */
    uint8_t alias, flags;
    uint16_t ctx;     /* context id (saturated) */
    uint16_t thread;  /* index into the thread table */
    uint16_t depth;   /* open debug groups of its context when it ran */
    uint16_t error;   /* the GL error it returned (GT_VIEW_ERROR) */
} gt_view_call;

/* One frame: calls first..first+count-1 (positions in the index). */
typedef struct gt_view_frame {
    uint64_t first, count;
    int64_t t0, t1;    /* first call's start, last call's end */
    uint64_t wall, cpu; /* sums over its calls */
    uint32_t draws, snapshots;
    uint64_t thumb;    /* position of its last snapshot, UINT64_MAX none */
} gt_view_frame;

/* Per function over the whole trace. */
typedef struct gt_view_stat {
    uint16_t fn;
    uint8_t alias, pad;
    uint32_t pad2;
    uint64_t count, wall, cpu;
} gt_view_stat;

typedef struct gt_view_index {
    const gt_view_call *calls;
    uint64_t ncalls;
    const gt_view_frame *frames;
    uint64_t nframes;
    const uint64_t *threads; /* kernel thread ids */
    uint32_t nthreads;
    const gt_view_stat *stats;
    uint32_t nstats;
    uint32_t ncontexts;      /* highest context id + 1 */
    char path[4096];         /* where the index file is */
    int built;               /* 1: built by this open, 0: loaded */
    double build_seconds;    /* when built */
    void *map;               /* the mapped file */
    size_t map_size;
} gt_view_index;

/* Opens the index of `trace`: TRACE.gtview beside it, or (when that folder
 * is not writable) in $XDG_CACHE_HOME/gltrace (~/.cache/gltrace); builds
 * it when missing, of another version, or older than the trace (size or
 * modification time changed). `progress` (may be NULL) is called now and
 * then while building with the bytes read so far and the file's size. */
gt_view_index *gt_view_index_open(const char *trace, void (*progress)(void *, uint64_t, uint64_t), void *ctx,
                                  char *err, size_t errlen);
void gt_view_index_close(gt_view_index *ix);

/* Position of call number `seq` (binary search), or -1 when absent. */
int64_t gt_view_index_find(const gt_view_index *ix, uint64_t seq);

/* The index's file name for `trace` beside it (what open tries first). */
void gt_view_index_path(const char *trace, char *out, size_t len);

typedef struct gt_view_options {
    const char *trace;
    const char *report;    /* a `gltrace replay --json` report, or NULL */
    const char *report_images; /* where its PNGs are (replay's --out); NULL: beside it */
    const char *host_exe;  /* the gltrace program: inspect and replay run as its children */
    int port;              /* 0: a free one */
    const char *token;     /* NULL: a random one */
    int quiet;
    /* Called once listening, with the URL to open (token included). */
    void (*ready)(void *ctx, const char *url);
    void *ctx;
} gt_view_options;

/* Serves the viewer of opt->trace until SIGINT/SIGTERM (or until
 * gt_view_stop is called from another thread). 0, or -1 with err. */
int gt_view_serve(const gt_view_options *opt, char *err, size_t errlen);
void gt_view_stop(void);

/* Writes a folder that shows the trace from file://: the page, its data
 * as script chunks, snapshot images (not the state panel or a replay
 * report: they need the server). `frames`: only those frames' calls
 * and images (bounds as gt_callset's, NULL/0: every frame). */
int gt_view_export(const char *trace, const char *dir, const uint64_t *frames, size_t nframes, char *err,
                   size_t errlen);

/* A recorded snapshot as 8-bit RGBA, rows top first (what `gltrace
 * extract` writes and the viewer shows), from its pixels px (n bytes, as
 * gt_show_snapshot_pixels decodes them): float snapshots clamped to 0..1,
 * integer ones to 0..255. 0, or -1 when the record's sizes disagree. */
int gt_view_snapshot_image(const Gltrace__GLMessage__FrameBuffer *fb, const uint8_t *px, size_t n,
                           gt_diff_image *img);

#ifdef __cplusplus
}
#endif
#endif
