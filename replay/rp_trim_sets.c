/* rp_trim_sets.c: the state commands of a trim's setup that a later one
 * replaced before anything read what they set (TRIM.md step 8).
 *
 * Which commands only set state, and which piece, is data: the `state`
 * lines of api/annotations.txt (gt_api_fn.state). A key is a name and
 * parts: glBindTexture sets bind[target, active unit], glUniform4fv sets
 * uniform[program in use, location, count]. Parts the replay's driver is
 * asked for (the active unit, the program in use, what a target is bound
 * to) are asked after the replay took the command, which none of these
 * change. Every other GL command of the setup that stays reads
 * everything (a draw, an upload, a deletion), so a state command is left
 * out only when a later one of its key follows with nothing between that
 * reads it: nothing but other state commands, and the records other steps
 * left out. What one state command reads besides (glBindTexture the
 * active unit, glVertexAttribPointer the buffer bound to GL_ARRAY_BUFFER)
 * the line names, so what it reads stays with it. A command whose key is
 * ~KEY changes what is there (glTranslatef): it reads its key, so it goes
 * only when a later command sets the key; a read NAME[*] reads every key
 * of the name (a light's position, taken through the modelview matrix).
 * A binding of GL_FRAMEBUFFER sets two keys, the draw and the read
 * framebuffer's (rp_trim_binding_also), and goes only when both are
 * covered.
 *
 * Walked backwards from the start, at the end of the plan: a key set
 * later and not read since is `covered`; a state command of a covered
 * key goes. The state at the start is unchanged by construction (the
 * last command of each key stays); the check of the result compares it.
 *
 * A deletion unbinds what it deletes: it sets every binding key whose
 * last binding command bound that object (a binding: a state command of
 * no object role with a parameter naming a texture, buffer, framebuffer,
 * renderbuffer, vertex array or sampler; a program in use outlives its
 * deletion). So a binding the deletion undid goes, like one a later
 * binding replaced. Objects made and deleted before the start that the
 * other steps left nothing of (plan->ends) lose their making and deletion
 * here, unless the deletion's unbinding is read (no binding of that key
 * follows before a read or the start: the object must be there to be
 * unbound) or a record that stays names the object. What such a deletion
 * read (a texture's: the framebuffer bindings) then goes in another walk. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_trace.h"

#define SETS_MAX_KEYS 16 /* the key set and the keys read, per command (api/emit_tables.py allows no more) */

typedef struct event {
    uint64_t seq;
    const gt_api_fn *f;          /* its state[] says each key's name and flags; NULL: an unbinding */
    size_t key_at;               /* its n keys in rp_trim_sets.keys: [0] set, the rest read */
    uint8_t n;                   /* 0: reads everything */
    uint16_t name;               /* an unbinding's key name */
    uint32_t del;                /* an unbinding's deletion (dels index) */
    uint8_t skip;                /* a call of the state at the start that is not written */
    uint8_t makes;               /* a binding that names its object first: GLES makes the object there */
    uint8_t keep;                /* such a binding a later one of that object covers, after a record named it */
    uint8_t refused;             /* refused (an error, not out of memory): it set nothing */
    uint8_t also;                /* its last key is a second one it sets (binding GL_FRAMEBUFFER binds the
                                    read framebuffer too: rp_trim_binding_also) */
} event;

/* A deletion of one object: the records that named it since it was last
 * deleted (a list through namer[].next from head, index + 1), and whether
 * its unbinding is read. */
typedef struct deletion {
    uint64_t seq;
    size_t head;
    int needed;
    int reads; /* the deletion reads state (a texture's reads the framebuffer bindings: it detaches) */
} deletion;

