/* rp_inspect_internal.h: what the modules of the state dump share
 * (gt_inspect.h is the public side): a JSON writer that places commas and
 * indents itself, the context being dumped (its GLES version, extensions,
 * replayed -> recorded names) and the parts of the dump. */
#ifndef RP_INSPECT_INTERNAL_H
#define RP_INSPECT_INTERNAL_H

#include <stdio.h>

#include "gt_api_state.h"
#include "gt_inspect.h"
#include "rp_internal.h"

/* ---- JSON (rp_inspect_json.c) */

#define IJ_DEPTH 32
typedef struct ij {
    FILE *f;
    int depth;
    int count[IJ_DEPTH]; /* members written at each level */
    int inline_from;     /* levels at or above it are written on one line */
    int keyed;           /* a key was written: the value needs no separator */
} ij;

void ij_key(ij *w, const char *key);      /* the next value's key, in an object */
void ij_obj(ij *w);                       /* { */
void ij_arr(ij *w);                       /* [ */
void ij_arr_inline(ij *w);                /* [ with its values on one line */
void ij_end(ij *w, char close);           /* } or ] */
void ij_int(ij *w, long long v);
void ij_uint(ij *w, unsigned long long v);
void ij_num(ij *w, double v);             /* NaN, inf: null */
void ij_bool(ij *w, int v);
void ij_str(ij *w, const char *s);        /* NULL: null */
void ij_null(ij *w);
void ij_enum(ij *w, unsigned v);          /* its GL name, or the number */

/* ---- the context dumped */

typedef struct ik {
    rp *r;
    ij *w;
    const char *dir;
    int resources;
    int ver;              /* GLES version as 11, 20, 30, 31, 32 */
    const char *exts;     /* GL_EXTENSIONS */
    rp_map rev;           /* (owner, class, replayed) -> recorded (rp_names_reverse) */
    int files;            /* resource files written */
    rp_shader_copier copier; /* the shader copy's programs, made once a dump */
} ik;

/* The current context's GLES version as 11, 20, 30, 31, 32 (GL_VERSION). */
int ik_gles_version(void);
/* Whether the context has the row's pname (its GLES version or an extension). */
int ik_has(const ik *k, const gt_api_state *s);
int ik_has_ext(const ik *k, const char *name);
/* The recorded name of a replayed object of a gt_state_class. */
uint32_t ik_recorded(ik *k, int state_cls, uint32_t replayed);
/* An object's name as {"recorded": R, "replayed": N}. */
void ik_name(ik *k, int state_cls, uint32_t replayed);
/* Writes a resource file into the dump's folder; its name into `name`. */
int ik_file(ik *k, const char *name, const void *data, size_t n);

/* Walks the rows of `query` the context has, asking `get` for each
 * (values into v: up to 64); a row whose query gives a GL error is left
 * out. Writes "NAME": value(s) members into the open object. */
typedef int ik_getter(ik *k, const gt_api_state *s, void *arg, double *v, int n);
void ik_rows(ik *k, gt_state_query query, gt_state_scope scope, ik_getter *get, void *arg);
/* A `get` row's n values, plain (glGet*v; arg unused) or at an index
 * (glGet*i_v), by its type; -1 when the driver refused it. The state
 * writer reads with them too (rp_state_calls.c). */
/* The driver's function api/state.tsv's `function` lines name for a use. */
void *ik_state_fn(const char *use, int is_float);
int ik_get_plain(ik *k, const gt_api_state *s, void *arg, double *v, int n);
int ik_get_indexed(ik *k, const gt_api_state *s, GLuint index, double *v, int n);
/* A row's values as JSON, by its type. */
void ik_values(ik *k, const gt_api_state *s, const double *v, int n, int as_array);

/* Reads the read framebuffer's read buffer (w x h, of component type
 * ctype) into DIR/stem.png, or stem.bin with stem.json; writes the member
 * "file" (or "unreadable": why). upright: rows top first (pictures),
 * else row 0 first, as GL stores a texture. (rp_inspect_images.c) */
void ik_read_to_file(ik *k, const char *stem, GLint w, GLint h, GLenum ctype, int upright);
/* The same of its depth (format GL_DEPTH_COMPONENT) or stencil
 * (GL_STENCIL_INDEX): raw with a header ("raw"), and a grey PNG ("file"). */
void ik_read_depth_to_file(ik *k, const char *stem, GLint w, GLint h, GLenum format, int upright);


/* ---- the parts (rp_inspect_state.c, rp_inspect_objects.c, rp_inspect_egl.c) */

void ik_context_state(ik *k);   /* "get", "indexed", "enabled", "texture_units", GLES 1 lights... */
void ik_vertex_attribs(ik *k);  /* "vertex_attribs" */
void ik_program(ik *k);         /* "program" */
void ik_framebuffers(ik *k);    /* "framebuffers" */
void ik_textures(ik *k);        /* "textures", "samplers" */
void ik_buffers(ik *k);         /* "buffers" */
void ik_transform_feedback(ik *k); /* "transform_feedback" (after ik_buffers: its files) */
void ik_queries(ik *k);         /* "queries" */
void ik_egl(ik *k);             /* "egl" */

#endif
