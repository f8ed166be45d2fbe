/* rp_reset_objects.c: the objects --loop's written reset (rp_reset.c)
 * writes back. A texture, buffer or renderbuffer that a kept command is
 * about to change (an upload, a parameter, a mapping, a draw into a
 * framebuffer object it is attached to) is copied whole, before its first
 * change, into an object of replay's own; before each repeat it is copied
 * back. A framebuffer object whose attachments a kept command changes has
 * them read, and attached again. The copies are the GPU's
 * (glCopyImageSubData: GLES 3.2, glCopyBufferSubData: 3.0), exact for
 * every format, compressed ones too. A texture's parameters are read and
 * written back with the texture query's rows of api/state.tsv.
 *
 * What cannot be copied back makes the reset fail with a reason, and the
 * repeats rebuild: a texture whose levels are no mipmap chain from level
 * 0 of one format, a multisample or external texture, a mapped buffer, a
 * level or renderbuffer the kept calls gave another size or format. */
#include "rp_internal.h"

#include <GLES3/gl32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api_state.h"
#include "gt_enums.h" /* GL_TEXTURE_EXTERNAL_OES */

#define MAX_LEVELS 16
#define MAX_PARAMS 32
#define MAX_ATTS 10 /* depth, stencil, 8 colour */

typedef struct level {
    GLint w, h, d, fmt;
} level;

typedef struct saved {
    int cls;      /* RP_TEXTURE, RP_BUFFER, RP_RENDERBUFFER */
    GLenum target; /* a texture's target */
    GLuint obj, copy;
    int nlevels, immutable; /* a texture's; a renderbuffer's one level (d: its samples) */
    level lv[MAX_LEVELS];
    GLint64 size; /* a buffer's */
    GLint usage;
    struct param {
        uint32_t pname;
        uint8_t is_float, n;
        GLint i[4];
        GLfloat f[4];
    } par[MAX_PARAMS];
    int npar;
    struct att { /* a framebuffer's: what each attachment point holds */
        GLint type, name, level, face, layer;
        GLenum target; /* a texture's */
    } att[MAX_ATTS];
} saved;

struct rp_shadows {
    saved *v;
    size_t n, cap;
};

rp_shadows *rp_shadows_new(void)
{
    return calloc(1, sizeof(rp_shadows));
}

void rp_shadows_free(rp_shadows *sh)
{
    if (sh)
        free(sh->v);
    free(sh);
}

static int failed(char *why, size_t n, const char *text)
{
    snprintf(why, n, "%s", text);
    return -1;
}

static saved *find(rp_shadows *sh, int cls, GLuint obj)
{
    for (size_t i = 0; i < sh->n; i++)
        if (sh->v[i].cls == cls && sh->v[i].obj == obj)
            return &sh->v[i];
    return NULL;
}

static int refused(void)
{
    int bad = 0;
    while (glGetError() != GL_NO_ERROR)
        bad = 1;
    return bad;
}

/* ---------------------------------------------------------------- textures */

static GLenum level_target(GLenum target)
{
    return target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : target;
}

static GLint bound_texture(GLenum target)
{
    GLint was = 0;
    glGetIntegerv((GLenum)gt_api_binding_of(target), &was);
    return was;
}

/* The texture bound to target's levels; -1 when they are no mipmap chain
 * from level 0 of one format. */
static int read_levels(GLenum target, level *lv, int *n)
{
    GLenum q = level_target(target);
    *n = 0;
    for (int l = 0; l < MAX_LEVELS; l++) {
        level x = {0};
        glGetTexLevelParameteriv(q, l, GL_TEXTURE_WIDTH, &x.w);
        glGetTexLevelParameteriv(q, l, GL_TEXTURE_HEIGHT, &x.h);
        glGetTexLevelParameteriv(q, l, GL_TEXTURE_DEPTH, &x.d);
        glGetTexLevelParameteriv(q, l, GL_TEXTURE_INTERNAL_FORMAT, &x.fmt);
        if (target == GL_TEXTURE_CUBE_MAP)
            x.d = 6;
        if (refused() || x.w <= 0) { /* past the levels a texture can have, or none */
            lv[l] = (level){0};
            continue;
        }
        if (l != *n || (l && (x.fmt != lv[0].fmt || x.w != (lv[0].w >> l ? lv[0].w >> l : 1) ||
                              x.h != (lv[0].h >> l ? lv[0].h >> l : 1))))
            return -1;
        lv[(*n)++] = x;
    }
    return 0;
}

