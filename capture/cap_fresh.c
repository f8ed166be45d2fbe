/* cap_fresh.c: a new surface's first contents.
 *
 * EGL leaves a new surface's contents undefined. What the recorded process
 * found there depends on its allocator: fresh zeroed pages, or the pixels
 * of a surface it destroyed a moment before (weston gets the latter and
 * blends over them; a browser's GPU process, with an allocator of its own,
 * the former). Replay's allocator decides otherwise, so the contents are
 * recorded: the first time a context binds a surface made while tracing,
 * its colour buffer is read once (a gltraceSurfaceContents
 * record) and replay writes it into its own surface. A surface is
 * bound for the first time once, so this costs one read per surface, never
 * a call of the app's frames. */
#include "cap_internal.h"

#include <pthread.h>

#include "gt_settings.h"

/* Surfaces made and not yet bound. Creation and binding are rare, so a
 * lock is cheap; a table full drops the oldest (its contents are then not
 * recorded, and replay keeps its own). */
#define NFRESH 64
static uint64_t fresh[NFRESH];
static unsigned next_slot;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

void cap_fresh_note(uint64_t surf)
{
    pthread_mutex_lock(&mu);
    unsigned i = 0;
    while (i < NFRESH && fresh[i] != surf && fresh[i] != 0)
        i++;
    if (i == NFRESH)
        i = next_slot++ % NFRESH;
    fresh[i] = surf;
    pthread_mutex_unlock(&mu);
}

static int claim(uint64_t surf)
{
    int found = 0;
    pthread_mutex_lock(&mu);
    for (unsigned i = 0; i < NFRESH && !found; i++)
        if (fresh[i] == surf)
            fresh[i] = 0, found = 1;
    pthread_mutex_unlock(&mu);
    return found;
}

void cap_fresh_take(cap_tls *t, uint64_t surf)
{
    if (atomic_load_explicit(&cap_opt_fb, memory_order_relaxed) == GT_FB_NONE || !t->cs || !claim(surf))
        return;
    int32_t w = 0, h = 0;
    if (cap_resize_known(surf, &w, &h) && w > 0 && h > 0)
        cap_snapshot_initial(t, surf, w, h);
}
