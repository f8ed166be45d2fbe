/* arrays_maps: memory the driver reads after the call that names it.
 *
 * Client-side vertex arrays (no buffer bound) drawn with glDrawArrays from a
 * `first` > 0, with client indices of each type, with indices in an element
 * buffer, with an instanced array of divisor 2, with glDrawRangeElements and
 * glDrawElementsBaseVertex; then buffers written through each kind of map:
 * invalidate-buffer, explicit flushes, read-only, unsynchronized range, and
 * a persistent coherent map (EXT_buffer_storage) drawn from. GLES 3.2 on a
 * 64x64 pbuffer, one frame. The data is made by formulas that
 * check_arrays_maps.py recomputes, so the test knows every byte the driver
 * read. Prints the frame's fingerprint; exits 1 on any GL error. */
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <EGL/egl.h>
#include <stdio.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "arrays_maps"
#define W 64
#define H 64
#define NV 10 /* vertices in the client arrays */

static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "layout(location = 1) in vec4 a_col;\n"
                             "layout(location = 2) in vec2 a_off;\n"
                             "out vec4 v_col;\n"
                             "void main() { v_col = a_col; gl_Position = vec4(a_pos + a_off, 0.0, 1.0); }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "in vec4 v_col;\n"
                             "out vec4 o;\n"
                             "void main() { o = v_col; }\n";

/* Colours with 4 bytes of padding after each, so the stride (20) is not the
 * element size (16) and the bytes between elements are recorded too. */
typedef struct {
    GLfloat rgba[4];
    GLubyte pad[4];
} colour;

