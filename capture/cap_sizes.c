/* cap_sizes.c: the named size functions of api/annotations.txt: how many
 * elements lie behind a pointer when that depends on an enum or on GL state.
 * Each returns an element count, or -1 when the extent is not known here:
 * the record then keeps the address only (never a guess). GL state is read
 * only with queries valid for the current context's version, so the app's
 * error state is never touched. */
#include "cap_internal.h"
#include "gt_enums.h"
#include "gt_get_counts.h"
#include "cap_real_fns.h"
#include "gt_texel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GLint query(const char *name, GLenum pname)
{
    (void)name;
    GLint v = 0;
    cap_real.f.glGetIntegerv(pname, &v);
    return v;
}

/* ---------------------------------------------------------------- enums */

/* How many values each pname carries is data, api/get_counts.tsv, which
 * the generator turns into these cases. A count asked of the driver is
 * asked only from the GLES major version (`since`) that defines its pname. */
#define FIXED(name, n) \
    case name:         \
        return n;
#define COUNTED(name, count_name, since) \
    case name:                           \
        return since <= 1 || t->es_major >= since ? query("", count_name) : -1;

long cap_size_pname(cap_tls *t, intptr_t pname)
{
    switch ((GLenum)pname) {
        GT_GET_VALUES(FIXED, COUNTED)
    default:
        return 1;
    }
}

long cap_size_indexed(cap_tls *t, intptr_t target)
{
    (void)t;
    switch ((GLenum)target) {
        GT_GET_INDEXED_VALUES(FIXED)
    default:
        return 1;
    }
}
#undef FIXED
#undef COUNTED

long cap_size_clearbuffer(cap_tls *t, intptr_t buffer)
{
    (void)t;
    return (GLenum)buffer == GL_COLOR ? 4 : 1;
}

long cap_size_label(cap_tls *t, intptr_t label, intptr_t length)
{
    (void)t;
    if (!label)
        return 0;
    return length >= 0 ? (long)length : (long)strnlen((const char *)label, CAP_SPAN_MAX);
}

long cap_size_out_count(cap_tls *t, intptr_t capacity, intptr_t written)
{
    (void)t;
    if (capacity <= 0 || !written)
        return 0;
    EGLint w = *(const EGLint *)written;
    return w < 0 ? 0 : w < capacity ? w : (long)capacity;
}

/* ---------------------------------------------------------------- pixels */

long cap_size_texel(cap_tls *t, intptr_t format, intptr_t type)
{
    (void)t;
    return gt_texel_bytes((unsigned)format, (unsigned)type);
}

/* Bytes of a w x h x d image at the pointer under the unpack (or pack)
 * state, or -1 with a pixel buffer bound (the pointer is then an offset
 * into it, recorded as the address alone). UNPACK_IMAGE_HEIGHT and
 * UNPACK_SKIP_IMAGES apply to the 3D calls only (`images`): the GL ignores
 * them for a 2D image. */
static long image_bytes(cap_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d, int pack,
                        int images)
{
    if (w <= 0 || h <= 0 || d <= 0)
        return 0;
    long bpp = cap_size_texel(t, format, type);
    if (bpp < 0)
        return -1;
    long align = query("", pack ? GL_PACK_ALIGNMENT : GL_UNPACK_ALIGNMENT);
    long row_len = 0, skip_px = 0, skip_rows = 0, img_h = 0, skip_img = 0;
    if (t->es_major >= 3) {
        if (query("", pack ? GL_PIXEL_PACK_BUFFER_BINDING : GL_PIXEL_UNPACK_BUFFER_BINDING))
            return -1;
        row_len = query("", pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH);
        skip_px = query("", pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS);
        skip_rows = query("", pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS);
        if (!pack && images) {
            img_h = query("", GL_UNPACK_IMAGE_HEIGHT);
            skip_img = query("", GL_UNPACK_SKIP_IMAGES);
        }
    } else if (t->es_major == 2 && t->cs && (pack ? t->cs->pack_subimage : t->cs->unpack_subimage)) {
        /* GLES 2 with EXT_unpack_subimage / NV_pack_subimage: no pixel
         * buffers, no images, but row length and skips. */
        row_len = query("", pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH);
        skip_px = query("", pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS);
        skip_rows = query("", pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS);
    }
    if (align <= 0)
        align = 4;
    long row_px = row_len > 0 ? row_len : (long)w;
    long row_bytes = (row_px * bpp + align - 1) / align * align;
    long rows = img_h > 0 ? img_h : (long)h;
    return ((skip_img + (long)d - 1) * rows + skip_rows + (long)h - 1) * row_bytes + (skip_px + (long)w) * bpp;
}

