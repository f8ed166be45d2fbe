/* gt_api.h: the API description as tables, for the tools (dump, info,
 * replay). Generated from the registry by api/gen_api.py; this header and
 * gt_api.c are the hand-written part. Nothing here talks to GL. */
#ifndef GT_API_H
#define GT_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a value of a C type is recorded and shown (see proto/FORMAT.md). */
typedef enum gt_kind {
    GT_K_VOID, GT_K_INT, GT_K_UINT, GT_K_BITS, GT_K_BYTE, GT_K_CHAR, GT_K_ENUM,
    GT_K_BOOL, GT_K_FLOAT, GT_K_DOUBLE, GT_K_INT64, GT_K_UINT64, GT_K_HANDLE,
    GT_K_POINTER, GT_K_FUNCPTR
} gt_kind;

/* Direction of a pointer parameter, from api/annotations.txt. */
typedef enum gt_dir {
    GT_DIR_NONE, GT_DIR_IN, GT_DIR_OUT, GT_DIR_INOUT, GT_DIR_DEFERRED,
    GT_DIR_CALLBACK, GT_DIR_OPAQUE
} gt_dir;

/* What a command is to the tools, from `class` lines of api/annotations.txt
 * (one class a command, default none). */
typedef enum gt_class {
    GT_CLASS_NONE,
    GT_CLASS_DRAW,     /* draws (or dispatches): a timing slice, --snapshot draw */
    GT_CLASS_FRAME,    /* ends a frame (the swaps) */
    GT_CLASS_CURRENT,  /* changes the thread's current context */
    GT_CLASS_TEARDOWN, /* releases what a frame needs: --loop replays before it */
    GT_CLASS_ARRAYS,   /* sets a vertex array (client arrays are recorded after it) */
    GT_CLASS_CONTEXT,  /* creates a context */
    GT_CLASS_PUSH,     /* opens a debug group or marker (the viewer's call tree) */
    GT_CLASS_POP,      /* closes one */
    GT_CLASS_PBUFFER,  /* makes a pbuffer: its swaps keep its pixels */
    GT_CLASS_API,      /* binds the thread's client API (its one argument): binding the bound one changes nothing */
    GT_CLASS_FLUSH     /* submits the context's commands, changing no state: one after nothing is nothing */
} gt_class;

/* What a command does to one object (`object` lines of api/annotations.txt),
 * and where that object is: what trim may leave out with it. */
typedef enum gt_obj_role {
    GT_OBJ_NONE,
    GT_OBJ_CONTENTS, /* changes only the object (data, storage, parameters, source) */
    GT_OBJ_PINS,     /* makes something else hold it: its contents stay */
    GT_OBJ_DELETES,  /* ends the lives of the objects it names */
    GT_OBJ_READS,    /* copies its contents into another: what was written before stays */
    GT_OBJ_ASKS,     /* a query replay needs the answer of (a location): it goes with the contents */
    GT_OBJ_MAPS,     /* maps it (pins it): a write-only mapping to its unmap is one write */
    GT_OBJ_UNMAPS,   /* ends its mapping */
    GT_OBJ_FLUSHES   /* flushes part of its mapping */
} gt_obj_role;
typedef enum gt_obj_where {
    GT_WHERE_PARAM,    /* the object parameter obj_param names (obj_class) */
    GT_WHERE_BOUND,    /* the one bound to the target parameter obj_param holds */
    GT_WHERE_BOUND_TO, /* the one bound to target obj_target */
    GT_WHERE_ACTIVE,   /* the query active on the target parameter obj_param holds, before the command (an end) */
    GT_WHERE_CURRENT,  /* the program in use */
    GT_WHERE_ALL       /* every object of the share group */
} gt_obj_where;

/* A piece of state a `state` line of api/annotations.txt names: what a
 * command that only sets state sets, and what it reads (trim leaves out one
 * a later command setting the same key replaced, TRIM.md step 8). Its
 * parts, with the name, say which piece: a parameter's value, a number,
 * or asked of the replay's driver. */
typedef enum gt_part_kind {
    GT_PART_PARAM, /* the value of parameter `value` (its index) */
    GT_PART_VALUE, /* the number `value` */
    GT_PART_GET,   /* glGetIntegerv(value) on the replay's context */
    GT_PART_BOUND, /* the object bound to the target parameter `value` holds */
    GT_PART_BOUND_TO, /* the object bound to the target `value` (an enum) */
    GT_PART_BINDING  /* the binding target of the texture target parameter `value` (a cube face's: the cube map) */
} gt_part_kind;
enum {
    GT_KEY_CHANGES = 1, /* the key set: the command changes what is there (reads it too) */
    GT_KEY_ANY = 2,     /* a key read: every key of the name, whatever its parts */
    GT_KEY_NONE = 4,    /* the key set: none (a `reads` line's command only reads the keys after it) */
    GT_KEY_WHEN = 8,    /* a key read (no parts) only when parameter part[0].value is part[1].value */
    GT_KEY_PART_WHEN = 16 /* of two parts: the second counts only when the first's value is part[2].value */
};
typedef struct gt_api_key {
    uint16_t name;  /* one number (from 1) per key name */
    uint8_t nparts;
    uint8_t flags;  /* GT_KEY_* */
    struct { uint8_t kind; uint32_t value; } part[3];
} gt_api_key;

