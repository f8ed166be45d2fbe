/* Every generated encoder, byte for byte against protobuf-c.
 *
 * For each covered command, with pseudo-random argument values: the record
 * the capture library would write (frame length, header, generated
 * encoder, trailer) must equal protobuf-c's packing of a GLMessage built
 * here, by hand, from the same values; and protobuf-c must decode it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoder_cases.h"
#include "gltrace.pb-c.h"
#include "gt_wire_enc.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

uint64_t gt_rand64(void)
{
    /* Every varint length matters: small, negative, 32-bit and 64-bit. */
    uint64_t r = next();
    switch (r & 3) {
    case 0: return (r >> 8) % 200;
    case 1: return (uint64_t)-(int64_t)((r >> 8) % 300);
    case 2: return (uint32_t)(r >> 8);
    default: return next();
    }
}

float gt_randf(void)
{
    uint64_t r = next();
    if ((r & 15) == 0)
        return 0.0f;
    if ((r & 15) == 1)
        return -1.5e30f;
    return (float)((int64_t)(r >> 16) % 2000001 - 1000000) / 1024.0f;
}

/* The DataType a value of `kind` must become (FORMAT.md, "Records"). */
static void fill(Gltrace__GLMessage__DataType *d, const gt_tval *v, int32_t *i32, float *f32,
                 protobuf_c_boolean *b, int64_t *i64)
{
    gltrace__glmessage__data_type__init(d);
    d->isarray = 0;
    switch (v->kind) {
    case GT_K_INT: case GT_K_UINT: case GT_K_BITS:
        d->type = GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__INT;
        goto i32v;
    case GT_K_BYTE:
        d->type = GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__BYTE;
        goto i32v;
    case GT_K_CHAR:
        d->type = GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__CHAR;
        goto i32v;
    case GT_K_ENUM:
        d->type = GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__ENUM;
    i32v:
        *i32 = (int32_t)v->bits;
        d->n_intvalue = 1;
        d->intvalue = i32;
        break;
    case GT_K_BOOL:
        d->type = GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__BOOL;
        *b = v->bits != 0;
        d->n_boolvalue = 1;
        d->boolvalue = b;
        break;
    case GT_K_FLOAT: {
        uint32_t u = (uint32_t)v->bits;
        d->type = GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__FLOAT;
        memcpy(f32, &u, 4);
        d->n_floatvalue = 1;
        d->floatvalue = f32;
        break;
    }
    default: /* 64-bit integers, doubles' bits, handles, pointers */
        d->type = GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__INT64;
        *i64 = (int64_t)v->bits;
        d->n_int64value = 1;
        d->int64value = i64;
        break;
    }
}

int main(void)
{
    static uint8_t ours[4096], theirs[4096];
    size_t checked = 0, failed = 0;
    for (size_t c = 0; c < gt_ncases; c++) {
        const gt_case *k = &gt_cases[c];
        for (int iter = 0; iter < 16; iter++) {
            gt_tval v[32];
            int32_t ctx = (int32_t)gt_rand64();
            int64_t start = (int64_t)(next() >> 1);
            int has64 = (next() & 7) == 0;
            int64_t dur64 = has64 ? (int64_t)0x80000000 + (int64_t)(next() >> 40) : 0;
            int32_t dur = has64 ? 0x7fffffff : (int32_t)(next() % 100000);
            uint64_t seq = gt_rand64(), tid = next() >> 40;

            uint8_t *p = gt_rec_put_header(ours + 4, ctx, start, dur, k->number);
            p += k->run(p, v);
            int has_seq = (next() & 3) != 0;
            p = gt_rec_put_trailer(p, seq, has_seq, tid, dur64, has64, k->alias);
            size_t n = (size_t)(p - ours - 4);
            gt_put_be32(ours, (uint32_t)n);
            if (n + 4 > k->max) {
                fprintf(stderr, "%s: record of %zu bytes exceeds GT_MAX (%zu)\n", k->name, n + 4, k->max);
                failed++;
                continue;
            }

            Gltrace__GLMessage m;
            gltrace__glmessage__init(&m);
            m.context_id = ctx;
            m.start_time = start;
            m.duration = dur;
            m.function = k->number;
            Gltrace__GLMessage__DataType args[32], ret, *argp[32];
            int32_t i32[33];
            float f32[33];
            protobuf_c_boolean b[33];
            int64_t i64[33];
            for (unsigned i = 0; i < k->nparams; i++) {
                fill(&args[i], &v[i], &i32[i], &f32[i], &b[i], &i64[i]);
                argp[i] = &args[i];
            }
            m.n_args = k->nparams;
            m.args = argp;
            if (k->has_ret) {
                unsigned r = k->nparams;
                fill(&ret, &v[r], &i32[r], &f32[r], &b[r], &i64[r]);
                m.returnvalue = &ret;
            }
            m.has_seq = has_seq;
            m.seq = has_seq ? seq : 0;
            m.has_thread_id = 1;
            m.thread_id = tid;
            if (has64) {
                m.has_duration64 = 1;
                m.duration64 = dur64;
            }
            if (k->alias) {
                m.has_alias = 1;
                m.alias = k->alias;
            }
            size_t tn = gltrace__glmessage__get_packed_size(&m);
            gltrace__glmessage__pack(&m, theirs);
            checked++;
            if (tn != n || memcmp(ours + 4, theirs, n) != 0) {
                if (failed++ < 10) {
                    fprintf(stderr, "%s: ours (%zu bytes) differs from protobuf-c (%zu bytes):\n ours  ", k->name, n, tn);
                    for (size_t i = 0; i < n; i++)
                        fprintf(stderr, "%02x", ours[4 + i]);
                    fprintf(stderr, "\n theirs ");
                    for (size_t i = 0; i < tn; i++)
                        fprintf(stderr, "%02x", theirs[i]);
                    fprintf(stderr, "\n");
                }
                continue;
            }
            Gltrace__GLMessage *back = gltrace__glmessage__unpack(NULL, n, ours + 4);
            if (!back || back->n_args != k->nparams || back->function != k->number) {
                fprintf(stderr, "%s: protobuf-c cannot decode our record\n", k->name);
                failed++;
            }
            if (back)
                gltrace__glmessage__free_unpacked(back, NULL);
        }
    }
    printf("%zu commands, %zu records checked against protobuf-c, %zu failed\n", gt_ncases, checked, failed);
    return failed ? 1 : 0;
}
