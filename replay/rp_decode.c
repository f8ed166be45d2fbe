/* rp_decode.c: the records of a call, decoded without malloc.
 *
 * protobuf-c's unpack allocates a message, one DataType per argument and
 * an array per value, and frees them after: on a trace of cheap calls that
 * was most of replay's time. Here the same Gltrace__GLMessage shape (so the
 * rest of replay reads it unchanged) is filled into storage reused from
 * record to record, bytes pointing into the record itself. Only the fields
 * a call record or a snapshot has are handled (1-12; a snapshot's pixels,
 * hundreds of kilobytes a frame, are not copied); a record with anything
 * else (metadata, a marker, an unknown field, a missing required
 * field, more values than the storage holds) is left to protobuf-c, which
 * also gives the standard message for a malformed one. test_decode checks
 * both agree on every record of real traces and on damaged ones. */
#include "rp_internal.h"
#include "gt_trace.h"

#include <stdlib.h>
#include <string.h>

/* Bytes behind a pointer are read as arrays of EGLint, GLfloat, ...: they
 * get an 8-byte aligned copy (a record's bytes may start anywhere). Blocks
 * are kept from record to record. NULL when out of room: protobuf-c then. */
static uint8_t *aligned(rp_decoder *d, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    for (; d->cur_block < RP_DEC_BLOCKS; d->cur_block++) {
        struct rp_dec_block *b = &d->blocks[d->cur_block];
        if (!b->data) {
            size_t cap = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
            if (!(b->data = malloc(cap)))
                return NULL;
            b->cap = cap;
        }
        if (b->cap - b->used >= n) {
            uint8_t *p = b->data + b->used;
            b->used += n;
            return p;
        }
    }
    return NULL;
}

void rp_decoder_free(rp_decoder *d)
{
    for (int i = 0; i < RP_DEC_BLOCKS; i++)
        free(d->blocks[i].data);
    memset(d->blocks, 0, sizeof d->blocks);
}

/* Varints of more than one byte (and the end of the input): the end of the
 * varint (NULL: none) and its value. Returned, not stored through
 * pointers, so the callers' positions stay in registers. */
typedef struct rp_varint {
    const uint8_t *p;
    uint64_t v;
} rp_varint;

static __attribute__((noinline)) rp_varint varint_long(const uint8_t *p, const uint8_t *end)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
        uint8_t b = *p++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return (rp_varint){p, r};
    }
    return (rp_varint){NULL, 0};
}

/* Varints up to 8 bytes, read as one 64-bit word from the bytes up to lim
 * (the end of the record, which may be past end, the end of the field's own
 * bytes: a DataType's last value ends it): the end found by the first byte
 * without the top bit, the 7-bit groups joined pairwise. With 4 to 7 bytes
 * left (an address ending its record), two overlapping 4-byte loads, the
 * bytes past lim zero. A varint found running past end is malformed. */
static inline __attribute__((always_inline)) int varint_word(const uint8_t **p, const uint8_t *end, const uint8_t *lim,
                                                            uint64_t *v)
{
    const uint8_t *q = *p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    int have = 1;
    if (lim - q >= 8) {
        memcpy(&w, q, 8);
    } else if (lim - q >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, q, 4);
        memcpy(&hi, lim - 4, 4);
        w = lo | (uint64_t)hi << (8 * (unsigned)(lim - q - 4));
    } else {
        have = 0;
    }
    uint64_t stop = have ? ~w & 0x8080808080808080ull : 0;
    if (stop) {
        unsigned last = (unsigned)__builtin_ctzll(stop); /* the top bit of the last byte */
        if ((size_t)(last >> 3) >= (size_t)(end - q))
            return -1;
        uint64_t x = w & (~0ull >> (63 - last)) & 0x7f7f7f7f7f7f7f7full;
        x = ((x & 0x7f007f007f007f00ull) >> 1) | (x & 0x007f007f007f007full);
        x = ((x & 0x3fff00003fff0000ull) >> 2) | (x & 0x00003fff00003fffull);
        x = ((x & 0x0fffffff00000000ull) >> 4) | (x & 0x000000000fffffffull);
        *v = x;
        *p = q + (last >> 3) + 1;
        return 0;
    }
