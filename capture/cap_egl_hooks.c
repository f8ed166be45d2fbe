/* cap_egl_hooks.c: the hand-written code api/annotations.txt attaches to EGL
 * calls: context ids, frames, metadata, and eglGetProcAddress. */
#define _GNU_SOURCE
#include "cap_internal.h"
#include "gt_enums.h"
#include "gt_encoders.h"
#include "cap_real_fns.h"
#include "gt_trace.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

__eglMustCastToProperFunctionPointerType cap_real_get_proc_address(const char *name);

/* ------------------------------------------------------------ contexts */

_Atomic int cap_gl_meta_known; /* the GL metadata record is in the trace */

/* EGLContext handle -> dense id in creation order. Touched only on context
 * creation and eglMakeCurrent, so a lock and a linear list are fine. */
static pthread_mutex_t ctx_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *ctx_handles;
static int32_t ctx_count, ctx_cap;
/* Context states by id; ids are dense and never reused, so a fixed table
 * of pointers, each set once, can be read without the lock. */
#define MAX_CTX_STATES 4096
static cap_ctx_state *_Atomic ctx_states[MAX_CTX_STATES];

cap_ctx_state *cap_ctx_state_of(int32_t id)
{
    if (id < 0 || id >= MAX_CTX_STATES)
        return NULL;
    cap_ctx_state *cs = atomic_load(&ctx_states[id]);
    if (!cs) {
        cap_ctx_state *n = calloc(1, sizeof *n);
        if (!n)
            return NULL;
        n->id = id;
        cap_ctx_state *expect = NULL;
        if (atomic_compare_exchange_strong(&ctx_states[id], &expect, n))
            cs = n;
        else {
            free(n);
            cs = expect;
        }
    }
    return cs;
}

static int32_t ctx_id(uint64_t handle, int create)
{
    int32_t id = -1;
    pthread_mutex_lock(&ctx_mu);
    for (int32_t i = ctx_count - 1; i >= 0; i--) {
        if (ctx_handles[i] == handle) {
            id = i;
            break;
        }
    }
    if (id < 0 && create) {
        if (ctx_count == ctx_cap) {
            int32_t cap = ctx_cap ? ctx_cap * 2 : 16;
            uint64_t *h = realloc(ctx_handles, (size_t)cap * sizeof *h);
            if (h) {
                ctx_handles = h;
                ctx_cap = cap;
            }
        }
        if (ctx_count < ctx_cap) {
            ctx_handles[ctx_count] = handle;
            id = ctx_count++;
        }
    }
    pthread_mutex_unlock(&ctx_mu);
    return id;
}

/* What each context was made with, by id: tracing switched on at runtime
 * announces a context made before (cap_announce_context). */
static struct { uint64_t dpy, config, share; } ctx_info[MAX_CTX_STATES];

static void note_context(uint64_t dpy, uint64_t config, uint64_t share, uint64_t ctx)
{
    int32_t id = ctx_id(ctx, 1);
    if (id >= 0 && id < MAX_CTX_STATES) {
        pthread_mutex_lock(&ctx_mu);
        ctx_info[id].dpy = dpy, ctx_info[id].config = config, ctx_info[id].share = share;
        pthread_mutex_unlock(&ctx_mu);
    }
}

void cap_hook_create_context(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)t, (void)idx;
    if (ret)
        note_context(args[0], args[1], args[2], ret);
}

/* eglCreateContext while listening, not tracing (`idle` hook). */
EGLContext cap_idle_eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share, const EGLint *attribs)
{
    EGLContext c = cap_real.f.eglCreateContext(dpy, config, share, attribs);
    if (c)
        note_context((uint64_t)(uintptr_t)dpy, (uint64_t)(uintptr_t)config, (uint64_t)(uintptr_t)share,
                     (uint64_t)(uintptr_t)c);
    return c;
}

