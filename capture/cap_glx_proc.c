/* cap_glx_proc.c: GLES entry points obtained through glXGetProcAddress.
 *
 * Why: with libglvnd, glXGetProcAddress(ARB) hands out a dispatch stub for
 * any name, and that stub calls whatever context is current on the thread,
 * an EGL one included. A program linked with libGL that looks its GLES
 * extension commands up there (piglit does, for every command it does not
 * find in libGLESv2) would reach the driver past this library, and its
 * trace would lack those calls (texture views, viewport arrays, buffer
 * storage, ...), so replay would draw something else. For a command we
 * cover that the driver has, the traced entry point is handed out instead,
 * as eglGetProcAddress does; every other name gets GLX's own answer. */
#define _GNU_SOURCE
#include "cap_internal.h"

#include <dlfcn.h>
#include <pthread.h>

__eglMustCastToProperFunctionPointerType cap_real_get_proc_address(const char *name);

typedef void (*cap_glx_fn)(void);

static cap_glx_fn traced_or(const char *name, cap_glx_fn glx)
{
    int i = name ? cap_fn_index(name) : -1;
    if (i < 0)
        return glx;
    cap_init_entry((unsigned)i); /* the driver's functions are known from here */
    __eglMustCastToProperFunctionPointerType real = cap_real_get_proc_address(name);
    if (!real)
        return glx; /* the driver has no such GLES command: GLX's stub as it was */
    if (cap_real_get((unsigned)i) == cap_missing_tab[i])
        cap_real_set((unsigned)i, (cap_proc)real);
    return (cap_glx_fn)cap_export_tab[i];
}

typedef cap_glx_fn (*cap_glx_lookup)(const unsigned char *);
static cap_glx_lookup next_arb, next_plain;
static pthread_once_t next_once = PTHREAD_ONCE_INIT;

static void find_next(void)
{
    /* bootstrap: GLX is not in the API description */
    next_arb = (cap_glx_lookup)dlsym(RTLD_NEXT, "glXGetProcAddressARB");
    /* bootstrap: GLX is not in the API description */
    next_plain = (cap_glx_lookup)dlsym(RTLD_NEXT, "glXGetProcAddress");
}

CAP_EXPORT cap_glx_fn glXGetProcAddressARB(const unsigned char *name)
{
    pthread_once(&next_once, find_next);
    return traced_or((const char *)name, next_arb ? next_arb(name) : NULL);
}

CAP_EXPORT cap_glx_fn glXGetProcAddress(const unsigned char *name)
{
    pthread_once(&next_once, find_next);
    return traced_or((const char *)name, next_plain ? next_plain(name) : NULL);
}