struct rp_trim_sets {
    event *ev;
    size_t n, cap;
    /* The events' keys, one after another: most records have one to three
     * (with 16 in each event, a glmark2 run's events took 170 MB by frame
     * 16000). */
    uint64_t *keys;
    size_t nkeys, capkeys;
    size_t nsets;
    /* Bindings: the object each binding key holds, by the last binding. */
    struct binding { uint64_t key, obj; uint16_t name; size_t ev; } *bind; /* ev: the last binding's event + 1 */
    size_t nbind, capbind;
    rp_map bind_of;  /* key -> bind index + 1 */
    /* The records that named each object since its last deletion. */
    struct namer { uint64_t seq; size_t next; } *namer;
    size_t nnamer, capnamer;
    rp_map namers;   /* object -> its last namer + 1, since its last deletion */
    deletion *del;
    size_t ndel, capdel;
    rp_map del_of;   /* deletion seq -> del index + 1 */
    /* The calls of the state at the start (rp_trim_calls.c): the keys the
     * setup's commands set, and how many calls were noted. */
    rp_map setup_keys;
    int setup_keys_made;
    uint64_t calls;
    int oom;
};

/* The classes a deletion ends: it unbinds them, and a query has no
 * binding (not a program: one in use outlives it). */
static int unbound_class(int cls)
{
    return cls == GT_STATE_TEXTURE_NAME || cls == GT_STATE_BUFFER_NAME || cls == GT_STATE_FRAMEBUFFER_NAME ||
           cls == GT_STATE_RENDERBUFFER_NAME || cls == GT_STATE_VERTEX_ARRAY_NAME || cls == GT_STATE_SAMPLER_NAME ||
           cls == GT_STATE_QUERY_NAME;
}

rp_trim_sets *rp_trim_sets_new(void)
{
    return calloc(1, sizeof(rp_trim_sets));
}

void rp_trim_sets_free(rp_trim_sets *s)
{
    if (!s)
        return;
    free(s->ev), free(s->keys), free(s->bind), free(s->namer), free(s->del);
    rp_map_free(&s->bind_of), rp_map_free(&s->del_of), rp_map_free(&s->namers), rp_map_free(&s->setup_keys);
    free(s);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size, int *oom)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 256;
    void *q = realloc(p, c * size);
    if (!q) {
        *oom = 1;
        return NULL;
    }
    *cap = c;
    return q;
}

/* Event e's keys (valid until more are given). */
static uint64_t *keys_at(const rp_trim_sets *s, const event *e)
{
    return s->keys + e->key_at;
}

/* Gives event e room for n keys, copied from `keys`, and its count n;
 * -1 out of memory (e unchanged). */
static int give_keys(rp_trim_sets *s, event *e, const uint64_t *keys, unsigned n)
{
    uint64_t *k = grow(s->keys, &s->capkeys, s->nkeys + n, sizeof *k, &s->oom);
    if (!k)
        return -1;
    s->keys = k;
    memcpy(k + s->nkeys, keys, n * sizeof *k);
    e->key_at = s->nkeys, e->n = (uint8_t)n;
    s->nkeys += n;
    return 0;
}

static event *new_event(rp_trim_sets *s)
{
    event *e = grow(s->ev, &s->cap, s->n + 1, sizeof *e, &s->oom);
    if (!e)
        return NULL;
    s->ev = e;
    memset(&s->ev[s->n], 0, sizeof s->ev[s->n]);
    return &s->ev[s->n++];
}

/* The object a parameter names: its class and replayed name in one. */
static uint64_t obj_of(rp *r, int cls, uint32_t recorded)
{
    return (uint64_t)(cls & 0xff) << 56 | (uint64_t)(uint32_t)r->cur_ctx << 32 | rp_name(r, rp_class_of_state(cls), recorded);
}

/* The records that name objects of the classes a deletion unbinds, and
 * of programs and shaders (whose deletion unbinds nothing: one in use
 * outlives it, and step 5 keeps that one); a deletion ends each one's
 * namers, an unbinding of each key holding it. */
