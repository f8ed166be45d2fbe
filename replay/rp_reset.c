/* rp_reset.c: `gltrace replay --loop` of a trimmed trace, reset by calls
 * written back rather than by replaying its setup again (TRIM.md,
 * "Loops"). At the start marker the state of the context current there is
 * read: its own state as calls (rp_state_calls.c: api/state.tsv's `set`,
 * `toggle` and `each` lines, GLES 1's matrix stacks), the uniforms of
 * every program of its share group, the vertex attributes of vertex array
 * 0, and the pixels of its window. Before each
 * repeat, what differs is written back with those calls. The textures,
 * buffers and renderbuffers the kept calls change (GLES 3.2) are copied
 * before their first change and copied back (rp_reset_objects.c:
 * rp_reset_before saves what a kept record is about to change). What
 * this cannot write back (other objects, another context, an EGL object)
 * is found in the kept records as they are first replayed
 * (rp_reset_note), and those repeats rebuild instead. */
#include "rp_internal.h"
#include "rp_trim_internal.h" /* rp_trim_bound */

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
    rp_state *st;        /* the context's own state at the start (rp_state_calls.c) */
    int ver;             /* its GLES version as 11, 20, 30, 31, 32 */
    unif *u;
    size_t nu, capu;
    attr at[32];
    int nattr;
    GLuint used[64];     /* the programs whose uniforms the kept calls set */
    int nused;           /* -1: more than used[] holds (all are written back) */
    uint8_t *px;         /* the draw surface's pixels */
    int w, h;
    char why[256];       /* why it cannot: "" while it can */
    uint64_t written;    /* calls written by the last rp_reset_write */
    rp_shadows *sh;      /* the objects the kept calls change, copied before their first change */
    int saved;           /* rp_reset_before saved what the record about to be replayed changes */
    int mapped;          /* a buffer the kept calls mapped is saved and still mapped */
    rp_map made;         /* the objects made since the start (r->made_since) */
    struct vao_saved {   /* named vertex arrays the kept calls change */
        GLuint vao;
        attr at[32];
        GLint element;
    } vaos[16];
    size_t nvaos;
    uint64_t fences[16]; /* recorded fences made before the start that the kept calls delete */
    size_t nfences;
    int queries;         /* queries the kept calls began */
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
    if (rp_state_refused() || !linked)
        return 0;
    for (GLint i = 0; i < count; i++) {
        char name[256];
        GLint size = 0, block = -1;
        GLenum type = 0;
        glGetActiveUniform(prog, (GLuint)i, sizeof name - 16, NULL, &size, &type, name);
        if (s->ver >= 30)
            glGetActiveUniformsiv(prog, 1, (const GLuint *)&i, GL_UNIFORM_BLOCK_INDEX, &block);
        if (rp_state_refused() || block >= 0)
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
    rp_state_refused();
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
        if (s->ver >= 30) {
            glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &a->divisor);
            glGetVertexAttribiv(x, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &a->integer);
        }
    }
    rp_state_refused();
}

static GLint bind_array(const rp_reset *s, GLuint vao)
{
    GLint was = 0;
    if (s->ver >= 30) {
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &was);
        glBindVertexArray(vao);
    }
    return was;
}

/* Writes back the arrays of vertex array `vao` that differ from at[]
 * and, for a named one, its element buffer; cur: the attributes' current
 * values too (the context's, written with vertex array 0's). */
static uint64_t write_arrays(rp_reset *s, GLuint vao, const attr *at, GLint element, int cur)
{
    attr now[32];
    uint64_t n = 0;
    GLint was = bind_array(s, vao), el = 0;
    read_attribs(s, now, s->nattr);
    for (int i = 0; i < s->nattr; i++) {
        const attr *a = &at[i];
        GLuint x = (GLuint)i;
        if (memcmp(&now[i].size, &a->size, offsetof(attr, cur) - offsetof(attr, size))) {
            glBindBuffer(GL_ARRAY_BUFFER, (GLuint)a->buffer);
            if (a->integer)
                glVertexAttribIPointer(x, a->size, (GLenum)a->type, a->stride, a->ptr);
            else
                glVertexAttribPointer(x, a->size, (GLenum)a->type, (GLboolean)a->norm, a->stride, a->ptr);
            if (s->ver >= 30)
                glVertexAttribDivisor(x, (GLuint)a->divisor), n++;
            n += 2;
        }
        if (now[i].on != a->on)
            (a->on ? glEnableVertexAttribArray : glDisableVertexAttribArray)(x), n++;
        if (cur && memcmp(now[i].cur, a->cur, sizeof a->cur))
            glVertexAttrib4fv(x, a->cur), n++;
    }
    if (vao) {
        glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &el);
        if (el != element)
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, (GLuint)element), n++;
    }
    if (s->ver >= 30)
        glBindVertexArray((GLuint)was);
    return n;
}

