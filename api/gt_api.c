/* gt_api.c: look-ups over the generated API tables (gt_api_data.c). */
#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h"

#include <string.h>

const gt_api_fn *gt_api_find_name(const char *name)
{
    size_t lo = 0, hi = gt_api_nfns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(gt_api_fns[mid].name, name);
        if (c == 0)
            return &gt_api_fns[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static const gt_api_name *find_number(int32_t number, uint32_t alias)
{
    size_t lo = 0, hi = gt_api_nnames;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const gt_api_name *n = &gt_api_names[mid];
        if (n->number == number && n->alias == alias)
            return n;
        if (n->number < number || (n->number == number && n->alias < alias))
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *gt_api_number_name(int32_t number, uint32_t alias)
{
    const gt_api_name *n = find_number(number, alias);
    return n ? n->name : NULL;
}

int gt_api_ends_frame(uint64_t number, uint64_t alias)
{
    const gt_api_fn *f = number <= INT32_MAX ? gt_api_find_number((int32_t)number, (uint32_t)alias) : NULL;
    return f && f->cls == GT_CLASS_FRAME;
}

const gt_api_fn *gt_api_find_number(int32_t number, uint32_t alias)
{
    const gt_api_name *n = find_number(number, alias);
    return n ? gt_api_find_name(n->name) : NULL;
}

static const char *find_enum(uint16_t group, uint32_t value)
{
    size_t lo = 0, hi = gt_api_nenums;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const gt_api_enum *e = &gt_api_enums[mid];
        if (e->group == group && e->value == value)
            return e->name;
        if (e->group < group || (e->group == group && e->value < value))
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *gt_api_enum_name(uint32_t value, uint16_t group, int is_egl)
{
    const char *n = find_enum(group, value);
    return n ? n : find_enum(is_egl ? 1 : 0, value);
}

int gt_api_wire_type(gt_kind kind)
{
    /* GLMessage.DataType.Type: VOID=1 CHAR=2 BYTE=3 INT=4 FLOAT=5 BOOL=6
     * ENUM=7 INT64=8. Doubles travel as their IEEE bits in INT64 (lossless). */
    switch (kind) {
    case GT_K_VOID: return 1;
    case GT_K_CHAR: return 2;
    case GT_K_BYTE: return 3;
    case GT_K_INT: case GT_K_UINT: case GT_K_BITS: return 4;
    case GT_K_FLOAT: return 5;
    case GT_K_BOOL: return 6;
    case GT_K_ENUM: return 7;
    default: return 8;
    }
}

int gt_api_class_named(uint32_t what)
{
    static const struct { uint32_t what; uint8_t cls; } by[] = {
        {GL_RENDERBUFFER, GT_STATE_RENDERBUFFER_NAME}, {GL_FRAMEBUFFER, GT_STATE_FRAMEBUFFER_NAME},
        {GL_BUFFER, GT_STATE_BUFFER_NAME}, {GL_BUFFER_OBJECT_EXT, GT_STATE_BUFFER_NAME},
        {GL_SHADER, GT_STATE_PROGRAM_NAME}, {GL_PROGRAM, GT_STATE_PROGRAM_NAME},
        {GL_SHADER_OBJECT_EXT, GT_STATE_PROGRAM_NAME}, {GL_PROGRAM_OBJECT_EXT, GT_STATE_PROGRAM_NAME},
        {GL_VERTEX_ARRAY, GT_STATE_VERTEX_ARRAY_NAME}, {GL_VERTEX_ARRAY_OBJECT_EXT, GT_STATE_VERTEX_ARRAY_NAME},
        {GL_QUERY, GT_STATE_QUERY_NAME}, {GL_QUERY_OBJECT_EXT, GT_STATE_QUERY_NAME},
        {GL_PROGRAM_PIPELINE, GT_STATE_PIPELINE_NAME}, {GL_PROGRAM_PIPELINE_OBJECT_EXT, GT_STATE_PIPELINE_NAME},
        {GL_SAMPLER, GT_STATE_SAMPLER_NAME}, {GL_TRANSFORM_FEEDBACK, GT_STATE_XFB_NAME},
    };
    for (size_t i = 0; i < sizeof by / sizeof by[0]; i++)
        if (by[i].what == what)
            return by[i].cls;
    return GT_STATE_TEXTURE_NAME;
}

int gt_api_param_class(const gt_api_fn *f, unsigned i, int64_t (*arg)(const void *ctx, unsigned index),
                       const void *ctx)
{
    const gt_api_param *p = &f->params[i];
    if (p->obj_class || !p->class_by || p->class_by > f->nparams)
        return p->obj_class;
    return gt_api_class_named((uint32_t)arg(ctx, p->class_by - 1u));
}
