/* rp_inspect_objects.c: the objects the context uses that are not images:
 * vertex attributes, the program in use (its uniforms' values, attribute
 * locations, blocks, shader sources), active queries, and the EGL side
 * (display, surfaces with their configs, the context's attributes: the
 * `egl` rows of api/state.tsv). */
#include "rp_inspect_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_enums.h"

static int refused(void)
{
    int bad = 0;
    while (glGetError() != GL_NO_ERROR)
        bad = 1;
    return bad ? -1 : 0;
}

/* ---------------------------------------------------------------- vertex attributes */

static int get_attrib(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k;
    GLuint index = *(const GLuint *)arg;
    if (n > 16)
        return -1;
    if (s->type == GT_STATE_FLOAT) {
        GLfloat f[16] = {0};
        glGetVertexAttribfv(index, s->pname, f);
        for (int j = 0; j < n; j++)
            v[j] = f[j];
    } else {
        GLint i[16] = {0};
        glGetVertexAttribiv(index, s->pname, i);
        for (int j = 0; j < n; j++)
            v[j] = s->type == GT_STATE_INT ? (double)i[j] : (double)(GLuint)i[j];
    }
    return refused();
}

void ik_vertex_attribs(ik *k)
{
    if (k->ver < 20)
        return;
    GLint n = 0;
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &n);
    ij_key(k->w, "vertex_attribs");
    ij_arr(k->w);
    for (GLuint i = 0; i < (GLuint)n && i < 64; i++) {
        ij_obj(k->w);
        ij_key(k->w, "index");
        ij_uint(k->w, i);
        ik_rows(k, GT_STATE_ATTRIB, GT_STATE_CONTEXT, get_attrib, &i);
        void *p = NULL;
        glGetVertexAttribPointerv(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
        ij_key(k->w, "GL_VERTEX_ATTRIB_ARRAY_POINTER");
        ij_uint(k->w, (unsigned long long)(uintptr_t)p);
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
}

/* ---------------------------------------------------------------- the program */

static int get_program(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k;
    GLint i[16] = {0};
    if (n > 16)
        return -1;
    glGetProgramiv(*(const GLuint *)arg, s->pname, i);
    for (int j = 0; j < n; j++)
        v[j] = i[j];
    return refused();
}

/* A uniform type's base ('f', 'i', 'u', 'b') and components (api/state.tsv's
 * `uniform` lines); types not listed are one int. */
static int uniform_shape(GLenum type, char *base)
{
    for (size_t i = 0; i < gt_api_nuniform_types; i++)
        if (gt_api_uniform_types[i].type == type)
            return *base = gt_api_uniform_types[i].base, gt_api_uniform_types[i].components;
    return *base = 'i', 1;
}

static void uniform_value(ik *k, GLuint prog, GLint loc, GLenum type)
{
    char base;
    int n = uniform_shape(type, &base);
    union { GLfloat f[16]; GLint i[16]; GLuint u[16]; } v;
    memset(&v, 0, sizeof v);
    if (base == 'f')
        glGetUniformfv(prog, loc, v.f);
    else if (base == 'u' && k->ver >= 30)
        glGetUniformuiv(prog, loc, v.u);
    else
        glGetUniformiv(prog, loc, v.i);
    if (refused() != 0) {
        ij_null(k->w);
        return;
    }
    if (n > 1)
        ij_arr_inline(k->w);
    for (int j = 0; j < n; j++) {
        if (base == 'f')
            ij_num(k->w, v.f[j]);
        else if (base == 'u')
            ij_uint(k->w, v.u[j]);
        else if (base == 'b')
            ij_bool(k->w, v.i[j] != 0);
        else
            ij_int(k->w, v.i[j]);
    }
    if (n > 1)
        ij_end(k->w, ']');
}

static void uniforms(ik *k, GLuint prog)
{
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
    ij_key(k->w, "uniforms");
    ij_arr(k->w);
    for (GLint i = 0; i < n; i++) {
        char name[256], elem[300];
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(prog, (GLuint)i, sizeof name, NULL, &size, &type, name);
        ij_obj(k->w);
        ij_key(k->w, "name");
        ij_str(k->w, name);
        ij_key(k->w, "type");
        ij_enum(k->w, type);
        ij_key(k->w, "size");
        ij_int(k->w, size);
        GLint loc = glGetUniformLocation(prog, name);
        ij_key(k->w, "location");
        ij_int(k->w, loc);
        ij_key(k->w, "value");
        if (loc < 0) {
            ij_null(k->w); /* in a block: its buffer holds it */
        } else if (size <= 1) {
            uniform_value(k, prog, loc, type);
        } else {
            char *br = strchr(name, '[');
            if (br)
                *br = 0;
            ij_arr(k->w);
            for (GLint e = 0; e < size && e < 1024; e++) {
                snprintf(elem, sizeof elem, "%s[%d]", name, e);
                uniform_value(k, prog, glGetUniformLocation(prog, elem), type);
            }
            ij_end(k->w, ']');
        }
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
}

static void attributes(ik *k, GLuint prog)
{
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &n);
    ij_key(k->w, "attributes");
    ij_arr(k->w);
    for (GLint i = 0; i < n; i++) {
        char name[256];
        GLint size = 0;
        GLenum type = 0;
        glGetActiveAttrib(prog, (GLuint)i, sizeof name, NULL, &size, &type, name);
        ij_obj(k->w);
        ij_key(k->w, "name");
        ij_str(k->w, name);
        ij_key(k->w, "type");
        ij_enum(k->w, type);
        ij_key(k->w, "size");
        ij_int(k->w, size);
        ij_key(k->w, "location");
        ij_int(k->w, glGetAttribLocation(prog, name));
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
}

static void blocks(ik *k, GLuint prog)
{
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORM_BLOCKS, &n);
    ij_key(k->w, "uniform_blocks");
    ij_arr(k->w);
    for (GLint i = 0; i < n; i++) {
        char name[256];
        GLint binding = 0, size = 0;
        glGetActiveUniformBlockName(prog, (GLuint)i, sizeof name, NULL, name);
        glGetActiveUniformBlockiv(prog, (GLuint)i, GL_UNIFORM_BLOCK_BINDING, &binding);
        glGetActiveUniformBlockiv(prog, (GLuint)i, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
        ij_obj(k->w);
        ij_key(k->w, "name");
        ij_str(k->w, name);
        ij_key(k->w, "binding");
        ij_int(k->w, binding);
        ij_key(k->w, "data_size");
        ij_int(k->w, size);
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
    if (k->ver < 31)
        return;
    glGetProgramInterfaceiv(prog, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &n);
    ij_key(k->w, "storage_blocks");
    ij_arr(k->w);
    for (GLint i = 0; i < n; i++) {
        char name[256];
        GLenum props[] = {GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE};
        GLint vals[2] = {0};
        glGetProgramResourceName(prog, GL_SHADER_STORAGE_BLOCK, (GLuint)i, sizeof name, NULL, name);
        glGetProgramResourceiv(prog, GL_SHADER_STORAGE_BLOCK, (GLuint)i, 2, props, 2, NULL, vals);
        ij_obj(k->w);
        ij_key(k->w, "name");
        ij_str(k->w, name);
        ij_key(k->w, "binding");
        ij_int(k->w, vals[0]);
        ij_key(k->w, "data_size");
        ij_int(k->w, vals[1]);
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
}

static void shaders(ik *k, GLuint prog)
{
    GLuint sh[8];
    GLsizei n = 0;
    glGetAttachedShaders(prog, 8, &n, sh);
    ij_key(k->w, "shaders");
    ij_arr(k->w);
    for (GLsizei i = 0; i < n; i++) {
        GLint type = 0, len = 0, compiled = 0;
        glGetShaderiv(sh[i], GL_SHADER_TYPE, &type);
        glGetShaderiv(sh[i], GL_SHADER_SOURCE_LENGTH, &len);
        glGetShaderiv(sh[i], GL_COMPILE_STATUS, &compiled);
        ij_obj(k->w);
        ij_key(k->w, "name");
        ik_name(k, GT_STATE_PROGRAM_NAME, sh[i]);
        ij_key(k->w, "type");
        ij_enum(k->w, (GLenum)type);
        ij_key(k->w, "compile_status");
        ij_bool(k->w, compiled);
        char *src = len > 0 ? malloc((size_t)len) : NULL;
        if (src && k->resources) {
            char file[64];
            glGetShaderSource(sh[i], len, NULL, src);
            snprintf(file, sizeof file, "shader-%u.glsl", ik_recorded(k, GT_STATE_PROGRAM_NAME, sh[i]));
            ij_key(k->w, "source");
            if (ik_file(k, file, src, strlen(src)) == 0)
                ij_str(k->w, file);
            else
                ij_null(k->w);
        }
        free(src);
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
}

void ik_program(ik *k)
{
    GLint prog = 0;
    if (k->ver < 20)
        return;
    glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    ij_key(k->w, "program");
    if (!prog) {
        ij_null(k->w);
        return;
    }
    GLuint p = (GLuint)prog;
    ij_obj(k->w);
    ij_key(k->w, "name");
    ik_name(k, GT_STATE_PROGRAM_NAME, p);
    ik_rows(k, GT_STATE_PROGRAM, GT_STATE_CONTEXT, get_program, &p);
    attributes(k, p);
    uniforms(k, p);
    if (k->ver >= 30)
        blocks(k, p);
    shaders(k, p);
    ij_end(k->w, '}');
    refused();
}

/* ---------------------------------------------------------------- queries */

static int get_query(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k, (void)arg, (void)n;
    GLint q = 0;
    glGetQueryiv(s->pname, GL_CURRENT_QUERY, &q);
    v[0] = (GLuint)q;
    return refused();
}

void ik_queries(ik *k)
{
    if (k->ver < 30)
        return;
    ij_key(k->w, "queries_active");
    ij_obj(k->w);
    ik_rows(k, GT_STATE_CURRENT_QUERY, GT_STATE_CONTEXT, get_query, NULL);
    ij_end(k->w, '}');
}

/* ---------------------------------------------------------------- EGL */

/* One EGL attribute's value, by its type of api/state.tsv. */
static void egl_attr(ik *k, const gt_api_egl_attrib *a, EGLint v)
{
    ij_key(k->w, a->name);
    const char *name = a->type == GT_STATE_ENUM ? gt_api_enum_name((uint32_t)v, 0, 1) : NULL;
    if (name)
        ij_str(k->w, name);
    else if (a->type == GT_STATE_BOOL)
        ij_bool(k->w, v != 0);
    else
        ij_int(k->w, v);
}

/* The `egl` rows of one query (config, context, surface) of `of`. */
static void egl_rows(ik *k, gt_egl_query q, void *of)
{
    for (size_t i = 0; i < gt_api_negl_attribs; i++) {
        const gt_api_egl_attrib *a = &gt_api_egl_attribs[i];
        EGLint v = 0;
        EGLBoolean ok = EGL_FALSE;
        if (a->query != q)
            continue;
        if (q == GT_EGL_CONFIG)
            ok = eglGetConfigAttrib(k->r->dpy, (EGLConfig)of, a->attr, &v);
        else if (q == GT_EGL_CONTEXT)
            ok = eglQueryContext(k->r->dpy, (EGLContext)of, a->attr, &v);
        else
            ok = eglQuerySurface(k->r->dpy, (EGLSurface)of, a->attr, &v);
        if (ok)
            egl_attr(k, a, v);
        else
            eglGetError(); /* an attribute this EGL lacks: left out */
    }
}

static void config(ik *k, EGLConfig cfg)
{
    ij_obj(k->w);
    egl_rows(k, GT_EGL_CONFIG, cfg);
    ij_end(k->w, '}');
}

static void surface(ik *k, const char *key, EGLSurface s)
{
    ij_key(k->w, key);
    if (s == EGL_NO_SURFACE) {
        ij_null(k->w);
        return;
    }
    EGLint w = 0, h = 0, id = 0;
    eglQuerySurface(k->r->dpy, s, EGL_WIDTH, &w);
    eglQuerySurface(k->r->dpy, s, EGL_HEIGHT, &h);
    eglQuerySurface(k->r->dpy, s, EGL_CONFIG_ID, &id);
    ij_obj(k->w);
    ij_key(k->w, "width");
    ij_int(k->w, w);
    ij_key(k->w, "height");
    ij_int(k->w, h);
    egl_rows(k, GT_EGL_SURFACE, s);
    EGLint attrs[] = {EGL_CONFIG_ID, id, EGL_NONE};
    EGLConfig cfg;
    EGLint got = 0;
    if (eglChooseConfig(k->r->dpy, attrs, &cfg, 1, &got) && got == 1) {
        ij_key(k->w, "config");
        config(k, cfg);
    }
    ij_end(k->w, '}');
}

void ik_egl(ik *k)
{
    rp *r = k->r;
    ij_key(k->w, "egl");
    ij_obj(k->w);
    ij_key(k->w, "display");
    ij_obj(k->w);
    ij_key(k->w, "vendor");
    ij_str(k->w, eglQueryString(r->dpy, EGL_VENDOR));
    ij_key(k->w, "version");
    ij_str(k->w, eglQueryString(r->dpy, EGL_VERSION));
    ij_key(k->w, "platform");
    ij_str(k->w, "surfaceless (replay's own; the recorded window system is replaced)");
    ij_end(k->w, '}');
    int c = r->bound_ctx;
    ij_key(k->w, "context");
    if (c < 0 || c >= RP_MAX_CTX || eglGetCurrentContext() == EGL_NO_CONTEXT) {
        ij_null(k->w);
    } else {
        ij_obj(k->w);
        ij_key(k->w, "recorded");
        ij_int(k->w, c);
        ij_key(k->w, "share_group");
        ij_int(k->w, r->ctx[c].group);
        egl_rows(k, GT_EGL_CONTEXT, r->ctx[c].ctx);
        ij_end(k->w, '}');
    }
    surface(k, "draw_surface", r->bound_draw);
    surface(k, "read_surface", r->bound_read);
    ij_end(k->w, '}');
}
