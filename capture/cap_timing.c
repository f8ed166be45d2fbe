/* cap_timing.c: the timing mode (GLTRACE=timing), systrace's analogue.
 *
 * Output: Chrome's trace-event JSON ({"traceEvents":[...]}), which opens in
 * Perfetto's UI and chrome://tracing: a complete ("X") slice per GL/EGL
 * call, or per draw only (GLTRACE_TIMING=draws), and one per frame of each
 * thread (from the end of its previous eglSwapBuffers, or its first call,
 * to the end of this one, so a frame contains its calls and its swap),
 * with wall time (ts, dur) and thread CPU time (tts, tdur; always for
 * frames, for calls only with GLTRACE_THREADTIME=1, since reading a
 * thread's CPU time is a syscall).
 *
 * The app's threads only store slices into blocks of their own (cap_modes.h:
 * a few stores and a release per call); this file's writer thread formats
 * them and writes, woken at every swap and every 100 ms, like the trace
 * flusher. One slice per line, each line ending in a newline: a process
 * killed by SIGKILL, or ended by _exit, leaves whole lines and perhaps a
 * torn last one (the kernel stops a write() at a page boundary when the
 * process is killed), and no closing "]}". `gltrace record` repairs such a
 * file once the app is gone (cap_timing_file.c, which owns the file's
 * frame): it keeps it up to its last newline and appends "]}". Exit and
 * the fatal signals the app leaves to us close it here. */
#define _GNU_SOURCE
#include "cap_modes.h"
#include "cap_timing_file.h"
#include "cap_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BLOCK_EVENTS 8192
#define MEM_CAP ((size_t)256 << 20)

__thread cap_tm_thread *cap_tm_self __attribute__((tls_model("initial-exec")));
_Atomic int cap_timing_on;
int cap_opt_timing_draws;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cv = PTHREAD_COND_INITIALIZER;
static cap_tm_block *live, *pool;
static size_t mem_in_use;
static int fd = -1;
static cap_worker worker = CAP_WORKER_INIT;
static _Atomic int broken;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int pid;

cap_proc cap_mode_wrapper(int mode, unsigned idx)
{
    if (mode == GT_MODE_ERROR)
        return cap_err_wrap[idx];
    if (cap_opt_timing_draws && cap_fn_class[idx] != GT_CLASS_DRAW && cap_fn_class[idx] != GT_CLASS_FRAME)
        return NULL;
    return cap_tm_wrap[idx];
}

static void stop(const char *why)
{
    if (atomic_exchange(&broken, 1))
        return;
    atomic_store(&cap_timing_on, 0);
    cap_dispatch_select(GT_MODE_OFF);
    cap_log("%s; timing stopped, the application goes on", why);
    pthread_cond_broadcast(&pool_cv);
}

/* ------------------------------------------------------------ blocks */

static cap_tm_block *take_block(void)
{
    pthread_mutex_lock(&mu);
    cap_tm_block *b = pool;
    if (b) {
        pool = b->next;
    } else {
        /* Backpressure: the writer gives blocks back as it writes them. */
        size_t size = sizeof *b + BLOCK_EVENTS * sizeof(cap_tm_ev);
        while (mem_in_use + size > MEM_CAP && !atomic_load(&broken) && !pool)
            pthread_cond_wait(&pool_cv, &mu);
        if (pool) {
            b = pool;
            pool = b->next;
        } else if (!atomic_load(&broken) && (b = calloc(1, sizeof *b))) {
            b->ev = malloc(BLOCK_EVENTS * sizeof(cap_tm_ev));
            if (!b->ev) {
                free(b);
                b = NULL;
            } else {
                b->cap = BLOCK_EVENTS;
                mem_in_use += size;
            }
        }
    }
    if (b) {
        atomic_store(&b->commit, 0);
        b->written = 0;
        atomic_store(&b->retired, 0);
        b->next = live;
        live = b;
    }
    pthread_mutex_unlock(&mu);
    return b;
}

static void kick(void)
{
    cap_worker_kick(&worker);
}

