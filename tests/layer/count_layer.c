/* count_layer: a second GLES layer for the chain tests. It counts the calls
 * of a few functions it intercepts and writes "name count" lines to the
 * file COUNT_LAYER_OUT names, at exit. Passive for most (it keeps the
 * `next` GetProcAddress gives), active for eglSwapBuffers (looked up with
 * get_next_layer_proc_address at Initialize), as the contract allows both;
 * every other name gets `next` back unchanged. */
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef void *(*next_gpa_fn)(void *layer_id, const char *name);

enum { C_CLEAR, C_DRAW, C_BUFFER_DATA, C_UNIFORM4F, C_READ, C_SWAP, NCOUNTS };
static const char *const names[NCOUNTS] = {"glClear", "glDrawArrays", "glBufferData", "glUniform4f",
                                           "glReadPixels", "eglSwapBuffers"};
static _Atomic unsigned long counts[NCOUNTS];
static void *next[NCOUNTS];

static void cl_glClear(GLbitfield m)
{
    counts[C_CLEAR]++;
    ((PFNGLCLEARPROC)next[C_CLEAR])(m);
}
static void cl_glDrawArrays(GLenum mode, GLint first, GLsizei count)
{
    counts[C_DRAW]++;
    ((PFNGLDRAWARRAYSPROC)next[C_DRAW])(mode, first, count);
}
static void cl_glBufferData(GLenum t, GLsizeiptr size, const void *data, GLenum usage)
{
    counts[C_BUFFER_DATA]++;
    ((PFNGLBUFFERDATAPROC)next[C_BUFFER_DATA])(t, size, data, usage);
}
static void cl_glUniform4f(GLint loc, GLfloat a, GLfloat b, GLfloat c, GLfloat d)
{
    counts[C_UNIFORM4F]++;
    ((PFNGLUNIFORM4FPROC)next[C_UNIFORM4F])(loc, a, b, c, d);
}
static void cl_glReadPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum f, GLenum t, void *p)
{
    counts[C_READ]++;
    ((PFNGLREADPIXELSPROC)next[C_READ])(x, y, w, h, f, t, p);
}
static EGLBoolean cl_eglSwapBuffers(EGLDisplay d, EGLSurface s)
{
    counts[C_SWAP]++;
    return ((PFNEGLSWAPBUFFERSPROC)next[C_SWAP])(d, s);
}
static void *const ours[NCOUNTS] = {(void *)cl_glClear, (void *)cl_glDrawArrays, (void *)cl_glBufferData,
                                    (void *)cl_glUniform4f, (void *)cl_glReadPixels, (void *)cl_eglSwapBuffers};

static void write_counts(void)
{
    const char *out = getenv("COUNT_LAYER_OUT");
    FILE *f = out ? fopen(out, "w") : NULL;
    if (!f)
        return;
    for (int i = 0; i < NCOUNTS; i++)
        fprintf(f, "%s %lu\n", names[i], counts[i]);
    fclose(f);
}

EXPORT void AndroidGLESLayer_Initialize(void *layer_id, next_gpa_fn get_next)
{
    next[C_SWAP] = get_next(layer_id, "eglSwapBuffers");
    atexit(write_counts);
}

EXPORT void *AndroidGLESLayer_GetProcAddress(const char *name, void *nxt)
{
    for (int i = 0; i < NCOUNTS; i++) {
        if (strcmp(name, names[i]) == 0) {
            if (i != C_SWAP)
                next[i] = nxt;
            return ours[i];
        }
    }
    return nxt;
}
