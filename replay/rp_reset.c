/* rp_reset.c: `gltrace replay --loop` of a trimmed trace, reset by calls
 * written back rather than by replaying its setup again (TRIM.md,
 * "Loops"). At the start marker the state of the context current there is
 * read: every piece of api/state.tsv's `set` and `toggle` lines (the
 * resolved arguments of each line's call are its state), the uniforms of
 * every program of its share group, the vertex attributes of vertex array
 * 0, GLES 1's matrix stacks, and the pixels of its window. Before each
 * repeat, what differs is written back with those calls. What this cannot
 * write back (an object's contents, another context, an EGL object) is
 * found in the kept records as they are first replayed (rp_reset_note),
 * and those repeats rebuild instead. */
#include "rp_internal.h"
#include "rp_inspect_internal.h"

#include <GLES3/gl32.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h" /* GLES 1's names */
#include "gt_trace.h"

#define MAX_UNITS 32

typedef struct inst { /* one call of a setter: a line at one unit or index */
    uint16_t setter;
    int16_t unit, index; /* -1: none */
    uint8_t ok, n;       /* ok: read without a GL error, its condition met */
    double a[40];        /* its arguments */
} inst;

typedef struct unif { /* one uniform element of a program */
    GLuint prog;
    GLint loc;
    GLenum type;
    uint8_t n;
    double v[16];
} unif;

typedef struct attr { /* one vertex attribute of vertex array 0 */
    GLint on, size, type, norm, stride, buffer, divisor, integer;
    void *ptr;
    GLfloat cur[4];
} attr;

struct rp_reset {
    uint64_t tid;
    int32_t ctx;
    uint64_t draw, read; /* recorded surfaces */
    ik k;                /* the context's version and extensions */
    inst *v;
    size_t n, cap;
    unif *u;
    size_t nu, capu;
    attr at[32];
    int nattr;
    struct stack_top {   /* GLES 1: each matrix stack's depth and top (per unit: the texture stack) */
        const gt_api_stack *st;
        int unit;
        GLint depth;
        double top[16];
    } tops[3 * MAX_UNITS];
    int ntops;
    GLuint used[64];     /* the programs whose uniforms the kept calls set */
    int nused;           /* -1: more than used[] holds (all are written back) */
    uint8_t *px;         /* the draw surface's pixels */
    int w, h;
    char why[256];       /* why it cannot: "" while it can */
    uint64_t written;    /* calls written by the last rp_reset_write */
};

const char *rp_reset_why_not(const rp_reset *s)
{
    return s ? s->why : "out of memory";
}

