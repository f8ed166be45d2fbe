/* The values each glGet* pname carries, as the API description gives them
 * (api/get_counts.tsv through the generator), against the GLES state
 * tables: GLES 3.2 (chapter 21), GLES 1.1 (chapter 6) and the extensions.
 *
 * The expectations below are every pname that carries other than one value
 * in any GLES version, so a row lost from or added to the data fails here.
 * Capture's switch (gt_get_counts.h) must give the same counts as the
 * tools' table (gt_api_get.h), and the table must say which GLES version
 * defines a pname. */
#include <stdio.h>
#include <string.h>

#include "gt_api_get.h"
#include "gt_enums.h"
#include "gt_get_counts.h"

static int failures;

static void check(int ok, const char *what, const char *name)
{
    if (!ok) {
        printf("FAIL %s: %s\n", name, what);
        failures++;
    }
}

#define COUNTED_BY(pname) (-(long)(pname))

/* pname, values (COUNTED_BY: as many as that pname's value), values per index */
static const struct expect { unsigned pname; const char *name; long values, indexed; } expected[] = {
#define E(p, v, i) {p, #p, v, i}
    /* GLES 3.2, 21.5 (transformation state), 21.8 (rasterization), 21.15 (framebuffer) */
    E(GL_VIEWPORT, 4, 4), E(GL_DEPTH_RANGE, 2, 2), E(GL_SCISSOR_BOX, 4, 4),
    E(GL_COLOR_WRITEMASK, 4, 4), E(GL_COLOR_CLEAR_VALUE, 4, 1), E(GL_BLEND_COLOR, 4, 1),
    /* 21.41-21.43 (implementation dependent values) */
    E(GL_MAX_VIEWPORT_DIMS, 2, 1), E(GL_ALIASED_LINE_WIDTH_RANGE, 2, 1),
    E(GL_ALIASED_POINT_SIZE_RANGE, 2, 1), E(GL_PRIMITIVE_BOUNDING_BOX, 8, 1),
    E(GL_COMPRESSED_TEXTURE_FORMATS, COUNTED_BY(GL_NUM_COMPRESSED_TEXTURE_FORMATS), 1),
    E(GL_SHADER_BINARY_FORMATS, COUNTED_BY(GL_NUM_SHADER_BINARY_FORMATS), 1),
    E(GL_PROGRAM_BINARY_FORMATS, COUNTED_BY(GL_NUM_PROGRAM_BINARY_FORMATS), 1),
    /* glGetVertexAttrib*v (21.2), glGetProgramiv (21.27), glTexParameter*v (21.12) */
    E(GL_CURRENT_VERTEX_ATTRIB, 4, 1), E(GL_COMPUTE_WORK_GROUP_SIZE, 3, 1), E(GL_TEXTURE_BORDER_COLOR, 4, 1),
    /* GLES 1.1: 6.2 (state tables), glLight*v, glMaterial*v, glTexEnv*v, glFog*v, glPointParameter*v */
    E(GL_CURRENT_COLOR, 4, 1), E(GL_CURRENT_NORMAL, 3, 1), E(GL_CURRENT_TEXTURE_COORDS, 4, 1), E(GL_LIGHT_MODEL_AMBIENT, 4, 1),
    E(GL_AMBIENT, 4, 1), E(GL_DIFFUSE, 4, 1), E(GL_SPECULAR, 4, 1), E(GL_EMISSION, 4, 1),
    E(GL_AMBIENT_AND_DIFFUSE, 4, 1), E(GL_POSITION, 4, 1), E(GL_SPOT_DIRECTION, 3, 1),
    E(GL_TEXTURE_ENV_COLOR, 4, 1), E(GL_FOG_COLOR, 4, 1), E(GL_POINT_DISTANCE_ATTENUATION, 3, 1),
    E(GL_SMOOTH_POINT_SIZE_RANGE, 2, 1), E(GL_SMOOTH_LINE_WIDTH_RANGE, 2, 1),
    E(GL_MODELVIEW_MATRIX, 16, 1), E(GL_PROJECTION_MATRIX, 16, 1), E(GL_TEXTURE_MATRIX, 16, 1),
    /* NV_path_rendering: glGetPathParameter*vNV's bounding boxes */
    E(GL_PATH_OBJECT_BOUNDING_BOX_NV, 4, 1), E(GL_PATH_FILL_BOUNDING_BOX_NV, 4, 1),
    E(GL_PATH_STROKE_BOUNDING_BOX_NV, 4, 1),
#undef E
};
#define NEXPECTED (sizeof expected / sizeof expected[0])

