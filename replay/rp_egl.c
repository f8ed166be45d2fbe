/* rp_egl.c: the window system, replaced. Every display of the trace becomes
 * one EGL surfaceless display; every surface a pbuffer of the recorded size
 * (gltraceSurface), every context one of the recorded client version and
 * share group (gltraceContext); each recorded thread's current context and
 * surfaces are made current on the one replay thread before its calls, so
 * calls replay in the recorded global order. Also the records gltrace adds
 * that carry data: client arrays, mapped-buffer writes, snapshots. */
#include "rp_handlers_gen.h"
#include "gt_api_state.h"
#include "rp_internal.h"

#include <GLES3/gl32.h>
#include <EGL/eglext.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gt_enums.h" /* GLES 1 and extension names the GLES 3 header lacks */
#include "gt_trace.h"

void rp_warn_once(rp *r, int32_t number, const char *fmt, ...)
{
    if (number >= 0 && number < (int32_t)sizeof r->warned) {
        if (r->warned[number])
            return;
        r->warned[number] = 1;
    }
    if (r->opt->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gltrace replay: %s: ", r->path);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int rp_egl_open(rp *r)
{
    r->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (r->dpy == EGL_NO_DISPLAY || !eglInitialize(r->dpy, NULL, NULL)) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "no EGL surfaceless display (Mesa's EGL_MESA_platform_surfaceless): install libegl-mesa0");
        return -1;
    }
    eglBindAPI(EGL_OPENGL_ES_API);
    r->bound_ctx = -1;
    return 0;
}

void rp_egl_close(rp *r)
{
    if (r->dpy == EGL_NO_DISPLAY)
        return;
    eglMakeCurrent(r->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    for (int i = 0; i < RP_MAX_CTX; i++)
        if (r->ctx[i].used)
            eglDestroyContext(r->dpy, r->ctx[i].ctx);
    eglTerminate(r->dpy);
}

/* A config like the recorded one (its attribute list, EGL_NONE-terminated),
 * able to make pbuffers. */
static EGLConfig choose_config(rp *r, const Gltrace__GLMessage__DataType *attrs, int version)
{
    EGLint want[32], n = 0;
    static const EGLint keep[] = {EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_ALPHA_SIZE,
                                  EGL_DEPTH_SIZE, EGL_STENCIL_SIZE, EGL_SAMPLES, EGL_SAMPLE_BUFFERS};
    if (attrs && attrs->n_rawbytes) {
        const EGLint *a = (const EGLint *)(const void *)attrs->rawbytes[0].data;
        size_t len = attrs->rawbytes[0].len / sizeof(EGLint);
        for (size_t i = 0; i + 1 < len && a[i] != EGL_NONE; i += 2)
            for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++)
                if (a[i] == keep[k] && n < 26) {
                    want[n++] = a[i];
                    want[n++] = a[i + 1];
                }
    }
    want[n++] = EGL_SURFACE_TYPE, want[n++] = EGL_PBUFFER_BIT;
    want[n++] = EGL_RENDERABLE_TYPE;
    want[n++] = version >= 3 ? EGL_OPENGL_ES3_BIT : version == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES_BIT;
    want[n++] = EGL_NONE;
    /* eglChooseConfig sorts deeper colour first, so an RGBA8 config would
     * come before the RGB8 one an X11 window had: the colour, depth and
     * stencil sizes must match exactly, or alpha (and what blending does
     * with it) differs. */
    EGLConfig cfgs[128];
    EGLint got = 0;
    if (!eglChooseConfig(r->dpy, want, cfgs, 128, &got) || got < 1)
        return NULL;
    for (EGLint i = 0; i < got; i++) {
        int exact = 1;
        for (EGLint k = 0; k + 1 < n - 5 && exact; k += 2) {
            EGLint v = 0;
            eglGetConfigAttrib(r->dpy, cfgs[i], want[k], &v);
            exact = v == want[k + 1];
        }
        if (exact)
            return cfgs[i];
    }
    return cfgs[0];
}

/* The recorded eglCreateContext's attributes that shape the context (version,
 * debug, robustness, no-error, priority), when that call made `ctx`; always
 * the client version. Returns the list's length without EGL_NONE. */
