/* rp_shader_copy.c: a texture image no framebuffer can hold (luminance,
 * alpha, luminance-alpha) read through a shader copy: drawn, texel for
 * texel (texelFetch, or the texel's direction for a cube face), into an
 * RGBA8 renderbuffer of replay's own, as sampling gives it with the
 * identity swizzle (luminance L as L, L, L, 1; alpha A as 0, 0, 0, A).
 * The app's state the draw touches is saved and put back; no copy is made
 * while transform feedback or a query would see the draw. GLES 3 only.
 * Used by inspect (a dump's picture) and trim (a level read back at the
 * start). */
#include "rp_internal.h"

#include <string.h>

#include <GLES3/gl32.h>

static const char vs_src[] = "#version 300 es\n"
                             "void main() {\n"
                             "  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n"
                             "  gl_Position = vec4(p, 0.0, 1.0);\n"
                             "}\n";
/* One fragment shader per kind of sampler: %s its declaration and fetch. */
static const char fs_head[] = "#version 300 es\n"
                              "precision highp float;\n"
                              "precision highp int;\n"
                              "uniform int u_lod, u_layer;\n"
                              "uniform vec2 u_size;\n"
                              "out vec4 o;\n";
static const char *const fs_body[] = {
    "uniform highp sampler2D s;\n"
    "void main() { o = texelFetch(s, ivec2(gl_FragCoord.xy), u_lod); }\n",
    "uniform highp sampler3D s;\n"
    "void main() { o = texelFetch(s, ivec3(ivec2(gl_FragCoord.xy), u_layer), u_lod); }\n",
    "uniform highp sampler2DArray s;\n"
    "void main() { o = texelFetch(s, ivec3(ivec2(gl_FragCoord.xy), u_layer), u_lod); }\n",
    /* A cube face: the direction through the texel's centre (ES 3.2 table 8.19). */
    "uniform highp samplerCube s;\n"
    "void main() {\n"
    "  vec2 c = gl_FragCoord.xy / u_size * 2.0 - 1.0;\n"
    "  float sc = c.x, tc = c.y;\n"
    "  vec3 d = u_layer == 0 ? vec3(1.0, -tc, -sc) : u_layer == 1 ? vec3(-1.0, -tc, sc)\n"
    "         : u_layer == 2 ? vec3(sc, 1.0, tc) : u_layer == 3 ? vec3(sc, -1.0, -tc)\n"
    "         : u_layer == 4 ? vec3(sc, -tc, 1.0) : vec3(-sc, -tc, -1.0);\n"
    "  o = textureLod(s, d, float(u_lod));\n"
    "}\n",
};

static GLuint shader(GLenum type, const char *a, const char *b)
{
    GLuint sh = glCreateShader(type);
    const char *src[2] = {a, b};
    glShaderSource(sh, b ? 2 : 1, src, NULL);
    glCompileShader(sh);
    return sh;
}

static GLuint program(int kind)
{
    GLuint vs = shader(GL_VERTEX_SHADER, vs_src, NULL), fs = shader(GL_FRAGMENT_SHADER, fs_head, fs_body[kind]);
    GLuint p = glCreateProgram();
    GLint ok = 0;
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    glDeleteShader(vs);
    glDeleteShader(fs);
    if (!ok) {
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

/* Why the draw cannot be made now (the app would see it), or NULL. */
static const char *busy(void)
{
    static const GLenum queries[] = {GL_ANY_SAMPLES_PASSED, GL_ANY_SAMPLES_PASSED_CONSERVATIVE,
                                     GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN};
    GLboolean xfb = 0;
    glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &xfb);
    if (xfb)
        return "transform feedback is active: no shader copy";
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        GLint q = 0;
        glGetQueryiv(queries[i], GL_CURRENT_QUERY, &q);
        if (q)
            return "a query is active: no shader copy";
    }
    return NULL;
}

static const GLenum caps[] = {GL_BLEND, GL_CULL_FACE, GL_DEPTH_TEST, GL_STENCIL_TEST, GL_SCISSOR_TEST,
                              GL_RASTERIZER_DISCARD, GL_POLYGON_OFFSET_FILL, GL_SAMPLE_ALPHA_TO_COVERAGE,
                              GL_SAMPLE_COVERAGE, GL_DITHER};
#define NCAPS (sizeof caps / sizeof caps[0])

/* What the copy changes. */
/* The texture's swizzle, set to the identity for the copy: what it holds, not how the app samples it. */
static const GLenum swizzles[4] = {GL_TEXTURE_SWIZZLE_R, GL_TEXTURE_SWIZZLE_G, GL_TEXTURE_SWIZZLE_B,
                                   GL_TEXTURE_SWIZZLE_A};
