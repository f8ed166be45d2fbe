/* rp_inspect_state.c: the context's own state, every row of the generated
 * table (api/state.tsv) the context has: glGet* and glIsEnabled on the
 * context, per index (glGet*i_v), per texture unit, and GLES 1's lights,
 * materials, texture environments, client texture units, client array
 * pointers and every entry of the matrix stacks. */
#include "rp_inspect_internal.h"

#include <GLES3/gl32.h>
#include <string.h>

#include "gt_api_get.h"
#include "gt_enums.h"

typedef void (*gles1_getfv)(GLenum, GLenum, GLfloat *);
typedef void (*gles1_getiv)(GLenum, GLenum, GLint *);
typedef void (*gles1_select)(GLenum);
typedef void (*gles1_void)(void);
typedef void (*gles1_load)(const GLfloat *);
typedef void (*gles1_pointer)(GLenum, void **);

/* After a query: -1 (and the row left out) when the driver refused it. */
static int refused(void)
{
    int bad = 0;
    while (glGetError() != GL_NO_ERROR)
        bad = 1;
    return bad ? -1 : 0;
}

int ik_get_plain(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)arg;
    union { GLboolean b[256]; GLint i[256]; GLint64 l[256]; GLfloat f[256]; } u;
    memset(&u, 0, sizeof u);
    if (s->type == GT_STATE_BOOL)
        glGetBooleanv(s->pname, u.b);
    else if (s->type == GT_STATE_FLOAT)
        glGetFloatv(s->pname, u.f);
    else if (s->type == GT_STATE_INT64 && k->ver >= 30)
        glGetInteger64v(s->pname, u.l);
    else
        glGetIntegerv(s->pname, u.i);
    for (int j = 0; j < n; j++)
        v[j] = s->type == GT_STATE_BOOL    ? u.b[j]
               : s->type == GT_STATE_FLOAT ? u.f[j]
               : s->type == GT_STATE_INT64 && k->ver >= 30 ? (double)u.l[j]
               : s->type == GT_STATE_INT || s->type == GT_STATE_FLOAT ? (double)u.i[j]
                                                                    : (double)(GLuint)u.i[j];
    if (s->window_buffer && n == 1 && v[0] == GL_FRONT)
        v[0] = GL_BACK; /* api/state.tsv `window-buffer` */
    return refused();
}

static int get_enabled(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k, (void)arg, (void)n;
    v[0] = glIsEnabled(s->pname);
    return refused();
}

/* The driver's function for a use of api/state.tsv's `function` lines. */
void *ik_state_fn(const char *use, int is_float)
{
    for (size_t i = 0; i < gt_api_nstate_fns; i++)
        if (!strcmp(gt_api_state_fns[i].use, use))
            return (void *)eglGetProcAddress(is_float ? gt_api_state_fns[i].float_fn : gt_api_state_fns[i].int_fn);
    return NULL;
}

/* GLES 1 queries of a light, face or texture environment (arg: its GLenum). */
static int get_gles1(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    const char *use = s->query == GT_STATE_LIGHT ? "light" : s->query == GT_STATE_MATERIAL ? "material" : "texenv";
    void *p = ik_state_fn(use, s->type == GT_STATE_FLOAT);
    (void)k;
    if (!p || n > 16)
        return -1;
    GLenum of = *(const GLenum *)arg;
    if (s->type == GT_STATE_FLOAT) {
        GLfloat f[16] = {0};
        ((gles1_getfv)p)(of, s->pname, f);
        for (int j = 0; j < n; j++)
            v[j] = f[j];
    } else {
        GLint i[16] = {0};
        ((gles1_getiv)p)(of, s->pname, i);
        for (int j = 0; j < n; j++)
            v[j] = (GLuint)i[j];
    }
    return refused();
}

int ik_get_indexed(ik *k, const gt_api_state *s, GLuint index, double *v, int n)
{
    union { GLboolean b[16]; GLint i[16]; GLint64 l[16]; } u;
    memset(&u, 0, sizeof u);
    if (n > 16)
        return -1;
    if (s->type == GT_STATE_BOOL && k->ver >= 31)
        glGetBooleani_v(s->pname, index, u.b);
    else if (s->type == GT_STATE_INT64)
        glGetInteger64i_v(s->pname, index, u.l);
    else
        glGetIntegeri_v(s->pname, index, u.i);
    for (int j = 0; j < n; j++)
        v[j] = s->type == GT_STATE_BOOL && k->ver >= 31 ? u.b[j]
               : s->type == GT_STATE_INT64              ? (double)u.l[j]
                                                        : (double)(GLuint)u.i[j];
    return refused();
}

