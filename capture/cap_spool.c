/* cap_spool.c: the spool of the trace server (GLTRACE_LISTEN without
 * `,stream` or `,wait`, cap_server.c). The app is recorded from its first
 * call into a trace file of its own, as GLTRACE=full records, with
 * snapshots off until a host asks for them; a host's start and stop become
 * call numbers in that file (a frame's end: the first swap after the
 * command, of any thread, or in an app that never swapped, the first
 * snapshot it takes at glFinish, cap_unswapped.c; with none a second
 * later, the next call), and the host cuts the trace it asked for out of
 * the spool with gltrace trim, which replays on its own because the spool
 * holds every object the app made before the start.
 *
 * The spool is the user's alone (0600) and goes at exit unless `,keep`; a
 * forked child leaves it to the process that made it. A swap costs one
 * atomic load more (cap_spool_swapped is reached only when a point is
 * wanted); no other call pays anything beyond full recording. */
#define _GNU_SOURCE
#include "cap_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Atomic int cap_spool_wanted;
static _Atomic uint64_t point;   /* the seq after the swap that was the point, 0: none yet */
static char spool_path[PATH_MAX];
static pid_t owner;
static int keep;

const char *cap_spool_path(void)
{
    return spool_path;
}

/* Async-signal-safe: also called from the library's fatal signal handler. */
void cap_spool_remove(void)
{
    if (!keep && spool_path[0] && getpid() == owner)
        unlink(spool_path); /* the flusher finishes it after this: the inode goes once a host lets go */
}

static void at_exit(void)
{
    cap_spool_remove();
}

/* The spool's directory: GLTRACE_SPOOL, $TMPDIR, /tmp. */
static const char *spool_dir(void)
{
    const char *d = gt_setting_env(GT_SET_SPOOL);
    if (d && *d)
        return d;
    d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

int cap_spool_open(int keep_at_exit, char *err, size_t errlen)
{
    const char *dir = spool_dir();
    char name[PATH_MAX];
    int n = snprintf(name, sizeof name, "%s/gltrace-spool-%d-XXXXXX.gltrace", dir, (int)getpid());
    if (n < 0 || (size_t)n >= sizeof name) {
        snprintf(err, errlen, "the spool directory %s is too long a path", dir);
        return -1;
    }
    int fd = mkstemps(name, (int)sizeof ".gltrace" - 1); /* 0600, made here: nobody else's file */
    if (fd < 0) {
        snprintf(err, errlen, "cannot make a spool file in %s: %s", dir, strerror(errno));
        return -1;
    }
    close(fd);
    if (!realpath(name, spool_path)) /* the host may run in another directory */
        snprintf(spool_path, sizeof spool_path, "%s", name);
    owner = getpid();
    keep = keep_at_exit;
    atexit(at_exit);
    return 0;
}

void cap_spool_discard(void)
{
    if (spool_path[0])
        unlink(spool_path);
    spool_path[0] = 0;
}

void cap_spool_want_point(void)
{
    atomic_store(&point, 0);
    atomic_store(&cap_spool_wanted, 1);
}

void cap_spool_swapped(cap_tls *t)
{
    int one = 1;
    if (atomic_compare_exchange_strong(&cap_spool_wanted, &one, 0))
        atomic_store(&point, t->seq + 1);
}

int cap_spool_point(uint64_t *after, int now)
{
    int one = 1;
    if (now && atomic_compare_exchange_strong(&cap_spool_wanted, &one, 0))
        atomic_store(&point, atomic_load(&cap_seq)); /* no swap in time: the next call */
    uint64_t p = atomic_load(&point);
    if (!p)
        return 0;
    *after = p;
    return 1;
}
