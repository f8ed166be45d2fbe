/* uploads: the OpenGL ES 3.2 sample for the data behind pointers. Texture
 * uploads under every unpack parameter (alignment 1, 2, 4, 8 with odd
 * widths, row length, skipped pixels, rows and images, image height) on 2D,
 * 3D, 2D array and cube map textures; ETC2 compressed uploads; uploads from
 * a pixel unpack buffer (an offset, no data); uniform arrays and matrices
 * set and read back; the active uniforms and a uniform block described; a
 * uniform buffer, a shader storage buffer, transform feedback and a compute
 * dispatch.
 *
 * Everything the app passes is computed: byte i of datum k is
 * (i * 7 + k) & 255 (floats and integers derive from the same sequence), so
 * check_uploads.py recomputes every byte the trace must hold. The tables
 * below are mirrored by check_uploads.py: change one, change the other.
 *
 * Buffers are allocated at exactly the size the GL reads, so a capture that
 * reads past what the GL reads shows up under AddressSanitizer. Exits 0 only
 * if GL reported no error (one expected error is asked for and cleared) and
 * every value read back is the one set. */
#include <GLES3/gl32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "uploads"
#define W 32
#define H 32

static void check_gl(const char *where)
{
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%04x after %s\n", e, where);
        exit(1);
    }
}

static void fail(const char *what)
{
    fprintf(stderr, APP ": %s\n", what);
    exit(1);
}

/* n bytes of datum k: byte i is (i * 7 + k) & 255. Caller frees. */
static unsigned char *pattern(size_t n, unsigned k)
{
    unsigned char *p = malloc(n ? n : 1);
    if (!p)
        fail("out of memory");
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 7 + k) & 255);
    return p;
}

/* Values j of datum k, as floats (exact in binary), ints and uints. */
static GLfloat fval(unsigned j, unsigned k) { return (GLfloat)((j * 7 + k) & 255) / 8.0f - 16.0f; }
static GLint ival(unsigned j, unsigned k) { return (GLint)((j * 7 + k) & 255) - 100; }
static GLuint uval(unsigned j, unsigned k) { return (j * 7 + k) & 255; }

/* ---------------------------------------------------------------- uploads */

enum { TEX_IMAGE_2D, TEX_SUB_IMAGE_2D, TEX_IMAGE_3D, TEX_SUB_IMAGE_3D };

typedef struct upload {
    int fn;
    GLenum target;
    GLint internalformat;         /* the image calls */
    GLint x, y, z;                /* the sub-image calls */
    GLsizei w, h, d;
    GLenum format, type;
    GLint align, row_length, skip_pixels, skip_rows, image_height, skip_images;
} upload;

/* Bytes of one pixel of format/type (the formats used here). */
static size_t texel_bytes(GLenum format, GLenum type)
{
    size_t comps = format == GL_RGBA ? 4 : format == GL_RGB ? 3 : format == GL_RG ? 2 : 1;
    switch (type) {
    case GL_UNSIGNED_SHORT_5_6_5: return 2;
    case GL_HALF_FLOAT: return 2 * comps;
    case GL_FLOAT: return 4 * comps;
    default: return comps;
    }
}

/* What the GL reads for u (ES 3.2 section 8.4.4.1; the 2D calls ignore
 * IMAGE_HEIGHT and SKIP_IMAGES). */
static size_t upload_bytes(const upload *u)
{
    size_t bpp = texel_bytes(u->format, u->type);
    size_t px = (size_t)(u->row_length > 0 ? u->row_length : u->w);
    size_t row = (px * bpp + (size_t)u->align - 1) / (size_t)u->align * (size_t)u->align;
    int three = u->fn == TEX_IMAGE_3D || u->fn == TEX_SUB_IMAGE_3D;
    size_t rows = three && u->image_height > 0 ? (size_t)u->image_height : (size_t)u->h;
    size_t images = three ? (size_t)u->skip_images + (size_t)u->d - 1 : 0;
    return (images * rows + (size_t)u->skip_rows + (size_t)u->h - 1) * row + ((size_t)u->skip_pixels + (size_t)u->w) * bpp;
}

