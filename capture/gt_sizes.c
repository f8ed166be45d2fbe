/* gt_sizes.c: the named size functions of api/annotations.txt: how many
 * elements lie behind a pointer when that depends on an enum or on GL state.
 * Each returns an element count, or -1 when the extent is not known here:
 * the record then keeps the address only (never a guess). GL state is read
 * only with queries valid for the current context's version, so the app's
 * error state is never touched. */
#include "gt_capture.h"

#include <string.h>

typedef void (*get_iv)(GLenum, GLint *);

static GLint query(const char *name, GLenum pname)
{
    static int idx = -2;
    if (idx == -2)
        idx = gt_fn_index("glGetIntegerv");
    (void)name;
    GLint v = 0;
    if (idx >= 0)
        ((get_iv)gt_real_get((unsigned)idx))(pname, &v);
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
    int comps;
    switch ((GLenum)format) {
    case 0x1903: case 0x8D94: case 0x1906: case 0x1909: case 0x1902: case 0x1901: /* RED RED_INTEGER ALPHA LUMINANCE DEPTH_COMPONENT STENCIL_INDEX */
        comps = 1;
        break;
    case 0x8227: case 0x8228: case 0x190A: case 0x84F9: /* RG RG_INTEGER LUMINANCE_ALPHA DEPTH_STENCIL */
        comps = 2;
        break;
    case 0x1907: case 0x8D98: /* RGB RGB_INTEGER */
        comps = 3;
        break;
    case 0x1908: case 0x8D99: case 0x80E1: /* RGBA RGBA_INTEGER BGRA_EXT */
        comps = 4;
        break;
    default:
        return -1;
    }
    switch ((GLenum)type) {
    case 0x1400: case 0x1401: return comps;      /* BYTE UNSIGNED_BYTE */
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: return 2L * comps; /* SHORT USHORT HALF_FLOAT(_OES) */
    case 0x1404: case 0x1405: case 0x1406: return 4L * comps; /* INT UINT FLOAT */
    case 0x8363: case 0x8033: case 0x8034: return 2; /* 5_6_5 4_4_4_4 5_5_5_1 */
    case 0x8368: case 0x84FA: case 0x8C3B: case 0x8C3E: return 4; /* 2_10_10_10_REV 24_8 10F_11F_11F_REV 5_9_9_9_REV */
    case 0x8DAD: return 8; /* FLOAT_32_UNSIGNED_INT_24_8_REV */
    default: return -1;
    }
}

/* Bytes of a w x h x d image at the pointer under the unpack (or pack)
 * state, or -1 with a pixel buffer bound (the pointer is then an offset
 * into it, recorded as the address alone). */
static long image_bytes(gt_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d, int pack)
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
        if (!pack) {
            img_h = query("", 0x806E);    /* UNPACK_IMAGE_HEIGHT */
            skip_img = query("", 0x806D); /* UNPACK_SKIP_IMAGES */
        }
    }
    if (align <= 0)
        align = 4;
    long row_px = row_len > 0 ? row_len : (long)w;
    long row_bytes = (row_px * bpp + align - 1) / align * align;
    long rows = img_h > 0 ? img_h : (long)h;
    return ((skip_img + (long)d - 1) * rows + skip_rows + (long)h - 1) * row_bytes + (skip_px + (long)w) * bpp;
}

long gt_size_unpack(gt_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d)
{
    return image_bytes(t, format, type, w, h, d, 0);
}

long gt_size_pack(gt_tls *t, intptr_t format, intptr_t type, intptr_t w, intptr_t h)
{
    return image_bytes(t, format, type, w, h, 1, 1);
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

/* ---------------------------------------------------------------- not yet
 * These extents need state we do not track yet (uniform types, path objects,
 * dmabuf planes); their pointers are recorded as addresses only. */

#define GT_UNKNOWN(name, ...)                  \
    long name(gt_tls *t, __VA_ARGS__)          \
    {                                          \
        (void)t;                               \
        return -1;                             \
    }
#define A intptr_t a __attribute__((unused))
#define B intptr_t b __attribute__((unused))
#define C intptr_t c __attribute__((unused))
GT_UNKNOWN(gt_size_uniform_get, A, B)
GT_UNKNOWN(gt_size_active_uniforms, A, B)
GT_UNKNOWN(gt_size_block_param, A, B, C)
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
