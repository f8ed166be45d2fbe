/* rp_trim_calls.c: the calls a trim writes of its own at the end of its
 * setup, that set the state of the context current at the start (TRIM.md
 * step 11): that context's state as rp_state_calls.c reads it, written as
 * records in the trace's names. Each is also taken by the replay that
 * plans the trim (it sets what is there already), so that step 8
 * (rp_trim_sets.c) learns its key as it learns a recorded command's and
 * leaves out the setup's commands it replaces. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <GLES3/gl32.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h" /* GLES 1's names */

static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

int rp_trim_call_pack(const gt_api_fn *f, int32_t ctx, const double *a, int n, const uint8_t *bytes, size_t nbytes,
                      uint8_t **out, size_t *len)
{
    enum { MAX = 16 }; /* glCopyImageSubData's 15 */
    Gltrace__GLMessage__DataType dt[MAX], *dtp[MAX];
    int32_t iv[MAX];
    int64_t lv[MAX], addr = 0x1000;
    float fv[MAX];
    protobuf_c_boolean bv[MAX];
    union { float f[64]; int32_t i[64]; } arr;
    ProtobufCBinaryData bin = {0, (uint8_t *)&arr};
    if (f->nparams > MAX)
        return -1;
    for (unsigned i = 0; i < f->nparams; i++) {
        gltrace__glmessage__data_type__init(&dt[i]);
        dtp[i] = &dt[i];
        dt[i].type = gt_api_wire_type((gt_kind)f->params[i].kind);
        if (f->params[i].kind == GT_K_POINTER && bytes) {
            bin = (ProtobufCBinaryData){nbytes, (uint8_t *)bytes};
        } else if (f->params[i].kind == GT_K_POINTER) {
            int floats = strstr(f->params[i].ctype, "GLfloat") != NULL;
            if (n - (int)i > 64 || n < (int)i)
                return -1;
            for (int j = (int)i; j < n; j++)
                floats ? (void)(arr.f[j - (int)i] = (float)a[j]) : (void)(arr.i[j - (int)i] = (int32_t)(int64_t)a[j]);
            bin.len = (size_t)(n - (int)i) * 4;
        }
        if (f->params[i].kind == GT_K_POINTER) {
            dt[i].isarray = 1;
            dt[i].n_int64value = 1, dt[i].int64value = &addr;
            dt[i].n_rawbytes = 1, dt[i].rawbytes = &bin;
            continue;
        }
        double v = (int)i < n ? a[i] : 0;
        if (dt[i].type == 5)
            fv[i] = (float)v, dt[i].n_floatvalue = 1, dt[i].floatvalue = &fv[i];
        else if (dt[i].type == 6)
            bv[i] = v != 0, dt[i].n_boolvalue = 1, dt[i].boolvalue = &bv[i];
        else if (dt[i].type == 8)
            lv[i] = (int64_t)v, dt[i].n_int64value = 1, dt[i].int64value = &lv[i];
        else
            iv[i] = (int32_t)(int64_t)v, dt[i].n_intvalue = 1, dt[i].intvalue = &iv[i];
    }
    Gltrace__GLMessage m = GLTRACE__GLMESSAGE__INIT;
    m.context_id = ctx;
    m.function = f->number;
    m.has_alias = f->alias != 0, m.alias = f->alias;
    m.n_args = f->nparams, m.args = dtp;
    *len = gltrace__glmessage__get_packed_size(&m);
    *out = malloc(*len);
    if (!*out)
        return -1;
    gltrace__glmessage__pack(&m, *out);
    return 0;
}

static int add(rp_trim_plan *plan, uint8_t *bytes, size_t len, int kind, int on)
{
    struct rp_trim_calls *c = &plan->calls;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        struct rp_trim_call *v = realloc(c->v, cap * sizeof *v);
        if (!v)
            return -1;
        c->v = v, c->cap = cap;
    }
    c->v[c->n++] = (struct rp_trim_call){bytes, len, (uint8_t)kind, kind == RP_TRIM_CALL_FORCED, (uint8_t)on};
    return 0;
}

/* Call c in the trace's names: -1 when an object it names has none (the
 * name of an object the app deleted while it stayed bound). */
static int recorded_args(rp *r, const rp_map *rev, const gt_api_fn *f, const rp_state_call *c, double *a)
{
    memcpy(a, c->a, (size_t)c->n * sizeof *a);
    for (unsigned i = 0; i < f->nparams && (int)i < c->n; i++) {
        int cls = rp_class_of_state(f->params[i].obj_class);
        if (cls < 0 || f->params[i].kind == GT_K_POINTER || a[i] == 0)
            continue;
        uint32_t rec;
        if (rp_name_recorded_of(r, rev, cls, (uint32_t)a[i], &rec) != 0)
            return -1;
        a[i] = rec;
    }
    return 0;
}

/* A call prepared: packed, and unpacked for step 8. */
typedef struct prepared {
    uint8_t *bytes;
    size_t len;
    rp_msg *m;
    const char *fn; /* the call on the replay's names */
    const double *a;
    int n;
} prepared;

