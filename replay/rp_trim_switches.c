/* rp_trim_switches.c: step 12 of a trim, the context switches of the
 * setup that nothing kept needs.
 *
 * ANGLE (chromium's GPU process) flushes and makes its context current
 * without a surface, then with its window again, around each task it
 * runs: once the steps before have left a task's calls out, the switches
 * around it stay (each binds something else than the one before), two
 * eglMakeCurrent and two glFlush a task, and a setup grows with its
 * start (226 switches at frame 100 of a chromium trace, 828 at 390).
 *
 * Two kinds of kept eglMakeCurrent go, in the order of the records:
 * - idle: the next kept switch of its thread comes with no other kept
 *   record between (of any thread: one of another thread might need the
 *   context it lets go of) but flushes of its own thread (`class flush`),
 *   which go with it: nothing ran on what it bound;
 * - again: it binds what its thread's last kept switch (or the thread's
 *   gltraceCurrent) bound, with no EGL record or gltraceSurface kept
 *   between (one might have ended or resized a surface or context whose
 *   handle a new one took).
 * An eglMakeCurrent also flushes, but the next kept switch away flushes
 * what the context did. The first binding of a context to a surface sets
 * its viewport and scissor box to the surface's size: the state calls
 * written at the start set those of the context current there, and the
 * check of the trim finds what else differs (it is made again keeping
 * state commands, these switches with them). */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdint.h>
#include <stdlib.h>

#include "gt_api.h"
#include "gt_trace.h"

/* eglMakeCurrent, gltraceCurrent (never left out), a flush, another EGL record or a gltraceSurface */
enum { SWITCH, FIXED, FLUSH, EGL };

struct rp_trim_switches {
    struct note {
        uint64_t seq, tid, draw, read, ctx;
        size_t prev; /* a kept switch's: the thread's kept switch before it (SIZE_MAX none) */
        uint64_t egl; /* a kept switch's: the EGL records kept before it */
        uint8_t kind;
    } *v;
    size_t n, cap;
};

rp_trim_switches *rp_trim_switches_new(void)
{
    return calloc(1, sizeof(rp_trim_switches));
}

void rp_trim_switches_free(rp_trim_switches *s)
{
    if (s)
        free(s->v);
    free(s);
}

int rp_trim_switches_note(rp_trim_switches *s, const rp_msg *m, const rp_entry *e, uint64_t seq, uint64_t tid)
{
    int kind = m->function == GT_FN_CURRENT ? FIXED
               : m->function == GT_FN_SURFACE ? EGL /* a surface's new size: replay may make it anew */
               : !e                         ? -1
               : e->cls == GT_CLASS_CURRENT && e->how == RP_EGL ? SWITCH
               : e->cls == GT_CLASS_FLUSH   ? FLUSH
               : e->how == RP_EGL && e->egl ? EGL
                                            : -1;
    if (kind < 0)
        return 0;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        struct note *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v, s->cap = cap;
    }
    int binds = kind == SWITCH || kind == FIXED;
    s->v[s->n++] = (struct note){.seq = seq, .tid = tid, .kind = (uint8_t)kind, .prev = SIZE_MAX,
                                 .draw = binds ? rp_arg_u(m, 1) : 0, .read = binds ? rp_arg_u(m, 2) : 0,
                                 .ctx = binds ? rp_arg_u(m, 3) : 0};
    return 0;
}

static void leave_out(rp_trim_plan *plan, uint64_t seq)
{
    plan->drop[seq >> 3] |= (uint8_t)(1u << (seq & 7));
    plan->dropped_switches++;
}

/* Whether every record strictly between notes a and b (indices) is left
 * out but the flushes of a's thread noted between them. */
static int idle_between(const rp_trim_switches *s, const rp_trim_plan *plan, size_t a, size_t b)
{
    size_t k = a + 1;
    for (uint64_t seq = s->v[a].seq + 1; seq < s->v[b].seq; seq++) {
        if ((seq & 7) == 0 && seq + 8 <= s->v[b].seq && plan->drop[seq >> 3] == 0xff) {
            seq += 7;
            continue;
        }
        if (rp_trim_dropped(plan, seq))
            continue;
        while (k < b && s->v[k].seq < seq)
            k++;
        if (k == b || s->v[k].seq != seq || s->v[k].kind != FLUSH || s->v[k].tid != s->v[a].tid)
            return 0;
    }
    return 1;
}

/* Leaves out switch `at` and the flushes of its thread after it, up to
 * note `end`. */
static void drop_idle(rp_trim_switches *s, rp_trim_plan *plan, size_t at, size_t end)
{
    for (size_t k = at; k < end; k++)
        if (k == at || (s->v[k].kind == FLUSH && s->v[k].tid == s->v[at].tid && !rp_trim_dropped(plan, s->v[k].seq)))
            leave_out(plan, s->v[k].seq);
}

static int same_binding(const struct note *a, const struct note *b)
{
    return a->draw == b->draw && a->read == b->read && a->ctx == b->ctx;
}

typedef struct thread_notes {
    uint64_t tid;
    size_t top;  /* its last kept switch (SIZE_MAX none) */
    size_t mark; /* its last kept switch or flush (SIZE_MAX none), or one left out since with nothing kept after
                    it: a flush after nothing kept since goes (one another thread needed is the check's to find) */
} thread_notes;

/* The thread's entry in th (added when new; -1: too many threads). */

static int thread_of(thread_notes *th, int *nth, uint64_t tid)
{
    int t = 0;
    while (t < *nth && th[t].tid != tid)
        t++;
    if (t == *nth) {
        if (*nth == RP_MAX_THREADS)
            return -1;
        th[(*nth)++] = (thread_notes){.tid = tid, .top = SIZE_MAX, .mark = SIZE_MAX};
    }
    return t;
}

void rp_trim_switches_finish(rp_trim_switches *s, rp_trim_plan *plan, size_t nbytes)
{
    thread_notes th[RP_MAX_THREADS];
    int nth = 0;
    uint64_t egl = 0; /* kept EGL records so far */
    for (size_t i = 0; i < s->n; i++) {
        struct note *c = &s->v[i];
        if ((c->seq >> 3) >= nbytes || c->seq >= plan->first_kept || rp_trim_dropped(plan, c->seq))
            continue;
        if (c->kind == EGL)
            egl++;
        int t = c->kind == EGL ? -1 : thread_of(th, &nth, c->tid);
        if (t < 0)
            continue;
        if (c->kind == FLUSH) { /* one with nothing kept since its thread's last switch or flush goes */
            if (th[t].mark != SIZE_MAX && idle_between(s, plan, th[t].mark, i))
                leave_out(plan, c->seq);
            else
                th[t].mark = i;
            continue;
        }
        size_t top = th[t].top;
        if (top != SIZE_MAX && s->v[top].kind == SWITCH && idle_between(s, plan, top, i)) {
            drop_idle(s, plan, top, i);
            top = th[t].top = s->v[top].prev;
        }
        if (top != SIZE_MAX && c->kind == SWITCH && same_binding(&s->v[top], c) && s->v[top].egl == egl) {
            leave_out(plan, c->seq);
            continue;
        }
        c->prev = top, c->egl = egl;
        th[t].top = th[t].mark = i;
    }
}