/* The texture query's rows (api/state.tsv) the driver answers for target. */
static void read_params(GLenum target, saved *x)
{
    x->npar = 0;
    for (size_t i = 0; i < gt_api_nstates && x->npar < MAX_PARAMS; i++) {
        const gt_api_state *st = &gt_api_states[i];
        int n = st->values ? st->values : 1;
        if (st->query != GT_STATE_TEXTURE || n > 4)
            continue;
        struct param p = {st->pname, st->type == GT_STATE_FLOAT, (uint8_t)n, {0}, {0}};
        if (p.is_float)
            glGetTexParameterfv(target, st->pname, p.f);
        else
            glGetTexParameteriv(target, st->pname, p.i);
        if (!refused())
            x->par[x->npar++] = p;
    }
}

/* GLES copies only between complete textures: the one bound to target
 * made complete over its levels whatever its filter (what it had is
 * written back after). Not a texture of immutable storage: complete over
 * its levels already, and GL clamps what is set of its levels for good
 * (a GL_TEXTURE_MAX_LEVEL of 1000 set to 0 comes back as 0). */
static void make_complete(const saved *x, int immutable)
{
    if (immutable)
        return;
    glTexParameteri(x->target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(x->target, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(x->target, GL_TEXTURE_MAX_LEVEL, x->nlevels - 1);
}

static void copy_levels(const saved *x, GLuint from, GLuint to)
{
    for (int l = 0; l < x->nlevels; l++)
        glCopyImageSubData(from, x->target, l, 0, 0, 0, to, x->target, l, 0, 0, 0, x->lv[l].w, x->lv[l].h, x->lv[l].d);
}

static int is_3d(GLenum target)
{
    return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY;
}

/* Each level of the copy defined as glTexImage does with an unsized
 * format (GL_RGBA; a sized one gets storage) and a type. */
static void define_levels(const saved *x, GLenum type)
{
    for (int l = 0; l < x->nlevels; l++) {
        const level *v = &x->lv[l];
        GLenum fmt = (GLenum)v->fmt;
        for (int face = 0; face < (x->target == GL_TEXTURE_CUBE_MAP ? 6 : 1); face++) {
            GLenum t = x->target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)face : x->target;
            if (is_3d(x->target))
                glTexImage3D(t, l, v->fmt, v->w, v->h, v->d, 0, fmt, type, NULL);
            else
                glTexImage2D(t, l, v->fmt, v->w, v->h, 0, fmt, type, NULL);
        }
    }
}

/* The copy, bound to the target: storage of the texture's format, or for
 * an unsized format the first type whose levels the texture's copy into
 * without an error. */
static int make_texture_copy(saved *x)
{
    static const GLenum types[] = {GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT_4_4_4_4, GL_UNSIGNED_SHORT_5_5_5_1,
                                   GL_UNSIGNED_SHORT_5_6_5, GL_HALF_FLOAT, GL_FLOAT};
    const level *b = &x->lv[0];
    glGenTextures(1, &x->copy);
    glBindTexture(x->target, x->copy);
    if (is_3d(x->target))
        glTexStorage3D(x->target, x->nlevels, (GLenum)b->fmt, b->w, b->h, b->d);
    else
        glTexStorage2D(x->target, x->nlevels, (GLenum)b->fmt, b->w, b->h);
    if (!refused()) {
        copy_levels(x, x->obj, x->copy);
        return refused() ? -1 : 0;
    }
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        define_levels(x, types[i]);
        if (refused())
            continue;
        make_complete(x, 0);
        copy_levels(x, x->obj, x->copy);
        if (!refused())
            return 0;
    }
    return -1;
}

static uint64_t write_params(const saved *x);