static void pixel_store(const upload *u)
{
    glPixelStorei(GL_UNPACK_ALIGNMENT, u->align);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, u->row_length);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, u->skip_pixels);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, u->skip_rows);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, u->image_height);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, u->skip_images);
}

/* Sets u's unpack state and makes its call with `pixels`. */
static void upload_from(const upload *u, const void *pixels)
{
    pixel_store(u);
    switch (u->fn) {
    case TEX_IMAGE_2D:
        glTexImage2D(u->target, 0, u->internalformat, u->w, u->h, 0, u->format, u->type, pixels);
        break;
    case TEX_SUB_IMAGE_2D:
        glTexSubImage2D(u->target, 0, u->x, u->y, u->w, u->h, u->format, u->type, pixels);
        break;
    case TEX_IMAGE_3D:
        glTexImage3D(u->target, 0, u->internalformat, u->w, u->h, u->d, 0, u->format, u->type, pixels);
        break;
    default:
        glTexSubImage3D(u->target, 0, u->x, u->y, u->z, u->w, u->h, u->d, u->format, u->type, pixels);
        break;
    }
}

#define CUBE(face, al) {TEX_IMAGE_2D, GL_TEXTURE_CUBE_MAP_POSITIVE_X + (face), GL_RGB8, 0, 0, 0, 3, 3, 1, GL_RGB, GL_UNSIGNED_BYTE, al, 0, 0, 0, 0, 0}

/* Upload i passes datum k = 10 + i. Textures: 0-10 the 2D texture, 11-13 the
 * 3D one, 14-16 the 2D array, 17-23 the cube map. */
static const upload uploads[] = {
    /*  fn                target                 ifmt        x  y  z  w  h  d  format    type                       al rl sp sr ih si */
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_RGB8,    0, 0, 0, 5, 3, 1, GL_RGB,   GL_UNSIGNED_BYTE,          1, 0, 0, 0, 0, 0},
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_RGB8,    0, 0, 0, 5, 3, 1, GL_RGB,   GL_UNSIGNED_BYTE,          2, 0, 0, 0, 0, 0},
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_RGB8,    0, 0, 0, 7, 3, 1, GL_RGB,   GL_UNSIGNED_BYTE,          8, 0, 0, 0, 0, 0},
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_RGB8,    0, 0, 0, 9, 7, 1, GL_RGB,   GL_UNSIGNED_BYTE,          4, 0, 0, 0, 0, 0},
    {TEX_SUB_IMAGE_2D, GL_TEXTURE_2D,         0,          1, 2, 0, 5, 3, 1, GL_RGB,   GL_UNSIGNED_BYTE,          4, 9, 2, 1, 0, 0},
    {TEX_SUB_IMAGE_2D, GL_TEXTURE_2D,         0,          0, 0, 0, 3, 2, 1, GL_RGB,   GL_UNSIGNED_BYTE,          8, 5, 1, 2, 0, 0},
    {TEX_SUB_IMAGE_2D, GL_TEXTURE_2D,         0,          2, 1, 0, 3, 2, 1, GL_RGB,   GL_UNSIGNED_BYTE,          1, 0, 0, 0, 4, 1},
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_R32F,    0, 0, 0, 3, 3, 1, GL_RED,   GL_FLOAT,                  8, 0, 0, 0, 0, 0},
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_RGB565,  0, 0, 0, 3, 2, 1, GL_RGB,   GL_UNSIGNED_SHORT_5_6_5,   4, 0, 0, 0, 0, 0},
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_RGBA16F, 0, 0, 0, 3, 2, 1, GL_RGBA,  GL_HALF_FLOAT,             8, 4, 1, 0, 0, 0},
    {TEX_IMAGE_2D,     GL_TEXTURE_2D,         GL_RG8,     0, 0, 0, 5, 2, 1, GL_RG,    GL_UNSIGNED_BYTE,          4, 0, 0, 1, 0, 0},
    {TEX_IMAGE_3D,     GL_TEXTURE_3D,         GL_RGB8,    0, 0, 0, 3, 2, 2, GL_RGB,   GL_UNSIGNED_BYTE,          1, 0, 0, 0, 3, 1},
    {TEX_IMAGE_3D,     GL_TEXTURE_3D,         GL_RGBA8,   0, 0, 0, 4, 4, 3, GL_RGBA,  GL_UNSIGNED_BYTE,          4, 0, 0, 0, 0, 0},
    {TEX_SUB_IMAGE_3D, GL_TEXTURE_3D,         0,          1, 1, 1, 2, 2, 2, GL_RGBA,  GL_UNSIGNED_BYTE,          4, 4, 1, 1, 4, 1},
    {TEX_IMAGE_3D,     GL_TEXTURE_2D_ARRAY,   GL_RGB8,    0, 0, 0, 3, 3, 2, GL_RGB,   GL_UNSIGNED_BYTE,          8, 0, 0, 0, 0, 0},
    {TEX_SUB_IMAGE_3D, GL_TEXTURE_2D_ARRAY,   0,          0, 1, 1, 2, 2, 1, GL_RGB,   GL_UNSIGNED_BYTE,          2, 0, 0, 0, 5, 2},
    {TEX_SUB_IMAGE_3D, GL_TEXTURE_2D_ARRAY,   0,          1, 0, 0, 2, 3, 2, GL_RGB,   GL_UNSIGNED_BYTE,          4, 3, 0, 1, 4, 0},
    CUBE(0, 1), CUBE(1, 2), CUBE(2, 4), CUBE(3, 8), CUBE(4, 1), CUBE(5, 2),
    {TEX_SUB_IMAGE_2D, GL_TEXTURE_CUBE_MAP_POSITIVE_Y, 0, 1, 1, 0, 2, 2, 1, GL_RGB,   GL_UNSIGNED_BYTE,          4, 3, 1, 0, 0, 0},
};
#define N_UPLOADS (int)(sizeof uploads / sizeof uploads[0])
#define SKIP_IMAGES_2D 6 /* the 2D upload with SKIP_IMAGES set, read back */