static void cannot(rp_reset *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cannot(rp_reset *s, const char *fmt, ...)
{
    if (s->why[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
}

void rp_reset_cannot(rp_reset *s, const char *why)
{
    if (s)
        cannot(s, "%s", why);
}

/* ---------------------------------------------------------------- reading */

/* The driver's function api/state.tsv's `function` lines name for a use. */
static void *state_fn(const char *use, int is_float)
{
    for (size_t i = 0; i < gt_api_nstate_fns; i++)
        if (!strcmp(gt_api_state_fns[i].use, use))
            return (void *)eglGetProcAddress(is_float ? gt_api_state_fns[i].float_fn : gt_api_state_fns[i].int_fn);
    return NULL;
}

static const gt_api_state *row(uint32_t pname, int query)
{
    for (size_t i = 0; i < gt_api_nstates; i++)
        if (gt_api_states[i].pname == pname && gt_api_states[i].query == query)
            return &gt_api_states[i];
    return NULL;
}

static int units(const rp_reset *s)
{
    GLint n = 0;
    glGetIntegerv(s->k.ver < 20 ? GL_MAX_TEXTURE_UNITS : GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &n);
    return n < 0 ? 0 : n > MAX_UNITS ? MAX_UNITS : n;
}

static int refused(void)
{
    int bad = 0;
    while (glGetError() != GL_NO_ERROR)
        bad = 1;
    return bad;
}

/* The values of a `get` row, plain or at an index (-1: plain). */
static int get_values(const rp_reset *s, const gt_api_state *st, int index, double *v, int max)
{
    union { GLboolean b[64]; GLint i[64]; GLint64 l[64]; GLfloat f[64]; } u;
    memset(&u, 0, sizeof u);
    int n = st->values ? st->values : 1;
    if (n > max || n > 64)
        return -1;
    int wide = st->type == GT_STATE_INT64 && s->k.ver >= 30;
    if (index >= 0) {
        if (wide)
            glGetInteger64i_v(st->pname, (GLuint)index, u.l);
        else if (st->type == GT_STATE_BOOL && s->k.ver >= 31)
            glGetBooleani_v(st->pname, (GLuint)index, u.b);
        else
            glGetIntegeri_v(st->pname, (GLuint)index, u.i);
    } else if (st->type == GT_STATE_FLOAT) {
        glGetFloatv(st->pname, u.f);
    } else if (st->type == GT_STATE_BOOL) {
        glGetBooleanv(st->pname, u.b);
    } else if (wide) {
        glGetInteger64v(st->pname, u.l);
    } else {
        glGetIntegerv(st->pname, u.i);
    }
    int as_bool = st->type == GT_STATE_BOOL && (index < 0 || s->k.ver >= 31);
    for (int j = 0; j < n; j++)
        v[j] = as_bool ? u.b[j] : st->type == GT_STATE_FLOAT && index < 0 ? u.f[j] : wide ? (double)u.l[j]
               : st->type == GT_STATE_INT ? (double)u.i[j] : (double)(GLuint)u.i[j];
    return refused() ? -1 : n;
}

/* Resolves instance x's arguments from the context as it stands. */
static void read_inst(rp_reset *s, inst *x)
{
    const gt_api_setter *t = &gt_api_setters[x->setter];
    x->ok = 0, x->n = 0;
    if (x->unit >= 0)
        glActiveTexture(GL_TEXTURE0 + (GLenum)x->unit);
    if (t->when) {
        double c[64];
        if (get_values(s, row(t->when_pname, GT_STATE_GET), x->index, c, 64) < 1 || (c[0] == 0) != (t->when == 1))
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
            got = get_values(s, row(t->args[i].value, GT_STATE_GET), x->index, v, 64);
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

static int add_inst(rp_reset *s, size_t setter, int unit, int index)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        inst *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v, s->cap = cap;
    }
    s->v[s->n++] = (inst){.setter = (uint16_t)setter, .unit = (int16_t)unit, .index = (int16_t)index};
    return 0;
}

/* The calls a setter line makes on this context: none when it lacks one
 * of its pnames; per unit, per index or one. */
static int plan_setter(rp_reset *s, size_t i, int nunits)
{
    const gt_api_setter *t = &gt_api_setters[i];
    const gt_api_state *indexed = NULL;
    int per_unit = 0;
    if (!eglGetProcAddress(t->fn) || (t->when && !row(t->when_pname, GT_STATE_GET)))
        return 0;
    for (unsigned a = 0; a < t->nargs; a++) {
        int k = t->args[a].kind;
        per_unit |= k == GT_SET_UNIT || k == GT_SET_UNIT_ENUM;
        if (k != GT_SET_PNAME && k != GT_SET_PNAME_ALL)
            continue;
        const gt_api_state *st = row(t->args[a].value, GT_STATE_GET);
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
static int plan_toggle(rp_reset *s, size_t i, int nunits)
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

/* The `each` lines' instances: every row of their query the context has,
 * per unit for texture environments (GLES 1 only). */
static int plan_eaches(rp_reset *s, int nunits)
{
    for (size_t i = 0; s->k.ver < 20 && i < gt_api_neaches; i++) {
        const gt_api_each *e = &gt_api_eaches[i];
        for (size_t j = 0; j < gt_api_nstates; j++) {
            const gt_api_state *st = &gt_api_states[j];
            if (st->query != e->query || !ik_has(&s->k, st))
                continue;
            for (int u = 0; u < (e->query == GT_STATE_TEXENV ? nunits : 1); u++)
                if (add_inst(s, gt_api_nsetters + i, e->query == GT_STATE_TEXENV ? u : -1, (int)j) != 0)
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
    x->ok = !refused();
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
    void *get = state_fn(e->query == GT_STATE_TEXENV ? "texenv" : "material", is_float);
    x->ok = 0, x->n = 0;
    if (!get || n > 16)
        return;
    if (x->unit >= 0)
        glActiveTexture(GL_TEXTURE0 + (GLenum)x->unit);
    GLfloat f[16] = {0};
    GLint i[16] = {0};
    if (is_float)
        ((void (*)(GLenum, GLenum, GLfloat *))get)(e->of, st->pname, f);
    else
        ((void (*)(GLenum, GLenum, GLint *))get)(e->of, st->pname, i);
    x->a[0] = e->first, x->a[1] = st->pname;
    for (int j = 0; j < n; j++)
        x->a[2 + j] = is_float ? f[j] : i[j];
    x->n = (uint8_t)(2 + n);
    x->ok = !refused();
}

static void read_one(rp_reset *s, inst *x)
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

static void read_all(rp_reset *s, inst *v)
{
    GLint active = GL_TEXTURE0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (size_t i = 0; i < s->n; i++) {
        v[i] = s->v[i];
        if (v[i].unit < 0 && i && s->v[i - 1].unit >= 0)
            glActiveTexture((GLenum)active); /* what is not per unit is read with the context's unit active */
        read_one(s, &v[i]);
    }
    glActiveTexture((GLenum)active);
    refused();
}

/* ---------------------------------------------------------------- uniforms */

/* A uniform element's values into u (its base from api/state.tsv's
 * `uniform` lines; types not listed are one int). */
static void read_uniform(unif *u)
{
    char base = 'i';
    int n = 1;
    for (size_t i = 0; i < gt_api_nuniform_types; i++)
        if (gt_api_uniform_types[i].type == u->type)
            base = gt_api_uniform_types[i].base, n = gt_api_uniform_types[i].components;
    union { GLfloat f[16]; GLint i[16]; GLuint u[16]; } b;
    memset(&b, 0, sizeof b);
    if (base == 'f')
        glGetUniformfv(u->prog, u->loc, b.f);
    else if (base == 'u')
        glGetUniformuiv(u->prog, u->loc, b.u);
    else
        glGetUniformiv(u->prog, u->loc, b.i);
    for (int j = 0; j < n && j < 16; j++)
        u->v[j] = base == 'f' ? b.f[j] : base == 'u' ? (double)b.u[j] : b.i[j];
    u->n = (uint8_t)n;
}

static int add_uniform(rp_reset *s, GLuint prog, GLint loc, GLenum type)
{
    if (loc < 0)
        return 0;
    if (s->nu == s->capu) {
        size_t cap = s->capu ? s->capu * 2 : 256;
        unif *v = realloc(s->u, cap * sizeof *v);
        if (!v)
            return -1;
        s->u = v, s->capu = cap;
    }
    unif *u = &s->u[s->nu++];
    *u = (unif){.prog = prog, .loc = loc, .type = type};
    read_uniform(u);
    return 0;
}

/* Every uniform element (not in a block) of a linked program. */
static int take_program(rp_reset *s, GLuint prog)
{
    GLint linked = 0, count = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &count);
    if (refused() || !linked)
        return 0;
    for (GLint i = 0; i < count; i++) {
        char name[256];
        GLint size = 0, block = -1;
        GLenum type = 0;
        glGetActiveUniform(prog, (GLuint)i, sizeof name - 16, NULL, &size, &type, name);
        if (s->k.ver >= 30)
            glGetActiveUniformsiv(prog, 1, (const GLuint *)&i, GL_UNIFORM_BLOCK_INDEX, &block);
        if (refused() || block >= 0)
            continue;
        size_t len = strlen(name); /* an array's first element is named "x[0]" */
        if (len > 3 && !strcmp(name + len - 3, "[0]"))
            name[len - 3] = 0;
        for (GLint e = 0; e < size; e++) {
            char elem[300];
            snprintf(elem, sizeof elem, size > 1 ? "%s[%d]" : "%s", name, e);
            if (add_uniform(s, prog, glGetUniformLocation(prog, elem), type) != 0)
                return -1;
        }
    }
    refused();
    return 0;
}

/* The programs of the context's share group: replay's names of them. */
static int take_uniforms(rp_reset *s, rp *r)
{
    uint64_t owner = (uint64_t)r->ctx[s->ctx].group;
    for (size_t i = 0; i < r->names.cap; i++) {
        uint64_t key = r->names.keys[i];
        if (key && ((key >> 32) & 0xff) == RP_PROGRAM && ((key >> 40) & 0x7fffff) == owner &&
            glIsProgram((GLuint)r->names.vals[i]) && take_program(s, (GLuint)r->names.vals[i]) != 0)
            return -1;
    }
    return 0;
}

/* Whether the kept calls set uniforms of program prog (replay's name). */
static int uses(const rp_reset *s, GLuint prog)
{
    for (int i = 0; i < s->nused; i++)
        if (s->used[i] == prog)
            return 1;
    return s->nused < 0;
}

static void note_uniform(rp_reset *s, rp *r, const gt_api_fn *f, const rp_msg *m)
{
    GLint prog = 0;
    if (f->obj_where == GT_WHERE_CURRENT)
        glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    else
        prog = (GLint)rp_name(r, RP_PROGRAM, (uint32_t)rp_arg_u(m, f->obj_param));
    if (uses(s, (GLuint)prog))
        return;
    if (s->nused == (int)(sizeof s->used / sizeof s->used[0]))
        s->nused = -1;
    else
        s->used[s->nused++] = (GLuint)prog;
}

static uint64_t write_uniforms(rp_reset *s)
{
    uint64_t n = 0;
    GLint was = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &was);
    for (size_t i = 0; i < s->nu; i++) {
        if (!uses(s, s->u[i].prog))
            continue;
        unif now = s->u[i];
        read_uniform(&now);
        if (!memcmp(now.v, s->u[i].v, sizeof now.v))
            continue;
        const char *fn = gt_api_uniform_setter(now.type);
        const gt_api_fn *f = gt_api_find_name(fn);
        double a[19] = {now.loc, 1, 0}; /* location, count 1, (a matrix's) not transposed */
        int at = f && f->nparams == 4 ? 3 : 2; /* the values are its last parameter */
        memcpy(a + at, s->u[i].v, s->u[i].n * sizeof *a);
        glUseProgram(s->u[i].prog);
        n += gt_api_call(fn, (void *)eglGetProcAddress(fn), a, at + s->u[i].n) == 0;
    }
    glUseProgram((GLuint)was);
    return n;
}

/* ------------------------------------------------ vertex array 0, matrices */

/* Vertex array 0's attributes (a GLES 2 app's, set before each draw):
 * what glVertexAttribPointer, its enable and divisor and glVertexAttrib4fv
 * set. Asked with vertex array 0 bound, which the caller binds back. */
static void read_attribs(const rp_reset *s, attr *at, int n)
{
    for (int i = 0; i < n; i++) {
        attr *a = &at[i];
        memset(a, 0, sizeof *a);
        GLuint x = (GLuint)i;
        glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &a->on);
        glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_SIZE, &a->size);
        glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_TYPE, &a->type);
        glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &a->norm);
        glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &a->stride);
        glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &a->buffer);
        glGetVertexAttribPointerv(x, GL_VERTEX_ATTRIB_ARRAY_POINTER, &a->ptr);
        glGetVertexAttribfv(x, GL_CURRENT_VERTEX_ATTRIB, a->cur);
        if (s->k.ver >= 30) {
            glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &a->divisor);
            glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &a->integer);
        }
    }
    refused();
}

