/* cap_switch.c: tracing switched on and off while the app runs (a host
 * connected to the trace server, cap_server.c), as the seed design has it:
 * when tracing is switched on, a thread with a current context starts
 * recording after its next eglSwapBuffers (so its first frame is whole),
 * and any thread after its next eglMakeCurrent; switched off, each thread
 * stops after its next swap or eglMakeCurrent the same way.
 *
 * cap_session holds the session and its state. A thread's state records the
 * value it records under; while they differ every traced call of that
 * thread comes here (cap_tls_slow) instead of being recorded, and only the
 * `class frame` and `class current` commands (api/annotations.txt) move it.
 * When a thread starts, the trace learns what it could not see: its
 * current context (gltraceContext, once per session), its surfaces
 * (gltraceSurface) and a gltraceCurrent record, which replay takes as the
 * thread's eglMakeCurrent; so a trace that starts mid-run still names
 * every context and surface its calls use. (Objects the app made before —
 * textures, programs, buffers — are not in it: such a trace is for reading
 * and timing, and replays only what it made itself.)
 *
 * Not switching: cap_session stays 0 and so does every thread's value. */
#include "cap_internal.h"
#include "cap_modes.h"
#include "cap_real_fns.h"
#include "gt_trace.h"

#include <pthread.h>
#include <string.h>

_Atomic uint32_t cap_session;

/* cap_session = generation * 4 + state. */
enum { S_ON = 1, S_STOPPING = 2 };
#define STATE(v) ((v)&3u)

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t generation;
static _Atomic int active;        /* threads recording in this session */
static _Atomic int immediate;     /* every thread records from its next call (,wait) */
static pthread_mutex_t meta_mu = PTHREAD_MUTEX_INITIALIZER;
static int meta_written;          /* the session's first record: gltraceMetadata (meta_mu) */
#define MAX_MARK 4096
static uint8_t ctx_marked[MAX_MARK];
static uint64_t surf_marked[256];
static size_t nsurf_marked;

int cap_switch_mark_context(int32_t id)
{
    if (id < 0 || id >= MAX_MARK)
        return 0;
    pthread_mutex_lock(&mu);
    int first = !ctx_marked[id];
    ctx_marked[id] = 1;
    pthread_mutex_unlock(&mu);
    return first;
}

int cap_switch_mark_surface(uint64_t surf)
{
    pthread_mutex_lock(&mu);
    int first = 1;
    for (size_t i = 0; i < nsurf_marked && first; i++)
        first = surf_marked[i] != surf;
    if (first && nsurf_marked < sizeof surf_marked / sizeof surf_marked[0])
        surf_marked[nsurf_marked++] = surf;
    pthread_mutex_unlock(&mu);
    return first;
}

/* The thread starts recording: what the trace must know first. */
static cap_tls *start_thread(cap_tls *t, uint32_t cur)
{
    t->session = cur;
    t->switch_after = 0;
    t->seq_known = 0;
    atomic_fetch_add(&active, 1);
    /* The metadata takes seq 0: a thread that starts at the same time waits
     * here until it is written, rather than announcing its context first. */
    pthread_mutex_lock(&meta_mu);
    if (!meta_written)
        cap_meta_emit_start(t);
    meta_written = 1;
    pthread_mutex_unlock(&meta_mu);
    uint64_t dpy = (uint64_t)(uintptr_t)cap_real.f.eglGetCurrentDisplay();
    uint64_t ctx = (uint64_t)(uintptr_t)cap_real.f.eglGetCurrentContext();
    uint64_t draw = (uint64_t)(uintptr_t)cap_real.f.eglGetCurrentSurface(EGL_DRAW);
    uint64_t read = (uint64_t)(uintptr_t)cap_real.f.eglGetCurrentSurface(EGL_READ);
    if (ctx) {
        cap_announce_context(t, ctx);
        cap_announce_surface(t, dpy, draw);
        if (read != draw)
            cap_announce_surface(t, dpy, read);
    }
    const uint64_t args[4] = {dpy, draw, read, ctx};
    cap_hook_make_current(t, CAP_REAL_IDX(eglMakeCurrent), args, 1); /* the thread's context state */
    uint8_t *p = ctx ? cap_syn_begin(t, GT_FN_CURRENT, 64) : NULL; /* nothing current: nothing to say */
    if (p) {
        for (int i = 0; i < 4; i++)
            p = gt_dt_i64(p, 0x2a, (int64_t)args[i]);
        cap_syn_end(t, p);
    }
    t->size_check = 1;
    return t;
}