/* Upload 6 set IMAGE_HEIGHT and SKIP_IMAGES on a 2D call: the GL must
 * ignore them. Reads the 3x2 rectangle back from the 9x7 RGB8 texture and
 * compares it with the first rows of the data. */
static void check_2d_ignores_images(GLuint tex, const unsigned char *data)
{
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fail("the RGB8 texture framebuffer is not complete");
    unsigned char px[3 * 2 * 4];
    glReadPixels(2, 1, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    for (int i = 0; i < 6; i++)
        if (memcmp(px + 4 * i, data + 3 * i, 3) != 0 || px[4 * i + 3] != 255)
            fail("a 2D upload did not ignore GL_UNPACK_SKIP_IMAGES");
}

static void texture_uploads(void)
{
    GLuint tex[4];
    glGenTextures(4, tex);
    for (int i = 0; i < N_UPLOADS; i++) {
        const upload *u = &uploads[i];
        GLenum bind = u->target == GL_TEXTURE_2D || u->target == GL_TEXTURE_3D || u->target == GL_TEXTURE_2D_ARRAY
                          ? u->target
                          : GL_TEXTURE_CUBE_MAP;
        if (i == 0 || i == 11 || i == 14 || i == 17)
            glBindTexture(bind, tex[i == 0 ? 0 : i == 11 ? 1 : i == 14 ? 2 : 3]);
        unsigned char *data = pattern(upload_bytes(u), 10u + (unsigned)i);
        upload_from(u, data);
        if (i == SKIP_IMAGES_2D)
            check_2d_ignores_images(tex[0], data);
        free(data);
    }
    check_gl("the texture uploads");

    /* ETC2: 8x8 is four 16-byte blocks; then the top right block again. */
    GLuint etc;
    glGenTextures(1, &etc);
    glBindTexture(GL_TEXTURE_2D, etc);
    unsigned char *blocks = pattern(64, 40);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 8, 8, 0, 64, blocks);
    free(blocks);
    blocks = pattern(16, 41);
    glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 0, 4, 4, GL_COMPRESSED_RGBA8_ETC2_EAC, 16, blocks);
    free(blocks);
    check_gl("the ETC2 uploads");

    /* From a pixel unpack buffer: the pointers are offsets into it. */
    GLuint pbo;
    glGenBuffers(1, &pbo);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
    unsigned char *pbo_data = pattern(256, 42);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, 256, pbo_data, GL_STREAM_DRAW);
    free(pbo_data);
    static const upload from_pbo[] = {
        {TEX_IMAGE_2D, GL_TEXTURE_2D, GL_RGBA8, 0, 0, 0, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, 4, 0, 0, 0, 0, 0},
        {TEX_SUB_IMAGE_2D, GL_TEXTURE_2D, 0, 1, 1, 0, 3, 3, 1, GL_RGBA, GL_UNSIGNED_BYTE, 2, 4, 1, 0, 0, 0},
    };
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    upload_from(&from_pbo[0], (const void *)(uintptr_t)32);  /* 64 bytes at 32 */
    upload_from(&from_pbo[1], (const void *)(uintptr_t)100); /* 48 bytes at 100 */
    glBindTexture(GL_TEXTURE_2D, etc);
    glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 4, 4, 4, GL_COMPRESSED_RGBA8_ETC2_EAC, 16,
                              (const void *)(uintptr_t)64);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    check_gl("the pixel unpack buffer uploads");

    glDeleteBuffers(1, &pbo);
    glDeleteTextures(1, &etc);
    glDeleteTextures(4, tex);
}