/* The depth api/annotations.txt gives the 2D calls: no GLsizei has this
 * value, so no 3D call can be taken for a 2D one. */
#define CAP_UNPACK_2D ((intptr_t)1 << 32)

long cap_size_unpack(cap_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d)
{
    if (d == CAP_UNPACK_2D)
        return image_bytes(t, format, type, w, h, 1, 0, 0);
    return image_bytes(t, format, type, w, h, d, 0, 1);
}

long cap_size_pack(cap_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h)
{
    return image_bytes(t, format, type, w, h, 1, 1, 0);
}

long cap_size_unpack_bytes(cap_tls *t, intptr_t bytes)
{
    if (t->es_major >= 3 && query("", GL_PIXEL_UNPACK_BUFFER_BINDING))
        return -1;
    return bytes < 0 ? 0 : (long)bytes;
}

long cap_size_pack_bytes(cap_tls *t, intptr_t bytes)
{
    if (t->es_major >= 3 && query("", GL_PIXEL_PACK_BUFFER_BINDING))
        return -1;
    return bytes < 0 ? 0 : (long)bytes;
}

/* ---------------------------------------------------------------- programs
 * Uniform extents come from the program itself, asked through the driver's
 * own functions (never the traced ones, so nothing is recorded), and only
 * with queries that cannot fail: the program is checked with glIsProgram
 * and its link status first, an index against the count it has. The app
 * therefore never sees a GL error of ours. Nothing is cached: a program can
 * be relinked at any time. */

typedef GLboolean (*is_program_fn)(GLuint);
typedef void (*get_programiv_fn)(GLuint, GLenum, GLint *);
typedef void (*get_active_uniform_fn)(GLuint, GLuint, GLsizei, GLsizei *, GLint *, GLenum *, GLchar *);
typedef GLint (*get_uniform_location_fn)(GLuint, const GLchar *);
typedef void (*get_block_iv_fn)(GLuint, GLuint, GLenum, GLint *);

/* The driver's function, or NULL when the driver lacks it. */
#define REAL(type, name) ((type)CAP_REAL_OR_NULL(name))

/* Components glGetUniform* writes for one element of a uniform of `type`
 * (matrices whole), or -1 for a type not known here. */
