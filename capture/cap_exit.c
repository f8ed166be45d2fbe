/* cap_exit.c: _exit and _Exit, interposed.
 *
 * A process that leaves through _exit skips the atexit handler that ends
 * the trace, and whatever was still in the buffers is lost with the seek
 * index. Chromium's GPU process leaves so: when the browser goes, its IO
 * thread calls _exit(0), often while the main thread is in our SIGTERM
 * handler waiting for the flusher, which then dies mid-write. So the trace
 * is finished first, as the signal path does it (only async-signal-safe
 * waiting, at most 5 s), then the process exits as asked. A vfork child
 * (sharing our memory) finishes nothing: cap_worker_stop checks the pid.
 * exit() is not affected: glibc reaches its own _exit without the PLT. */
#define _GNU_SOURCE
#include "cap_internal.h"
#include "cap_modes.h"

#include <sys/syscall.h>
#include <unistd.h>

__attribute__((noreturn)) static void leave(int status)
{
    cap_flusher_shutdown(1);
    cap_timing_shutdown(1);
    for (;;)
        syscall(SYS_exit_group, status);
}

__attribute__((visibility("default"), noreturn)) void _exit(int status)
{
    leave(status);
}

__attribute__((visibility("default"), noreturn)) void _Exit(int status)
{
    leave(status);
}
