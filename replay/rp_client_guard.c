/* rp_client_guard.c: client arrays, and the draws that read them.
 *
 * glVertexAttribPointer (or GLES 1's glVertexPointer and kin) with no
 * buffer bound hands the driver an address in the recorded process, which
 * it reads only at the next draw. Capture writes, before each draw, a
 * glVertexAttribPointerData record per enabled client array with the
 * elements that draw reads; replay sets the array to a copy of those bytes
 * (rp_client_feed). A damaged or hand-made trace can leave the driver with
 * the app's address (the data record missing), with a copy that holds
 * fewer elements than the draw reads, or with a copy freed since. So at
 * each draw, every enabled client array the driver has is looked up among
 * the live copies by the very pointer the driver holds, and the elements
 * the draw reads (its first and count, its indices, base vertex, range,
 * instances, base instance and the array's divisor: api's draw roles,
 * cap_draw_roles.h)
 * must lie within that copy's; else the draw is refused and never reaches
 * the driver.
 *
 * Each copy is a new allocation whose pointer no other live copy has (nor
 * its own previous one): if the driver rejects the setter call, it keeps
 * a pointer no copy has any more, and the next draw is refused rather than
 * read with the new record's element size. The bytes an element takes come
 * from the record's size and type, or from the setter's `components`
 * (api/annotations.txt) where it has no size; which arrays a GLES 1 context
 * has comes from api/state.tsv's `pointer` rows. Nothing is asked of the
 * driver at a draw until a trace has set a client array. */
#include "rp_internal.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cap_draw_roles.h" /* generated: the draws' argument roles */
#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h" /* GLES 1 names the GLES 3 header lacks */

/* A copy of a client array's recorded elements lo..hi, element k at
 * ptr + k * stride (ptr: what the driver was given). */
typedef struct rp_copy {
    int32_t ctx;           /* the arrays are each context's own */
    int32_t setter, index; /* the array: -1 and its attribute, or a GLES 1 setter and its unit */
    uint8_t *buf;
    const uint8_t *ptr;
    int64_t lo, hi;
} rp_copy;

struct rp_clients {
    rp_copy *c;
    int n, cap;
    void (*get_pointer)(GLenum, void **);  /* GLES 1's, from api/state.tsv's functions */
    void (*client_unit)(GLenum);
};

typedef struct range {
    int64_t lo, hi; /* hi < lo: none */
} range;

static struct rp_clients *clients(rp *r)
{
    if (!r->clients && (r->clients = calloc(1, sizeof *r->clients)))
        for (size_t i = 0; i < gt_api_nstate_fns; i++) {
            if (!strcmp(gt_api_state_fns[i].use, "pointer"))
                r->clients->get_pointer = (void (*)(GLenum, void **))eglGetProcAddress(gt_api_state_fns[i].int_fn);
            if (!strcmp(gt_api_state_fns[i].use, "client-unit"))
                r->clients->client_unit = (void (*)(GLenum))eglGetProcAddress(gt_api_state_fns[i].int_fn);
        }
    return r->clients;
}

static int refuse(rp *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(rp *r, const char *fmt, ...)
{
    int n = snprintf(r->sum->error, sizeof r->sum->error, "%s: call %" PRIu64 " (%s): ", r->path, r->seq,
                     r->cur_name ? r->cur_name : "?");
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof r->sum->error)
        vsnprintf(r->sum->error + n, sizeof r->sum->error - (size_t)n, fmt, ap);
    va_end(ap);
    return 1;
}

/* After a `class arrays` call: from a client pointer on, draws are checked. */
void rp_client_noted(rp *r, const rp_msg *m)
{
    (void)m;
    GLint buffer = 0;
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &buffer);
    if (!buffer)
        clients(r);
}

void rp_client_free(rp *r)
{
    if (!r->clients)
        return;
    for (int i = 0; i < r->clients->n; i++)
        free(r->clients->c[i].buf);
    free(r->clients->c);
    free(r->clients);
    r->clients = NULL;
}

