/* cap_layer.c: libgltrace.so as a GLES layer (Android's EGL loader contract,
 * ../shared/seeds: AndroidGLESLayer_Initialize and
 * AndroidGLESLayer_GetProcAddress), for loaders that build a chain of layers
 * between the app and the driver instead of preloading us.
 *
 * In a chain, the driver's functions are whatever lies below this layer:
 * GetProcAddress(name, next) hands us `next` for each function the loader
 * knows, and get_next_layer_proc_address answers for the rest (resolve_all
 * in cap_init.c asks it instead of dlopen'ing libEGL). For every function we
 * cover we hand back our own entry point, which goes through the dispatch
 * table like a preloaded call, so every mode (record, error, timing) works
 * the same; for any other name, `next` itself, as the contract asks.
 *
 * Placing the layer is the request to trace: with GLTRACE unset, a layer
 * records (as GLTRACE=1); GLTRACE=0 makes it pass every call through.
 *
 * Preloaded AND in a chain, the one library would see each call twice;
 * the preload then wins and the layer only passes calls through. */
#define _GNU_SOURCE
#include "cap_internal.h"

#include <stdlib.h>
#include <string.h>

typedef void *(*cap_next_gpa)(void *layer_id, const char *name);

/* Written by Initialize and GetProcAddress, which the loader calls before
 * the app's first GL call; read by cap_init (under its pthread_once). */
static void *layer_id;
static cap_next_gpa next_gpa;
static uint8_t given[CAP_NFNS]; /* GetProcAddress handed us the `next` of it */
static int passthrough;         /* preloaded too: the layer steps aside */
static int active;

int cap_layer_active(void)
{
    return active && !passthrough;
}

/* The function below this layer: the `next` the loader gave, else the
 * loader's answer. NULL when neither knows it. */
cap_proc cap_layer_lookup(unsigned idx)
{
    if (given[idx])
        return cap_real_get(idx);
    return next_gpa ? (cap_proc)next_gpa(layer_id, cap_fn_names[idx]) : NULL;
}

/* Whether this library was loaded by LD_PRELOAD (its path or name is in it). */
static int preloaded(void)
{
    const char *pl = getenv("LD_PRELOAD");
    return pl && strstr(pl, "libgltrace") != NULL;
}

CAP_EXPORT void AndroidGLESLayer_Initialize(void *id, cap_next_gpa get_next_layer_proc_address)
{
    if (preloaded()) {
        if (!passthrough)
            cap_log("libgltrace.so is preloaded and also placed in a GLES layer chain: calls are traced once, "
                   "through the preload; the layer passes them on");
        passthrough = 1;
        return;
    }
    layer_id = id;
    next_gpa = get_next_layer_proc_address;
    active = 1;
}

CAP_EXPORT void *AndroidGLESLayer_GetProcAddress(const char *name, void *next)
{
    if (!name || passthrough || !active)
        return next;
    int i = cap_fn_index(name);
    if (i < 0 || !next)
        return next; /* not ours to intercept: the contract says hand it back */
    cap_real_set((unsigned)i, (cap_proc)next);
    given[i] = 1;
    return (void *)cap_export_tab[i];
}
