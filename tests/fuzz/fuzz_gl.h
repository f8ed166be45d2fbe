/* fuzz_gl.h: what the fuzz targets that replay on llvmpipe (EGL
 * surfaceless) set up once: rasterizing on the replaying thread (no thread
 * pool per context), and Mesa's driver pinned, so that each replay's
 * eglTerminate does not unload and reload it with its compiler. */
#ifndef FUZZ_GL_H
#define FUZZ_GL_H

#include <dlfcn.h>
#include <stdlib.h>

static inline void fuzz_gl_init(void)
{
    setenv("LP_NUM_THREADS", "0", 0);
    setenv("EGL_PLATFORM", "surfaceless", 0);
    /* Mesa's drivers (Debian's paths; one of them is enough). */
    static const char *const drivers[] = {
        "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so", "/usr/lib/aarch64-linux-gnu/dri/swrast_dri.so",
        "/usr/lib/x86_64-linux-gnu/libgallium_dri.so",
    };
    for (size_t i = 0; i < sizeof drivers / sizeof *drivers; i++)
        if (dlopen(drivers[i], RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))
            break;
}

#endif
