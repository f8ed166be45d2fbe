/* cap_unswapped.c: snapshots of contexts that never swap. A program that
 * renders into framebuffer objects or pbuffers and reads back (benchmarks
 * off screen, media pipelines, test programs) has no eglSwapBuffers to take
 * snapshots at; with --fb=swap its draw framebuffer is taken where its
 * output becomes observable instead: at glFinish, and where the context is
 * let go of (eglMakeCurrent of another or no context, eglDestroyContext of
 * the current one, eglReleaseThread, eglTerminate), each time only when it
 * drew or cleared since its last such snapshot. A context that has swapped
 * once keeps its swaps as its snapshots. The app's own pixel reads need no
 * snapshot: their bytes are in the trace already, and replay compares them.
 *
 * Not at exit: the driver tears its displays down in its own exit handler,
 * before the library's runs, and reading then could crash the app. */
#include "cap_internal.h"
#include "cap_real_fns.h"
#include "gt_trace.h"

/* Takes the draw framebuffer when the current context is due one. */
static void take(cap_tls *t)
{
    cap_ctx_state *cs = t->cs;
    if (!cs || !cs->drew || cs->swapped || atomic_load_explicit(&cap_opt_fb, memory_order_relaxed) != GT_FB_SWAP)
        return;
    cs->drew = 0;
    int counted = !atomic_load_explicit(&cap_frame, memory_order_relaxed);
    if (counted && cap_before_start()) {
        /* A frame of a program that never swapped, before a mid-run start:
         * its trim leaves the snapshot out, so none is read (nor the levels
         * and buffers written off before it); a mark ends the frame in the
         * trace as the snapshot would (proto/gt_frames.c). */
        int was = t->passing;
        t->passing = 1; /* the state commands held back wait past it, as past a swap (cap_defer.c) */
        uint8_t *p = cap_syn_begin(t, GT_FN_FRAME_END, 0);
        if (p)
            cap_syn_end(t, p);
        t->passing = was;
    } else {
        /* Before a mid-run start, the levels and buffers written off must
         * be in the trace first: the snapshot shows what their draws left,
         * and replay compares it with what the trace has made so far. */
        if (t->th_changed | t->bh_changed)
            cap_hold_reading(t);
        cap_snapshot_draw_buffers(t);
    }
    if (counted) {
        atomic_fetch_add(&cap_unswapped_frames, 1); /* a frame of a program that never swapped ended */
        if (atomic_load_explicit(&cap_defer_on, memory_order_relaxed))
            cap_defer_now(); /* the frame before the start frame begins: writing on */
        if (CAP_UNLIKELY(atomic_load_explicit(&cap_spool_wanted, memory_order_relaxed)))
            cap_spool_swapped(t); /* a host's start or stop is at this frame's end, as at a swap (cap_spool.c) */
        if (CAP_UNLIKELY(cap_opt_stop_frame))
            cap_stop_frame_check();
    }
}

/* After a draw, a clear or a blit (the draws' own hook sets it too). */
void cap_hook_drew(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)args, (void)ret;
    if (t->cs)
        t->cs->drew = 1;
}

/* After a blit: it writes the draw framebuffer as a draw does, so
 * --fb=draw takes a snapshot after it too. */
void cap_hook_blit_end(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    cap_hook_drew(t, idx, args, ret);
    if (t->cs && atomic_load_explicit(&cap_opt_fb, memory_order_relaxed) == GT_FB_DRAW && !cap_before_start())
        cap_snapshot_draw_buffers(t);
}

void cap_hook_finish_end(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)args, (void)ret;
    take(t);
}

/* Before eglMakeCurrent: the context current now is let go of unless it
 * is made current again (a change of surfaces only). */
void cap_hook_release_pre(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)ret;
    int other = (uint64_t)(uintptr_t)cap_real.f.eglGetCurrentContext() != args[3];
    if (t->cs && t->cs->drew && !t->cs->swapped && other)
        take(t);
    cap_defer_switching(t, args[1], other);
}

/* Before eglDestroyContext: only the thread's current context can be read. */
void cap_hook_destroy_context_pre(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)ret;
    if (t->cs && t->cs->drew && !t->cs->swapped &&
        (uint64_t)(uintptr_t)cap_real.f.eglGetCurrentContext() == args[1])
        take(t);
}

/* Before eglReleaseThread and eglTerminate: whatever is current goes. */
void cap_hook_release_all_pre(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)args, (void)ret;
    take(t);
}