#else
    (void)lim;
#endif
    rp_varint x = varint_long(q, end);
    if (!x.p)
        return -1;
    *p = x.p;
    *v = x.v;
    return 0;
}

/* Most varints of a call record are one byte (keys, types, lengths, small
 * values): those without a loop, then two-byte ones (function numbers,
 * durations), then the longer ones. */
#define RP_INLINE static inline __attribute__((always_inline)) /* -O2 too: called once per field */
RP_INLINE int varint_lim(const uint8_t **p, const uint8_t *end, const uint8_t *lim, uint64_t *v)
{
    const uint8_t *q = *p;
    if (__builtin_expect(q < end && *q < 0x80, 1)) {
        *v = *q;
        *p = q + 1;
        return 0;
    }
    if (end - q >= 2 && q[1] < 0x80) {
        *v = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
        *p = q + 2;
        return 0;
    }
    /* Three bytes: GL's enums from 0x4000 up (GL_ARRAY_BUFFER,
     * GL_TEXTURE0...), which end a DataType, too close to its end for
     * varint_word's 8-byte load. */
    if (end - q >= 3 && q[2] < 0x80) {
        *v = (uint64_t)(q[0] & 0x7f) | (uint64_t)(q[1] & 0x7f) << 7 | (uint64_t)q[2] << 14;
        *p = q + 3;
        return 0;
    }
    return varint_word(p, end, lim, v);
}

RP_INLINE int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    return varint_lim(p, end, end, v);
}

/* The head's start time: nanoseconds, a long varint. */
RP_INLINE int varint_ns(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    return varint_word(p, end, end, v);
}

/* One DataType (field 5 or 6) in [p, end). 0, or -1: leave it to protobuf-c.
 * Keys are taken as single bytes (all of this message's fields are below
 * 16); a key written longer is declined. Only what a record uses is reset:
 * the base was set once (rp_decode), and the value pointers point at where
 * the values go, also when there are none (readers go by the counts). Each
 * value array is filled by one DataType at a time, so its values are
 * contiguous; charValue and rawBytes share `bins`, so they must not
 * interleave. */
