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
 *
 * Walked backwards from the start, at the end of the plan: a key set
 * later and not read since is `covered`; a state command of a covered
 * key goes. The state at the start is unchanged by construction (the
 * last command of each key stays); the check of the result compares it. */
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
    const gt_api_fn *f;          /* its state[] says each key's name and flags */
    uint64_t key[SETS_MAX_KEYS]; /* [0] set, the rest read */
    uint8_t n;                   /* 0: reads everything */
} event;

struct rp_trim_sets {
    event *ev;
    size_t n, cap;
    size_t nsets;
};

rp_trim_sets *rp_trim_sets_new(void)
{
    return calloc(1, sizeof(rp_trim_sets));
}

void rp_trim_sets_free(rp_trim_sets *s)
{
    if (s)
        free(s->ev), free(s);
}

/* The value of one part of a key, for the record m; *unknown when it
 * cannot be told (a target api/state.tsv has no binding for). */
static uint64_t part_value(const rp_msg *m, unsigned kind, uint32_t v, int *unknown)
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
    default:
        return v;
    }
}

/* The key k of the record m, on the replay's current context: the same
 * piece of state gives the same number. */
static uint64_t key_of(const rp *r, const rp_msg *m, const gt_api_key *k, int *unknown)
{
    uint64_t h = rp_trim_mix((uint64_t)r->cur_ctx, k->name);
    unsigned n = k->nparts;
    if ((k->flags & GT_KEY_PART_WHEN) && n == 2) {
        uint64_t first = part_value(m, k->part[0].kind, k->part[0].value, unknown);
        h = rp_trim_mix(h, first);
        return first == k->part[2].value ? rp_trim_mix(h, part_value(m, k->part[1].kind, k->part[1].value, unknown)) : h;
    }
    for (unsigned i = 0; i < n && i < 3; i++)
        h = rp_trim_mix(h, part_value(m, k->part[i].kind, k->part[i].value, unknown));
    return h;
}

int rp_trim_sets_note(rp_trim_sets *s, rp *r, const rp_msg *m, uint64_t seq)
{
    if (GT_FN_IS_SYNTHETIC(m->function) || r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX)
        return 0; /* trace records and calls without a context read no GL state */
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f || f->is_egl)
        return 0; /* EGL reads no context's state (a context made current sets its first viewport) */
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        event *e = realloc(s->ev, cap * sizeof *e);
        if (!e)
            return -1;
        s->ev = e, s->cap = cap;
    }
    event *e = &s->ev[s->n++];
    e->seq = seq, e->n = 0;
    /* A command the driver refused set nothing: it stays, reading everything. */
    if (!f->nstate || f->nstate > SETS_MAX_KEYS || glGetError() != GL_NO_ERROR)
        return 0;
    int unknown = 0;
    for (unsigned i = 0; i < f->nstate; i++) {
        const gt_api_key *k = &f->state[i];
        int when = !(k->flags & GT_KEY_WHEN) ||
                   (k->part[0].value < m->n_args && rp_arg_u(m, k->part[0].value) == k->part[1].value);
        e->key[i] = when ? key_of(r, m, k, &unknown) : 0; /* 0: a read that does not count here */
    }
    if (glGetError() != GL_NO_ERROR || unknown)
        return 0; /* a part the driver could not say: the command stays, reading everything */
    e->n = f->nstate, e->f = f;
    s->nsets++;
    return 0;
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

void rp_trim_sets_finish(rp_trim_sets *s, rp_trim_plan *plan, size_t nbytes)
{
    size_t size = 16;
    while (size < 2 * s->nsets + 16)
        size *= 2; /* a slot is taken by a key some command sets */
    covered c = {calloc(size, sizeof(uint64_t)), calloc(size, sizeof(uint32_t)), calloc(size, sizeof(uint32_t)),
                 calloc(size, sizeof(uint16_t)), calloc(65536, sizeof(uint32_t)), size - 1, 2};
    if (!c.key || !c.stamp || !c.gen || !c.name || !c.name_gen) {
        covered_free(&c);
        return; /* out of memory: nothing is left out */
    }
    for (size_t i = s->n; i-- > 0;) {
        const event *e = &s->ev[i];
        if (e->seq < plan->first_kept && rp_trim_dropped(plan, e->seq))
            continue; /* another step left it out: it reads nothing */
        if (!e->n) {
            c.now++;
            continue;
        }
        const gt_api_key *k = e->f->state;
        if (k[0].flags & GT_KEY_NONE) { /* it only reads */
            for (unsigned j = 1; j < e->n; j++) {
                if (!e->key[j])
                    continue;
                if (k[j].flags & GT_KEY_ANY)
                    c.name_gen[k[j].name]++;
                else
                    set_covered(&c, e->key[j], k[j].name, 0);
            }
            continue;
        }
        if (is_covered(&c, e->key[0]) && (e->seq >> 3) < nbytes) {
            plan->drop[e->seq >> 3] |= (uint8_t)(1u << (e->seq & 7));
            plan->dropped_sets++;
            continue;
        }
        /* A command that changes what is there reads it: it covers nothing. */
        set_covered(&c, e->key[0], k[0].name, !(k[0].flags & GT_KEY_CHANGES));
        for (unsigned j = 1; j < e->n; j++) {
            if (!e->key[j])
                continue;
            if (k[j].flags & GT_KEY_ANY)
                c.name_gen[k[j].name]++;
            else
                set_covered(&c, e->key[j], k[j].name, 0);
        }
    }
    covered_free(&c);
}
