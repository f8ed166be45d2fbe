/* trim_app: frames whose start is hard to cut at, for gltrace trim's tests
 * (check_trim.py). Nine frames on a 64x64 pbuffer, OpenGL ES 3.0; the
 * argument says which case:
 *   map         a vertex buffer mapped at the end of each frame, written
 *               and unmapped in the next: every frame starts inside a
 *               mapping;
 *   accumulate  no clear after the first frame: each frame draws over what
 *               the earlier ones drew into the window;
 *   feedback    a texture drawn into, blended, every frame (never cleared),
 *               its state set by the same calls each frame with other
 *               float values, then drawn into the window;
 *   basevertex  the same, drawing into the texture with GLES 3.2's
 *               glDrawElementsBaseVertex (a function numbered from 4000);
 *   stream      each frame uploads a texture and a vertex buffer of its
 *               own (noise that does not compress), draws with them and
 *               deletes them. Objects whose contents outlive their names:
 *               a texture attached to a framebuffer and deleted at once,
 *               blitted into every frame; every third frame a new program,
 *               deleted as soon as it is in use (it lives until the next
 *               one replaces it), its shaders deleted once attached. Four
 *               textures of noise made first and never deleted, frame f
 *               drawing with the (f % 4)th: a trim of frames 7-8 needs two.
 *               A texture drawn once into another before the first frame
 *               and deleted: every frame draws with the other one.
 *   reupload    one texture and one vertex buffer, specified once, written
 *               whole every frame (glTexSubImage2D of all of it, then of
 *               an 8x8 corner; glBufferData, then glBufferSubData of its
 *               first vertex) and drawn into the window; frame 4 also
 *               makes the texture's mipmaps, which read what came before.
 *   settings    each frame sets its viewport, binds one of two textures to
 *               unit 1 (then selects unit 0 again), sets that texture's
 *               wrap mode and the sampler uniform, all with other integers
 *               than the frame before, and draws into the window; every
 *               third frame also draws blended into the framebuffer
 *               object's texture, which the window draws then show: what
 *               was set before such a draw is read by it.
 *   passes      each frame renders a pass into a multisampled colour
 *               renderbuffer with a stencil one: a clear of the colour, a
 *               path stencilled (colour writes off, stencil incremented)
 *               and covered (stencil test, stencil set back to 0), as
 *               Skia draws paths; the pass resolved by a blit into a
 *               texture, which the window then shows with a viewport of
 *               its own each frame (no frame repeats another).
 *   ahead       each frame clears the framebuffer object's texture,
 *               draws a quad into it at an offset the frame before set
 *               (after its last draw: glmark2's terrain sets its next
 *               noise offset so), blits the texture into the window,
 *               then sets the offset for the next frame: frames that
 *               differ only in that float.
 *   download    each frame draws blended into the framebuffer object's
 *               texture (never cleared), reads it back with glReadPixels
 *               into one of two pixel pack buffers in turn, through a
 *               framebuffer made for that read and deleted after it (as
 *               GStreamer's gldownload does); every third frame (0, 3,
 *               6) it uploads the other buffer (the frame before's read)
 *               into a second texture, which the window shows.
 *   queries     each frame asks, as mpv does, for the result of the query
 *               it began the frame before on the same object (one of
 *               two in turn), begins it again around a draw
 *               (GL_ANY_SAMPLES_PASSED), and clears the window with the
 *               scissor test on, its box all of the window.
 *   perframe    each frame makes a vertex array and a buffer of vertices,
 *               sets the array up, draws with it into the window and
 *               deletes both while still bound, as GTK 4 does.
 *   units       each frame draws a quad into the framebuffer object's
 *               texture (its corners from the quad buffer, as the frame
 *               before wrote them), then shows the texture through unit
 *               40 or 41 (the one the frame before bound it to), then
 *               binds it to the other for the next frame, unbinds the
 *               first and writes the next frame's corners into the
 *               buffer (glBufferSubData): units past 32 and a buffer's
 *               contents a frame reads from the one before.
 *   leak        each frame makes a framebuffer object with a texture of
 *               its own and a buffer of noise that attribute 1 points at
 *               (no later frame points it elsewhere; the program reads
 *               no attribute 1), draws into the texture, makes its
 *               mipmaps, shows it, then
 *               deletes the texture and the buffer but not the
 *               framebuffer object, as glmark2 leaks some scenes'.
 *   programs    each frame links a program of its own, clears the window
 *               and draws into it with the program, binds transform feedback 0 (a command
 *               trim's step 8 counts as reading everything), then uses
 *               the app's program again and deletes its own.
 *   chain       each frame draws a depth-tested quad into a framebuffer
 *               object with a depth renderbuffer (its colour and depth
 *               cleared first), then draws that texture into a second
 *               one without clearing it (over a narrower part each
 *               frame), and shows the second: passes as GStreamer's
 *               glfiltercube and gleffects chain them.
 *   rows        chain's passes, after an upload of a 4x4 corner of a
 *               picture 64 pixels wide into the app's texture
 *               (GL_UNPACK_ROW_LENGTH 64, then 0 again, as GTK 4 uploads
 *               glyphs into its atlas), which the window shows in a
 *               corner too.
 *   copies      each frame makes a texture, fills it with
 *               glCopyImageSubData from one of two textures of noise
 *               (named only there, never bound) and a corner from a
 *               colour renderbuffer, labels it (glObjectLabel), shows it
 *               and deletes it. Textures made and deleted first, which a
 *               trim leaves out, so the names of the textures after them
 *               differ on replay: names given with a target or an
 *               identifier must be mapped like any other. Then a query
 *               of its own around a draw that passes no sample, and a
 *               bright quad drawn only if it passed
 *               (NV_conditional_render, whose query name gl.xml does
 *               not class): nothing shows.
 *   float       a 10-bit video's passes in float, as mpv's high-quality
 *               profile runs them: each frame uploads noise into an
 *               RGBA16 texture (EXT_texture_norm16), adds half of it
 *               into an RGBA16F texture (glTexStorage2D, blended, never
 *               cleared: it passes 1.0), draws that over a moving part
 *               of an RGBA32F one (glTexImage2D with GL_FLOAT), adds a
 *               quarter of that into an R11F_G11F_B10F one
 *               (glTexStorage2D, blended), draws that scaled down over a
 *               moving part of an RG16 one (glTexStorage2D), and a
 *               colour over a moving part of an RGBA16F renderbuffer;
 *               the window shows the RG16 texture and, from frame 6,
 *               the renderbuffer blitted into a corner.
 *   stencil     the framebuffer object's texture with a stencil
 *               renderbuffer of its own (GL_STENCIL_INDEX8), cleared
 *               once: each frame counts a moving quad into the stencil
 *               (colour writes off, GL_INCR) and then, after clearing the
 *               colour, covers where it was counted twice or more with a
 *               colour of the frame: what the stencil holds is every
 *               frame's. The window shows the texture.
 *   integer     passes into integer targets, never cleared after the
 *               first frame: each frame draws a moving quad of values
 *               of its own into an RGBA8UI texture (glTexStorage2D), an
 *               R32I one (glTexImage2D, GL_RED_INTEGER GL_INT: large
 *               negative values), an RG16UI and an RGB10_A2UI one
 *               (glTexStorage2D); the window shows all four read with
 *               texelFetch, so what every frame drew shows.
 *   attach      the framebuffer object's texture made as Qt makes a
 *               layer's: generated, bound (which makes it), attached,
 *               bound again for its parameters and its storage; each
 *               frame clears it, draws a quad into it and shows it.
 *   invalidate  each frame invalidates the framebuffer object's colour
 *               (glInvalidateFramebuffer, as mpv does before each pass),
 *               clears it, draws a quad into it and shows it; then
 *               invalidates it again, under other bindings.
 *   switches    each frame flushes and makes its context current without
 *               a surface, then flushes and makes it current with the
 *               pbuffer again, as ANGLE (chromium's GPU process) does
 *               around each task; frame 3 writes a corner of a texture
 *               of noise while it has no surface. Each frame shows that
 *               texture and a quad where the frame puts it.
 *   canvas      each frame makes a framebuffer object for its pass into
 *               the texture, as chromium's canvas does: generated,
 *               bound, the texture attached; the pass's vertices
 *               written into the quad buffer (glBufferData) while it is
 *               bound; a clear and a quad drawn; then unbound, deleted,
 *               and the texture shown.
 *   atlas       as chromium draws text: each frame writes a glyph (8x8
 *               of noise) at a new place of an R8 atlas (glTexStorage2D,
 *               glTexSubImage2D), clears a multisampled colour
 *               renderbuffer, draws a quad sampling the atlas into it,
 *               resolves it into a texture (a blit) and shows that.
 *   glyphs      as a GLES 2 app draws text: three 32x32 atlases of
 *               GL_ALPHA, GL_LUMINANCE and GL_LUMINANCE_ALPHA (unsized,
 *               glTexImage2D), each frame writing a glyph (8x8 of noise)
 *               at a new place of each (glTexSubImage2D) and showing the
 *               three, texel for texel, in three corners of the window;
 *               the last one swizzled (green from alpha).
 *   unused      as ANGLE does with each context it makes: each frame
 *               makes three textures (one glGenTextures each) and deletes
 *               them unused, probes a format as chromium does (a
 *               texture and a framebuffer made, the texture attached,
 *               the framebuffer's completeness asked, both deleted),
 *               then clears the window and draws a quad. As
 *               Skia does with programs it never compiles, a texture made
 *               and filled before the first frame is never used.
 *   refused     each frame sets a viewport of its own, makes two calls
 *               the driver refuses (glLineWidth of -1: GL_INVALID_VALUE;
 *               the 2D texture bound to GL_TEXTURE_CUBE_MAP:
 *               GL_INVALID_OPERATION), clears the window and draws a
 *               quad; it takes the errors (glGetError) before its swap.
 * Exits 0 only if GL reported no error (refused: none but its own). */
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <EGL/egl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "quad_shader.h"
#include "sample_shader.h"