static int data_type(rp_decoder *d, Gltrace__GLMessage__DataType *t, const uint8_t *p, const uint8_t *end,
                     const uint8_t *lim)
{
    unsigned have = 0, last_bin = 0;
    t->n_intvalue = t->n_floatvalue = t->n_charvalue = t->n_rawbytes = t->n_boolvalue = t->n_int64value = 0;
    t->intvalue = d->ints + d->nints;
    t->floatvalue = d->floats + d->nfloats;
    t->boolvalue = d->bools + d->nbools;
    t->int64value = d->i64 + d->ni64;
    t->charvalue = t->rawbytes = d->bins + d->nbins;
    if (end - p >= 4 && p[0] == 0x08 && p[1] < 0x80 && p[2] == 0x10 && p[3] < 0x80) {
        /* type and isArray, as capture writes every DataType */
        t->type = (Gltrace__GLMessage__DataType__Type)p[1];
        t->isarray = p[3] != 0;
        have = 3;
        p += 4;
    }
    while (p < end) {
        uint64_t v;
        switch (*p++) {
        case 0x08: /* type */
            if (varint_lim(&p, end, lim, &v) != 0)
                return -1;
            t->type = (Gltrace__GLMessage__DataType__Type)(int32_t)v, have |= 1;
            break;
        case 0x10: /* isArray */
            if (varint_lim(&p, end, lim, &v) != 0)
                return -1;
            t->isarray = v != 0, have |= 2;
            break;
        case 0x18: /* intValue */
            if (varint_lim(&p, end, lim, &v) != 0 || d->nints == RP_DEC_VALUES)
                return -1;
            d->ints[d->nints++] = (int32_t)v, t->n_intvalue++;
            break;
        case 0x25: /* floatValue */
            if (end - p < 4 || d->nfloats == RP_DEC_VALUES)
                return -1;
            memcpy(&d->floats[d->nfloats++], p, 4);
            t->n_floatvalue++;
            p += 4;
            break;
        case 0x38: /* boolValue */
            if (varint_lim(&p, end, lim, &v) != 0 || d->nbools == RP_DEC_VALUES)
                return -1;
            d->bools[d->nbools++] = v != 0, t->n_boolvalue++;
            break;
        case 0x40: /* int64Value */
            if (varint_lim(&p, end, lim, &v) != 0 || d->ni64 == RP_DEC_VALUES)
                return -1;
            d->i64[d->ni64++] = (int64_t)v, t->n_int64value++;
            break;
        case 0x2a:   /* charValue */
        case 0x32: { /* rawBytes */
            unsigned key = p[-1];
            ProtobufCBinaryData **arr = key == 0x2a ? &t->charvalue : &t->rawbytes;
            size_t *cnt = key == 0x2a ? &t->n_charvalue : &t->n_rawbytes;
            if (varint_lim(&p, end, lim, &v) != 0 || v > (uint64_t)(end - p) || d->nbins == RP_DEC_VALUES ||
                (*cnt && last_bin != key))
                return -1; /* or the two interleave: one's values would not be contiguous */
            uint8_t *data = (uint8_t *)(uintptr_t)p; /* strings: read as they are */
            if (key == 0x32 && ((uintptr_t)p & 7)) {
                if (!(data = aligned(d, (size_t)v)))
                    return -1;
                memcpy(data, p, (size_t)v);
            }
            if (!*cnt)
                *arr = d->bins + d->nbins;
            d->bins[d->nbins].len = (size_t)v;
            d->bins[d->nbins++].data = data;
            (*cnt)++;
            last_bin = key;
            p += v;
            break;
        }
        default:
            return -1; /* packed values, another wire type, an unknown field, a long key */
        }
    }
    return have == 3 ? 0 : -1;
}

/* Most DataTypes hold one scalar, as capture writes them (gt_dt_i32,
 * gt_dt_float...): type, isArray, one value field, nothing else. Those
 * here, in straight lines: 1 done, 0 data_type must decode it. */
static inline int scalar(rp_decoder *d, Gltrace__GLMessage__DataType *t, const uint8_t *p, size_t n,
                         const uint8_t *lim)
{
    if (n < 6 || p[0] != 0x08 || p[1] >= 0x80 || p[2] != 0x10 || p[3] >= 0x80)
        return 0;
    const uint8_t *q = p + 5, *end = p + n;
    uint64_t v;
    t->n_intvalue = t->n_floatvalue = t->n_charvalue = t->n_rawbytes = t->n_boolvalue = t->n_int64value = 0;
    switch (p[4]) {
    case 0x18:
        if (varint_lim(&q, end, lim, &v) != 0 || q != end || d->nints == RP_DEC_VALUES)
            return 0;
        t->intvalue = d->ints + d->nints;
        d->ints[d->nints++] = (int32_t)v;
        t->n_intvalue = 1;
        break;
    case 0x25:
        if (n != 9 || d->nfloats == RP_DEC_VALUES)
            return 0;
        t->floatvalue = d->floats + d->nfloats;
        memcpy(&d->floats[d->nfloats++], q, 4);
        t->n_floatvalue = 1;
        break;
    case 0x38:
        if (varint_lim(&q, end, lim, &v) != 0 || q != end || d->nbools == RP_DEC_VALUES)
            return 0;
        t->boolvalue = d->bools + d->nbools;
        d->bools[d->nbools++] = v != 0;
        t->n_boolvalue = 1;
        break;
    case 0x40:
        if (varint_lim(&q, end, lim, &v) != 0 || q != end || d->ni64 == RP_DEC_VALUES)
            return 0;
        t->int64value = d->i64 + d->ni64;
        d->i64[d->ni64++] = (int64_t)v;
        t->n_int64value = 1;
        break;
    default:
        return 0;
    }
    t->type = (Gltrace__GLMessage__DataType__Type)p[1];
    t->isarray = p[3] != 0;
    return 1;
}

