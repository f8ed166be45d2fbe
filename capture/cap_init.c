/* cap_init.c: start-up of the capture library.
 *
 * Nothing happens at load time beyond registering handlers: the first GL or
 * EGL call goes through a generated init stub, which runs cap_init once:
 * find the driver's functions (in libEGL, libGLESv2, libGLESv1_CM, then the
 * driver's eglGetProcAddress), read the configuration, open the trace, and
 * switch the dispatch table to traced or plain. Every later call costs one
 * indirect call when not traced. */
#define _GNU_SOURCE
#include "cap_internal.h"
#include "cap_modes.h"
#include "cap_real_fns.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cap_dlopen.c */
void *cap_real_dlopen(const char *name, int flags);

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static __thread int in_init;
static void *libs[3];
static __eglMustCastToProperFunctionPointerType (*real_gpa)(const char *);

int cap_fn_index(const char *name)
{
    int lo = 0, hi = CAP_NFNS;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(cap_fn_names[mid], name);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

cap_proc cap_real_lookup(const char *name)
{
    for (int i = 0; i < 3; i++) {
        if (libs[i]) {
            void *p = dlsym(libs[i], name);
            if (p)
                return (cap_proc)p;
        }
    }
    return real_gpa ? (cap_proc)real_gpa(name) : NULL;
}

static void resolve_all(void)
{
    if (cap_layer_active()) {
        /* In a layer chain: what lies below us, never the driver directly
         * (cap_layer.c); eglGetProcAddress too, before it is replaced. */
        real_gpa = (__eglMustCastToProperFunctionPointerType(*)(const char *))cap_layer_lookup(
            CAP_REAL_IDX(eglGetProcAddress));
        for (unsigned i = 0; i < CAP_NFNS; i++) {
            cap_proc p = cap_layer_lookup(i);
            cap_real_set(i, p ? p : cap_missing_tab[i]);
        }
        cap_install_replacements();
        return;
    }
    static const char *const names[3] = {"libEGL.so.1", "libGLESv2.so.2", "libGLESv1_CM.so.1"};
    for (int i = 0; i < 3; i++)
        libs[i] = cap_real_dlopen(names[i], RTLD_LAZY | RTLD_LOCAL);
    if (!libs[0])
        cap_log("cannot load libEGL.so.1 (%s); EGL calls will fail", dlerror());
    /* The one function found by its name: it finds the others (a driver's
     * extensions are not exported from its library). */
    if (libs[0]) /* bootstrap: see above */
        real_gpa = (__eglMustCastToProperFunctionPointerType(*)(const char *))dlsym(libs[0], "eglGetProcAddress");
    for (unsigned i = 0; i < CAP_NFNS; i++) {
        cap_proc p = cap_real_lookup(cap_fn_names[i]);
        cap_real_set(i, p ? p : cap_missing_tab[i]);
    }
    cap_install_replacements();
}

__eglMustCastToProperFunctionPointerType cap_real_get_proc_address(const char *name)
{
    return real_gpa ? real_gpa(name) : NULL;
}

void cap_missing(unsigned idx)
{
    static _Atomic int logged;
    if (!atomic_exchange(&logged, 1))
        cap_log("the application called %s, which the driver does not provide; "
               "the call did nothing (further such calls are not logged)", cap_fn_names[idx]);
}

/* ------------------------------------------------------------ shutdown */

static int mode;

static void on_exit_handler(void)
{
    if (cap_self && cap_self->npending)
        cap_defer_flush(cap_self); /* an app that ended before the start: its held commands */
    cap_flusher_shutdown(0);
    cap_timing_shutdown(0);
    if (mode == GT_MODE_ERROR)
        cap_error_summary();
}

static const int fatal_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGABRT,
                                    SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction old_actions[sizeof fatal_signals / sizeof fatal_signals[0]];

static void on_fatal_signal(int sig)
{
    /* Flush what was committed (the flusher thread does the work; waiting
     * on it uses only async-signal-safe calls), then die as the app would. */
    cap_flusher_shutdown(1);
    cap_timing_shutdown(1);
    cap_spool_remove();
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        if (fatal_signals[i] == sig)
            sigaction(sig, &old_actions[i], NULL);
    }
    raise(sig);
}

