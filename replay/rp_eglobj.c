/* rp_eglobj.c: EGL images and EGL syncs, re-created on the replay display.
 *
 * An image made from a GL object (a texture level or face, a renderbuffer)
 * is made again from the replayed object of the recorded context's share
 * group, so glEGLImageTarget* in another context gets the same storage, as
 * in the app. An image from outside GL (a dma-buf, an X pixmap, a Wayland
 * buffer) has contents the trace does not hold: it is not made, with one
 * warning, and the calls that use it get no image (the driver then reports
 * an error instead of reading a stale handle).
 *
 * Fences are created and waited on in the recorded order, in the recorded
 * thread's context, so the GPU work they ordered is ordered the same way
 * (and --benchmark times the same waits). */
#include "rp_handlers_gen.h"
#include "rp_internal.h"

#include <string.h>

#include "gt_trace.h"

/* Sources that are GL objects (EGL_KHR_gl_image, EGL 1.5 core). */
static int gl_source(EGLenum target, int *cls)
{
    switch (target) {
    case EGL_GL_TEXTURE_2D:
    case EGL_GL_TEXTURE_3D:
    case EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X:
    case EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_X:
    case EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_Y:
    case EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Y:
    case EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_Z:
    case EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Z:
        *cls = RP_TEXTURE;
        return 1;
    case EGL_GL_RENDERBUFFER:
        *cls = RP_RENDERBUFFER;
        return 1;
    default:
        return 0;
    }
}

/* The recorded attribute list of argument i, copied with its terminator
 * (EGLint or EGLAttrib elements): a list the trace cut short is refused
 * rather than read past its end. Returns the list, NULL for none, or
 * (void *)-1 when it is unusable. */
static const void *attribs(rp *r, const rp_msg *m, unsigned i, size_t elem)
{
    size_t len = 0;
    const uint8_t *d = rp_arg_bytes(m, i, &len);
    if (!d)
        return NULL;
    size_t n = len / elem;
    if (n == 0 || len % elem)
        return (void *)-1;
    int64_t last = elem == 8 ? ((const int64_t *)(const void *)d)[n - 1] : ((const int32_t *)(const void *)d)[n - 1];
    if (last != EGL_NONE)
        return (void *)-1;
    void *copy = rp_scratch(r, len);
    if (copy)
        memcpy(copy, d, len);
    return copy ? copy : (void *)-1;
}

static int context_id(rp *r, uint64_t recorded)
{
    uint64_t h = rp_handle(r, recorded);
    for (int i = 0; h && i < RP_MAX_CTX; i++)
        if (r->ctx[i].used && (uint64_t)(uintptr_t)r->ctx[i].ctx == h)
            return i;
    return -1;
}

/* eglCreateImage(dpy, ctx, target, buffer, attrib_list), EGLAttrib list;
 * eglCreateImageKHR, the same with an EGLint list (f: the driver's). */
static void create_image(rp *r, const rp_msg *m, int khr, PFNEGLCREATEIMAGEKHRPROC f)
{
    EGLenum target = (EGLenum)rp_arg_i(m, 2);
    int cls, id = context_id(r, rp_arg_u(m, 1));
    if (!gl_source(target, &cls)) {
        rp_warn_once(r, m->function, "record %llu: an EGL image of target 0x%x holds contents from outside GL "
                     "that the trace does not have: not made, what samples it draws differently",
                     (unsigned long long)r->seq, target);
        return;
    }
    if (id < 0) {
        rp_warn_once(r, m->function, "record %llu: an EGL image of a context the trace never created: not made",
                     (unsigned long long)r->seq);
        return;
    }
    const void *list = attribs(r, m, 4, khr ? sizeof(EGLint) : sizeof(EGLAttrib));
    if (list == (void *)-1) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: record %llu: the attribute list of eglCreateImage%s is cut short or not EGL_NONE-terminated",
                 r->path, (unsigned long long)r->seq, khr ? "KHR" : "");
        return;
    }
    int32_t was = r->cur_ctx;
    r->cur_ctx = id; /* the object's name in that context's share group */
    uint32_t name = rp_name(r, cls, (uint32_t)rp_arg_u(m, 3));
    r->cur_ctx = was;
    EGLClientBuffer buf = (EGLClientBuffer)(uintptr_t)name;
    void *img;
    if (khr) {
        img = f ? f(r->dpy, r->ctx[id].ctx, target, buf, list) : NULL;
    } else {
        img = eglCreateImage(r->dpy, r->ctx[id].ctx, target, buf, list);
    }
    if (!img) {
        rp_warn_once(r, m->function, "record %llu: the replay driver refused an EGL image the app got (EGL error "
                     "0x%x): what samples it draws differently", (unsigned long long)r->seq, eglGetError());
        return;
    }
    rp_handle_set(r, rp_ret_u(m), (uint64_t)(uintptr_t)img);
}

static void destroy_image(rp *r, const rp_msg *m, int khr, PFNEGLDESTROYIMAGEKHRPROC f)
{
    uint64_t rec = rp_arg_u(m, 1), img = rp_handle(r, rec);
    if (!img)
        return;
    if (khr) {
        if (f)
            f(r->dpy, (EGLImageKHR)(uintptr_t)img);
    } else {
        eglDestroyImage(r->dpy, (EGLImage)(uintptr_t)img);
    }
    rp_handle_set(r, rec, 0);
}

/* eglCreateSync(dpy, type, attrib_list) and eglCreateSync64KHR (EGLAttrib
 * lists, made with eglCreateSync) or eglCreateSyncKHR (EGLint): a fence
 * goes into the command stream of the context current on the recorded
 * thread. */