/* ---------------------------------------------------------------- data records */

/* Bytes of one element as the GL reads it; 0 for a type no array has. */
static long elem_bytes(GLenum type, long components)
{
    if (components < 1 || components > 4)
        return 0;
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return components;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2 * components;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED: return 4 * components;
    case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV: return 4;
    default: return 0;
    }
}

/* Whether a live copy (the array's own previous one too) has pointer p. */
static int ptr_taken(const struct rp_clients *k, const uint8_t *p)
{
    for (int i = 0; i < k->n; i++)
        if (k->c[i].ptr == p)
            return 1;
    return 0;
}

static rp_copy *copy_of(struct rp_clients *k, int32_t ctx, int32_t setter, int32_t index)
{
    for (int i = 0; i < k->n; i++)
        if (k->c[i].ctx == ctx && k->c[i].setter == setter && k->c[i].index == index)
            return &k->c[i];
    if (k->n == k->cap) {
        int cap = k->cap ? 2 * k->cap : 16;
        rp_copy *c = cap < (1 << 16) ? realloc(k->c, (size_t)cap * sizeof *c) : NULL;
        if (!c)
            return NULL;
        k->c = c, k->cap = cap;
    }
    rp_copy *c = &k->c[k->n++];
    memset(c, 0, sizeof *c);
    c->ctx = ctx, c->setter = setter, c->index = index;
    return c;
}

/* A new buffer holding `len` bytes whose element lo would be at its start,
 * with a pointer no live copy has; NULL when memory runs out. */
static uint8_t *new_buffer(struct rp_clients *k, const uint8_t *data, size_t len, uint64_t back,
                           const uint8_t **ptr)
{
    uint8_t *tried[4] = {NULL};
    uint8_t *b = NULL;
    for (int t = 0; t < 4; t++) {
        b = malloc(len ? len : 1);
        if (!b)
            break;
        *ptr = (const uint8_t *)((uintptr_t)b - (uintptr_t)back);
        if (!ptr_taken(k, *ptr))
            break;
        tried[t] = b; /* kept until another address is found */
        b = NULL;
    }
    for (int t = 0; t < 4; t++)
        free(tried[t]);
    if (b)
        memcpy(b, data, len);
    return b;
}

static void set_array(rp *r, const rp_array_setter *set, const rp_array *a, int32_t unit)
{
    GLint old = 0;
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &old);
    if (old)
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    /* An array of one texture unit: that unit chosen around the call. */
    void (*select_unit)(GLenum) = set->select_unit >= 0 ? (void (*)(GLenum))rp_fn(r, (size_t)set->select_unit) : NULL;
    GLint was = 0;
    if (select_unit) {
        glGetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &was);
        select_unit((GLenum)(GL_TEXTURE0 + unit));
    }
    set->set(r, a);
    if (select_unit)
        select_unit((GLenum)was);
    if (old)
        glBindBuffer(GL_ARRAY_BUFFER, (GLuint)old);
}

/* glVertexAttribPointerData: indx, size, type, normalized, stride, data,
 * minIndex, maxIndex, setter, unit. Sets the array to a copy of the
 * recorded bytes, placed so that element minIndex is where they start. */