static int note_objects(rp_trim_sets *s, rp *r, const rp_msg *m, const gt_api_fn *f, uint64_t seq, int *first)
{
    int deletes = f->obj_role == GT_OBJ_DELETES;
    *first = 0;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        const gt_api_param *pa = &f->params[i];
        if ((!unbound_class(pa->obj_class) && pa->obj_class != GT_STATE_PROGRAM_NAME) || pa->dir == GT_DIR_OUT)
            continue;
        size_t len = 0;
        const uint8_t *b = pa->kind == GT_K_POINTER ? rp_arg_bytes(m, i, &len) : NULL;
        size_t count = pa->kind == GT_K_POINTER ? (b ? len / 4 : 0) : 1;
        for (size_t k = 0; k < count; k++) {
            uint32_t rec = 0;
            if (b)
                memcpy(&rec, b + 4 * k, 4);
            else
                rec = (uint32_t)rp_arg_i(m, i);
            if (!rec)
                continue;
            uint64_t obj = obj_of(r, pa->obj_class, rec), last = 0;
            rp_map_get(&s->namers, obj, &last);
            if (!deletes) {
                *first |= !last;
                struct namer *v = grow(s->namer, &s->capnamer, s->nnamer + 1, sizeof *v, &s->oom);
                if (!v)
                    return -1;
                s->namer = v;
                s->namer[s->nnamer++] = (struct namer){seq, (size_t)last};
                if (rp_map_put(&s->namers, obj, s->nnamer) != 0)
                    return s->oom = 1, -1;
                continue;
            }
            deletion *d = grow(s->del, &s->capdel, s->ndel + 1, sizeof *d, &s->oom);
            if (!d)
                return -1;
            s->del = d;
            s->del[s->ndel] = (deletion){seq, (size_t)last, 0, 0};
            if (last && rp_map_put(&s->namers, obj, 0) != 0) /* its next making is a new object */
                return s->oom = 1, -1;
            if (count == 1 && rp_map_put(&s->del_of, seq, s->ndel + 1) != 0)
                return s->oom = 1, -1;
            for (size_t j = 0; j < s->nbind; j++) {
                if (s->bind[j].obj != obj)
                    continue;
                s->bind[j].obj = 0;
                event *e = new_event(s);
                if (!e || give_keys(s, e, &s->bind[j].key, 1) != 0)
                    return -1;
                e->seq = seq, e->name = s->bind[j].name;
                e->del = (uint32_t)s->ndel;
            }
            s->ndel++;
        }
    }
    return 0;
}

/* Whether a record before the last one (the binding being noted) named
 * obj after seq. */
static int named_since(const rp_trim_sets *s, uint64_t obj, uint64_t seq)
{
    uint64_t last = 0;
    if (!rp_map_get(&s->namers, obj, &last) || !last)
        return 0;
    size_t before = s->namer[last - 1].next;
    return before && s->namer[before - 1].seq > seq;
}

static int bind_key(rp_trim_sets *s, uint64_t key, uint64_t obj, uint16_t name, size_t ev);

/* A binding command just noted (its key set, keys_at(s, e)[0], and its
 * second when e->also): the object it binds. */
static int note_binding(rp_trim_sets *s, rp *r, const rp_msg *m, const gt_api_fn *f, const event *e)
{
    if (f->obj_role != GT_OBJ_NONE)
        return 0; /* an attachment, an array setter: not a binding a deletion undoes */
    int found = -1;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++)
        if (f->params[i].obj_class) {
            if (found >= 0 || !unbound_class(f->params[i].obj_class) || f->params[i].kind == GT_K_POINTER)
                return 0;
            found = (int)i;
        }
    if (found < 0)
        return 0;
    uint64_t obj = obj_of(r, f->params[found].obj_class, (uint32_t)rp_arg_i(m, (unsigned)found));
    if ((uint32_t)obj == 0)
        obj = 0;
    size_t ev = (size_t)(e - s->ev) + 1;
    return bind_key(s, keys_at(s, e)[0], obj, f->state[0].name, ev) != 0 ||
                   (e->also && bind_key(s, keys_at(s, e)[e->n - 1], obj, f->state[0].name, ev) != 0)
               ? -1
               : 0;
}

