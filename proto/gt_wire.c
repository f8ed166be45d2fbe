/* gt_wire.c: the little protobuf and checksum knowledge the container needs
 * without protobuf-c: finding one varint field, CRC-32, a chunk's start
 * times as differences and back. Its writing half,
 * which the capture hot path inlines, is gt_wire_enc.h. */
#include "gt_trace.h"
#include "gt_wire_times.h"

#include <endian.h>
#include <string.h>

static inline int read_varint(const uint8_t *p, size_t len, size_t *i, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (*i >= len)
            return -1;
        uint8_t b = p[(*i)++];
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* Steps over a varint without decoding it: the same bytes read_varint
 * accepts (at most 10, inside len), found by the first byte without the top
 * bit. The reader runs this over every field of every record (the seq it
 * looks for is usually absent), so eight bytes are tested at once. */
static inline int skip_varint(const uint8_t *p, size_t len, size_t *i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len - *i >= 8) {
        uint64_t w;
        __builtin_memcpy(&w, p + *i, 8);
        uint64_t ends = ~w & 0x8080808080808080ull;
        if (ends) {
            *i += (size_t)(__builtin_ctzll(ends) >> 3) + 1;
            return 0;
        }
    }
#endif
    size_t end = len - *i > 10 ? *i + 10 : len;
    for (size_t k = *i; k < end; k++)
        if (!(p[k] & 0x80)) {
            *i = k + 1;
            return 0;
        }
    return -1;
}

int gt_wire_find_varint(const uint8_t *msg, size_t len, uint32_t field, uint64_t *val)
{
    size_t i = 0;
    /* A call record as capture writes it: fields 1-4 (varints) in order,
     * then the arguments and return value (fields 5 and 6, short), then the
     * trailer. Walked here in straight lines; anything else (or a field
     * asked for among them) takes the general loop from where this
     * stopped, which then sees the same bytes it would have. */
    if (field > 6) {
#define GT_HEAD_FIELD(k)                                    \
    if (i >= len || msg[i] != (k))                          \
        goto general;                                       \
    i++;                                                    \
    if (i < len && msg[i] < 0x80)                           \
        i++;                                                \
    else if (skip_varint(msg, len, &i) != 0)                \
        return -1;
        GT_HEAD_FIELD(0x08)
        GT_HEAD_FIELD(0x10)
        GT_HEAD_FIELD(0x18)
        GT_HEAD_FIELD(0x20)
#undef GT_HEAD_FIELD
        while (len - i >= 2 && (msg[i] == 0x2a || msg[i] == 0x32) && msg[i + 1] < 0x80) {
            if (msg[i + 1] > len - i - 2)
                return -1;
            i += 2 + (size_t)msg[i + 1];
        }
    }
general:
    while (i < len) {
        uint64_t key, v;
        if (msg[i] < 0x80) /* a one-byte key: fields 1-15, all a record has */
            key = msg[i++];
        else if (read_varint(msg, len, &i, &key) != 0)
            return -1;
        switch (key & 7) {
        case 0:
            if ((key >> 3) == field) {
                if (read_varint(msg, len, &i, &v) != 0)
                    return -1;
                *val = v;
                return 1;
            }
            if (skip_varint(msg, len, &i) != 0)
                return -1;
            break;
        case 1:
            if (len - i < 8)
                return -1;
            i += 8;
            break;
        case 2:
            if (i < len && msg[i] < 0x80)
                v = msg[i++];
            else if (read_varint(msg, len, &i, &v) != 0)
                return -1;
            if (v > len - i)
                return -1;
            i += (size_t)v;
            break;
        case 5:
            if (len - i < 4)
                return -1;
            i += 4;
            break;
        default:
            return -1;
        }
    }
    return 0;
}

uint32_t gt_crc32(const void *data, size_t len)
{
    static uint32_t table[256];
    static int ready;
    if (!ready) { /* benign race: every thread computes the same table */
        for (uint32_t n = 0; n < 256; n++) {
            uint32_t c = n;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[n] = c;
        }
        ready = 1;
    }
    const uint8_t *p = data;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++)
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* ---------------------------------------------------------------- times */

/* The start time of a record that begins with fields 1 and 2, as capture
 * writes them: *at and *n its varint's place and length. 0 when the record
 * does not begin so (left alone by both directions). */
static inline __attribute__((always_inline)) int time_field(const uint8_t *m, size_t len, size_t *at, size_t *n,
                                                            uint64_t *t)
{
    size_t i = 1;
    uint64_t ctx;
    if (len < 2 || m[0] != 0x08 || read_varint(m, len, &i, &ctx) != 0 || i >= len || m[i] != 0x10)
        return 0;
    *at = ++i;
    if (read_varint(m, len, &i, t) != 0)
        return 0;
    *n = i - *at;
    return 1;
}

/* Calls each(m, at, n, t, ctx) for the timed records of a chunk, in order,
 * up to the end or the first frame that does not fit (the reader reports
 * that damage itself). Stops with each's non-zero return. */
typedef int (*time_fn)(uint8_t *m, size_t at, size_t n, uint64_t t, uint64_t *prev);

/* Inlined into each direction, so that `each` is a direct call the
 * compiler inlines too: the decode runs over every record replay reads. */