int cap_tm_refill(cap_tm_thread *t)
{
    cap_tm_block *old = t->blk;
    t->blk = NULL;
    if (old) {
        atomic_store_explicit(&old->retired, 1, memory_order_release);
        kick();
    }
    cap_tm_block *b = atomic_load(&cap_timing_on) ? take_block() : NULL;
    if (!b) {
        if (atomic_load(&cap_timing_on))
            stop("out of memory for timing slices");
        cap_tm_self = NULL;
        return 0;
    }
    b->tid = t->tid;
    t->blk = b;
    return 1;
}

static void thread_exit(void *arg)
{
    cap_tm_thread *t = arg;
    if (t->blk) {
        atomic_store_explicit(&t->blk->retired, 1, memory_order_release);
        kick();
    }
    t->blk = NULL;
    /* As in cap_tls.c: the state stays, a later call starts over. */
    cap_tm_self = NULL;
}

static void make_key(void)
{
    if (pthread_key_create(&exit_key, thread_exit) != 0)
        stop("cannot create a thread key");
}

cap_tm_thread *cap_tm_thread_create(void)
{
    pthread_once(&key_once, make_key);
    if (!atomic_load(&cap_timing_on))
        return NULL;
    cap_tm_thread *t = calloc(1, sizeof *t);
    if (!t) {
        stop("out of memory for a thread's state");
        return NULL;
    }
    t->tid = (uint64_t)syscall(SYS_gettid);
    t->frame_t0 = cap_clock_now();
    t->frame_c0 = cap_thread_cpu_ns();
    if (!cap_tm_refill(t)) {
        free(t);
        return NULL;
    }
    cap_tm_self = t;
    pthread_setspecific(exit_key, t);
    return t;
}

/* After the swap's own slice: the frame it ends, once per frame. */
void cap_tm_frame(cap_tm_thread *t, uint64_t end)
{
    uint64_t cpu = cap_thread_cpu_ns();
    cap_tm_block *b = t->blk;
    uint32_t n = atomic_load_explicit(&b->commit, memory_order_relaxed);
    if (n == b->cap) {
        if (!cap_tm_refill(t))
            return;
        b = t->blk;
        n = 0;
    }
    b->ev[n] = (cap_tm_ev){.t0 = t->frame_t0, .t1 = end, .c0 = t->frame_c0, .c1 = cpu,
                          .idx = CAP_TM_FRAME, .frame = t->frames++};
    atomic_store_explicit(&b->commit, n + 1, memory_order_release);
    t->frame_t0 = end;
    t->frame_c0 = cpu;
    kick();
}

/* ------------------------------------------------------------ writer */

static char out[1 << 16];
static size_t out_n;

static void out_flush(void)
{
    size_t off = 0;
    while (off < out_n && !atomic_load(&broken)) {
        ssize_t w = write(fd, out + off, out_n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            char why[256];
            snprintf(why, sizeof why, "cannot write the timing file: %s", w < 0 ? strerror(errno) : "no space");
            stop(why);
            break;
        }
        off += (size_t)w;
    }
    out_n = 0;
}

static void out_put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out_put(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(out + out_n, sizeof out - out_n, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k < sizeof out - out_n)
        out_n += (size_t)k;
}

/* Microseconds with the nanoseconds kept: Chrome's unit is the µs. */
#define US(ns) (ns) / 1000, (unsigned)((ns) % 1000)

static void put_event(const cap_tm_ev *e, uint64_t tid)
{
    if (out_n > sizeof out - 512)
        out_flush(); /* only ever between two slices */
    uint64_t dur = e->t1 > e->t0 ? e->t1 - e->t0 : 0;
    if (e->idx == CAP_TM_FRAME)
        out_put(",{\"name\":\"frame\",\"cat\":\"frame\",\"ph\":\"X\"");
    else
        out_put(",{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\"", cap_fn_names[e->idx],
                cap_fn_class[e->idx] == GT_CLASS_DRAW ? "draw" : "call");
    out_put(",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%" PRIu64 ".%03u,\"dur\":%" PRIu64 ".%03u", pid, tid,
            US(e->t0), US(dur));
    if (e->c0 || e->c1) {
        uint64_t tdur = e->c1 > e->c0 ? e->c1 - e->c0 : 0;
        out_put(",\"tts\":%" PRIu64 ".%03u,\"tdur\":%" PRIu64 ".%03u", US(e->c0), US(tdur));
    }
    if (e->idx == CAP_TM_FRAME)
        out_put(",\"args\":{\"frame\":%" PRIu32 "}", e->frame);
    out_put("}\n");
}

