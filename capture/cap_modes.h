/* cap_modes.h: the error mode (GLTRACE=error, cap_errors.c) and the timing
 * mode (GLTRACE=timing, cap_timing.c), shared with their generated wrappers
 * (api/emit_modes.py). Neither writes a .gltrace trace: the error mode only
 * logs, the timing mode writes Chrome trace-event JSON. */
#ifndef CAP_MODES_H
#define CAP_MODES_H

#include "gt_api.h" /* gt_class: what a command is (`class` in api/annotations.txt) */
#include "cap_internal.h"

#pragma GCC visibility push(hidden)

/* Generated: the wrappers by index, NULL where the mode has none. */
extern const cap_proc cap_err_wrap[CAP_NFNS];
extern const cap_proc cap_tm_wrap[CAP_NFNS];
extern const uint8_t cap_fn_class[CAP_NFNS];

/* The entry of the error or timing mode's table for one command, NULL for
 * the driver's own function (cap_timing.c, which knows GLTRACE_TIMING). */
cap_proc cap_mode_wrapper(int mode, unsigned idx);

/* ------------------------------------------------------------ error mode */

void cap_error_start(void);
/* After a GL call: the driver's glGetError said `err`. Logs, counts and
 * keeps the error for the app's next glGetError. Slow path only. */
void cap_error_report(unsigned idx, unsigned err, const uint64_t *args);
/* The summary of errors per function (at exit; once). */
void cap_error_summary(void);

/* ------------------------------------------------------------ timing mode */

/* One slice: a call (idx < CAP_NFNS) or a frame (idx == CAP_TM_FRAME).
 * Thread CPU times are 0 when not taken. */
#define CAP_TM_FRAME 0xffffffffu
typedef struct cap_tm_ev {
    uint64_t t0, t1;     /* CLOCK_MONOTONIC ns */
    uint64_t c0, c1;     /* thread CPU ns */
    uint32_t idx;
    uint32_t frame;      /* frame number of a frame slice */
} cap_tm_ev;

/* A run of slices of one thread. The thread appends and publishes `commit`
 * (release) after each; the writer thread alone reads [written, commit). */
typedef struct cap_tm_block {
    cap_tm_ev *ev;
    uint32_t cap;
    _Atomic uint32_t commit;
    uint32_t written;            /* writer only */
    uint64_t tid;
    _Atomic int retired;         /* full or the thread has exited */
    struct cap_tm_block *next;   /* live list or pool (writer lock) */
} cap_tm_block;

typedef struct cap_tm_thread {
    cap_tm_block *blk;
    uint64_t tid;
    uint64_t frame_t0, frame_c0; /* where the thread's current frame began */
    uint32_t frames;             /* frames this thread has ended */
} cap_tm_thread;

extern __thread cap_tm_thread *cap_tm_self __attribute__((tls_model("initial-exec")));
extern _Atomic int cap_timing_on;
extern int cap_opt_timing_draws;     /* GLTRACE_TIMING=draws */

int cap_timing_start(const char *path);
void cap_timing_shutdown(int from_signal); /* write what is left, close the JSON */
void cap_timing_forget(void);              /* in a forked child: touch nothing */
cap_tm_thread *cap_tm_thread_create(void);
int cap_tm_refill(cap_tm_thread *t);      /* a fresh block; 0: timing stopped */
void cap_tm_frame(cap_tm_thread *t, uint64_t end);

CAP_INLINE cap_tm_thread *cap_tm_get(void)
{
    if (CAP_UNLIKELY(!atomic_load_explicit(&cap_timing_on, memory_order_relaxed)))
        return NULL;
    cap_tm_thread *t = cap_tm_self;
    return CAP_LIKELY(t != NULL) ? t : cap_tm_thread_create();
}

/* Hot path: stores into the thread's block, one release store. */
CAP_INLINE void cap_tm_event(cap_tm_thread *t, unsigned idx, uint64_t t0, uint64_t t1, uint64_t c0)
{
    uint64_t c1 = CAP_UNLIKELY(cap_opt_threadtime) ? cap_thread_cpu_ns() : 0;
    cap_tm_block *b = t->blk;
    uint32_t n = atomic_load_explicit(&b->commit, memory_order_relaxed);
    if (CAP_UNLIKELY(n == b->cap)) {
        if (!cap_tm_refill(t))
            return;
        b = t->blk;
        n = 0;
    }
    cap_tm_ev *e = &b->ev[n];
    e->t0 = t0;
    e->t1 = t1;
    e->c0 = c0;
    e->c1 = c1;
    e->idx = idx;
    e->frame = 0;
    atomic_store_explicit(&b->commit, n + 1, memory_order_release);
    if (CAP_UNLIKELY(cap_fn_class[idx] == GT_CLASS_FRAME))
        cap_tm_frame(t, t1);
}

#pragma GCC visibility pop
#endif
