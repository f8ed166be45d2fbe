/* cap_tls.c: per-thread capture state and its buffers.
 *
 * A thread gets its state on its first traced call (one malloc and one
 * gettid per thread, never per call) and a buffer from the flusher's pool.
 * When a record does not fit, the thread retires its buffer to the flusher
 * and takes another; at thread exit the buffer is retired too. */
#include "cap_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread cap_tls *cap_self __attribute__((tls_model("initial-exec")));
_Atomic int cap_tracing;
_Atomic uint64_t cap_seq;
int cap_opt_threadtime;

static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void thread_exit(void *arg)
{
    cap_tls *t = arg;
    cap_switch_thread_exit(t);
    if (t->npending && t->buf)
        cap_defer_flush(t);
    if (t->buf)
        cap_flusher_retire(t->buf);
    t->buf = NULL;
    cap_self = NULL;
    /* The cap_tls itself stays allocated: a destructor of another library
     * may still make GL calls on this thread after us, and cap_self is
     * cleared so such calls start over with a new state. */
}

static void make_key(void)
{
    if (pthread_key_create(&exit_key, thread_exit) != 0)
        cap_fail("cannot create a thread key");
}

cap_tls *cap_tls_create(void)
{
    pthread_once(&key_once, make_key);
    if (!atomic_load(&cap_tracing))
        return NULL;
    cap_tls *t = calloc(1, sizeof *t);
    if (!t) {
        cap_fail("out of memory for a thread's state");
        return NULL;
    }
    t->tid = (uint64_t)syscall(SYS_gettid);
    t->ctx = -1;
    cap_defer_thread_new(t);
    cap_self = t;
    if (!cap_tls_refill(t, 0)) {
        cap_self = NULL;
        free(t);
        return NULL;
    }
    pthread_setspecific(exit_key, t);
    return t;
}

int cap_tls_refill(cap_tls *t, size_t need)
{
    if (t->buf)
        cap_flusher_retire(t->buf);
    t->buf = NULL;
    t->pos = t->end = NULL;
    if (!atomic_load(&cap_tracing))
        return 0;
    cap_buffer *b = cap_flusher_take_buffer(need + 4096);
    if (!b)
        return 0;
    b->tid = t->tid;
    t->buf = b;
    t->seq_known = 0; /* a buffer's first record always carries its seq */
    t->pos = b->data;
    t->end = b->data + b->cap;
    cap_flusher_register(b);
    return 1;
}