static int bind_array0(const rp_reset *s)
{
    GLint was = 0;
    if (s->k.ver >= 30) {
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &was);
        glBindVertexArray(0);
    }
    return was;
}

static uint64_t write_attribs(rp_reset *s)
{
    if (s->k.ver < 20)
        return 0;
    attr now[32];
    uint64_t n = 0;
    GLint was = bind_array0(s);
    read_attribs(s, now, s->nattr);
    for (int i = 0; i < s->nattr; i++) {
        const attr *a = &s->at[i];
        GLuint x = (GLuint)i;
        if (memcmp(&now[i].size, &a->size, offsetof(attr, cur) - offsetof(attr, size))) {
            glBindBuffer(GL_ARRAY_BUFFER, (GLuint)a->buffer);
            if (a->integer)
                glVertexAttribIPointer(x, a->size, (GLenum)a->type, a->stride, a->ptr);
            else
                glVertexAttribPointer(x, a->size, (GLenum)a->type, (GLboolean)a->norm, a->stride, a->ptr);
            if (s->k.ver >= 30)
                glVertexAttribDivisor(x, (GLuint)a->divisor), n++;
            n += 2;
        }
        if (now[i].on != a->on)
            (a->on ? glEnableVertexAttribArray : glDisableVertexAttribArray)(x), n++;
        if (memcmp(now[i].cur, a->cur, sizeof a->cur))
            glVertexAttrib4fv(x, a->cur), n++;
    }
    if (s->k.ver >= 30)
        glBindVertexArray((GLuint)was);
    return n;
}