static int context_attribs(rp *r, uint64_t ctx, int version, EGLint out[36])
{
    int n = 0, have_major = 0;
    if (ctx && ctx == r->pending_ctx) {
        for (int i = 0; i + 1 < r->npending_attrs && n < 32; i += 2) {
            EGLint k = r->pending_attrs[i], v = r->pending_attrs[i + 1];
            switch (k) {
            case EGL_CONTEXT_MAJOR_VERSION: /* == EGL_CONTEXT_CLIENT_VERSION */
                have_major = 1;
                /* fall through */
            case EGL_CONTEXT_MINOR_VERSION:
            case EGL_CONTEXT_OPENGL_DEBUG:
            case EGL_CONTEXT_OPENGL_ROBUST_ACCESS:
            case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY:
            case EGL_CONTEXT_FLAGS_KHR:
            case EGL_CONTEXT_OPENGL_NO_ERROR_KHR:
            case EGL_CONTEXT_PRIORITY_LEVEL_IMG:
                out[n++] = k, out[n++] = v;
                break;
            default: /* window-system and vendor attributes: not for replay */
                break;
            }
        }
    }
    if (!have_major)
        out[n++] = EGL_CONTEXT_MAJOR_VERSION, out[n++] = version;
    out[n] = EGL_NONE;
    return n;
}

/* eglCreateContext: its attributes wait for the gltraceContext after it. */
static void note_context_attribs(rp *r, const rp_msg *m)
{
    size_t len = 0;
    const uint8_t *d = rp_arg_bytes(m, 3, &len);
    r->pending_ctx = rp_ret_u(m);
    r->pending_configless = rp_arg_u(m, 1) == 0;
    r->npending_attrs = 0;
    for (size_t i = 0; d && i + 2 * sizeof(EGLint) <= len && r->npending_attrs < 32; i += 2 * sizeof(EGLint)) {
        EGLint kv[2];
        memcpy(kv, d + i, sizeof kv);
        if (kv[0] == EGL_NONE)
            break;
        r->pending_attrs[r->npending_attrs++] = kv[0];
        r->pending_attrs[r->npending_attrs++] = kv[1];
    }
}

/* gltraceContext: dpy, context, id, share_id, client_version, config_attribs. */
static void make_context(rp *r, const rp_msg *m)
{
    int32_t id = (int32_t)rp_arg_i(m, 2), share = (int32_t)rp_arg_i(m, 3), version = (int32_t)rp_arg_i(m, 4);
    if (id < 0 || id >= RP_MAX_CTX) {
        rp_warn_once(r, GT_FN_CONTEXT, "context id %d is beyond what replay handles (%d)", id, RP_MAX_CTX);
        return;
    }
    rp_ctx *c = &r->ctx[id];
    c->version = version ? version : 1;
    c->gl_major = 0;
    /* A context the app made with no config (EGL_KHR_no_config_context)
     * goes with surfaces of any config: so must its replay. */
    int configless = r->pending_ctx == rp_arg_u(m, 1) && r->pending_configless;
    c->cfg = configless ? EGL_NO_CONFIG_KHR : choose_config(r, m->n_args > 5 ? m->args[5] : NULL, c->version);
    EGLContext share_ctx = EGL_NO_CONTEXT;
    c->group = id;
    if (share >= 0 && share < RP_MAX_CTX && r->ctx[share].used) {
        share_ctx = r->ctx[share].ctx;
        c->group = r->ctx[share].group;
    }
    EGLint attr[36];
    int n = context_attribs(r, rp_arg_u(m, 1), c->version, attr);
    c->ctx = c->cfg || configless ? eglCreateContext(r->dpy, c->cfg, share_ctx, attr) : EGL_NO_CONTEXT;
    if (c->ctx == EGL_NO_CONTEXT && n > 2) {
        /* An attribute this driver refuses (a priority, a reset strategy):
         * the version alone, said once. */
        rp_warn_once(r, GT_FN_CONTEXT, "the replay driver refused the context attributes the app asked for "
                     "(EGL error 0x%x): contexts are made with the client version only", eglGetError());
        const EGLint plain[] = {EGL_CONTEXT_MAJOR_VERSION, c->version, EGL_NONE};
        c->ctx = eglCreateContext(r->dpy, c->cfg, share_ctx, plain);
    }
    if (c->ctx == EGL_NO_CONTEXT) {
        snprintf(r->sum->error, sizeof r->sum->error, "%s: record %llu: cannot create a GLES %d context on replay",
                 r->path, (unsigned long long)r->seq, c->version);
        return;
    }
    c->used = 1;
    c->desktop = r->pending_ctx == rp_arg_u(m, 1) && r->pending_desktop;
    if (c->desktop) {
        snprintf(r->sum->foreign_api, sizeof r->sum->foreign_api, "EGL");
        rp_warn_once(r, GT_FN_CONTEXT, "the app made a desktop OpenGL context through EGL (eglBindAPI "
                     "EGL_OPENGL_API), which gltrace does not replay yet: its calls are skipped and its snapshots "
                     "not compared");
    }
    rp_handle_set(r, rp_arg_u(m, 1), (uint64_t)(uintptr_t)c->ctx);
}