static uint64_t write_attribs(rp_reset *s)
{
    uint64_t n = s->ver >= 20 ? write_arrays(s, 0, s->at, 0, 1) : 0;
    for (size_t i = 0; i < s->nvaos; i++)
        n += write_arrays(s, s->vaos[i].vao, s->vaos[i].at, s->vaos[i].element, 0);
    return n;
}

/* A named vertex array the kept calls change: its arrays and element
 * buffer as they were, read before the first change (bound for it). */
static int save_vao(rp_reset *s, GLuint vao)
{
    for (size_t i = 0; i < s->nvaos; i++)
        if (s->vaos[i].vao == vao)
            return 0;
    if (s->nvaos == sizeof s->vaos / sizeof s->vaos[0])
        return -1;
    struct vao_saved *v = &s->vaos[s->nvaos++];
    v->vao = vao;
    read_attribs(s, v->at, s->nattr);
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &v->element);
    return 0;
}

/* ---------------------------------------------------------------- the reset */

rp_reset *rp_reset_take(rp *r, uint64_t tid)
{
    rp_reset *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->tid = tid;
    s->sh = rp_shadows_new();
    s->st = rp_state_read(r, tid);
    if (!s->st) {
        cannot(s, "no context is current on the start's thread");
        return s;
    }
    s->ctx = r->cur_ctx, s->draw = r->mc_draw, s->read = r->mc_read;
    r->made_since = &s->made;
    s->ver = rp_state_version(s->st);
    rp_state_units_used(s->st);
    if (take_uniforms(s, r) != 0 || !s->sh)
        cannot(s, "out of memory");
    if (s->ver >= 20) {
        GLint n = 0, was;
        glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &n);
        s->nattr = n < 0 ? 0 : n > 32 ? 32 : n;
        was = bind_array(s, 0);
        read_attribs(s, s->at, s->nattr);
        if (s->ver >= 30)
            glBindVertexArray((GLuint)was);
    }
    if (s->draw && rp_initial_read(r, s->draw, &s->px, &s->w, &s->h) != 0)
        cannot(s, "the window's pixels at the start cannot be read");
    rp_state_refused();
    return s;
}

/* Whether the object a command of a bound object changes is none: a
 * pixel read with no pixel pack buffer bound writes the app's memory.
 * Only a buffer target binds nothing with 0 (texture 0 is the default
 * texture, an object of its own). */
static int unbound(const gt_api_fn *f, const rp_msg *m)
{
    uint32_t target = f->obj_where == GT_WHERE_BOUND_TO ? f->obj_target
                      : f->obj_where == GT_WHERE_BOUND  ? (uint32_t)rp_arg_u(m, f->obj_param)
                                                        : 0;
    uint32_t binding = target ? gt_api_binding_of(target) : 0;
    const gt_api_state *st = binding ? rp_state_row(binding, GT_STATE_GET) : NULL;
    int buffer = st && st->cls == GT_STATE_BUFFER_NAME;
    GLint bound = 1;
    if (buffer)
        glGetIntegerv(binding, &bound);
    return !rp_state_refused() && bound == 0;
}

/* ---------------------------------------------------------------- objects saved */

static int is_uniform(const gt_api_fn *f)
{
    return f->obj_role == GT_OBJ_CONTENTS && f->nstate &&
           (f->obj_where == GT_WHERE_CURRENT || f->obj_class == GT_STATE_PROGRAM_NAME);
}

/* The object a command changes through a binding: its class (RP_*), the
 * texture's target (a cube map's for a face) and the replay's name; -1
 * for none this can save. */
