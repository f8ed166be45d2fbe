/* cap_flusher.c: the background thread that compresses and writes.
 *
 * Threads never write to the file: they fill buffers, and this thread takes
 * [flushed, committed) of every buffer as one chunk (proto/gt_writer) when
 * kicked (each eglSwapBuffers, a full buffer) and at least every 100 ms, so
 * records reach the disk at every swap and within 100 ms otherwise (the
 * thread's life, start to shutdown, is cap_worker.c, shared with the timing
 * writer). A kill leaves whole chunks and at most one torn tail, which the
 * reader reports.
 * Buffers come from and go back to a pool here; the memory in flight is
 * capped, and a thread that would exceed it waits (backpressure) rather
 * than dropping records. */
#define _GNU_SOURCE
#include "cap_internal.h"
#include "gt_trace.h"
#include "cap_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define BUF_SIZE (1u << 20)
#define POOL_MAX 16 /* free buffers kept for reuse; more go back to the system */

/* Memory for buffers in flight (GLTRACE_BUFFER_MB, cap_flusher_set_mem_cap). */
static size_t mem_cap = (size_t)512 << 20;

_Atomic uint64_t cap_frame;
_Atomic uint64_t cap_unswapped_frames;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cv = PTHREAD_COND_INITIALIZER;
static cap_buffer *live;       /* every buffer a thread holds or retired */
static cap_buffer *pool;       /* free BUF_SIZE buffers (via next_live) */
static size_t pool_n;
static size_t mem_in_use;      /* every buffer's, the pool's included */
static gt_writer *writer;
static cap_worker worker = CAP_WORKER_INIT;
static _Atomic int broken;
static int serving; /* GLTRACE_LISTEN: writers come and go with hosts */

void cap_flusher_set_mem_cap(size_t bytes)
{
    mem_cap = bytes;
}

static void free_buffer(cap_buffer *b)
{
    mem_in_use -= b->cap;
    free(b->data);
    free(b);
}

cap_buffer *cap_flusher_take_buffer(size_t min_cap)
{
    size_t cap = min_cap > BUF_SIZE ? min_cap : BUF_SIZE;
    if (cap > UINT32_MAX) {
        cap_fail("a record of %zu bytes is too large for a trace buffer", min_cap);
        return NULL;
    }
    pthread_mutex_lock(&mu);
    cap_buffer *b = NULL;
    /* A pooled buffer when one fits; else a new one within the cap, waiting
     * for the flusher to give memory back (backpressure). Free buffers
     * count against the cap too, so a larger request frees them first: a
     * pool left full by a burst would otherwise keep it waiting for ever
     * while the flusher has nothing to do. */
    for (;;) {
        if (cap == BUF_SIZE && pool) {
            b = pool;
            pool = b->next_live;
            pool_n--;
            break;
        }
        if (mem_in_use + cap <= mem_cap || mem_in_use == 0 || atomic_load(&broken) || !atomic_load(&cap_tracing)) {
            b = calloc(1, sizeof *b);
            if (b && !(b->data = malloc(cap))) {
                free(b);
                b = NULL;
            }
            if (b) {
                b->cap = cap;
                mem_in_use += cap;
            }
            break;
        }
        if (pool) {
            cap_buffer *f = pool;
            pool = f->next_live;
            pool_n--;
            free_buffer(f);
            continue;
        }
        pthread_cond_wait(&pool_cv, &mu);
    }
    pthread_mutex_unlock(&mu);
    if (!b) {
        cap_fail("out of memory for a %zu-byte trace buffer", cap);
        return NULL;
    }
    atomic_store(&b->commit, 0);
    b->flushed = 0;
    b->flushed_seq = 0;
    b->frame_mark = 0;
    atomic_store(&b->retired, 0);
    atomic_store(&b->snaps, 0);
    b->snaps_seen = 0;
    b->next_retired = NULL;
    return b;
}

void cap_flusher_register(cap_buffer *b)
{
    pthread_mutex_lock(&mu);
    b->frame_mark = atomic_load(&cap_frame); /* frame mark until the first flush */
    b->next_live = live;
    live = b;
    pthread_mutex_unlock(&mu);
}

