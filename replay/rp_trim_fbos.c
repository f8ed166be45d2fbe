/* rp_trim_fbos.c: framebuffer objects made and deleted before the start of
 * a trim, that nothing kept drew into or read through: their making,
 * attachments and deletion go (TRIM.md step 10).
 *
 * A program that reads a texture back through a framebuffer it makes for
 * that read and deletes after it (GStreamer's gldownload, every frame)
 * leaves one such framebuffer per frame. Its bindings are state commands
 * step 8 leaves out once nothing between reads them; its attachments are
 * state commands too, but keyed by the framebuffer, which no later one
 * replaces: they would stay, and with them its making and deletion.
 *
 * A framebuffer's life runs from the record that made its name (a
 * `glGen*` whose output parameter's registry class is framebuffer) or its
 * first use to its deletion (object role deletes, class framebuffer).
 * Framebuffer objects are not shared between contexts: a life is of one
 * context. While it is bound (draw or read), any record that is not a
 * state command counts as reading through it (a draw, a clear, a read, an
 * upload: more than needed, never less), if that record stays. What
 * attaches to it is a state command whose key names the framebuffer bound
 * to its target (a `@bound:` part of class framebuffer). A making or a
 * deletion that names several framebuffers stays. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_trace.h"

#define NONE UINT64_MAX
#define READS (1ull << 63) /* in fb_life.seq: a record that read through it (else an attachment) */

typedef struct fb_life {
    int ctx;
    uint32_t name;      /* replayed */
    uint64_t made, deleted; /* the records, or NONE (several names, or not seen) */
    uint64_t *seq;      /* attachments to it, and (| READS) the records that read through it */
    size_t n, cap;
    int dead;
} fb_life;

struct rp_trim_fbos {
    fb_life *v;
    size_t n, cap;
    rp_map open; /* (context, replayed name) -> index + 1 while alive */
    int oom;
};

rp_trim_fbos *rp_trim_fbos_new(void)
{
    return calloc(1, sizeof(rp_trim_fbos));
}

void rp_trim_fbos_free(rp_trim_fbos *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->v[i].seq);
    free(b->v);
    rp_map_free(&b->open);
    free(b);
}

static uint64_t key(int ctx, uint32_t name)
{
    return 1ull << 63 | (uint64_t)(uint32_t)ctx << 32 | name;
}

static fb_life *find(rp_trim_fbos *b, int ctx, uint32_t name)
{
    uint64_t v;
    return name && rp_map_get(&b->open, key(ctx, name), &v) && v ? &b->v[v - 1] : NULL;
}

/* The life of the framebuffer `name` of context ctx, opened when not
 * alive (made by `made`, or NONE). */
static fb_life *open_life(rp_trim_fbos *b, int ctx, uint32_t name, uint64_t made)
{
    fb_life *l = made == NONE ? find(b, ctx, name) : NULL;
    if (l || !name)
        return l;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        fb_life *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return NULL;
        b->v = v, b->cap = cap;
    }
    b->v[b->n] = (fb_life){.ctx = ctx, .name = name, .made = made, .deleted = NONE};
    if (rp_map_put(&b->open, key(ctx, name), b->n + 1) != 0)
        return NULL;
    return &b->v[b->n++];
}

static int add(rp_trim_fbos *b, fb_life *l, uint64_t seq)
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

/* The framebuffer names a record's parameter of class framebuffer holds
 * (a pointer to names, or one name): each through fn. */
static int each_name(rp_trim_fbos *b, rp *r, const gt_api_fn *f, const rp_msg *m, int out, uint64_t seq,
                     int (*fn)(rp_trim_fbos *, int, uint32_t, uint64_t))
{
    int cls = rp_class_of_state(GT_STATE_FRAMEBUFFER_NAME);
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        const gt_api_param *pa = &f->params[i];
        if (pa->obj_class != GT_STATE_FRAMEBUFFER_NAME || out != (pa->dir == GT_DIR_OUT))
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
            if (rec && fn(b, r->cur_ctx, rp_name(r, cls, rec), count == 1 ? seq : NONE) != 0)
                return -1;
        }
    }
    return 0;
}

