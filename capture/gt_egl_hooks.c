/* gt_egl_hooks.c: the hand-written code api/annotations.txt attaches to EGL
 * calls: context ids, frames, metadata, and eglGetProcAddress. */
#define _GNU_SOURCE
#include "gt_capture.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

__eglMustCastToProperFunctionPointerType gt_real_get_proc_address(const char *name);

/* ------------------------------------------------------------ contexts */

/* EGLContext handle -> dense id in creation order. Touched only on context
 * creation and eglMakeCurrent, so a lock and a linear list are fine. */
static pthread_mutex_t ctx_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *ctx_handles;
static int32_t ctx_count, ctx_cap;

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

void gt_hook_create_context(gt_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)t, (void)idx, (void)args;
    if (ret)
        ctx_id(ret, 1);
}

void gt_hook_make_current(gt_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx;
    if (!ret)
        return;
    uint64_t ctx = args[3];
    t->ctx = ctx ? ctx_id(ctx, 1) : -1;
    t->es_major = 0;
    if (ctx) {
        /* The version decides which state queries the fixups may make. */
        int i = gt_fn_index("glGetString");
        const char *v = i < 0 ? NULL : (const char *)((const GLubyte *(*)(GLenum))gt_real_get((unsigned)i))(0x1F02);
        const char *num = v ? strpbrk(v, "0123456789") : NULL;
        t->es_major = num ? *num - '0' : 0;
    }
    static _Atomic int gl_known;
    if (ctx && !atomic_exchange(&gl_known, 1))
        gt_meta_emit_gl(t);
}

void gt_hook_initialize(gt_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx;
    static _Atomic int egl_known;
    if (ret && !atomic_exchange(&egl_known, 1))
        gt_meta_emit_egl(t, (void *)(uintptr_t)args[0]);
}

void gt_hook_swap_end(gt_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)t, (void)idx, (void)args, (void)ret;
    atomic_fetch_add(&gt_frame, 1);
    gt_flusher_kick(); /* records reach the disk at every swap */
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
__eglMustCastToProperFunctionPointerType gt_hook_eglGetProcAddress(const char *procname)
{
    if (!procname)
        return NULL;
    __eglMustCastToProperFunctionPointerType real = gt_real_get_proc_address(procname);
    int i = gt_fn_index(procname);
    if (i >= 0) {
        if (!real)
            return NULL;
        if (gt_real_get((unsigned)i) == gt_missing_tab[i])
            gt_real_set((unsigned)i, (gt_proc)real);
        return (__eglMustCastToProperFunctionPointerType)gt_export_tab[i];
    }
    if (real) {
        gt_tls *t = gt_tls_get();
        if (t && first_time(procname))
            gt_meta_emit_marker(t, procname);
    }
    return real;
}
