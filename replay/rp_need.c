/* rp_need.c: a record's data against what its call reads. The driver is
 * handed only pointers into the trace, so a record whose data is shorter
 * than the call needs (a damaged or hand-made trace) would make the driver
 * read past it. Such a record is refused: the replay stops with a message
 * naming the call, and the call never reaches the driver.
 *
 * The bounds below are lower bounds from the replayed arguments and state
 * (api/annotations.txt names them for each size function): alignment
 * padding and skips are left out, so a faithful trace is never refused.
 * A record whose argument count is not its function's is refused too:
 * every argument after a missing one would be read as another. */
#include "rp_internal.h"

#include <GLES3/gl32.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "gt_get_counts.h"
#include "gt_texel.h"

static GLint get_int(GLenum pname)
{
    GLint v = 0;
    glGetIntegerv(pname, &v);
    return v;
}

/* The GLES version the driver gave the context, not the one asked for:
 * Mesa gives all of GLES 3.2 to a context asked for as version 2, and its
 * pixel-store and buffer state apply whatever the app asked. */
static int es3(rp *r)
{
    return r->cur_ctx >= 0 && rp_es_major(r) >= 3;
}

/* The 2D calls' depth in api/annotations.txt: no GLsizei has this value. */
#define RP_UNPACK_2D ((intptr_t)1 << 32)

long rp_need_unpack(rp *r, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d)
{
    int two_d = d == RP_UNPACK_2D;
    if (two_d)
        d = 1;
    if (w <= 0 || h <= 0 || d <= 0 || (es3(r) && get_int(GL_PIXEL_UNPACK_BUFFER_BINDING)))
        return 0;
    long bpp = gt_texel_bytes((unsigned)format, (unsigned)type);
    if (bpp < 0)
        return 0;
    long row = w, rows = h;
    if (es3(r)) {
        long rl = get_int(GL_UNPACK_ROW_LENGTH), ih = two_d ? 0 : get_int(GL_UNPACK_IMAGE_HEIGHT);
        row = rl > 0 ? rl : w;
        rows = ih > 0 ? ih : h;
    }
    /* bpp * (row * (rows * (d - 1) + h - 1) + w), where a trace's values
     * may make it overflow: then more than any record holds. */
    long n;
    if (__builtin_mul_overflow(rows, (long)d - 1, &n) || __builtin_add_overflow(n, (long)h - 1, &n) ||
        __builtin_mul_overflow(row, n, &n) || __builtin_add_overflow(n, (long)w, &n) ||
        __builtin_mul_overflow(bpp, n, &n))
        return LONG_MAX;
    return n;
}

long rp_need_pack(rp *r, intptr_t format, intptr_t type, intptr_t w, intptr_t h)
{
    if (es3(r) && get_int(GL_PIXEL_PACK_BUFFER_BINDING))
        return 0;
    return rp_pack_bytes(r, format, type, w, h, NULL);
}

long rp_pack_bytes(rp *r, intptr_t format, intptr_t type, intptr_t w, intptr_t h, int *gaps)
{
    if (gaps)
        *gaps = 1;
    if (w <= 0 || h <= 0)
        return 0;
    long bpp = gt_texel_bytes((unsigned)format, (unsigned)type);
    int guess = bpp <= 0;
    if (guess)
        bpp = 16; /* a format and type replay does not know: the widest pixel */
    long align = get_int(GL_PACK_ALIGNMENT), rl = 0, skip_rows = 0, skip_px = 0;
    if (es3(r))
        rl = get_int(GL_PACK_ROW_LENGTH), skip_rows = get_int(GL_PACK_SKIP_ROWS), skip_px = get_int(GL_PACK_SKIP_PIXELS);
    if (align <= 0 || rl < 0 || skip_rows < 0 || skip_px < 0)
        return LONG_MAX;
    /* align(row * bpp) * (skip_rows + h - 1) + bpp * (skip_px + w) */
    long row, n, last;
    if (__builtin_mul_overflow(rl > 0 ? rl : (long)w, bpp, &row) || __builtin_add_overflow(row, align - 1, &row) ||
        __builtin_mul_overflow(row / align * align, skip_rows + (long)h - 1, &n) ||
        __builtin_mul_overflow(skip_px + (long)w, bpp, &last) || __builtin_add_overflow(n, last, &n))
        return LONG_MAX;
    if (gaps) /* rows padded, longer than the read, or skipped: bytes between them stay as they were */
        *gaps = guess || skip_rows || skip_px || (rl && rl != w) || (h > 1 && row / align * align != (long)w * bpp);
    return n;
}

