/* gt_wire.c: the little protobuf and checksum knowledge the container needs
 * without protobuf-c: finding one varint field, CRC-32. */
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

int gt_wire_find_varint(const uint8_t *msg, size_t len, uint32_t field, uint64_t *val)
{
    size_t i = 0;
    while (i < len) {
        uint64_t key, v;
        if (read_varint(msg, len, &i, &key) != 0)
            return -1;
        switch (key & 7) {
        case 0:
            if (read_varint(msg, len, &i, &v) != 0)
                return -1;
            if ((key >> 3) == field) {
                *val = v;
                return 1;
            }
            break;
        case 1:
            if (len - i < 8)
                return -1;
            i += 8;
            break;
        case 2:
            if (read_varint(msg, len, &i, &v) != 0 || v > len - i)
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
