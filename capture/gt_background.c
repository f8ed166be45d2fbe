/* gt_background.c: the wait loop of the library's background threads (the
 * trace flusher, the timing writer). Each does its work when an app thread
 * kicks its eventfd (a swap) and at least every 100 ms, so records reach
 * the disk even while the app holds mid-frame; the clock's TSC anchor is
 * renewed once a second here, off the app's threads. */
#include "gt_capture.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_MS 100

void gt_background_loop(int wake_fd, _Atomic int *stop, void (*work)(void))
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to the app's threads */
    struct timespec last_cal;
    clock_gettime(CLOCK_MONOTONIC, &last_cal);
    while (!atomic_load(stop)) {
        struct pollfd pfd = {.fd = wake_fd, .events = POLLIN};
        if (poll(&pfd, 1, PERIOD_MS) > 0) {
            uint64_t n;
            ssize_t r = read(wake_fd, &n, sizeof n);
            (void)r;
        }
        work();
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec > last_cal.tv_sec) {
            gt_clock_recalibrate();
            last_cal = now;
        }
    }
    work();
}
