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

/* Data behind pointers: every span kind, with lengths around 127/128 where
 * varint lengths change. */
static const char *const strs[] = {"", "main", "uniform vec4 c;\nvoid main() {}\n"};
static const int32_t lens[] = {0, 3, -1};
static uint8_t pool[300];

gt_span gt_rand_span(void)
{
    gt_span s = {0};
    uint64_t r = next();
    if (!pool[1])
        for (size_t i = 0; i < sizeof pool; i++)
            pool[i] = (uint8_t)(i * 7 + 1);
    switch (r % 5) {
    case 1: s.kind = GT_SPAN_RAW; s.data = pool; s.bytes = (r >> 8) % 2 ? (r >> 16) % 40 : 120 + (r >> 16) % 20; break;
    case 2: s.kind = GT_SPAN_STRING; s.data = strs[2]; s.bytes = strlen(strs[2]); break;
    case 3: s.kind = GT_SPAN_STRINGS; s.strs = strs; s.count = 3; s.lens = (r >> 8) % 2 ? lens : NULL; break;
    case 4: s.kind = GT_SPAN_RAW; s.data = pool; s.bytes = 0; break;
    default: break;
    }
    return s;
}

/* The DataType a value of `kind` must become (FORMAT.md, "Records"). */
static ProtobufCBinaryData bins[64][3];
static size_t nbins;

static void fill(Gltrace__GLMessage__DataType *d, const gt_tval *v, int32_t *i32, float *f32,
                 protobuf_c_boolean *b, int64_t *i64)
{
    gltrace__glmessage__data_type__init(d);
    d->isarray = 0;
    if (v->kind == GT_K_POINTER && v->span.kind != GT_SPAN_NONE) {
        ProtobufCBinaryData *bin = bins[nbins++ % 64];
        const gt_span *s = &v->span;
        d->isarray = 1;
        if (s->kind == GT_SPAN_STRINGS) {
            for (size_t i = 0; i < s->count; i++) {
                bin[i].data = (uint8_t *)s->strs[i];
                bin[i].len = s->lens && s->lens[i] >= 0 ? (size_t)s->lens[i] : strlen(s->strs[i]);
            }
            d->n_charvalue = s->count;
            d->charvalue = bin;
        } else {
            bin[0].data = (uint8_t *)s->data;
            bin[0].len = s->bytes;
            if (s->kind == GT_SPAN_STRING) {
                d->n_charvalue = 1;
                d->charvalue = bin;
            } else {
                d->n_rawbytes = 1;
                d->rawbytes = bin;
            }
        }
    }
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
    static uint8_t ours[16384], theirs[16384];
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
            size_t room = 0;
            for (unsigned i = 0; i < k->nparams + (unsigned)k->has_ret; i++)
                room += v[i].kind == GT_K_POINTER ? gt_span_room(&v[i].span) : 0;
            if (n + 4 > k->max + room) {
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
