/* test_times: a chunk's start times as differences and back
 * (proto/gt_wire_times.h). Random chunks of framed records, with context
 * ids of one to three varint bytes, times of one to ten bytes (padded, as
 * capture writes them) that mostly rise and sometimes fall, records too
 * short for the word-at-a-time decode and records without a time, come
 * back byte for byte after coding and decoding; a difference whose sum
 * does not fit its bytes is refused, whichever way the record is decoded.
 * Exit 0 when all hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_wire_times.h"
#include "tcheck.h"

static uint64_t state = 88172645463325252ull;
static uint64_t rnd(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
}

/* v as a varint of exactly n bytes. */
static size_t put_varint(uint8_t *p, uint64_t v, size_t n)
{
    for (size_t k = 0; k < n; k++, v >>= 7)
        p[k] = (uint8_t)((v & 0x7f) | (k + 1 < n ? 0x80 : 0));
    return n;
}

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >>= 7)
        n++;
    return n;
}

/* A chunk of `count` records; the time of record i is times[i]. */
static size_t make_chunk(uint8_t *out, int count, uint64_t base)
{
    size_t o = 0;
    uint64_t t = base;
    for (int i = 0; i < count; i++) {
        uint8_t rec[64];
        size_t n = 0;
        int kind = (int)(rnd() % 10);
        if (kind == 0) { /* no time: a record that begins otherwise */
            rec[n++] = 0x20;
            rec[n++] = (uint8_t)(rnd() & 0x7f);
        } else {
            uint64_t ctx = kind == 1 ? 128 + rnd() % 40000 : rnd() % 128;
            rec[n++] = 0x08;
            n += put_varint(rec + n, ctx, varint_len(ctx));
            rec[n++] = 0x10;
            uint64_t step = rnd() % 4 == 0 ? rnd() % 5000 : rnd() % 100;
            t = rnd() % 16 == 0 ? t - step : t + step; /* mostly rising */
            size_t len = varint_len(t);
            if (len < 10 && rnd() % 8 == 0)
                len++; /* padded: a time just past a varint length */
            n += put_varint(rec + n, t, len);
        }
        size_t tail = kind == 2 ? 0 : rnd() % 24; /* kind 2: too short for a word */
        for (size_t k = 0; k < tail; k++)
            rec[n++] = (uint8_t)rnd();
        out[o++] = (uint8_t)(n >> 24), out[o++] = (uint8_t)(n >> 16), out[o++] = (uint8_t)(n >> 8), out[o++] = (uint8_t)n;
        memcpy(out + o, rec, n);
        o += n;
    }
    return o;
}

int main(void)
{
    static uint8_t chunk[200 * 80], copy[sizeof chunk];
    /* Bases: small times, times since boot (7 bytes), of 8, 9 and 10 bytes. */
    static const uint64_t bases[] = {5, 33279072045580ull, 1ull << 50, 1ull << 57, 1ull << 62, ~0ull - 1000000};
    int coded = 0;
    for (int round = 0; round < 3000; round++) {
        size_t len = make_chunk(chunk, 1 + (int)(rnd() % 200), bases[round % 6] + rnd() % 1000);
        memcpy(copy, chunk, len);
        int base = round & 1; /* format 4's first time as it is, format 3's from 0 */
        if (!gt_times_codable(chunk, len, base))
            continue;
        coded++;
        gt_times_to_delta(chunk, len, base);
        int rc = gt_times_from_delta(chunk, len, base);
        CHECK(rc == 0 && !memcmp(chunk, copy, len), "round %d: %zu bytes do not come back (rc %d)", round, len, rc);
    }
    CHECK(coded > 2000, "only %d of 3000 random chunks could be coded (random records: most should)", coded);

    /* A clock in the upper half of a varint length (2^41..2^42 ns: 37 to 73
     * minutes after boot, as on a CI machine): the first time's difference
     * from 0, zigzag, is twice the time and needs a seventh byte. Format 3
     * could not code such a chunk; format 4 keeps the first time as it is. */
    {
        uint8_t c[64], d[64];
        size_t o = 0;
        for (int i = 0; i < 3; i++) {
            uint8_t rec[16];
            size_t n = 0;
            rec[n++] = 0x08, rec[n++] = 0x01, rec[n++] = 0x10;
            n += put_varint(rec + n, (3ull << 40) + 100u * (unsigned)i, 6); /* 6 bytes: 42 bits */
            c[o++] = 0, c[o++] = 0, c[o++] = 0, c[o++] = (uint8_t)n;
            memcpy(c + o, rec, n);
            o += n;
        }
        memcpy(d, c, o);
        CHECK(!gt_times_codable(c, o, 0), "format 3 coded a first time past half its bytes");
        CHECK(gt_times_codable(c, o, 1), "a clock between 2^41 and 2^42 ns cannot be coded");
        gt_times_to_delta(c, o, 1);
        CHECK(gt_times_from_delta(c, o, 1) == 0 && !memcmp(c, d, o), "a clock between 2^41 and 2^42 ns does not come back");
    }
    for (int round = 0; round < 50; round++) { /* and random chunks at such a clock */
        size_t len = make_chunk(chunk, 2 + (int)(rnd() % 100), (3ull << 40) + rnd() % 1000000);
        memcpy(copy, chunk, len);
        CHECK(gt_times_codable(chunk, len, 1), "round %d: a clock between 2^41 and 2^42 ns cannot be coded", round);
        gt_times_to_delta(chunk, len, 1);
        CHECK(gt_times_from_delta(chunk, len, 1) == 0 && !memcmp(chunk, copy, len),
              "round %d: a clock between 2^41 and 2^42 ns does not come back", round);
    }

    /* Damage: the third record's difference as large as its two bytes
     * hold, so the sum passes them: refused, in the word-at-a-time decode
     * (long records) and the general one (short records, 2-byte ids). */
    static const uint64_t times[] = {8000, 16000, 16100};
    for (int shape = 0; shape < 2; shape++) {
        uint8_t c[96];
        size_t o = 0, third = 0;
        for (int i = 0; i < 3; i++) {
            uint8_t rec[32];
            size_t n = 0;
            rec[n++] = 0x08;
            n += shape ? put_varint(rec + n, 300, 2) : put_varint(rec + n, 1, 1);
            rec[n++] = 0x10;
            n += put_varint(rec + n, times[i], 2); /* 2 bytes: 14 bits */
            for (int k = 0; !shape && k < 10; k++)
                rec[n++] = 0x55;
            c[o++] = 0, c[o++] = 0, c[o++] = 0, c[o++] = (uint8_t)n;
            third = o;
            memcpy(c + o, rec, n);
            o += n;
        }
        for (int base = 0; base < 2; base++) {
            uint8_t d[96];
            memcpy(d, c, o);
            CHECK(gt_times_codable(d, o, base), "shape %d: the damage test's chunk cannot be coded", shape);
            gt_times_to_delta(d, o, base);
            put_varint(d + third + (shape ? 4 : 3), 16000, 2); /* zigzag +8000 on 16000: 24000 needs 3 bytes */
            CHECK(gt_times_from_delta(d, o, base) == -1, "shape %d base %d: a sum past its bytes is not refused",
                  shape, base);
        }
    }
    printf("test_times: %d chunks coded\n", coded);
    return tcheck_exit("test_times");
}
