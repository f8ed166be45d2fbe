/* rp_trim_holders.c: framebuffer objects and vertex arrays made and
 * deleted before the start of a trim that nothing kept drew into, drew
 * with or read through: their making, their state and their deletion go
 * (TRIM.md step 10).
 *
 * They hold other objects (attachments; arrays' buffers) and state of
 * their own, set by state commands keyed by the holder (an attachment
 * `attach[@bound:target,...]`, an array `attrib[@GL_VERTEX_ARRAY_BINDING,
 * index]`), which no later command replaces once the holder is gone, so
 * step 8 keeps them. A program that makes one for a read and deletes it
 * after (GStreamer's gldownload: a framebuffer per frame), or one per
 * frame for its vertices (GTK 4: a vertex array and a buffer per frame),
 * would keep one a frame.
 *
 * Its making and deletion are step 8's to leave out (rp_trim_plan_end):
 * a deletion unbinds what it deletes.
 *
 * A holder's life runs from the `glGen*` that made its name (an output
 * parameter of registry class framebuffer or vertex array) or its first
 * use to its deletion (`object glDelete* deletes`), per context: GLES
 * shares neither. Bound (api/state.tsv's bindings of those classes:
 * draw and read framebuffer, vertex array), it is read through, if that
 * record stays, by a record of its context that (a framebuffer) has
 * anything to do with its pixels (api/annotations.txt `pixels`: a draw,
 * clear, blit, read, copy or invalidation), or (a vertex array) is a
 * draw, a command that reads everything or one on the element array
 * buffer. Any other record read through a framebuffer before: a buffer
 * upload that steps 5 to 7 left out later (chromium's canvas makes a
 * framebuffer for each pass, draws and deletes it) kept its state. One nothing read through
 * loses its keyed state commands. The holders' binding
 * commands are step 8's, which leaves them out once nothing reads them.
 *
 * This runs after step 9 (the draws it leaves out read nothing) and before
 * steps 5 to 7: an array setter left out no longer pins its buffer, so a
 * buffer deleted with its vertex array loses its contents too. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_trace.h"

#define NONE UINT64_MAX
#define READS (1ull << 63) /* in holder.seq: a record that read through it (else one of its state commands) */

typedef struct holder {
    int ctx;
    uint8_t cls;        /* GT_STATE_FRAMEBUFFER_NAME or GT_STATE_VERTEX_ARRAY_NAME */
    uint32_t name;      /* replayed */
    uint64_t made, deleted; /* the records, or NONE (several names, or not seen) */
    uint64_t *seq;      /* its state commands, and (| READS) the records that read through it */
    size_t n, cap;
    int dead;
} holder;

struct rp_trim_holders {
    holder *v;
    size_t n, cap;
    rp_map open; /* (context, class, replayed name) -> index + 1 while alive */
    int oom;
};

static int holds(int cls)
{
    return cls == GT_STATE_FRAMEBUFFER_NAME || cls == GT_STATE_VERTEX_ARRAY_NAME;
}

rp_trim_holders *rp_trim_holders_new(void)
{
    return calloc(1, sizeof(rp_trim_holders));
}

void rp_trim_holders_free(rp_trim_holders *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->v[i].seq);
    free(b->v);
    rp_map_free(&b->open);
    free(b);
}

static uint64_t key(int ctx, int cls, uint32_t name)
{
    return 1ull << 63 | (uint64_t)(uint32_t)ctx << 40 | (uint64_t)(cls & 0xff) << 32 | name;
}

static holder *find(rp_trim_holders *b, int ctx, int cls, uint32_t name)
{
    uint64_t v;
    return name && rp_map_get(&b->open, key(ctx, cls, name), &v) && v ? &b->v[v - 1] : NULL;
}

/* The life of holder `name` of class cls on context ctx, opened when not
 * alive (made by `made`, or NONE). NULL: out of memory, or name 0. */