long rp_need_texel(rp *r, intptr_t format, intptr_t type)
{
    (void)r;
    long n = gt_texel_bytes((unsigned)format, (unsigned)type);
    return n < 0 ? 0 : n;
}

long rp_need_indices(rp *r, intptr_t count, intptr_t type)
{
    (void)r;
    if (count <= 0 || get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING)) /* GLES 1.1 has it too */
        return 0;
    long size = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : type == GL_UNSIGNED_INT ? 4 : 0;
    long n;
    return __builtin_mul_overflow((long)count, size, &n) ? LONG_MAX : n;
}

/* The values a pname carries (api/get_counts.tsv); those counted by
 * another query are queries' outputs, never read: one. */
long rp_need_pname(rp *r, intptr_t pname)
{
    (void)r;
#define RP_FIXED(p, n) case p: return n;
#define RP_COUNTED(p, count, es) case p: return 1;
    switch ((GLenum)pname) {
        GT_GET_VALUES(RP_FIXED, RP_COUNTED)
    default:
        return 1;
    }
#undef RP_FIXED
#undef RP_COUNTED
}

long rp_need_mul(long n, long size)
{
    long v;
    return n <= 0 ? 0 : __builtin_mul_overflow(n, size, &v) ? LONG_MAX : v;
}

long rp_need_unpack_bytes(rp *r, intptr_t bytes)
{
    if (bytes <= 0 || (es3(r) && get_int(GL_PIXEL_UNPACK_BUFFER_BINDING)))
        return 0;
    return (long)bytes;
}

const char *rp_fn_name(const rp_msg *m)
{
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    return f ? f->name : "?";
}

int rp_short(rp *r, const rp_msg *m, unsigned i, const char *param, long need)
{
    if (need <= 0 || i >= m->n_args)
        return 0;
    const Gltrace__GLMessage__DataType *d = m->args[i];
    size_t have;
    if (d->n_rawbytes)
        have = d->rawbytes[0].len;
    else if (d->n_charvalue)
        have = d->charvalue[0].len + 1; /* the NUL replay adds */
    else
        have = 0; /* an address of the app's with no data behind it */
    if (have >= (size_t)need)
        return 0;
    if (!have && !rp_arg_present(m, i))
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: call %" PRIu64 " (%s): %s is NULL in the trace, the call reads at least %ld bytes through it: "
                 "refused", r->path, r->seq, rp_fn_name(m), param, need);
    else
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: call %" PRIu64 " (%s): %s has %zu bytes in the trace, the call reads at least %ld: refused",
                 r->path, r->seq, rp_fn_name(m), param, have, need);
    return 1;
}

int rp_no_data(rp *r, const rp_msg *m, unsigned i, const char *param)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d || d->n_rawbytes || d->n_charvalue || !rp_arg_addr(m, i))
        return 0;
    snprintf(r->sum->error, sizeof r->sum->error,
             "%s: call %" PRIu64 " (%s): %s is the app's address %p with no data in the trace: refused", r->path,
             r->seq, rp_fn_name(m), param, rp_arg_addr(m, i));
    return 1;
}

int rp_attribs_short(rp *r, const rp_msg *m, unsigned i, const char *param)
{
    if (rp_no_data(r, m, i, param))
        return 1;
    size_t len = 0;
    const uint8_t *b = rp_arg_bytes(m, i, &len);
    if (!b)
        return 0; /* NULL: no attributes */
    for (size_t k = 0; k + 4 <= len; k += 8) { /* name, value pairs, then GL_NONE */
        int32_t v;
        memcpy(&v, b + k, 4);
        if (v == GL_NONE)
            return 0;
    }
    snprintf(r->sum->error, sizeof r->sum->error,
             "%s: call %" PRIu64 " (%s): %s (%zu bytes in the trace) has no terminating GL_NONE: refused", r->path,
             r->seq, rp_fn_name(m), param, len);
    return 1;
}

