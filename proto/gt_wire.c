/* gt_wire.c: the little protobuf and checksum knowledge the container needs
 * without protobuf-c: finding one varint field, CRC-32. Its writing half,
 * which the capture hot path inlines, is gt_wire_enc.h. */
#include "gt_trace.h"

static int read_varint(const uint8_t *p, size_t len, size_t *i, uint64_t *v)
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