void rp_client_feed(rp *r, const rp_msg *m)
{
    struct rp_clients *k = clients(r);
    const Gltrace__GLMessage__DataType *d = m->n_args > 5 ? m->args[5] : NULL;
    const rp_array_setter *set = rp_array_setter_of((int32_t)rp_arg_i(m, 8));
    if (!k || !d || !d->n_rawbytes || !set)
        return; /* the driver keeps the app's address: the draw is refused */
    GLint indx = (GLint)rp_arg_i(m, 0), size = (GLint)rp_arg_i(m, 1), stride = (GLint)rp_arg_i(m, 4);
    GLenum type = (GLenum)rp_arg_i(m, 2);
    int32_t unit = (int32_t)rp_arg_i(m, 9);
    int64_t lo = rp_arg_i(m, 6), hi = rp_arg_i(m, 7);
    if (set->attrib)
        indx = (GLint)rp_map_attrib(r, m, indx); /* as its glVertexAttribPointer was */
    long elem = elem_bytes(type, set->components ? set->components : size);
    long eff = stride ? stride : elem;
    size_t len = d->rawbytes[0].len;
    /* The bytes must hold elements lo..hi: else the driver would read
     * outside them. */
    if (!elem || lo < 0 || hi < lo || hi - lo > INT32_MAX || eff <= 0 ||
        (uint64_t)(hi - lo) * (uint64_t)eff + (uint64_t)elem > (uint64_t)len) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: record %" PRIu64 ": a client array's data of %zu bytes does not hold its elements "
                 "%lld..%lld of %ld bytes each (size %d, type 0x%x, stride %d): refused",
                 r->path, r->seq, len, (long long)lo, (long long)hi, elem, size, type, stride);
        return;
    }
    /* A driver may count an element's offset in 32 bits. */
    uint64_t end;
    if (__builtin_mul_overflow((uint64_t)hi, (uint64_t)eff, &end) || end + (uint64_t)elem > INT32_MAX) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: record %" PRIu64 ": a client array's element %lld lies past 2 GB of it: refused", r->path, r->seq,
                 (long long)hi);
        return;
    }
    rp_copy *c = copy_of(k, r->cur_ctx, set->attrib ? -1 : (int32_t)rp_arg_i(m, 8), set->attrib ? indx : unit);
    const uint8_t *ptr = NULL;
    uint8_t *b = c ? new_buffer(k, d->rawbytes[0].data, len, (uint64_t)lo * (uint64_t)eff, &ptr) : NULL;
    if (!b) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: record %" PRIu64 ": no memory for a client array's %zu bytes (%d arrays held)", r->path, r->seq,
                 len, k->n);
        return;
    }
    const rp_array a = {indx, size, type, (GLboolean)rp_arg_i(m, 3), stride, ptr};
    set_array(r, set, &a, unit);
    free(c->buf); /* a driver still holding it has a pointer no copy has: its draws are refused */
    c->buf = b, c->ptr = ptr, c->lo = lo, c->hi = hi;
}

/* ---------------------------------------------------------------- draws */

static void add(range *g, int64_t lo, int64_t hi)
{
    if (hi < lo)
        return;
    if (g->hi < g->lo)
        *g = (range){lo, hi};
    g->lo = lo < g->lo ? lo : g->lo;
    g->hi = hi > g->hi ? hi : g->hi;
}

static void scan(range *g, const uint8_t *ix, long count, long size, int64_t base, int restart)
{
    uint32_t skip = size == 1 ? 0xFFu : size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
    for (long i = 0; i < count; i++) {
        uint32_t v = size == 1 ? ix[i] : size == 2 ? (uint32_t)ix[2 * i] | (uint32_t)ix[2 * i + 1] << 8
                   : (uint32_t)ix[4 * i] | (uint32_t)ix[4 * i + 1] << 8 | (uint32_t)ix[4 * i + 2] << 16 |
                     (uint32_t)ix[4 * i + 3] << 24;
        if (!(restart && v == skip))
            add(g, (int64_t)v + base, (int64_t)v + base);
    }
}

static long index_size(GLenum type)
{
    return type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : type == GL_UNSIGNED_INT ? 4 : 0;
}

/* Element k of an int array argument (a multi-draw's), 0 past its data. */
static int64_t arg_at(const rp_msg *m, int i, int32_t k)
{
    size_t len = 0;
    const uint8_t *b = rp_arg_bytes(m, (unsigned)i, &len);
    if (!b || k < 0 || (size_t)k * 4 + 4 > len)
        return 0;
    int32_t v;
    memcpy(&v, b + (size_t)k * 4, 4);
    return v;
}

