/* rp_check.c: `replay --check`. The queries the trace recorded are issued
 * again (generated routines, api/emit_replay.py) and what the driver
 * returns now is compared with what it returned to the app: the return
 * value and every output the annotations size. Replay's own snapshot reads
 * drain GL errors; the app's error they take is held for the app's next
 * glGetError, so --check neither loses nor invents one. */
#include "rp_internal.h"

#include <GLES2/gl2.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void rp_hold_errors(rp *r)
{
    GLenum e;
    while ((e = glGetError()) != GL_NO_ERROR)
        if (r->opt->check && r->cur_ctx >= 0 && !r->ctx[r->cur_ctx].held_error)
            r->ctx[r->cur_ctx].held_error = e;
}

/* Bytes as the report shows them: 32-bit integers when they are a few,
 * else hex, cut to fit. */
static void show(char *out, size_t len, const uint8_t *b, size_t n, int text)
{
    size_t o = 0;
    if (text) {
        o += (size_t)snprintf(out, len, "\"");
        for (size_t i = 0; i < n && b[i] && o + 6 < len; i++)
            out[o++] = b[i] >= 32 && b[i] < 127 ? (char)b[i] : '?';
        snprintf(out + o, len - o, "%s\"", o + 6 >= len ? "..." : "");
        return;
    }
    if (n % 4 == 0 && n <= 32) {
        o += (size_t)snprintf(out, len, "[");
        for (size_t i = 0; i < n && o < len; i += 4) {
            int32_t v;
            memcpy(&v, b + i, 4);
            o += (size_t)snprintf(out + o, len - o, "%s%" PRId32, i ? ", " : "", v);
        }
        if (o < len)
            snprintf(out + o, len - o, "]");
        return;
    }
    for (size_t i = 0; i < n && o + 8 < len; i++)
        o += (size_t)snprintf(out + o, len - o, "%02x", b[i]);
    if (o + 8 >= len || n * 2 > o)
        snprintf(out + o, len - o, "...(%zu B)", n);
}

static void mismatch(rp *r, const char *what, const uint8_t *want, size_t wn, const uint8_t *got, size_t gn,
                     int text)
{
    gt_replay_summary *s = r->sum;
    s->check_mismatches++;
    if (s->nmismatches == GT_REPLAY_MAX_MISMATCHES)
        return;
    gt_replay_mismatch *x = &s->mismatches[s->nmismatches++];
    x->seq = r->seq, x->frame = r->frame;
    snprintf(x->function, sizeof x->function, "%s", r->cur_name ? r->cur_name : "?");
    snprintf(x->what, sizeof x->what, "%s", what);
    show(x->recorded, sizeof x->recorded, want, wn, text);
    show(x->replayed, sizeof x->replayed, got, gn, text);
}

void *rp_check_out_buffer(rp *r, const rp_msg *m, unsigned i)
{
    void *p = rp_arg_out(r, m, i, 0, 0);
    size_t n = 0;
    if (p && rp_arg_bytes(m, i, &n))
        memset(p, 0, n);
    else if (p && i < m->n_args && m->args[i]->n_charvalue)
        memset(p, 0, m->args[i]->charvalue[0].len + 1);
    return p;
}

/* A query that raises a GL error writes nothing: what the trace holds for
 * its outputs is the app's memory as it was, and no answer to compare.
 * The error is held for the app's own glGetError, which is compared. */
static int query_failed(rp *r)
{
    rp_ctx *c = &r->ctx[r->cur_ctx];
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        if (!c->held_error)
            c->held_error = e;
        rp_hold_errors(r);
        c->failed_query = r->seq + 1;
    }
    return c->failed_query == r->seq + 1;
}

void rp_check_out(rp *r, const rp_msg *m, unsigned i, const char *param, const void *got)
{
    size_t n = 0;
    const uint8_t *want = rp_arg_bytes(m, i, &n);
    if (!got || query_failed(r))
        return;
    if (want) {
        if (memcmp(want, got, n) != 0)
            mismatch(r, param, want, n, got, n, 0);
    } else if (i < m->n_args && m->args[i]->n_charvalue) { /* a string the driver wrote */
        const ProtobufCBinaryData *c = &m->args[i]->charvalue[0];
        size_t gn = strnlen(got, c->len + 1);
        if (gn != c->len || memcmp(c->data, got, c->len) != 0)
            mismatch(r, param, c->data, c->len, got, gn, 1);
    }
}

void rp_check_ret(rp *r, const rp_msg *m, uint64_t got, int is_float)
{
    const Gltrace__GLMessage__DataType *d = m->returnvalue;
    if (!d)
        return;
    uint64_t want;
    if (is_float && d->n_floatvalue) {
        uint32_t b;
        memcpy(&b, &d->floatvalue[0], 4);
        want = b;
    } else {
        want = d->n_boolvalue ? (uint64_t)(d->boolvalue[0] != 0) : rp_ret_u(m);
    }
    if (!is_float && d->n_intvalue)
        want = (uint64_t)(uint32_t)want, got = (uint64_t)(uint32_t)got; /* 32-bit values: no sign games */
    if (want != got) {
        int32_t w = (int32_t)want, g = (int32_t)got;
        mismatch(r, "return value", (const uint8_t *)&w, 4, (const uint8_t *)&g, 4, 0);
    }
}

void rp_check_ret_string(rp *r, const rp_msg *m, const char *got)
{
    const Gltrace__GLMessage__DataType *d = m->returnvalue;
    if (!d || !d->n_charvalue)
        return;
    const ProtobufCBinaryData *c = &d->charvalue[0];
    size_t gn = got ? strlen(got) : 0;
    if (!got || gn != c->len || memcmp(c->data, got, c->len) != 0)
        mismatch(r, "return value", c->data, c->len, (const uint8_t *)(got ? got : ""), gn, 1);
}

/* glGetError: the error replay's reads held back first, else the driver's. */
void rp_check_get_error(rp *r, const rp_msg *m)
{
    rp_ctx *c = &r->ctx[r->cur_ctx];
    GLenum e = c->held_error ? c->held_error : glGetError();
    c->held_error = 0;
    rp_check_ret(r, m, e, 0);
}
