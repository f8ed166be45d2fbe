/* rp_state_calls.c: the state of a context as the calls that set it,
 * read through api/state.tsv: every piece its `set` lines name (the
 * resolved arguments of a line's call are that piece's state), the
 * capabilities (`toggle`), GLES 1's texture environments, material and
 * lights (`each`) and its matrix stacks' tops. A light's position and
 * direction are kept in eye coordinates: its calls come first, written
 * with the identity as the modelview matrix (rp_state_call.eye), before
 * the stacks' tops load the matrix back. --loop's written reset (rp_reset.c)
 * writes back what differs from a state read at the start
 * (rp_state_restore); trim writes the start's as records
 * (rp_trim_calls.c, through rp_state_call_at). */
#include "rp_internal.h"
#include "rp_inspect_internal.h"

#include <GLES3/gl32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h" /* GLES 1's names */

#define MAX_UNITS 256      /* texture units read (llvmpipe has 192 combined) */
#define MAX_STACK_UNITS 32 /* GLES 1 texture matrix stacks read */

typedef struct inst { /* one call of a setter: a line at one unit or index */
    uint16_t setter;
    int16_t unit, index; /* -1: none */
    int16_t sub;         /* an `each` of lights: the light's number */
    uint8_t ok, n;       /* ok: read without a GL error, its condition met */
    double a[40];        /* its arguments */
} inst;

struct rp_state {
    ik k;          /* the context's version and extensions */
    inst *v;       /* the calls of the set, toggle and each lines; the eye ones first */
    size_t n, cap, neye;
    struct stack_top { /* GLES 1: each matrix stack's depth and top (per unit: the texture stack) */
        const gt_api_stack *st;
        int unit;
        GLint depth;
        double top[16];
    } tops[3 * MAX_STACK_UNITS];
    int ntops;
    int nunits, live; /* units read at the start; those read again (rp_state_units_used) */
};

/* ---------------------------------------------------------------- reading */

const gt_api_state *rp_state_row(uint32_t pname, int query)
{
    for (size_t i = 0; i < gt_api_nstates; i++)
        if (gt_api_states[i].pname == pname && gt_api_states[i].query == query)
            return &gt_api_states[i];
    return NULL;
}

static int units(const rp_state *s)
{
    GLint n = 0;
    glGetIntegerv(s->k.ver < 20 ? GL_MAX_TEXTURE_UNITS : GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &n);
    return n < 0 ? 0 : n > MAX_UNITS ? MAX_UNITS : n;
}

int rp_state_refused(void)
{
    int bad = 0;
    while (glGetError() != GL_NO_ERROR)
        bad = 1;
    return bad;
}

/* The values of a `get` row, plain or at an index (-1: plain), as
 * `gltrace inspect` reads them: how many, or -1. */
static int get_values(rp_state *s, const gt_api_state *st, int index, double *v, int max)
{
    int n = st->values ? st->values : 1;
    if (n > max || n > 16)
        return -1;
    int bad = index >= 0 ? ik_get_indexed(&s->k, st, (GLuint)index, v, n) : ik_get_plain(&s->k, st, NULL, v, n);
    return bad ? -1 : n;
}

/* Resolves instance x's arguments from the context as it stands. */
static void read_inst(rp_state *s, inst *x)
{
    const gt_api_setter *t = &gt_api_setters[x->setter];
    x->ok = 0, x->n = 0;
    if (x->unit >= 0)
        glActiveTexture(GL_TEXTURE0 + (GLenum)x->unit);
    if (t->when) {
        double c[64];
        const gt_api_state *cond = rp_state_row(t->when_pname, GT_STATE_GET);
        if (get_values(s, cond, x->index, c, 64) < 1 || (c[0] == 0) != (t->when == 1))
            return;
    }
    for (unsigned i = 0; i < t->nargs; i++) {
        double v[64];
        int got = 1;
        switch (t->args[i].kind) {
        case GT_SET_ENUM: v[0] = t->args[i].value; break;
        case GT_SET_INDEX: v[0] = x->index; break;
        case GT_SET_UNIT: v[0] = x->unit; break;
        case GT_SET_UNIT_ENUM: v[0] = GL_TEXTURE0 + x->unit; break;
        default:
            got = get_values(s, rp_state_row(t->args[i].value, GT_STATE_GET), x->index, v, 64);
            if (got <= t->args[i].component)
                return;
            if (t->args[i].kind == GT_SET_PNAME)
                v[0] = v[t->args[i].component], got = 1;
        }
        if (x->n + got > (int)(sizeof x->a / sizeof x->a[0]))
            return;
        memcpy(x->a + x->n, v, (size_t)got * sizeof *v);
        x->n = (uint8_t)(x->n + got);
    }
    x->ok = 1;
}

