/* cap_client_arrays.c: client-side vertex arrays and indices, captured at
 * the draws that read them.
 *
 * glVertexAttribPointer (and GLES 1's glVertexPointer and kin) with no
 * buffer bound keeps an address the driver reads only at the next draw. So
 * before each draw of a context that has ever set such a pointer, every
 * enabled client array gets a glVertexAttribPointerData record (Android's
 * synthetic 3001, extended; see proto/FORMAT.md) with exactly the bytes the
 * draw reads: the elements from the smallest to the largest index used,
 * from `first` and `count`, the index values (client memory or the bound
 * element buffer, base vertex added, the restart index left out), and for
 * instanced arrays the instance count over the divisor. */
#include "cap_internal.h"
#include "gt_enums.h"
#include "cap_draw_roles.h"
#include "gt_encoders.h"
#include "cap_real_get.h"
#include "gt_trace.h"

#include <string.h>

/* ---------------------------------------------------------------- draws */

/* Where a draw command keeps its arguments (generated from the registry's
 * parameter names and the `draw` lines of api/annotations.txt). */
typedef cap_draw_roles draw_layout;

/* ---------------------------------------------------------------- indices */

static long index_size(GLenum type)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: return 1;
    case GL_UNSIGNED_SHORT: return 2;
    case GL_UNSIGNED_INT: return 4;
    default: return 0;
    }
}

/* Bytes of client-memory indices a draw reads; the pointer is an offset
 * (address only) while an element buffer is bound. */
long cap_size_indices(cap_tls *t, intptr_t count, intptr_t type)
{
    if (t->cs && cap_get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING))
        return -1;
    long n = index_size((GLenum)type);
    return count > 0 && n ? (long)count * n : 0;
}

typedef struct range {
    int64_t lo, hi; /* hi < lo: empty */
} range;

static void scan(range *r, const void *ix, long count, long size, int64_t base, int restart)
{
    uint32_t skip = size == 1 ? 0xFFu : size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
    for (long i = 0; i < count; i++) {
        uint32_t v = size == 1 ? ((const uint8_t *)ix)[i]
                   : size == 2 ? ((const uint16_t *)ix)[i] : ((const uint32_t *)ix)[i];
        if (restart && v == skip)
            continue;
        int64_t e = (int64_t)v + base;
        if (e < r->lo)
            r->lo = e;
        if (e > r->hi)
            r->hi = e;
    }
}

/* Index range of one element draw: client indices are read in place; from
 * an element buffer (GLES 3) through a read-only map of just those bytes. */
static int element_range(cap_tls *t, range *r, long count, GLenum type, const void *indices, int64_t base)
{
    long size = index_size(type);
    if (count <= 0 || !size)
        return 0;
    int restart = t->es_major >= 3 && cap_real.f.glIsEnabled(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    if (!cap_get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING)) {
        scan(r, indices, count, size, base, restart);
        return 0;
    }
    if (t->es_major < 3)
        return -1; /* GLES 2 cannot read a buffer back */
    const void *p = cap_real.f.glMapBufferRange(GL_ELEMENT_ARRAY_BUFFER, (GLintptr)(uintptr_t)indices, count * size,
                                               GL_MAP_READ_BIT);
    if (!p)
        return -1;
    scan(r, p, count, size, base, restart);
    cap_real.f.glUnmapBuffer(GL_ELEMENT_ARRAY_BUFFER);
    return 0;
}

/* ---------------------------------------------------------------- arrays */

typedef struct array {
    int32_t index;     /* attribute index, or the GLES 1 array's enable cap */
    int32_t size, type, normalized, stride, divisor;
    int32_t setter;    /* number of the function that set it */
    int32_t unit;      /* texture unit of a GLES 1 texcoord array */
    const uint8_t *ptr;
} array;

static long type_size(GLenum type)
{
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED: return 4;
    default: return 0;
    }
}

static long elem_bytes(const array *a)
{
    if (a->type == GL_INT_2_10_10_10_REV || a->type == GL_UNSIGNED_INT_2_10_10_10_REV)
        return 4;
    return a->size * type_size((GLenum)a->type);
}

static void emit_array(cap_tls *t, const array *a, int64_t lo, int64_t hi)
{
    long eb = elem_bytes(a);
    if (eb <= 0 || hi < lo || lo < 0)
        return;
    long stride = a->stride ? a->stride : eb;
    gt_span s = {0};
    cap_span_raw(&s, a->ptr + lo * stride, (long)((hi - lo) * stride + eb), 1);
    uint8_t *p = cap_syn_begin(t, GT_FN_VERTEX_ATTRIB_POINTER_DATA, 128 + gt_span_room(&s));
    if (!p)
        return;
    p = gt_dt_i32(p, 0x2a, 4, a->index);
    p = gt_dt_i32(p, 0x2a, 4, a->size);
    p = gt_dt_i32(p, 0x2a, 7, a->type);
    p = gt_dt_bool(p, 0x2a, a->normalized);
    p = gt_dt_i32(p, 0x2a, 4, a->stride);
    p = gt_dt_ptr(p, 0x2a, (uint64_t)(uintptr_t)a->ptr, &s);
    p = gt_dt_i32(p, 0x2a, 4, (int32_t)lo);
    p = gt_dt_i32(p, 0x2a, 4, (int32_t)hi);
    p = gt_dt_i32(p, 0x2a, 4, a->setter);
    p = gt_dt_i32(p, 0x2a, 4, a->unit);
    cap_syn_end(t, p);
}