/* "indexed": {"PNAME": [value at index 0, ...]}: glGet*i_v over its bound. */
static void indexed(ik *k)
{
    if (k->ver < 30)
        return;
    ij_key(k->w, "indexed");
    ij_obj(k->w);
    for (size_t i = 0; i < gt_api_nstates; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if (s->query != GT_STATE_GET || (!s->index_count && !s->index_bound) || !ik_has(k, s))
            continue;
        GLint count = s->index_count;
        if (s->index_bound) {
            glGetIntegerv(s->index_bound, &count);
            if (refused() != 0)
                continue;
        }
        const gt_api_get *g = gt_api_get_find(s->pname);
        int n = g && g->indexed ? g->indexed : 1;
        double v[16];
        count = count < 0 ? 0 : count > 64 ? 64 : count;
        int opened = 0;
        for (GLint x = 0; x < count; x++) {
            if (ik_get_indexed(k, s, (GLuint)x, v, n) != 0)
                break;
            if (!opened) {
                ij_key(k->w, s->name);
                ij_arr(k->w);
                opened = 1;
            }
            ik_values(k, s, v, n, 0);
        }
        if (opened)
            ij_end(k->w, ']');
    }
    ij_end(k->w, '}');
}

static GLint limit(GLenum pname, GLint cap)
{
    GLint n = 0;
    glGetIntegerv(pname, &n);
    refused();
    return n < 0 ? 0 : n > cap ? cap : n;
}

/* "texture_units": per unit, its bindings (and on GLES 1 its enables,
 * matrix and environment); the active unit put back after. */