static int add_inst_of(rp_state *s, size_t setter, int unit, int index, int sub)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        inst *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v, s->cap = cap;
    }
    s->v[s->n++] = (inst){.setter = (uint16_t)setter, .unit = (int16_t)unit, .index = (int16_t)index,
                          .sub = (int16_t)sub};
    return 0;
}

static int add_inst(rp_state *s, size_t setter, int unit, int index)
{
    return add_inst_of(s, setter, unit, index, 0);
}

/* The calls a setter line makes on this context: none when it lacks one
 * of its pnames; per unit, per index or one. */
static int plan_setter(rp_state *s, size_t i, int nunits)
{
    const gt_api_setter *t = &gt_api_setters[i];
    const gt_api_state *indexed = NULL;
    int per_unit = 0;
    if (!eglGetProcAddress(t->fn) || (t->when && !rp_state_row(t->when_pname, GT_STATE_GET)))
        return 0;
    for (unsigned a = 0; a < t->nargs; a++) {
        int k = t->args[a].kind;
        per_unit |= k == GT_SET_UNIT || k == GT_SET_UNIT_ENUM;
        if (k != GT_SET_PNAME && k != GT_SET_PNAME_ALL)
            continue;
        const gt_api_state *st = rp_state_row(t->args[a].value, GT_STATE_GET);
        if (!st || !ik_has(&s->k, st))
            return 0;
        per_unit |= st->scope == GT_STATE_UNIT;
        if (!indexed && (st->index_count || st->index_bound))
            indexed = st;
    }
    int has_index = 0;
    for (unsigned a = 0; a < t->nargs; a++)
        has_index |= t->args[a].kind == GT_SET_INDEX;
    if (has_index) {
        GLint count = indexed ? indexed->index_count : 0;
        if (indexed && indexed->index_bound)
            glGetIntegerv(indexed->index_bound, &count);
        for (GLint x = 0; x < count && x < 64; x++)
            if (add_inst(s, i, -1, x) != 0)
                return -1;
        return 0;
    }
    if (!per_unit)
        return add_inst(s, i, -1, -1);
    for (int u = 0; u < nunits; u++)
        if (add_inst(s, i, u, -1) != 0)
            return -1;
    return 0;
}

/* A toggle's instances: every capability of the `enabled` query the
 * context has, per unit for those of scope unit. Their a[0] is the
 * capability, a[1] whether it is on. */
static int plan_toggle(rp_state *s, size_t i, int nunits)
{
    for (size_t j = 0; j < gt_api_nstates; j++) {
        const gt_api_state *st = &gt_api_states[j];
        if (st->query != GT_STATE_ENABLED || !ik_has(&s->k, st) || st->scope == GT_STATE_CLIENT_UNIT)
            continue;
        for (int u = 0; u < (st->scope == GT_STATE_UNIT ? nunits : 1); u++) {
            if (add_inst(s, i, st->scope == GT_STATE_UNIT ? u : -1, (int)j) != 0)
                return -1;
        }
    }
    return 0;
}

/* The `each` lines' instances (GLES 1 only) of those whose eye is `eye`:
 * every row of their query the context has, per unit for texture
 * environments, per light for lights. */
static int plan_eaches(rp_state *s, int nunits, int eye)
{
    GLint nlights = 0;
    if (s->k.ver < 20)
        glGetIntegerv(GL_MAX_LIGHTS, &nlights);
    nlights = nlights < 0 ? 0 : nlights > 32 ? 32 : nlights; /* as `gltrace inspect` reads them */
    for (size_t i = 0; s->k.ver < 20 && i < gt_api_neaches; i++) {
        const gt_api_each *e = &gt_api_eaches[i];
        int per_unit = e->query == GT_STATE_TEXENV;
        int count = per_unit ? nunits : e->query == GT_STATE_LIGHT ? nlights : 1;
        if (!e->eye != !eye)
            continue;
        for (size_t j = 0; j < gt_api_nstates; j++) {
            const gt_api_state *st = &gt_api_states[j];
            if (st->query != e->query || !ik_has(&s->k, st))
                continue;
            for (int u = 0; u < count; u++)
                if (add_inst_of(s, gt_api_nsetters + i, per_unit ? u : -1, (int)j, per_unit ? 0 : u) != 0)
                    return -1;
        }
    }
    return 0;
}

