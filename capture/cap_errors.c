/* cap_errors.c: the error mode (GLTRACE=error).
 *
 * Every GL call goes through a generated wrapper (api/emit_modes.py) that
 * calls the driver, then the driver's glGetError: one extra call into the
 * driver, no lock, no malloc, no syscall while there is no error. An error
 * costs what it costs (it is what the user is looking for): one line on
 * stderr with the call, its arguments by name, the error's name and the
 * app's backtrace, symbolised with dladdr (exported names: link the app
 * with -rdynamic to see its static functions too).
 *
 * The error we took is the app's: GL keeps an error until glGetError reads
 * it, and an app that checks glGetError itself must still see it. So the
 * first error taken on a thread stays pending there, with the context it
 * happened in, and the app's next glGetError on that thread, in that
 * context, returns it (cap_error_get_error, the error mode's glGetError).
 * Later errors while one is pending are logged and counted but not kept:
 * Mesa does the same (it records an error only while none is recorded).
 * Not covered: an error read from another thread that makes the same
 * context current later; it is still logged. */
#define _GNU_SOURCE
#include "cap_modes.h"
#include "cap_real_fns.h"
#include "gt_api.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* GL_INVALID_ENUM .. GL_CONTEXT_LOST, then any other value. */
#define NKINDS 9
static const char *const kind_names[NKINDS] = {
    "GL_INVALID_ENUM", "GL_INVALID_VALUE", "GL_INVALID_OPERATION", "GL_STACK_OVERFLOW",
    "GL_STACK_UNDERFLOW", "GL_OUT_OF_MEMORY", "GL_INVALID_FRAMEBUFFER_OPERATION", "GL_CONTEXT_LOST",
    "unknown error"};

/* Lines per function and error kind before they are only counted: an app
 * that makes the same error every frame must not drown its own output. */
#define LOG_MAX 10

/* Counts per function and kind, allocated at the first error. */
static _Atomic(_Atomic uint32_t *) counts;

static __thread unsigned pending;
static __thread void *pending_ctx;

static int kind_of(unsigned err)
{
    return err >= 0x500 && err <= 0x507 ? (int)(err - 0x500) : NKINDS - 1;
}

static _Atomic uint32_t *count_table(void)
{
    _Atomic uint32_t *c = atomic_load(&counts);
    if (c)
        return c;
    _Atomic uint32_t *n = calloc((size_t)CAP_NFNS * NKINDS, sizeof *n);
    if (!n)
        return NULL;
    _Atomic uint32_t *expect = NULL;
    if (!atomic_compare_exchange_strong(&counts, &expect, n)) {
        free(n);
        return expect;
    }
    return n;
}

typedef struct line {
    char s[4096];
    size_t n;
} line;

static void put(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(line *l, const char *fmt, ...)
{
    if (l->n >= sizeof l->s - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->s + l->n, sizeof l->s - l->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        l->n += (size_t)k < sizeof l->s - l->n ? (size_t)k : sizeof l->s - 1 - l->n;
}

static void put_value(line *l, const gt_api_param *p, uint64_t v)
{
    switch (p->kind) {
    case GT_K_ENUM: {
        const char *n = gt_api_enum_name((uint32_t)v, p->group, 0);
        if (n)
            put(l, "%s", n);
        else
            put(l, "0x%" PRIx32, (uint32_t)v);
        break;
    }
    case GT_K_BOOL:
        put(l, "%s", (uint32_t)v ? "GL_TRUE" : "GL_FALSE");
        break;
    case GT_K_BITS:
        put(l, "0x%" PRIx32, (uint32_t)v);
        break;
    case GT_K_UINT:
        put(l, "%" PRIu32, (uint32_t)v);
        break;
    case GT_K_INT: case GT_K_BYTE: case GT_K_CHAR:
        put(l, "%" PRId32, (int32_t)v);
        break;
    case GT_K_INT64:
        put(l, "%" PRId64, (int64_t)v);
        break;
    case GT_K_UINT64:
        put(l, "%" PRIu64, v);
        break;
    case GT_K_FLOAT: {
        uint32_t u = (uint32_t)v;
        float f;
        memcpy(&f, &u, sizeof f);
        put(l, "%g", f);
        break;
    }
    case GT_K_DOUBLE: {
        double d;
        memcpy(&d, &v, sizeof d);
        put(l, "%g", d);
        break;
    }
    default: /* handles and pointers */
        put(l, "0x%" PRIx64, v);
        break;
    }
}

/* The app's frames: ours (this library) are left out, so the first frame
 * shown is the app's call into GL. */
static void put_backtrace(line *l)
{
    void *frames[24];
    int n = backtrace(frames, 24);
    Dl_info self;
    void *self_base = dladdr((void *)put_backtrace, &self) ? self.dli_fbase : NULL;
    int shown = 0;
    for (int i = 0; i < n && shown < 12; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info)) {
            put(l, "%s%p", shown ? " <- " : "; backtrace: ", frames[i]);
            shown++;
            continue;
        }
        if (info.dli_fbase == self_base)
            continue;
        const char *obj = info.dli_fname ? info.dli_fname : "?";
        const char *slash = strrchr(obj, '/');
        put(l, "%s", shown ? " <- " : "; backtrace: ");
        if (info.dli_sname)
            put(l, "%s+0x%tx (%s)", info.dli_sname, (char *)frames[i] - (char *)info.dli_saddr, slash ? slash + 1 : obj);
        else /* a static function: its offset in the object, for addr2line */
            put(l, "%s+0x%tx", slash ? slash + 1 : obj, (char *)frames[i] - (char *)info.dli_fbase);
        shown++;
    }
}