/* The binding key `key` holds obj from event ev (index + 1) on. */
static int bind_key(rp_trim_sets *s, uint64_t key, uint64_t obj, uint16_t name, size_t ev)
{
    uint64_t v;
    if (rp_map_get(&s->bind_of, key, &v) && v) {
        struct binding *b = &s->bind[v - 1];
        event *made = b->ev ? &s->ev[b->ev - 1] : NULL;
        if (obj && b->obj == obj && made && made->makes && named_since(s, obj, made->seq))
            made->keep = 1;
        b->obj = obj, b->ev = ev;
        return 0;
    }
    struct binding *b = grow(s->bind, &s->capbind, s->nbind + 1, sizeof *b, &s->oom);
    if (!b)
        return -1;
    s->bind = b;
    s->bind[s->nbind] = (struct binding){key, obj, name, ev};
    return rp_map_put(&s->bind_of, key, ++s->nbind) != 0 ? (s->oom = 1, -1) : 0;
}

/* The value of one part of a key, for the record m; *unknown when it
 * cannot be told (a target api/state.tsv has no binding for). */
static uint64_t part_value(const rp_msg *m, unsigned kind, uint32_t v, uint32_t as, int *unknown)
{
    GLint got = 0;
    int cls = GT_STATE_NO_CLASS;
    uint32_t name;
    switch (kind) {
    case GT_PART_PARAM:
        return v < m->n_args ? rp_arg_u(m, v) : UINT64_MAX;
    case GT_PART_GET:
        glGetIntegerv(v, &got);
        return (uint32_t)got;
    case GT_PART_BOUND:
        name = v < m->n_args ? rp_trim_bound((uint32_t)rp_arg_u(m, v), &cls) : 0;
        *unknown |= cls == GT_STATE_NO_CLASS;
        return name;
    case GT_PART_BOUND_TO:
        name = rp_trim_bound(v, &cls);
        *unknown |= cls == GT_STATE_NO_CLASS;
        return name;
    case GT_PART_BINDING: /* as: the second binding the command sets, in place of the first */
        return v >= m->n_args ? UINT64_MAX : as ? as : rp_trim_binding_target((uint32_t)rp_arg_u(m, v));
    default:
        return v;
    }
}

/* The key k of the record m, on the replay's current context: the same
 * piece of state gives the same number. as: a binding part's target in
 * place of the one the record names (0: none). */
static uint64_t key_of(const rp *r, const rp_msg *m, const gt_api_key *k, uint32_t as, int *unknown)
{
    uint64_t h = rp_trim_mix((uint64_t)r->cur_ctx, k->name);
    unsigned n = k->nparts;
    if ((k->flags & GT_KEY_PART_WHEN) && n == 2) {
        uint64_t first = part_value(m, k->part[0].kind, k->part[0].value, as, unknown);
        h = rp_trim_mix(h, first);
        return first == k->part[2].value ? rp_trim_mix(h, part_value(m, k->part[1].kind, k->part[1].value, as, unknown))
                                         : h;
    }
    for (unsigned i = 0; i < n && i < 3; i++)
        h = rp_trim_mix(h, part_value(m, k->part[i].kind, k->part[i].value, as, unknown));
    return h;
}

/* The second binding the key set by f's record m sets (binding
 * GL_FRAMEBUFFER binds the read framebuffer too), or 0. */
static uint32_t also_of(const rp_msg *m, const gt_api_fn *f)
{
    const gt_api_key *k = &f->state[0];
    if (k->flags & GT_KEY_NONE)
        return 0;
    for (unsigned i = 0; i < k->nparts && i < 3; i++)
        if (k->part[i].kind == GT_PART_BINDING && k->part[i].value < m->n_args)
            return rp_trim_binding_also((uint32_t)rp_arg_u(m, k->part[i].value));
    return 0;
}

/* The keys of state command f's record m into key[] (f->nstate of
 * them: 0 for a read that does not count; then, when *also, a second key
 * it sets); -1 when a part the driver could not say. */