static void read_toggle(inst *x)
{
    if (x->unit >= 0)
        glActiveTexture(GL_TEXTURE0 + (GLenum)x->unit);
    x->a[0] = gt_api_states[x->index].pname;
    x->a[1] = glIsEnabled(gt_api_states[x->index].pname);
    x->n = 2; /* the call takes a[0] */
    x->ok = !rp_state_refused();
}

/* A GLES 1 query's row written back (an `each` line, setter past the
 * set lines): a[0] the line's first argument, a[1] the pname, then its
 * values, read of the line's `of` (per unit for texture environments). */
static const gt_api_each *each_of(const inst *x)
{
    return x->setter >= gt_api_nsetters ? &gt_api_eaches[x->setter - gt_api_nsetters] : NULL;
}

static void read_each(inst *x)
{
    const gt_api_each *e = each_of(x);
    const gt_api_state *st = &gt_api_states[x->index];
    int n = st->values ? st->values : 1, is_float = st->type == GT_STATE_FLOAT;
    const char *use = e->query == GT_STATE_TEXENV ? "texenv" : e->query == GT_STATE_LIGHT ? "light" : "material";
    void *get = ik_state_fn(use, is_float);
    x->ok = 0, x->n = 0;
    if (!get || n > 16)
        return;
    if (x->unit >= 0)
        glActiveTexture(GL_TEXTURE0 + (GLenum)x->unit);
    GLfloat f[16] = {0};
    GLint i[16] = {0};
    if (is_float)
        ((void (*)(GLenum, GLenum, GLfloat *))get)(e->of + (GLenum)x->sub, st->pname, f);
    else
        ((void (*)(GLenum, GLenum, GLint *))get)(e->of + (GLenum)x->sub, st->pname, i);
    x->a[0] = e->first + (double)x->sub, x->a[1] = st->pname;
    for (int j = 0; j < n; j++)
        x->a[2 + j] = is_float ? f[j] : i[j];
    x->n = (uint8_t)(2 + n);
    x->ok = !rp_state_refused();
}

static void read_one(rp_state *s, inst *x)
{
    if (each_of(x))
        read_each(x);
    else if (gt_api_setters[x->setter].off_fn)
        read_toggle(x);
    else
        read_inst(s, x);
}

/* Instance x's call: its function, and *n its arguments. */
static const char *inst_fn(const inst *x, int *n)
{
    const gt_api_each *e = each_of(x);
    if (e) {
        *n = x->n;
        return gt_api_states[x->index].type == GT_STATE_FLOAT ? e->float_fn : e->int_fn;
    }
    const gt_api_setter *t = &gt_api_setters[x->setter];
    *n = t->off_fn ? 1 : x->n;
    return t->off_fn && !x->a[1] ? t->off_fn : t->fn;
}

/* Whether the values instance x read from pnames are all 0: a unit's
 * bindings as a context starts. GLES 1's per-unit state (texture
 * environments, coordinates, capabilities) counts as set. */
static int is_default(const inst *x)
{
    if (!x->ok)
        return 1;
    if (each_of(x) || gt_api_setters[x->setter].off_fn)
        return 0;
    const gt_api_setter *t = &gt_api_setters[x->setter];
    int at = 0, fixed = 0;
    for (unsigned i = 0; i < t->nargs; i++)
        fixed += t->args[i].kind != GT_SET_PNAME_ALL;
    for (unsigned i = 0; i < t->nargs; i++) {
        int k = t->args[i].kind, got = k == GT_SET_PNAME_ALL ? x->n - fixed : 1;
        for (int j = 0; j < got && at < x->n; j++, at++)
            if ((k == GT_SET_PNAME || k == GT_SET_PNAME_ALL) && x->a[at] != 0)
                return 0;
    }
    return 1;
}

static void read_all(rp_state *s, inst *v)
{
    GLint active = GL_TEXTURE0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (size_t i = 0; i < s->n; i++) {
        v[i] = s->v[i];
        if (v[i].unit >= s->live)
            continue; /* a unit nothing has bound anything at since the start: as it was */
        if (v[i].unit < 0 && i && s->v[i - 1].unit >= 0)
            glActiveTexture((GLenum)active); /* what is not per unit is read with the context's unit active */
        read_one(s, &v[i]);
    }
    glActiveTexture((GLenum)active);
    rp_state_refused();
}

typedef void (*fn_enum)(GLenum);
typedef void (*fn_matrix)(const GLfloat *);