static void stop_thread(cap_tls *t)
{
    t->session = 0;
    t->switch_after = 0;
    atomic_fetch_sub(&active, 1);
}


cap_tls *cap_tls_slow(cap_tls *t, int idx)
{
    int cls = idx >= 0 ? cap_fn_class[idx] : GT_CLASS_NONE;
    if (!t) {
        if (!(t = cap_tls_create()))
            return NULL;
        if (cls != GT_CLASS_CURRENT)
            cap_foreign_check(t); /* a GLX thread (cap_foreign.c) */
    }
    if (CAP_UNLIKELY(t->foreign) && !cap_foreign_call(t, cls))
        return NULL;
    uint32_t cur = atomic_load(&cap_session);
    if (t->session == cur)
        return t; /* a new thread, and nothing is being switched */
    if (t->session && t->session >> 2 != cur >> 2)
        t->session = 0; /* it recorded in a session that has ended */
    if (t->switch_after && t->switch_after >> 2 != cur >> 2)
        t->switch_after = 0;
    int point = cls == GT_CLASS_FRAME || cls == GT_CLASS_CURRENT;
    if (STATE(cur) == S_ON) {
        if (t->switch_after || atomic_load(&immediate))
            return start_thread(t, cur);
        if (point)
            t->switch_after = cur; /* this call goes untraced; the next one starts */
        return NULL;
    }
    if (STATE(cur) == S_STOPPING && t->session) {
        if (t->switch_after == cur) {
            stop_thread(t);
            return NULL;
        }
        if (point)
            t->switch_after = cur; /* recorded: the thread's last call */
        return t;
    }
    return NULL; /* not switched on, or not recording */
}

void cap_switch_begin(int fresh, int at_once)
{
    atomic_store(&immediate, at_once);
    pthread_mutex_lock(&mu);
    if (fresh) { /* a new trace: it must name everything again */
        memset(ctx_marked, 0, sizeof ctx_marked);
        nsurf_marked = 0;
        atomic_store(&cap_gl_meta_known, 0);
    }
    generation++;
    pthread_mutex_unlock(&mu);
    if (fresh) { /* its records number from 0, the metadata first */
        pthread_mutex_lock(&meta_mu);
        meta_written = 0;
        pthread_mutex_unlock(&meta_mu);
        atomic_store(&cap_seq, 0);
    }
    atomic_store(&active, 0);
    atomic_store(&cap_session, generation * 4 + S_ON);
    atomic_store(&cap_tracing, 1);
    cap_dispatch_select(GT_MODE_FULL);
}

void cap_switch_stop(void)
{
    uint32_t cur = atomic_load(&cap_session);
    if (STATE(cur) == S_ON)
        atomic_store(&cap_session, cur - S_ON + S_STOPPING);
}

int cap_switch_active_threads(void)
{
    return atomic_load(&active);
}

void cap_switch_end(void)
{
    cap_dispatch_select(CAP_MODE_IDLE);
    atomic_store(&cap_tracing, 0);
    atomic_store(&cap_session, 0);
    atomic_store(&active, 0);
}

void cap_switch_thread_exit(cap_tls *t)
{
    uint32_t cur = atomic_load(&cap_session);
    if (t->session && t->session >> 2 == cur >> 2)
        atomic_fetch_sub(&active, 1);
    t->session = 0;
}
