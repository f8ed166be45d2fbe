/* cap_clock.c: CLOCK_MONOTONIC nanoseconds from the TSC, cheaply.
 *
 * Why: two clock reads per call are most of the per-call budget; rdtsc costs
 * about 10 ns here, clock_gettime 25 ns. The TSC is used only when the CPU
 * says it is invariant (constant_tsc and nonstop_tsc). The conversion is a
 * 32.32 multiply from an anchor; the flusher re-anchors it once a second,
 * keeping it continuous at the anchor and steering the slope so that the
 * offset to CLOCK_MONOTONIC measured now is gone by the next anchor. Readers
 * take a pointer to an immutable parameter set, so no lock and no torn read. */
#include "cap_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define CAP_CLOCK_SLOTS 256 /* a reader holds a slot for nanoseconds; reuse after minutes */

_Atomic(const cap_clock_params *) cap_clock_cur;
static cap_clock_params slots[CAP_CLOCK_SLOTS];
static unsigned slot_next;
static uint64_t init_tsc, init_ns;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cap_clock_slow(void)
{
    return mono_ns();
}

uint64_t cap_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int tsc_invariant(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int ok = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) == 0) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    }
    fclose(f);
    return ok;
}

/* A (tsc, ns) pair read as close together as we can. */
static void sample(uint64_t *tsc, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t a = __builtin_ia32_rdtsc();
        uint64_t n = mono_ns();
        uint64_t b = __builtin_ia32_rdtsc();
        if (b - a < best) {
            best = b - a;
            *tsc = a + (b - a) / 2;
            *ns = n;
        }
    }
}

static void publish(uint64_t base_tsc, uint64_t base_ns, uint64_t mult)
{
    cap_clock_params *p = &slots[slot_next++ % CAP_CLOCK_SLOTS];
    p->base_tsc = base_tsc;
    p->base_ns = base_ns;
    p->mult = mult;
    atomic_store_explicit(&cap_clock_cur, p, memory_order_release);
}

void cap_clock_init(void)
{
    if (!tsc_invariant())
        return;
    uint64_t t1, n1;
    sample(&init_tsc, &init_ns);
    do { /* about 2 ms for a first slope; refined within a second */
        sample(&t1, &n1);
    } while (n1 - init_ns < 2000000);
    if (t1 <= init_tsc)
        return;
    uint64_t mult = (uint64_t)(((unsigned __int128)(n1 - init_ns) << 32) / (t1 - init_tsc));
    publish(t1, n1, mult);
}

void cap_clock_recalibrate(void)
{
    const cap_clock_params *c = atomic_load_explicit(&cap_clock_cur, memory_order_acquire);
    if (!c)
        return;
    uint64_t tsc, ns;
    sample(&tsc, &ns);
    if (tsc <= init_tsc || tsc <= c->base_tsc)
        return;
    /* The long-baseline rate, ticks per second. */
    unsigned __int128 ticks_per_s = ((unsigned __int128)(tsc - init_tsc) * 1000000000u) / (ns - init_ns);
    if (ticks_per_s == 0)
        return;
    uint64_t here = c->base_ns + (uint64_t)(((unsigned __int128)(tsc - c->base_tsc) * c->mult) >> 32);
    /* Aim to be exact one second from now: continuous now, corrected then. */
    uint64_t target = ns + 1000000000u;
    if (target <= here)
        return;
    uint64_t mult = (uint64_t)(((unsigned __int128)(target - here) << 32) / ticks_per_s);
    if (mult == 0)
        return;
    publish(tsc, here, mult);
}