/* Threads named once each, as Perfetto shows them (their comm). */
#define MAX_NAMED 256
static uint64_t named[MAX_NAMED];
static int nnamed;

static void name_thread(uint64_t tid)
{
    for (int i = 0; i < nnamed; i++) {
        if (named[i] == tid)
            return;
    }
    if (nnamed == MAX_NAMED)
        return;
    named[nnamed++] = tid;
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%" PRIu64 "/comm", tid);
    FILE *f = fopen(path, "re");
    if (f) {
        if (!fgets(comm, sizeof comm, f))
            comm[0] = 0;
        fclose(f);
    }
    comm[strcspn(comm, "\n\"\\")] = 0;
    out_put(",{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRIu64 ",\"args\":{\"name\":\"%s\"}}\n",
            pid, tid, comm);
}

static void write_block(cap_tm_block *b)
{
    uint32_t end = atomic_load_explicit(&b->commit, memory_order_acquire);
    if (end > b->written)
        name_thread(b->tid);
    for (uint32_t i = b->written; i < end; i++)
        put_event(&b->ev[i], b->tid);
    b->written = end;
}

static void write_all(void)
{
    pthread_mutex_lock(&mu);
    cap_tm_block *list = live;
    pthread_mutex_unlock(&mu);
    /* Only this thread unlinks; new blocks are pushed at the head. */
    for (cap_tm_block *b = list; b; b = b->next)
        write_block(b);
    pthread_mutex_lock(&mu);
    for (cap_tm_block **pp = &live; *pp;) {
        cap_tm_block *b = *pp;
        if (atomic_load_explicit(&b->retired, memory_order_acquire)) {
            write_block(b);
            *pp = b->next;
            b->next = pool;
            pool = b;
            pthread_cond_broadcast(&pool_cv);
        } else {
            pp = &b->next;
        }
    }
    pthread_mutex_unlock(&mu);
    out_flush();
}

/* After the last pass: the JSON's closing line. */
static void finish(void)
{
    out_put(CAP_TIMING_FILE_END);
    out_flush();
    close(fd);
    fd = -1;
}

int cap_timing_start(const char *path)
{
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        cap_log("cannot write %s: %s; timing is off, the application goes on", path, strerror(errno));
        return -1;
    }
    pid = (int)getpid();
    out_put(CAP_TIMING_FILE_BEGIN);
    char name[64];
    snprintf(name, sizeof name, "%s", program_invocation_short_name);
    name[strcspn(name, "\"\\")] = 0;
    out_put("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}\n", pid,
            pid, name);
    out_flush();
    atomic_store(&cap_timing_on, 1);
    if (cap_worker_start(&worker, write_all, finish) != 0) {
        atomic_store(&cap_timing_on, 0);
        cap_log("cannot start the timing writer thread: %s; timing is off", strerror(errno));
        close(fd);
        fd = -1;
        return -1;
    }
    return 0;
}

/* As in cap_flusher_shutdown: later calls go straight to the driver. */
static void quiesce(void)
{
    cap_dispatch_select(GT_MODE_OFF);
    atomic_store(&cap_timing_on, 0);
}

void cap_timing_shutdown(int from_signal)
{
    cap_worker_stop(&worker, from_signal, quiesce);
}

void cap_timing_forget(void)
{
    atomic_store(&cap_timing_on, 0);
    if (fd >= 0)
        close(fd);
    fd = -1;
    live = NULL;
    cap_tm_self = NULL;
    cap_worker_forget(&worker);
}