static void create_sync(rp *r, const rp_msg *m, uint64_t tid, int khr, PFNEGLCREATESYNCKHRPROC f)
{
    EGLenum type = (EGLenum)rp_arg_i(m, 1);
    if (type != EGL_SYNC_FENCE && type != EGL_SYNC_REUSABLE_KHR) {
        rp_warn_once(r, m->function, "record %llu: EGL syncs of type 0x%x (native fences) are not made on replay",
                     (unsigned long long)r->seq, type);
        return;
    }
    if (type == EGL_SYNC_FENCE && rp_make_current_for(r, tid) != 0)
        return; /* no context on that thread: the app's call failed too */
    const void *list = attribs(r, m, 2, khr ? sizeof(EGLint) : sizeof(EGLAttrib));
    if (list == (void *)-1) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: record %llu: the attribute list of an EGL sync is cut short or not EGL_NONE-terminated",
                 r->path, (unsigned long long)r->seq);
        return;
    }
    void *s;
    if (khr) {
        s = f ? f(r->dpy, type, list) : NULL;
    } else {
        s = eglCreateSync(r->dpy, type, list);
    }
    if (s)
        rp_handle_set(r, rp_ret_u(m), (uint64_t)(uintptr_t)s);
}

/* Waits, signals and destruction, on the replayed sync: argument 1; its
 * replayed handle, 0 for none. */
static EGLSync sync_of(rp *r, const rp_msg *m)
{
    return (EGLSync)(uintptr_t)rp_handle(r, rp_arg_u(m, 1));
}

/* eglClientWaitSync(dpy, sync, flags, timeout), eglClientWaitSyncKHR: the
 * flush bit flushes the current context, the recorded thread's. */
static void client_wait_sync(rp *r, const rp_msg *m, uint64_t tid, int khr, PFNEGLCLIENTWAITSYNCKHRPROC f)
{
    EGLSync sync = sync_of(r, m);
    if (!sync || rp_make_current_for(r, tid) != 0)
        return; /* never made (or a native fence): nothing to wait for */
    EGLint flags = (EGLint)rp_arg_i(m, 2);
    if (!khr)
        eglClientWaitSync(r->dpy, sync, flags, EGL_FOREVER);
    else if (f)
        f(r->dpy, sync, flags, EGL_FOREVER_KHR);
}

static void wait_sync(rp *r, const rp_msg *m, uint64_t tid, int khr, PFNEGLWAITSYNCKHRPROC f)
{
    EGLSync sync = sync_of(r, m);
    if (!sync || rp_make_current_for(r, tid) != 0)
        return;
    if (!khr)
        eglWaitSync(r->dpy, sync, 0);
    else if (f)
        f(r->dpy, sync, 0);
}

static void destroy_sync(rp *r, const rp_msg *m, int khr, PFNEGLDESTROYSYNCKHRPROC f)
{
    EGLSync sync = sync_of(r, m);
    if (!sync)
        return;
    if (!khr)
        eglDestroySync(r->dpy, sync);
    else if (f)
        f(r->dpy, sync);
    rp_handle_set(r, rp_arg_u(m, 1), 0);
}

/* The EGL handlers (`replay ... egl HANDLER` in api/annotations.txt); fn:
 * the driver's own function of the recorded command. A KHR command's goes
 * to the driver's KHR function, a core one's to the core function. */
void rp_egl_create_image(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)tid, (void)fn;
    create_image(r, m, 0, NULL);
}

void rp_egl_create_image_khr(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)tid;
    create_image(r, m, 1, (PFNEGLCREATEIMAGEKHRPROC)fn);
}

void rp_egl_destroy_image(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)tid, (void)fn;
    destroy_image(r, m, 0, NULL);
}

void rp_egl_destroy_image_khr(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)tid;
    destroy_image(r, m, 1, (PFNEGLDESTROYIMAGEKHRPROC)fn);
}

/* eglCreateSync and eglCreateSync64KHR (EGLAttrib lists): eglCreateSync. */
void rp_egl_create_sync(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)fn;
    create_sync(r, m, tid, 0, NULL);
}

void rp_egl_create_sync_khr(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    create_sync(r, m, tid, 1, (PFNEGLCREATESYNCKHRPROC)fn);
}

void rp_egl_client_wait_sync(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)fn;
    client_wait_sync(r, m, tid, 0, NULL);
}

void rp_egl_client_wait_sync_khr(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    client_wait_sync(r, m, tid, 1, (PFNEGLCLIENTWAITSYNCKHRPROC)fn);
}

void rp_egl_wait_sync(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)fn;
    wait_sync(r, m, tid, 0, NULL);
}

void rp_egl_wait_sync_khr(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    wait_sync(r, m, tid, 1, (PFNEGLWAITSYNCKHRPROC)fn);
}

void rp_egl_signal_sync_khr(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)tid;
    EGLSync sync = sync_of(r, m);
    if (sync && fn)
        ((PFNEGLSIGNALSYNCKHRPROC)fn)(r->dpy, sync, (EGLenum)rp_arg_i(m, 2));
}

void rp_egl_destroy_sync(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)tid, (void)fn;
    destroy_sync(r, m, 0, NULL);
}

void rp_egl_destroy_sync_khr(rp *r, const rp_msg *m, uint64_t tid, void *fn)
{
    (void)tid;
    destroy_sync(r, m, 1, (PFNEGLDESTROYSYNCKHRPROC)fn);
}