/* ---------------------------------------------------------------- uniforms */

static const char uni_vs[] = "#version 300 es\n"
                             "uniform mat2x3 u_m23[2];\n"
                             "uniform mat3 u_m3[2];\n"
                             "uniform mat4 u_m4[3];\n"
                             "uniform vec4 u_v4[3];\n"
                             "uniform int u_i[4];\n"
                             "uniform uvec3 u_u3;\n"
                             "layout(std140) uniform Blk { vec4 ba; vec4 bb[2]; };\n"
                             "layout(location = 0) in vec4 a_pos;\n"
                             "flat out ivec4 v_i;\n"
                             "void main() {\n"
                             "  vec3 a = u_m23[0] * a_pos.xy + u_m23[1] * a_pos.zw;\n"
                             "  vec3 b = u_m3[0] * a + u_m3[1] * a;\n"
                             "  gl_Position = u_m4[0] * vec4(b, 1.0) + u_m4[1] * a_pos + u_m4[2] * a_pos\n"
                             "              + u_v4[0] + u_v4[1] + u_v4[2] + ba + bb[0] + bb[1];\n"
                             "  v_i = ivec4(u_i[0] + u_i[1], u_i[2] + u_i[3], ivec2(u_u3.xy) + int(u_u3.z));\n"
                             "}\n";
static const char uni_fs[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "uniform sampler2D u_tex;\n"
                             "flat in ivec4 v_i;\n"
                             "out vec4 o_color;\n"
                             "void main() { o_color = vec4(v_i) * texture(u_tex, vec2(0.5)); }\n";

static GLuint link_program(GLuint vs, GLuint fs)
{
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    if (fs)
        glAttachShader(prog, fs);
    glLinkProgram(prog);
    GLint linked = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked)
        fail("a program does not link");
    return prog;
}

static void expect_floats(const GLfloat *got, unsigned from, unsigned n, unsigned k, GLfloat after)
{
    for (unsigned j = 0; j < n; j++)
        if (got[j] != fval(from + j, k))
            fail("glGetUniformfv read a value other than the one set");
    if (got[n] != after)
        fail("glGetUniformfv wrote past the uniform");
}