/* Capture's view: the generated switch, expanded as capture/cap_sizes.c does. */
static long capture_values(unsigned pname)
{
#define FIXED(name, n) \
    case name:         \
        return n;
#define COUNTED(name, count_name, since) \
    case name:                           \
        return COUNTED_BY(count_name);
    switch (pname) {
        GT_GET_VALUES(FIXED, COUNTED)
    default:
        return 1;
    }
#undef COUNTED
}

static long capture_indexed(unsigned pname)
{
    switch (pname) {
        GT_GET_INDEXED_VALUES(FIXED)
    default:
        return 1;
    }
#undef FIXED
}

static long table_values(const gt_api_get *g)
{
    if (!g)
        return 1;
    return g->values ? g->values : COUNTED_BY(g->counted_by);
}

static const struct expect *find_expected(unsigned pname)
{
    for (size_t i = 0; i < NEXPECTED; i++)
        if (expected[i].pname == pname)
            return &expected[i];
    return NULL;
}

static void check_expected(void)
{
    for (size_t i = 0; i < NEXPECTED; i++) {
        const struct expect *e = &expected[i];
        const gt_api_get *g = gt_api_get_find(e->pname);
        check(g != NULL, "not in the table", e->name);
        check(table_values(g) == e->values, "table: wrong count", e->name);
        check(capture_values(e->pname) == e->values, "capture: wrong count", e->name);
        check((g ? g->indexed : 1) == e->indexed, "table: wrong count per index", e->name);
        check(capture_indexed(e->pname) == e->indexed, "capture: wrong count per index", e->name);
    }
}

/* Nothing beyond the expectations carries other than one value, and the
 * table is sorted with one entry per value. */
static void check_table(void)
{
    for (size_t i = 0; i < gt_api_ngets; i++) {
        const gt_api_get *g = &gt_api_gets[i];
        check(i == 0 || gt_api_gets[i - 1].value < g->value, "table not sorted by value", g->name);
        if (table_values(g) != 1 || g->indexed != 1)
            check(find_expected(g->value) != NULL, "carries other than one value, unexpected", g->name);
        if (!g->values)
            check(gt_api_get_find(g->counted_by) != NULL, "counted by a pname not in the table", g->name);
        check(capture_values(g->value) == table_values(g), "capture and table disagree", g->name);
        check(g->gles1 || g->gles || g->extensions[0], "defined by no GLES version or extension", g->name);
    }
    check(gt_api_get_find(GL_NUM_EXTENSIONS) && table_values(gt_api_get_find(GL_NUM_EXTENSIONS)) == 1,
          "one value", "GL_NUM_EXTENSIONS");
    check(gt_api_get_find(0xFFFFu) == NULL, "found", "0xFFFF");
}

/* Where the versions come from: gl.xml's <feature> and <extension> lists. */
static void check_defined_by(void)
{
    const gt_api_get *g = gt_api_get_find(GL_VIEWPORT);
    check(g && g->get && g->gles1 == 10 && g->gles == 20 && strstr(g->extensions, "GL_OES_viewport_array"),
          "GLES 1.0, 2.0, OES_viewport_array", "GL_VIEWPORT");
    g = gt_api_get_find(GL_MODELVIEW_MATRIX);
    check(g && g->gles1 == 10 && g->gles == 0, "GLES 1.0 only", "GL_MODELVIEW_MATRIX");
    g = gt_api_get_find(GL_PROGRAM_BINARY_FORMATS);
    check(g && g->gles1 == 0 && g->gles == 30 && strstr(g->extensions, "GL_OES_get_program_binary"),
          "GLES 3.0, OES_get_program_binary", "GL_PROGRAM_BINARY_FORMATS");
    g = gt_api_get_find(GL_PRIMITIVE_BOUNDING_BOX);
    check(g && g->gles == 32 && strstr(g->extensions, "GL_EXT_primitive_bounding_box"),
          "GLES 3.2, EXT_primitive_bounding_box", "GL_PRIMITIVE_BOUNDING_BOX");
    g = gt_api_get_find(GL_MAX_COMPUTE_WORK_GROUP_COUNT);
    check(g && g->get && g->gles == 31, "GLES 3.1", "GL_MAX_COMPUTE_WORK_GROUP_COUNT");
}

int main(void)
{
    check_expected();
    check_table();
    check_defined_by();
    printf("%zu pnames in the table, %zu checked against the state tables: %d failure(s)\n", gt_api_ngets,
           NEXPECTED, failures);
    return failures != 0;
}
