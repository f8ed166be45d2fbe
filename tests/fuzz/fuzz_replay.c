/* fuzz_replay: a whole replay (replay/gt_replay.h) of a fuzzed trace on
 * llvmpipe (EGL surfaceless), so that what reaches the driver is exercised
 * too: malformed sizes, names the driver never generated, calls in
 * impossible orders. Replay must refuse what would make the driver read
 * short data, and stop with a message on damage; the driver itself is not
 * under test, it is where a missed check shows.
 *
 * Bounded per input: at most MAX_CALLS records replayed and MAX_SECONDS of
 * replay (checked between records), so that a long trace or a slow draw
 * does not eat the campaign.
 *
 * Slow per input (a display and contexts are made and torn down each
 * run): gt_replay_run owns its display from eglInitialize to eglTerminate,
 * so what is kept across runs is the loaded driver (pinned here, so
 * that eglTerminate does not unload and reload it, with its compiler). */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_gl.h"
#include "fuzz_mem.h"
#include "gt_replay.h"

#define MAX_CALLS 2000
#define MAX_SECONDS 2.0

/* FUZZ_VERBOSE set: a line per input on stderr, what the replay did. */
static int verbose;

typedef struct bound {
    unsigned long calls;
    double deadline;
} bound;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int after_call(void *user, struct rp *r, uint64_t tid)
{
    (void)r;
    (void)tid;
    bound *b = user;
    return ++b->calls >= MAX_CALLS || ((b->calls & 63) == 0 && now() > b->deadline);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    verbose = getenv("FUZZ_VERBOSE") != NULL;
    fuzz_gl_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_mem_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    bound b = {0, now() + MAX_SECONDS};
    gt_replay_options o;
    gt_replay_options_init(&o);
    o.quiet = 1;
    o.after_call = after_call;
    o.after_call_user = &b;
    gt_replay_summary s;
    int rc = gt_replay_run(path, &o, &s);
    if (verbose)
        fprintf(stderr, "fuzz_replay: status %d, %llu calls, %llu snapshots (%llu matched)%s%s\n", rc,
                (unsigned long long)s.calls, (unsigned long long)s.snapshots, (unsigned long long)s.matched,
                s.error[0] ? ": " : "", s.error);
    gt_replay_summary_free(&s);
    close(fd);
    return 0;
}
