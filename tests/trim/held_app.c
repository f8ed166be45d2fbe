/* held_app: random state churn between draws into a texture that
 * accumulates over the frames, for writing off before a mid-run capture's
 * start (capture/cap_defer.c): whatever capture holds back and drops,
 * every draw into the texture must see the state it saw, so the frames
 * after the start show the same picture whether the frames before were
 * held back or written whole.
 *
 * Each frame makes OPS random calls of the state that keys with selectors
 * (glActiveTexture units, the program in use), that reads other keys
 * (glVertexAttribPointer the array buffer), that queries, and draws into
 * the texture; then draws the texture into the window and swaps.
 *   held_app SEED */
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"
#include "quad_shader.h"
#include "sample_shader.h"

#define APP "held_app"
#define W 64
#define H 64
#define FRAMES 12
#define OPS 300

static const GLfloat small[] = {-0.3f, -0.3f, 0.3f, -0.3f, -0.3f, 0.3f, 0.3f, 0.3f};
static const GLfloat full[] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};

typedef struct prog {
    GLuint id;
    GLint offset, color, tex, textured;
} prog;

typedef struct app {
    prog p[2];
    int cur;            /* the program in use */
    GLuint buf[2];      /* small and full quads */
    GLuint sampled[2];  /* textures the random draws may sample */
    GLuint acc, fbo;    /* the texture that accumulates, and its framebuffer */
    unsigned rng;
} app;

static unsigned next(app *a)
{
    a->rng = a->rng * 1103515245u + 12345u;
    return a->rng >> 8;
}

static float unit(app *a)
{
    return (float)(next(a) % 1000) / 1000.0f;
}

static GLuint texture_of(unsigned seed)
{
    static GLubyte px[16 * 16 * 4];
    for (int i = 0; i < 16 * 16 * 4; i++) {
        seed = seed * 1664525u + 1013904223u;
        px[i] = (GLubyte)(seed >> 24);
    }
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

static void setup(app *a)
{
    for (int i = 0; i < 2; i++) {
        prog *p = &a->p[i];
        GLuint vs, fs;
        p->id = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
        p->offset = glGetUniformLocation(p->id, "u_offset");
        p->color = glGetUniformLocation(p->id, "u_color");
        p->tex = glGetUniformLocation(p->id, "u_tex");
        p->textured = glGetUniformLocation(p->id, "u_textured");
    }
    glGenBuffers(2, a->buf);
    glBindBuffer(GL_ARRAY_BUFFER, a->buf[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof small, small, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, a->buf[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof full, full, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    a->sampled[0] = texture_of(11u);
    a->sampled[1] = texture_of(29u);
    glGenTextures(1, &a->acc);
    glBindTexture(GL_TEXTURE_2D, a->acc);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &a->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a->acc, 0);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUseProgram(a->p[0].id);
}

static const GLenum factors[] = {GL_ONE, GL_ZERO, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_DST_COLOR};

/* One random call (or a draw into the accumulating texture). */
static void op(app *a)
{
    const prog *p = &a->p[a->cur];
    switch (next(a) % 16) {
    case 0: glEnable(GL_BLEND); break;
    case 1: glDisable(GL_BLEND); break;
    case 2: glBlendFunc(factors[next(a) % 5], factors[next(a) % 5]); break;
    case 3: glViewport((GLint)(next(a) % 16), (GLint)(next(a) % 16), W - (GLint)(next(a) % 32), H); break;
    case 4: glScissor((GLint)(next(a) % 32), (GLint)(next(a) % 32), 32, 32); break;
    case 5: (next(a) & 1 ? glEnable : glDisable)(GL_SCISSOR_TEST); break;
    case 6: a->cur = (int)(next(a) % 2); glUseProgram(a->p[a->cur].id); break;
    case 7: glUniform4f(p->color, unit(a), unit(a), unit(a), 0.25f + unit(a) * 0.5f); break;
    case 8: glUniform2f(p->offset, unit(a) - 0.5f, unit(a) - 0.5f); break;
    case 9: glActiveTexture(GL_TEXTURE0 + next(a) % 3); break;
    case 10: {
        unsigned k = next(a) % 3;
        glBindTexture(GL_TEXTURE_2D, k == 2 ? 0 : a->sampled[k]);
        break;
    }
    case 11: glUniform1i(p->tex, (GLint)(next(a) % 3)); break;
    case 12: glColorMask(next(a) & 1, next(a) & 1, GL_TRUE, GL_TRUE); break;
    case 13:
        if (glGetError() != GL_NO_ERROR || glIsEnabled(GL_DITHER) == GL_FALSE)
            fprintf(stderr, APP ": a GL error, or dithering off\n");
        break;
    case 14:
        glBindBuffer(GL_ARRAY_BUFFER, a->buf[next(a) % 2]);
        if (next(a) & 1)
            glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
        break;
    default:
        glUniform1f(p->textured, next(a) & 1 ? 0.5f : 0.0f);
        glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        break;
    }
}

/* The accumulated texture over the whole window, whatever the state. */
static void show(app *a)
{
    const prog *p = &a->p[0];
    glViewport(0, 0, W, H);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glUseProgram(p->id);
    a->cur = 0;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, a->acc);
    glUniform1i(p->tex, 0);
    glUniform1f(p->textured, 1.0f);
    glUniform2f(p->offset, 0.0f, 0.0f);
    glBindBuffer(GL_ARRAY_BUFFER, a->buf[1]);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glClearColor(0.2f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    /* Never sample the texture being drawn into. */
    glBindTexture(GL_TEXTURE_2D, a->sampled[0]);
}

int main(int argc, char **argv)
{
    if (argc != 2 || atoi(argv[1]) <= 0) {
        fprintf(stderr, "usage: " APP " SEED (a positive number)\n");
        return 2;
    }
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    app a = {.rng = (unsigned)atoi(argv[1])};
    setup(&a);
    for (int f = 0; f < FRAMES; f++) {
        for (int i = 0; i < OPS; i++)
            op(&a);
        show(&a);
        sample_egl_swap(&e);
    }
    GLenum err = glGetError();
    sample_egl_close(&e);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%x\n", err);
        return 1;
    }
    printf(APP ": seed %s, %d frames\n", argv[1], FRAMES);
    return 0;
}