static void release(prepared *p)
{
    if (p->m)
        gltrace__glmessage__free_unpacked(p->m, NULL);
    free(p->bytes);
    *p = (prepared){0};
}

/* 1 prepared, 0 not writable (a name with no recorded one), -1 out of memory. */
static int prepare(rp *r, const rp_map *rev, const rp_state_call *c, prepared *p)
{
    const gt_api_fn *f = gt_api_find_name(c->fn);
    double a[64];
    *p = (prepared){0};
    if (!f || c->n > 64 || recorded_args(r, rev, f, c, a) != 0)
        return 0;
    if (rp_trim_call_pack(f, r->cur_ctx, a, c->n, NULL, 0, &p->bytes, &p->len) != 0 ||
        !(p->m = gltrace__glmessage__unpack(NULL, p->len, p->bytes))) {
        release(p);
        return -1;
    }
    p->fn = c->fn, p->a = c->a, p->n = c->n;
    return 1;
}

/* Adds a prepared call to the plan and to step 8's commands, after the
 * planning replay takes it (it sets what is there already). */
static int commit(rp *r, prepared *p, rp_trim_plan *plan, int kind, int on, rp_trim_calls_note *note, void *user)
{
    while (glGetError() != GL_NO_ERROR)
        ;
    if (gt_api_call(p->fn, (void *)eglGetProcAddress(p->fn), p->a, p->n) != 0 || glGetError() != GL_NO_ERROR) {
        release(p); /* the driver refused it: not written */
        return 0;
    }
    int rc = note(user, r, p->m, 1) == 0 && add(plan, p->bytes, p->len, kind, on) == 0 ? 0 : -1;
    if (rc == 0)
        p->bytes = NULL; /* the plan's now */
    release(p);
    return rc;
}

/* What the state's calls need current: the active texture unit (a
 * binding per unit, the texture matrix), GLES 1's matrix mode (a stack's
 * top), the identity as the modelview matrix (a light). The set line that
 * makes a unit or mode current is its selector's call, the load of the
 * identity the eye's; the block makes its own current as it goes (a
 * pick), and the start's unit and mode again at its end (back). The
 * modelview matrix is loaded back by its stack's top, a call of the
 * state that follows the lights. */
typedef struct selector {
    const char *fn;  /* the set line's function, NULL: the context has none */
    uint32_t base;   /* GL_TEXTURE0 for units */
    long cur, start; /* current in the block, at the start (eye: 1 the identity, 0 another matrix) */
    int bit;         /* RP_TRIM_ON_* */
} selector;

/* The selector's call making v current (the eye's: the identity, in its
 * matrix mode, which the picks before it made current). */
static rp_state_call selector_call(const selector *sel, long v, double *a)
{
    if (sel->bit == RP_TRIM_ON_EYE)
        return (rp_state_call){.fn = sel->fn, .a = identity, .n = 16, .unit = -1, .mode = GL_MODELVIEW};
    *a = sel->base + (double)v;
    return (rp_state_call){.fn = sel->fn, .a = a, .n = 1, .unit = -1};
}

/* Makes the planning replay's unit or mode v again after a call looked
 * at and not written (the eye's matrix changes only by its picks). */
static void drive(const selector *sel, long v)
{
    double a = sel->base + (double)v;
    if (sel->fn && sel->bit != RP_TRIM_ON_EYE)
        gt_api_call(sel->fn, (void *)eglGetProcAddress(sel->fn), &a, 1);
}

/* The call making `v` current, added (a pick, or back to the start's):
 * 1 added, 0 not (the driver refused it), -1 out of memory. */
static int pick(rp *r, const rp_map *rev, selector *sel, long v, int back, rp_trim_plan *plan,
                rp_trim_calls_note *note, void *user)
{
    double a;
    rp_state_call call = selector_call(sel, v, &a);
    prepared p;
    size_t had = plan->calls.n;
    int rc = prepare(r, rev, &call, &p);
    if (rc > 0)
        rc = commit(r, &p, plan, back ? RP_TRIM_CALL_BACK : RP_TRIM_CALL_PICK, sel->bit, note, user);
    if (rc < 0)
        return -1;
    if (plan->calls.n == had)
        return 0;
    sel->cur = v;
    return 1;
}

/* One call of the state: added when step 8 has its key set in the setup
 * (note asks), or when `force` (its state differs after the others), with
 * the picks it needs before it. The planning replay is left with the
 * block's unit and mode current. */
