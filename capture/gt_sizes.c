/* gt_sizes.c: the named size functions of api/annotations.txt: how many
 * elements lie behind a pointer when that depends on an enum or on GL state.
 * Each returns an element count, or -1 when the extent is not known here:
 * the record then keeps the address only (never a guess). GL state is read
 * only with queries valid for the current context's version, so the app's
 * error state is never touched. */
#include "gt_capture.h"
#include "gt_real_fns.h"
#include "gt_texel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GLint query(const char *name, GLenum pname)
{
    (void)name;
    GLint v = 0;
    gt_real.f.glGetIntegerv(pname, &v);
    return v;
}

/* ---------------------------------------------------------------- enums */

long gt_size_pname(gt_tls *t, intptr_t pname)
{
    switch ((GLenum)pname) {
    case 0x0BA2: /* GL_VIEWPORT */
    case 0x0C10: /* GL_SCISSOR_BOX */
    case 0x0C22: /* GL_COLOR_CLEAR_VALUE */
    case 0x0C23: /* GL_COLOR_WRITEMASK */
    case 0x8005: /* GL_BLEND_COLOR */
    case 0x0B00: /* GL_CURRENT_COLOR */
    case 0x0B53: /* GL_LIGHT_MODEL_AMBIENT */
    case 0x1200: case 0x1201: case 0x1202: case 0x1600: /* AMBIENT DIFFUSE SPECULAR EMISSION */
    case 0x1602: /* GL_AMBIENT_AND_DIFFUSE */
    case 0x1203: /* GL_POSITION */
    case 0x2201: /* GL_TEXTURE_ENV_COLOR */
    case 0x0B66: /* GL_FOG_COLOR */
    case 0x1004: /* GL_TEXTURE_BORDER_COLOR */
    case 0x0B03: /* GL_CURRENT_TEXTURE_COORDS */
        return 4;
    case 0x1204: /* GL_SPOT_DIRECTION */
    case 0x8129: /* GL_POINT_DISTANCE_ATTENUATION */
    case 0x8267: /* GL_COMPUTE_WORK_GROUP_SIZE */
        return 3;
    case 0x0B70: /* GL_DEPTH_RANGE */
    case 0x0D3A: /* GL_MAX_VIEWPORT_DIMS */
    case 0x846E: /* GL_ALIASED_LINE_WIDTH_RANGE */
    case 0x846D: /* GL_ALIASED_POINT_SIZE_RANGE */
    case 0x0B12: /* GL_SMOOTH_POINT_SIZE_RANGE */
    case 0x0B22: /* GL_SMOOTH_LINE_WIDTH_RANGE */
        return 2;
    case 0x92BE: /* GL_PRIMITIVE_BOUNDING_BOX */
        return 8;
    case 0x0BA6: /* GL_MODELVIEW_MATRIX */
    case 0x0BA7: /* GL_PROJECTION_MATRIX */
    case 0x0BA8: /* GL_TEXTURE_MATRIX */
        return 16;
    case 0x86A3: /* GL_COMPRESSED_TEXTURE_FORMATS */
        return query("", 0x86A2); /* GL_NUM_COMPRESSED_TEXTURE_FORMATS */
    case 0x8DF8: /* GL_SHADER_BINARY_FORMATS */
        return t->es_major >= 2 ? query("", 0x8DF9) : -1;
    case 0x87FF: /* GL_PROGRAM_BINARY_FORMATS */
        return t->es_major >= 3 ? query("", 0x87FE) : -1;
    default:
        /* Every other query of GLES and its extensions returns one value. */
        return 1;
    }
}

long gt_size_indexed(gt_tls *t, intptr_t target)
{
    (void)t;
    switch ((GLenum)target) {
    case 0x0BA2: /* GL_VIEWPORT (indexed) */
    case 0x0C10: /* GL_SCISSOR_BOX */
    case 0x0C23: /* GL_COLOR_WRITEMASK */
        return 4;
    case 0x0B70: /* GL_DEPTH_RANGE */
        return 2;
    default:
        return 1;
    }
}

long gt_size_clearbuffer(gt_tls *t, intptr_t buffer)
{
    (void)t;
    return (GLenum)buffer == 0x1800 /* GL_COLOR */ ? 4 : 1;
}

long gt_size_label(gt_tls *t, intptr_t label, intptr_t length)
{
    (void)t;
    if (!label)
        return 0;
    return length >= 0 ? (long)length : (long)strnlen((const char *)label, GT_SPAN_MAX);
}

long gt_size_out_count(gt_tls *t, intptr_t capacity, intptr_t written)
{
    (void)t;
    if (capacity <= 0 || !written)
        return 0;
    EGLint w = *(const EGLint *)written;
    return w < 0 ? 0 : w < capacity ? w : (long)capacity;
}