static long uniform_components(GLenum type)
{
    switch (type) {
    case GL_FLOAT: case GL_INT: case GL_UNSIGNED_INT: case GL_BOOL:
    case GL_INT64_NV: case GL_UNSIGNED_INT64_NV:
    case GL_UNSIGNED_INT_ATOMIC_COUNTER:
        return 1;
    case GL_FLOAT_VEC2: case GL_INT_VEC2: case GL_UNSIGNED_INT_VEC2: case GL_BOOL_VEC2:
    case GL_INT64_VEC2_NV: case GL_UNSIGNED_INT64_VEC2_NV:
        return 2;
    case GL_FLOAT_VEC3: case GL_INT_VEC3: case GL_UNSIGNED_INT_VEC3: case GL_BOOL_VEC3:
    case GL_INT64_VEC3_NV: case GL_UNSIGNED_INT64_VEC3_NV:
        return 3;
    case GL_FLOAT_VEC4: case GL_INT_VEC4: case GL_UNSIGNED_INT_VEC4: case GL_BOOL_VEC4:
    case GL_INT64_VEC4_NV: case GL_UNSIGNED_INT64_VEC4_NV:
    case GL_FLOAT_MAT2:
        return 4;
    case GL_FLOAT_MAT2x3: case GL_FLOAT_MAT3x2: return 6;
    case GL_FLOAT_MAT2x4: case GL_FLOAT_MAT4x2: return 8;
    case GL_FLOAT_MAT3: return 9;
    case GL_FLOAT_MAT3x4: case GL_FLOAT_MAT4x3: return 12;
    case GL_FLOAT_MAT4: return 16;
    default:
        break;
    }
    /* Samplers and images: one integer, the unit. The ranges are runs of
     * gl.xml's values. */
    if ((type >= GL_SAMPLER_1D && type <= GL_SAMPLER_2D_RECT_SHADOW) ||
        (type >= GL_SAMPLER_1D_ARRAY && type <= GL_SAMPLER_CUBE_SHADOW) ||
        (type >= GL_INT_SAMPLER_1D && type <= GL_UNSIGNED_INT_SAMPLER_BUFFER) ||
        (type >= GL_SAMPLER_CUBE_MAP_ARRAY && type <= GL_UNSIGNED_INT_SAMPLER_CUBE_MAP_ARRAY) ||
        (type >= GL_IMAGE_1D && type <= GL_UNSIGNED_INT_IMAGE_2D_MULTISAMPLE_ARRAY) ||
        (type >= GL_SAMPLER_2D_MULTISAMPLE && type <= GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY) ||
        type == GL_SAMPLER_EXTERNAL_OES || type == GL_SAMPLER_EXTERNAL_2D_Y2Y_EXT)
        return 1;
    return -1;
}

/* The program if it is one and linked (glGetUniform* and glGetActive* are
 * then valid on it), else 0. */
static int linked_program(GLuint program, get_programiv_fn get_iv)
{
    is_program_fn is_program = REAL(is_program_fn, glIsProgram);
    if (!is_program || !get_iv || !program || !is_program(program))
        return 0;
    GLint linked = 0;
    get_iv(program, GL_LINK_STATUS, &linked);
    return linked != 0;
}

/* Of the uniform `name` (as glGetActiveUniform gives it, so an array ends
 * in "[0]"), whether element `element` has the location `location`. */
static int element_at(GLuint program, get_uniform_location_fn loc_of, char *name, GLsizei len, long element,
                      GLint location)
{
    if (len < 3 || strcmp(name + len - 3, "[0]") != 0)
        return 0;
    char *buf = malloc((size_t)len + 24);
    if (!buf)
        return 0;
    memcpy(buf, name, (size_t)len - 3);
    snprintf(buf + len - 3, 24, "[%ld]", element);
    int hit = loc_of(program, buf) == location;
    free(buf);
    return hit;
}

long cap_size_uniform_get(cap_tls *t, intptr_t program_, intptr_t location_)
{
    if (t->es_major < 2)
        return -1;
    GLuint program = (GLuint)program_;
    GLint location = (GLint)location_;
    get_programiv_fn get_iv = REAL(get_programiv_fn, glGetProgramiv);
    get_active_uniform_fn active = REAL(get_active_uniform_fn, glGetActiveUniform);
    get_uniform_location_fn loc_of = REAL(get_uniform_location_fn, glGetUniformLocation);
    if (!get_iv || !active || !loc_of)
        return -1;
    /* An invalid program or location: the call failed and wrote nothing. */
    if (location < 0 || !linked_program(program, get_iv))
        return 0;
    GLint count = 0, max_len = 0;
    get_iv(program, GL_ACTIVE_UNIFORMS, &count);
    get_iv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &max_len);
    char small[256];
    char *name = max_len <= (GLint)sizeof small ? small : malloc((size_t)max_len);
    if (!name)
        return -1;
    GLsizei bufsize = max_len <= (GLint)sizeof small ? (GLsizei)sizeof small : max_len;
    /* Array elements: the first pass tries the usual layout, consecutive
     * locations from element 0 (a guess confirmed by name); the second asks
     * for every element by name. */
    long found = -1;
    int hit = 0;
    for (int pass = 0; pass < 2 && !hit; pass++) {
        for (GLint i = 0; i < count && !hit; i++) {
            GLsizei len = 0;
            GLint size = 0;
            GLenum type = 0;
            name[0] = '\0';
            active(program, (GLuint)i, bufsize, &len, &size, &type, name);
            if (len <= 0 || len >= bufsize)
                continue;
            if (pass == 0) {
                GLint base = loc_of(program, name);
                hit = location == base ||
                      (base >= 0 && size > 1 && location > base && location - base < size &&
                       element_at(program, loc_of, name, len, (long)location - base, location));
            } else {
                for (GLint k = 1; k < size && !hit; k++)
                    hit = element_at(program, loc_of, name, len, k, location);
            }
            if (hit)
                found = uniform_components(type);
        }
    }
    if (name != small)
        free(name);
    return found;
}