void cap_error_report(unsigned idx, unsigned err, const uint64_t *args)
{
    if (!pending) {
        pending = err;
        pending_ctx = cap_real.f.eglGetCurrentContext ? cap_real.f.eglGetCurrentContext() : NULL;
    }
    int kind = kind_of(err);
    _Atomic uint32_t *c = count_table();
    uint32_t seen = c ? atomic_fetch_add(&c[idx * NKINDS + kind], 1) : 0;
    if (seen > LOG_MAX)
        return;
    line l = {.n = 0};
    const char *name = cap_fn_names[idx];
    if (seen == LOG_MAX) {
        put(&l, "gltrace: further %s in %s are counted, not logged\n", kind_names[kind], name);
    } else {
        if (kind == NKINDS - 1)
            put(&l, "gltrace: error 0x%x in %s(", err, name);
        else
            put(&l, "gltrace: error %s in %s(", kind_names[kind], name);
        const gt_api_fn *fn = gt_api_find_name(name);
        for (unsigned i = 0; fn && i < fn->nparams; i++) {
            put(&l, "%s%s=", i ? ", " : "", fn->params[i].name);
            put_value(&l, &fn->params[i], args[i]);
        }
        put(&l, ")");
        put_backtrace(&l);
        put(&l, "\n");
    }
    /* One write: lines of two threads never interleave. */
    ssize_t w = write(STDERR_FILENO, l.s, l.n);
    (void)w;
}

GLenum cap_error_get_error(void)
{
    if (pending) {
        void *ctx = cap_real.f.eglGetCurrentContext ? cap_real.f.eglGetCurrentContext() : NULL;
        if (ctx == pending_ctx) {
            unsigned e = pending;
            pending = 0;
            return e;
        }
    }
    return cap_real.f.glGetError();
}

void cap_error_start(void)
{
    /* backtrace() loads libgcc_s on its first use: do it now, not at the
     * first error, which may come from a thread holding locks. */
    void *f[1];
    backtrace(f, 1);
}

void cap_error_summary(void)
{
    static _Atomic int once;
    if (atomic_exchange(&once, 1))
        return;
    _Atomic uint32_t *c = atomic_load(&counts);
    if (!c) {
        cap_log("error mode: no GL errors");
        return;
    }
    uint64_t total = 0;
    unsigned fns = 0;
    for (unsigned i = 0; i < CAP_NFNS; i++) {
        uint64_t sum = 0;
        for (int k = 0; k < NKINDS; k++)
            sum += atomic_load(&c[i * NKINDS + k]);
        total += sum;
        fns += sum != 0;
    }
    cap_log("error mode: %" PRIu64 " GL error%s in %u function%s", total, total == 1 ? "" : "s", fns,
           fns == 1 ? "" : "s");
    for (unsigned i = 0; i < CAP_NFNS; i++) {
        line l = {.n = 0};
        for (int k = 0; k < NKINDS; k++) {
            uint32_t n = atomic_load(&c[i * NKINDS + k]);
            if (n)
                put(&l, "%s%s %" PRIu32, l.n ? ", " : "", kind_names[k], n);
        }
        if (l.n)
            cap_log("  %s: %s", cap_fn_names[i], l.s);
    }
}