void cap_hook_make_current(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx;
    if (!ret)
        return;
    uint64_t ctx = args[3];
    if (ctx)
        cap_foreign_egl_context((EGLDisplay)(uintptr_t)args[0], (EGLContext)(uintptr_t)ctx);
    cap_defer_made_current(t, ctx != 0, args[1]);
    t->ctx = ctx ? ctx_id(ctx, 1) : -1;
    t->cs = ctx ? cap_ctx_state_of(t->ctx) : NULL;
    t->es_major = 0;
    if (t->cs && !t->cs->es_major) {
        /* The version decides which state queries the fixups may make. */
        const char *v = (const char *)cap_real.f.glGetString(GL_VERSION);
        const char *num = v ? strpbrk(v, "0123456789") : NULL;
        t->cs->es_major = num ? num[0] - '0' : 0;
        t->cs->es_minor = num && num[1] == '.' && num[2] >= '0' && num[2] <= '9' ? num[2] - '0' : 0;
        const char *ext = (const char *)cap_real.f.glGetString(GL_EXTENSIONS);
        if (t->cs->es_major == 2) {
            /* Extensions that add GLES 3's pixel-store state to GLES 2. */
            t->cs->unpack_subimage = ext && strstr(ext, "GL_EXT_unpack_subimage") != NULL;
            t->cs->pack_subimage = ext && strstr(ext, "GL_NV_pack_subimage") != NULL;
        }
        /* glReadPixels of depth and stencil (--fb-depth). */
        t->cs->read_depth = t->cs->es_major >= 2 && ext && strstr(ext, "GL_NV_read_depth") != NULL;
        t->cs->read_stencil = t->cs->es_major >= 2 && ext && strstr(ext, "GL_NV_read_stencil") != NULL;
        t->cs->read_depth_stencil = t->cs->es_major >= 2 && ext && strstr(ext, "GL_NV_read_depth_stencil") != NULL;
        t->cs->float_colour = (t->cs->es_major == 3 && t->cs->es_minor >= 2) || t->cs->es_major > 3 ||
                              (t->cs->es_major == 3 && ext && strstr(ext, "GL_EXT_color_buffer_float") != NULL);
        t->cs->norm16 = t->cs->es_major >= 3 && ext && strstr(ext, "GL_EXT_texture_norm16") != NULL;
    }
    if (t->cs)
        t->es_major = t->cs->es_major;
    if (ctx && !atomic_exchange(&cap_gl_meta_known, 1))
        cap_meta_emit_gl(t);
    /* The driver sizes the surface's buffers here, at the window's size of
     * this moment; a later change reaches them after a swap (Mesa's X11
     * software path takes it no sooner), where the size is asked again. */
    t->size_check = 0;
    if (ctx)
        cap_resize_check(t, idx);
    if (ctx && args[1])
        cap_fresh_take(t, args[1]);
}

/* The config's attributes as an EGL_NONE-terminated list, so that replay
 * can choose a matching config without the window system. */
static const EGLint config_keys[] = {
    EGL_BUFFER_SIZE, EGL_ALPHA_SIZE, EGL_BLUE_SIZE, EGL_GREEN_SIZE, EGL_RED_SIZE, EGL_DEPTH_SIZE,
    EGL_STENCIL_SIZE, EGL_CONFIG_CAVEAT, EGL_CONFIG_ID, EGL_LEVEL, EGL_NATIVE_RENDERABLE, EGL_SAMPLES,
    EGL_SAMPLE_BUFFERS, EGL_SURFACE_TYPE, EGL_TRANSPARENT_TYPE, EGL_BIND_TO_TEXTURE_RGB,
    EGL_BIND_TO_TEXTURE_RGBA, EGL_MIN_SWAP_INTERVAL, EGL_MAX_SWAP_INTERVAL, EGL_LUMINANCE_SIZE,
    EGL_ALPHA_MASK_SIZE, EGL_COLOR_BUFFER_TYPE, EGL_RENDERABLE_TYPE, EGL_CONFORMANT};
#define NKEYS (sizeof config_keys / sizeof config_keys[0])

static size_t config_attribs(uint64_t dpy, uint64_t config, EGLint *out)
{
    size_t n = 0;
    for (size_t i = 0; config && i < NKEYS; i++) {
        EGLint v = 0;
        if (cap_real.f.eglGetConfigAttrib((EGLDisplay)(uintptr_t)dpy, (EGLConfig)(uintptr_t)config,
                                         config_keys[i], &v)) {
            out[n++] = config_keys[i];
            out[n++] = v;
        }
    }
    out[n++] = EGL_NONE;
    return n;
}

/* gltraceContext: dpy, context, id, share context id, client version,
 * config attributes. Written after eglCreateContext's own record, and when
 * tracing switched on finds a context made before (cap_announce_context). */
static void context_record(cap_tls *t, const uint64_t *args, uint64_t ret);

void cap_hook_context_created(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx;
    if (!ret)
        return;
    cap_switch_mark_context(ctx_id(ret, 0));
    context_record(t, args, ret);
}