static void uniforms(void)
{
    GLuint vs = sample_shader_compile(APP, GL_VERTEX_SHADER, uni_vs);
    GLuint fs = sample_shader_compile(APP, GL_FRAGMENT_SHADER, uni_fs);
    GLuint prog = link_program(vs, fs);
    GLint l_m23 = glGetUniformLocation(prog, "u_m23");
    GLint l_m23_1 = glGetUniformLocation(prog, "u_m23[1]");
    GLint l_m3 = glGetUniformLocation(prog, "u_m3");
    GLint l_m4 = glGetUniformLocation(prog, "u_m4");
    GLint l_m4_2 = glGetUniformLocation(prog, "u_m4[2]");
    GLint l_v4 = glGetUniformLocation(prog, "u_v4");
    GLint l_i = glGetUniformLocation(prog, "u_i");
    GLint l_i_3 = glGetUniformLocation(prog, "u_i[3]");
    GLint l_u3 = glGetUniformLocation(prog, "u_u3");
    GLint l_tex = glGetUniformLocation(prog, "u_tex");
    if (l_m23 < 0 || l_m23_1 < 0 || l_m3 < 0 || l_m4 < 0 || l_m4_2 < 0 || l_v4 < 0 || l_i < 0 || l_i_3 < 0 ||
        l_u3 < 0 || l_tex < 0)
        fail("a uniform is not active");
    glUseProgram(prog);

    /* Datum 50 + n for the n-th glUniform* call. */
    GLfloat f[48];
    GLint iv[4];
    GLuint uv[3];
    for (unsigned j = 0; j < 48; j++)
        f[j] = fval(j, 50);
    glUniformMatrix2x3fv(l_m23, 2, GL_FALSE, f);
    for (unsigned j = 0; j < 48; j++)
        f[j] = fval(j, 51);
    glUniformMatrix3fv(l_m3, 2, GL_FALSE, f);
    for (unsigned j = 0; j < 48; j++)
        f[j] = fval(j, 52);
    glUniformMatrix4fv(l_m4, 3, GL_FALSE, f);
    for (unsigned j = 0; j < 48; j++)
        f[j] = fval(j, 53);
    glUniform4fv(l_v4, 3, f);
    for (unsigned j = 0; j < 4; j++)
        iv[j] = ival(j, 54);
    glUniform1iv(l_i, 4, iv);
    for (unsigned j = 0; j < 3; j++)
        uv[j] = uval(j, 55);
    glUniform3uiv(l_u3, 1, uv);
    glUniform1i(l_tex, 3);
    check_gl("glUniform*");

    /* Read back into buffers larger than the uniform, marked after it. */
    GLfloat got[20];
    GLint gi[4];
    GLuint gu[4];
#define MARK(buf, v) for (size_t m_ = 0; m_ < sizeof buf / sizeof buf[0]; m_++) buf[m_] = v
    MARK(got, -1.0f);
    glGetUniformfv(prog, l_m23, got);
    expect_floats(got, 0, 6, 50, -1.0f);
    MARK(got, -1.0f);
    glGetUniformfv(prog, l_m23_1, got);
    expect_floats(got, 6, 6, 50, -1.0f);
    MARK(got, -1.0f);
    glGetUniformfv(prog, l_m3, got);
    expect_floats(got, 0, 9, 51, -1.0f);
    MARK(got, -1.0f);
    glGetUniformfv(prog, l_m4_2, got);
    expect_floats(got, 32, 16, 52, -1.0f);
    MARK(got, -1.0f);
    glGetUniformfv(prog, l_v4, got);
    expect_floats(got, 0, 4, 53, -1.0f);
    MARK(gi, -1000);
    glGetUniformiv(prog, l_i_3, gi);
    if (gi[0] != ival(3, 54) || gi[1] != -1000)
        fail("glGetUniformiv(u_i[3]) read a value other than the one set");
    MARK(gi, -1000);
    glGetUniformiv(prog, l_i, gi);
    if (gi[0] != ival(0, 54) || gi[1] != -1000)
        fail("glGetUniformiv(u_i) read a value other than the one set");
    MARK(gi, -1000);
    glGetUniformiv(prog, l_tex, gi);
    if (gi[0] != 3 || gi[1] != -1000)
        fail("glGetUniformiv(u_tex) read a value other than the one set");
    MARK(gu, 1000u);
    glGetUniformuiv(prog, l_u3, gu);
    if (gu[0] != uval(0, 55) || gu[1] != uval(1, 55) || gu[2] != uval(2, 55) || gu[3] != 1000u)
        fail("glGetUniformuiv(u_u3) read a value other than the one set");
    check_gl("glGetUniform*");
    /* Location -1 is no uniform: an error, and nothing written. */
    MARK(got, -1.0f);
    glGetUniformfv(prog, -1, got);
    if (glGetError() != GL_INVALID_OPERATION || got[0] != -1.0f)
        fail("glGetUniformfv(location -1) did not fail cleanly");

    /* The active uniforms, by index. */
    GLint n_active = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n_active);
    if (n_active != 9)
        fail("the program has not 9 active uniforms");
    for (GLint i = 0; i < n_active; i++) {
        char name[64];
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(prog, (GLuint)i, sizeof name, &len, &size, &type, name);
    }
    static const char *const names[] = {"u_v4", "u_m4", "ba", "bb"};
    GLuint idx[4];
    glGetUniformIndices(prog, 4, names, idx);
    GLint types[4], sizes[4];
    glGetActiveUniformsiv(prog, 4, idx, GL_UNIFORM_TYPE, types);
    glGetActiveUniformsiv(prog, 4, idx, GL_UNIFORM_SIZE, sizes);
    if (types[0] != GL_FLOAT_VEC4 || types[1] != GL_FLOAT_MAT4 || types[2] != GL_FLOAT_VEC4 ||
        types[3] != GL_FLOAT_VEC4 || sizes[0] != 3 || sizes[1] != 3 || sizes[2] != 1 || sizes[3] != 2)
        fail("glGetActiveUniformsiv gave other types or sizes");
    check_gl("the active uniforms");

    /* The uniform block, in a uniform buffer at an aligned offset. */
    GLuint blk = glGetUniformBlockIndex(prog, "Blk");
    glUniformBlockBinding(prog, blk, 1);
    GLint data_size = 0, n_block = 0, block_idx[2] = {-1, -1};
    glGetActiveUniformBlockiv(prog, blk, GL_UNIFORM_BLOCK_DATA_SIZE, &data_size);
    glGetActiveUniformBlockiv(prog, blk, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &n_block);
    if (data_size != 48 || n_block != 2)
        fail("the uniform block is not 48 bytes of 2 uniforms");
    glGetActiveUniformBlockiv(prog, blk, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, block_idx);
    if (!((block_idx[0] == (GLint)idx[2] && block_idx[1] == (GLint)idx[3]) ||
          (block_idx[0] == (GLint)idx[3] && block_idx[1] == (GLint)idx[2])))
        fail("the uniform block's indices are not those of ba and bb");
    GLint align = 0;
    glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
    if (align <= 0 || align > 256)
        fail("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT is not in 1..256");
    GLuint buf[2];
    glGenBuffers(2, buf);
    glBindBuffer(GL_UNIFORM_BUFFER, buf[0]);
    unsigned char *ubo = pattern(512, 60);
    glBufferData(GL_UNIFORM_BUFFER, 512, ubo, GL_STATIC_DRAW);
    free(ubo);
    glBindBufferRange(GL_UNIFORM_BUFFER, 1, buf[0], align, 48);
    check_gl("the uniform block");

    /* A triangle from a vertex buffer into the pbuffer. */
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    GLfloat verts[12];
    for (unsigned j = 0; j < 12; j++)
        verts[j] = fval(j, 61) / 64.0f;
    glBindBuffer(GL_ARRAY_BUFFER, buf[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, W, H);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    check_gl("the draw with uniforms");

    glDeleteVertexArrays(1, &vao);
    glDeleteBuffers(2, buf);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
}

