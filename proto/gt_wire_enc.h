/* gt_wire_enc.h: protobuf wire-format primitives for the capture hot path,
 * the writing half of the wire that gt_wire.c reads.
 *
 * The generated encoders write GLMessage records straight into a thread's
 * buffer with these, byte for byte what protobuf-c's pack would produce for
 * the same message (tests/api checks every command): fields in number order,
 * required fields always present, int32 negatives as 10-byte varints, no
 * packed repeats. The caller reserves room first (GT_MAX_name), so nothing
 * here checks bounds. */
#ifndef GT_WIRE_ENC_H
#define GT_WIRE_ENC_H

#include <stdint.h>
#include <string.h>

static inline uint8_t *gt_put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline unsigned gt_varint_len(uint64_t v)
{
    /* 1 + floor(log2(v|1) / 7), without a loop */
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
    return (bits + 6) / 7;
}

static inline uint64_t gt_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline int64_t gt_double_bits(double d)
{
    int64_t u;
    memcpy(&u, &d, 8);
    return u;
}

#define gt_u64_i(x) ((uint64_t)(x))
#define gt_u64_f(x) gt_float_bits(x)

/* One GLMessage.DataType with a single scalar, as field `tag` (0x2a: an
 * argument, 0x32: the return value). Body: type (1), isArray = false (2),
 * then the value in intValue (3), floatValue (4), boolValue (7) or
 * int64Value (8). */
static inline uint8_t *gt_dt_i32(uint8_t *p, uint8_t tag, uint8_t type, int32_t v)
{
    uint64_t u = (uint64_t)(int64_t)v;
    p[0] = tag;
    p[1] = (uint8_t)(5 + gt_varint_len(u));
    p[2] = 0x08;
    p[3] = type;
    p[4] = 0x10;
    p[5] = 0x00;
    p[6] = 0x18;
    return gt_put_varint(p + 7, u);
}

static inline uint8_t *gt_dt_i64(uint8_t *p, uint8_t tag, int64_t v)
{
    uint64_t u = (uint64_t)v;
    p[0] = tag;
    p[1] = (uint8_t)(5 + gt_varint_len(u));
    p[2] = 0x08;
    p[3] = 8;
    p[4] = 0x10;
    p[5] = 0x00;
    p[6] = 0x40;
    return gt_put_varint(p + 7, u);
}

static inline uint8_t *gt_dt_bool(uint8_t *p, uint8_t tag, int v)
{
    p[0] = tag;
    p[1] = 6;
    p[2] = 0x08;
    p[3] = 6;
    p[4] = 0x10;
    p[5] = 0x00;
    p[6] = 0x38;
    p[7] = (uint8_t)(v != 0);
    return p + 8;
}

static inline uint8_t *gt_dt_float(uint8_t *p, uint8_t tag, float f)
{
    p[0] = tag;
    p[1] = 9;
    p[2] = 0x08;
    p[3] = 5;
    p[4] = 0x10;
    p[5] = 0x00;
    p[6] = 0x25;
    memcpy(p + 7, &f, 4); /* fixed32, little-endian on our targets */
    return p + 11;
}

/* What lies behind a pointer argument, when the annotation file says how
 * much (the fixup step): raw bytes (field rawBytes), one string, or several
 * (field charValue, one each). kind 0: nothing captured, address only. */
enum { GT_SPAN_NONE, GT_SPAN_RAW, GT_SPAN_STRING, GT_SPAN_STRINGS };
typedef struct gt_span {
    int kind;
    const void *data;          /* RAW, STRING */
    size_t bytes;              /* RAW, STRING */
    size_t count;              /* STRINGS */
    const char *const *strs;   /* STRINGS */
    const int32_t *lens;       /* STRINGS: lengths, NULL or < 0 for NUL-terminated */
} gt_span;

static inline size_t gt_span_len(const gt_span *s, size_t i)
{
    if (s->lens && s->lens[i] >= 0)
        return (size_t)s->lens[i];
    return s->strs[i] ? strnlen(s->strs[i], (size_t)1 << 26) : 0;
}

