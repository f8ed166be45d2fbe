/* rp_inspect_images.c: pixels to files (PNG when they read as RGBA8, raw
 * bytes with a JSON header otherwise), and the bound framebuffers
 * (attachments, their formats and sizes, the colour attachments of the
 * draw framebuffer as pictures). Reads go through a framebuffer
 * of the dump's own, as replay's snapshots do; the app's bindings and
 * pack state are put back after. GLES 3 only: GLES 1 and 2 cannot read
 * textures or buffers back. Textures and buffers: rp_inspect_textures.c. */
#include "rp_inspect_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_diff.h"
#include "gt_enums.h"
#include "gt_read_buffer.h"

static int refused(void)
{
    int bad = 0;
    while (glGetError() != GL_NO_ERROR)
        bad = 1;
    return bad ? -1 : 0;
}

/* The pack state and read binding the reads change. */
typedef struct packed { GLint align, row, rows, px, pbuf, rfb, rbuf; } packed;

static void pack_save(packed *p)
{
    glGetIntegerv(GL_PACK_ALIGNMENT, &p->align);
    glGetIntegerv(GL_PACK_ROW_LENGTH, &p->row);
    glGetIntegerv(GL_PACK_SKIP_ROWS, &p->rows);
    glGetIntegerv(GL_PACK_SKIP_PIXELS, &p->px);
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &p->pbuf);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &p->rfb);
    glGetIntegerv(GL_READ_BUFFER, &p->rbuf);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

static void pack_restore(const packed *p)
{
    glPixelStorei(GL_PACK_ALIGNMENT, p->align);
    glPixelStorei(GL_PACK_ROW_LENGTH, p->row);
    glPixelStorei(GL_PACK_SKIP_ROWS, p->rows);
    glPixelStorei(GL_PACK_SKIP_PIXELS, p->px);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)p->pbuf);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)p->rfb);
    glReadBuffer(gt_read_buffer_settable(p->rbuf));
}

/* ---------------------------------------------------------------- pixels to files */

/* How a colour buffer of component type `ctype` is read: RGBA8, float
 * or integer RGBA. 0 when it cannot be. */
static int read_format(GLenum ctype, GLenum *format, GLenum *type, int *bpp)
{
    *format = GL_RGBA, *type = GL_UNSIGNED_BYTE, *bpp = 4;
    if (ctype == GL_UNSIGNED_NORMALIZED || ctype == GL_SIGNED_NORMALIZED || ctype == GL_NONE)
        return 1;
    *bpp = 16;
    if (ctype == GL_FLOAT)
        return *type = GL_FLOAT, 1;
    *format = GL_RGBA_INTEGER;
    if (ctype == GL_INT)
        return *type = GL_INT, 1;
    if (ctype == GL_UNSIGNED_INT)
        return *type = GL_UNSIGNED_INT, 1;
    return 0;
}

/* Reads the read framebuffer's read buffer (w x h) into a file named
 * `stem`.png (RGBA8; rows top first when `upright`, else as GL stores
 * them, row 0 first) or `stem`.bin with `stem`.json. Writes the file's
 * name as the member "file" (or "unreadable": why). */
void ik_read_to_file(ik *k, const char *stem, GLint w, GLint h, GLenum ctype, int upright)
{
    GLenum format, type;
    int bpp;
    const char *why = NULL;
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        why = "no size";
    else if (!read_format(ctype, &format, &type, &bpp))
        why = "a component type replay cannot read";
    size_t row = (size_t)w * (size_t)(why ? 0 : bpp), n = row * (size_t)h;
    uint8_t *px = why ? NULL : malloc(n);
    if (!why && !px)
        why = "out of memory";
    if (px) {
        packed p;
        pack_save(&p);
        glReadPixels(0, 0, w, h, format, type, px);
        if (refused() != 0)
            why = "the driver cannot read it";
        pack_restore(&p);
    }
    char file[256], err[GT_DIFF_ERR_MAX];
    if (!why && bpp == 4) {
        gt_diff_image img = {0};
        if (gt_diff_image_alloc(&img, (uint32_t)w, (uint32_t)h) != 0) {
            why = "out of memory";
        } else {
            for (GLint y = 0; y < h; y++)
                memcpy(img.rgba + (size_t)y * row, px + (size_t)(upright ? h - 1 - y : y) * row, row);
            snprintf(file, sizeof file, "%s.png", stem);
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", k->dir, file);
            if (gt_diff_png_write(path, &img, err) != 0)
                why = "cannot write the PNG";
            else
                k->files++;
        }
        gt_diff_image_free(&img);
    } else if (!why) {
        snprintf(file, sizeof file, "%s.bin", stem);
        char head[512], hname[256];
        int hn = snprintf(head, sizeof head,
                          "{\"width\": %d, \"height\": %d, \"format\": \"%s\", \"type\": \"%s\", "
                          "\"bytes_per_pixel\": %d, \"rows\": \"%s\", \"data\": \"%s\"}\n",
                          w, h, format == GL_RGBA ? "GL_RGBA" : "GL_RGBA_INTEGER",
                          type == GL_FLOAT ? "GL_FLOAT" : type == GL_INT ? "GL_INT" : "GL_UNSIGNED_INT", bpp,
                          upright ? "top first" : "row 0 first", file);
        snprintf(hname, sizeof hname, "%s.json", stem);
        if (ik_file(k, file, px, n) != 0 || ik_file(k, hname, head, (size_t)hn) != 0)
            why = "cannot write the file";
    }
    free(px);
    ij_key(k->w, why ? "unreadable" : "file");
    ij_str(k->w, why ? why : file);
}