/* gltraceSurface: dpy, surface, width, height, config_attribs, call. At
 * creation (attributes present) a pbuffer of that size; when the size
 * changes (a resized window: capture records it before the frame's first
 * draw), a new pbuffer of the new size and the same config, as the window's
 * new back buffer was (its contents undefined, as they were). */
static void make_surface(rp *r, const rp_msg *m)
{
    uint64_t rec = rp_arg_u(m, 1), old = 0, cfgv = 0;
    EGLint w = (EGLint)rp_arg_i(m, 2), h = (EGLint)rp_arg_i(m, 3);
    int created = m->n_args > 4 && m->args[4]->n_rawbytes;
    int have = rp_map_get(&r->surfaces, rec | 1ull << 63, &old);
    if (have && !created) {
        EGLint cw = 0, ch = 0;
        eglQuerySurface(r->dpy, (EGLSurface)(uintptr_t)old, EGL_WIDTH, &cw);
        eglQuerySurface(r->dpy, (EGLSurface)(uintptr_t)old, EGL_HEIGHT, &ch);
        if (cw == w && ch == h)
            return;
    }
    EGLConfig cfg;
    if (!created && rp_map_get(&r->surface_cfgs, rec | 1ull << 63, &cfgv))
        cfg = (EGLConfig)(uintptr_t)cfgv; /* a context made current with it must still fit */
    else
        cfg = choose_config(r, created ? m->args[4] : NULL, 2);
    const EGLint attr[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    EGLSurface s = cfg ? eglCreatePbufferSurface(r->dpy, cfg, attr) : EGL_NO_SURFACE;
    if (s == EGL_NO_SURFACE) {
        snprintf(r->sum->error, sizeof r->sum->error, "%s: record %llu: cannot create a %dx%d pbuffer on replay",
                 r->path, (unsigned long long)r->seq, w, h);
        return;
    }
    rp_map_put(&r->surfaces, rec | 1ull << 63, (uint64_t)(uintptr_t)s);
    rp_map_put(&r->surface_cfgs, rec | 1ull << 63, (uint64_t)(uintptr_t)cfg);
    if (have) { /* rebind where the old one was current */
        if (r->bound_draw == (EGLSurface)(uintptr_t)old || r->bound_read == (EGLSurface)(uintptr_t)old)
            r->bound_ctx = -2;
        eglDestroySurface(r->dpy, (EGLSurface)(uintptr_t)old);
    }
}

static EGLSurface surface_of(rp *r, uint64_t rec)
{
    uint64_t v;
    return rec && rp_map_get(&r->surfaces, rec | 1ull << 63, &v) ? (EGLSurface)(uintptr_t)v : EGL_NO_SURFACE;
}

static rp_thread *thread_of(rp *r, uint64_t tid)
{
    for (size_t i = 0; i < r->nthr; i++)
        if (r->thr[i].tid == tid)
            return &r->thr[i];
    if (r->nthr == RP_MAX_THREADS)
        return NULL;
    rp_thread *t = &r->thr[r->nthr++];
    t->tid = tid;
    t->ctx = -1;
    return t;
}

/* rp_make_current_for's slow path (rp_internal.h). noinline: the inlined
 * fast path then needs no stack frame. */
__attribute__((noinline)) int rp_make_current_lookup(rp *r, uint64_t tid)
{
    r->mc_thr = NULL;
    rp_thread *t = thread_of(r, tid);
    if (!t || t->ctx < 0 || t->ctx >= RP_MAX_CTX || !r->ctx[t->ctx].used)
        return -1;
    EGLSurface d = surface_of(r, t->draw), rd = surface_of(r, t->read);
    if (r->bound_ctx != t->ctx || r->bound_draw != d || r->bound_read != rd) {
        if (!eglMakeCurrent(r->dpy, d, rd, r->ctx[t->ctx].ctx))
            return -1;
        r->bound_ctx = t->ctx, r->bound_draw = d, r->bound_read = rd;
    }
    r->cur_ctx = t->ctx;
    r->mc_thr = t, r->mc_ctx = t->ctx, r->mc_draw = t->draw, r->mc_read = t->read;
    r->mc_surface_puts = r->surfaces.puts;
    return 0;
}

/* eglMakeCurrent(dpy, draw, read, ctx) as the recorded thread's state; the
 * record's own context id says which context that was. */
static void make_current(rp *r, const rp_msg *m, uint64_t tid)
{
    rp_thread *t = thread_of(r, tid);
    if (!t || (m->returnvalue && m->returnvalue->n_boolvalue && !m->returnvalue->boolvalue[0]))
        return;
    uint64_t ctx = rp_arg_u(m, 3);
    int32_t id = -1;
    for (int i = 0; ctx && i < RP_MAX_CTX; i++)
        if (r->ctx[i].used && rp_handle(r, ctx) == (uint64_t)(uintptr_t)r->ctx[i].ctx)
            id = i;
    t->ctx = id;
    t->draw = rp_arg_u(m, 1);
    t->read = rp_arg_u(m, 2);
}

/* The EGL handlers (`replay ... egl HANDLER` in api/annotations.txt). The
 * replay display is set up once: none calls the driver's own function. */
void rp_egl_make_current(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)fn;
    make_current(r, m, tid);
}

