/* fuzz_decode: replay's decoder of call records (replay/rp_decode.c)
 * against protobuf-c, and the data-length checks (replay/rp_need.c) on the
 * values it decodes. Needs no EGL: no context is current, so the checks
 * take their GLES 2 path (the GL state queries read nothing).
 *   - rp_decode may decline a record; when it takes one, protobuf-c must
 *     decode it too and both must pack to the same bytes;
 *   - every decoded argument is checked against the bytes a call of each
 *     kind would read (pixels, a texel, indices, a byte count) built from
 *     the record's own integers: whatever the values, a bound or a refusal
 *     with a message, never an overflow; and the record's argument count
 *     and pointer types against its function's (rp_args_refused). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_trace.h"
#include "rp_internal.h"

static rp_decoder dec;

static void same_as_protobuf_c(const rp_msg *mine, const uint8_t *data, size_t size)
{
    Gltrace__GLMessage *ref = gltrace__glmessage__unpack(NULL, size, data);
    if (!ref) {
        fprintf(stderr, "rp_decode took a record protobuf-c calls malformed\n");
        abort();
    }
    size_t a = gltrace__glmessage__get_packed_size(mine), c = gltrace__glmessage__get_packed_size(ref);
    uint8_t *pa = malloc(a ? a : 1), *pc = malloc(c ? c : 1);
    if (pa && pc) {
        gltrace__glmessage__pack(mine, pa);
        gltrace__glmessage__pack(ref, pc);
        if (a != c || memcmp(pa, pc, a) != 0) {
            fprintf(stderr, "rp_decode and protobuf-c decode different messages\n");
            abort();
        }
    }
    free(pa);
    free(pc);
    gltrace__glmessage__free_unpacked(ref, NULL);
}

/* The record's integers, cycled, as the arguments of the size functions. */
static intptr_t value(const rp_msg *m, size_t k)
{
    size_t seen = 0;
    for (size_t i = 0; i < m->n_args; i++) {
        const Gltrace__GLMessage__DataType *d = m->args[i];
        for (size_t j = 0; j < d->n_intvalue; j++, seen++)
            if (seen == k)
                return d->intvalue[j];
        for (size_t j = 0; j < d->n_int64value; j++, seen++)
            if (seen == k)
                return (intptr_t)d->int64value[j];
    }
    return (intptr_t)k;
}

static void check_lengths(const rp_msg *m)
{
    static rp r;
    static gt_replay_summary sum;
    r.sum = &sum;
    r.path = "fuzz input";
    r.cur_ctx = -1;
    r.seq = m->has_seq ? m->seq : 0;
    (void)rp_args_refused(&r, m); /* the arguments against the function's */
    for (unsigned i = 0; i < m->n_args && i < 16; i++) {
        intptr_t a = value(m, i), b = value(m, i + 1), c = value(m, i + 2), d = value(m, i + 3),
                 e = value(m, i + 4);
        rp_short(&r, m, i, "pixels", rp_need_unpack(&r, a, b, c, d, e));
        rp_short(&r, m, i, "pixels", rp_need_unpack(&r, a, b, c, d, (intptr_t)1 << 32));
        rp_short(&r, m, i, "data", rp_need_texel(&r, a, b));
        rp_short(&r, m, i, "indices", rp_need_indices(&r, a, b));
        rp_short(&r, m, i, "data", rp_need_unpack_bytes(&r, a));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rp_msg *m = NULL;
    if (rp_decode(&dec, data, size, &m) == 1) {
        same_as_protobuf_c(m, data, size);
        check_lengths(m);
        return 0;
    }
    /* Declined: replay then unpacks it with protobuf-c, and checks that. */
    Gltrace__GLMessage *ref = gltrace__glmessage__unpack(NULL, size, data);
    if (ref) {
        check_lengths(ref);
        gltrace__glmessage__free_unpacked(ref, NULL);
    }
    return 0;
}