static holder *open_life(rp_trim_holders *b, int ctx, int cls, uint32_t name, uint64_t made)
{
    holder *l = made == NONE ? find(b, ctx, cls, name) : NULL;
    if (l || !name)
        return l;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        holder *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return NULL;
        b->v = v, b->cap = cap;
    }
    b->v[b->n] = (holder){.ctx = ctx, .cls = (uint8_t)cls, .name = name, .made = made, .deleted = NONE};
    if (rp_map_put(&b->open, key(ctx, cls, name), b->n + 1) != 0)
        return NULL;
    return &b->v[b->n++];
}

static int add(rp_trim_holders *b, holder *l, uint64_t seq)
{
    if (!l)
        return b->oom = 1, -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        uint64_t *s = realloc(l->seq, cap * sizeof *s);
        if (!s)
            return b->oom = 1, -1;
        l->seq = s, l->cap = cap;
    }
    l->seq[l->n++] = seq;
    return 0;
}

/* The names of holders a record's parameter of a holder class holds (a
 * pointer to names, or one name; out: the names it made), through fn. */
static int each_name(rp_trim_holders *b, rp *r, const gt_api_fn *f, const rp_msg *m, int out, uint64_t seq,
                     int (*fn)(rp_trim_holders *, int, int, uint32_t, uint64_t))
{
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        const gt_api_param *pa = &f->params[i];
        if (!holds(pa->obj_class) || out != (pa->dir == GT_DIR_OUT))
            continue;
        size_t len = 0;
        const uint8_t *bytes = pa->kind == GT_K_POINTER ? rp_arg_bytes(m, i, &len) : NULL;
        size_t count = bytes ? len / 4 : 1;
        for (size_t k = 0; k < count; k++) {
            uint32_t rec = 0;
            if (bytes)
                memcpy(&rec, bytes + 4 * k, 4);
            else
                rec = (uint32_t)rp_arg_i(m, i);
            if (rec && fn(b, r->cur_ctx, pa->obj_class, rp_name(r, rp_class_of_state(pa->obj_class), rec),
                          count == 1 ? seq : NONE) != 0)
                return -1;
        }
    }
    return 0;
}

static int made(rp_trim_holders *b, int ctx, int cls, uint32_t name, uint64_t seq)
{
    return open_life(b, ctx, cls, name, seq) || !name ? 0 : (b->oom = 1, -1);
}

static int deleted(rp_trim_holders *b, int ctx, int cls, uint32_t name, uint64_t seq)
{
    holder *l = find(b, ctx, cls, name);
    if (l) {
        l->dead = 1, l->deleted = seq;
        rp_map_put(&b->open, key(ctx, cls, name), 0);
    }
    return 0;
}

/* The binding row of api/state.tsv that pname is, if it names a holder
 * (a vertex array's binding a key part asks), or NULL. */
static const gt_api_state *holder_binding(uint32_t pname)
{
    for (size_t i = 0; i < gt_api_nstates; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if (s->query == GT_STATE_GET && s->type == GT_STATE_NAME && s->pname == pname && holds(s->cls))
            return s;
    }
    return NULL;
}

/* The holder the key a state command sets names through its first part
 * (`@bound:target` or `@bound:GL_TARGET` of a framebuffer, `@GL_PNAME`
 * of a vertex array's binding); 0 when none. */
static uint32_t keyed_holder(rp *r, const gt_api_fn *f, const rp_msg *m, int *cls)
{
    const gt_api_key *k = &f->state[0];
    *cls = 0;
    if (!k->nparts)
        return 0;
    uint32_t name = 0;
    if (k->part[0].kind == GT_PART_BOUND && k->part[0].value < m->n_args) {
        name = rp_trim_bound((uint32_t)rp_arg_i(m, k->part[0].value), cls);
    } else if (k->part[0].kind == GT_PART_BOUND_TO) {
        name = rp_trim_bound(k->part[0].value, cls);
    } else if (k->part[0].kind == GT_PART_GET) {
        const gt_api_state *s = holder_binding(k->part[0].value);
        GLint v = 0;
        if (s)
            glGetIntegerv(s->pname, &v), *cls = s->cls;
        name = (uint32_t)v;
    }
    rp_hold_errors(r);
    return holds(*cls) ? name : 0;
}

