/* gt_api_state.h: the GL state a tool can ask a context for, as a table
 * generated (gt_api_states.c) from api/state.tsv, gl.xml and
 * api/get_counts.tsv by api/gen_api.py: for each query (glGet*,
 * glIsEnabled, glGetTexParameter*, ...) every pname it takes in GLES, how
 * many values it returns, what kind of value they are and which GLES
 * versions and extensions define it. `gltrace inspect` walks it; nothing
 * here talks to GL. */
#ifndef GT_API_STATE_H
#define GT_API_STATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The queries of api/state.tsv, in its order of description. */
typedef enum gt_state_query {
    GT_STATE_GET, GT_STATE_ENABLED, GT_STATE_TEXENV, GT_STATE_LIGHT, GT_STATE_MATERIAL, GT_STATE_ATTRIB,
    GT_STATE_TEXTURE, GT_STATE_LEVEL, GT_STATE_SAMPLER, GT_STATE_ATTACHMENT, GT_STATE_PROGRAM,
    GT_STATE_BUFFER, GT_STATE_RENDERBUFFER, GT_STATE_CURRENT_QUERY, GT_STATE_NQUERIES
} gt_state_query;

/* What a value is (TYPE of api/state.tsv). */
typedef enum gt_state_type {
    GT_STATE_INT, GT_STATE_BOOL, GT_STATE_FLOAT, GT_STATE_INT64, GT_STATE_ENUM, GT_STATE_BITS,
    GT_STATE_NAME /* an object's name, of class `cls` */
} gt_state_type;

/* The object classes a GT_STATE_NAME value names. */
typedef enum gt_state_class {
    GT_STATE_NO_CLASS, GT_STATE_TEXTURE_NAME, GT_STATE_BUFFER_NAME, GT_STATE_FRAMEBUFFER_NAME,
    GT_STATE_RENDERBUFFER_NAME, GT_STATE_PROGRAM_NAME, GT_STATE_VERTEX_ARRAY_NAME, GT_STATE_SAMPLER_NAME,
    GT_STATE_XFB_NAME, GT_STATE_PIPELINE_NAME, GT_STATE_QUERY_NAME,
    GT_STATE_SYNC_NAME /* a fence sync (a GLsync handle, not a name): no state names one */
} gt_state_class;

/* SCOPE of api/state.tsv. */
typedef enum gt_state_scope {
    GT_STATE_CONTEXT,     /* one value set per query */
    GT_STATE_UNIT,        /* per texture unit */
    GT_STATE_CLIENT_UNIT, /* per client texture unit (GLES 1) */
} gt_state_scope;

typedef struct gt_api_state {
    uint32_t pname;
    const char *name;
    uint8_t query;          /* gt_state_query */
    uint8_t type;           /* gt_state_type */
    uint8_t cls;            /* gt_state_class, for GT_STATE_NAME */
    uint8_t scope;          /* gt_state_scope */
    uint16_t values;        /* values it returns; 0: as many as `counted_by` gives */
    uint32_t counted_by;    /* the pname whose value is the count (values 0) */
    /* Indexed (glGet*i_v) too: for indices below index_count, or below the
     * value of the pname index_bound; both 0: not indexed. */
    uint16_t index_count;
    uint32_t index_bound;
    uint8_t gles1;          /* 10: GLES 1 defines it; 0: not GLES 1 core */
    uint8_t gles;           /* 20, 30, 31, 32: the first GLES 2/3 defining it; 0: none */
    const char *extensions; /* the GLES extensions defining it, space-separated */
    uint32_t target;        /* a binding's: the target it binds (GL_TEXTURE_2D for
                               GL_TEXTURE_BINDING_2D), 0 when none */
    uint8_t window_buffer;  /* names a buffer of the framebuffer bound: of a window's,
                               GLES says GL_BACK (state.tsv `window-buffer`) */
} gt_api_state;

/* Sorted by query, then pname. */
extern const gt_api_state gt_api_states[];
extern const size_t gt_api_nstates;

/* The functions a tool looks up for a use (`function` lines of
 * api/state.tsv: "texenv", "light", "material", "client-unit"). */
typedef struct gt_api_state_fn {
    const char *use, *float_fn, *int_fn;
} gt_api_state_fn;
extern const gt_api_state_fn gt_api_state_fns[];
extern const size_t gt_api_nstate_fns;

/* The EGL attributes asked (`egl` lines): of a config
 * (eglGetConfigAttrib), a context (eglQueryContext), a surface
 * (eglQuerySurface). type: GT_STATE_INT, _BOOL, _ENUM, _BITS. */