void rp_egl_create_context(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)fn;
    note_context_attribs(r, m);
    uint64_t api = 0;
    r->pending_desktop = rp_map_get(&r->bound_api, tid | 1ull << 63, &api) && api == EGL_OPENGL_API;
}

/* eglBindAPI: which API the thread's next contexts are for. Replay binds
 * GLES itself; a context made for desktop OpenGL is noted (make_context). */
void rp_egl_bind_api(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)fn;
    if (m->n_args)
        rp_map_put(&r->bound_api, tid | 1ull << 63, rp_arg_u(m, 0));
}

void rp_egl_swap(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)m, (void)fn;
    if (r->opt->snapshot == GT_REPLAY_SNAP_FRAME && !r->looping && rp_in_range(r) && rp_make_current_for(r, tid) == 0)
        rp_snapshot_extra(r, 1, "replayed-at-swap");
    /* A swap flushes its context, as eglSwapBuffers did in the app (replay
     * swaps nothing): llvmpipe draws some frames otherwise when nothing
     * read the frame before. GTK 4's paintable_animated: `replay --frames
     * 117-117` differed at frame 117 while the whole replay, reading every
     * frame to compare it, matched (softpipe draws both alike). --benchmark
     * flushes in rp_frame_end. */
    if (!r->opt->benchmark && rp_make_current_for(r, tid) == 0)
        glFlush();
    rp_frame_end(r, tid);
}

/* ---------------------------------------------------------------- maps (client arrays: rp_client_guard.c) */

/* Buffer mappings of the replay, so that recorded writes land in them:
 * r->maps holds (group, replayed buffer) -> slot + 1 in mapv, 0 once
 * unmapped; a slot is free again at its buffer's unmap. */
static uint64_t map_key(rp *r, uint32_t buffer)
{
    return 1ull << 63 | (uint64_t)r->ctx[r->cur_ctx >= 0 ? r->cur_ctx : 0].group << 32 | buffer;
}

/* The replayed buffer bound to a mapping's target (0: none, or a target
 * with no binding). */
static uint32_t mapped_buffer(const rp_msg *m)
{
    GLenum q = gt_api_binding_of((GLenum)rp_arg_i(m, 0));
    GLint buf = 0;
    if (q)
        glGetIntegerv(q, &buf);
    return (uint32_t)buf;
}