void cap_flusher_retire(cap_buffer *b)
{
    atomic_store_explicit(&b->retired, 1, memory_order_release);
    cap_flusher_kick();
}

void cap_flusher_kick(void)
{
    cap_worker_kick(&worker);
}

static uint32_t rec_len(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Writes `count` records at [from, to) of b, seqs first..last, as one
 * chunk. When the disk is full, a smaller chunk may still fit: the records
 * are then split in halves, the first written before the second, so the
 * trace keeps every record there was room for and stays a prefix of the
 * calls, whatever the flusher's timing made one chunk hold. Only a failed
 * write costs the split. Returns 0, or -1 when some record did not fit. */
static int put_records(const uint8_t *d, uint64_t tid, size_t from, size_t to, uint64_t first, uint64_t last,
                       uint32_t count, uint64_t frame_mark)
{
    gt_chunk_info info = {
        .thread_id = tid, .first_seq = first, .last_seq = last,
        .first_frame = frame_mark, .record_count = count,
    };
    if (gt_writer_chunk(writer, &info, d + from, to - from) == 0)
        return 0;
    if (count < 2 || !gt_writer_no_space(writer))
        return -1;
    /* A record without a seq follows the one before it (gt_wire_enc.h). */
    uint32_t half = count / 2;
    size_t mid = from;
    uint64_t seq = first;
    for (uint32_t i = 0; i < half; i++) {
        uint32_t len = rec_len(d + mid);
        if (i > 0 && gt_wire_find_varint(d + mid + 4, len, GT_FIELD_SEQ, &seq) != 1)
            seq++;
        mid += 4 + (size_t)len;
    }
    uint64_t next = seq + 1;
    gt_wire_find_varint(d + mid + 4, rec_len(d + mid), GT_FIELD_SEQ, &next);
    if (put_records(d, tid, from, mid, first, seq, half, frame_mark) != 0)
        return -1;
    return put_records(d, tid, mid, to, next, last, count - half, frame_mark);
}

/* Writes [flushed, commit) of b as one chunk. Flusher thread only. */
static void flush_buffer(cap_buffer *b, uint64_t frame_now)
{
    uint64_t commit = atomic_load_explicit(&b->commit, memory_order_acquire);
    size_t end = CAP_COMMIT_OFF(commit);
    if (end <= b->flushed)
        return;
    const uint8_t *d = b->data;
    size_t off = b->flushed;
    uint32_t count = 0;
    while (off < end) {
        off += 4 + (size_t)rec_len(d + off);
        count++;
    }
    /* The first record has its seq or follows the last one flushed (a
     * buffer's very first record always has it); the last record's seq
     * comes with the commit word, whose low 32 bits we widen. */
    uint64_t first_seq = b->flushed_seq + 1;
    gt_wire_find_varint(d + b->flushed + 4, rec_len(d + b->flushed), GT_FIELD_SEQ, &first_seq);
    uint64_t last_seq = (first_seq & ~(uint64_t)0xffffffff) | (commit >> 32);
    if (last_seq < first_seq)
        last_seq += (uint64_t)1 << 32;
    const uint8_t *recs = d + b->flushed;
    size_t nrecs = end - b->flushed;
    if (writer && !atomic_load(&broken) && atomic_load_explicit(&b->snaps, memory_order_relaxed) != b->snaps_seen)
        b->snaps_seen += cap_snapshot_code(b->tid, recs, nrecs, &recs, &nrecs);
    if (!writer) {
        /* Listening, no host (cap_server.c): what was in flight is dropped. */
    } else if (!atomic_load(&broken) &&
               put_records(recs, b->tid, 0, nrecs, first_seq, last_seq, count, b->frame_mark) != 0) {
        atomic_store(&broken, 1);
        if (serving)
            cap_log("%s; the host is gone", gt_writer_error(writer)); /* the server ends the session */
        else
            cap_fail("%s; tracing stopped, the application goes on", gt_writer_error(writer));
    }
    b->flushed = end;
    b->flushed_seq = last_seq;
    b->frame_mark = frame_now; /* frame mark for the next chunk of this buffer */
}

static _Atomic uint64_t passes; /* flush_all passes done (cap_flusher_sync) */

/* The live list, oldest buffer first (flusher thread only). */
static cap_buffer **order;
static size_t order_cap;

static void recycle(cap_buffer *b)
{
    if (b->cap == BUF_SIZE && pool_n < POOL_MAX && !cap_worker_stopping(&worker)) {
        b->next_live = pool;
        pool = b;
        pool_n++;
    } else {
        free_buffer(b);
    }
    pthread_cond_broadcast(&pool_cv);
}

/* One pass: flush every buffer, recycle the retired ones.
 *
 * Oldest first. A thread retires its buffer before it registers the next
 * one (pushed at the head of the list), so a retired buffer holds records
 * older than its thread's newer buffers: flushed first, a chunk that fails
 * to reach the disk (a full disk) leaves no later chunk of its thread
 * behind it, and the trace stays a prefix of the calls. A buffer is
 * recycled only when it was already retired before its last flush. */
static void flush_all(void)
{
    uint64_t frame_now = atomic_load(&cap_frame);
    pthread_mutex_lock(&mu);
    size_t n = 0;
    for (cap_buffer *b = live; b; b = b->next_live) {
        if (n == order_cap) {
            size_t cap = order_cap ? order_cap * 2 : 64;
            cap_buffer **v = realloc(order, cap * sizeof *v);
            if (!v) {
                n = 0; /* none this pass rather than newer before older */
                break;
            }
            order = v, order_cap = cap;
        }
        order[n++] = b;
    }
    pthread_mutex_unlock(&mu);
    /* Buffers are unlinked only here, by this thread, so using them outside
     * the lock is safe; new ones are pushed at the head. */
    for (size_t i = n; i-- > 0;) {
        cap_buffer *b = order[i];
        int retired = atomic_load_explicit(&b->retired, memory_order_acquire);
        flush_buffer(b, frame_now);
        if (!retired)
            continue;
        pthread_mutex_lock(&mu);
        cap_buffer **pp = &live;
        while (*pp && *pp != b)
            pp = &(*pp)->next_live;
        if (*pp)
            *pp = b->next_live;
        recycle(b);
        pthread_mutex_unlock(&mu);
    }
    atomic_fetch_add(&passes, 1);
}

int cap_flusher_sync(int timeout_ms)
{
    uint64_t want = atomic_load(&passes) + 2; /* the pass under way may have begun before the call */
    struct timespec nap = {0, 5000000};
    for (int waited = 0; atomic_load(&passes) < want; waited += 5) {
        if (waited >= timeout_ms)
            return -1;
        cap_flusher_kick();
        nanosleep(&nap, NULL);
    }
    return 0;
}

/* ------------------------------------------------------------ serving a host */

/* Serving (GLTRACE_LISTEN): the thread runs from start to exit and the
 * server hands it a writer per session. Requests go through `wmu`; the
 * thread answers them between passes, and no more once it has ended. */
static pthread_mutex_t wmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wcv = PTHREAD_COND_INITIALIZER;
static gt_writer *attach_req;
static int detach_req;
static int ended;

/* The trace's end: its seek index written, or, after a failed write, the
 * file left as it is (a prefix of the calls). */
static void close_writer(void)
{
    char err[GT_ERRLEN];
    if (writer && !atomic_load(&broken) && gt_writer_close(writer, err, sizeof err) != 0)
        cap_log("%s", err);
    else if (writer && atomic_load(&broken))
        gt_writer_abandon(writer);
    writer = NULL;
}

static void serve_requests(void)
{
    pthread_mutex_lock(&wmu);
    if (attach_req) {
        /* Whatever is in the buffers belongs to no session: dropped. */
        gt_writer *w = attach_req;
        attach_req = NULL;
        pthread_mutex_unlock(&wmu);
        gt_writer *old = writer;
        writer = NULL;
        flush_all();
        cap_snapshot_code_restart(); /* the new trace's reader has seen no snapshot yet */
        writer = w;
        atomic_store(&broken, 0);
        if (old)
            gt_writer_abandon(old);
        pthread_mutex_lock(&wmu);
    }
    if (detach_req) {
        pthread_mutex_unlock(&wmu);
        flush_all();
        close_writer();
        pthread_mutex_lock(&wmu);
        detach_req = 0;
    }
    pthread_cond_broadcast(&wcv);
    pthread_mutex_unlock(&wmu);
}

static void serve_pass(void)
{
    flush_all();
    serve_requests();
}

int cap_flusher_serving_broken(void)
{
    return atomic_load(&broken);
}

void cap_flusher_attach(gt_writer *w)
{
    pthread_mutex_lock(&wmu);
    attach_req = w;
    pthread_mutex_unlock(&wmu);
    cap_flusher_kick();
    pthread_mutex_lock(&wmu);
    while (attach_req && !ended)
        pthread_cond_wait(&wcv, &wmu);
    pthread_mutex_unlock(&wmu);
}

void cap_flusher_detach(int abandon)
{
    if (abandon)
        atomic_store(&broken, 1); /* nothing more to a host that is gone */
    pthread_mutex_lock(&wmu);
    detach_req = 1;
    pthread_mutex_unlock(&wmu);
    cap_flusher_kick();
    pthread_mutex_lock(&wmu);
    while (detach_req && !ended)
        pthread_cond_wait(&wcv, &wmu);
    pthread_mutex_unlock(&wmu);
}

/* After the last pass: the seek index ends the file (or the stream). */
static void finish(void)
{
    close_writer();
    pthread_mutex_lock(&wmu);
    ended = 1;
    pthread_cond_broadcast(&wcv); /* a server waiting on a request: no more passes */
    pthread_mutex_unlock(&wmu);
}

int cap_flusher_start_serving(void)
{
    serving = 1;
    if (cap_worker_start(&worker, serve_pass, finish) != 0) {
        cap_log("cannot start the writer thread: %s; the trace server is off", strerror(errno));
        return -1;
    }
    return 0;
}

/* One trace file, one process. Every process started from a traced one
 * (forked before its first GL call, fork and exec, posix_spawn, system)
 * reads the same GLTRACE_OUT, and opening it for the trace truncates it. So
 * the first process to start tracing owns the file while it runs: an
 * advisory lock on a descriptor of its own. Another process that finds the
 * file owned runs untraced instead of truncating it and writing into it. */
static int claim_fd = -1;

static int claim(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return 0; /* gt_writer_open says why it cannot write there */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        close(fd);
        cap_log("%s is being written by another traced process; this process (pid %d) is not traced", path,
               (int)getpid());
        return -1;
    }
    claim_fd = fd; /* kept until exit; a filesystem without locks: no claim, as before */
    return 0;
}