typedef struct gt_api_param {
    const char *name;   /* C parameter name from the registry/headers */
    const char *ctype;  /* C type text */
    uint8_t kind;       /* gt_kind */
    uint8_t dir;        /* gt_dir (pointers) */
    uint16_t group;     /* enum group for gt_api_enum_name() */
    uint8_t obj_class;  /* gt_state_class of the objects it names (registry class), 0 none */
    uint8_t class_by;   /* 1 + the index of the parameter whose enum says what this one names
                           (api/annotations.txt `map ... named:PARAM`: gt_api_class_named), 0 none */
} gt_api_param;

typedef struct gt_api_fn {
    const char *name;
    int32_t number;     /* api/functions.tsv */
    uint8_t alias;      /* index among names sharing `number` */
    uint8_t is_egl;
    uint8_t nparams;
    uint8_t ret_kind;   /* gt_kind; GT_K_VOID for none */
    uint16_t ret_group;
    const char *ret_ctype;
    const gt_api_param *params;
    uint8_t cls;        /* gt_class */
    uint8_t obj_role;   /* gt_obj_role */
    uint8_t obj_where;  /* gt_obj_where */
    uint8_t obj_param;  /* for GT_WHERE_PARAM and GT_WHERE_BOUND */
    uint8_t obj_class;  /* gt_state_class (gt_api_state.h), for GT_WHERE_PARAM and _CURRENT */
    uint32_t obj_target; /* for GT_WHERE_BOUND_TO */
    uint8_t obj_writes; /* 1 + the parameter naming the object it also writes (a copy's destination), 0 none */
    const gt_api_key *state; /* a state command's: [0] the key it sets, then those it reads */
    uint8_t nstate;     /* 0: not a state command */
    uint8_t ret_class;  /* gt_state_class of the object its return value names (the registry's proto class:
                         * glCreateShader, glCreateProgram), 0 none */
} gt_api_fn;

typedef struct gt_api_name { int32_t number; uint32_t alias; const char *name; } gt_api_name;
typedef struct gt_api_enum { uint16_t group; uint32_t value; const char *name; } gt_api_enum;

/* The covered commands, sorted by name. */
extern const gt_api_fn gt_api_fns[];
extern const size_t gt_api_nfns;
/* Every numbered name (covered or not, synthetic records too), by number. */
extern const gt_api_name gt_api_names[];
extern const size_t gt_api_nnames;
extern const gt_api_enum gt_api_enums[];
extern const size_t gt_api_nenums;

/* A covered command by name, or NULL. */
const gt_api_fn *gt_api_find_name(const char *name);

/* A covered command by recorded number and alias index, or NULL (also for
 * synthetic records and numbers of commands we do not cover). */
const gt_api_fn *gt_api_find_number(int32_t number, uint32_t alias);

/* Whether a record of that number and alias ends a frame (`class frame`:
 * the swaps), as gt_frames_scan (gt_trace.h) asks. */
int gt_api_ends_frame(uint64_t number, uint64_t alias);

/* The name behind a recorded number, covered or not, or NULL. */
const char *gt_api_number_name(int32_t number, uint32_t alias);

/* The name of an enum value: in `group` (a parameter's) first, then among
 * all GL (is_egl 0) or EGL (is_egl 1) enums. NULL when none has the value. */
const char *gt_api_enum_name(uint32_t value, uint16_t group, int is_egl);

/* GLMessage.DataType.Type used for a kind on the wire. */
int gt_api_wire_type(gt_kind kind);

/* The gt_state_class of a name that an enum beside it says the class of
 * (gt_api_param.class_by): a texture target or GL_RENDERBUFFER
 * (glCopyImageSubData), an object identifier (glObjectLabel, GL_BUFFER;
 * EXT_debug_label's GL_BUFFER_OBJECT_EXT). A value it does not know is
 * taken as a texture target. */
int gt_api_class_named(uint32_t what);

/* The gt_state_class of what parameter i names, given the call's integer
 * arguments through arg(ctx, index): its registry class, or the one the
 * enum of its class_by parameter gives; 0 for none. */
int gt_api_param_class(const gt_api_fn *f, unsigned i, int64_t (*arg)(const void *ctx, unsigned index),
                       const void *ctx);

#ifdef __cplusplus
}
#endif
#endif