static void check_error(const char *where)
{
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%04x after %s\n", e, where);
        _Exit(1);
    }
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);

    GLuint vs = sample_shader_compile(APP, GL_VERTEX_SHADER, vs_src);
    GLuint fs = sample_shader_compile(APP, GL_FRAGMENT_SHADER, fs_src);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glUseProgram(prog);

    /* Exact binary fractions: the test recomputes them bit for bit. */
    static GLfloat pos[NV][2];
    static colour col[NV];
    static GLfloat off[4][2];
    for (int i = 0; i < NV; i++) {
        pos[i][0] = (float)i / 16.0f - 0.5f;
        pos[i][1] = (float)(i % 3) / 4.0f - 0.25f;
        col[i] = (colour){{(float)i / 8.0f, 1.0f - (float)i / 16.0f, 0.5f, 1.0f}, {0xA0, 0xA1, 0xA2, (GLubyte)i}};
    }
    for (int i = 0; i < 4; i++) {
        off[i][0] = (float)i / 32.0f;
        off[i][1] = -(float)i / 32.0f;
    }
    glViewport(0, 0, W, H);
    glClearColor(0.0f, 0.0f, 0.25f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);

    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(colour), col);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glVertexAttrib2f(2, 0.0f, 0.0f);

    glDrawArrays(GL_TRIANGLES, 3, 3);                                     /* 3..5 */
    static const GLubyte i8[] = {7, 2, 4};
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, i8);                /* 2..7 */
    static const GLushort i16[] = {1, 8, 5};
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, i16);              /* 1..8 */
    static const GLuint i32[] = {0, 6, 3};
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, i32);                /* 0..6 */
    check_error("the client-index draws");

    /* Indices in a buffer, vertices in client memory: the range comes from
     * the buffer's bytes. */
    static const GLushort ebo_data[] = {9, 2, 3, 4};
    GLuint ebo;
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof ebo_data, ebo_data, GL_STATIC_DRAW);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, (const void *)2);  /* 2..4 */
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    check_error("the element-buffer draw");

    /* Instanced: a_off advances every second instance: 4 instances, 0..1. */
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, off);
    glEnableVertexAttribArray(2);
    glVertexAttribDivisor(2, 2);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 4);                         /* 0..2; a_off 0..1 */
    glDisableVertexAttribArray(2);

    static const GLushort range_ix[] = {3, 1, 2};
    glDrawRangeElements(GL_TRIANGLES, 0, 5, 3, GL_UNSIGNED_SHORT, range_ix); /* 0..5: the range, wider than 1..3 */
    static const GLushort base_ix[] = {0, 1, 2};
    glDrawElementsBaseVertex(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, base_ix, 4); /* 4..6 */
    check_error("the instanced, range and base-vertex draws");
    glDisableVertexAttribArray(0);
    glDisableVertexAttribArray(1);

    /* Maps. Byte i of what the app writes in map k is (k * 40 + i) & 255. */
    GLuint buf[3];
    glGenBuffers(3, buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
    glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_DYNAMIC_DRAW);
    GLubyte *m = glMapBufferRange(GL_ARRAY_BUFFER, 0, 64, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    for (int i = 0; i < 64; i++)
        m[i] = (GLubyte)(1 * 40 + i);
    glUnmapBuffer(GL_ARRAY_BUFFER);                           /* 64 bytes at 0 */

    m = glMapBufferRange(GL_ARRAY_BUFFER, 16, 32, GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT);
    for (int i = 0; i < 32; i++)
        m[i] = (GLubyte)(2 * 40 + i);
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 4, 8);          /* 8 bytes at 20 */
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 20, 12);        /* 12 bytes at 36 */
    glUnmapBuffer(GL_ARRAY_BUFFER);                           /* nothing more */

    m = glMapBufferRange(GL_ARRAY_BUFFER, 0, 16, GL_MAP_READ_BIT);
    unsigned sum = 0;
    for (int i = 0; i < 16; i++)
        sum += m[i];
    glUnmapBuffer(GL_ARRAY_BUFFER);                           /* read only: nothing */

    m = glMapBufferRange(GL_ARRAY_BUFFER, 48, 16,
                         GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_UNSYNCHRONIZED_BIT);
    for (int i = 0; i < 16; i++)
        m[i] = (GLubyte)(4 * 40 + i);
    glUnmapBuffer(GL_ARRAY_BUFFER);                           /* 16 bytes at 48 */
    check_error("the maps");

    /* Persistent and coherent: written after mapping, read at the draw. */
    int persistent = strstr((const char *)glGetString(GL_EXTENSIONS), "GL_EXT_buffer_storage") != NULL;
    if (persistent) {
        PFNGLBUFFERSTORAGEEXTPROC buffer_storage =
            (PFNGLBUFFERSTORAGEEXTPROC)eglGetProcAddress("glBufferStorageEXT");
        const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT;
        glBindBuffer(GL_ARRAY_BUFFER, buf[1]);
        buffer_storage(GL_ARRAY_BUFFER, 3 * 2 * sizeof(GLfloat), NULL, flags);
        GLfloat *p = glMapBufferRange(GL_ARRAY_BUFFER, 0, 3 * 2 * sizeof(GLfloat), flags);
        static const GLfloat tri[] = {0.5f, 0.5f, 0.75f, 0.5f, 0.5f, 0.75f};
        memcpy(p, tri, sizeof tri);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
        glEnableVertexAttribArray(0);
        glVertexAttrib4f(1, 1.0f, 1.0f, 0.0f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);                     /* the map's 24 bytes before it */
        glUnmapBuffer(GL_ARRAY_BUFFER);
        glDisableVertexAttribArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        check_error("the persistent map");
    }

    sample_egl_swap(&e);
    static unsigned char px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    check_error("glReadPixels");

    glDeleteBuffers(3, buf);
    glDeleteBuffers(1, &ebo);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    sample_egl_close(&e);
    eglTerminate(e.dpy);
    printf(APP ": 1 frame %dx%d fnv1a=%08x persistent=%d read-sum=%u\n", W, H,
           (unsigned)sample_pixels_hash(px, sizeof px), persistent, sum);
    return 0;
}