/* GLES 1's matrix stacks: each one's depth and top (per texture unit for
 * the texture stack). write: load the tops that differ; a depth that
 * differs cannot be written back by loading a matrix: -1 then, and *why
 * names the stack. The active unit is left as it was. */
static int stacks(rp_state *s, int write, uint64_t *calls, const char **why)
{
    fn_enum mode = (fn_enum)ik_state_fn("matrix-mode", 0);
    fn_matrix load = (fn_matrix)ik_state_fn("load-matrix", 1);
    if (s->k.ver >= 20 || !mode || !load)
        return 0;
    GLint active = GL_TEXTURE0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    int nu = units(s), rc = 0, at = 0;
    nu = nu > MAX_STACK_UNITS ? MAX_STACK_UNITS : nu;
    for (size_t i = 0; i < gt_api_nstacks && rc == 0; i++) {
        const gt_api_stack *st = &gt_api_stacks[i];
        for (int u = 0; u < (st->per_unit ? nu : 1) && at < 3 * MAX_STACK_UNITS && rc == 0; u++, at++) {
            struct stack_top now = {st, st->per_unit ? u : -1, 0, {0}};
            GLfloat top[16] = {0};
            glActiveTexture(GL_TEXTURE0 + (GLenum)u);
            glGetIntegerv(st->depth, &now.depth);
            glGetFloatv(st->matrix, top);
            for (int j = 0; j < 16; j++)
                now.top[j] = top[j];
            if (!write) {
                s->tops[s->ntops++] = now;
            } else if (now.depth != s->tops[at].depth) {
                *why = st->name;
                rc = -1;
            } else if (memcmp(now.top, s->tops[at].top, sizeof now.top)) {
                for (int j = 0; j < 16; j++)
                    top[j] = (GLfloat)s->tops[at].top[j];
                mode(st->mode);
                load(top);
                *calls += 2;
            }
        }
    }
    glActiveTexture((GLenum)active);
    rp_state_refused();
    return rc;
}

/* ---------------------------------------------------------------- the state */

rp_state *rp_state_read(rp *r, uint64_t tid)
{
    if (rp_make_current_for(r, tid) != 0)
        return NULL;
    rp_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    rp_initial_flush(r);
    rp_hold_errors(r);
    s->k.r = r;
    s->k.ver = ik_gles_version();
    s->k.exts = (const char *)glGetString(GL_EXTENSIONS);
    int nu = units(s), rc = plan_eaches(s, nu, 1);
    s->neye = s->n;
    for (size_t i = 0; i < gt_api_nsetters && rc == 0; i++)
        rc = gt_api_setters[i].off_fn ? plan_toggle(s, i, nu) : plan_setter(s, i, nu);
    if (rc != 0 || plan_eaches(s, nu, 0) != 0) {
        rp_state_free(s);
        return NULL;
    }
    s->nunits = s->live = nu;
    read_all(s, s->v);
    uint64_t none = 0;
    const char *why = NULL;
    stacks(s, 0, &none, &why);
    return s;
}

/* The units read again from now on: those with anything bound at the
 * start (a context has 192 on llvmpipe; an app uses a few), and those
 * rp_state_unit_touched adds. */
void rp_state_units_used(rp_state *s)
{
    s->live = 1;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].unit >= s->live && !is_default(&s->v[i]))
            s->live = s->v[i].unit + 1;
}

/* A unit the kept calls made active: read again from now on. */
void rp_state_unit_touched(rp_state *s, int unit)
{
    if (unit >= s->live)
        s->live = unit < s->nunits ? unit + 1 : s->nunits;
}

int rp_state_version(const rp_state *s)
{
    return s->k.ver;
}

void rp_state_free(rp_state *s)
{
    if (s)
        free(s->v);
    free(s);
}

size_t rp_state_ncalls(const rp_state *s)
{
    return (size_t)s->ntops + s->n;
}

/* Which call i is: an instance (*x, its index in v), or a stack top (*t). */
static void locate(const rp_state *s, size_t i, size_t *x, const struct stack_top **t)
{
    *t = NULL;
    if (i < s->neye) {
        *x = i;
    } else if (i < s->neye + (size_t)s->ntops) {
        *t = &s->tops[i - s->neye];
    } else {
        *x = i - (size_t)s->ntops;
    }
}

/* The calls in order: those of eye coordinates (GLES 1's lights, written
 * with the identity as the modelview matrix: rp_state_call.eye), the
 * loads of GLES 1's matrix stacks' tops (the stack's mode made current
 * first: rp_state_call.mode), then the other setters' calls. */