int rp_strings_short(rp *r, const rp_msg *m, unsigned i, const char *param, long count, int length_arg)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    size_t have = d ? d->n_charvalue : 0;
    if (count <= 0)
        return 0;
    if (have < (size_t)count) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: call %" PRIu64 " (%s): %s has %zu strings in the trace, the call reads %ld: refused", r->path,
                 r->seq, rp_fn_name(m), param, have, count);
        return 1;
    }
    /* Each string's length, where the call is given them (a negative one:
     * up to its NUL, which replay adds), within the recorded string. */
    size_t nlen = 0;
    const uint8_t *len = length_arg >= 0 ? rp_arg_bytes(m, (unsigned)length_arg, &nlen) : NULL;
    for (long k = 0; len && k < count && (size_t)(k + 1) * 4 <= nlen; k++) {
        int32_t n;
        memcpy(&n, len + 4 * k, 4);
        if (n >= 0 && (size_t)n > d->charvalue[k].len) {
            snprintf(r->sum->error, sizeof r->sum->error,
                     "%s: call %" PRIu64 " (%s): %s %ld has %zu bytes in the trace, its length says %d: refused",
                     r->path, r->seq, rp_fn_name(m), param, k, d->charvalue[k].len, (int)n);
            return 1;
        }
    }
    return 0;
}

/* The covered function of each number (alias 0), from the API description,
 * looked up once: NULL where the number names none. */
static const gt_api_fn **fn_of;
static size_t fn_of_len;
static pthread_once_t fn_of_once = PTHREAD_ONCE_INIT;

static void fn_of_build(void)
{
    int32_t max = 0;
    for (size_t i = 0; i < gt_api_nnames; i++)
        if (gt_api_names[i].number > max)
            max = gt_api_names[i].number;
    if (!(fn_of = calloc((size_t)max + 1, sizeof *fn_of)))
        return;
    fn_of_len = (size_t)max + 1;
    for (size_t i = 0; i < gt_api_nnames; i++)
        if (!gt_api_names[i].alias && gt_api_names[i].number >= 0)
            fn_of[gt_api_names[i].number] = gt_api_find_name(gt_api_names[i].name);
}

/* A pointer is recorded as an address (INT64, capture's) or a 32-bit value
 * (INT, Android's), with the data behind it. Another type (an argument
 * shifted there), or a nonzero 32-bit value replay cannot use, would be
 * replayed as NULL. */
static int not_a_pointer(const gt_api_fn *f, const rp_msg *m, unsigned *which)
{
    for (unsigned i = 0; i < f->nparams; i++) {
        const Gltrace__GLMessage__DataType *d = m->args[i];
        if (f->params[i].kind != GT_K_POINTER || d->type == GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__INT64)
            continue;
        if (d->type != GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__INT ||
            (!d->n_rawbytes && !d->n_charvalue && d->n_intvalue && d->intvalue[0])) {
            *which = i;
            return 1;
        }
    }
    return 0;
}

int rp_args_refused(rp *r, const rp_msg *m)
{
    const gt_api_fn *f;
    if (!m->has_alias || !m->alias) {
        pthread_once(&fn_of_once, fn_of_build);
        f = m->function >= 0 && (size_t)m->function < fn_of_len ? fn_of[m->function] : NULL;
    } else {
        f = gt_api_find_number(m->function, m->alias);
    }
    if (!f)
        return 0; /* not a covered function: replay skips it anyway */
    unsigned i;
    if (m->n_args != f->nparams)
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: call %" PRIu64 " (%s): %zu arguments in the trace, the function takes %u: refused", r->path,
                 r->seq, f->name, m->n_args, f->nparams);
    else if (not_a_pointer(f, m, &i))
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: call %" PRIu64 " (%s): argument %u (%s) is not recorded as a pointer (type %d): refused",
                 r->path, r->seq, f->name, i + 1, f->params[i].name, (int)m->args[i]->type);
    else
        return 0;
    return 1;
}