/* ---------------------------------------------------------------- transform feedback */

static const char tf_vs[] = "#version 300 es\n"
                            "layout(location = 0) in vec4 a_pos;\n"
                            "out vec4 v_twice;\n"
                            "out float v_sum;\n"
                            "void main() {\n"
                            "  v_twice = a_pos * 2.0;\n"
                            "  v_sum = a_pos.x + a_pos.y + a_pos.z + a_pos.w;\n"
                            "  gl_Position = a_pos;\n"
                            "}\n";
static const char tf_fs[] = "#version 300 es\n"
                            "precision mediump float;\n"
                            "out vec4 o_color;\n"
                            "void main() { o_color = vec4(1.0); }\n";

/* Returns a number the captured points make, for the printed fingerprint. */
static double transform_feedback(void)
{
    GLuint vs = sample_shader_compile(APP, GL_VERTEX_SHADER, tf_vs);
    GLuint fs = sample_shader_compile(APP, GL_FRAGMENT_SHADER, tf_fs);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    static const char *const varyings[] = {"v_twice", "v_sum"};
    glTransformFeedbackVaryings(prog, 2, varyings, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(prog);
    GLint linked = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked)
        fail("the transform feedback program does not link");
    glUseProgram(prog);

    GLuint vao, buf[2];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(2, buf);
    GLfloat pts[12];
    for (unsigned j = 0; j < 12; j++)
        pts[j] = fval(j, 70);
    glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof pts, pts, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf[1]);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 3 * 5 * sizeof(GLfloat), NULL, GL_STATIC_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf[1]);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, 3);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    const GLfloat *out = glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 3 * 5 * sizeof(GLfloat), GL_MAP_READ_BIT);
    if (!out)
        fail("glMapBufferRange of the transform feedback buffer failed");
    double total = 0;
    for (int v = 0; v < 3; v++) {
        GLfloat sum = 0;
        for (int c = 0; c < 4; c++) {
            if (out[5 * v + c] != 2.0f * pts[4 * v + c])
                fail("transform feedback captured another v_twice");
            sum += pts[4 * v + c];
        }
        if (out[5 * v + 4] != sum)
            fail("transform feedback captured another v_sum");
        total += out[5 * v + 4];
    }
    glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
    check_gl("transform feedback");

    glDeleteBuffers(2, buf);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    return total;
}