/* A snapshot's FrameBuffer (field 7) in [p, end): 0, or -1 to leave the
 * record to protobuf-c. The pixels stay in the record: every reader of
 * them copies with memcpy, so their alignment does not matter. */
static int frame_buffer(rp_decoder *d, const uint8_t *p, const uint8_t *end)
{
    static const Gltrace__GLMessage__FrameBuffer init = GLTRACE__GLMESSAGE__FRAME_BUFFER__INIT;
    Gltrace__GLMessage__FrameBuffer *f = &d->fb;
    *f = init;
    unsigned required = 0;
    while (p < end) {
        unsigned key = *p++;
        uint64_t v = 0;
        if (key == 0x61) { /* hash (12), fixed64 */
            if (end - p < 8)
                return -1;
            for (int i = 7; i >= 0; i--)
                v = v << 8 | p[i];
            f->has_hash = 1, f->hash = v, p += 8;
            continue;
        }
        if (varint(&p, end, &v) != 0)
            return -1;
        if (key == 0x1a) { /* contents: one, as capture writes */
            if (v > (uint64_t)(end - p) || f->n_contents)
                return -1;
            d->fb_contents.len = (size_t)v;
            d->fb_contents.data = (uint8_t *)(uintptr_t)p;
            f->contents = &d->fb_contents;
            f->n_contents = 1;
            p += v;
            continue;
        }
        if ((key & 7) != 0)
            return -1;
        switch (key >> 3) {
        case 1: f->width = (int32_t)v, required |= 1; break;
        case 2: f->height = (int32_t)v, required |= 2; break;
        case 4: f->has_format = 1, f->format = (uint32_t)v; break;
        case 5: f->has_type = 1, f->type = (uint32_t)v; break;
        case 6: f->has_source = 1, f->source = (uint32_t)v; break;
        case 7: f->has_attachment = 1, f->attachment = (uint32_t)v; break;
        case 8: f->has_object = 1, f->object = (uint32_t)v; break;
        case 9: f->has_level = 1, f->level = (int32_t)v; break;
        case 10: f->has_layer = 1, f->layer = (int32_t)v; break;
        case 11: f->has_surface = 1, f->surface = v; break;
        case 13: f->has_coding = 1, f->coding = (uint32_t)v; break;
        case 14: f->has_slot = 1, f->slot = (uint32_t)v; break;
        default: return -1;
        }
    }
    return required == 3 ? 0 : -1;
}