static int save_texture(saved *x, char *why, size_t n)
{
    if (x->target == GL_TEXTURE_2D_MULTISAMPLE || x->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY ||
        x->target == GL_TEXTURE_EXTERNAL_OES || x->target == GL_TEXTURE_BUFFER || !gt_api_binding_of(x->target))
        return failed(why, n, "the kept calls change a multisample, external or buffer texture, which is not copied "
                      "back");
    GLint was = bound_texture(x->target), imm = 0;
    glBindTexture(x->target, x->obj);
    int chain = read_levels(x->target, x->lv, &x->nlevels) == 0, copied = 1;
    glGetTexParameteriv(x->target, GL_TEXTURE_IMMUTABLE_FORMAT, &imm);
    x->immutable = imm;
    read_params(x->target, x);
    if (chain && x->nlevels) {
        make_complete(x, x->immutable);
        copied = make_texture_copy(x) == 0;
        glBindTexture(x->target, x->obj);
        write_params(x);
    }
    glBindTexture(x->target, (GLuint)was);
    refused();
    if (!chain)
        return failed(why, n, "the kept calls change a texture whose levels are no mipmap chain from level 0 of one "
                      "format");
    return copied ? 0 : failed(why, n, "the kept calls change a texture whose format the driver does not copy");
}

static uint64_t write_params(const saved *x)
{
    uint64_t calls = 0;
    for (int i = 0; i < x->npar; i++) {
        const struct param *p = &x->par[i];
        struct param now = *p;
        if (p->is_float)
            glGetTexParameterfv(x->target, p->pname, now.f);
        else
            glGetTexParameteriv(x->target, p->pname, now.i);
        if (!memcmp(now.f, p->f, sizeof p->f) && !memcmp(now.i, p->i, sizeof p->i))
            continue;
        if (p->is_float)
            glTexParameterfv(x->target, p->pname, p->f);
        else
            glTexParameteriv(x->target, p->pname, p->i);
        calls++;
    }
    return calls;
}

static int restore_texture(const saved *x, uint64_t *calls, char *why, size_t n)
{
    level now[MAX_LEVELS];
    int nlevels = 0;
    GLint was = bound_texture(x->target), imm = 0;
    glBindTexture(x->target, x->obj);
    int same = read_levels(x->target, now, &nlevels) == 0 && nlevels == x->nlevels &&
               !memcmp(now, x->lv, (size_t)nlevels * sizeof *now);
    glGetTexParameteriv(x->target, GL_TEXTURE_IMMUTABLE_FORMAT, &imm);
    if (same && imm == x->immutable) {
        if (x->nlevels) {
            make_complete(x, x->immutable);
            copy_levels(x, x->copy, x->obj);
        }
        *calls += (uint64_t)x->nlevels + write_params(x);
    }
    glBindTexture(x->target, (GLuint)was);
    if (!same || imm != x->immutable)
        return failed(why, n, "the kept calls give a texture's levels another size or format, or make its storage "
                      "immutable");
    return refused() ? failed(why, n, "the driver refused to copy a texture back") : 0;
}

/* ---------------------------------------------------------------- buffers */

static int save_buffer(saved *x, char *why, size_t n)
{
    GLint read = 0, write = 0, mapped = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &write);
    glBindBuffer(GL_COPY_READ_BUFFER, x->obj);
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &x->size);
    glGetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_USAGE, &x->usage);
    glGetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_MAPPED, &mapped);
    if (!mapped && x->size > 0) {
        glGenBuffers(1, &x->copy);
        glBindBuffer(GL_COPY_WRITE_BUFFER, x->copy);
        glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)x->size, NULL, GL_STATIC_COPY);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)x->size);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)read);
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)write);
    if (mapped)
        return failed(why, n, "the kept calls change a buffer mapped before them");
    return refused() ? failed(why, n, "the driver refused to copy a buffer") : 0;
}