/* The elements one indexed draw reads, into g. 1: refused (cannot tell);
 * indices short in the record are left to the call's own check. */
static int element_range(rp *r, range *g, long count, GLenum type, const rp_msg *m, int i, int64_t base)
{
    long size = index_size(type);
    if (count <= 0 || !size)
        return 0; /* the GL draws nothing (or refuses the type) */
    int es3 = rp_es_major(r) >= 3;
    int restart = es3 && glIsEnabled(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    GLint ebo = 0;
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &ebo);
    if (!ebo) {
        size_t len = 0;
        const uint8_t *ix = rp_arg_bytes(m, (unsigned)i, &len);
        if (ix && (uint64_t)count * (uint64_t)size <= len)
            scan(g, ix, count, size, base, restart);
        return 0;
    }
    const void *p = NULL;
    int64_t off = (int64_t)(uintptr_t)rp_arg_addr(m, (unsigned)i);
    if (es3 && off >= 0)
        p = glMapBufferRange(GL_ELEMENT_ARRAY_BUFFER, (GLintptr)off, (GLsizeiptr)(count * size), GL_MAP_READ_BIT);
    if (!p) {
        glGetError(); /* the failed map's, not the app's */
        return refuse(r, "client arrays drawn with indices in an element buffer replay cannot read: which elements "
                         "the draw reads cannot be told: refused");
    }
    scan(g, p, count, size, base, restart);
    glUnmapBuffer(GL_ELEMENT_ARRAY_BUFFER);
    return 0;
}

/* The vertices the draw reads (divisor 0), into g; 1: refused. */
static int draw_range(rp *r, const cap_draw_roles *l, const rp_msg *m, range *g)
{
    int32_t draws = l->multi ? (int32_t)rp_arg_i(m, l->multi) : 1;
    if (l->multi && l->indices >= 0 && draws > 0)
        return refuse(r, "a multi-draw's index pointers are the app's memory, which the trace does not hold: refused");
    for (int32_t d = 0; d < draws; d++) {
        int64_t count = l->multi ? arg_at(m, l->count, d) : (int32_t)rp_arg_i(m, (unsigned)l->count);
        if (l->indices < 0) {
            int64_t first = l->multi ? arg_at(m, l->first, d) : (int32_t)rp_arg_i(m, (unsigned)l->first);
            if (count > 0)
                add(g, first, first + count - 1);
            continue;
        }
        int64_t base = l->basevertex < 0 ? 0 : (int32_t)rp_arg_i(m, (unsigned)l->basevertex);
        if (element_range(r, g, (long)count, (GLenum)rp_arg_i(m, (unsigned)l->type), m, l->indices, base))
            return 1;
        /* A range draw's start..end: the driver may read all of it. */
        if (l->start >= 0 && l->end >= 0 && count > 0)
            add(g, (int64_t)(uint32_t)rp_arg_i(m, (unsigned)l->start) + base,
                (int64_t)(uint32_t)rp_arg_i(m, (unsigned)l->end) + base);
    }
    return 0;
}

/* An enabled client array the driver has: its pointer and divisor, and
 * how a refusal names it. */
typedef struct rp_live {
    const void *p;
    GLint divisor;
    char what[64];
} rp_live;
#define RP_LIVE 64

/* Whether array a reads only elements a copy holds (g: the vertices the
 * draw reads; inst its instances from base instance `base`). */