/* Bytes of the DataType body of a pointer argument. */
static inline size_t gt_span_body(const gt_span *s, uint64_t addr)
{
    size_t n = 4 + 1 + gt_varint_len(addr);
    if (s->kind == GT_SPAN_RAW || s->kind == GT_SPAN_STRING) {
        n += 1 + gt_varint_len(s->bytes) + s->bytes;
    } else if (s->kind == GT_SPAN_STRINGS) {
        for (size_t i = 0; i < s->count; i++) {
            size_t l = gt_span_len(s, i);
            n += 1 + gt_varint_len(l) + l;
        }
    }
    return n;
}

/* Room a pointer argument needs beyond the fixed bound of its record. */
static inline size_t gt_span_room(const gt_span *s)
{
    return s->kind == GT_SPAN_NONE ? 0 : gt_span_body(s, UINT64_MAX) + 16;
}

static inline uint8_t *gt_put_bytes(uint8_t *p, uint8_t tag, const void *d, size_t n)
{
    *p++ = tag;
    p = gt_put_varint(p, n);
    if (n)
        memcpy(p, d, n);
    return p + n;
}

/* A pointer argument: type INT64, isArray when data follows, the data in
 * charValue (5) or rawBytes (6), the address in int64Value (8). */
static inline uint8_t *gt_dt_ptr(uint8_t *p, uint8_t tag, uint64_t addr, const gt_span *s)
{
    *p++ = tag;
    p = gt_put_varint(p, gt_span_body(s, addr));
    p[0] = 0x08;
    p[1] = 8;
    p[2] = 0x10;
    p[3] = s->kind != GT_SPAN_NONE;
    p += 4;
    if (s->kind == GT_SPAN_RAW)
        p = gt_put_bytes(p, 0x32, s->data, s->bytes);
    else if (s->kind == GT_SPAN_STRING)
        p = gt_put_bytes(p, 0x2a, s->data, s->bytes);
    else if (s->kind == GT_SPAN_STRINGS)
        for (size_t i = 0; i < s->count; i++)
            p = gt_put_bytes(p, 0x2a, s->strs[i], gt_span_len(s, i));
    *p++ = 0x40;
    return gt_put_varint(p, addr);
}

/* Fields 1-4 of a record, after its 4-byte frame length. */
static inline uint8_t *gt_rec_put_header(uint8_t *p, int32_t ctx, int64_t start,
                                         int32_t dur, int32_t number)
{
    *p++ = 0x08;
    p = gt_put_varint(p, (uint64_t)(int64_t)ctx);
    *p++ = 0x10;
    p = gt_put_varint(p, (uint64_t)start);
    *p++ = 0x18;
    p = gt_put_varint(p, (uint64_t)(int64_t)dur);
    *p++ = 0x20;
    return gt_put_varint(p, (uint64_t)(int64_t)number);
}

/* Fields 9-12 after the arguments: seq (only when the reader cannot infer
 * it, see FORMAT.md), thread_id (only when non-zero: capture passes 0, as
 * a chunk holds one thread's records and its header names the thread),
 * duration64 (only when the duration did not fit field 3), alias (only
 * when non-zero). */
static inline uint8_t *gt_rec_put_trailer(uint8_t *p, uint64_t seq, int has_seq, uint64_t tid,
                                          int64_t dur64, int has_dur64, uint32_t alias)
{
    if (has_seq) {
        *p++ = 0x48;
        p = gt_put_varint(p, seq);
    }
    if (tid) {
        *p++ = 0x50;
        p = gt_put_varint(p, tid);
    }
    if (has_dur64) {
        *p++ = 0x58;
        p = gt_put_varint(p, (uint64_t)dur64);
    }
    if (alias) {
        *p++ = 0x60;
        p = gt_put_varint(p, alias);
    }
    return p;
}

/* Big-endian int32 frame length (the legacy .gltrace framing). */
static inline void gt_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
