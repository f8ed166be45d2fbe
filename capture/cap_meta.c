/* cap_meta.c: the synthetic records: trace metadata (first record, then the
 * EGL and GL strings once known) and markers for functions we do not cover.
 * Off the hot path, so plain malloc'd scratch buffers are fine here. */
#define _GNU_SOURCE
#include "cap_internal.h"
#include "gt_enums.h"
#include "cap_real_fns.h"
#include "gt_trace.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef GT_TOOL_VERSION
#define GT_TOOL_VERSION "unknown"
#endif

typedef struct mbuf {
    uint8_t *d;
    size_t n, cap;
} mbuf;

static int mb_reserve(mbuf *m, size_t extra)
{
    if (m->n + extra <= m->cap)
        return 1;
    size_t cap = (m->cap ? m->cap * 2 : 256) + extra;
    uint8_t *d = realloc(m->d, cap);
    if (!d)
        return 0;
    m->d = d;
    m->cap = cap;
    return 1;
}

static void mb_varint_field(mbuf *m, unsigned field, uint64_t v)
{
    if (!mb_reserve(m, 16))
        return;
    uint8_t *p = m->d + m->n;
    p = gt_put_varint(p, (uint64_t)field << 3);
    p = gt_put_varint(p, v);
    m->n = (size_t)(p - m->d);
}

static void mb_bytes_field(mbuf *m, unsigned field, const void *s, size_t len)
{
    if (!mb_reserve(m, len + 16))
        return;
    uint8_t *p = m->d + m->n;
    p = gt_put_varint(p, (uint64_t)field << 3 | 2);
    p = gt_put_varint(p, len);
    memcpy(p, s, len);
    m->n = (size_t)(p + len - m->d);
}

static void mb_str_field(mbuf *m, unsigned field, const char *s)
{
    if (s)
        mb_bytes_field(m, field, s, strlen(s));
}

uint8_t *cap_syn_begin(cap_tls *t, int32_t number, size_t room)
{
    uint64_t now = cap_clock_now();
    return cap_rec_begin(t, 64 + room, number, now, now);
}

void cap_syn_end(cap_tls *t, uint8_t *p)
{
    p = gt_rec_put_trailer(p, t->seq, !t->seq_known || t->seq != t->last_seq + 1, 0, 0, 0, 0);
    cap_rec_commit(t, p);
}

void cap_syn_end_timed(cap_tls *t, uint8_t *p, uint64_t t0)
{
    uint64_t now = cap_clock_now();
    p = gt_rec_put_trailer(p, t->seq, !t->seq_known || t->seq != t->last_seq + 1, 0,
                           (int64_t)(now > t0 ? now - t0 : 0), 1, 0);
    cap_rec_commit(t, p);
}

void cap_rec_synthetic(cap_tls *t, int32_t number, const uint8_t *tail, size_t n)
{
    uint64_t now = cap_clock_now();
    uint8_t *p = cap_rec_begin(t, 64 + n, number, now, now);
    if (!p)
        return;
    p = gt_rec_put_trailer(p, t->seq, !t->seq_known || t->seq != t->last_seq + 1, 0, 0, 0, 0);
    memcpy(p, tail, n);
    cap_rec_commit(t, p + n);
}

static void emit_metadata(cap_tls *t, mbuf *meta)
{
    mbuf rec = {0};
    mb_bytes_field(&rec, 13, meta->d, meta->n);
    if (rec.d)
        cap_rec_synthetic(t, GT_FN_METADATA, rec.d, rec.n);
    free(rec.d);
    free(meta->d);
}

static void add_option(mbuf *m, const char *key)
{
    const char *v = getenv(key);
    if (!v)
        return;
    mbuf opt = {0};
    mb_str_field(&opt, 1, key);
    mb_str_field(&opt, 2, v);
    if (opt.d)
        mb_bytes_field(m, 13, opt.d, opt.n);
    free(opt.d);
}

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void cap_meta_emit_start(cap_tls *t)
{
    mbuf m = {0};
    mb_varint_field(&m, 1, GT_FORMAT_VERSION);
    mb_str_field(&m, 2, GT_TOOL_VERSION);
    char args[8192];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, args, sizeof args - 1) : -1;
    if (fd >= 0)
        close(fd);
    for (ssize_t i = 0; i < n;) {
        size_t len = strnlen(args + i, (size_t)(n - i));
        mb_bytes_field(&m, 3, args + i, len);
        i += (ssize_t)len + 1;
    }
    char comm[64] = "";
    fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    n = fd >= 0 ? read(fd, comm, sizeof comm - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n > 0) {
        comm[n] = 0;
        comm[strcspn(comm, "\n")] = 0;
        mb_str_field(&m, 4, comm);
    }
    mb_varint_field(&m, 5, (uint64_t)getpid());
    static const char *const keys[] = {"GLTRACE", "GLTRACE_OUT", "GLTRACE_ZSTD_LEVEL", "GLTRACE_THREADTIME"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        add_option(&m, keys[i]);
    mb_varint_field(&m, 14, (uint64_t)clock_ns(CLOCK_REALTIME));
    mb_varint_field(&m, 15, (uint64_t)clock_ns(CLOCK_MONOTONIC));
    emit_metadata(t, &m);
}

void cap_meta_emit_gl(cap_tls *t)
{
    const GLubyte *(*get)(GLenum) = cap_real.f.glGetString;
    mbuf m = {0};
    /* Only queries valid for the context, so that the app's GL error state
     * is untouched: ES 1 ("OpenGL ES-CM 1.x") has no shading language. */
    const char *version = (const char *)get(GL_VERSION);
    mb_str_field(&m, 6, (const char *)get(GL_VENDOR));
    mb_str_field(&m, 7, (const char *)get(GL_RENDERER));
    mb_str_field(&m, 8, version);
    if (version && !strstr(version, "ES-CM") && !strstr(version, "ES-CL"))
        mb_str_field(&m, 9, (const char *)get(GL_SHADING_LANGUAGE_VERSION));
    mb_str_field(&m, 16, (const char *)get(GL_EXTENSIONS));
    emit_metadata(t, &m);
}

void cap_meta_emit_egl(cap_tls *t, void *dpy)
{
    const char *(*q)(EGLDisplay, EGLint) = cap_real.f.eglQueryString;
    mbuf m = {0};
    mb_str_field(&m, 10, q(dpy, EGL_VENDOR));
    mb_str_field(&m, 11, q(dpy, EGL_VERSION));
    mb_str_field(&m, 12, q(dpy, EGL_CLIENT_APIS));
    mb_str_field(&m, 17, q(dpy, EGL_EXTENSIONS));
    emit_metadata(t, &m);
}

void cap_meta_emit_marker(cap_tls *t, const char *name)
{
    mbuf rec = {0};
    mb_str_field(&rec, 14, name);
    if (rec.d)
        cap_rec_synthetic(t, GT_FN_UNCOVERED, rec.d, rec.n);
    free(rec.d);
}