/* Depth (GL_DEPTH_COMPONENT as GL_UNSIGNED_INT, GL_NV_read_depth) or
 * stencil (GL_STENCIL_INDEX as GL_UNSIGNED_BYTE, GL_NV_read_stencil) of
 * the read framebuffer, read as replay's --fb-depth snapshots read them:
 * `stem`.bin (rows as GL stores them, row 0 first) with `stem`.json, and
 * `stem`.png beside, grey: depth scaled from the lowest to the highest
 * value present, stencil as it is. Members "file" (the PNG) and "raw", or
 * "unreadable". */
void ik_read_depth_to_file(ik *k, const char *stem, GLint w, GLint h, GLenum format, int upright)
{
    int depth = format == GL_DEPTH_COMPONENT, bpp = depth ? 4 : 1;
    const char *why = NULL;
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        why = "no size";
    else if (!ik_has_ext(k, depth ? "GL_NV_read_depth" : "GL_NV_read_stencil"))
        why = depth ? "the driver cannot read depth (no GL_NV_read_depth)"
                    : "the driver cannot read stencil (no GL_NV_read_stencil)";
    size_t n = why ? 0 : (size_t)w * (size_t)h * (size_t)bpp;
    uint8_t *px = n ? malloc(n) : NULL;
    if (!why && !px)
        why = "out of memory";
    if (px) {
        packed p;
        pack_save(&p);
        glReadPixels(0, 0, w, h, format, depth ? GL_UNSIGNED_INT : GL_UNSIGNED_BYTE, px);
        if (refused() != 0)
            why = "the driver cannot read it";
        pack_restore(&p);
    }
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; !why && i < n / (size_t)bpp; i++) {
        uint32_t v = px[i];
        if (depth)
            memcpy(&v, px + 4 * i, 4);
        lo = v < lo ? v : lo, hi = v > hi ? v : hi;
    }
    char raw[256], head[512], hname[256], png[256], err[GT_DIFF_ERR_MAX];
    snprintf(raw, sizeof raw, "%s.bin", stem);
    snprintf(hname, sizeof hname, "%s.json", stem);
    snprintf(png, sizeof png, "%s.png", stem);
    if (!why) {
        int hn = snprintf(head, sizeof head,
                          "{\"width\": %d, \"height\": %d, \"format\": \"%s\", \"type\": \"%s\", "
                          "\"bytes_per_pixel\": %d, \"rows\": \"row 0 first\", \"data\": \"%s\", "
                          "\"min\": %u, \"max\": %u, \"png\": \"%s\"}\n",
                          w, h, depth ? "GL_DEPTH_COMPONENT" : "GL_STENCIL_INDEX",
                          depth ? "GL_UNSIGNED_INT" : "GL_UNSIGNED_BYTE", bpp, raw, lo, hi,
                          depth ? "grey: min -> 0, max -> 255" : "grey: the stencil value");
        if (ik_file(k, raw, px, n) != 0 || ik_file(k, hname, head, (size_t)hn) != 0)
            why = "cannot write the file";
    }
    gt_diff_image img = {0};
    if (!why && gt_diff_image_alloc(&img, (uint32_t)w, (uint32_t)h) == 0) {
        for (GLint y = 0; y < h; y++) {
            const uint8_t *row = px + (size_t)(upright ? h - 1 - y : y) * (size_t)w * (size_t)bpp;
            for (GLint x = 0; x < w; x++) {
                uint32_t v = row[x];
                if (depth) {
                    memcpy(&v, row + 4 * x, 4);
                    v = hi > lo ? (uint32_t)(((uint64_t)(v - lo) * 255u) / (hi - lo)) : 128u;
                }
                uint8_t *o = img.rgba + ((size_t)y * (size_t)w + (size_t)x) * 4;
                o[0] = o[1] = o[2] = (uint8_t)v, o[3] = 255;
            }
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", k->dir, png);
        if (gt_diff_png_write(path, &img, err) == 0)
            k->files++;
        else
            png[0] = 0;
    } else {
        png[0] = 0;
    }
    gt_diff_image_free(&img);
    free(px);
    if (why) {
        ij_key(k->w, "unreadable");
        ij_str(k->w, why);
        return;
    }
    ij_key(k->w, "file");
    ij_str(k->w, png[0] ? png : NULL);
    ij_key(k->w, "raw");
    ij_str(k->w, raw);
}

