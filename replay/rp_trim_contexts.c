/* rp_trim_contexts.c: the share groups gone before the start of a trim.
 *
 * An app that makes a context per scene (glmark2) leaves behind, in the
 * setup, every earlier scene's objects and their uploads, though their
 * contexts are destroyed. A share group all of whose contexts were
 * destroyed before the start is nothing the kept frames can reach: every
 * record of it is left out (its GL calls, by their context id; the EGL
 * calls naming one of its contexts; its gltraceContext records). A group
 * that is the source of an EGL image stays: the image outlives it. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "gt_trace.h"

static int32_t id_of_handle(const rp_trim_ctxs *c, uint64_t handle)
{
    for (int i = c->nhandles - 1; i >= 0; i--)
        if (c->handle[i] == handle)
            return c->handle_id[i];
    return -1;
}

static int add_run(rp_trim_ctxs *c, uint64_t seq, int32_t id)
{
    if (id < 0 || id >= RP_MAX_CTX)
        return 0;
    if (c->nruns && c->runs[c->nruns - 1].id == id && c->runs[c->nruns - 1].last + 1 == seq) {
        c->runs[c->nruns - 1].last = seq;
        return 0;
    }
    if (c->nruns == c->capruns) {
        size_t cap = c->capruns ? c->capruns * 2 : 256;
        void *v = realloc(c->runs, cap * sizeof *c->runs);
        if (!v)
            return -1;
        c->runs = v, c->capruns = cap;
    }
    c->runs[c->nruns].first = c->runs[c->nruns].last = seq;
    c->runs[c->nruns].id = id;
    c->nruns++;
    return 0;
}

/* The first EGLContext parameter of an EGL command (not eglCreateContext's
 * share_context, which is no owner: the context made is). */
static int ctx_param(const gt_api_fn *f)
{
    for (unsigned i = 0; f->cls != GT_CLASS_CONTEXT && i < f->nparams; i++)
        if (!strcmp(f->params[i].ctype, "EGLContext"))
            return (int)i;
    return -1;
}

int rp_trim_ctx_note(rp_trim_ctxs *c, const rp *r, const rp_msg *m, uint64_t seq)
{
    int32_t id = m->context_id;
    if (m->function == GT_FN_CONTEXT) {
        id = (int32_t)rp_arg_i(m, 2);
        if (c->nhandles < RP_MAX_CTX * 2 && id >= 0 && id < RP_MAX_CTX) {
            c->handle[c->nhandles] = rp_arg_u(m, 1);
            c->handle_id[c->nhandles++] = id;
            c->group[id] = r->ctx[id].group;
            c->made[id] = 1;
        }
        if (c->create_seq_valid && add_run(c, c->create_seq, id) != 0)
            return -1;
        c->create_seq_valid = 0;
    } else if (m->function == GT_FN_CURRENT) {
        id = id_of_handle(c, rp_arg_u(m, 3));
    } else if (m->function == GT_FN_SURFACE) {
        id = -1;
    } else if (!GT_FN_IS_SYNTHETIC(m->function)) {
        const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
        if (f && f->is_egl) {
            int p = ctx_param(f);
            id = p >= 0 ? id_of_handle(c, rp_arg_u(m, (unsigned)p)) : -1;
            if (f->cls == GT_CLASS_CONTEXT) {
                c->create_seq = seq;
                c->create_seq_valid = 1;
            } else if (id >= 0 && f->cls == GT_CLASS_TEARDOWN) {
                c->destroyed[id] = 1;
            } else if (id >= 0 && f->ret_ctype && strstr(f->ret_ctype, "EGLImage")) {
                c->pinned[id] = 1;
            }
        }
    }
    return add_run(c, seq, id);
}

void rp_trim_ctx_finish(rp_trim_ctxs *c, rp_trim_plan *plan, size_t nbytes)
{
    uint8_t dead[RP_MAX_CTX];
    for (int g = 0; g < RP_MAX_CTX; g++)
        dead[g] = 1;
    for (int id = 0; id < RP_MAX_CTX; id++)
        if (c->made[id] && (!c->destroyed[id] || c->pinned[id]))
            dead[c->group[id]] = 0;
    for (size_t i = 0; i < c->nruns; i++) {
        int32_t id = c->runs[i].id;
        if (!c->made[id] || !dead[c->group[id]])
            continue;
        for (uint64_t s = c->runs[i].first; s <= c->runs[i].last && (s >> 3) < nbytes; s++)
            if (!(plan->drop[s >> 3] >> (s & 7) & 1)) {
                plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
                plan->dropped_gone++;
            }
    }
    for (int id = 0; id < RP_MAX_CTX; id++)
        if (c->made[id] && dead[c->group[id]])
            plan->gone_contexts++;
    free(c->runs);
    c->runs = NULL;
}