long cap_size_active_uniforms(cap_tls *t, intptr_t uniformCount, intptr_t pname)
{
    (void)t;
    (void)pname; /* every pname of glGetActiveUniformsiv gives one value per uniform */
    return uniformCount < 0 ? 0 : (long)uniformCount;
}

long cap_size_block_param(cap_tls *t, intptr_t program_, intptr_t block_, intptr_t pname)
{
    if (t->es_major < 3)
        return -1;
    GLuint program = (GLuint)program_;
    switch ((GLenum)pname) {
    case GL_UNIFORM_BLOCK_BINDING:
    case GL_UNIFORM_BLOCK_DATA_SIZE:
    case GL_UNIFORM_BLOCK_NAME_LENGTH:
    case GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS:
    case GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES:
    case GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER:
    case GL_UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER:
    case GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER:
    case GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER:
    case GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER:
    case GL_UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER:
        break;
    default:
        return -1; /* not a pname known here */
    }
    get_programiv_fn get_iv = REAL(get_programiv_fn, glGetProgramiv);
    get_block_iv_fn block_iv = REAL(get_block_iv_fn, glGetActiveUniformBlockiv);
    is_program_fn is_program = REAL(is_program_fn, glIsProgram);
    if (!get_iv || !block_iv || !is_program)
        return -1;
    /* An invalid program or block index: the call failed and wrote nothing. */
    if (!program || !is_program(program))
        return 0;
    GLint blocks = 0;
    get_iv(program, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
    if (blocks <= 0 || block_ < 0 || block_ >= blocks)
        return 0;
    if ((GLenum)pname != GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)
        return 1;
    GLint n = 0;
    block_iv(program, (GLuint)block_, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &n);
    return n < 0 ? 0 : n;
}

/* ---------------------------------------------------------------- not yet
 * These extents need state we do not track yet (path objects, fonts,
 * indirect draw buffers, dmabuf planes); their pointers are recorded as
 * addresses only. */

#define CAP_UNKNOWN(name, ...)                 \
    long name(cap_tls *t, __VA_ARGS__)         \
    {                                          \
        (void)t;                               \
        return -1;                             \
    }
#define A intptr_t a __attribute__((unused))
#define B intptr_t b __attribute__((unused))
#define C intptr_t c __attribute__((unused))
CAP_UNKNOWN(cap_size_path_names, A, B, C)
CAP_UNKNOWN(cap_size_path_transform, A, B)
CAP_UNKNOWN(cap_size_path_coords, A, B)
CAP_UNKNOWN(cap_size_path_spacing, A, B)
CAP_UNKNOWN(cap_size_path_metrics, A, B, C)
CAP_UNKNOWN(cap_size_path_query, A, B)
CAP_UNKNOWN(cap_size_font_name, A, B)
CAP_UNKNOWN(cap_size_glyph_codes, A, B, C)
CAP_UNKNOWN(cap_size_indirect, A, B, C)
CAP_UNKNOWN(cap_size_sample_locations, A, B)
CAP_UNKNOWN(cap_size_dmabuf_planes, A, B)
