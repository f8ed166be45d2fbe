/* st_classify.c: a replay's outcome as a status. First what happened (the
 * child's end and its report against the expectation), then what the
 * trace's labels make of it. */
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "st_classify.h"

static void say(st_result *x, char *fmt_result)
{
    free(x->message);
    x->message = fmt_result;
}

static const st_snap *find_snap(const st_result *x, const char *key)
{
    const st_snap *last = NULL;
    for (size_t i = 0; i < x->nsnaps; i++) {
        const st_snap *s = &x->snaps[i];
        if (!s->hash[0])
            continue;
        last = s;
        char *k = st_snap_key(s);
        int same = !strcmp(k, key);
        free(k);
        if (same)
            return s;
    }
    return !strcmp(key, "last") ? last : NULL;
}

char *st_snap_key(const st_snap *s)
{
    return st_fmt("%" PRIu64 "-%s", s->call, s->what);
}

static st_status by_checksums(const st_trace *t, st_result *x)
{
    x->has_first = 0;
    if (!t->nsums) {
        say(x, st_strdup("no checksum for this device yet (gltrace suite update --only missing)"));
        return ST_FAIL;
    }
    for (size_t i = 0; i < t->nsums; i++) {
        const st_snap *s = find_snap(x, t->sums[i].key);
        if (!s) {
            say(x, st_fmt("snapshot %s: not replayed, or not read back", t->sums[i].key));
            return ST_FAIL;
        }
        if (strcasecmp(s->hash, t->sums[i].hash)) {
            say(x, st_fmt("snapshot %s: checksum %s, expected %s", t->sums[i].key, s->hash, t->sums[i].hash));
            x->has_first = 1, x->first_call = s->call, x->first_frame = s->frame;
            return ST_FAIL;
        }
    }
    return ST_PASS;
}

static st_status by_recording(st_result *x, int rc)
{
    if (rc == 0)
        return ST_PASS;
    size_t bad = 0;
    for (size_t i = 0; i < x->nsnaps; i++)
        bad += strcmp(x->snaps[i].status, "matched") && strcmp(x->snaps[i].status, "not compared");
    if (x->message)
        return ST_FAIL;
    if (!x->compared) /* a replay that compared nothing is no pass */
        say(x, st_strdup("nothing was compared: the trace has no snapshot and no pixel read of the app"));
    else if (!bad && x->reads_differing)
        say(x, st_fmt("%" PRIu64 " of the app's own pixel reads differ from the recorded ones", x->reads_differing));
    else
        say(x, st_fmt("%zu of %zu snapshots differ from the recorded ones", bad, x->nsnaps));
    return ST_FAIL;
}

st_status st_classify_run(const st_trace *t, const st_child *c, const char *out_dir, st_result *x)
{
    free(x->message);
    x->message = NULL;
    x->has_first = 0;
    if (c->timed_out) {
        say(x, st_fmt("no result within the time limit of %g s", t->timeout));
        return ST_TIMEOUT;
    }
    if (WIFSIGNALED(c->status)) {
        int sig = WTERMSIG(c->status);
        say(x, st_fmt("replay killed by signal %d (%s)", sig, strsignal(sig)));
        return ST_CRASH;
    }
    int exit_code = WEXITSTATUS(c->status), rc = 2;
    char err[ST_ERR_MAX];
    if (st_report_read(out_dir, x, &rc, err) != 0) {
        say(x, st_fmt("replay exited with status %d and wrote no report (see log.txt)", exit_code));
        return exit_code == 1 ? ST_FAIL : ST_ERROR;
    }
    if (rc == 2 || exit_code == 2) {
        if (!x->message)
            say(x, st_strdup("the trace is unusable (see log.txt)"));
        return ST_ERROR;
    }
    return t->expect == ST_EXPECT_CHECKSUMS ? by_checksums(t, x) : by_recording(x, rc);
}

st_status st_classify_labels(st_status raw, unsigned labels)
{
    if (raw == ST_PASS)
        return labels & (ST_L_CRASH | ST_L_TIMEOUT | ST_L_FAIL) ? ST_UNEXPECTED_PASS : ST_PASS;
    if ((raw == ST_CRASH && labels & ST_L_CRASH) || (raw == ST_TIMEOUT && labels & ST_L_TIMEOUT) ||
        (raw == ST_FAIL && labels & ST_L_FAIL))
        return ST_EXPECTED_FAIL;
    if (labels & ST_L_FLAKY && (raw == ST_FAIL || raw == ST_CRASH || raw == ST_TIMEOUT))
        return ST_FLAKE;
    return raw;
}