static int one(rp *r, const rp_map *rev, const rp_state_call *c, selector *sel, int force, rp_trim_plan *plan,
               rp_trim_calls_note *note, void *user)
{
    long need[3] = {c->unit >= 0 ? c->unit : sel[0].cur, c->mode ? (long)c->mode : sel[1].cur, 1};
    prepared p;
    drive(&sel[0], need[0]);
    drive(&sel[1], need[1]);
    while (glGetError() != GL_NO_ERROR)
        ; /* step 8 takes a GL error for a part the driver could not say */
    int rc = prepare(r, rev, c, &p), on = 0;
    if (rc > 0 && !force && !note(user, r, p.m, 0)) {
        release(&p);
        rc = 0;
    }
    for (int k = 0; k < 3 && rc > 0; k++) {
        int needs = k == 0 ? c->unit >= 0 : k == 1 ? c->mode != 0 : c->eye;
        on |= needs ? sel[k].bit : 0;
        int picked = needs && need[k] != sel[k].cur ? pick(r, rev, &sel[k], need[k], 0, plan, note, user) : 1;
        if (picked <= 0) {
            release(&p);
            return picked;
        }
    }
    int top = c->mode == GL_MODELVIEW && !c->eye; /* the modelview stack's top */
    if (rc > 0) {
        size_t had = plan->calls.n;
        on |= top && sel[2].cur != sel[2].start ? RP_TRIM_ON_EYE_BACK : 0;
        rc = commit(r, &p, plan, force ? RP_TRIM_CALL_FORCED : RP_TRIM_CALL_SET, on, note, user);
        if (plan->calls.n > had && top)
            sel[2].cur = !memcmp(c->a, identity, sizeof identity);
        return rc;
    }
    drive(&sel[0], sel[0].cur);
    drive(&sel[1], sel[1].cur);
    return rc;
}

void rp_trim_calls_needed(rp_trim_plan *plan)
{
    struct rp_trim_calls *c = &plan->calls;
    /* The eye's first: what it makes needed (the matrix loaded back) may need a unit or mode picked. */
    static const int bits[] = {RP_TRIM_ON_EYE, RP_TRIM_ON_UNIT, RP_TRIM_ON_MODE};
    for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++) {
        int bit = bits[b];
        size_t at = SIZE_MAX; /* the last pick of this selector */
        int any = 0;
        for (size_t i = 0; i < c->n; i++) {
            struct rp_trim_call *x = &c->v[i];
            if (x->kind == RP_TRIM_CALL_PICK && (x->on & bit))
                at = i;
            else if (x->kind == RP_TRIM_CALL_BACK && (x->on & bit))
                x->needed = any;
            else if (bit == RP_TRIM_ON_EYE && (x->on & RP_TRIM_ON_EYE_BACK))
                x->needed |= any; /* the matrix the pick of the identity replaced */
            else if (x->needed && (x->on & bit) && at != SIZE_MAX)
                c->v[at].needed = any = 1;
        }
    }
}

int rp_trim_calls_make(rp *r, uint64_t tid, rp_trim_plan *plan, rp_trim_calls_note *note, void *user)
{
    rp_state *s = rp_state_read(r, tid);
    if (!s)
        return 0; /* no context: the setup's commands stay */
    rp_map rev = {0};
    rp_names_reverse(r, &rev);
    selector sel[3] = {{NULL, GL_TEXTURE0, 0, 0, RP_TRIM_ON_UNIT}, {NULL, 0, 0, 0, RP_TRIM_ON_MODE},
                       {NULL, 0, 0, 0, RP_TRIM_ON_EYE}};
    rp_state_call c;
    size_t n = rp_state_ncalls(s);
    for (size_t i = 0; i < n; i++) {
        if (rp_state_call_at(s, i, &c) == 0 && (c.selects_unit || c.selects_mode)) {
            selector *x = &sel[c.selects_mode];
            x->fn = c.fn;
            x->cur = x->start = (long)c.a[0] - (long)x->base;
        } else if (rp_state_call_at(s, i, &c) == 0 && c.mode == GL_MODELVIEW && !c.eye) {
            sel[2].fn = c.fn; /* the load of the modelview stack's top */
            sel[2].cur = sel[2].start = !memcmp(c.a, identity, sizeof identity);
        }
    }
    plan->calls.ctx = r->cur_ctx, plan->calls.tid = tid;
    /* The calls, then those whose state differs after them (a range
     * binding binds the generic target too): at most three times. */
    int rc = 0;
    for (int pass = 0; pass < 3 && rc >= 0; pass++) {
        size_t before = plan->calls.n;
        for (size_t i = 0; i < n && rc >= 0; i++) {
            if (rp_state_call_at(s, i, &c) != 0 || c.selects_unit || c.selects_mode ||
                (c.unit >= 0 && !sel[0].fn) || (c.mode && !sel[1].fn) || (c.eye && !sel[2].fn))
                continue;
            if (pass) {
                int differs = rp_state_differs(s, i);
                drive(&sel[0], sel[0].cur);
                if (!differs)
                    continue;
            }
            rc = one(r, &rev, &c, sel, pass > 0, plan, note, user) < 0 ? -1 : 0;
        }
        if (pass && plan->calls.n == before)
            break;
    }
    for (int k = 0; k < 2 && rc >= 0; k++)
        if (sel[k].fn && sel[k].cur != sel[k].start && pick(r, &rev, &sel[k], sel[k].start, 1, plan, note, user) <= 0)
            rc = -2; /* the start's unit or mode not made current again */
    while (glGetError() != GL_NO_ERROR)
        ;
    rp_map_free(&rev);
    rp_state_free(s);
    return rc;
}