static int keys_of(const rp *r, const rp_msg *m, const gt_api_fn *f, uint64_t *key, int *also)
{
    int unknown = 0;
    for (unsigned i = 0; i < f->nstate; i++) {
        const gt_api_key *k = &f->state[i];
        int when = !(k->flags & GT_KEY_WHEN) ||
                   (k->part[0].value < m->n_args && rp_arg_u(m, k->part[0].value) == k->part[1].value);
        key[i] = when ? key_of(r, m, k, 0, &unknown) : 0; /* 0: a read that does not count here */
    }
    uint32_t as = also_of(m, f);
    *also = as != 0;
    if (as)
        key[f->nstate] = key_of(r, m, &f->state[0], as, &unknown);
    return glGetError() != GL_NO_ERROR || unknown ? -1 : 0;
}

uint64_t rp_trim_state_key(rp *r, const rp_msg *m, const gt_api_fn *f)
{
    if (!f || !f->nstate || f->nstate > SETS_MAX_KEYS || (f->state[0].flags & GT_KEY_NONE))
        return 0;
    uint64_t key[SETS_MAX_KEYS + 1] = {0};
    int also = 0;
    rp_hold_errors(r); /* the record's own, if any: not the queries' */
    return keys_of(r, m, f, key, &also) == 0 ? key[0] : 0;
}

/* The keys the setup's state commands set (for rp_trim_sets_call). */
static int setup_keys(rp_trim_sets *s)
{
    if (s->setup_keys_made)
        return 0;
    s->setup_keys_made = 1;
    for (size_t i = 0; i < s->n; i++) {
        const event *e = &s->ev[i];
        if (e->f && e->n && !(e->f->state[0].flags & GT_KEY_NONE) &&
            (rp_map_put(&s->setup_keys, keys_at(s, e)[0], 1) != 0 ||
             (e->also && rp_map_put(&s->setup_keys, keys_at(s, e)[e->n - 1], 1) != 0)))
            return -1;
    }
    return 0;
}

int rp_trim_sets_call(void *user, rp *r, const rp_msg *m, int commit)
{
    rp_trim_sets *s = user;
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    uint64_t key[SETS_MAX_KEYS + 1] = {0}, v = 0;
    int also = 0;
    int known = f && f->nstate && f->nstate <= SETS_MAX_KEYS && keys_of(r, m, f, key, &also) == 0;
    if (!commit)
        return known && !(f->state[0].flags & GT_KEY_NONE) && setup_keys(s) == 0 &&
               (rp_map_get(&s->setup_keys, key[0], &v) || (also && rp_map_get(&s->setup_keys, key[f->nstate], &v)));
    event *e = new_event(s);
    if (!e)
        return -1;
    /* After every record of the setup; never left out (no seq of the trace). */
    e->seq = UINT64_MAX - ++s->calls, e->n = 0;
    if (known) {
        if (give_keys(s, e, key, f->nstate + (unsigned)also) != 0)
            return -1;
        e->f = f, e->also = (uint8_t)also;
        s->nsets++;
    }
    return 0;
}

