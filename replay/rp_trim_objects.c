/* rp_trim_objects.c: the objects deleted before the start of a trim, and
 * the records that only filled them, which the trim leaves out.
 *
 * What a command does to an object, and where that object is, is data
 * (api/annotations.txt `object` lines, gt_api_fn.obj_*): `contents` (an
 * upload, a parameter, a source, a link: it changes that object alone),
 * `pins` (something else now holds it: a framebuffer attachment, a vertex
 * array, a mapping), `deletes`. The object is found by the replay of the
 * original as it happens: by the name a parameter gives, or by asking the
 * replay's driver what is bound to the command's target (the binding is
 * api/state.tsv's row with that target=), or which program is in use. So
 * the active texture unit, a vertex array's element buffer and the like
 * are the driver's business, not ours.
 *
 * An object's life runs from its first contents record to its deletion;
 * a name used again after that is a new life. The contents records of a
 * life that ended before the start go, unless the object was pinned
 * (its contents outlived its name) or the trim keeps every object
 * (--keep-all). What this misses (a texture whose pixels reached a live
 * one through a draw or a copy, an EGL image made from a deleted
 * texture) the check of the result finds, and rp_trim.c then makes the
 * trim again keeping them. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_trace.h"

typedef struct life {
    uint64_t *seq; /* its contents records */
    size_t n, cap;
    uint8_t pinned, dead;
} life;

struct rp_trim_objs {
    rp_map live;     /* (group, class, replayed name) -> index + 1 in lives */
    life *lives;
    size_t n, cap;
    struct { uint32_t target, pname; uint8_t cls; } bind[64]; /* state.tsv's bindings by target */
    size_t nbind;
};

rp_trim_objs *rp_trim_objs_new(void)
{
    rp_trim_objs *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    for (size_t i = 0; i < gt_api_nstates && o->nbind < 64; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if (s->query == GT_STATE_GET && s->target && s->type == GT_STATE_NAME) {
            o->bind[o->nbind].target = s->target;
            o->bind[o->nbind].pname = s->pname;
            o->bind[o->nbind++].cls = s->cls;
        }
    }
    return o;
}

void rp_trim_objs_free(rp_trim_objs *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->n; i++)
        free(o->lives[i].seq);
    free(o->lives);
    rp_map_free(&o->live);
    free(o);
}

static uint64_t key_of(const rp *r, int cls, uint32_t name)
{
    uint64_t group = (uint64_t)(uint32_t)r->ctx[r->cur_ctx].group & 0xffffff;
    return 1ull << 63 | group << 40 | (uint64_t)(cls & 0xff) << 32 | name;
}

/* The object bound to `target` on the replay's current context: its
 * replayed name and class, 0 when nothing is bound or the target has no
 * binding in api/state.tsv. A cube map's faces are bound as the cube map. */
static uint32_t bound_to(const rp_trim_objs *o, uint32_t target, int *cls)
{
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
        target = GL_TEXTURE_CUBE_MAP;
    for (size_t i = 0; i < o->nbind; i++) {
        if (o->bind[i].target != target)
            continue;
        GLint name = 0;
        glGetIntegerv(o->bind[i].pname, &name);
        *cls = o->bind[i].cls;
        return (uint32_t)name;
    }
    return 0;
}

/* The life of an object, made on its first use; NULL: out of memory. */
static life *life_of(rp_trim_objs *o, uint64_t key)
{
    uint64_t v;
    if (rp_map_get(&o->live, key, &v) && v)
        return &o->lives[v - 1];
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 256;
        life *l = realloc(o->lives, cap * sizeof *l);
        if (!l)
            return NULL;
        o->lives = l, o->cap = cap;
    }
    memset(&o->lives[o->n], 0, sizeof o->lives[o->n]);
    if (rp_map_put(&o->live, key, o->n + 1) != 0)
        return NULL;
    return &o->lives[o->n++];
}

/* The names a `deletes` record ends: each one's life is over. */
static void end_lives(rp_trim_objs *o, rp *r, const rp_msg *m, const gt_api_fn *f)
{
    int cls = rp_class_of_state(f->obj_class);
    GLint in_use = 0;
    if (f->obj_class == GT_STATE_PROGRAM_NAME)
        glGetIntegerv(GL_CURRENT_PROGRAM, &in_use); /* a program in use outlives its deletion */
    size_t len = 0, n = 1;
    const uint8_t *bytes = NULL;
    if (f->params[f->obj_param].kind == GT_K_POINTER) {
        bytes = rp_arg_bytes(m, f->obj_param, &len);
        n = bytes ? len / 4 : 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t rec = 0;
        if (bytes)
            memcpy(&rec, bytes + 4 * i, 4);
        else
            rec = (uint32_t)rp_arg_i(m, f->obj_param);
        uint64_t key = key_of(r, f->obj_class, rp_name(r, cls, rec)), v;
        if (rec && rp_map_get(&o->live, key, &v) && v) {
            if (in_use && (uint32_t)in_use == (uint32_t)key) {
                o->lives[v - 1].pinned = 1;
                continue;
            }
            o->lives[v - 1].dead = 1;
            rp_map_put(&o->live, key, 0); /* the name's next use is a new life */
        }
    }
}

int rp_trim_objs_note(rp_trim_objs *o, rp *r, const rp_msg *m, uint64_t seq)
{
    if (m->function >= GT_FN_INVALID || r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX)
        return 0;
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f || f->obj_role == GT_OBJ_NONE || (f->obj_where != GT_WHERE_CURRENT && f->obj_where != GT_WHERE_BOUND_TO &&
                                             f->obj_param >= m->n_args))
        return 0;
    if (f->obj_role == GT_OBJ_DELETES) {
        end_lives(o, r, m, f);
        return 0;
    }
    int cls = f->obj_class;
    uint32_t name = 0;
    if (f->obj_where == GT_WHERE_PARAM) {
        name = rp_name(r, rp_class_of_state(cls), (uint32_t)rp_arg_i(m, f->obj_param));
    } else if (f->obj_where == GT_WHERE_BOUND) {
        name = bound_to(o, (uint32_t)rp_arg_i(m, f->obj_param), &cls);
    } else if (f->obj_where == GT_WHERE_BOUND_TO) {
        name = bound_to(o, f->obj_target, &cls);
    } else {
        GLint prog = 0;
        glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
        name = (uint32_t)prog;
    }
    if (!name)
        return 0;
    life *l = life_of(o, key_of(r, cls, name));
    if (!l)
        return -1;
    if (f->obj_role == GT_OBJ_PINS) {
        l->pinned = 1;
        return 0;
    }
    if (l->pinned)
        return 0; /* kept whole: its records need not be remembered */
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        uint64_t *s = realloc(l->seq, cap * sizeof *s);
        if (!s)
            return -1;
        l->seq = s, l->cap = cap;
    }
    l->seq[l->n++] = seq;
    return 0;
}

void rp_trim_objs_finish(rp_trim_objs *o, rp_trim_plan *plan, size_t nbytes)
{
    for (size_t i = 0; i < o->n; i++) {
        const life *l = &o->lives[i];
        if (!l->dead || l->pinned || !l->n)
            continue;
        plan->dead_objects++;
        for (size_t k = 0; k < l->n; k++) {
            uint64_t s = l->seq[k];
            if ((s >> 3) >= nbytes || (plan->drop[s >> 3] >> (s & 7) & 1))
                continue;
            plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
            plan->dropped_dead++;
        }
    }
}
