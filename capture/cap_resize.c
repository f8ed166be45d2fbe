/* cap_resize.c: a window that changes size between frames.
 *
 * A window surface takes its new size when the driver next validates it:
 * at the first call of a frame that touches the framebuffer (a clear, a
 * draw, a blit, a read), well before the swap whose gltraceSurface record
 * would otherwise be the first to tell. Replay draws into a pbuffer of the
 * recorded size, so it must learn the new size before those calls: at the
 * first such call after each swap the current draw surface's size is asked
 * once and, when it is not the size last recorded for that surface, a
 * gltraceSurface record goes first. One query per frame and thread; nothing
 * on the other calls but a flag test. eglMakeCurrent asks at once
 * (cap_egl_hooks.c): the driver sizes the buffers there, and a window
 * resized between it and the first draw (mpv does that) is drawn at the old
 * size until the next swap on Mesa's X11 software path. */
#include "cap_internal.h"

#include <pthread.h>

#include "cap_real_fns.h"

/* The size last recorded per surface. Touched once per frame at most, so a
 * lock is cheap here; a surface pushed out of the table is asked again. */
#define NSURF 64
static struct { uint64_t surf; int32_t w, h; } known[NSURF];
static unsigned next_slot;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

void cap_resize_note(uint64_t surf, int32_t w, int32_t h)
{
    pthread_mutex_lock(&mu);
    unsigned i = 0;
    while (i < NSURF && known[i].surf != surf)
        i++;
    if (i == NSURF)
        i = next_slot++ % NSURF;
    known[i].surf = surf, known[i].w = w, known[i].h = h;
    pthread_mutex_unlock(&mu);
}

int cap_resize_known(uint64_t surf, int32_t *w, int32_t *h)
{
    int found = 0;
    pthread_mutex_lock(&mu);
    for (unsigned i = 0; i < NSURF && !found; i++)
        if (known[i].surf == surf)
            *w = known[i].w, *h = known[i].h, found = 1;
    pthread_mutex_unlock(&mu);
    return found;
}

static int changed(uint64_t surf, int32_t w, int32_t h)
{
    int32_t kw, kh;
    return !cap_resize_known(surf, &kw, &kh) || kw != w || kh != h;
}

void cap_resize_check(cap_tls *t, unsigned idx)
{
    t->size_check = 0;
    EGLDisplay dpy = cap_real.f.eglGetCurrentDisplay();
    EGLSurface surf = cap_real.f.eglGetCurrentSurface(EGL_DRAW);
    EGLint w = 0, h = 0;
    if (!dpy || !surf || !cap_real.f.eglQuerySurface(dpy, surf, EGL_WIDTH, &w) ||
        !cap_real.f.eglQuerySurface(dpy, surf, EGL_HEIGHT, &h))
        return; /* surfaceless, or no context: nothing to resize */
    if (changed((uint64_t)(uintptr_t)surf, w, h)) /* recorded with the size just asked */
        cap_surface_record(t, (uint64_t)(uintptr_t)dpy, (uint64_t)(uintptr_t)surf, 0, (int32_t)cap_fn_number(idx),
                          &w, &h);
}

/* `pre` hook of the calls that touch the framebuffer (api/annotations.txt). */
void cap_hook_fb_pre(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)args, (void)ret;
    if (CAP_UNLIKELY(t->size_check))
        cap_resize_check(t, idx);
}