int rp_trim_sets_note(rp_trim_sets *s, rp *r, const rp_msg *m, uint64_t seq)
{
    if (GT_FN_IS_SYNTHETIC(m->function) || r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX)
        return 0; /* trace records and calls without a context read no GL state */
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f || f->is_egl)
        return 0; /* EGL reads no context's state (a context made current sets its first viewport) */
    if (s->oom)
        return -1;
    event *e = new_event(s);
    if (!e)
        return -1;
    e->seq = seq, e->n = 0;
    size_t at = s->n - 1;
    int first = 0;
    if (note_objects(s, r, m, f, seq, &first) != 0)
        return -1;
    e = &s->ev[at]; /* the unbindings may have moved the events */
    /* The first binding of a name since glGen* made it makes the object:
     * before it, the name is no object (an attachment of it fails). When
     * a later binding of the same object covers it after a record named
     * the object between (Qt binds a new texture, attaches it, then binds
     * it again to set it up), it stays (note_binding: keep). */
    e->makes = (uint8_t)(first && f->obj_role == GT_OBJ_NONE);
    if (!f->nstate || f->nstate > SETS_MAX_KEYS) {
        rp_hold_errors(r); /* its own errors: not the next state command's refusal */
        return 0;
    }
    /* A state command the driver refused set nothing (a command that
     * raises an error other than GL_OUT_OF_MEMORY has no effect: GLES 3.2
     * section 2.3.1): it goes, reading nothing. Kept reading everything,
     * it kept every state command of every frame before it (Qt's particles
     * enable GL_POINT_SPRITE_OES on GLES 3 each frame). */
    GLenum err = glGetError();
    if (err != GL_NO_ERROR && err != GL_OUT_OF_MEMORY)
        e->refused = 1;
    if (err != GL_NO_ERROR)
        return 0;
    uint64_t key[SETS_MAX_KEYS + 1] = {0};
    int also = 0;
    if (keys_of(r, m, f, key, &also) != 0)
        return 0; /* a part the driver could not say: the command stays, reading everything */
    if (give_keys(s, e, key, f->nstate + (unsigned)also) != 0)
        return -1;
    e->f = f, e->also = (uint8_t)also;
    s->nsets++;
    uint64_t d = 0;
    if (f->obj_role == GT_OBJ_DELETES && rp_map_get(&s->del_of, seq, &d) && d)
        s->del[d - 1].reads = 1;
    return !(f->state[0].flags & GT_KEY_NONE) ? note_binding(s, r, m, f, e) : 0;
}

/* The keys covered: set later, not read since. Open addressing; a key
 * stays in its slot once there, and is covered while its stamp is the
 * table's (clearing all is a new stamp) and its generation its name's (a
 * read of every key of a name, GT_KEY_ANY, is a new generation of it). */
typedef struct covered {
    uint64_t *key;
    uint32_t *stamp, *gen;
    uint16_t *name;
    uint32_t *name_gen; /* by key name: 65536 */
    size_t mask;
    uint32_t now;
} covered;

static size_t slot_of(const covered *c, uint64_t key)
{
    size_t i = (size_t)(key ^ key >> 29) & c->mask;
    while (c->stamp[i] && c->key[i] != key)
        i = (i + 1) & c->mask;
    return i;
}

static int is_covered(const covered *c, uint64_t key)
{
    size_t i = slot_of(c, key);
    return c->stamp[i] == c->now && c->gen[i] == c->name_gen[c->name[i]];
}

static void set_covered(covered *c, uint64_t key, uint16_t name, int yes)
{
    size_t i = slot_of(c, key);
    if (!yes && !c->stamp[i])
        return; /* never covered: nothing to take back, no slot taken */
    c->key[i] = key, c->name[i] = name, c->gen[i] = c->name_gen[name];
    c->stamp[i] = yes ? c->now : 1; /* 1: taken, covered by no stamp (now starts at 2) */
}

static void covered_free(covered *c)
{
    free(c->key), free(c->stamp), free(c->gen), free(c->name), free(c->name_gen);
}

static void drop_seq(rp_trim_plan *plan, size_t nbytes, uint64_t seq)
{
    if (seq != UINT64_MAX && (seq >> 3) < nbytes && !(plan->drop[seq >> 3] >> (seq & 7) & 1)) {
        plan->drop[seq >> 3] |= (uint8_t)(1u << (seq & 7));
        plan->dropped_ends++;
    }
}

/* The makings and deletions of plan->ends whose unbinding no one reads and
 * whose object no record that stays names. Whether one of the deletions
 * left out read state: the walk took that read to keep what it read. */