typedef enum gt_egl_query { GT_EGL_CONFIG, GT_EGL_CONTEXT, GT_EGL_SURFACE } gt_egl_query;
typedef struct gt_api_egl_attrib {
    int32_t attr;
    const char *name;
    uint8_t query; /* gt_egl_query */
    uint8_t type;  /* gt_state_type */
} gt_api_egl_attrib;
extern const gt_api_egl_attrib gt_api_egl_attribs[];
extern const size_t gt_api_negl_attribs;

/* A uniform type's values (`uniform` lines): base 'f' float, 'i' int,
 * 'u' unsigned, 'b' bool, and the components of one element
 * (GL_FLOAT_MAT4x3: 'f', 12). Types not listed (samplers, images, atomic
 * counters) are one int. Sorted by type. */
typedef struct gt_api_uniform_type {
    uint32_t type;
    char base;
    uint8_t components;
} gt_api_uniform_type;
extern const gt_api_uniform_type gt_api_uniform_types[];
extern const size_t gt_api_nuniform_types;

/* GLES 1's matrix stacks (`stack` lines): glMatrixMode's mode, the pname
 * of the top matrix and of the stack's depth; per_unit: one stack per
 * texture unit. */
typedef struct gt_api_stack {
    uint32_t mode, matrix, depth;
    const char *name;
    uint8_t per_unit;
} gt_api_stack;
extern const gt_api_stack gt_api_stacks[];
extern const size_t gt_api_nstacks;

/* GLES 1's client array pointers (`pointer` lines): glGetPointerv's pname,
 * the array's capability (glEnableClientState) and the pname of the buffer
 * it reads; per_client_unit: one per client texture unit. */
typedef struct gt_api_pointer {
    uint32_t pname, array, buffer;
    const char *name;
    uint8_t per_client_unit;
} gt_api_pointer;
extern const gt_api_pointer gt_api_pointers[];
extern const size_t gt_api_npointers;

/* How the context's own state is written back (`set` and `toggle` lines,
 * gt_api_setters.c): fn called with args, each a constant, a value of a
 * pname (glGet*, or glGet*i_v per index), the index, or the texture unit.
 * A toggle (off_fn set, no args) writes every capability of the `enabled`
 * query with fn or off_fn. when: 1 only when when_pname's value is 0,
 * 2 only when it is not, 0 always. In the order they are written. */
typedef enum gt_set_kind {
    GT_SET_ENUM,       /* value: the enum */
    GT_SET_PNAME,      /* value: the pname; component: which of its values */
    GT_SET_PNAME_ALL,  /* all of its values, for a pointer parameter */
    GT_SET_INDEX,      /* the index of an indexed pname */
    GT_SET_UNIT,       /* the texture unit's number */
    GT_SET_UNIT_ENUM   /* GL_TEXTURE0 + the unit */
} gt_set_kind;
typedef struct gt_api_setter {
    const char *fn, *off_fn;
    uint8_t nargs;
    struct { uint8_t kind; uint8_t component; uint32_t value; } args[10];
    uint32_t when_pname;
    uint8_t when;
} gt_api_setter;
extern const gt_api_setter gt_api_setters[];
extern const size_t gt_api_nsetters;

/* A GLES 1 query written back row by row (`each` lines): query (texenv
 * per texture unit, material, light per light: `of` and `first` plus the
 * light's number) read of `of`, each row written as float_fn or
 * int_fn(first, pname, values). eye: the values are kept in eye
 * coordinates, so they are written with the identity as the modelview
 * matrix. */
typedef struct gt_api_each {
    uint8_t query; /* gt_state_query */
    uint32_t of;
    const char *float_fn, *int_fn;
    uint32_t first;
    uint8_t eye;
} gt_api_each;
extern const gt_api_each gt_api_eaches[];
extern const size_t gt_api_neaches;

/* Calls fn, the driver's function `name` (one named by a `set`, `toggle`
 * `each` or `uniform` line, or a `function` line of matrix-mode or
 * load-matrix),
 * with n numbers as its arguments: each scalar
 * parameter in order takes one, converted to its C type; a last pointer
 * parameter gets the rest (up to 64) as an array of its type. -1 when
 * `name` is none of those, fn is NULL or n does not fit. */
int gt_api_call(const char *name, void *fn, const double *a, int n);

/* The function that sets an array of uniforms of a type (glUniform4fv for
 * GL_FLOAT_VEC4; GL_INT's, glUniform1iv, for types not listed). */
const char *gt_api_uniform_setter(uint32_t type);

/* The glGet pname that names the object bound to `target` (a buffer,
 * texture, framebuffer, renderbuffer or transform feedback target):
 * GL_ARRAY_BUFFER gives GL_ARRAY_BUFFER_BINDING; 0 for any other value.
 * From the target= column of api/state.tsv (gt_api_bindings.c). */
uint32_t gt_api_binding_of(uint32_t target);

#ifdef __cplusplus
}
#endif
#endif