static int bound_object(const gt_api_fn *f, const rp_msg *m, int *cls, GLenum *target, GLuint *obj)
{
    uint32_t t = f->obj_where == GT_WHERE_BOUND_TO ? f->obj_target
                 : f->obj_where == GT_WHERE_BOUND  ? (uint32_t)rp_arg_u(m, f->obj_param)
                                                   : 0;
    int state_cls = 0;
    *obj = t ? rp_trim_bound(t, &state_cls) : 0;
    *cls = rp_class_of_state(state_cls);
    *target = t >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && t <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z ? GL_TEXTURE_CUBE_MAP : t;
    return (*cls != RP_TEXTURE && *cls != RP_BUFFER && *cls != RP_RENDERBUFFER) || rp_state_refused() ? -1 : 0;
}

/* The object a command writes besides its role (`writes`: a copy's
 * destination), as bound_object gives one: its target is what the
 * parameter that gives its class holds. */
static int written_object(rp *r, const gt_api_fn *f, const rp_msg *m, int *cls, GLenum *target, GLuint *obj)
{
    unsigned i = f->obj_writes - 1u, by = f->params[i].class_by;
    if (i >= m->n_args)
        return -1;
    *cls = rp_class_of_state(rp_param_class(f, m, i));
    *obj = *cls >= 0 ? rp_name(r, *cls, (uint32_t)rp_arg_u(m, i)) : 0;
    *target = by && by - 1u < m->n_args ? (GLenum)rp_arg_u(m, by - 1u) : 0;
    return *cls != RP_TEXTURE && *cls != RP_BUFFER && *cls != RP_RENDERBUFFER ? -1 : 0;
}

/* A fence made before the start that the kept calls delete: made again
 * before each repeat (rp_reset_write), under its recorded handle. */
static int refence(rp_reset *s, uint64_t recorded)
{
    for (size_t i = 0; i < s->nfences; i++)
        if (s->fences[i] == recorded)
            return 1;
    if (s->nfences == sizeof s->fences / sizeof s->fences[0])
        return 0;
    s->fences[s->nfences++] = recorded;
    return 1;
}

/* Whether a deletion leaves the start's objects be: every object it
 * names was made by the kept calls (a repeat makes it again), or is a
 * fence, made again before each repeat. */
static int deletes_made(rp_reset *s, rp *r, const gt_api_fn *f, const rp_msg *m)
{
    if (f->obj_class == GT_STATE_SYNC_NAME) {
        for (unsigned i = 0; i < f->nparams && i < m->n_args; i++)
            if (f->params[i].obj_class == GT_STATE_SYNC_NAME && !rp_name_made_since(r, -1, rp_arg_u(m, i)) &&
                !refence(s, rp_arg_u(m, i)))
                return 0;
        return 1;
    }
    int cls = rp_class_of_state(f->obj_class);
    size_t n = 0;
    rp_obj_param_name(f, m, 0, &n);
    for (size_t i = 0; i < n && cls >= 0; i++) {
        uint32_t rec = rp_obj_param_name(f, m, i, &n);
        if (rec && !rp_name_made_since(r, cls, rp_name(r, cls, rec)))
            return 0;
    }
    return cls >= 0;
}

/* The framebuffer object a command that pins something changes: the one
 * bound to its framebuffer target parameter (glFramebufferTexture2D); 0
 * none (a shader attached to a program, a buffer to a vertex array). */
static GLuint pinning_framebuffer(const gt_api_fn *f, const rp_msg *m)
{
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        int cls = 0;
        uint32_t fbo = f->params[i].kind == GT_K_ENUM ? rp_trim_bound((uint32_t)rp_arg_u(m, i), &cls) : 0;
        if (cls == GT_STATE_FRAMEBUFFER_NAME)
            return rp_state_refused() ? 0 : fbo;
    }
    return 0;
}

/* Whether every object a command names by a parameter (a program, a
 * shader, a query) was made by the kept calls: a repeat makes it again. */
static int params_made(rp *r, const gt_api_fn *f, const rp_msg *m)
{
    int any = 0;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        int cls = rp_class_of_state(rp_param_class(f, m, i));
        if (cls < 0 || f->params[i].kind == GT_K_POINTER)
            continue;
        uint32_t rec = (uint32_t)rp_arg_u(m, i);
        if (!rec || !rp_name_made_since(r, cls, rp_name(r, cls, rec)))
            return 0;
        any = 1;
    }
    return any;
}

/* A query the kept calls begin and end: what it holds after is what they
 * measured, each repeat anew (its end is the end of one they began). */
static int query_measured(rp_reset *s, const gt_api_fn *f)
{
    if (f->obj_role == GT_OBJ_CONTENTS && f->obj_where == GT_WHERE_PARAM && f->obj_class == GT_STATE_QUERY_NAME)
        return ++s->queries;
    return f->obj_where == GT_WHERE_ACTIVE && s->queries > 0;
}