static int array_refused(rp *r, const rp_live *a, const range *g, int64_t inst, int64_t base)
{
    const struct rp_clients *k = r->clients;
    const rp_copy *c = NULL;
    for (int i = 0; i < k->n && !c; i++)
        if (k->c[i].ptr == a->p && k->c[i].buf)
            c = &k->c[i];
    if (!c)
        return refuse(r, "%s reads the app's memory at %p and the trace has no data for it there: refused", a->what,
                      a->p);
    range need = {0, -1};
    if (a->divisor > 0 && inst > 0)
        need = (range){base, base + (inst - 1) / a->divisor};
    else if (a->divisor <= 0 && inst > 0)
        need = *g;
    if (need.hi >= need.lo && (need.lo < c->lo || need.hi > c->hi))
        return refuse(r, "%s has elements %lld..%lld in the trace, the draw reads %lld..%lld: refused", a->what,
                      (long long)c->lo, (long long)c->hi, (long long)need.lo, (long long)need.hi);
    return 0;
}

static int attribs(rp *r, rp_live *out)
{
    GLint max = 0;
    int n = 0, es3 = rp_es_major(r) >= 3;
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &max);
    for (GLint i = 0; i < max && n < RP_LIVE; i++) {
        GLint on = 0, buffer = 0, divisor = 0;
        glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &on);
        if (!on)
            continue;
        glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
        if (buffer)
            continue;
        void *p = NULL;
        glGetVertexAttribPointerv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
        if (es3)
            glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
        out[n] = (rp_live){p, divisor, ""};
        snprintf(out[n++].what, sizeof out->what, "vertex attribute %d", i);
    }
    return n;
}

/* GLES 1: the arrays of api/state.tsv's `pointer` rows, those of texture
 * coordinates once per client texture unit. */
static int gles1_arrays(rp *r, rp_live *out)
{
    struct rp_clients *k = r->clients;
    GLint units = 0, was = GL_TEXTURE0;
    int n = 0;
    if (!k->get_pointer)
        return 0;
    glGetIntegerv(GL_MAX_TEXTURE_UNITS, &units);
    glGetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &was);
    for (size_t i = 0; i < gt_api_npointers; i++) {
        const gt_api_pointer *row = &gt_api_pointers[i];
        for (GLint u = 0; u < (row->per_client_unit ? units : 1) && n < RP_LIVE; u++) {
            if (row->per_client_unit && k->client_unit)
                k->client_unit((GLenum)(GL_TEXTURE0 + u));
            GLint buffer = 0;
            glGetIntegerv(row->buffer, &buffer);
            if (!glIsEnabled(row->array) || buffer)
                continue;
            void *p = NULL;
            k->get_pointer(row->pname, &p);
            out[n] = (rp_live){p, 0, ""};
            if (row->per_client_unit)
                snprintf(out[n++].what, sizeof out->what, "the array of %s, texture unit %d", row->name, u);
            else
                snprintf(out[n++].what, sizeof out->what, "the array of %s", row->name);
        }
    }
    if (k->client_unit && units > 0)
        k->client_unit((GLenum)was);
    return n;
}

int rp_client_draw_refused(rp *r, const rp_entry *e, const rp_msg *m)
{
    const cap_draw_roles *l = cap_draw_roles_of((unsigned)(e - rp_entries));
    if (!l)
        return 0; /* a draw that reads no arrays */
    r->cur_name = e->name;
    range g = {0, -1};
    if (l->multi && l->indices >= 0 && rp_arg_addr(m, (unsigned)l->indices) && rp_arg_i(m, l->multi) > 0)
        return draw_range(r, l, m, &g); /* refused whatever the arrays */
    if (!r->clients || r->cur_ctx < 0)
        return 0;
    rp_live live[RP_LIVE];
    int n = r->ctx[r->cur_ctx].version >= 2 ? attribs(r, live) : gles1_arrays(r, live);
    if (!n)
        return 0;
    int64_t inst = l->inst >= 0 ? (int32_t)rp_arg_i(m, (unsigned)l->inst) : 1;
    int64_t base = l->baseinst >= 0 ? (int64_t)(uint32_t)rp_arg_i(m, (unsigned)l->baseinst) : 0;
    if (draw_range(r, l, m, &g))
        return 1;
    for (int i = 0; i < n; i++)
        if (array_refused(r, &live[i], &g, inst, base))
            return 1;
    return 0;
}