int cap_flusher_start(const char *path, int level)
{
    char err[GT_ERRLEN];
    if (claim(path) != 0)
        return -1;
    writer = gt_writer_open(path, level, err, sizeof err);
    if (!writer) {
        cap_log("%s; tracing is off, the application goes on", err);
        return -1;
    }
    if (cap_worker_start(&worker, flush_all, finish) != 0) {
        cap_log("cannot start the writer thread: %s; tracing is off", strerror(errno));
        gt_writer_abandon(writer);
        writer = NULL;
        return -1;
    }
    return 0;
}

/* Calls made from now on (atexit handlers that run after ours, other
 * threads still drawing, the app after a signal handler of ours) go
 * straight to the driver. The plain table first, then tracing off: a
 * traced wrapper of a void function entered with tracing off calls the
 * driver and then goes on to write a record through a NULL state
 * (api/emit_capture.py), so it must not be reached any more. */
static void quiesce(void)
{
    cap_dispatch_select(0);
    atomic_store(&cap_tracing, 0);
}

void cap_flusher_shutdown(int from_signal)
{
    cap_worker_stop(&worker, from_signal, quiesce);
}

/* After fork, the child has no flusher thread and shares the parent's file:
 * it must not touch either. Its copy of the claim goes (close is
 * async-signal-safe); the lock stays with the parent's descriptor. */
void cap_flusher_forget(void)
{
    if (claim_fd >= 0)
        close(claim_fd);
    claim_fd = -1;
    writer = NULL;
    live = NULL;
    cap_worker_forget(&worker);
}