static int restore_buffer(const saved *x, uint64_t *calls, char *why, size_t n)
{
    GLint read = 0, write = 0, mapped = 0, usage = 0;
    GLint64 size = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &read);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &write);
    glBindBuffer(GL_COPY_WRITE_BUFFER, x->obj);
    glGetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
    glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_USAGE, &usage);
    glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_MAPPED, &mapped);
    if (!mapped && (size != x->size || usage != x->usage)) {
        glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)x->size, NULL, (GLenum)x->usage);
        ++*calls;
    }
    if (!mapped && x->size > 0) {
        glBindBuffer(GL_COPY_READ_BUFFER, x->copy);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)x->size);
        ++*calls;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)read);
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)write);
    if (mapped)
        return failed(why, n, "the kept calls leave a buffer mapped");
    return refused() ? failed(why, n, "the driver refused to copy a buffer back") : 0;
}

/* ---------------------------------------------------------------- renderbuffers */

static void read_renderbuffer(GLuint rb, level *x)
{
    GLint was = 0;
    glGetIntegerv(GL_RENDERBUFFER_BINDING, &was);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &x->w);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &x->h);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &x->fmt);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &x->d);
    glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)was);
}

static int save_renderbuffer(saved *x, char *why, size_t n)
{
    GLint was = 0;
    read_renderbuffer(x->obj, &x->lv[0]);
    x->nlevels = x->lv[0].w > 0;
    if (x->nlevels) {
        glGetIntegerv(GL_RENDERBUFFER_BINDING, &was);
        glGenRenderbuffers(1, &x->copy);
        glBindRenderbuffer(GL_RENDERBUFFER, x->copy);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, x->lv[0].d, (GLenum)x->lv[0].fmt, x->lv[0].w, x->lv[0].h);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)was);
        glCopyImageSubData(x->obj, GL_RENDERBUFFER, 0, 0, 0, 0, x->copy, GL_RENDERBUFFER, 0, 0, 0, 0, x->lv[0].w,
                           x->lv[0].h, 1);
    }
    return refused() ? failed(why, n, "the driver refused to copy a renderbuffer") : 0;
}

static int restore_renderbuffer(const saved *x, uint64_t *calls, char *why, size_t n)
{
    level now = {0};
    read_renderbuffer(x->obj, &now);
    if (memcmp(&now, &x->lv[0], sizeof now) && x->nlevels)
        return failed(why, n, "the kept calls give a renderbuffer another size or format");
    if (x->nlevels) {
        glCopyImageSubData(x->copy, GL_RENDERBUFFER, 0, 0, 0, 0, x->obj, GL_RENDERBUFFER, 0, 0, 0, 0, x->lv[0].w,
                           x->lv[0].h, 1);
        ++*calls;
    }
    return refused() ? failed(why, n, "the driver refused to copy a renderbuffer back") : 0;
}

/* ---------------------------------------------------------------- framebuffers */

/* A texture's target, found by binding it (0: none of GLES's). */
static GLenum texture_target(GLuint tex)
{
    static const GLenum targets[] = {GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_2D_ARRAY, GL_TEXTURE_3D,
                                     GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_2D_MULTISAMPLE};
    refused();
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        GLint was = 0;
        glGetIntegerv((GLenum)gt_api_binding_of(targets[i]), &was);
        if (refused())
            continue;
        glBindTexture(targets[i], tex);
        int ok = !refused();
        glBindTexture(targets[i], (GLuint)was);
        if (ok)
            return targets[i];
    }
    return 0;
}

static GLenum attachment(int i)
{
    return i == 0 ? GL_DEPTH_ATTACHMENT : i == 1 ? GL_STENCIL_ATTACHMENT : GL_COLOR_ATTACHMENT0 + (GLenum)(i - 2);
}

/* The attachments of the framebuffer bound to GL_DRAW_FRAMEBUFFER. */
static void read_attachments(struct att *a, int with_targets)
{
    for (int i = 0; i < MAX_ATTS; i++) {
        GLenum at = attachment(i);
        a[i] = (struct att){0};
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                                              &a[i].type);
        if (refused() || a[i].type == GL_NONE) {
            a[i].type = GL_NONE;
            continue;
        }
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                                              &a[i].name);
        if (a[i].type != GL_TEXTURE)
            continue;
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL,
                                              &a[i].level);
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE,
                                              &a[i].face);
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, at, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER,
                                              &a[i].layer);
        refused();
        if (with_targets)
            a[i].target = texture_target((GLuint)a[i].name);
    }
}