static void install_signal_handlers(void)
{
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        struct sigaction sa, old;
        if (sigaction(fatal_signals[i], NULL, &old) != 0)
            continue;
        /* Only where the app has not chosen a handler of its own. */
        if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
            continue;
        old_actions[i] = old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, NULL);
    }
}

static void on_fork_child(void)
{
    /* The child must not write into the parent's trace: it runs untraced. */
    atomic_store(&cap_tracing, 0);
    cap_flusher_forget();
    cap_timing_forget();
    cap_self = NULL;
    cap_dispatch_select(GT_MODE_OFF);
}

/* ------------------------------------------------------------ config */

/* One GLTRACE_* setting (proto/gt_settings.h, the table `gltrace record`
 * writes from). An unknown value is one line; the caller turns off what it
 * was for: a trace without the snapshots asked for would mislead. */
static int setting(gt_setting_id id, long *value)
{
    char why[256];
    if (gt_setting_get(id, value, why, sizeof why) == 0)
        return 1;
    cap_log("%s", why);
    return 0;
}

static int parse_mode(void)
{
    const char *want = gt_setting_env(GT_SET_MODE);
    if (cap_layer_active() && (!want || !*want))
        return GT_MODE_FULL; /* placing the layer is the request to trace (cap_layer.c) */
    long m;
    return setting(GT_SET_MODE, &m) ? (int)m : GT_MODE_OFF;
}

/* GLTRACE_TIMING: a slice per call (calls, the default) or per draw. */
static int parse_timing_options(void)
{
    long draws, tt;
    if (!setting(GT_SET_TIMING, &draws) || !setting(GT_SET_THREADTIME, &tt))
        return 0;
    cap_opt_timing_draws = draws == GT_TIMING_DRAWS;
    cap_opt_threadtime = (int)tt;
    return 1;
}

_Atomic int cap_opt_fb = GT_FB_SWAP;
_Atomic int cap_opt_textures;
int cap_opt_fb_depth;
uint64_t cap_opt_start_frame;
uint64_t cap_opt_stop_frame;
int cap_opt_coalesce;
static long level;

/* The settings of both ways of tracing (a file, a host). */
static int parse_trace_options(void)
{
    long fb, depth, textures, mb, tt, delta, start, coalesce, stop;
    if (!setting(GT_SET_FB, &fb) || !setting(GT_SET_FB_DEPTH, &depth) || !setting(GT_SET_TEXTURES, &textures) ||
        !setting(GT_SET_BUFFER_MB, &mb) || !setting(GT_SET_THREADTIME, &tt) || !setting(GT_SET_LEVEL, &level) ||
        !setting(GT_SET_SNAPSHOT_DELTA, &delta) || !setting(GT_SET_START_FRAME, &start) ||
        !setting(GT_SET_COALESCE, &coalesce) || !setting(GT_SET_STOP_FRAME, &stop))
        return 0;
    cap_opt_start_frame = (uint64_t)start;
    cap_opt_stop_frame = (uint64_t)stop;
    cap_opt_coalesce = (int)coalesce;
    cap_snapshot_code_setup((int)delta, (int)level);
    cap_opt_fb = (int)fb;
    cap_opt_fb_depth = (int)depth;
    cap_opt_textures = (int)textures;
    cap_flusher_set_mem_cap((size_t)mb << 20);
    cap_opt_threadtime = (int)tt;
    return 1;
}

/* GLTRACE_STOP_FRAME (gltrace record --start-frame N --frames K sets N +
 * K): once that frame has ended, tracing stops as it does on a fault of
 * ours (cap_fail): the plain table first, then tracing off. The app runs
 * on through the driver; the trace ends there, and its seek index is
 * written at exit as ever. So a few frames of a long run cost the run up
 * to them, not all of it. */
void cap_stop_frame_check(void)
{
    static _Atomic int stopped;
    if (cap_frames_ended() <= cap_opt_stop_frame || atomic_exchange(&stopped, 1))
        return;
    cap_dispatch_select(0);
    atomic_store(&cap_tracing, 0);
    cap_log("frame %llu ended: tracing stops (GLTRACE_STOP_FRAME); the app runs on untraced",
            (unsigned long long)cap_opt_stop_frame);
}