static int made(rp_trim_fbos *b, int ctx, uint32_t name, uint64_t seq)
{
    return open_life(b, ctx, name, seq) || !name ? 0 : (b->oom = 1, -1);
}

static int deleted(rp_trim_fbos *b, int ctx, uint32_t name, uint64_t seq)
{
    fb_life *l = find(b, ctx, name);
    if (l) {
        l->dead = 1, l->deleted = seq;
        rp_map_put(&b->open, key(ctx, name), 0);
    }
    return 0;
}

/* The framebuffer a state command's key names through a `@bound:` part
 * (an attachment's), or 0. */
static uint32_t keyed_framebuffer(const gt_api_fn *f, const rp_msg *m)
{
    const gt_api_key *k = &f->state[0];
    if (!k->nparts || k->part[0].kind != GT_PART_BOUND || k->part[0].value >= m->n_args)
        return 0;
    int cls = 0;
    uint32_t name = rp_trim_bound((uint32_t)rp_arg_i(m, k->part[0].value), &cls);
    return cls == GT_STATE_FRAMEBUFFER_NAME ? name : 0;
}

int rp_trim_fbos_note(rp_trim_fbos *b, rp *r, const rp_msg *m, uint64_t seq)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX || r->cur_ctx != r->bound_ctx || b->oom ||
        GT_FN_IS_SYNTHETIC(m->function))
        return 0;
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f || f->is_egl)
        return 0;
    if (f->obj_role == GT_OBJ_DELETES && f->obj_class == GT_STATE_FRAMEBUFFER_NAME)
        return each_name(b, r, f, m, 0, seq, deleted);
    for (unsigned i = 0; i < f->nparams; i++)
        if (f->params[i].obj_class == GT_STATE_FRAMEBUFFER_NAME && f->params[i].dir == GT_DIR_OUT)
            return each_name(b, r, f, m, 1, seq, made);
    int state = f->nstate && !(f->state[0].flags & GT_KEY_NONE);
    if (state) {
        uint32_t fb = keyed_framebuffer(f, m);
        rp_hold_errors(r);
        return fb ? add(b, open_life(b, r->cur_ctx, fb, NONE), seq) : 0;
    }
    GLint draw = 0, read = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &draw);
    if (r->ctx[r->cur_ctx].version >= 3)
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    rp_hold_errors(r);
    int rc = 0;
    if (draw)
        rc |= add(b, open_life(b, r->cur_ctx, (uint32_t)draw, NONE), seq | READS);
    if (read && read != draw)
        rc |= add(b, open_life(b, r->cur_ctx, (uint32_t)read, NONE), seq | READS);
    return rc;
}

static void drop(rp_trim_plan *plan, size_t nbytes, uint64_t s, uint64_t *n)
{
    if (s != NONE && (s >> 3) < nbytes && !(plan->drop[s >> 3] >> (s & 7) & 1)) {
        plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
        ++*n;
    }
}

void rp_trim_fbos_finish(rp_trim_fbos *b, rp_trim_plan *plan, size_t nbytes)
{
    if (b->oom)
        return; /* a record was not noted: what read through which framebuffer is not known */
    for (size_t i = 0; i < b->n; i++) {
        const fb_life *l = &b->v[i];
        int read = !l->dead;
        for (size_t k = 0; k < l->n && !read; k++)
            read = (l->seq[k] & READS) && !rp_trim_dropped(plan, l->seq[k] & ~READS);
        if (read)
            continue;
        uint64_t n = 0;
        drop(plan, nbytes, l->made, &n);
        drop(plan, nbytes, l->deleted, &n);
        for (size_t k = 0; k < l->n; k++)
            drop(plan, nbytes, l->seq[k], &n);
        plan->dead_framebuffers += n != 0;
        plan->dropped_framebuffer_calls += n;
    }
}
