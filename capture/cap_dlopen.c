/* cap_dlopen.c: apps that dlopen libEGL/libGLES themselves still get traced.
 *
 * Why: dlsym on a handle of the real libEGL finds the real functions and
 * skips the preloaded library. So dlopen of one of those libraries (by the
 * app, not by us) loads the real one as asked, then hands back a handle to
 * this library, whose exports are the traced entry points. */
#define _GNU_SOURCE
#include "cap_internal.h"

#include <dlfcn.h>
#include <string.h>

static void *(*next_dlopen)(const char *, int);

void *cap_real_dlopen(const char *name, int flags)
{
    if (!next_dlopen)
        next_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    return next_dlopen ? next_dlopen(name, flags) : NULL;
}

static int is_gl_library(const char *name)
{
    static const char *const libs[] = {"libEGL.so", "libGLESv2.so", "libGLESv1_CM.so", "libGLESv3.so"};
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        size_t n = strlen(libs[i]);
        if (strncmp(base, libs[i], n) == 0 && (base[n] == 0 || base[n] == '.'))
            return 1;
    }
    return 0;
}

CAP_EXPORT void *dlopen(const char *name, int flags)
{
    void *h = cap_real_dlopen(name, flags);
    if (!h || !name || !is_gl_library(name))
        return h;
    Dl_info info;
    if (!dladdr((void *)cap_real_dlopen, &info) || !info.dli_fname)
        return h;
    void *self = cap_real_dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    return self ? self : h;
}