static inline __attribute__((always_inline)) int each_time(uint8_t *recs, size_t len, int base, time_fn each)
{
    uint64_t prev = 0;
    int first = base; /* the first timed record keeps its time: the base of the next */
    for (size_t off = 0; len - off >= 4;) {
        size_t n = (size_t)recs[off] << 24 | (size_t)recs[off + 1] << 16 | (size_t)recs[off + 2] << 8 | recs[off + 3];
        if (n > len - off - 4)
            break;
        uint8_t *m = recs + off + 4;
        size_t at, vn;
        uint64_t t;
        int rc;
        if (time_field(m, n, &at, &vn, &t)) {
            if (first)
                prev = t, first = 0;
            else if ((rc = each(m, at, vn, t, &prev)) != 0)
                return rc;
        }
        off += 4 + n;
    }
    return 0;
}

/* v in exactly n varint bytes (the last without the top bit). */
static void put_padded(uint8_t *p, size_t n, uint64_t v)
{
    for (size_t k = 0; k < n; k++, v >>= 7)
        p[k] = (uint8_t)((v & 0x7f) | (k + 1 < n ? 0x80 : 0));
}

/* Times in call order need not rise (a record capture writes inside a call
 * it comes before: surface contents read during eglMakeCurrent), so the
 * difference is signed: zigzag, as protobuf's sint64. Mod 2^64 throughout. */
static uint64_t zigzag(uint64_t d) { return d << 1 ^ (uint64_t)-(int64_t)(d >> 63); }
static uint64_t unzigzag(uint64_t z) { return z >> 1 ^ (uint64_t)-(int64_t)(z & 1); }
static int fits(uint64_t v, size_t n) { return n >= 10 || !(v >> (7 * n)); }

static inline int check_one(uint8_t *m, size_t at, size_t n, uint64_t t, uint64_t *prev)
{
    (void)m, (void)at;
    if (!fits(zigzag(t - *prev), n))
        return 1; /* rare: t just past a varint length, the one before it later */
    *prev = t;
    return 0;
}

static inline int code_one(uint8_t *m, size_t at, size_t n, uint64_t t, uint64_t *prev)
{
    put_padded(m + at, n, zigzag(t - *prev));
    *prev = t;
    return 0;
}

static inline int decode_one(uint8_t *m, size_t at, size_t n, uint64_t z, uint64_t *prev)
{
    uint64_t t = *prev + unzigzag(z);
    if (!fits(t, n))
        return -1;
    put_padded(m + at, n, t);
    *prev = t;
    return 0;
}

int gt_times_codable(const uint8_t *recs, size_t len, int base)
{
    return each_time((uint8_t *)recs, len, base, check_one) == 0; /* check_one writes nothing */
}

void gt_times_to_delta(uint8_t *recs, size_t len, int base)
{
    each_time(recs, len, base, code_one);
}

/* The 7-bit groups of a varint's first eight bytes (little-endian word w)
 * as one number, and back: three steps of pairs, no loop over bytes. */
static inline uint64_t groups_in(uint64_t w)
{
    w &= 0x7f7f7f7f7f7f7f7full;
    w = (w & 0x007f007f007f007full) | (w & 0x7f007f007f007f00ull) >> 1;
    w = (w & 0x00003fff00003fffull) | (w & 0x3fff00003fff0000ull) >> 2;
    return (w & 0x000000000fffffffull) | (w & 0x0fffffff00000000ull) >> 4;
}

static inline uint64_t groups_out(uint64_t v)
{
    v = (v & 0x000000000fffffffull) | (v << 4 & 0x0fffffff00000000ull);
    v = (v & 0x00003fff00003fffull) | (v << 2 & 0x3fff00003fff0000ull);
    return (v & 0x007f007f007f007full) | (v << 1 & 0x7f007f007f007f00ull);
}

/* Replay reads every record through this, so the common record (a
 * one-byte context id, a time of at most eight bytes, eight bytes of
 * record from the time on) is decoded a word at a time; any other goes
 * the general way, with the same result. */
int gt_times_from_delta(uint8_t *recs, size_t len, int base)
{
    uint64_t prev = 0;
    int first = base;
    for (size_t off = 0; len - off >= 4;) {
        uint32_t be;
        memcpy(&be, recs + off, 4);
        size_t n = be32toh(be);
        if (n > len - off - 4)
            break;
        uint8_t *m = recs + off + 4;
        off += 4 + n;
        uint32_t head = 0;
        if (n >= 11)
            memcpy(&head, m, 4);
        /* 0x08, a context id below 128, 0x10: in one test */
        if (n >= 11 && (le32toh(head) & 0x00ff80ffu) == 0x00100008u) {
            uint64_t w;
            memcpy(&w, m + 3, 8);
            w = le64toh(w);
            uint64_t stops = ~w & 0x8080808080808080ull;
            if (stops) {
                unsigned vn = (unsigned)__builtin_ctzll(stops) / 8 + 1;
                uint64_t mask = vn == 8 ? ~0ull : (1ull << 8 * vn) - 1;
                if (first) { /* its time as it is */
                    prev = groups_in(w & mask), first = 0;
                    continue;
                }
                uint64_t t = prev + unzigzag(groups_in(w & mask));
                if (!fits(t, vn))
                    return -1;
                uint64_t out = groups_out(t) | (0x8080808080808080ull & (mask >> 8));
                w = htole64((w & ~mask) | (out & mask));
                memcpy(m + 3, &w, 8);
                prev = t;
                continue;
            }
        }
        size_t at, vn;
        uint64_t t;
        if (!time_field(m, n, &at, &vn, &t))
            continue;
        if (first)
            prev = t, first = 0;
        else if (decode_one(m, at, vn, t, &prev) != 0)
            return -1;
    }
    return 0;
}
