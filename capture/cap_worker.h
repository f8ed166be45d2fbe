/* cap_worker.h: the life of the library's background threads (the trace
 * flusher, cap_flusher.c; the timing writer, cap_timing.c), written once.
 *
 * A worker runs `work` when an app thread kicks it (a swap, a full buffer)
 * and at least every 100 ms, so data reaches the disk even while the app
 * holds mid-frame; it renews the clock's TSC anchor once a second, off the
 * app's threads; it blocks every signal (signals are the app's). Stopped,
 * it runs `work` once more, then `finish` (close the file), then counts as
 * done. */
#ifndef CAP_WORKER_H
#define CAP_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

typedef struct cap_worker {
    void (*work)(void);
    void (*finish)(void);
    int wake_fd;         /* eventfd; -1: none (not started, or a forked child) */
    pthread_t thread;
    _Atomic int started, stop_req, stopping, done, joined;
    pid_t pid;           /* the process that started it (a vfork child shares our memory) */
} cap_worker;

#define CAP_WORKER_INIT {.wake_fd = -1}

/* Starts the thread. -1 with errno: no worker. */
int cap_worker_start(cap_worker *w, void (*work)(void), void (*finish)(void));
/* Work soon. Async-signal-safe. */
void cap_worker_kick(cap_worker *w);
/* Stops the worker and waits (at most 5 s) until it is done; nothing in
 * a process other than the one that started it (a vfork child). The first
 * caller runs `quiesce` first (the app's calls stop reaching the worker's
 * data); later and concurrent callers only wait. from_signal: in a signal
 * handler, where it waits without joining (only async-signal-safe calls). */
void cap_worker_stop(cap_worker *w, int from_signal, void (*quiesce)(void));
/* Stopping was asked (the last passes run). */
int cap_worker_stopping(cap_worker *w);
/* In a forked child: the thread is the parent's; touch nothing of it. */
void cap_worker_forget(cap_worker *w);

#pragma GCC visibility pop
#endif