/* Whether a command sets the state of the vertex array bound (an array
 * setter, an enable, a divisor, the element buffer): its `state` key
 * names the vertex array bound as a part. */
static int vertex_array_state(const gt_api_fn *f)
{
    if (f->cls == GT_CLASS_ARRAYS)
        return 1;
    for (unsigned i = 0; f->nstate && i < f->state[0].nparts && i < 3; i++)
        if (f->state[0].part[i].kind == GT_PART_GET && f->state[0].part[i].value == GL_VERTEX_ARRAY_BINDING)
            return 1;
    return 0;
}

/* Before a kept record's first replay: the texture, buffer or renderbuffer
 * it changes is saved (on a GLES 3.2 context: the copies need it), and
 * every attachment of the framebuffer object a draw, clear or blit draws
 * into. rp_reset_note then takes the record as one the reset writes back. */
void rp_reset_before(rp_reset *s, rp *r, const rp_msg *m, uint64_t tid, const rp_entry *e, uint64_t seq)
{
    s->saved = 0;
    if (s->why[0] || !e || e->how == RP_EGL || tid != s->tid || r->cur_ctx != s->ctx || s->ver < 30 ||
        GT_FN_IS_SYNTHETIC(m->function))
        return;
    int copies = s->ver >= 32; /* glCopyImageSubData: GLES 3.2 (glCopyBufferSubData: 3.0) */
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f)
        return;
    char why[200] = "";
    int cls, rc = 1;
    GLenum target;
    GLuint obj;
    int role = f->obj_role;
    GLuint holder = role == GT_OBJ_PINS ? pinning_framebuffer(f, m) : 0;
    if (role == GT_OBJ_DELETES)
        rc = deletes_made(s, r, f, m) ? 0 : 1;
    else if (role != GT_OBJ_NONE && (query_measured(s, f) || (f->obj_where == GT_WHERE_PARAM && params_made(r, f, m))))
        rc = 0;
    else if (holder)
        rc = rp_name_made_since(r, RP_FRAMEBUFFER, holder) ? 0
             : rp_shadows_save(s->sh, RP_FRAMEBUFFER, 0, holder, why, sizeof why);
    else if (f->obj_writes && written_object(r, f, m, &cls, &target, &obj) == 0 && obj)
        rc = rp_name_made_since(r, cls, obj) ? 0 : copies ? rp_shadows_save(s->sh, cls, target, obj, why, sizeof why) : 1;
    else if ((role == GT_OBJ_CONTENTS || role == GT_OBJ_MAPS || role == GT_OBJ_UNMAPS || role == GT_OBJ_FLUSHES) &&
             !is_uniform(f) && bound_object(f, m, &cls, &target, &obj) == 0 && obj)
        rc = rp_name_made_since(r, cls, obj) ? 0
             : copies || cls == RP_BUFFER    ? rp_shadows_save(s->sh, cls, target, obj, why, sizeof why)
                                             : 1;
    GLint vao = 0;
    if (s->ver >= 30 && vertex_array_state(f))
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    if (vao && !rp_name_made_since(r, RP_VERTEX_ARRAY, (GLuint)vao)) {
        if (save_vao(s, (GLuint)vao) == 0)
            rc = rc == 1 || rc == 0 ? 0 : rc;
        else
            snprintf(why, sizeof why, "the kept calls change more vertex arrays than are written back"), rc = -1;
    } else if (vao && rc == 1) {
        rc = 0; /* a vertex array the kept calls made */
    }
    GLint fbo = 0;
    if (rc != -1 && copies && (f->cls == GT_CLASS_DRAW || e->pixels != RP_PIXELS_NONE)) {
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
        int unhandled = rc == 1 && role != GT_OBJ_NONE && role != GT_OBJ_ASKS; /* an object change not written back */
        if (fbo)
            rc = rp_shadows_save_attachments(s->sh, why, sizeof why) != 0 ? -1 : unhandled;
    }
    rp_state_refused();
    if (rc == -1)
        cannot(s, "%s (%s, call %llu)", why, e->name, (unsigned long long)seq);
    s->saved = rc == 0;
}

/* The texture units the kept calls use are read again by each reset: the
 * one active after a record, and the one a state key names by a
 * parameter `unit` (glBindSampler). */