static int finish_ends(rp_trim_sets *s, rp_trim_plan *plan, size_t nbytes)
{
    int read = 0;
    for (size_t i = 0; i < plan->nends && !s->oom; i++) {
        uint64_t v = 0;
        if (!rp_map_get(&s->del_of, plan->ends[i].deleted, &v) || !v || s->del[v - 1].needed)
            continue;
        int named = 0;
        for (size_t j = s->del[v - 1].head; j && !named; j = s->namer[j - 1].next)
            named = !rp_trim_dropped(plan, s->namer[j - 1].seq);
        if (named)
            continue;
        read |= s->del[v - 1].reads && !rp_trim_dropped(plan, plan->ends[i].deleted);
        drop_seq(plan, nbytes, plan->ends[i].made);
        drop_seq(plan, nbytes, plan->ends[i].deleted);
    }
    return read;
}

/* The calls of the state at the start (rp_trim_calls.c) come last: met
 * first, walking backwards, each noted by its key. The setup's last
 * command of a key (the first met) that goes because it is covered went
 * for the call of that key, which is needed then; one that stays makes
 * the call needless. */
static int state_call_needed(rp_trim_sets *s, rp_trim_plan *plan, const event *e, uint64_t key, rp_map *by_key,
                             rp_map *seen, int covered)
{
    uint64_t v = 0;
    if (e->f->state[0].flags & GT_KEY_NONE)
        return 0;
    if (e->seq >= UINT64_MAX - s->calls) { /* a call: its index in plan->calls from its seq */
        uint64_t at = UINT64_MAX - e->seq - 1;
        return at < plan->calls.n && !rp_map_get(by_key, key, &v) ? rp_map_put(by_key, key, at + 1) : 0;
    }
    if (rp_map_get(seen, key, &v))
        return 0;
    if (covered && rp_map_get(by_key, key, &v) && v)
        plan->calls.v[v - 1].needed = 1;
    return rp_map_put(seen, key, 1);
}

/* The same for each key e sets. A command that sets two (binding
 * GL_FRAMEBUFFER: the draw and read framebuffers), the setup's last of
 * both and covered in both, needs only the call of its first when that
 * call sets both too: the two bindings are the same at the start, and a
 * call of the second alone would write the read binding again.
 * pairs: a first key -> the second key its state call sets. */
static int state_calls_needed(rp_trim_sets *s, rp_trim_plan *plan, const event *e, const covered *c, rp_map *by_key,
                              rp_map *seen, rp_map *pairs)
{
    const uint64_t *ek = keys_at(s, e);
    uint64_t also = e->also ? ek[e->n - 1] : 0, v = 0;
    int one = 0;
    if (e->seq >= UINT64_MAX - s->calls) {
        if (also && !rp_map_get(by_key, ek[0], &v) && rp_map_put(pairs, ek[0], also) != 0)
            return -1;
    } else {
        one = also && is_covered(c, ek[0]) && is_covered(c, also) && rp_map_get(pairs, ek[0], &v) && v == also &&
              !rp_map_get(seen, ek[0], &v) && !rp_map_get(seen, also, &v);
    }
    if (state_call_needed(s, plan, e, ek[0], by_key, seen, is_covered(c, ek[0])) != 0)
        return -1;
    if (!also)
        return 0;
    return one ? rp_map_put(seen, also, 1) : state_call_needed(s, plan, e, also, by_key, seen, is_covered(c, also));
}

/* A state command left out. */
static void drop_set(rp_trim_plan *plan, size_t nbytes, uint64_t seq)
{
    if ((seq >> 3) < nbytes) {
        plan->drop[seq >> 3] |= (uint8_t)(1u << (seq & 7));
        plan->dropped_sets++;
    }
}

/* One walk backwards from the start (see the top). dry: nothing is left
 * out; the calls of the state at the start are marked needed or not. */
