/* rp_inspect_textures.c: every texture bound on every unit (parameters,
 * and each level, cube face and layer as a file: PNG for what reads as
 * RGBA8, raw otherwise), the samplers bound, and every buffer bound (its
 * bytes, mapped for reading). The target of a binding is its row's
 * (api/state.tsv's target=). GLES 3 only. */
#include "rp_inspect_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_diff.h"
#include "gt_enums.h"

static int refused(void)
{
    int bad = 0;
    while (glGetError() != GL_NO_ERROR)
        bad = 1;
    return bad ? -1 : 0;
}

/* ---------------------------------------------------------------- textures */

static int get_texture(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k;
    GLenum target = *(const GLenum *)arg;
    if (n > 16)
        return -1;
    if (s->type == GT_STATE_FLOAT) {
        GLfloat f[16] = {0};
        glGetTexParameterfv(target, s->pname, f);
        for (int j = 0; j < n; j++)
            v[j] = f[j];
    } else {
        GLint i[16] = {0};
        glGetTexParameteriv(target, s->pname, i);
        for (int j = 0; j < n; j++)
            v[j] = s->type == GT_STATE_INT ? (double)i[j] : (double)(GLuint)i[j];
    }
    return refused();
}

typedef struct level_arg { GLenum target; GLint level; } level_arg;

static int get_level(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k, (void)n;
    const level_arg *a = arg;
    GLint i = 0;
    glGetTexLevelParameteriv(a->target, a->level, s->pname, &i);
    v[0] = s->type == GT_STATE_INT ? (double)i : (double)(GLuint)i;
    return refused();
}

/* What a level holds, for reading it (glGetTexLevelParameteriv). */
typedef struct level_info {
    GLint w, h, d, ctype, format, compressed, depth, stencil;
} level_info;

/* Why a level cannot be read through a framebuffer, or NULL. */
static const char *not_readable(const level_info *l)
{
    if (l->compressed)
        return "compressed: not readable on GLES";
    if (!l->depth && !l->stencil && l->ctype == GL_NONE)
        return "luminance or alpha";
    return NULL;
}

typedef struct copy_arg { ik *k; const char *stem; } copy_arg;

/* The shader copy's picture, into DIR/stem.png: members "file" and "read_as". */
static const char *copy_to_file(void *arg, GLint w, GLint h)
{
    const copy_arg *a = arg;
    ik_read_to_file(a->k, a->stem, w, h, GL_UNSIGNED_NORMALIZED, 0);
    ij_key(a->k->w, "read_as");
    ij_str(a->k->w, "a shader copy: RGBA as sampling gives it, with no swizzle");
    return NULL;
}

/* One image of a level (a face or a layer) read through a framebuffer:
 * colour as a picture or raw, depth and stencil raw and grey. */
static void image(ik *k, GLuint tex, GLenum target, GLenum face, GLint level, GLint layer, const level_info *l)
{
    const char *why = not_readable(l);
    char stem[128], because[128];
    snprintf(stem, sizeof stem, "texture-%u-level%d-layer%d", ik_recorded(k, GT_STATE_TEXTURE_NAME, tex), level,
             layer);
    ij_obj(k->w);
    ij_key(k->w, "layer");
    ij_int(k->w, layer);
    if (why && !l->compressed) { /* no framebuffer holds it: drawn into one */
        why = rp_shader_copy(&k->copier, tex, target, level, layer, l->w, l->h, copy_to_file,
                             &(copy_arg){k, stem});
        if (!why) {
            ij_end(k->w, '}');
            return;
        }
        snprintf(because, sizeof because, "luminance or alpha: %s", why);
        why = because;
    }
    if (why) {
        ij_key(k->w, "unreadable");
        ij_str(k->w, why);
        ij_key(k->w, "format");
        ij_enum(k->w, (GLenum)l->format);
        ij_end(k->w, '}');
        return;
    }
    GLint was = 0;
    GLuint fbo = 0;
    GLenum att = l->depth ? GL_DEPTH_ATTACHMENT : l->stencil ? GL_STENCIL_ATTACHMENT : GL_COLOR_ATTACHMENT0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &was);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    if (target == GL_TEXTURE_2D || target == GL_TEXTURE_CUBE_MAP)
        glFramebufferTexture2D(GL_READ_FRAMEBUFFER, att, face, tex, level);
    else
        glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, att, tex, level, layer);
    if (att != GL_COLOR_ATTACHMENT0)
        glReadBuffer(GL_NONE);
    if (glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        ij_key(k->w, "unreadable");
        ij_str(k->w, "its format cannot be attached to a framebuffer");
        ij_key(k->w, "format");
        ij_enum(k->w, (GLenum)l->format);
    } else {
        if (att == GL_COLOR_ATTACHMENT0) {
            glReadBuffer(GL_COLOR_ATTACHMENT0);
            ik_read_to_file(k, stem, l->w, l->h, (GLenum)l->ctype, 0);
        } else {
            ik_read_depth_to_file(k, stem, l->w, l->h, l->depth ? GL_DEPTH_COMPONENT : GL_STENCIL_INDEX, 0);
        }
    }
    ij_end(k->w, '}');
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)was);
    glDeleteFramebuffers(1, &fbo);
    refused();
}