/* ---------------------------------------------------------------- pixels */

long gt_size_texel(gt_tls *t, intptr_t format, intptr_t type)
{
    (void)t;
    return gt_texel_bytes((unsigned)format, (unsigned)type);
}

/* Bytes of a w x h x d image at the pointer under the unpack (or pack)
 * state, or -1 with a pixel buffer bound (the pointer is then an offset
 * into it, recorded as the address alone). UNPACK_IMAGE_HEIGHT and
 * UNPACK_SKIP_IMAGES apply to the 3D calls only (`images`): the GL ignores
 * them for a 2D image. */
static long image_bytes(gt_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d, int pack,
                        int images)
{
    if (w <= 0 || h <= 0 || d <= 0)
        return 0;
    long bpp = gt_size_texel(t, format, type);
    if (bpp < 0)
        return -1;
    long align = query("", pack ? 0x0D05 : 0x0CF5); /* PACK / UNPACK_ALIGNMENT */
    long row_len = 0, skip_px = 0, skip_rows = 0, img_h = 0, skip_img = 0;
    if (t->es_major >= 3) {
        if (query("", pack ? 0x88ED : 0x88EF)) /* PIXEL_PACK / UNPACK_BUFFER_BINDING */
            return -1;
        row_len = query("", pack ? 0x0D02 : 0x0CF2);
        skip_px = query("", pack ? 0x0D04 : 0x0CF4);
        skip_rows = query("", pack ? 0x0D03 : 0x0CF3);
        if (!pack && images) {
            img_h = query("", 0x806E);    /* UNPACK_IMAGE_HEIGHT */
            skip_img = query("", 0x806D); /* UNPACK_SKIP_IMAGES */
        }
    } else if (t->es_major == 2 && t->cs && (pack ? t->cs->pack_subimage : t->cs->unpack_subimage)) {
        /* GLES 2 with EXT_unpack_subimage / NV_pack_subimage: no pixel
         * buffers, no images, but row length and skips. */
        row_len = query("", pack ? 0x0D02 : 0x0CF2);
        skip_px = query("", pack ? 0x0D04 : 0x0CF4);
        skip_rows = query("", pack ? 0x0D03 : 0x0CF3);
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
#define GT_UNPACK_2D ((intptr_t)1 << 32)

long gt_size_unpack(gt_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d)
{
    if (d == GT_UNPACK_2D)
        return image_bytes(t, format, type, w, h, 1, 0, 0);
    return image_bytes(t, format, type, w, h, d, 0, 1);
}

long gt_size_pack(gt_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h)
{
    return image_bytes(t, format, type, w, h, 1, 1, 0);
}

long gt_size_unpack_bytes(gt_tls *t, intptr_t bytes)
{
    if (t->es_major >= 3 && query("", 0x88EF))
        return -1;
    return bytes < 0 ? 0 : (long)bytes;
}

long gt_size_pack_bytes(gt_tls *t, intptr_t bytes)
{
    if (t->es_major >= 3 && query("", 0x88ED))
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
#define REAL(type, name) ((type)GT_REAL_OR_NULL(name))

/* Components glGetUniform* writes for one element of a uniform of `type`
 * (matrices whole), or -1 for a type not known here. */
static long uniform_components(GLenum type)
{
    switch (type) {
    case 0x1406: case 0x1404: case 0x1405: case 0x8B56: /* FLOAT INT UNSIGNED_INT BOOL */
    case 0x140E: case 0x140F:                           /* INT64_NV UNSIGNED_INT64_NV */
    case 0x92DB:                                        /* UNSIGNED_INT_ATOMIC_COUNTER */
        return 1;
    case 0x8B50: case 0x8B53: case 0x8DC6: case 0x8B57: /* FLOAT_VEC2 INT_VEC2 UNSIGNED_INT_VEC2 BOOL_VEC2 */
    case 0x8FE9: case 0x8FF5:                           /* INT64_VEC2_NV UNSIGNED_INT64_VEC2_NV */
        return 2;
    case 0x8B51: case 0x8B54: case 0x8DC7: case 0x8B58: /* ..._VEC3 */
    case 0x8FEA: case 0x8FF6:
        return 3;
    case 0x8B52: case 0x8B55: case 0x8DC8: case 0x8B59: /* ..._VEC4 */
    case 0x8FEB: case 0x8FF7:
    case 0x8B5A:                                        /* FLOAT_MAT2 */
        return 4;
    case 0x8B65: case 0x8B67: return 6;                 /* FLOAT_MAT2x3 FLOAT_MAT3x2 */
    case 0x8B66: case 0x8B69: return 8;                 /* FLOAT_MAT2x4 FLOAT_MAT4x2 */
    case 0x8B5B: return 9;                              /* FLOAT_MAT3 */
    case 0x8B68: case 0x8B6A: return 12;                /* FLOAT_MAT3x4 FLOAT_MAT4x3 */
    case 0x8B5C: return 16;                             /* FLOAT_MAT4 */
    default:
        break;
    }
    /* Samplers and images: one integer, the unit. */
    if ((type >= 0x8B5D && type <= 0x8B64) ||  /* SAMPLER_1D .. SAMPLER_2D_RECT_SHADOW */
        (type >= 0x8DC0 && type <= 0x8DC5) ||  /* SAMPLER_1D_ARRAY .. SAMPLER_CUBE_SHADOW */
        (type >= 0x8DC9 && type <= 0x8DD8) ||  /* INT_ and UNSIGNED_INT_SAMPLER_* */
        (type >= 0x900C && type <= 0x900F) ||  /* *SAMPLER_CUBE_MAP_ARRAY* */
        (type >= 0x904C && type <= 0x906C) ||  /* IMAGE_* */
        (type >= 0x9108 && type <= 0x910D) ||  /* *SAMPLER_2D_MULTISAMPLE* */
        type == 0x8D66 || type == 0x8BE7)      /* SAMPLER_EXTERNAL_OES, SAMPLER_EXTERNAL_2D_Y2Y_EXT */
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
    get_iv(program, 0x8B82 /* GL_LINK_STATUS */, &linked);
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

long gt_size_uniform_get(gt_tls *t, intptr_t program_, intptr_t location_)
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
    get_iv(program, 0x8B86 /* GL_ACTIVE_UNIFORMS */, &count);
    get_iv(program, 0x8B87 /* GL_ACTIVE_UNIFORM_MAX_LENGTH */, &max_len);
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

long gt_size_active_uniforms(gt_tls *t, intptr_t uniformCount, intptr_t pname)
{
    (void)t;
    (void)pname; /* every pname of glGetActiveUniformsiv gives one value per uniform */
    return uniformCount < 0 ? 0 : (long)uniformCount;
}

long gt_size_block_param(gt_tls *t, intptr_t program_, intptr_t block_, intptr_t pname)
{
    if (t->es_major < 3)
        return -1;
    GLuint program = (GLuint)program_;
    switch ((GLenum)pname) {
    case 0x8A3F: /* GL_UNIFORM_BLOCK_BINDING */
    case 0x8A40: /* GL_UNIFORM_BLOCK_DATA_SIZE */
    case 0x8A41: /* GL_UNIFORM_BLOCK_NAME_LENGTH */
    case 0x8A42: /* GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS */
    case 0x8A43: /* GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES */
    case 0x8A44: /* GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER */
    case 0x8A45: /* GL_UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER */
    case 0x8A46: /* GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER */
    case 0x84F0: /* GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER */
    case 0x84F1: /* GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER */
    case 0x90EC: /* GL_UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER */
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
    get_iv(program, 0x8A36 /* GL_ACTIVE_UNIFORM_BLOCKS */, &blocks);
    if (blocks <= 0 || block_ < 0 || block_ >= blocks)
        return 0;
    if ((GLenum)pname != 0x8A43)
        return 1;
    GLint n = 0;
    block_iv(program, (GLuint)block_, 0x8A42 /* GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS */, &n);
    return n < 0 ? 0 : n;
}

/* ---------------------------------------------------------------- not yet
 * These extents need state we do not track yet (path objects, fonts,
 * indirect draw buffers, dmabuf planes); their pointers are recorded as
 * addresses only. */

#define GT_UNKNOWN(name, ...)                  \
    long name(gt_tls *t, __VA_ARGS__)          \
    {                                          \
        (void)t;                               \
        return -1;                             \
    }
#define A intptr_t a __attribute__((unused))
#define B intptr_t b __attribute__((unused))
#define C intptr_t c __attribute__((unused))
GT_UNKNOWN(gt_size_path_names, A, B, C)
GT_UNKNOWN(gt_size_path_transform, A, B)
GT_UNKNOWN(gt_size_path_coords, A, B)
GT_UNKNOWN(gt_size_path_spacing, A, B)
GT_UNKNOWN(gt_size_path_metrics, A, B, C)
GT_UNKNOWN(gt_size_path_query, A, B)
GT_UNKNOWN(gt_size_font_name, A, B)
GT_UNKNOWN(gt_size_glyph_codes, A, B, C)
GT_UNKNOWN(gt_size_indirect, A, B, C)
GT_UNKNOWN(gt_size_sample_locations, A, B)
GT_UNKNOWN(gt_size_dmabuf_planes, A, B)