void cap_announce_context(cap_tls *t, uint64_t ctx)
{
    int32_t id = ctx_id(ctx, 1);
    if (id < 0 || id >= MAX_CTX_STATES || !cap_switch_mark_context(id))
        return;
    pthread_mutex_lock(&ctx_mu);
    uint64_t args[3] = {ctx_info[id].dpy, ctx_info[id].config, ctx_info[id].share};
    pthread_mutex_unlock(&ctx_mu);
    if (!args[0]) /* made before the library could see it: the current display */
        args[0] = (uint64_t)(uintptr_t)cap_real.f.eglGetCurrentDisplay();
    context_record(t, args, ctx);
}

static void context_record(cap_tls *t, const uint64_t *args, uint64_t ret)
{
    EGLint attrs[2 * NKEYS + 1];
    size_t n = config_attribs(args[0], args[1], attrs);
    EGLint version = 0;
    cap_real.f.eglQueryContext((EGLDisplay)(uintptr_t)args[0], (EGLContext)(uintptr_t)ret, EGL_CONTEXT_CLIENT_VERSION,
                              &version);
    gt_span s = {0};
    cap_span_raw(&s, attrs, (long)n, sizeof attrs[0]);
    uint8_t *p = cap_syn_begin(t, GT_FN_CONTEXT, 128 + gt_span_room(&s));
    if (!p)
        return;
    p = gt_dt_i64(p, 0x2a, (int64_t)args[0]);
    p = gt_dt_i64(p, 0x2a, (int64_t)ret);
    p = gt_dt_i32(p, 0x2a, 4, ctx_id(ret, 0));
    p = gt_dt_i32(p, 0x2a, 4, args[2] ? ctx_id(args[2], 0) : -1);
    p = gt_dt_i32(p, 0x2a, 4, version);
    p = gt_dt_ptr(p, 0x2a, (uint64_t)(uintptr_t)attrs, &s);
    cap_syn_end(t, p);
}

/* gltraceSurface: dpy, surface, width, height, config attributes (at
 * creation; none at a swap), and the number of the call it belongs to. */
void cap_surface_record(cap_tls *t, uint64_t dpy, uint64_t surf, uint64_t config, int32_t number, int32_t *wp,
                       int32_t *hp)
{
    EGLint w = wp ? *wp : 0, h = hp ? *hp : 0;
    if (w <= 0 || h <= 0) {
        cap_real.f.eglQuerySurface((EGLDisplay)(uintptr_t)dpy, (EGLSurface)(uintptr_t)surf, EGL_WIDTH, &w);
        cap_real.f.eglQuerySurface((EGLDisplay)(uintptr_t)dpy, (EGLSurface)(uintptr_t)surf, EGL_HEIGHT, &h);
    }
    if (wp)
        *wp = w, *hp = h;
    EGLint attrs[2 * NKEYS + 1];
    gt_span s = {0};
    if (config)
        cap_span_raw(&s, attrs, (long)config_attribs(dpy, config, attrs), sizeof attrs[0]);
    uint8_t *p = cap_syn_begin(t, GT_FN_SURFACE, 128 + gt_span_room(&s));
    if (!p)
        return;
    p = gt_dt_i64(p, 0x2a, (int64_t)dpy);
    p = gt_dt_i64(p, 0x2a, (int64_t)surf);
    p = gt_dt_i32(p, 0x2a, 4, w);
    p = gt_dt_i32(p, 0x2a, 4, h);
    p = gt_dt_ptr(p, 0x2a, config ? (uint64_t)(uintptr_t)attrs : 0, &s);
    p = gt_dt_i32(p, 0x2a, 4, number);
    cap_syn_end(t, p);
    cap_resize_note(surf, w, h);
}

/* A surface made before tracing was switched on: its size and config. */
void cap_announce_surface(cap_tls *t, uint64_t dpy, uint64_t surf)
{
    if (!surf || !cap_switch_mark_surface(surf))
        return;
    EGLint cid = 0, n = 0;
    EGLConfig cfg = NULL;
    cap_real.f.eglQuerySurface((EGLDisplay)(uintptr_t)dpy, (EGLSurface)(uintptr_t)surf, EGL_CONFIG_ID, &cid);
    const EGLint want[] = {EGL_CONFIG_ID, cid, EGL_NONE};
    if (!cap_real.f.eglChooseConfig((EGLDisplay)(uintptr_t)dpy, want, &cfg, 1, &n) || n < 1)
        cfg = NULL;
    cap_surface_record(t, dpy, surf, (uint64_t)(uintptr_t)cfg, GT_FN_CURRENT, NULL, NULL);
}