static void levels(ik *k, GLuint tex, GLenum target)
{
    int cube = target == GL_TEXTURE_CUBE_MAP, layered = target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY ||
                                                         target == GL_TEXTURE_CUBE_MAP_ARRAY;
    int images = k->resources && (target == GL_TEXTURE_2D || cube || layered);
    ij_key(k->w, "levels");
    ij_arr(k->w);
    for (GLint level = 0; level < 16; level++) {
        level_arg a = {cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : target, level};
        level_info l = {0};
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_WIDTH, &l.w);
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_HEIGHT, &l.h);
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_DEPTH, &l.d);
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_RED_TYPE, &l.ctype);
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_INTERNAL_FORMAT, &l.format);
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_COMPRESSED, &l.compressed);
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_DEPTH_SIZE, &l.depth);
        glGetTexLevelParameteriv(a.target, level, GL_TEXTURE_STENCIL_SIZE, &l.stencil);
        if (refused() != 0 || l.w <= 0)
            break;
        ij_obj(k->w);
        ij_key(k->w, "level");
        ij_int(k->w, level);
        ik_rows(k, GT_STATE_LEVEL, GT_STATE_CONTEXT, get_level, &a);
        if (images) {
            ij_key(k->w, "images");
            ij_arr(k->w);
            GLint layers = cube ? 6 : layered ? l.d : 1;
            for (GLint z = 0; z < layers && z < 2048; z++)
                image(k, tex, target, cube ? (GLenum)(GL_TEXTURE_CUBE_MAP_POSITIVE_X + z) : target, level, z, &l);
            ij_end(k->w, ']');
        }
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
}

static int seen_before(const GLuint *seen, size_t n, GLuint name)
{
    for (size_t i = 0; i < n; i++)
        if (seen[i] == name)
            return 1;
    return 0;
}

static void texture(ik *k, const gt_api_state *s, GLint unit, GLuint tex)
{
    GLenum target = s->target;
    ij_obj(k->w);
    ij_key(k->w, "name");
    ik_name(k, GT_STATE_TEXTURE_NAME, tex);
    ij_key(k->w, "target");
    ij_enum(k->w, target);
    ij_key(k->w, "unit");
    ij_int(k->w, unit);
    ij_key(k->w, "parameters");
    ij_obj(k->w);
    ik_rows(k, GT_STATE_TEXTURE, GT_STATE_CONTEXT, get_texture, &target);
    ij_end(k->w, '}');
    if (k->ver >= 31)
        levels(k, tex, target);
    ij_end(k->w, '}');
}

static int get_sampler(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k;
    GLuint sampler = *(const GLuint *)arg;
    if (n > 16)
        return -1;
    if (s->type == GT_STATE_FLOAT) {
        GLfloat f[16] = {0};
        glGetSamplerParameterfv(sampler, s->pname, f);
        for (int j = 0; j < n; j++)
            v[j] = f[j];
    } else {
        GLint i[16] = {0};
        glGetSamplerParameteriv(sampler, s->pname, i);
        for (int j = 0; j < n; j++)
            v[j] = (GLuint)i[j];
    }
    return refused();
}