int rp_state_call_at(const rp_state *s, size_t i, rp_state_call *c)
{
    const struct stack_top *t;
    *c = (rp_state_call){0};
    locate(s, i, &i, &t);
    if (t) {
        for (size_t j = 0; j < gt_api_nstate_fns; j++)
            if (!strcmp(gt_api_state_fns[j].use, "load-matrix"))
                c->fn = gt_api_state_fns[j].float_fn;
        c->a = t->top, c->n = 16, c->unit = t->unit, c->mode = t->st->mode;
        return c->fn ? 0 : -1;
    }
    const inst *x = &s->v[i];
    if (!x->ok)
        return -1;
    c->fn = inst_fn(x, &c->n);
    c->a = x->a;
    c->unit = x->unit;
    c->eye = i < s->neye;
    c->mode = c->eye ? GL_MODELVIEW : 0;
    if (!each_of(x)) {
        const gt_api_setter *t = &gt_api_setters[x->setter];
        int one = t->nargs == 1 && t->args[0].kind == GT_SET_PNAME;
        c->selects_unit = one && t->args[0].value == GL_ACTIVE_TEXTURE;
        c->selects_mode = one && t->args[0].value == GL_MATRIX_MODE;
    }
    return 0;
}

int rp_state_differs(rp_state *s, size_t i)
{
    const struct stack_top *t;
    locate(s, i, &i, &t);
    if (t) {
        GLfloat top[16] = {0};
        if (t->unit >= 0)
            glActiveTexture(GL_TEXTURE0 + (GLenum)t->unit);
        glGetFloatv(t->st->matrix, top);
        for (int j = 0; j < 16; j++)
            if (top[j] != (GLfloat)t->top[j])
                return 1;
        return 0;
    }
    inst now = s->v[i];
    read_one(s, &now);
    const inst *x = &s->v[i];
    return x->ok && (!now.ok || now.n != x->n || memcmp(now.a, x->a, x->n * sizeof *x->a) != 0);
}

/* Writes back the eye instances that differ (GLES 1's lights) with the
 * identity as the modelview matrix; the stacks' tops are loaded back
 * after. How many calls. */
static uint64_t restore_eye(rp_state *s)
{
    fn_enum mode = (fn_enum)ik_state_fn("matrix-mode", 0);
    fn_matrix load = (fn_matrix)ik_state_fn("load-matrix", 1);
    static const GLfloat identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    uint64_t calls = 0;
    for (size_t i = 0; i < s->neye && mode && load; i++) {
        inst now = s->v[i];
        read_one(s, &now);
        const inst *x = &s->v[i];
        if (!x->ok || (now.ok && now.n == x->n && !memcmp(now.a, x->a, x->n * sizeof *x->a)))
            continue;
        if (!calls) {
            mode(GL_MODELVIEW);
            load(identity);
            calls += 2;
        }
        int k = 0;
        const char *fn = inst_fn(x, &k);
        calls += gt_api_call(fn, (void *)eglGetProcAddress(fn), x->a, k) == 0;
    }
    return calls;
}

uint64_t rp_state_restore(rp_state *s, char *why, size_t n)
{
    uint64_t calls = restore_eye(s);
    const char *stack = NULL;
    if (stacks(s, 1, &calls, &stack) != 0) {
        snprintf(why, n, "the kept calls leave the %s matrix stack deeper or shallower than they found it", stack);
        return UINT64_MAX;
    }
    inst *now = malloc(s->n * sizeof *now);
    if (!now) {
        snprintf(why, n, "out of memory");
        return UINT64_MAX;
    }
    /* A call may change what another line reads (a binding of a range
     * binds the generic target too; a unit is made active): read again
     * till nothing differs. */
    for (int pass = 0; pass < 4; pass++) {
        read_all(s, now);
        int wrote = 0;
        for (size_t i = s->neye; i < s->n; i++) {
            const inst *x = &s->v[i];
            if (!x->ok || (now[i].ok && now[i].n == x->n && !memcmp(now[i].a, x->a, x->n * sizeof *x->a)))
                continue;
            int k = 0;
            const char *fn = inst_fn(x, &k);
            if (x->unit >= 0)
                glActiveTexture(GL_TEXTURE0 + (GLenum)x->unit);
            if (gt_api_call(fn, (void *)eglGetProcAddress(fn), x->a, k) == 0)
                wrote++;
        }
        calls += (uint64_t)wrote;
        if (!wrote)
            break;
    }
    free(now);
    rp_state_refused();
    return calls;
}