/* glMapBufferRange(target, offset, length, access) / glMapBufferOES(target, access). */
void rp_hook_map(rp *r, const rp_msg *m, uint64_t ret)
{
    uint32_t buf = mapped_buffer(m);
    if (!ret || !buf)
        return;
    uint64_t v = 0;
    size_t i = 0;
    if (rp_map_get(&r->maps, map_key(r, buf), &v) && v) {
        i = v - 1; /* mapped again without an unmap replay saw */
    } else {
        while (i < r->nmapv && r->mapv[i].ptr)
            i++;
        if (i == sizeof r->mapv / sizeof r->mapv[0]) {
            rp_warn_once(r, GT_FN_MAPPED_DATA, "more buffers mapped at once than replay follows (64): the bytes "
                                               "written to the others are dropped");
            return;
        }
        r->nmapv += i == r->nmapv;
    }
    r->mapv[i].ptr = (uint8_t *)(uintptr_t)ret;
    r->mapv[i].offset = m->n_args >= 4 ? rp_arg_i(m, 1) : 0;
    r->mapv[i].length = m->n_args >= 4 ? rp_arg_i(m, 2) : INT64_MAX;
    rp_map_put(&r->maps, map_key(r, buf), i + 1);
}

/* glUnmapBuffer(target): its slot is free again. */
void rp_hook_unmap(rp *r, const rp_msg *m, uint64_t ret)
{
    (void)ret;
    uint64_t v = 0, key = map_key(r, mapped_buffer(m));
    if (rp_map_get(&r->maps, key, &v) && v && v <= r->nmapv) {
        r->mapv[v - 1].ptr = NULL;
        rp_map_put(&r->maps, key, 0);
    }
}

/* gltraceMappedData: target, buffer, offset, data. */
static void mapped_data(rp *r, const rp_msg *m)
{
    const Gltrace__GLMessage__DataType *d = m->n_args > 3 ? m->args[3] : NULL;
    uint64_t i;
    uint32_t buf = rp_name(r, RP_BUFFER, (uint32_t)rp_arg_i(m, 1));
    if (!rp_map_get(&r->maps, map_key(r, buf), &i))
        i = 0;
    if (!d || !d->n_rawbytes || !i || --i >= r->nmapv || !r->mapv[i].ptr) {
        rp_warn_once(r, GT_FN_MAPPED_DATA, "bytes written to a mapped buffer that replay has not mapped: dropped");
        return;
    }
    int64_t off = rp_arg_i(m, 2) - r->mapv[i].offset;
    if (off < 0 || off + (int64_t)d->rawbytes[0].len > r->mapv[i].length) {
        rp_warn_once(r, GT_FN_MAPPED_DATA, "mapped-buffer bytes outside the replayed mapping: dropped");
        return;
    }
    memcpy(r->mapv[i].ptr + off, d->rawbytes[0].data, d->rawbytes[0].len);
}

int rp_synthetic(rp *r, const rp_msg *m, uint64_t tid)
{
    switch (m->function) {
    case GT_FN_CONTEXT:
        make_context(r, m);
        return 1;
    case GT_FN_SURFACE:
        make_surface(r, m);
        return 1;
    case GT_FN_CURRENT: /* tracing began mid-run: the thread's current context then */
        rp_warn_once(r, GT_FN_CURRENT, "tracing was switched on while the app ran: objects it made before "
                     "(programs, textures, buffers) are not in the trace, so its frames may not replay the same");
        make_current(r, m, tid);
        return 1;
    case GT_FN_VERTEX_ATTRIB_POINTER_DATA:
        if (rp_make_current_for(r, tid) == 0)
            rp_client_feed(r, m);
        return 1;
    case GT_FN_MAPPED_DATA:
        if (rp_make_current_for(r, tid) == 0)
            mapped_data(r, m);
        return 1;
    case GT_FN_SURFACE_CONTENTS: /* not a comparison: contents to start from, in every mode */
        if ((!r->looping || r->repeat) && m->fb)
            rp_snapshot_initial(r, m);
        return 1;
    case GT_FN_FRAME_END: /* ends a frame of a trace that never swaps (rp_run.c); nothing to issue */
        return 1;
    case GT_FN_SNAPSHOT:
        if (r->opt->benchmark)
            return 1; /* timing only: nothing is read back */
        if (r->looping) {
            if (rp_make_current_for(r, tid) == 0)
                rp_snapshot_loop(r, m);
            return 1;
        }
        if (rp_make_current_for(r, tid) == 0) {
            if (r->initial_held)
                rp_initial_flush(r);
            rp_snapshot_compare(r, m, tid);
        } else {
            rp_snapshot_no_context(r, m, tid);
        }
        return 1;
    default:
        return 0;
    }
}
