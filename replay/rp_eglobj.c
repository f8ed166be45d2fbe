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
 * eglCreateImageKHR, the same with an EGLint list. */
static void create_image(rp *r, const rp_msg *m, int khr)
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
                 "%s: record %llu: the attribute list of %s is cut short or not EGL_NONE-terminated", r->path,
                 (unsigned long long)r->seq, khr ? "eglCreateImageKHR" : "eglCreateImage");
        return;
    }
    int32_t was = r->cur_ctx;
    r->cur_ctx = id; /* the object's name in that context's share group */
    uint32_t name = rp_name(r, cls, (uint32_t)rp_arg_u(m, 3));
    r->cur_ctx = was;
    EGLClientBuffer buf = (EGLClientBuffer)(uintptr_t)name;
    void *img;
    if (khr) {
        PFNEGLCREATEIMAGEKHRPROC f = (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
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

static void destroy_image(rp *r, const rp_msg *m, int khr)
{
    uint64_t rec = rp_arg_u(m, 1), img = rp_handle(r, rec);
    if (!img)
        return;
    if (khr) {
        PFNEGLDESTROYIMAGEKHRPROC f = (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
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
static void create_sync(rp *r, const rp_msg *m, uint64_t tid, int khr)
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
        PFNEGLCREATESYNCKHRPROC f = (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
        s = f ? f(r->dpy, type, list) : NULL;
    } else {
        s = eglCreateSync(r->dpy, type, list);
    }
    if (s)
        rp_handle_set(r, rp_ret_u(m), (uint64_t)(uintptr_t)s);
}

/* Waits, signals and destruction, on the replayed sync: argument 1. */
static void use_sync(rp *r, const rp_msg *m, uint64_t tid, const char *name)
{
    uint64_t rec = rp_arg_u(m, 1), s = rp_handle(r, rec);
    if (!s)
        return; /* never made (or a native fence): nothing to wait for */
    EGLSync sync = (EGLSync)(uintptr_t)s;
    int khr = strstr(name, "KHR") != NULL;
    if (!strncmp(name, "eglClientWaitSync", 17)) {
        /* The flush bit flushes the current context: the recorded thread's. */
        if (rp_make_current_for(r, tid) != 0)
            return;
        EGLint flags = (EGLint)rp_arg_i(m, 2);
        if (khr) {
            PFNEGLCLIENTWAITSYNCKHRPROC f = (PFNEGLCLIENTWAITSYNCKHRPROC)eglGetProcAddress(name);
            if (f)
                f(r->dpy, sync, flags, EGL_FOREVER_KHR);
        } else {
            eglClientWaitSync(r->dpy, sync, flags, EGL_FOREVER);
        }
    } else if (!strncmp(name, "eglWaitSync", 11)) {
        if (rp_make_current_for(r, tid) != 0)
            return;
        if (khr) {
            PFNEGLWAITSYNCKHRPROC f = (PFNEGLWAITSYNCKHRPROC)eglGetProcAddress(name);
            if (f)
                f(r->dpy, sync, 0);
        } else {
            eglWaitSync(r->dpy, sync, 0);
        }
    } else if (!strcmp(name, "eglSignalSyncKHR")) {
        PFNEGLSIGNALSYNCKHRPROC f = (PFNEGLSIGNALSYNCKHRPROC)eglGetProcAddress(name);
        if (f)
            f(r->dpy, sync, (EGLenum)rp_arg_i(m, 2));
    } else { /* eglDestroySync, eglDestroySyncKHR */
        if (khr) {
            PFNEGLDESTROYSYNCKHRPROC f = (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress(name);
            if (f)
                f(r->dpy, sync);
        } else {
            eglDestroySync(r->dpy, sync);
        }
        rp_handle_set(r, rec, 0);
    }
}

int rp_eglobj_dispatch(rp *r, const rp_msg *m, const char *name, uint64_t tid)
{
    if (!strcmp(name, "eglCreateImage") || !strcmp(name, "eglCreateImageKHR"))
        create_image(r, m, name[14] == 'K');
    else if (!strcmp(name, "eglDestroyImage") || !strcmp(name, "eglDestroyImageKHR"))
        destroy_image(r, m, name[15] == 'K');
    else if (!strcmp(name, "eglCreateSync") || !strcmp(name, "eglCreateSyncKHR") ||
             !strcmp(name, "eglCreateSync64KHR"))
        create_sync(r, m, tid, name[13] == 'K');
    else if (!strncmp(name, "eglClientWaitSync", 17) || !strncmp(name, "eglWaitSync", 11) ||
             !strcmp(name, "eglSignalSyncKHR") || !strncmp(name, "eglDestroySync", 14))
        use_sync(r, m, tid, name);
    else
        return 0;
    return 1;
}