#define APP "trim_app"
#define W 64
#define H 64
#define FRAMES 9

static const GLfloat quad[] = {-0.25f, -0.25f, 0.25f, -0.25f, -0.25f, 0.25f, 0.25f, 0.25f};
static const GLfloat full[] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};

typedef struct app {
    GLuint prog, vbo, tex, fbo;
    GLint u_offset, u_color, u_tex, u_textured;
    int base_vertex; /* draw into the texture with glDrawElementsBaseVertex */
} app;

static void draw_quad(const app *a, float x, float y, float r, float g, float b, float alpha, float textured)
{
    glUniform2f(a->u_offset, x, y);
    glUniform4f(a->u_color, r, g, b, alpha);
    glUniform1f(a->u_textured, textured);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* The texture bound, over all of the viewport (a client array), then the
 * quad buffer at attribute 0 again. */
static void draw_texture(const app *a)
{
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, full);
    draw_quad(a, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
}

/* The window cleared, then the texture bound on unit 0 drawn over all of
 * it. */
static void show_texture(const app *a)
{
    glViewport(0, 0, W, H);
    glClearColor(0.0f, 0.0f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_texture(a);
}

static void frame_map(app *a, int f, void **mapped)
{
    glClearColor(0.1f * (float)f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (*mapped) { /* mapped in the frame before */
        GLfloat v[8];
        for (int i = 0; i < 8; i++)
            v[i] = quad[i] * (1.0f + 0.2f * (float)f);
        memcpy(*mapped, v, sizeof v);
        glUnmapBuffer(GL_ARRAY_BUFFER);
        *mapped = NULL;
    }
    draw_quad(a, 0.05f * (float)f, 0.0f, 1.0f, 0.5f, 0.0f, 1.0f, 0.0f);
    *mapped = glMapBufferRange(GL_ARRAY_BUFFER, 0, sizeof quad, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
}

static void frame_accumulate(app *a, int f)
{
    if (f == 0) {
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    draw_quad(a, -0.75f + 0.18f * (float)f, -0.75f + 0.18f * (float)f, 0.2f + 0.1f * (float)f, 0.9f, 0.3f, 1.0f, 0.0f);
}

static void frame_feedback(app *a, int f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glViewport(0, 0, 32, 32);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    if (a->base_vertex) {
        static const GLubyte idx[] = {0, 1, 2, 3};
        GLuint ebo;
        glGenBuffers(1, &ebo);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
        glUniform2f(a->u_offset, -0.5f + 0.1f * (float)f, 0.0f);
        glUniform4f(a->u_color, 0.1f, 0.05f, 0.02f * (float)f, 1.0f);
        glUniform1f(a->u_textured, 0.0f);
        glDrawElementsBaseVertex(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_BYTE, 0, 0);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
        glDeleteBuffers(1, &ebo);
    } else {
        draw_quad(a, -0.5f + 0.1f * (float)f, 0.0f, 0.1f, 0.05f, 0.02f * (float)f, 1.0f, 0.0f);
    }
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    show_texture(a);
}

static float ahead_offset(int f)
{
    return -0.5f + 0.1f * (float)f;
}

static void frame_ahead(app *a, int f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glViewport(0, 0, 32, 32);
    glClearColor(0.0f, 0.1f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUniform4f(a->u_color, 1.0f, 0.5f, 0.25f, 1.0f);
    glUniform1f(a->u_textured, 0.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4); /* at the offset the frame before set */
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, 32, 32, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUniform2f(a->u_offset, ahead_offset(f + 1), 0.0f);
}

typedef struct download {
    GLuint pbo[2], shown;
} download;

static void download_setup(download *d)
{
    static const GLubyte zero[32 * 32 * 4];
    glGenBuffers(2, d->pbo);
    for (int i = 0; i < 2; i++) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, d->pbo[i]);
        glBufferData(GL_PIXEL_PACK_BUFFER, sizeof zero, zero, GL_STREAM_READ);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glGenTextures(1, &d->shown);
    glBindTexture(GL_TEXTURE_2D, d->shown);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

static void frame_download(download *d, app *a, int f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glViewport(0, 0, 32, 32);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    draw_quad(a, -0.6f + 0.15f * (float)f, 0.1f * (float)(f % 3), 0.1f, 0.05f * (float)f, 0.2f, 0.0f, 0.0f);
    glDisable(GL_BLEND);
    GLuint once;
    glGenFramebuffers(1, &once);
    glBindFramebuffer(GL_FRAMEBUFFER, once);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a->tex, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, d->pbo[f % 2]);
    glReadPixels(0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &once);
    glBindTexture(GL_TEXTURE_2D, d->shown);
    if (f % 3 == 0) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, d->pbo[(f + 1) % 2]);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, 0);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    }
    show_texture(a);
}

static void frame_queries(const GLuint *q, app *a, int f)
{
    GLuint any = 0;
    if (f >= 2)
        glGetQueryObjectuiv(q[f % 2], GL_QUERY_RESULT, &any);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, W, H);
    glClearColor(0.1f * (float)(f % 4), 0.2f, any ? 0.3f : 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glBeginQuery(GL_ANY_SAMPLES_PASSED, q[f % 2]);
    draw_quad(a, -0.5f + 0.1f * (float)f, 0.0f, 1.0f, 0.5f, 0.0f, 1.0f, 0.0f);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
}

static void frame_perframe(app *a, int f)
{
    GLuint vao, vbo;
    GLfloat v[8];
    for (int i = 0; i < 8; i++)
        v[i] = quad[i] * (1.0f + 0.2f * (float)f);
    glClearColor(0.0f, 0.1f * (float)(f % 3), 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    draw_quad(a, 0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 1.0f, 0.0f);
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
}

/* A toolkit that sets state again and again between draws, resets some
 * of it, and asks for errors (bench/callloop's pattern inside frames):
 * before a mid-run capture's start, held back and replaced (cap_defer.c).
 * Unit 1's binding is read by nothing but must be there at the start. */
static void frame_churn(app *a, int f)
{
    glClearColor(0.0f, 0.0f, 0.1f * (float)(f % 4), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < 50; i++) {
        glEnable(GL_BLEND);
        glDisable(GL_BLEND);
        glUniform4f(a->u_color, (float)i / 50.0f, 0.0f, 0.0f, 1.0f);
        glViewport(0, 0, W - i % 2, H);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, i % 2 ? a->tex : 0);
        glActiveTexture(GL_TEXTURE0);
        if (glGetError() != GL_NO_ERROR)
            fprintf(stderr, APP ": churn: a GL error\n");
    }
    glViewport(0, 0, W, H);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    draw_quad(a, -0.5f + 0.1f * (float)f, 0.0f, 0.0f, 1.0f, 0.5f, 0.5f, 0.0f);
    glDisable(GL_BLEND);
    glUniform1f(a->u_textured, 1.0f); /* the next frame's first draw sets it again */
}

#define NOISE 64

/* NOISE x NOISE RGBA texels of a generator seeded with `seed`. */
static void noise(GLubyte *px, unsigned seed)
{
    for (int i = 0; i < NOISE * NOISE * 4; i++) {
        seed = seed * 1103515245u + 12345u;
        px[i] = (GLubyte)(seed >> 16);
    }
}

typedef struct stream {
    GLuint prog, held_fbo, level[4], baked;
    GLint u_offset, u_color, u_textured;
} stream;

/* Textures whose contents outlive their names: one attached, then
 * deleted; one drawn into another (baked), then deleted. */
static void stream_setup(stream *s, const app *a)
{
    static GLubyte px[NOISE * NOISE * 4];
    GLuint held;
    noise(px, 7);
    glGenTextures(1, &held);
    glBindTexture(GL_TEXTURE_2D, held);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, NOISE, NOISE, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glGenFramebuffers(1, &s->held_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, s->held_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, held, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteTextures(1, &held); /* the framebuffer holds it */
    glGenTextures(4, s->level);
    for (int i = 0; i < 4; i++) {
        noise(px, 50u + (unsigned)i);
        glBindTexture(GL_TEXTURE_2D, s->level[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, NOISE, NOISE, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    GLuint src, fbo;
    noise(px, 9);
    glGenTextures(1, &src);
    glBindTexture(GL_TEXTURE_2D, src);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, NOISE, NOISE, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenTextures(1, &s->baked);
    glBindTexture(GL_TEXTURE_2D, s->baked);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, NOISE, NOISE, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s->baked, 0);
    glViewport(0, 0, NOISE, NOISE);
    glBindTexture(GL_TEXTURE_2D, src);
    draw_quad(a, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &src); /* its pixels live on in baked */
    glViewport(0, 0, W, H);
}

/* A new program, deleted once in use: it lives until the next replaces it. */
static void stream_program(stream *s)
{
    GLuint vs, fs;
    s->prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    glDeleteShader(vs);
    glDeleteShader(fs);
    s->u_offset = glGetUniformLocation(s->prog, "u_offset");
    s->u_color = glGetUniformLocation(s->prog, "u_color");
    s->u_textured = glGetUniformLocation(s->prog, "u_textured");
    glUseProgram(s->prog);
    glDeleteProgram(s->prog);
    glUniform1i(glGetUniformLocation(s->prog, "u_tex"), 0);
}

typedef struct reupload {
    GLuint tex, vbo;
} reupload;

static void reupload_setup(reupload *u)
{
    glGenTextures(1, &u->tex);
    glBindTexture(GL_TEXTURE_2D, u->tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, NOISE, NOISE, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenBuffers(1, &u->vbo);
}

static void frame_reupload(const reupload *u, const app *a, int f)
{
    static GLubyte px[NOISE * NOISE * 4];
    glClearColor(0.2f, 0.1f * (float)f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    noise(px, 200u + (unsigned)f);
    glBindTexture(GL_TEXTURE_2D, u->tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, NOISE, NOISE, GL_RGBA, GL_UNSIGNED_BYTE, px);
    noise(px, 300u + (unsigned)f);
    glTexSubImage2D(GL_TEXTURE_2D, 0, f, f, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (f == 4)
        glGenerateMipmap(GL_TEXTURE_2D);
    GLfloat v[8];
    for (int i = 0; i < 8; i++)
        v[i] = quad[i] * (2.0f + 0.1f * (float)f);
    glBindBuffer(GL_ARRAY_BUFFER, u->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_DYNAMIC_DRAW);
    GLfloat corner[2] = {-0.9f + 0.05f * (float)f, -0.9f};
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof corner, corner);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    draw_quad(a, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
}

static void frame_settings(const GLuint tex[2], const app *a, int f)
{
    glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glViewport(f % 3, 0, W - f % 3, H);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, tex[f % 2]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, f % 2 ? GL_REPEAT : GL_CLAMP_TO_EDGE);
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(a->u_tex, 1);
    if (f % 3 == 2) {
        glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
        glViewport(0, 0, 32, 32);
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
        draw_quad(a, 0.1f * (float)f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.5f);
        glDisable(GL_BLEND);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(f % 3, 0, W - f % 3, H);
    }
    draw_quad(a, -0.5f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f);
    glUniform1i(a->u_tex, 0);
    draw_quad(a, 0.5f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f);
}

static void settings_setup(GLuint tex[2])
{
    static GLubyte px[NOISE * NOISE * 4];
    glGenTextures(2, tex);
    for (int i = 0; i < 2; i++) {
        noise(px, 400u + (unsigned)i);
        glBindTexture(GL_TEXTURE_2D, tex[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, NOISE, NOISE, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
}

static void frame_stream(stream *s, const app *a, int f)
{
    static GLubyte px[NOISE * NOISE * 4];
    glClearColor(0.0f, 0.1f * (float)f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (f % 3 == 0)
        stream_program(s);
    glBindTexture(GL_TEXTURE_2D, s->level[f % 4]);
    glUniform2f(s->u_offset, -0.7f, 0.7f);
    glUniform4f(s->u_color, 0.0f, 0.0f, 0.0f, 1.0f);
    glUniform1f(s->u_textured, 1.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    GLuint tex, vbo;
    noise(px, 100u + (unsigned)f);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, NOISE, NOISE, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLfloat v[8];
    for (int i = 0; i < 8; i++)
        v[i] = quad[i] * (2.0f + 0.1f * (float)f);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glUniform2f(s->u_offset, 0.0f, 0.0f);
    glUniform4f(s->u_color, 0.0f, 0.0f, 0.0f, 1.0f);
    glUniform1f(s->u_textured, 1.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glDeleteBuffers(1, &vbo);
    glDeleteTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, s->baked);
    glUniform2f(s->u_offset, 0.7f, -0.7f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->held_fbo);
    glBlitFramebuffer(0, 0, 16, 16, W - 16, 0, W, 16, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
}

typedef struct passes {
    GLuint ms_fbo, ms_color, ms_stencil, resolve_fbo, resolved;
} passes;

static void passes_setup(passes *p)
{
    glGenRenderbuffers(1, &p->ms_color);
    glBindRenderbuffer(GL_RENDERBUFFER, p->ms_color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 32, 32);
    glGenRenderbuffers(1, &p->ms_stencil);
    glBindRenderbuffer(GL_RENDERBUFFER, p->ms_stencil);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_STENCIL_INDEX8, 32, 32);
    glGenFramebuffers(1, &p->ms_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, p->ms_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, p->ms_color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, p->ms_stencil);
    glClear(GL_STENCIL_BUFFER_BIT);
    glGenTextures(1, &p->resolved);
    glBindTexture(GL_TEXTURE_2D, p->resolved);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &p->resolve_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, p->resolve_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, p->resolved, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

static void frame_passes(passes *p, const app *a, int f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, p->ms_fbo);
    glBindTexture(GL_TEXTURE_2D, 0); /* the pass samples nothing (its program's sampler reads unit 0) */
    glViewport(0, 0, 32, 32);
    glClearColor(0.1f, 0.1f * (float)f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_STENCIL_TEST);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glStencilFunc(GL_ALWAYS, 0, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR_WRAP);
    draw_quad(a, -0.2f + 0.05f * (float)f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glStencilFunc(GL_NOTEQUAL, 0, 0xff);
    glStencilOp(GL_ZERO, GL_ZERO, GL_ZERO);
    draw_quad(a, -0.2f + 0.05f * (float)f, 0.0f, 0.9f, 0.6f, 0.1f, 1.0f, 0.0f);
    glDisable(GL_STENCIL_TEST);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, p->resolve_fbo);
    glBlitFramebuffer(0, 0, 32, 32, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(f, 0, W - f, H);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindTexture(GL_TEXTURE_2D, p->resolved);
    draw_texture(a);
}

/* Unit 40 + f % 2 holds the texture when frame f starts (see the top). */
static void frame_units(app *a, int f)
{
    int now = 40 + f % 2, next = 40 + (f + 1) % 2;
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glViewport(0, 0, 32, 32);
    draw_quad(a, -0.5f + 0.1f * (float)f, 0.0f, 1.0f, 0.5f, 0.1f * (float)f, 1.0f, 0.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUniform1i(a->u_tex, now);
    show_texture(a);
    glActiveTexture(GL_TEXTURE0 + (GLenum)next);
    glBindTexture(GL_TEXTURE_2D, a->tex);
    glActiveTexture(GL_TEXTURE0 + (GLenum)now);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    GLfloat v[8];
    for (int i = 0; i < 8; i++)
        v[i] = quad[i] * (1.0f + 0.15f * (float)((f + 1) % 4));
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof v, v);
}

typedef struct copies {
    GLuint src[2], rb;
    PFNGLBEGINCONDITIONALRENDERNVPROC begin_conditional; /* NV_conditional_render, NULL without it */
    PFNGLENDCONDITIONALRENDERNVPROC end_conditional;
} copies;

static void copies_setup(copies *c)
{
    static GLubyte px[NOISE * NOISE * 4];
    GLuint unused[3], fbo, unused_queries[3];
    glGenQueries(3, unused_queries); /* never used */
    if (strstr((const char *)glGetString(GL_EXTENSIONS), "GL_NV_conditional_render")) {
        c->begin_conditional = (PFNGLBEGINCONDITIONALRENDERNVPROC)eglGetProcAddress("glBeginConditionalRenderNV");
        c->end_conditional = (PFNGLENDCONDITIONALRENDERNVPROC)eglGetProcAddress("glEndConditionalRenderNV");
    }
    for (int i = 0; i < 3; i++) { /* deleted before the start: a trim leaves them out, names and all */
        glGenTextures(1, &unused[i]);
        glBindTexture(GL_TEXTURE_2D, unused[i]);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 8, 8);
        glDeleteTextures(1, &unused[i]);
    }
    glGenTextures(2, c->src);
    for (int i = 0; i < 2; i++) {
        noise(px, 20u + (unsigned)i);
        glBindTexture(GL_TEXTURE_2D, c->src[i]);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, px);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenRenderbuffers(1, &c->rb);
    glBindRenderbuffer(GL_RENDERBUFFER, c->rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, c->rb);
    glClearColor(0.9f, 0.8f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
}

static void frame_copies(const copies *c, const app *a, int f)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glCopyImageSubData(c->src[f % 2], GL_TEXTURE_2D, 0, 0, 0, 0, t, GL_TEXTURE_2D, 0, 0, 0, 0, 32, 32, 1);
    glCopyImageSubData(c->rb, GL_RENDERBUFFER, 0, 0, 0, 0, t, GL_TEXTURE_2D, 0, 2 * f, 3 * f, 0, 8, 8, 1);
    glObjectLabel(GL_TEXTURE, t, -1, "frame copy");
    show_texture(a);
    glDeleteTextures(1, &t);
    if (!c->begin_conditional || !c->end_conditional)
        return;
    GLuint q;
    glGenQueries(1, &q);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 0, 0); /* the draw passes no sample */
    glBeginQuery(GL_ANY_SAMPLES_PASSED, q);
    draw_quad(a, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.0f);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
    glDisable(GL_SCISSOR_TEST);
    c->begin_conditional(q, GL_QUERY_WAIT_NV);
    draw_quad(a, 0.1f * (float)(f % 3), 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.0f); /* not drawn */
    c->end_conditional();
    glDeleteQueries(1, &q);
}

static void frame_leak(const app *a, int f)
{
    static GLubyte px[NOISE * NOISE * 4];
    GLuint fbo, tex, vbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    noise(px, 300u + (unsigned)f);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof px, px, GL_STATIC_DRAW);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, 0);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glViewport(0, 0, 32, 32);
    glClearColor(0.1f * (float)(f % 5), 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_quad(a, -0.3f + 0.05f * (float)f, 0.0f, 0.9f, 0.5f, 0.1f, 1.0f, 0.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glGenerateMipmap(GL_TEXTURE_2D); /* reads what was drawn, into the texture itself */
    show_texture(a);
    glDeleteTextures(1, &tex);
    glDeleteBuffers(1, &vbo);
}

typedef struct chain {
    GLuint fbo[2], tex[2], depth;
} chain;

static void chain_setup(chain *c)
{
    glGenTextures(2, c->tex);
    glGenFramebuffers(2, c->fbo);
    glGenRenderbuffers(1, &c->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, c->depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 32, 32);
    for (int i = 0; i < 2; i++) {
        glBindTexture(GL_TEXTURE_2D, c->tex[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, c->fbo[i]);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, c->tex[i], 0);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, c->depth);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

static void frame_chain(const chain *c, const app *a, int f)
{
    glViewport(0, 0, 32, 32);
    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo[0]);
    glClearColor(0.1f, 0.2f, 0.1f * (float)(f % 9), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    draw_quad(a, -0.4f + 0.1f * (float)f, 0.2f, 0.9f, 0.3f, 0.2f, 1.0f, 0.0f);
    glDisable(GL_DEPTH_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo[1]); /* drawn over, never cleared */
    glViewport(0, 0, 32 - f, 32);                  /* no frame repeats another */
    glBindTexture(GL_TEXTURE_2D, c->tex[0]);
    draw_quad(a, 0.1f * (float)(f % 3), 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, c->tex[1]);
    show_texture(a);
}

static void frame_rows(const chain *c, const app *a, int f)
{
    static uint8_t picture[64 * 4 * 4];
    for (size_t i = 0; i < sizeof picture; i++)
        picture[i] = (uint8_t)(i * 7 + (size_t)f * 13);
    glBindTexture(GL_TEXTURE_2D, a->tex);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 64);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 4 * (f % 8), 4 * (f % 3), 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, picture);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    frame_chain(c, a, f);
    glViewport(0, 0, 16, 16);
    glBindTexture(GL_TEXTURE_2D, a->tex);
    draw_texture(a);
}

static void frame_programs(const app *a, int f)
{
    GLuint vs, fs, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glClearColor(0.0f, 0.0f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);
    glUniform2f(glGetUniformLocation(prog, "u_offset"), 0.05f * (float)f, 0.0f);
    glUniform4f(glGetUniformLocation(prog, "u_color"), 0.2f, 0.1f * (float)(f % 7), 0.8f, 1.0f);
    glUniform1f(glGetUniformLocation(prog, "u_textured"), 0.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    glUseProgram(a->prog);
    glDeleteProgram(prog);
}

static GLuint stencil_setup(const app *a)
{
    GLuint rb;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_STENCIL_INDEX8, 32, 32);
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
    glClearStencil(0);
    glClear(GL_STENCIL_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return rb;
}

static void frame_stencil(app *a, int f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glViewport(0, 0, 32, 32);
    glEnable(GL_STENCIL_TEST);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glStencilFunc(GL_ALWAYS, 0, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
    draw_quad(a, -0.6f + 0.13f * (float)f, -0.3f + 0.07f * (float)(f % 5), 1.0f, 1.0f, 1.0f, 1.0f, 0.0f);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDisable(GL_STENCIL_TEST);
    glClearColor(0.0f, 0.0f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_LEQUAL, 2, 0xff); /* 2 <= the count */
    glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, full);
    draw_quad(a, 0.0f, 0.0f, 0.2f + 0.08f * (float)f, 0.9f, 0.4f, 1.0f, 0.0f);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glDisable(GL_STENCIL_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    show_texture(a);
}

static void attach_setup(app *a)
{
    glDeleteTextures(1, &a->tex);
    glGenTextures(1, &a->tex);
    glBindTexture(GL_TEXTURE_2D, a->tex); /* makes the texture: the name is no object before */
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a->tex, 0);
    glBindTexture(GL_TEXTURE_2D, a->tex); /* covers the first binding's key: nothing read it since */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

static void frame_attach(app *a, int f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glViewport(0, 0, 32, 32);
    glClearColor(0.1f, 0.05f * (float)f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_quad(a, -0.5f + 0.1f * (float)f, 0.1f, 0.2f, 0.9f, 0.4f, 1.0f, 0.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    show_texture(a);
}

/* The texture of noise `switches` shows. */
static GLuint switches_setup(void)
{
    static unsigned char noise[16 * 16 * 4];
    sample_noise(noise, sizeof noise, 7);
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, noise);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
}

static void frame_switches(const sample_egl *e, app *a, GLuint tex, int f)
{
    glFlush();
    if (!eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e->ctx)) {
        fprintf(stderr, APP ": eglMakeCurrent without a surface failed: 0x%x\n", eglGetError());
        exit(1);
    }
    if (f == 3) {
        unsigned char corner[4 * 4 * 4];
        sample_noise(corner, sizeof corner, 11);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, corner);
    }
    glFlush();
    if (!eglMakeCurrent(e->dpy, e->surf, e->surf, e->ctx)) {
        fprintf(stderr, APP ": eglMakeCurrent failed: 0x%x\n", eglGetError());
        exit(1);
    }
    glBindTexture(GL_TEXTURE_2D, tex);
    show_texture(a);
    draw_quad(a, -0.8f + 0.15f * (float)f, -0.2f, 0.9f, 0.8f, 0.1f, 1.0f, 0.0f);
}

static void frame_canvas(app *a, int f)
{
    GLuint pass;
    glGenFramebuffers(1, &pass);
    glBindFramebuffer(GL_FRAMEBUFFER, pass);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a->tex, 0);
    float d = 0.05f * (float)f;
    const float moved[8] = {-0.25f + d, -0.25f, 0.25f + d, -0.25f, -0.25f + d, 0.25f, 0.25f + d, 0.25f};
    glBufferData(GL_ARRAY_BUFFER, sizeof moved, moved, GL_DYNAMIC_DRAW);
    glViewport(0, 0, 32, 32);
    glClearColor(0.2f, 0.1f, 0.05f * (float)f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_quad(a, 0.0f, 0.0f, 0.9f, 0.3f, 0.2f, 1.0f, 0.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &pass);
    glBindTexture(GL_TEXTURE_2D, a->tex);
    show_texture(a);
}

/* The atlas `atlas` writes glyphs into, all zero first. */
static GLuint atlas_setup(void)
{
    static unsigned char zero[64 * 64];
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R8, 64, 64);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 64, 64, GL_RED, GL_UNSIGNED_BYTE, zero);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
}

static void frame_atlas(const passes *p, app *a, GLuint atlas, int f)
{
    unsigned char glyph[8 * 8];
    sample_noise(glyph, sizeof glyph, 100 + (unsigned)f);
    glBindTexture(GL_TEXTURE_2D, atlas);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, (f % 8) * 8, (f / 8) * 8, 8, 8, GL_RED, GL_UNSIGNED_BYTE, glyph);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindFramebuffer(GL_FRAMEBUFFER, p->ms_fbo);
    glViewport(0, 0, 32, 32);
    glClearColor(0.1f, 0.2f, 0.1f * (float)(f % 4), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_quad(a, -0.3f + 0.05f * (float)f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, p->ms_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, p->resolve_fbo);
    glBlitFramebuffer(0, 0, 32, 32, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, p->resolved);
    show_texture(a);
}

static const GLenum glyph_formats[3] = {GL_ALPHA, GL_LUMINANCE, GL_LUMINANCE_ALPHA};

/* The atlases `glyphs` writes into, all zero first. */
static void glyphs_setup(GLuint atlas[3])
{
    static unsigned char zero[32 * 32 * 2];
    glGenTextures(3, atlas);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int i = 0; i < 3; i++) {
        glBindTexture(GL_TEXTURE_2D, atlas[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, (GLint)glyph_formats[i], 32, 32, 0, glyph_formats[i], GL_UNSIGNED_BYTE, zero);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_G, GL_ALPHA); /* shown so; read back as it is held */
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

/* Atlas i's glyph of frame f: noise seeded 200 + 3f + i (check_trim.py
 * builds the atlases from the same). */
static void frame_glyphs(const GLuint atlas[3], app *a, int f)
{
    unsigned char glyph[8 * 8 * 2];
    glViewport(0, 0, W, H);
    glClearColor(0.3f, 0.1f * (float)f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < 3; i++) {
        sample_noise(glyph, sizeof glyph, 200 + 3 * (unsigned)f + (unsigned)i);
        glBindTexture(GL_TEXTURE_2D, atlas[i]);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexSubImage2D(GL_TEXTURE_2D, 0, (f % 4) * 8, (f / 4) * 8, 8, 8, glyph_formats[i], GL_UNSIGNED_BYTE, glyph);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glViewport((i % 2) * 32, (i / 2) * 32, 32, 32);
        draw_texture(a);
    }
}

static void unused_setup(void)
{
    static const unsigned char texel[4] = {10, 20, 30, 40};
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    glBindTexture(GL_TEXTURE_2D, 0);
}

/* A format probe, as chromium makes them: a texture attached to a
 * framebuffer made for it, its completeness asked, the read and draw
 * framebuffers bound back one by one, then both deleted. */
static void probe_format(void)
{
    GLint bound = 0;
    GLuint tex, fb;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fprintf(stderr, APP ": the probe's framebuffer is not complete\n");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glBindTexture(GL_TEXTURE_2D, (GLuint)bound);
    glDeleteTextures(1, &tex);
}

static void frame_unused(app *a, int f)
{
    GLuint names[3];
    for (int i = 0; i < 3; i++)
        glGenTextures(1, &names[i]);
    for (int i = 0; i < 3; i++)
        glDeleteTextures(1, &names[(i + 1) % 3]);
    probe_format();
    glClearColor(0.2f, 0.1f * (float)f, 0.4f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_quad(a, -0.8f + 0.15f * (float)f, 0.1f, 0.9f, 0.9f, 0.2f, 1.0f, 0.0f);
}

static void frame_refused(app *a, int f)
{
    glViewport(0, 0, W - f, H - 2 * f);
    glLineWidth(-1.0f);
    glBindTexture(GL_TEXTURE_CUBE_MAP, a->tex);
    glClearColor(0.1f, 0.1f * (float)f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_quad(a, -0.8f + 0.15f * (float)f, 0.3f, 0.2f, 0.9f, 0.5f, 1.0f, 0.0f);
    while (glGetError() != GL_NO_ERROR)
        ;
}

static void frame_invalidate(app *a, int f)
{
    static const GLenum colour = GL_COLOR_ATTACHMENT0;
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, &colour);
    glViewport(0, 0, 32, 32);
    glClearColor(0.0f, 0.05f * (float)f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_quad(a, -0.5f + 0.1f * (float)f, 0.0f, 0.9f, 0.4f, 0.1f, 1.0f, 0.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    show_texture(a);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, a->fbo);
    glInvalidateFramebuffer(GL_READ_FRAMEBUFFER, 1, &colour);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
}

typedef struct floats {
    GLuint src, f16, f32, f11, n16, rb, fbo[5]; /* fbo: f16's, f32's, f11's, rb's, n16's */
} floats;

static void floats_texture(GLuint tex, GLenum ifmt, int storage, GLenum fmt, GLenum type)
{
    glBindTexture(GL_TEXTURE_2D, tex);
    if (storage)
        glTexStorage2D(GL_TEXTURE_2D, 1, ifmt, 32, 32);
    else
        glTexImage2D(GL_TEXTURE_2D, 0, (GLint)ifmt, 32, 32, 0, fmt, type, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

static void floats_setup(floats *fl)
{
    GLuint tex[5];
    glGenTextures(5, tex);
    fl->src = tex[0], fl->f16 = tex[1], fl->f32 = tex[2], fl->f11 = tex[3], fl->n16 = tex[4];
    floats_texture(fl->src, GL_RGBA16_EXT, 0, GL_RGBA, GL_UNSIGNED_SHORT);
    floats_texture(fl->n16, GL_RG16_EXT, 1, 0, 0);
    floats_texture(fl->f16, GL_RGBA16F, 1, 0, 0);
    floats_texture(fl->f32, GL_RGBA32F, 0, GL_RGBA, GL_FLOAT);
    floats_texture(fl->f11, GL_R11F_G11F_B10F, 1, 0, 0);
    glGenRenderbuffers(1, &fl->rb);
    glBindRenderbuffer(GL_RENDERBUFFER, fl->rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA16F, 32, 32);
    glGenFramebuffers(5, fl->fbo);
    const GLuint att[5] = {fl->f16, fl->f32, fl->f11, 0, fl->n16};
    for (int i = 0; i < 5; i++) {
        glBindFramebuffer(GL_FRAMEBUFFER, fl->fbo[i]);
        if (i != 3)
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, att[i], 0);
        else
            glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, fl->rb);
        glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

/* The texture bound, scaled by `scale` (u_color 0: the mix is tex *
 * scale), over all of the viewport (a client array), then the quad buffer
 * at attribute 0 again. */
static void draw_scaled(const app *a, float scale)
{
    glUniform4f(a->u_color, 0.0f, 0.0f, 0.0f, 0.0f);
    glUniform1f(a->u_textured, scale);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, full);
    glUniform2f(a->u_offset, 0.0f, 0.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
}

/* Texture tex drawn, scaled by `scale`, over all of the 32x32 target
 * (whole) or the moving quad. */
static void floats_pass(const app *a, GLuint fbo, GLuint tex, float scale, int whole, int blend, int f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(0, 0, 32, 32);
    glBindTexture(GL_TEXTURE_2D, tex);
    if (blend) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
    }
    if (whole)
        draw_scaled(a, scale);
    else
        draw_quad(a, -0.6f + 0.15f * (float)f, 0.1f * (float)(f % 4), 0.0f, 0.0f, 0.0f, 0.0f, scale);
    glDisable(GL_BLEND);
}

static void frame_floats(const floats *fl, const app *a, int f)
{
    static uint16_t noise[32 * 32 * 4];
    uint32_t x = 2463534242u + (uint32_t)f;
    for (size_t i = 0; i < sizeof noise / sizeof noise[0]; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        noise[i] = (uint16_t)x;
    }
    glBindTexture(GL_TEXTURE_2D, fl->src);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_SHORT, noise);
    floats_pass(a, fl->fbo[0], fl->src, 0.5f, 1, 1, f);
    floats_pass(a, fl->fbo[1], fl->f16, 1.0f, 0, 0, f);
    floats_pass(a, fl->fbo[2], fl->f32, 0.25f, 1, 1, f);
    floats_pass(a, fl->fbo[4], fl->f11, 0.15f, 0, 0, f + 2);
    glBindFramebuffer(GL_FRAMEBUFFER, fl->fbo[3]);
    glBindTexture(GL_TEXTURE_2D, 0); /* the program samples unit 0 (a mix weighing it 0): none read */
    draw_quad(a, -0.5f + 0.12f * (float)f, -0.4f + 0.1f * (float)(f % 3), 0.1f * (float)f, 0.37f, 1.0f - 0.09f * (float)f,
              1.0f, 0.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, W, H);
    glClearColor(0.0f, 0.0f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindTexture(GL_TEXTURE_2D, fl->n16);
    draw_scaled(a, 1.0f);
    if (f >= 6) { /* a blit reads the renderbuffer: before a mid-run start, capture writes what it read at once */
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fl->fbo[3]);
        glBlitFramebuffer(0, 0, 32, 32, 0, 0, 16, 16, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
}

/* Integer targets: 0 RGBA8UI, 1 R32I, 2 RG16UI, 3 RGB10_A2UI. */
typedef struct ints {
    GLuint tex[4], fbo[4], put_u, put_i, show, vao_none;
    GLint u_u, u_i, off_u, off_i;
} ints;

static const char *ints_vs = "#version 300 es\n"
                             "layout(location = 0) in vec2 p;\n"
                             "uniform vec2 u_offset;\n"
                             "void main() { gl_Position = vec4(p + u_offset, 0.0, 1.0); }\n";
static const char *ints_put_u = "#version 300 es\n"
                                "uniform highp uvec4 u_value;\n"
                                "layout(location = 0) out highp uvec4 o;\n"
                                "void main() { o = u_value; }\n";
static const char *ints_put_i = "#version 300 es\n"
                                "uniform highp ivec4 u_value;\n"
                                "layout(location = 0) out highp ivec4 o;\n"
                                "void main() { o = u_value; }\n";
static const char *ints_show = "#version 300 es\n"
                               "precision highp float;\n"
                               "uniform highp usampler2D u_a, u_c, u_d;\n"
                               "uniform highp isampler2D u_b;\n"
                               "out vec4 o;\n"
                               "void main() {\n"
                               "  ivec2 t = ivec2(gl_FragCoord.xy) / 2;\n"
                               "  uvec4 a = texelFetch(u_a, t, 0), c = texelFetch(u_c, t, 0), d = texelFetch(u_d, t, 0);\n"
                               "  ivec4 b = texelFetch(u_b, t, 0);\n"
                               "  o = vec4(float((a.r ^ a.b) & 255u) / 255.0, float((-b.r) % 65536) / 65535.0,\n"
                               "           float(c.g % 251u) / 250.0, 0.5 + float(d.r + d.a * 7u) / 4096.0);\n"
                               "}\n";

static void ints_setup(ints *in)
{
    static const GLenum ifmt[4] = {GL_RGBA8UI, GL_R32I, GL_RG16UI, GL_RGB10_A2UI};
    glGenTextures(4, in->tex);
    glGenFramebuffers(4, in->fbo);
    for (int i = 0; i < 4; i++) {
        glBindTexture(GL_TEXTURE_2D, in->tex[i]);
        if (i == 1)
            glTexImage2D(GL_TEXTURE_2D, 0, GL_R32I, 32, 32, 0, GL_RED_INTEGER, GL_INT, NULL);
        else
            glTexStorage2D(GL_TEXTURE_2D, 1, ifmt[i], 32, 32);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, in->fbo[i]);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, in->tex[i], 0);
        static const GLuint zu[4];
        static const GLint zi[4];
        if (i == 1)
            glClearBufferiv(GL_COLOR, 0, zi);
        else
            glClearBufferuiv(GL_COLOR, 0, zu);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    GLuint vs, fs;
    in->put_u = sample_shader_program(APP, ints_vs, ints_put_u, &vs, &fs);
    in->put_i = sample_shader_program(APP, ints_vs, ints_put_i, &vs, &fs);
    in->show = sample_shader_program(APP, ints_vs, ints_show, &vs, &fs);
    in->u_u = glGetUniformLocation(in->put_u, "u_value");
    in->u_i = glGetUniformLocation(in->put_i, "u_value");
    in->off_u = glGetUniformLocation(in->put_u, "u_offset");
    in->off_i = glGetUniformLocation(in->put_i, "u_offset");
    glUseProgram(in->show);
    static const char *names[4] = {"u_a", "u_b", "u_c", "u_d"};
    for (int i = 0; i < 4; i++)
        glUniform1i(glGetUniformLocation(in->show, names[i]), i);
}

static void frame_ints(const ints *in, const app *a, int f)
{
    const GLuint u = (GLuint)f;
    const GLuint uv[3][4] = {{u * 17u + 3u, 40u, 200u - u * 9u, 255u},
                             {0u, u * 7000u + 1u, 0u, 0u},
                             {u * 100u + 5u, 1023u - u, u * 50u, u % 4u}};
    const GLint iv[4] = {-100003 * (f + 1), 0, 0, 0};
    glViewport(0, 0, 32, 32);
    for (int i = 0; i < 4; i++) {
        glBindFramebuffer(GL_FRAMEBUFFER, in->fbo[i]);
        int sgn = i == 1;
        glUseProgram(sgn ? in->put_i : in->put_u);
        glUniform2f(sgn ? in->off_i : in->off_u, -0.6f + 0.13f * (float)f + 0.05f * (float)i, 0.1f * (float)(f % 4));
        if (sgn)
            glUniform4iv(in->u_i, 1, iv);
        else
            glUniform4uiv(in->u_u, 1, uv[i == 0 ? 0 : i - 1]);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, W, H);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(in->show);
    for (int i = 0; i < 4; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, in->tex[i]);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, full);
    glUniform2f(glGetUniformLocation(in->show, "u_offset"), 0.0f, 0.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
}

int main(int argc, char **argv)
{
    const char *mode = argc == 2 ? argv[1] : "";
    if (strcmp(mode, "map") && strcmp(mode, "accumulate") && strcmp(mode, "feedback") && strcmp(mode, "stream") &&
        strcmp(mode, "reupload") && strcmp(mode, "settings") && strcmp(mode, "passes") && strcmp(mode, "ahead") && strcmp(mode, "basevertex") &&
        strcmp(mode, "download") && strcmp(mode, "queries") && strcmp(mode, "perframe") && strcmp(mode, "churn") &&
        strcmp(mode, "units") && strcmp(mode, "copies") && strcmp(mode, "leak") &&
        strcmp(mode, "programs") && strcmp(mode, "chain") && strcmp(mode, "rows") && strcmp(mode, "float") &&
        strcmp(mode, "invalidate") && strcmp(mode, "stencil") && strcmp(mode, "integer") && strcmp(mode, "attach") &&
        strcmp(mode, "switches") && strcmp(mode, "refused") && strcmp(mode, "canvas") &&
        strcmp(mode, "atlas") && strcmp(mode, "glyphs") && strcmp(mode, "unused")) {
        fprintf(stderr, "usage: " APP " map|accumulate|feedback|basevertex|stream|reupload|settings|passes|ahead|"
                        "download|queries|perframe|churn|units|copies|leak|programs|chain|rows|float|invalidate|stencil|"
                        "integer|attach|switches|refused|canvas|atlas|glyphs|unused\n");
        return 2;
    }
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    app a = {0};
    a.base_vertex = !strcmp(mode, "basevertex");
    GLuint vs, fs;
    a.prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    a.u_offset = glGetUniformLocation(a.prog, "u_offset");
    a.u_color = glGetUniformLocation(a.prog, "u_color");
    a.u_tex = glGetUniformLocation(a.prog, "u_tex");
    a.u_textured = glGetUniformLocation(a.prog, "u_textured");
    glUseProgram(a.prog);
    glUniform1i(a.u_tex, 0);
    glGenBuffers(1, &a.vbo);
    glBindBuffer(GL_ARRAY_BUFFER, a.vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_DYNAMIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glGenTextures(1, &a.tex);
    glBindTexture(GL_TEXTURE_2D, a.tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &a.fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, a.fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a.tex, 0);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, W, H);

    void *mapped = NULL;
    stream st;
    reupload ru;
    GLuint pair[2];
    passes ps;
    download dl;
    GLuint queries[2];
    copies cp;
    if (!strcmp(mode, "copies"))
        copies_setup(&cp);
    chain ch;
    if (!strcmp(mode, "chain") || !strcmp(mode, "rows"))
        chain_setup(&ch);
    if (!strcmp(mode, "stencil"))
        stencil_setup(&a);
    floats fl;
    if (!strcmp(mode, "float"))
        floats_setup(&fl);
    ints in;
    if (!strcmp(mode, "integer"))
        ints_setup(&in);
    if (!strcmp(mode, "attach"))
        attach_setup(&a);
    GLuint noise = !strcmp(mode, "switches") ? switches_setup() : 0;
    if (!strcmp(mode, "settings"))
        settings_setup(pair);
    if (!strcmp(mode, "passes") || !strcmp(mode, "atlas"))
        passes_setup(&ps);
    GLuint atlas = !strcmp(mode, "atlas") ? atlas_setup() : 0, glyphs[3];
    if (!strcmp(mode, "glyphs"))
        glyphs_setup(glyphs);
    if (!strcmp(mode, "unused"))
        unused_setup();
    if (!strcmp(mode, "ahead"))
        glUniform2f(a.u_offset, ahead_offset(0), 0.0f);
    if (!strcmp(mode, "download"))
        download_setup(&dl);
    if (!strcmp(mode, "queries"))
        glGenQueries(2, queries);
    if (!strcmp(mode, "units")) {
        glActiveTexture(GL_TEXTURE0 + 40);
        glBindTexture(GL_TEXTURE_2D, a.tex);
        glActiveTexture(GL_TEXTURE0);
    }
    if (!strcmp(mode, "stream"))
        stream_setup(&st, &a);
    else if (!strcmp(mode, "reupload"))
        reupload_setup(&ru);
    for (int f = 0; f < FRAMES; f++) {
        if (!strcmp(mode, "stream"))
            frame_stream(&st, &a, f);
        else if (!strcmp(mode, "reupload"))
            frame_reupload(&ru, &a, f);
        else if (!strcmp(mode, "settings"))
            frame_settings(pair, &a, f);
        else if (!strcmp(mode, "passes"))
            frame_passes(&ps, &a, f);
        else if (!strcmp(mode, "map"))
            frame_map(&a, f, &mapped);
        else if (!strcmp(mode, "accumulate"))
            frame_accumulate(&a, f);
        else if (!strcmp(mode, "ahead"))
            frame_ahead(&a, f);
        else if (!strcmp(mode, "download"))
            frame_download(&dl, &a, f);
        else if (!strcmp(mode, "queries"))
            frame_queries(queries, &a, f);
        else if (!strcmp(mode, "perframe"))
            frame_perframe(&a, f);
        else if (!strcmp(mode, "churn"))
            frame_churn(&a, f);
        else if (!strcmp(mode, "units"))
            frame_units(&a, f);
        else if (!strcmp(mode, "copies"))
            frame_copies(&cp, &a, f);
        else if (!strcmp(mode, "leak"))
            frame_leak(&a, f);
        else if (!strcmp(mode, "programs"))
            frame_programs(&a, f);
        else if (!strcmp(mode, "chain"))
            frame_chain(&ch, &a, f);
        else if (!strcmp(mode, "rows"))
            frame_rows(&ch, &a, f);
        else if (!strcmp(mode, "float"))
            frame_floats(&fl, &a, f);
        else if (!strcmp(mode, "integer"))
            frame_ints(&in, &a, f);
        else if (!strcmp(mode, "attach"))
            frame_attach(&a, f);
        else if (!strcmp(mode, "invalidate"))
            frame_invalidate(&a, f);
        else if (!strcmp(mode, "switches"))
            frame_switches(&e, &a, noise, f);
        else if (!strcmp(mode, "refused"))
            frame_refused(&a, f);
        else if (!strcmp(mode, "canvas"))
            frame_canvas(&a, f);
        else if (!strcmp(mode, "atlas"))
            frame_atlas(&ps, &a, atlas, f);
        else if (!strcmp(mode, "glyphs"))
            frame_glyphs(glyphs, &a, f);
        else if (!strcmp(mode, "unused"))
            frame_unused(&a, f);
        else if (!strcmp(mode, "stencil"))
            frame_stencil(&a, f);
        else
            frame_feedback(&a, f);
        sample_egl_swap(&e);
    }
    if (mapped)
        glUnmapBuffer(GL_ARRAY_BUFFER);
    GLenum err = glGetError();
    sample_egl_close(&e);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%x\n", err);
        return 1;
    }
    printf(APP ": %s, %d frames\n", mode, FRAMES);
    return 0;
}