#define MAX_ARRAYS 40

/* The enabled client arrays of a GLES 2/3 context. */
static int generic_arrays(cap_tls *t, array *out)
{
    if (t->es_major >= 3 && cap_get_int(GL_VERTEX_ARRAY_BINDING)) /* no client arrays in a VAO */
        return 0;
    int n = 0, max = cap_get_int(GL_MAX_VERTEX_ATTRIBS);
    for (int i = 0; i < max && n < MAX_ARRAYS; i++) {
        GLint v = 0;
        cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &v);
        if (!v)
            continue;
        cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &v);
        if (v)
            continue;
        array *a = &out[n++];
        memset(a, 0, sizeof *a);
        a->index = i;
        cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &a->size);
        cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &a->type);
        cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &a->normalized);
        cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &a->stride);
        GLint integer = 0;
        if (t->es_major >= 3) {
            cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &integer);
            cap_real.f.glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &a->divisor);
        }
        a->setter = integer ? GT_NUM_glVertexAttribIPointer : GT_NUM_glVertexAttribPointer;
        void *ptr = NULL;
        cap_real.f.glGetVertexAttribPointerv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
        a->ptr = ptr;
    }
    return n;
}

/* GLES 1's fixed-function arrays: cap, size (0: fixed), type, stride,
 * pointer and buffer-binding queries, and the function that sets them. */
static const struct {
    GLenum cap, size, type, stride, ptr, binding;
    int fixed_size, setter;
} gles1[] = {
    {GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_SIZE, GL_VERTEX_ARRAY_TYPE, GL_VERTEX_ARRAY_STRIDE,
     GL_VERTEX_ARRAY_POINTER, GL_VERTEX_ARRAY_BUFFER_BINDING, 0, GT_NUM_glVertexPointer},
    {GL_NORMAL_ARRAY, 0, GL_NORMAL_ARRAY_TYPE, GL_NORMAL_ARRAY_STRIDE,
     GL_NORMAL_ARRAY_POINTER, GL_NORMAL_ARRAY_BUFFER_BINDING, 3, GT_NUM_glNormalPointer},
    {GL_COLOR_ARRAY, GL_COLOR_ARRAY_SIZE, GL_COLOR_ARRAY_TYPE, GL_COLOR_ARRAY_STRIDE,
     GL_COLOR_ARRAY_POINTER, GL_COLOR_ARRAY_BUFFER_BINDING, 0, GT_NUM_glColorPointer},
    {GL_POINT_SIZE_ARRAY_OES, 0, GL_POINT_SIZE_ARRAY_TYPE_OES, GL_POINT_SIZE_ARRAY_STRIDE_OES,
     GL_POINT_SIZE_ARRAY_POINTER_OES, GL_POINT_SIZE_ARRAY_BUFFER_BINDING_OES, 1, GT_NUM_glPointSizePointerOES},
};

static int gles1_one(GLenum cap, GLenum size, GLenum type, GLenum stride, GLenum ptr, GLenum binding,
                     int fixed, int setter, int unit, array *a)
{
    if (!cap_real.f.glIsEnabled(cap) || cap_get_int(binding))
        return 0;
    memset(a, 0, sizeof *a);
    a->index = (int32_t)cap;
    a->size = fixed ? fixed : cap_get_int(size);
    a->type = cap_get_int(type);
    a->stride = cap_get_int(stride);
    a->normalized = cap == GL_NORMAL_ARRAY || cap == GL_COLOR_ARRAY; /* normals and colours of integer types are */
    a->setter = setter;
    a->unit = unit;
    void *p = NULL;
    cap_real.f.glGetPointerv(ptr, &p);
    a->ptr = p;
    return 1;
}