/* ---------------------------------------------------------------- compute */

static const char cs_src[] = "#version 310 es\n"
                             "layout(local_size_x = 4) in;\n"
                             "layout(std430, binding = 0) buffer Data { uint v[]; };\n"
                             "void main() {\n"
                             "  uint i = gl_GlobalInvocationID.x;\n"
                             "  v[i] = v[i] * 3u + i;\n"
                             "}\n";

/* Returns the FNV-1a of the words the shader wrote. */
static uint32_t compute(void)
{
    GLuint cs = glCreateShader(GL_COMPUTE_SHADER);
    const char *src = cs_src;
    glShaderSource(cs, 1, &src, NULL);
    glCompileShader(cs);
    GLint ok = GL_FALSE;
    glGetShaderiv(cs, GL_COMPILE_STATUS, &ok);
    if (!ok)
        fail("the compute shader does not compile");
    GLuint prog = link_program(cs, 0);
    glUseProgram(prog);

    GLint align = 0;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &align);
    if (align <= 0 || align > 256)
        fail("GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT is not in 1..256");
    GLuint ssbo;
    glGenBuffers(1, &ssbo);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, ssbo);
    unsigned char *init = pattern(512, 80);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 512, init, GL_DYNAMIC_COPY);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, ssbo, align, 128);
    glDispatchCompute(8, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const GLuint *v = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, align, 128, GL_MAP_READ_BIT);
    if (!v)
        fail("glMapBufferRange of the shader storage buffer failed");
    for (GLuint i = 0; i < 32; i++) {
        GLuint before;
        memcpy(&before, init + align + 4 * i, 4);
        if (v[i] != before * 3u + i)
            fail("the compute shader wrote another value");
    }
    uint32_t hash = sample_pixels_hash((const unsigned char *)v, 128);
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    free(init);
    check_gl("the compute dispatch");

    glDeleteBuffers(1, &ssbo);
    glDeleteProgram(prog);
    glDeleteShader(cs);
    return hash;
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major * 10 + minor < 32) {
        fprintf(stderr, APP ": needs OpenGL ES 3.2, the context is %d.%d\n", major, minor);
        return 1;
    }

    texture_uploads();
    uniforms();
    double tf = transform_feedback();
    uint32_t cs = compute();

    /* The frame: what the uniforms draw left in the pbuffer, read back
     * after the swap (a pbuffer keeps its content). */
    sample_egl_swap(&e);
    static unsigned char px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    check_gl("glReadPixels");
    sample_egl_close(&e);
    eglTerminate(e.dpy);
    printf(APP ": %d uploads, transform feedback sum %g, compute hash %08x, frame fnv1a=%08x\n", N_UPLOADS, tf,
           (unsigned)cs, (unsigned)sample_pixels_hash(px, sizeof px));
    return 0;
}