int rp_decode(rp_decoder *d, const uint8_t *b, size_t n, rp_msg **out)
{
    Gltrace__GLMessage *m = &d->msg;
    if (!d->ready) {
        /* The bases and the fields no call record has (fb, metadata,
         * marker...) are set once: this decoder never changes them. */
        static const Gltrace__GLMessage init = GLTRACE__GLMESSAGE__INIT;
        static const Gltrace__GLMessage__DataType dt_init = GLTRACE__GLMESSAGE__DATA_TYPE__INIT;
        *m = init;
        for (int i = 0; i < RP_DEC_ARGS; i++)
            d->dt[i] = dt_init;
        m->args = d->argp;
        d->ready = 1;
    }
    m->returnvalue = NULL;
    m->fb = NULL;
    m->has_threadtime = m->has_seq = m->has_thread_id = m->has_duration64 = m->has_alias = 0;
    d->nints = d->nfloats = d->nbins = d->nbools = d->ni64 = 0;
    if (d->cur_block || d->blocks[0].used) {
        for (int i = 0; i <= d->cur_block && i < RP_DEC_BLOCKS; i++)
            d->blocks[i].used = 0;
        d->cur_block = 0;
    }
    unsigned required = 0, ndt = 0, nargs = 0;
    const uint8_t *p = b, *end = b + n;
    uint64_t v;
    /* Fields 1-4 in order, as capture writes them: without the loop's
     * dispatch. Whatever differs is left to the loop. */
#define RP_HEAD_FIELD(key, bit, dst, type, read)            \
    if (p < end && *p == (key)) {                           \
        const uint8_t *q = p + 1;                           \
        if (read(&q, end, &v) != 0)                         \
            return 0;                                       \
        dst = (type)v, required |= (bit), p = q;            \
    }
    RP_HEAD_FIELD(0x08, 1, m->context_id, int32_t, varint)
    RP_HEAD_FIELD(0x10, 2, m->start_time, int64_t, varint_ns) /* nanoseconds: long */
    RP_HEAD_FIELD(0x18, 4, m->duration, int32_t, varint)
    RP_HEAD_FIELD(0x20, 8, m->function, int32_t, varint)
#undef RP_HEAD_FIELD
    while (p < end) {
        unsigned key = *p++;
        if (key == 0x2a || key == 0x32) { /* args (5), returnValue (6) */
            if (varint(&p, end, &v) != 0 || v > (uint64_t)(end - p) || ndt == RP_DEC_ARGS)
                return 0;
            if (key == 0x32 && m->returnvalue)
                return 0; /* twice: protobuf-c's merging rules, not ours */
            Gltrace__GLMessage__DataType *t = &d->dt[ndt++];
            if (!scalar(d, t, p, (size_t)v, end) && data_type(d, t, p, p + v, end) != 0)
                return 0;
            if (key == 0x2a)
                d->argp[nargs++] = t;
            else
                m->returnvalue = t; /* a repeated optional message: the last one wins, as in protobuf-c */
            p += v;
            continue;
        }
        if (key == 0x3a) { /* fb (7): a snapshot */
            if (varint(&p, end, &v) != 0 || v > (uint64_t)(end - p) || m->fb ||
                frame_buffer(d, p, p + v) != 0)
                return 0;
            m->fb = &d->fb;
            p += v;
            continue;
        }
        if ((key & 7) != 0 || varint(&p, end, &v) != 0)
            return 0; /* fb, metadata, marker, a long key, unknown: protobuf-c */
        switch (key >> 3) {
        case 1: m->context_id = (int32_t)v, required |= 1; break;
        case 2: m->start_time = (int64_t)v, required |= 2; break;
        case 3: m->duration = (int32_t)v, required |= 4; break;
        case 4: m->function = (int32_t)v, required |= 8; break;
        case 8: m->has_threadtime = 1, m->threadtime = (int32_t)v; break;
        case 9:
            if (m->has_seq)
                return 0; /* twice: rp_scan_record gives the first, protobuf-c keeps the last */
            m->has_seq = 1, m->seq = v;
            break;
        case 10: m->has_thread_id = 1, m->thread_id = v; break;
        case 11: m->has_duration64 = 1, m->duration64 = (int64_t)v; break;
        case 12: m->has_alias = 1, m->alias = (uint32_t)v; break;
        default: return 0;
        }
    }
    if (required != 15)
        return 0;
    m->n_args = nargs;
    *out = m;
    return 1;
}

int rp_scan_record(void *ctx, const uint8_t *msg, size_t len, uint64_t id, uint64_t keep, uint64_t *seq)
{
    rp *r = ctx;
    int slot = r->dec_scan[0] == keep && keep;
    rp_msg *m;
    r->dec_scan[slot] = 0;
    if (rp_decode(&r->dec[slot], msg, len, &m) != 1) {
        /* protobuf-c's record (or malformed): the reader's own search */
        r->declined_scan = id;
        return gt_wire_find_varint(msg, len, GT_FIELD_SEQ, seq);
    }
    /* Decoded, so well-formed at top level with at most one seq: what
     * gt_wire_find_varint would find. */
    r->dec_scan[slot] = id;
    *seq = m->seq;
    return m->has_seq;
}
