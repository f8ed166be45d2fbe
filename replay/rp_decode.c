/* rp_decode.c: the records of a call, decoded without malloc.
 *
 * protobuf-c's unpack allocates a message, one DataType per argument and
 * an array per value, and frees them after: on a trace of cheap calls that
 * was most of replay's time. Here the same Gltrace__GLMessage shape (so the
 * rest of replay reads it unchanged) is filled into storage reused from
 * record to record, bytes pointing into the record itself. Only the fields
 * a call record has are handled (1-6, 8-12); a record with anything else
 * (a snapshot, metadata, a marker, an unknown field, a missing required
 * field, more values than the storage holds) is left to protobuf-c, which
 * also gives the standard message for a malformed one. test_decode checks
 * both agree on every record of real traces and on damaged ones. */
#include "rp_internal.h"

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

static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 70 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

/* One DataType (field 5 or 6) in [p, end). 0, or -1: leave it to protobuf-c. */
static int data_type(rp_decoder *d, Gltrace__GLMessage__DataType *t, const uint8_t *p, const uint8_t *end)
{
    static const Gltrace__GLMessage__DataType init = GLTRACE__GLMESSAGE__DATA_TYPE__INIT;
    *t = init;
    int have_type = 0, have_array = 0;
    while (p < end) {
        uint64_t key, v;
        if (varint(&p, end, &key) != 0)
            return -1;
        unsigned field = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
        if (field >= 1 && field <= 8 && field != 4 && field != 5 && field != 6 && wt == 0) {
            if (varint(&p, end, &v) != 0)
                return -1;
            switch (field) {
            case 1:
                t->type = (Gltrace__GLMessage__DataType__Type)(int32_t)v, have_type = 1;
                break;
            case 2:
                t->isarray = v != 0, have_array = 1;
                break;
            case 3:
                if (d->nints == RP_DEC_VALUES || (t->n_intvalue && t->intvalue + t->n_intvalue != d->ints + d->nints))
                    return -1;
                if (!t->n_intvalue)
                    t->intvalue = d->ints + d->nints;
                d->ints[d->nints++] = (int32_t)v, t->n_intvalue++;
                break;
            case 7:
                if (d->nbools == RP_DEC_VALUES ||
                    (t->n_boolvalue && t->boolvalue + t->n_boolvalue != d->bools + d->nbools))
                    return -1;
                if (!t->n_boolvalue)
                    t->boolvalue = d->bools + d->nbools;
                d->bools[d->nbools++] = v != 0, t->n_boolvalue++;
                break;
            case 8:
                if (d->ni64 == RP_DEC_VALUES || (t->n_int64value && t->int64value + t->n_int64value != d->i64 + d->ni64))
                    return -1;
                if (!t->n_int64value)
                    t->int64value = d->i64 + d->ni64;
                d->i64[d->ni64++] = (int64_t)v, t->n_int64value++;
                break;
            }
        } else if (field == 4 && wt == 5) {
            if (end - p < 4 || d->nfloats == RP_DEC_VALUES ||
                (t->n_floatvalue && t->floatvalue + t->n_floatvalue != d->floats + d->nfloats))
                return -1;
            if (!t->n_floatvalue)
                t->floatvalue = d->floats + d->nfloats;
            memcpy(&d->floats[d->nfloats++], p, 4);
            t->n_floatvalue++;
            p += 4;
        } else if ((field == 5 || field == 6) && wt == 2) {
            if (varint(&p, end, &v) != 0 || v > (uint64_t)(end - p) || d->nbins == RP_DEC_VALUES)
                return -1;
            ProtobufCBinaryData **arr = field == 5 ? &t->charvalue : &t->rawbytes;
            size_t *n = field == 5 ? &t->n_charvalue : &t->n_rawbytes;
            if (*n && *arr + *n != d->bins + d->nbins)
                return -1;
            if (!*n)
                *arr = d->bins + d->nbins;
            uint8_t *data = (uint8_t *)(uintptr_t)p; /* strings: read as they are */
            if (field == 6 && ((uintptr_t)p & 7)) {
                if (!(data = aligned(d, (size_t)v)))
                    return -1;
                memcpy(data, p, (size_t)v);
            }
            d->bins[d->nbins].len = (size_t)v;
            d->bins[d->nbins++].data = data;
            (*n)++;
            p += v;
        } else {
            return -1; /* packed values, another wire type, an unknown field */
        }
    }
    return have_type && have_array ? 0 : -1;
}

int rp_decode(rp_decoder *d, const uint8_t *b, size_t n, rp_msg **out)
{
    static const Gltrace__GLMessage init = GLTRACE__GLMESSAGE__INIT;
    Gltrace__GLMessage *m = &d->msg;
    *m = init;
    d->nints = d->nfloats = d->nbins = d->nbools = d->ni64 = 0;
    for (int i = 0; i <= d->cur_block && i < RP_DEC_BLOCKS; i++)
        d->blocks[i].used = 0;
    d->cur_block = 0;
    m->args = d->argp;
    unsigned required = 0, ndt = 0;
    const uint8_t *p = b, *end = b + n;
    while (p < end) {
        uint64_t key, v;
        if (varint(&p, end, &key) != 0)
            return 0;
        unsigned field = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
        if (wt == 0 && field >= 1 && field <= 12 && field != 5 && field != 6 && field != 7) {
            if (varint(&p, end, &v) != 0)
                return 0;
            switch (field) {
            case 1: m->context_id = (int32_t)v, required |= 1; break;
            case 2: m->start_time = (int64_t)v, required |= 2; break;
            case 3: m->duration = (int32_t)v, required |= 4; break;
            case 4: m->function = (int32_t)v, required |= 8; break;
            case 8: m->has_threadtime = 1, m->threadtime = (int32_t)v; break;
            case 9: m->has_seq = 1, m->seq = v; break;
            case 10: m->has_thread_id = 1, m->thread_id = v; break;
            case 11: m->has_duration64 = 1, m->duration64 = (int64_t)v; break;
            case 12: m->has_alias = 1, m->alias = (uint32_t)v; break;
            default: return 0;
            }
        } else if ((field == 5 || field == 6) && wt == 2) {
            if (varint(&p, end, &v) != 0 || v > (uint64_t)(end - p) || ndt == RP_DEC_ARGS)
                return 0;
            if (field == 6 && m->returnvalue)
                return 0; /* twice: protobuf-c's merging rules, not ours */
            Gltrace__GLMessage__DataType *t = &d->dt[ndt++];
            if (data_type(d, t, p, p + v) != 0)
                return 0;
            if (field == 5)
                d->argp[m->n_args++] = t;
            else
                m->returnvalue = t; /* a repeated optional message: the last one wins, as in protobuf-c */
            p += v;
        } else {
            return 0; /* fb, metadata, marker, unknown: protobuf-c */
        }
    }
    if (required != 15)
        return 0;
    *out = m;
    return 1;
}