static GLint bind_draw_framebuffer(GLuint fbo)
{
    GLint was = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &was);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    return was;
}

static int save_framebuffer(saved *x, char *why, size_t n)
{
    GLint was = bind_draw_framebuffer(x->obj);
    read_attachments(x->att, 1);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)was);
    return refused() ? failed(why, n, "the driver refused to read a framebuffer's attachments") : 0;
}

static void attach(GLenum at, const struct att *a)
{
    if (a->type == GL_RENDERBUFFER || a->type == GL_NONE)
        glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, at, GL_RENDERBUFFER, a->type == GL_NONE ? 0 : (GLuint)a->name);
    else if (a->target == GL_TEXTURE_3D || a->target == GL_TEXTURE_2D_ARRAY || a->target == GL_TEXTURE_CUBE_MAP_ARRAY)
        glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, at, (GLuint)a->name, a->level, a->layer);
    else
        glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, at, a->target == GL_TEXTURE_CUBE_MAP ? (GLenum)a->face : a->target,
                               (GLuint)a->name, a->level);
}

static int restore_framebuffer(const saved *x, uint64_t *calls, char *why, size_t n)
{
    struct att now[MAX_ATTS];
    GLint was = bind_draw_framebuffer(x->obj);
    read_attachments(now, 0);
    for (int i = 0; i < MAX_ATTS; i++) {
        const struct att *a = &x->att[i];
        if (now[i].type == a->type && now[i].name == a->name && now[i].level == a->level && now[i].face == a->face &&
            now[i].layer == a->layer)
            continue;
        attach(attachment(i), a);
        ++*calls;
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)was);
    return refused() ? failed(why, n, "the driver refused to attach a framebuffer's attachments again") : 0;
}

/* ---------------------------------------------------------------- the set */

int rp_shadows_save_attachments(rp_shadows *sh, char *why, size_t n)
{
    struct att a[MAX_ATTS];
    read_attachments(a, 1);
    for (int i = 0; i < MAX_ATTS; i++) {
        int cls = a[i].type == GL_RENDERBUFFER ? RP_RENDERBUFFER : a[i].type == GL_TEXTURE ? RP_TEXTURE : -1;
        if (cls >= 0 && rp_shadows_save(sh, cls, a[i].target, (GLuint)a[i].name, why, n) != 0)
            return -1;
    }
    return 0;
}

int rp_shadows_save(rp_shadows *sh, int cls, GLenum target, GLuint obj, char *why, size_t n)
{
    if (find(sh, cls, obj))
        return 0;
    if (sh->n == sh->cap) {
        size_t cap = sh->cap ? sh->cap * 2 : 16;
        saved *v = realloc(sh->v, cap * sizeof *v);
        if (!v)
            return failed(why, n, "out of memory");
        sh->v = v, sh->cap = cap;
    }
    saved *x = &sh->v[sh->n];
    *x = (saved){.cls = cls, .target = target, .obj = obj};
    refused();
    int rc = cls == RP_TEXTURE ? save_texture(x, why, n)
             : cls == RP_BUFFER ? save_buffer(x, why, n)
             : cls == RP_RENDERBUFFER ? save_renderbuffer(x, why, n)
             : cls == RP_FRAMEBUFFER  ? save_framebuffer(x, why, n)
                                      : failed(why, n, "the kept calls change an object that is not copied back");
    if (rc == 0)
        sh->n++;
    return rc;
}

int rp_shadows_restore(rp_shadows *sh, uint64_t *calls, char *why, size_t n)
{
    refused();
    for (size_t i = 0; i < sh->n; i++) {
        const saved *x = &sh->v[i];
        int rc = x->cls == RP_TEXTURE ? restore_texture(x, calls, why, n)
                 : x->cls == RP_BUFFER ? restore_buffer(x, calls, why, n)
                 : x->cls == RP_FRAMEBUFFER ? restore_framebuffer(x, calls, why, n)
                                       : restore_renderbuffer(x, calls, why, n);
        if (rc != 0)
            return -1;
    }
    return 0;
}