static void units(ik *k)
{
    GLint active = GL_TEXTURE0, n = limit(k->ver < 20 ? GL_MAX_TEXTURE_UNITS
                                                       : GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 128);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    ij_key(k->w, "texture_units");
    ij_arr(k->w);
    GLenum env = GL_TEXTURE_ENV;
    for (GLint u = 0; u < n; u++) {
        glActiveTexture((GLenum)(GL_TEXTURE0 + u));
        ij_obj(k->w);
        ij_key(k->w, "unit");
        ij_int(k->w, u);
        ik_rows(k, GT_STATE_GET, GT_STATE_UNIT, ik_get_plain, NULL);
        if (k->ver < 20) {
            ik_rows(k, GT_STATE_ENABLED, GT_STATE_UNIT, get_enabled, NULL);
            ij_key(k->w, "environment");
            ij_obj(k->w);
            ik_rows(k, GT_STATE_TEXENV, GT_STATE_CONTEXT, get_gles1, &env);
            ij_end(k->w, '}');
        }
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
    glActiveTexture((GLenum)active);
}

/* A GLES 1 client array's pointer (a `pointer` row), when the array is
 * enabled or reads a buffer: {"buffer": name, "offset": N} or, reading the
 * app's memory, {"buffer": 0, "client_memory": true} (replay's copy of the
 * recorded bytes sits there: its address says nothing). */
static void client_pointer(ik *k, const gt_api_pointer *p)
{
    gles1_pointer get = (gles1_pointer)ik_state_fn("pointer", 0);
    void *ptr = NULL;
    GLint buffer = 0;
    glGetIntegerv(p->buffer, &buffer);
    GLboolean on = glIsEnabled(p->array);
    if (!get || refused() != 0 || (!on && !buffer))
        return;
    get(p->pname, &ptr);
    if (refused() != 0)
        return;
    ij_key(k->w, p->name);
    ij_obj(k->w);
    ij_key(k->w, "buffer");
    ik_name(k, GT_STATE_BUFFER_NAME, (GLuint)buffer);
    ij_key(k->w, buffer ? "offset" : "client_memory");
    if (buffer)
        ij_uint(k->w, (unsigned long long)(uintptr_t)ptr);
    else
        ij_bool(k->w, 1);
    ij_end(k->w, '}');
}

static void client_pointers(ik *k, int per_client_unit)
{
    for (size_t i = 0; i < gt_api_npointers; i++)
        if (gt_api_pointers[i].per_client_unit == per_client_unit)
            client_pointer(k, &gt_api_pointers[i]);
}

/* The entries of the current matrix mode's stack below its top (the top is
 * "get"'s matrix), bottom first: popped one by one, then pushed and loaded
 * back. */
static void stack_entries(ik *k, const gt_api_stack *st)
{
    gles1_void push = (gles1_void)ik_state_fn("push-matrix", 0), pop = (gles1_void)ik_state_fn("pop-matrix", 0);
    gles1_load load = (gles1_load)ik_state_fn("load-matrix", 1);
    GLint depth = 0;
    glGetIntegerv(st->depth, &depth);
    if (!push || !pop || !load || refused() != 0 || depth < 1)
        return;
    GLfloat m[64][16];
    depth = depth > 64 ? 64 : depth;
    for (GLint i = 0; i < depth; i++) {
        glGetFloatv(st->matrix, m[i]);
        if (i + 1 < depth)
            pop();
    }
    for (GLint i = depth - 2; i >= 0; i--) {
        push();
        load(m[i]);
    }
    ij_arr(k->w);
    for (GLint i = depth - 1; i >= 1; i--) {
        ij_arr_inline(k->w);
        for (int j = 0; j < 16; j++)
            ij_num(k->w, m[i][j]);
        ij_end(k->w, ']');
    }
    ij_end(k->w, ']');
}

/* "matrix_stacks": {"GL_MODELVIEW": [entry, ...], "GL_TEXTURE": [[unit 0's], ...]}. */
static void matrix_stacks(ik *k)
{
    gles1_select mode = (gles1_select)ik_state_fn("matrix-mode", 0);
    GLint was = 0, active = GL_TEXTURE0, units = limit(GL_MAX_TEXTURE_UNITS, 32);
    if (!mode)
        return;
    glGetIntegerv(GL_MATRIX_MODE, &was);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    ij_key(k->w, "matrix_stacks");
    ij_obj(k->w);
    for (size_t i = 0; i < gt_api_nstacks; i++) {
        const gt_api_stack *st = &gt_api_stacks[i];
        mode(st->mode);
        ij_key(k->w, st->name);
        if (!st->per_unit) {
            stack_entries(k, st);
            continue;
        }
        ij_arr(k->w);
        for (GLint u = 0; u < units; u++) {
            glActiveTexture((GLenum)(GL_TEXTURE0 + u));
            stack_entries(k, st);
        }
        ij_end(k->w, ']');
    }
    ij_end(k->w, '}');
    glActiveTexture((GLenum)active);
    mode((GLenum)was);
    refused();
}

/* GLES 1: client texture units (texture coordinate arrays), client arrays,
 * matrix stacks, lights, materials. */
static void gles1(ik *k)
{
    gles1_select client = (gles1_select)ik_state_fn("client-unit", 0);
    GLint was = GL_TEXTURE0, n = limit(GL_MAX_TEXTURE_UNITS, 32);
    glGetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &was);
    ij_key(k->w, "client_texture_units");
    ij_arr(k->w);
    for (GLint u = 0; client && u < n; u++) {
        client((GLenum)(GL_TEXTURE0 + u));
        ij_obj(k->w);
        ij_key(k->w, "unit");
        ij_int(k->w, u);
        ik_rows(k, GT_STATE_GET, GT_STATE_CLIENT_UNIT, ik_get_plain, NULL);
        ik_rows(k, GT_STATE_ENABLED, GT_STATE_CLIENT_UNIT, get_enabled, NULL);
        client_pointers(k, 1);
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
    if (client)
        client((GLenum)was);
    ij_key(k->w, "client_arrays");
    ij_obj(k->w);
    client_pointers(k, 0);
    ij_end(k->w, '}');
    matrix_stacks(k);
    ij_key(k->w, "lights");
    ij_arr(k->w);
    for (GLint l = 0, nl = limit(GL_MAX_LIGHTS, 32); l < nl; l++) {
        GLenum light = (GLenum)(GL_LIGHT0 + l);
        ij_obj(k->w);
        ik_rows(k, GT_STATE_LIGHT, GT_STATE_CONTEXT, get_gles1, &light);
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
    ij_key(k->w, "materials");
    ij_obj(k->w);
    static const GLenum faces[] = {GL_FRONT, GL_BACK};
    for (int f = 0; f < 2; f++) {
        ij_key(k->w, f ? "GL_BACK" : "GL_FRONT");
        ij_obj(k->w);
        ik_rows(k, GT_STATE_MATERIAL, GT_STATE_CONTEXT, get_gles1, (void *)&faces[f]);
        ij_end(k->w, '}');
    }
    ij_end(k->w, '}');
}

void ik_context_state(ik *k)
{
    ij_key(k->w, "get");
    ij_obj(k->w);
    ik_rows(k, GT_STATE_GET, GT_STATE_CONTEXT, ik_get_plain, NULL);
    ij_end(k->w, '}');
    indexed(k);
    ij_key(k->w, "enabled");
    ij_obj(k->w);
    ik_rows(k, GT_STATE_ENABLED, GT_STATE_CONTEXT, get_enabled, NULL);
    ij_end(k->w, '}');
    units(k);
    if (k->ver < 20)
        gles1(k);
}
