/* cap_worker.h: the life of the library's background threads (the trace
 * flusher, cap_flusher.c; the timing writer, cap_timing.c), written once.
 *
 * A worker runs `work` when an app thread kicks it (a swap, a full buffer)
 * and at least every 100 ms, so data reaches the disk even while the app
 * holds mid-frame; it renews the clock's TSC anchor once a second, off the
 * app's threads; it blocks every signal (signals are the app's). Stopped,
 * it runs `work` once more, then `finish` (close the file), then counts as
 * done. */
#ifndef GT_WORKER_H
#define GT_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#pragma GCC visibility push(hidden)

typedef struct gt_worker {
    void (*work)(void);
    void (*finish)(void);
    int wake_fd;         /* eventfd; -1: none (not started, or a forked child) */
    pthread_t thread;
    _Atomic int started, stop_req, stopping, done, joined;
} gt_worker;

#define GT_WORKER_INIT {.wake_fd = -1}

/* Starts the thread. -1 with errno: no worker. */
int gt_worker_start(gt_worker *w, void (*work)(void), void (*finish)(void));
/* Work soon. Async-signal-safe. */
void gt_worker_kick(gt_worker *w);
/* Stops the worker and waits (at most 5 s) until it is done. The first
 * caller runs `quiesce` first (the app's calls stop reaching the worker's
 * data); later and concurrent callers only wait. from_signal: in a signal
 * handler, where it waits without joining (only async-signal-safe calls). */
void gt_worker_stop(gt_worker *w, int from_signal, void (*quiesce)(void));
/* Stopping was asked (the last passes run). */
int gt_worker_stopping(gt_worker *w);
/* In a forked child: the thread is the parent's; touch nothing of it. */
void gt_worker_forget(gt_worker *w);

#pragma GCC visibility pop
#endif