static int gles1_arrays(array *out)
{
    int n = 0;
    for (size_t i = 0; i < sizeof gles1 / sizeof gles1[0]; i++)
        n += gles1_one(gles1[i].cap, gles1[i].size, gles1[i].type, gles1[i].stride, gles1[i].ptr,
                       gles1[i].binding, gles1[i].fixed_size, gles1[i].setter, 0, &out[n]);
    /* Texture coordinates: one array per unit, chosen by the client active texture. */
    GLint active = cap_get_int(GL_CLIENT_ACTIVE_TEXTURE), units = cap_get_int(GL_MAX_TEXTURE_UNITS);
    for (GLint u = 0; u < units && u < 32 && n < MAX_ARRAYS; u++) {
        cap_real.f.glClientActiveTexture((GLenum)(GL_TEXTURE0 + u));
        n += gles1_one(GL_TEXTURE_COORD_ARRAY, GL_TEXTURE_COORD_ARRAY_SIZE, GL_TEXTURE_COORD_ARRAY_TYPE,
                       GL_TEXTURE_COORD_ARRAY_STRIDE, GL_TEXTURE_COORD_ARRAY_POINTER,
                       GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, 0, GT_NUM_glTexCoordPointer, u, &out[n]);
    }
    if (units > 0)
        cap_real.f.glClientActiveTexture((GLenum)active);
    return n;
}

static void client_arrays(cap_tls *t, const draw_layout *l, const uint64_t *args)
{
    array arrays[MAX_ARRAYS];
    int n = t->es_major >= 2 ? generic_arrays(t, arrays) : gles1_arrays(arrays);
    if (!n)
        return;
    range r = {INT64_MAX, -1};
    int64_t inst = l->inst >= 0 ? (int64_t)(int32_t)args[l->inst] : 1;
    int32_t draws = l->multi ? (int32_t)args[l->multi] : 1;
    for (int32_t d = 0; d < draws; d++) {
        if (l->indices < 0) {
            int64_t first = l->multi ? ((const GLint *)(uintptr_t)args[l->first])[d] : (int32_t)args[l->first];
            int64_t count = l->multi ? ((const GLsizei *)(uintptr_t)args[l->count])[d] : (int32_t)args[l->count];
            if (count > 0) {
                r.lo = first < r.lo ? first : r.lo;
                r.hi = first + count - 1 > r.hi ? first + count - 1 : r.hi;
            }
            continue;
        }
        long count = l->multi ? ((const GLsizei *)(uintptr_t)args[l->count])[d] : (int32_t)args[l->count];
        const void *ix = l->multi ? ((const void *const *)(uintptr_t)args[l->indices])[d]
                                  : (const void *)(uintptr_t)args[l->indices];
        int64_t base = l->basevertex < 0 ? 0
                     : l->multi ? ((const GLint *)(uintptr_t)args[l->basevertex])[d] : (int32_t)args[l->basevertex];
        /* A range draw's start..end: the driver may read all of it (and
         * replay checks that the trace holds it). */
        if (l->start >= 0 && l->end >= 0 && count > 0 && (uint32_t)args[l->end] >= (uint32_t)args[l->start]) {
            int64_t lo = (int64_t)(uint32_t)args[l->start] + base, hi = (int64_t)(uint32_t)args[l->end] + base;
            r.lo = lo < r.lo ? lo : r.lo;
            r.hi = hi > r.hi ? hi : r.hi;
        }
        if (element_range(t, &r, count, (GLenum)args[l->type], ix, base) != 0) {
            static _Atomic int told;
            if (!atomic_exchange(&told, 1))
                cap_log("client vertex arrays drawn with indices in a GLES 2 element buffer: "
                       "their data is not recorded (replay will lack it)");
            return;
        }
    }
    /* Instance i reads element i / divisor + the base instance. */
    int64_t binst = l->baseinst >= 0 ? (int64_t)(uint32_t)args[l->baseinst] : 0;
    for (int i = 0; i < n; i++) {
        if (arrays[i].divisor > 0)
            emit_array(t, &arrays[i], 0, inst > 0 ? binst + (inst - 1) / arrays[i].divisor : -1);
        else if (inst > 0)
            emit_array(t, &arrays[i], r.lo, r.hi);
    }
}

/* Before every draw: client arrays, persistent maps. */
void cap_hook_draw_pre(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)ret;
    if (CAP_UNLIKELY(t->size_check))
        cap_resize_check(t, idx);
    if (!t->cs)
        return;
    if (t->cs->npersistent)
        cap_mapped_flush_persistent(t);
    if (!t->cs->client_ptrs)
        return;
    const draw_layout *l = cap_draw_roles_of(idx);
    if (l)
        client_arrays(t, l, args);
}

/* After every draw: render targets noted (--textures), draw snapshots. */
void cap_hook_draw_end(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)args, (void)ret;
    if (!t->cs)
        return;
    t->cs->drew = 1; /* a snapshot is due at glFinish if it never swaps (cap_unswapped.c) */
    if (cap_opt_textures)
        cap_snapshot_note_render_targets(t);
    if (cap_opt_fb == GT_FB_DRAW && !cap_before_start())
        cap_snapshot_draw_buffers(t);
}

/* After glVertexAttribPointer and kin: was it a client pointer? */
void cap_hook_client_pointer(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)args, (void)ret;
    if (t->cs && !t->cs->client_ptrs && !cap_get_int(GL_ARRAY_BUFFER_BINDING))
        t->cs->client_ptrs = 1;
}
