/* cap_worker.c: a background thread's life (cap_worker.h). */
#define _GNU_SOURCE
#include "cap_worker.h"
#include "cap_internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_MS 100
#define STOP_WAIT_MS 5000

static void wait_kick(int wake_fd)
{
    struct pollfd pfd = {.fd = wake_fd, .events = POLLIN};
    if (poll(&pfd, 1, PERIOD_MS) > 0) {
        uint64_t n;
        ssize_t r = read(wake_fd, &n, sizeof n);
        (void)r;
    }
}

static void *worker_main(void *arg)
{
    cap_worker *w = arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to the app's threads */
    struct timespec last_cal;
    clock_gettime(CLOCK_MONOTONIC, &last_cal);
    while (!atomic_load(&w->stop_req)) {
        wait_kick(w->wake_fd);
        w->work();
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec > last_cal.tv_sec) {
            cap_clock_recalibrate();
            last_cal = now;
        }
    }
    w->work();
    w->finish();
    atomic_store(&w->done, 1);
    return NULL;
}

int cap_worker_start(cap_worker *w, void (*work)(void), void (*finish)(void))
{
    w->work = work;
    w->finish = finish;
    w->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (w->wake_fd < 0)
        return -1;
    int e = pthread_create(&w->thread, NULL, worker_main, w);
    if (e != 0) {
        close(w->wake_fd);
        w->wake_fd = -1;
        errno = e;
        return -1;
    }
    w->pid = getpid();
    atomic_store(&w->started, 1);
    return 0;
}

void cap_worker_kick(cap_worker *w)
{
    if (w->wake_fd >= 0) {
        uint64_t one = 1;
        ssize_t r = write(w->wake_fd, &one, sizeof one); /* async-signal-safe */
        (void)r;
    }
}

void cap_worker_stop(cap_worker *w, int from_signal, void (*quiesce)(void))
{
    if (!atomic_load(&w->started) || getpid() != w->pid)
        return;
    if (!atomic_exchange(&w->stopping, 1)) {
        quiesce();
        atomic_store(&w->stop_req, 1);
        cap_worker_kick(w);
    }
    /* nanosleep, not join: this also works from a signal handler. */
    for (int i = 0; i < STOP_WAIT_MS && !atomic_load(&w->done); i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (!from_signal && atomic_load(&w->done) && !atomic_exchange(&w->joined, 1))
        pthread_join(w->thread, NULL);
}

int cap_worker_stopping(cap_worker *w)
{
    return atomic_load(&w->stop_req);
}

void cap_worker_forget(cap_worker *w)
{
    w->wake_fd = -1;
    atomic_store(&w->done, 1);
    atomic_store(&w->stop_req, 1);
    atomic_store(&w->joined, 1); /* no thread to join in the child */
}