/* ---------------------------------------------------------------- framebuffers */

static int get_attachment(ik *k, const gt_api_state *s, void *arg, double *v, int n)
{
    (void)k;
    const GLenum *ta = arg; /* target, attachment */
    GLint i[4] = {0};
    if (n > 4)
        return -1;
    glGetFramebufferAttachmentParameteriv(ta[0], ta[1], s->pname, i);
    for (int j = 0; j < n; j++)
        v[j] = (GLuint)i[j];
    return refused();
}

/* An attachment of framebuffer `fbo` as files: colour (kind 0) as a
 * picture, depth or stencil (kind GL_DEPTH_COMPONENT, GL_STENCIL_INDEX)
 * raw and grey. fbo is bound for reading around it, its read buffer put
 * back. */
static void attachment_file(ik *k, const char *key, GLuint fbo, GLenum att, GLenum kind, GLint w, GLint h,
                            GLenum ctype)
{
    char stem[96];
    snprintf(stem, sizeof stem, "%s-%s", key, gt_api_enum_name(att, 0, 0) + 3);
    GLint rfb = 0, rbuf = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &rfb);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glGetIntegerv(GL_READ_BUFFER, &rbuf);
    if (kind) {
        ik_read_depth_to_file(k, stem, w, h, kind, 1);
    } else {
        glReadBuffer(att);
        ik_read_to_file(k, stem, w, h, ctype, 1);
        glReadBuffer(gt_read_buffer_settable(rbuf));
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)rfb);
    refused();
}

static void framebuffer(ik *k, const char *key, GLenum target, GLenum binding, int pictures)
{
    GLint fbo = 0;
    glGetIntegerv(binding, &fbo);
    ij_key(k->w, key);
    ij_obj(k->w);
    ij_key(k->w, "name");
    ik_name(k, GT_STATE_FRAMEBUFFER_NAME, (GLuint)fbo);
    ij_key(k->w, "status");
    ij_enum(k->w, glCheckFramebufferStatus(target));
    GLint ncolor = 1;
    if (fbo)
        glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &ncolor);
    ij_key(k->w, "attachments");
    ij_obj(k->w);
    for (GLint i = 0; i < ncolor + 2 && i < 34; i++) {
        GLenum att = i < ncolor ? (fbo ? (GLenum)(GL_COLOR_ATTACHMENT0 + i) : GL_BACK)
                     : i == ncolor ? (fbo ? GL_DEPTH_ATTACHMENT : GL_DEPTH)
                                   : (fbo ? GL_STENCIL_ATTACHMENT : GL_STENCIL);
        GLint type = GL_NONE, ctype = GL_NONE;
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        if (refused() != 0 || type == GL_NONE)
            continue;
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &ctype);
        refused();
        ij_key(k->w, gt_api_enum_name(att, 0, 0));
        ij_obj(k->w);
        GLenum ta[2] = {target, att};
        ik_rows(k, GT_STATE_ATTACHMENT, GT_STATE_CONTEXT, get_attachment, ta);
        if (fbo) {
            GLint name = 0;
            glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
            ij_key(k->w, "object");
            ik_name(k, type == GL_TEXTURE ? GT_STATE_TEXTURE_NAME : GT_STATE_RENDERBUFFER_NAME, (GLuint)name);
        }
        GLint w = 0, h = 0;
        if (fbo) {
            rp_attachment_size(target, att, k->ver >= 31, &w, &h);
        } else {
            EGLSurface surf = target == GL_READ_FRAMEBUFFER ? k->r->bound_read : k->r->bound_draw;
            eglQuerySurface(k->r->dpy, surf, EGL_WIDTH, &w);
            eglQuerySurface(k->r->dpy, surf, EGL_HEIGHT, &h);
        }
        ij_key(k->w, "width");
        ij_int(k->w, w);
        ij_key(k->w, "height");
        ij_int(k->w, h);
        if (pictures && k->resources)
            attachment_file(k, key, (GLuint)fbo, att, i < ncolor ? 0 : i == ncolor ? GL_DEPTH_COMPONENT
                                                                                : GL_STENCIL_INDEX,
                            w, h, (GLenum)ctype);
        ij_end(k->w, '}');
    }
    ij_end(k->w, '}');
    ij_end(k->w, '}');
}

void ik_framebuffers(ik *k)
{
    if (k->ver < 30)
        return;
    if (k->r->initial_held) /* a new surface's recorded pixels are in it by now */
        rp_initial_flush(k->r);
    ij_key(k->w, "framebuffers");
    ij_obj(k->w);
    GLint draw = 0, read = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    framebuffer(k, "draw", GL_DRAW_FRAMEBUFFER, GL_DRAW_FRAMEBUFFER_BINDING, 1);
    /* The read framebuffer's files when it is another: else draw's are its. */
    framebuffer(k, "read", GL_READ_FRAMEBUFFER, GL_READ_FRAMEBUFFER_BINDING, read != draw);
    ij_end(k->w, '}');
}