static int start_full(void)
{
    if (!parse_trace_options())
        return 0;
    char path[PATH_MAX];
    if (cap_out_path(gt_setting_env(GT_SET_OUT), ".gltrace", path, sizeof path) != 0)
        return 0;
    cap_clock_init();
    if (cap_opt_start_frame > 1 && cap_opt_coalesce)
        cap_defer_enable(); /* frames before the start: their state commands held back */
    atomic_store(&cap_tracing, 1);
    if (cap_flusher_start(path, (int)level) != 0) {
        atomic_store(&cap_tracing, 0);
        return 0;
    }
    cap_out_announce(path);
    atexit(on_exit_handler);
    install_signal_handlers();
    pthread_atfork(NULL, NULL, on_fork_child);
    cap_tls *t = cap_tls_get();
    if (t)
        cap_meta_emit_start(t);
    return 1;
}

static int start_timing(void)
{
    if (!parse_timing_options())
        return 0;
    char path[PATH_MAX];
    if (cap_out_path(gt_setting_env(GT_SET_OUT), ".json", path, sizeof path) != 0)
        return 0;
    /* The timing file is JSON, whatever a pattern or `record -o` called it. */
    size_t n = strlen(path);
    if (n > 8 && strcmp(path + n - 8, ".gltrace") == 0)
        memcpy(path + n - 8, ".json", sizeof ".json");
    cap_clock_init();
    if (cap_timing_start(path) != 0)
        return 0;
    cap_out_announce(path);
    atexit(on_exit_handler);
    install_signal_handlers();
    pthread_atfork(NULL, NULL, on_fork_child);
    return 1;
}

/* GLTRACE_LISTEN: tracing waits for a host (cap_server.c). The snapshot
 * settings from the environment are where the host's start from. */
static int start_listen(const char *spec)
{
    if (!parse_trace_options())
        return 0;
    cap_clock_init();
    cap_dispatch_select(CAP_MODE_IDLE);
    atexit(on_exit_handler);
    pthread_atfork(NULL, NULL, on_fork_child);
    if (cap_server_start(spec, (int)level) != 0) {
        cap_dispatch_select(GT_MODE_OFF);
        return 0;
    }
    if (cap_server_spooling())
        install_signal_handlers(); /* the spool is flushed and removed as a recorded trace is flushed */
    return 1;
}

static void cap_init(void)
{
    in_init = 1;
    resolve_all();
    /* A process GLTRACE_PROC does not name runs untouched and silent. */
    mode = cap_proc_selected() ? parse_mode() : GT_MODE_OFF;
    const char *want = gt_setting_env(GT_SET_MODE);
    const char *listen_spec = gt_setting_env(GT_SET_LISTEN);
    if (listen_spec && *listen_spec && mode != GT_MODE_FULL && mode != GT_MODE_OFF)
        cap_log("GLTRACE_LISTEN is for recording (GLTRACE unset, 1 or full), not GLTRACE=%s: no trace server", want);
    if (listen_spec && *listen_spec && (mode == GT_MODE_FULL || (mode == GT_MODE_OFF && !want))) {
        if (cap_proc_selected() && start_listen(listen_spec)) {
            in_init = 0;
            return; /* the dispatch is the server's to switch from here */
        }
        mode = GT_MODE_OFF;
    } else if (mode == GT_MODE_FULL && !start_full())
        mode = GT_MODE_OFF;
    else if (mode == GT_MODE_TIMING && !start_timing())
        mode = GT_MODE_OFF;
    else if (mode == GT_MODE_ERROR) {
        cap_error_start();
        atexit(on_exit_handler);
    }
    cap_dispatch_select(mode);
    in_init = 0;
}

cap_proc cap_init_entry(unsigned idx)
{
    if (in_init) {
        /* A driver calling back into an exported symbol while we resolve:
         * hand it the driver's own function, found on the spot. */
        cap_proc p = cap_layer_active() ? cap_layer_lookup(idx) : cap_real_lookup(cap_fn_names[idx]);
        return p ? p : cap_missing_tab[idx];
    }
    pthread_once(&init_once, cap_init);
    extern const cap_proc *cap_current_table(void);
    return cap_current_table()[idx];
}

__attribute__((destructor)) static void cap_fini(void)
{
    on_exit_handler();
}