void cap_hook_surface_created(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    if (!ret)
        return;
    cap_switch_mark_surface(ret);
    if (idx != GT_IDX_eglCreatePbufferFromClientBuffer) /* that one's contents are the app's buffer */
        cap_fresh_note(ret);
    uint64_t config = idx == GT_IDX_eglCreatePbufferFromClientBuffer ? args[3] : args[1];
    cap_surface_record(t, args[0], ret, config, (int32_t)cap_fn_number(idx), NULL, NULL);
}

/* Before the real swap: the surface's size, the bytes of persistent
 * mappings, the rendered textures and the back buffer (--fb=swap, draw). */
static void swap_pre_snapshots(cap_tls *t, const uint64_t *args, EGLint w, EGLint h)
{
    if (!t->cs)
        return;
    t->cs->swapped = 1; /* its swaps are its snapshots now (cap_unswapped.c) */
    if (t->cs->npersistent)
        cap_mapped_flush_persistent(t);
    if (CAP_UNLIKELY(cap_before_start()))
        return; /* a frame before the start (GLTRACE_START_FRAME): its trim leaves the snapshots out */
    if (cap_opt_textures)
        cap_snapshot_rendered_textures(t);
    if (cap_opt_fb != GT_FB_NONE)
        cap_snapshot_surface(t, args[1], w, h);
}

void cap_hook_swap_pre(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)ret;
    /* The size the frame was drawn at: the one recorded at its first draw
     * (cap_resize.c). The window's size of this moment may be newer: the
     * buffers take it after this swap, when it is asked again. */
    EGLint w = 0, h = 0;
    cap_resize_known(args[1], &w, &h);
    /* Before the start, the state commands held back wait past the swap
     * and its gltraceSurface, which read no context state (cap_defer.c). */
    int pass = atomic_load_explicit(&cap_defer_on, memory_order_relaxed) && cap_defer_now();
    t->passing = pass;
    cap_surface_record(t, args[0], args[1], 0, (int32_t)cap_fn_number(idx), &w, &h);
    t->passing = 0;
    swap_pre_snapshots(t, args, w, h);
    t->passing = pass; /* the swap's own record */
}

void cap_hook_initialize(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx;
    static _Atomic int egl_known;
    if (ret && !atomic_exchange(&egl_known, 1))
        cap_meta_emit_egl(t, (void *)(uintptr_t)args[0]);
}

void cap_hook_swap_end(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)args, (void)ret;
    t->passing = 0;
    t->size_check = 1; /* the next frame may be drawn at another size */
    atomic_fetch_add(&cap_frame, 1);
    if (CAP_UNLIKELY(cap_opt_stop_frame))
        cap_stop_frame_check();
    cap_defer_swapped(t, args[1]);
    if (CAP_UNLIKELY(atomic_load_explicit(&cap_spool_wanted, memory_order_relaxed)))
        cap_spool_swapped(t); /* a host's start or stop is at this frame's end */
    cap_flusher_kick(); /* records reach the disk at every swap */
}

/* ------------------------------------------------------------ eglGetProcAddress */

static pthread_mutex_t mark_mu = PTHREAD_MUTEX_INITIALIZER;
static char **marked;
static size_t nmarked;

static int first_time(const char *name)
{
    int first = 1;
    pthread_mutex_lock(&mark_mu);
    for (size_t i = 0; i < nmarked && first; i++)
        first = strcmp(marked[i], name) != 0;
    if (first) {
        char **m = realloc(marked, (nmarked + 1) * sizeof *m);
        char *s = strdup(name);
        if (m && s) {
            marked = m;
            marked[nmarked++] = s;
        } else {
            free(s);
            if (m)
                marked = m;
        }
    }
    pthread_mutex_unlock(&mark_mu);
    return first;
}

/* Hands out our traced entry for every covered name the driver has, and the
 * driver's own pointer (with one marker record) for names we do not cover. */
__eglMustCastToProperFunctionPointerType cap_hook_eglGetProcAddress(const char *procname)
{
    if (!procname)
        return NULL;
    __eglMustCastToProperFunctionPointerType real = cap_real_get_proc_address(procname);
    int i = cap_fn_index(procname);
    if (i >= 0) {
        if (!real)
            return NULL;
        if (cap_real_get((unsigned)i) == cap_missing_tab[i])
            cap_real_set((unsigned)i, (cap_proc)real);
        return (__eglMustCastToProperFunctionPointerType)cap_export_tab[i];
    }
    if (real) {
        cap_tls *t = cap_tls_get();
        if (t && first_time(procname))
            cap_meta_emit_marker(t, procname);
    }
    return real;
}