/* Whether a record that is no state command reads the vertex array
 * bound: a draw, a command no `state` or `reads` line describes (it reads
 * everything), or one on the element array buffer, which is the vertex
 * array's binding (as glBindBuffer's key in api/annotations.txt says). An
 * upload into another buffer target does not. */
static int reads_vertex_array(const gt_api_fn *f, const rp_msg *m)
{
    if (f->cls == GT_CLASS_DRAW || !f->nstate)
        return 1;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++)
        if (!strcmp(f->params[i].name, "target") && rp_arg_i(m, i) == GL_ELEMENT_ARRAY_BUFFER)
            return 1;
    return 0;
}

/* Every holder bound on the current context is read through by the
 * record: a framebuffer when `pixels`, a vertex array when `draw`
 * (reads_vertex_array). */
static int read_through(rp_trim_holders *b, rp *r, int draw, int pixels, uint64_t seq)
{
    int rc = 0;
    for (size_t i = 0; i < gt_api_nstates; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if (s->query != GT_STATE_GET || s->type != GT_STATE_NAME || s->scope != GT_STATE_CONTEXT || !holds(s->cls) ||
            (s->cls == GT_STATE_VERTEX_ARRAY_NAME && !draw) || (s->cls == GT_STATE_FRAMEBUFFER_NAME && !pixels))
            continue;
        GLint v = 0;
        glGetIntegerv(s->pname, &v);
        holder *l = v ? find(b, r->cur_ctx, s->cls, (uint32_t)v) : NULL;
        if (l && !(l->n && l->seq[l->n - 1] == (seq | READS))) /* the draw and read framebuffer may be one */
            rc |= add(b, l, seq | READS);
    }
    rp_hold_errors(r); /* a binding this context does not have */
    return rc;
}

int rp_trim_holders_note(rp_trim_holders *b, rp *r, const rp_msg *m, const rp_entry *e, uint64_t seq)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX || r->cur_ctx != r->bound_ctx || b->oom ||
        GT_FN_IS_SYNTHETIC(m->function))
        return 0;
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f || f->is_egl)
        return 0;
    if (f->obj_role == GT_OBJ_DELETES && holds(f->obj_class))
        return each_name(b, r, f, m, 0, seq, deleted);
    for (unsigned i = 0; i < f->nparams; i++)
        if (holds(f->params[i].obj_class) && f->params[i].dir == GT_DIR_OUT)
            return each_name(b, r, f, m, 1, seq, made);
    if (f->nstate && !(f->state[0].flags & GT_KEY_NONE)) {
        int cls = 0;
        uint32_t name = keyed_holder(r, f, m, &cls);
        return name ? add(b, open_life(b, r->cur_ctx, cls, name, NONE), seq) : 0;
    }
    int pixels = !e || e->pixels != RP_PIXELS_NONE || f->cls == GT_CLASS_DRAW;
    return read_through(b, r, reads_vertex_array(f, m), pixels, seq);
}

static void drop(rp_trim_plan *plan, size_t nbytes, uint64_t s, uint64_t *n)
{
    if (s != NONE && (s >> 3) < nbytes && !(plan->drop[s >> 3] >> (s & 7) & 1)) {
        plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
        ++*n;
    }
}

void rp_trim_holders_finish(rp_trim_holders *b, rp_trim_plan *plan, size_t nbytes)
{
    if (b->oom)
        return; /* a record was not noted: what read through which holder is not known */
    for (size_t i = 0; i < b->n; i++) {
        const holder *l = &b->v[i];
        int read = !l->dead;
        for (size_t k = 0; k < l->n && !read; k++)
            read = (l->seq[k] & READS) && !rp_trim_dropped(plan, l->seq[k] & ~READS);
        if (read)
            continue;
        uint64_t n = 0;
        for (size_t k = 0; k < l->n; k++)
            drop(plan, nbytes, l->seq[k], &n);
        rp_trim_plan_end(plan, l->made, l->deleted); /* out of memory: they stay */
        if (n && l->cls == GT_STATE_FRAMEBUFFER_NAME)
            plan->dead_framebuffers++;
        else if (n)
            plan->dead_vertex_arrays++;
        plan->dropped_holder_calls += n;
    }
}