static void touch_units(rp_reset *s, const gt_api_fn *f, const rp_msg *m)
{
    GLint active = GL_TEXTURE0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    rp_state_unit_touched(s->st, active - GL_TEXTURE0);
    for (unsigned i = 0; f->nstate && i < f->state[0].nparts && i < 3; i++) {
        unsigned p = f->state[0].part[i].value;
        if (f->state[0].part[i].kind == GT_PART_PARAM && p < f->nparams && p < m->n_args &&
            !strcmp(f->params[p].name, "unit"))
            rp_state_unit_touched(s->st, (int)rp_arg_i(m, p));
    }
    rp_state_refused();
}

/* What a kept record does, after the first replay of it: anything but
 * the context's own state, a program's uniforms, draws into the start's
 * window and the objects rp_reset_before saved makes a written reset
 * impossible. */
void rp_reset_note(rp_reset *s, rp *r, const rp_msg *m, uint64_t tid, const rp_entry *e, uint64_t seq)
{
    int saved = s->saved;
    s->saved = 0;
    if (s->why[0] || !e)
        return;
    const char *name = e->name;
    if (tid != s->tid) {
        cannot(s, "the kept calls run on more than one thread (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    if (m->function == GT_FN_MAPPED_DATA && s->mapped)
        return; /* into a buffer saved when the kept calls mapped it */
    if (m->function == GT_FN_MAPPED_DATA || m->function == GT_FN_CONTEXT) {
        cannot(s, "the kept calls write an object (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    if (e->how == RP_EGL) {
        if (e->cls == GT_CLASS_CURRENT && r->cur_ctx != s->ctx)
            cannot(s, "the kept calls make another context current (call %llu)", (unsigned long long)seq);
        else if (e->egl && e->cls != GT_CLASS_FRAME && e->cls != GT_CLASS_CURRENT && e->cls != GT_CLASS_API &&
                 !GT_FN_IS_SYNTHETIC(m->function)) /* a client API binding makes nothing: replay binds GLES */
            cannot(s, "the kept calls make or end an EGL object (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f)
        return;
    touch_units(s, f, m);
    int uniform = is_uniform(f);
    if (saved && (f->obj_role == GT_OBJ_MAPS || f->obj_role == GT_OBJ_UNMAPS))
        s->mapped = f->obj_role == GT_OBJ_MAPS;
    if (uniform)
        note_uniform(s, r, f, m);
    GLint array = 0, fbo = 0;
    if (f->cls == GT_CLASS_ARRAYS && s->ver >= 30)
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &array);
    int arrays0 = f->cls == GT_CLASS_ARRAYS && array == 0;
    if (f->obj_role != GT_OBJ_NONE && f->obj_role != GT_OBJ_ASKS && !uniform && !arrays0 && !saved && !unbound(f, m)) {
        cannot(s, "the kept calls change an object (%s, call %llu)", name, (unsigned long long)seq);
        return;
    }
    if (f->cls == GT_CLASS_DRAW || e->pixels == RP_PIXELS_CLEARS) {
        GLint prog = 0;
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fbo);
        glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
        if (fbo && !saved)
            cannot(s, "the kept calls draw into a framebuffer object (%s, call %llu)", name, (unsigned long long)seq);
        else if (f->cls == GT_CLASS_DRAW && rp_draw_side_effects(r, (GLuint)prog))
            cannot(s, "the kept calls draw into buffers or images (%s, call %llu)", name, (unsigned long long)seq);
    }
    rp_state_refused();
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
    char copied[256] = "";
    if (rp_shadows_restore(s->sh, &s->written, copied, sizeof copied) != 0) {
        cannot(s, "%s", copied);
        return -1;
    }
    for (size_t i = 0; i < s->nfences; i++, s->written++)
        rp_handle_set(r, s->fences[i], (uint64_t)(uintptr_t)glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
    if (s->px && rp_initial_hold(r, s->draw, s->px, s->w, s->h) == 0)
        s->written++;
    s->written += write_uniforms(s);
    s->written += write_attribs(s);
    char why[256] = "";
    uint64_t calls = rp_state_restore(s->st, why, sizeof why);
    if (calls == UINT64_MAX) {
        cannot(s, "%s", why);
        return -1;
    }
    s->written += calls;
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
    rp_state_free(s->st);
    rp_shadows_free(s->sh);
    rp_map_free(&s->made);
    free(s->u);
    free(s->px);
    free(s);
}