static void walk(rp_trim_sets *s, rp_trim_plan *plan, size_t nbytes, int dry)
{
    size_t size = 16;
    while (size < 2 * s->nsets + 16)
        size *= 2; /* a slot is taken by a key some command sets */
    covered c = {calloc(size, sizeof(uint64_t)), calloc(size, sizeof(uint32_t)), calloc(size, sizeof(uint32_t)),
                 calloc(size, sizeof(uint16_t)), calloc(65536, sizeof(uint32_t)), size - 1, 2};
    rp_map by_key = {0}, seen = {0}, pairs = {0}; /* key -> the state call that sets it + 1; the setup's keys met */
    for (size_t i = 0; !dry && i < s->ndel; i++)
        s->del[i].needed = 0; /* found again: a walk after another may find fewer reads */
    for (size_t i = s->n; i-- > 0 && c.key && c.stamp && c.gen && c.name && c.name_gen;) {
        const event *e = &s->ev[i];
        const uint64_t *ek = e->n ? keys_at(s, e) : NULL;
        if ((e->seq < plan->first_kept && rp_trim_dropped(plan, e->seq)) || e->skip)
            continue; /* another step left it out, or a call not written: it reads nothing */
        if (e->refused) {
            if (!dry)
                drop_set(plan, nbytes, e->seq);
            continue;
        }
        if (dry && e->n && e->f && state_calls_needed(s, plan, e, &c, &by_key, &seen, &pairs) != 0)
            break;
        uint64_t also = e->also ? ek[e->n - 1] : 0; /* a second key it sets */
        if (!e->n) {
            c.now++;
            continue;
        }
        if (!e->f) { /* a deletion unbinding: read when its key is not set again before a read */
            if (!is_covered(&c, ek[0])) {
                set_covered(&c, ek[0], e->name, 0);
                s->del[e->del].needed |= !dry;
            }
            continue;
        }
        const gt_api_key *k = e->f->state;
        if (k[0].flags & GT_KEY_NONE) { /* it only reads */
            for (unsigned j = 1; j < e->n; j++) {
                if (!ek[j])
                    continue;
                if (k[j].flags & GT_KEY_ANY)
                    c.name_gen[k[j].name]++;
                else
                    set_covered(&c, ek[j], k[j].name, 0);
            }
            continue;
        }
        if (is_covered(&c, ek[0]) && (!also || is_covered(&c, also)) && !e->keep && (e->seq >> 3) < nbytes) {
            if (!dry)
                drop_set(plan, nbytes, e->seq);
            continue;
        }
        /* A command that changes what is there reads it: it covers nothing. */
        set_covered(&c, ek[0], k[0].name, !(k[0].flags & GT_KEY_CHANGES));
        if (also)
            set_covered(&c, also, k[0].name, !(k[0].flags & GT_KEY_CHANGES));
        for (unsigned j = 1; j < (unsigned)e->n - e->also; j++) {
            if (!ek[j])
                continue;
            if (k[j].flags & GT_KEY_ANY)
                c.name_gen[k[j].name]++;
            else
                set_covered(&c, ek[j], k[j].name, 0);
        }
    }
    covered_free(&c);
    rp_map_free(&by_key);
    rp_map_free(&seen);
    rp_map_free(&pairs);
}

/* A dry walk marks the calls of the state at the start that are needed
 * (and the picks they need); the others are not written and so must
 * cover nothing: the walk that leaves commands out goes without them.
 * Taking calls away takes their reads away only, so what the dry walk
 * found needed stays needed. */
void rp_trim_sets_finish(rp_trim_sets *s, rp_trim_plan *plan, size_t nbytes)
{
    if (s->calls) {
        walk(s, plan, nbytes, 1);
        rp_trim_calls_needed(plan);
        for (size_t i = 0; i < s->n; i++) {
            event *e = &s->ev[i];
            uint64_t at = UINT64_MAX - e->seq - 1;
            if (e->seq >= UINT64_MAX - s->calls && (at >= plan->calls.n || !plan->calls.v[at].needed))
                e->skip = 1;
        }
    }
    walk(s, plan, nbytes, 0);
    /* A deletion left out reads nothing: what only it read goes in
     * another walk, and the objects only that named in another round
     * (chromium probes formats with a framebuffer, attaching a texture it
     * then deletes: the deletion read the framebuffer's binding, which
     * kept the framebuffer's making, binding and deletion). Each walk
     * leaves out more, never less. */
    for (int round = 0; round < 4 && finish_ends(s, plan, nbytes); round++)
        walk(s, plan, nbytes, 0);
}