typedef void (*fn_enum)(GLenum);
typedef void (*fn_matrix)(const GLfloat *);

/* GLES 1's matrix stacks: each one's depth and top (per texture unit for
 * the texture stack). A depth the repeats change cannot be written back
 * by loading a matrix: -1 then. write: load the tops that differ. The
 * active unit is left as it was. */
static int stacks(rp_reset *s, int write, uint64_t *calls)
{
    fn_enum mode = (fn_enum)state_fn("matrix-mode", 0);
    fn_matrix load = (fn_matrix)state_fn("load-matrix", 1);
    if (s->k.ver >= 20 || !mode || !load)
        return 0;
    GLint active = GL_TEXTURE0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    int nu = units(s), rc = 0, at = 0;
    for (size_t i = 0; i < gt_api_nstacks && rc == 0; i++) {
        const gt_api_stack *st = &gt_api_stacks[i];
        for (int u = 0; u < (st->per_unit ? nu : 1) && at < 3 * MAX_UNITS && rc == 0; u++, at++) {
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
                cannot(s, "the kept calls leave the %s matrix stack deeper or shallower than they found it",
                       st->name);
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
    refused();
    return rc;
}

/* ---------------------------------------------------------------- the reset */

/* The context's own state (api/state.tsv's set and toggle lines) of the
 * context current on tid, read. */
static rp_reset *take_context(rp *r, uint64_t tid)
{
    rp_reset *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->tid = tid;
    if (rp_make_current_for(r, tid) != 0) {
        cannot(s, "no context is current on the start's thread");
        return s;
    }
    rp_initial_flush(r);
    rp_hold_errors(r);
    s->ctx = r->cur_ctx, s->draw = r->mc_draw, s->read = r->mc_read;
    s->k.r = r;
    s->k.ver = ik_gles_version();
    s->k.exts = (const char *)glGetString(GL_EXTENSIONS);
    int nu = units(s);
    for (size_t i = 0; i < gt_api_nsetters; i++) {
        int rc = gt_api_setters[i].off_fn ? plan_toggle(s, i, nu) : plan_setter(s, i, nu);
        if (rc != 0) {
            cannot(s, "out of memory");
            return s;
        }
    }
    if (plan_eaches(s, nu) != 0) {
        cannot(s, "out of memory");
        return s;
    }
    read_all(s, s->v);
    uint64_t none = 0;
    stacks(s, 0, &none);
    return s;
}

rp_reset *rp_reset_take(rp *r, uint64_t tid)
{
    rp_reset *s = take_context(r, tid);
    if (!s || s->why[0])
        return s;
    if (take_uniforms(s, r) != 0)
        cannot(s, "out of memory");
    if (s->k.ver >= 20) {
        GLint n = 0, was;
        glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &n);
        s->nattr = n < 0 ? 0 : n > 32 ? 32 : n;
        was = bind_array0(s);
        read_attribs(s, s->at, s->nattr);
        if (s->k.ver >= 30)
            glBindVertexArray((GLuint)was);
    }
    if (s->draw && rp_initial_read(r, s->draw, &s->px, &s->w, &s->h) != 0)
        cannot(s, "the window's pixels at the start cannot be read");
    refused();
    return s;
}

/* ---------------------------------------------------------------- as calls */

rp_reset *rp_state_read(rp *r, uint64_t tid)
{
    rp_reset *s = take_context(r, tid);
    if (s && s->why[0]) {
        rp_reset_free(s);
        return NULL;
    }
    return s;
}

size_t rp_state_ncalls(const rp_reset *s)
{
    return (size_t)s->ntops + s->n;
}

/* Calls 0..ntops-1 load GLES 1's matrix stacks' tops (the stack's mode
 * made current first: rp_state_call.mode); the setters' calls follow. */
int rp_state_call_at(const rp_reset *s, size_t i, rp_state_call *c)
{
    *c = (rp_state_call){0};
    if (i < (size_t)s->ntops) {
        const struct stack_top *t = &s->tops[i];
        for (size_t j = 0; j < gt_api_nstate_fns; j++)
            if (!strcmp(gt_api_state_fns[j].use, "load-matrix"))
                c->fn = gt_api_state_fns[j].float_fn;
        c->a = t->top, c->n = 16, c->unit = t->unit, c->mode = t->st->mode;
        return c->fn ? 0 : -1;
    }
    i -= (size_t)s->ntops;
    const inst *x = &s->v[i];
    if (!x->ok)
        return -1;
    c->fn = inst_fn(x, &c->n);
    c->a = x->a;
    c->unit = x->unit;
    if (!each_of(x)) {
        const gt_api_setter *t = &gt_api_setters[x->setter];
        int one = t->nargs == 1 && t->args[0].kind == GT_SET_PNAME;
        c->selects_unit = one && t->args[0].value == GL_ACTIVE_TEXTURE;
        c->selects_mode = one && t->args[0].value == GL_MATRIX_MODE;
    }
    return 0;
}

int rp_state_differs(rp_reset *s, size_t i)
{
    if (i < (size_t)s->ntops) {
        const struct stack_top *t = &s->tops[i];
        GLfloat top[16] = {0};
        if (t->unit >= 0)
            glActiveTexture(GL_TEXTURE0 + (GLenum)t->unit);
        glGetFloatv(t->st->matrix, top);
        for (int j = 0; j < 16; j++)
            if (top[j] != (GLfloat)t->top[j])
                return 1;
        return 0;
    }
    i -= (size_t)s->ntops;
    inst now = s->v[i];
    read_one(s, &now);
    const inst *x = &s->v[i];
    return x->ok && (!now.ok || now.n != x->n || memcmp(now.a, x->a, x->n * sizeof *x->a) != 0);
}

/* Whether the object a command of a bound object changes is none: a
 * pixel read with no pixel pack buffer bound writes the app's memory. */
static int unbound(const gt_api_fn *f, const rp_msg *m)
{
    uint32_t target = f->obj_where == GT_WHERE_BOUND_TO ? f->obj_target
                      : f->obj_where == GT_WHERE_BOUND  ? (uint32_t)rp_arg_u(m, f->obj_param)
                                                        : 0;
    uint32_t binding = target ? gt_api_binding_of(target) : 0;
    GLint bound = 1;
    if (binding)
        glGetIntegerv(binding, &bound);
    return !refused() && bound == 0;
}

/* What a kept record does, after the first replay of it: anything but
 * the context's own state, a program's uniforms and draws into the
 * start's window makes a written reset impossible. */
void rp_reset_note(rp_reset *s, rp *r, const rp_msg *m, uint64_t tid, const rp_entry *e, uint64_t seq)
{
    if (s->why[0] || !e)
        return;
    const char *name = e->name;
    if (tid != s->tid) {
        cannot(s, "the kept calls run on more than one thread (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    if (m->function == GT_FN_MAPPED_DATA || m->function == GT_FN_CONTEXT) {
        cannot(s, "the kept calls write an object (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    if (e->how == RP_EGL) {
        if (e->cls == GT_CLASS_CURRENT && r->cur_ctx != s->ctx)
            cannot(s, "the kept calls make another context current (call %llu)", (unsigned long long)seq);
        else if (e->egl && e->cls != GT_CLASS_FRAME && e->cls != GT_CLASS_CURRENT && !GT_FN_IS_SYNTHETIC(m->function))
            cannot(s, "the kept calls make or end an EGL object (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f)
        return;
    int uniform = f->obj_role == GT_OBJ_CONTENTS && f->nstate &&
                  (f->obj_where == GT_WHERE_CURRENT || f->obj_class == GT_STATE_PROGRAM_NAME);
    if (uniform)
        note_uniform(s, r, f, m);
    GLint array = 0, fbo = 0;
    if (f->cls == GT_CLASS_ARRAYS && s->k.ver >= 30)
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &array);
    int arrays0 = f->cls == GT_CLASS_ARRAYS && array == 0;
    if (f->obj_role != GT_OBJ_NONE && f->obj_role != GT_OBJ_ASKS && !uniform && !arrays0 && !unbound(f, m)) {
        cannot(s, "the kept calls change an object (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    if (f->cls == GT_CLASS_DRAW || e->pixels == RP_PIXELS_CLEARS) {
        GLint prog = 0;
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fbo);
        glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
        if (fbo)
            cannot(s, "the kept calls draw into a framebuffer object (%s, call %llu)", name, (unsigned long long)seq);
        else if (f->cls == GT_CLASS_DRAW && rp_draw_side_effects(r, (GLuint)prog))
            cannot(s, "the kept calls draw into buffers or images (%s, call %llu)", name, (unsigned long long)seq);
    }
    refused();
}

/* Writes back what differs from the start; the calls written in
 * s->written. -1 (and why) when it cannot. */
int rp_reset_write(rp_reset *s, rp *r)
{
    s->written = 0;
    if (s->why[0])
        return -1;
    rp_thread *t = NULL;
    for (size_t i = 0; i < r->nthr; i++)
        if (r->thr[i].tid == s->tid)
            t = &r->thr[i];
    if (!t || t->ctx != s->ctx || t->draw != s->draw || t->read != s->read || rp_make_current_for(r, s->tid) != 0) {
        cannot(s, "the kept calls end with another context or surface current than at the start");
        return -1;
    }
    rp_hold_errors(r);
    if (s->px && rp_initial_hold(r, s->draw, s->px, s->w, s->h) == 0)
        s->written++;
    s->written += write_uniforms(s);
    s->written += write_attribs(s);
    if (stacks(s, 1, &s->written) != 0)
        return -1;
    inst *now = malloc(s->n * sizeof *now);
    if (!now) {
        cannot(s, "out of memory");
        return -1;
    }
    /* A call may change what another line reads (a binding of a range
     * binds the generic target too; a unit is made active): read again
     * till nothing differs. */
    for (int pass = 0; pass < 4; pass++) {
        read_all(s, now);
        int wrote = 0;
        for (size_t i = 0; i < s->n; i++) {
            const inst *x = &s->v[i];
            if (!x->ok || (now[i].ok && now[i].n == x->n && !memcmp(now[i].a, x->a, x->n * sizeof *x->a)))
                continue;
            int n = 0;
            const char *fn = inst_fn(x, &n);
            if (x->unit >= 0)
                glActiveTexture(GL_TEXTURE0 + (GLenum)x->unit);
            if (gt_api_call(fn, (void *)eglGetProcAddress(fn), x->a, n) == 0)
                wrote++;
        }
        s->written += (uint64_t)wrote;
        if (!wrote)
            break;
    }
    free(now);
    refused();
    return 0;
}

uint64_t rp_reset_calls(const rp_reset *s)
{
    return s->written;
}

void rp_reset_free(rp_reset *s)
{
    if (!s)
        return;
    free(s->v);
    free(s->u);
    free(s->px);
    free(s);
}