static const GLint identity[4] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};

typedef struct saved {
    GLint prog, vao, draw, read, rb, active, tex, sampler, view[4], swizzle[4];
    GLboolean on[NCAPS], mask[4];
} saved;

static void save(saved *s, GLenum binding)
{
    glGetIntegerv(GL_CURRENT_PROGRAM, &s->prog);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &s->vao);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s->draw);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s->read);
    glGetIntegerv(GL_RENDERBUFFER_BINDING, &s->rb);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &s->active);
    glGetIntegerv(GL_VIEWPORT, s->view);
    glGetBooleanv(GL_COLOR_WRITEMASK, s->mask);
    for (size_t i = 0; i < NCAPS; i++)
        s->on[i] = glIsEnabled(caps[i]);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(binding, &s->tex);
    glGetIntegerv(GL_SAMPLER_BINDING, &s->sampler);
}

static void restore(const saved *s, GLenum target)
{
    for (int i = 0; i < 4; i++) /* of the texture copied, still bound */
        glTexParameteri(target, swizzles[i], s->swizzle[i]);
    glBindTexture(target, (GLuint)s->tex);
    glBindSampler(0, (GLuint)s->sampler);
    glActiveTexture((GLenum)s->active);
    for (size_t i = 0; i < NCAPS; i++)
        (s->on[i] ? glEnable : glDisable)(caps[i]);
    glColorMask(s->mask[0], s->mask[1], s->mask[2], s->mask[3]);
    glViewport(s->view[0], s->view[1], s->view[2], s->view[3]);
    glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)s->rb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)s->draw);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)s->read);
    glBindVertexArray((GLuint)s->vao);
    glUseProgram((GLuint)s->prog);
}

/* The kind of sampler of a target: the index into fs_body, -1 none. */
static int kind_of(GLenum target, GLenum *binding)
{
    switch (target) {
    case GL_TEXTURE_2D: return *binding = GL_TEXTURE_BINDING_2D, 0;
    case GL_TEXTURE_3D: return *binding = GL_TEXTURE_BINDING_3D, 1;
    case GL_TEXTURE_2D_ARRAY: return *binding = GL_TEXTURE_BINDING_2D_ARRAY, 2;
    case GL_TEXTURE_CUBE_MAP: return *binding = GL_TEXTURE_BINDING_CUBE_MAP, 3;
    default: return -1;
    }
}

const char *rp_shader_copy(rp_shader_copier *c, GLuint tex, GLenum target, GLint level, GLint layer, GLint w, GLint h,
                           rp_shader_copy_read read, void *arg)
{
    GLenum binding = 0;
    int kind = kind_of(target, &binding);
    const char *why = kind < 0 ? "no shader copy for its target" : busy();
    if (why)
        return why;
    saved s;
    save(&s, binding);
    if (!c->prog[kind])
        c->prog[kind] = program(kind);
    GLuint prog = c->prog[kind], vao = 0, fbo = 0, rb = 0, sampler = 0;
    GLint base = 0;
    glBindTexture(target, tex);
    glGetTexParameteriv(target, GL_TEXTURE_BASE_LEVEL, &base);
    for (int i = 0; i < 4; i++) {
        s.swizzle[i] = identity[i];
        glGetTexParameteriv(target, swizzles[i], &s.swizzle[i]);
        glTexParameteri(target, swizzles[i], identity[i]);
    }
    glGenSamplers(1, &sampler); /* nearest, whatever the texture's filters; base level alone complete */
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, level == base ? GL_NEAREST : GL_NEAREST_MIPMAP_NEAREST);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindSampler(0, sampler);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (!prog || glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        why = "the shader copy cannot be made";
    } else {
        for (size_t i = 0; i < NCAPS; i++)
            glDisable(caps[i]);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glViewport(0, 0, w, h);
        glUseProgram(prog);
        glUniform1i(glGetUniformLocation(prog, "s"), 0);
        glUniform1i(glGetUniformLocation(prog, "u_lod"), level - base);
        glUniform1i(glGetUniformLocation(prog, "u_layer"), layer);
        glUniform2f(glGetUniformLocation(prog, "u_size"), (GLfloat)w, (GLfloat)h);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        why = read(arg, w, h);
    }
    restore(&s, target);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
    glDeleteVertexArrays(1, &vao);
    glDeleteSamplers(1, &sampler);
    while (glGetError() != GL_NO_ERROR)
        ;
    return why;
}

void rp_shader_copy_done(rp_shader_copier *c)
{
    for (int i = 0; i < 4; i++)
        if (c->prog[i])
            glDeleteProgram(c->prog[i]);
    c->prog[0] = c->prog[1] = c->prog[2] = c->prog[3] = 0;
}