static void samplers(ik *k, GLint units)
{
    GLuint seen[256];
    size_t nseen = 0;
    ij_key(k->w, "samplers");
    ij_arr(k->w);
    for (GLint u = 0; u < units; u++) {
        GLint s = 0;
        glGetIntegeri_v(GL_SAMPLER_BINDING, (GLuint)u, &s);
        if (refused() != 0) { /* GLES 3.0 has no indexed form: through the unit */
            glActiveTexture((GLenum)(GL_TEXTURE0 + u));
            glGetIntegerv(GL_SAMPLER_BINDING, &s);
        }
        if (!s || seen_before(seen, nseen, (GLuint)s) || nseen == 256)
            continue;
        seen[nseen++] = (GLuint)s;
        GLuint sampler = (GLuint)s;
        ij_obj(k->w);
        ij_key(k->w, "name");
        ik_name(k, GT_STATE_SAMPLER_NAME, sampler);
        ij_key(k->w, "unit");
        ij_int(k->w, u);
        ik_rows(k, GT_STATE_SAMPLER, GT_STATE_CONTEXT, get_sampler, &sampler);
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
}

void ik_textures(ik *k)
{
    if (k->ver < 30)
        return;
    GLint active = GL_TEXTURE0, units = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    units = units > 128 ? 128 : units;
    GLuint seen[512];
    size_t nseen = 0;
    ij_key(k->w, "textures");
    ij_arr(k->w);
    for (GLint u = 0; u < units; u++) {
        glActiveTexture((GLenum)(GL_TEXTURE0 + u));
        for (size_t i = 0; i < gt_api_nstates; i++) {
            const gt_api_state *s = &gt_api_states[i];
            if (s->query != GT_STATE_GET || s->scope != GT_STATE_UNIT || s->cls != GT_STATE_TEXTURE_NAME ||
                !ik_has(k, s))
                continue;
            GLint tex = 0;
            glGetIntegerv(s->pname, &tex);
            if (refused() != 0 || !tex || seen_before(seen, nseen, (GLuint)tex) || nseen == 512)
                continue;
            seen[nseen++] = (GLuint)tex;
            texture(k, s, u, (GLuint)tex);
        }
    }
    ij_end(k->w, ']');
    samplers(k, units);
    glActiveTexture((GLenum)active);
}

/* ---------------------------------------------------------------- buffers */

static int get_buffer(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)n;
    GLint64 l = 0;
    GLint i = 0;
    if (s->type == GT_STATE_INT64 && k->ver >= 30)
        glGetBufferParameteri64v(*(const GLenum *)arg, s->pname, &l);
    else
        glGetBufferParameteriv(*(const GLenum *)arg, s->pname, &i), l = s->type == GT_STATE_INT ? (GLint64)i : (GLint64)(GLuint)i;
    v[0] = (double)l;
    return refused();
}

static void buffer(ik *k, GLuint name, const char *bound_as)
{
    GLint was = 0;
    GLenum t = GL_COPY_READ_BUFFER;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &was);
    glBindBuffer(t, name);
    ij_obj(k->w);
    ij_key(k->w, "name");
    ik_name(k, GT_STATE_BUFFER_NAME, name);
    ij_key(k->w, "bound_as");
    ij_str(k->w, bound_as);
    ik_rows(k, GT_STATE_BUFFER, GT_STATE_CONTEXT, get_buffer, &t);
    GLint64 size = 0;
    GLint mapped = 0;
    glGetBufferParameteri64v(t, GL_BUFFER_SIZE, &size);
    glGetBufferParameteriv(t, GL_BUFFER_MAPPED, &mapped);
    if (k->resources && size > 0 && !mapped) {
        char file[64];
        snprintf(file, sizeof file, "buffer-%u.bin", ik_recorded(k, GT_STATE_BUFFER_NAME, name));
        const void *p = glMapBufferRange(t, 0, (GLsizeiptr)size, GL_MAP_READ_BIT);
        int ok = p && ik_file(k, file, p, (size_t)size) == 0;
        if (p)
            glUnmapBuffer(t);
        ij_key(k->w, ok ? "file" : "unreadable");
        ij_str(k->w, ok ? file : "cannot be mapped for reading");
    } else if (mapped) {
        ij_key(k->w, "unreadable");
        ij_str(k->w, "mapped by the app");
    }
    ij_end(k->w, '}');
    glBindBuffer(t, (GLuint)was);
    refused();
}

void ik_buffers(ik *k)
{
    if (k->ver < 30)
        return;
    GLuint seen[256];
    size_t nseen = 0;
    ij_key(k->w, "buffers");
    ij_arr(k->w);
    for (size_t i = 0; i < gt_api_nstates; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if ((s->query != GT_STATE_GET && s->query != GT_STATE_ATTRIB) || s->cls != GT_STATE_BUFFER_NAME ||
            s->scope != GT_STATE_CONTEXT || !ik_has(k, s))
            continue;
        GLint count = s->query == GT_STATE_ATTRIB ? 0 : s->index_count, name = 0;
        if (s->query == GT_STATE_ATTRIB)
            glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &count);
        else if (s->index_bound)
            glGetIntegerv(s->index_bound, &count);
        for (GLint x = -1; x < count && x < 64; x++) {
            if (x < 0 && s->query == GT_STATE_ATTRIB)
                continue;
            if (x < 0)
                glGetIntegerv(s->pname, &name);
            else if (s->query == GT_STATE_ATTRIB)
                glGetVertexAttribiv((GLuint)x, s->pname, &name);
            else
                glGetIntegeri_v(s->pname, (GLuint)x, &name);
            if (refused() != 0 || !name || seen_before(seen, nseen, (GLuint)name) || nseen == 256)
                continue;
            seen[nseen++] = (GLuint)name;
            char as[128];
            if (x < 0)
                snprintf(as, sizeof as, "%s", s->name);
            else
                snprintf(as, sizeof as, "%s[%d]", s->name, x);
            buffer(k, (GLuint)name, as);
        }
    }
    ij_end(k->w, ']');
}

/* ---------------------------------------------------------------- transform feedback */

/* "transform_feedback": the object bound, whether it is active or paused,
 * and per index the buffer bound with its range and the file of its bytes
 * (written by ik_buffers). */
void ik_transform_feedback(ik *k)
{
    if (k->ver < 30)
        return;
    GLint xfb = 0, n = 0;
    GLboolean active = 0, paused = 0;
    glGetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &xfb);
    glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
    glGetBooleanv(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
    glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, &n);
    refused();
    ij_key(k->w, "transform_feedback");
    ij_obj(k->w);
    ij_key(k->w, "name");
    ik_name(k, GT_STATE_XFB_NAME, (GLuint)xfb);
    ij_key(k->w, "active");
    ij_bool(k->w, active);
    ij_key(k->w, "paused");
    ij_bool(k->w, paused);
    ij_key(k->w, "buffers");
    ij_arr(k->w);
    for (GLint i = 0; i < n && i < 64; i++) {
        GLint name = 0;
        GLint64 start = 0, size = 0;
        glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, (GLuint)i, &name);
        glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, (GLuint)i, &start);
        glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, (GLuint)i, &size);
        if (refused() != 0 || !name)
            continue;
        ij_obj(k->w);
        ij_key(k->w, "index");
        ij_int(k->w, i);
        ij_key(k->w, "buffer");
        ik_name(k, GT_STATE_BUFFER_NAME, (GLuint)name);
        ij_key(k->w, "start");
        ij_int(k->w, start);
        ij_key(k->w, "size");
        ij_int(k->w, size); /* 0: the whole buffer (glBindBufferBase) */
        char file[64], path[4096];
        snprintf(file, sizeof file, "buffer-%u.bin", ik_recorded(k, GT_STATE_BUFFER_NAME, (GLuint)name));
        snprintf(path, sizeof path, "%s/%s", k->dir, file);
        FILE *f = k->resources ? fopen(path, "rb") : NULL;
        if (f) {
            fclose(f);
            ij_key(k->w, "file");
            ij_str(k->w, file);
        }
        ij_end(k->w, '}');
    }
    ij_end(k->w, ']');
    ij_end(k->w, '}');
}
