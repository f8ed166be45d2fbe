/* rp_names.c: recorded values replay cannot reuse as they are: object names
 * (per share group, or per context for container objects), GLsync and EGL
 * handles, uniform locations; and the decoding of pointer arguments into
 * scratch memory that lives for one call. */
#include "rp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLES3/gl31.h>

#include "gt_api.h"
#include "gt_api_state.h"

/* ---------------------------------------------------------------- hash map */

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static int grow(rp_map *h)
{
    size_t cap = h->cap ? h->cap * 2 : 1024;
    uint64_t *k = calloc(cap, sizeof *k), *v = calloc(cap, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < h->cap; i++) {
        if (!h->keys[i])
            continue;
        size_t j = mix(h->keys[i]) & (cap - 1);
        while (k[j])
            j = (j + 1) & (cap - 1);
        k[j] = h->keys[i];
        v[j] = h->vals[i];
    }
    free(h->keys);
    free(h->vals);
    h->keys = k, h->vals = v, h->cap = cap;
    return 0;
}

/* Keys are never 0: callers set a high bit. */
int rp_map_put(rp_map *h, uint64_t key, uint64_t val)
{
    if ((h->n + 1) * 2 > h->cap && grow(h) != 0)
        return -1;
    size_t j = mix(key) & (h->cap - 1);
    while (h->keys[j] && h->keys[j] != key)
        j = (j + 1) & (h->cap - 1);
    if (!h->keys[j])
        h->n++;
    h->puts++;
    h->keys[j] = key;
    h->vals[j] = val;
    return 0;
}

/* Inlined (also at -O2) where replay looks up per call: names, locations. */
static inline __attribute__((always_inline)) int map_get(const rp_map *h, uint64_t key, uint64_t *val)
{
    if (!h->cap)
        return 0;
    size_t j = mix(key) & (h->cap - 1);
    while (h->keys[j]) {
        if (h->keys[j] == key) {
            *val = h->vals[j];
            return 1;
        }
        j = (j + 1) & (h->cap - 1);
    }
    return 0;
}

int rp_map_get(const rp_map *h, uint64_t key, uint64_t *val)
{
    return map_get(h, key, val);
}

void rp_map_free(rp_map *h)
{
    free(h->keys);
    free(h->vals);
    memset(h, 0, sizeof *h);
}

/* ---------------------------------------------------------------- names */

/* Textures, buffers, programs, renderbuffers, samplers, syncs and queries
 * are shared by a share group; framebuffers, vertex arrays, transform
 * feedbacks and program pipelines belong to one context. */
static uint64_t name_key(rp *r, int cls, uint32_t name)
{
    int32_t c = r->cur_ctx >= 0 && r->cur_ctx < RP_MAX_CTX ? r->cur_ctx : 0;
    int container = cls == RP_FRAMEBUFFER || cls == RP_VERTEX_ARRAY || cls == RP_XFB || cls == RP_PIPELINE;
    uint64_t owner = container ? (uint64_t)c + RP_MAX_CTX : (uint64_t)r->ctx[c].group;
    return 1ull << 63 | owner << 40 | (uint64_t)cls << 32 | name;
}

uint32_t rp_name(rp *r, int cls, uint32_t recorded)
{
    uint64_t v;
    if (recorded && map_get(&r->names, name_key(r, cls, recorded), &v))
        return (uint32_t)v;
    return recorded; /* 0, or a name the app used without generating it */
}

void rp_name_set(rp *r, int cls, uint32_t recorded, uint32_t replayed)
{
    if (recorded)
        rp_map_put(&r->names, name_key(r, cls, recorded), replayed);
    if (recorded && replayed && r->made_since)
        rp_map_put(r->made_since, name_key(r, cls, replayed), 1);
}

uint32_t rp_obj_param_name(const struct gt_api_fn *f, const rp_msg *m, size_t k, size_t *n)
{
    size_t len = 0;
    *n = 0;
    if (f->obj_param >= f->nparams || f->obj_param >= m->n_args)
        return 0;
    if (f->params[f->obj_param].kind != GT_K_POINTER) {
        *n = 1;
        return k == 0 ? (uint32_t)rp_arg_i(m, f->obj_param) : 0;
    }
    const uint8_t *bytes = rp_arg_bytes(m, f->obj_param, &len);
    uint32_t rec = 0;
    *n = bytes ? len / 4 : 0;
    if (k < *n)
        memcpy(&rec, bytes + 4 * k, 4);
    return rec;
}

int rp_name_made_since(rp *r, int cls, uint64_t name)
{
    uint64_t v;
    uint64_t key = cls < 0 ? (name | 1ull << 62) : name_key(r, cls, (uint32_t)name);
    return name && r->made_since && rp_map_get(r->made_since, key, &v);
}

int rp_class_of_state(int state_cls)
{
    static const int of[] = {
        [GT_STATE_TEXTURE_NAME] = RP_TEXTURE, [GT_STATE_BUFFER_NAME] = RP_BUFFER,
        [GT_STATE_FRAMEBUFFER_NAME] = RP_FRAMEBUFFER, [GT_STATE_RENDERBUFFER_NAME] = RP_RENDERBUFFER,
        [GT_STATE_PROGRAM_NAME] = RP_PROGRAM, [GT_STATE_VERTEX_ARRAY_NAME] = RP_VERTEX_ARRAY,
        [GT_STATE_SAMPLER_NAME] = RP_SAMPLER, [GT_STATE_XFB_NAME] = RP_XFB, [GT_STATE_PIPELINE_NAME] = RP_PIPELINE,
        [GT_STATE_QUERY_NAME] = RP_QUERY,
    };
    return state_cls > 0 && state_cls <= GT_STATE_QUERY_NAME ? of[state_cls] : -1;
}

/* The inverse of the map above, for a reader of the replay's state (the
 * names it finds are the driver's): built on demand, keyed as names are
 * but by the replayed name. */
void rp_names_reverse(const rp *r, rp_map *rev)
{
    for (size_t i = 0; i < r->names.cap; i++)
        if (r->names.keys[i])
            rp_map_put(rev, (r->names.keys[i] & ~0xffffffffull) | (uint32_t)r->names.vals[i],
                       r->names.keys[i] & 0xffffffffu);
}

int rp_name_recorded_of(rp *r, const rp_map *rev, int cls, uint32_t replayed, uint32_t *recorded)
{
    uint64_t v;
    if (!rp_map_get(rev, name_key(r, cls, replayed), &v))
        return -1;
    *recorded = (uint32_t)v;
    return 0;
}

uint32_t rp_name_recorded(rp *r, const rp_map *rev, int cls, uint32_t replayed)
{
    uint64_t v;
    if (replayed && rp_map_get(rev, name_key(r, cls, replayed), &v))
        return (uint32_t)v;
    return replayed; /* a name the app used without generating it: the same on both sides */
}

const uint32_t *rp_names_in(rp *r, int cls, const rp_msg *m, unsigned i)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d || !d->n_rawbytes)
        return NULL;
    size_t n = d->rawbytes[0].len / 4;
    uint32_t *out = rp_scratch(r, n * 4 + 4);
    memcpy(out, d->rawbytes[0].data, n * 4);
    for (size_t k = 0; k < n; k++)
        out[k] = rp_name(r, cls, out[k]);
    return out;
}

void rp_names_out(rp *r, int cls, const rp_msg *m, unsigned i, const uint32_t *replayed)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d || !d->n_rawbytes || !replayed)
        return;
    size_t n = d->rawbytes[0].len / 4;
    for (size_t k = 0; k < n; k++) {
        uint32_t rec;
        memcpy(&rec, d->rawbytes[0].data + 4 * k, 4);
        rp_name_set(r, cls, rec, replayed[k]);
    }
}

uint64_t rp_handle(rp *r, uint64_t recorded)
{
    uint64_t v;
    if (!recorded || rp_map_get(&r->handles, recorded | 1ull << 63, &v))
        return recorded ? v : 0;
    /* A sync or image replay never made (or already destroyed): the app's
     * address means nothing here, and a driver handed a dangling pointer
     * may crash; with none it reports an error. */
    rp_warn_once(r, r->cur ? r->cur->function : -1, "record %llu: a GLsync or EGL handle the trace never created "
                 "(or destroyed): passed as none (said once per function)", (unsigned long long)r->seq);
    return 0;
}

void rp_handle_set(rp *r, uint64_t recorded, uint64_t replayed)
{
    if (recorded)
        rp_map_put(&r->handles, recorded | 1ull << 63, replayed);
    if (recorded && r->made_since)
        rp_map_put(r->made_since, recorded | 1ull << 62, 1);
}

/* ---------------------------------------------------------------- locations */

static uint64_t loc_key(rp *r, uint32_t program, int64_t loc)
{
    int32_t c = r->cur_ctx >= 0 && r->cur_ctx < RP_MAX_CTX ? r->cur_ctx : 0;
    return 1ull << 63 | (uint64_t)r->ctx[c].group << 52 | (uint64_t)program << 20 | ((uint64_t)loc & 0xFFFFF);
}

static int64_t map_location(rp *r, uint32_t program, int64_t loc)
{
    uint64_t v;
    if (loc < 0 || !map_get(&r->locations, loc_key(r, program, loc), &v))
        return loc; /* -1, or a location the app did not ask for: the same driver gives the same */
    return (int64_t)(int32_t)v;
}

int64_t rp_map_uniform(rp *r, const rp_msg *m, int64_t loc)
{
    (void)m;
    int32_t c = r->cur_ctx >= 0 && r->cur_ctx < RP_MAX_CTX ? r->cur_ctx : 0;
    return map_location(r, r->ctx[c].program, loc);
}

int64_t rp_map_program_uniform(rp *r, const rp_msg *m, int64_t loc)
{
    return map_location(r, (uint32_t)rp_arg_i(m, 0), loc);
}

/* glGetUniformLocation(program, name): the recorded location is the app's
 * key for the one the replay driver gave. */
void rp_hook_uniform_location(rp *r, const rp_msg *m, uint64_t ret)
{
    int64_t rec = (int64_t)(int32_t)rp_ret_u(m);
    if (rec >= 0)
        rp_map_put(&r->locations, loc_key(r, (uint32_t)rp_arg_i(m, 0), rec), (uint64_t)(int64_t)(int32_t)ret);
}

/* ---------------------------------------------------------------- attributes
 *
 * A vertex attribute command names no program: the index it gets is the
 * one the app learnt from some program's glGetAttribLocation. Replay maps
 * it through the answers of the program in use, or, when that program's
 * answers do not name the index (the app sets its arrays up before
 * glUseProgram, as many do), through those of the last program the app
 * asked in this context. An index no answer names (a location the app
 * bound itself, or one it never asked for) is passed as recorded: the same
 * driver gives the same. */

static uint64_t attrib_key(rp *r, uint32_t program, int64_t loc)
{
    return loc_key(r, program, loc) ^ (1ull << 62);
}

void rp_hook_attrib_location(rp *r, const rp_msg *m, uint64_t ret)
{
    int64_t rec = (int64_t)(int32_t)rp_ret_u(m);
    int32_t c = r->cur_ctx >= 0 && r->cur_ctx < RP_MAX_CTX ? r->cur_ctx : 0;
    uint32_t program = (uint32_t)rp_arg_i(m, 0);
    r->ctx[c].attrib_program = program;
    if (rec >= 0) {
        if ((int32_t)ret != rec && !r->attrib_moved) {
            /* The name is the last argument of both queries. */
            const Gltrace__GLMessage__DataType *n = m->n_args ? m->args[m->n_args - 1] : NULL;
            int has = n && n->n_charvalue;
            r->attrib_moved = 1;
            if (!r->opt->quiet)
                fprintf(stderr, "gltrace replay: record %llu: the driver put attribute \"%.*s\" at location %d, "
                        "the recording's driver at %d: attribute indices are mapped from here on (said once)\n",
                        (unsigned long long)r->seq, has ? (int)n->charvalue[0].len : 1,
                        has ? (const char *)n->charvalue[0].data : "?", (int)(int32_t)ret, (int)rec);
        }
        rp_map_put(&r->attribs, attrib_key(r, program, rec), (uint64_t)(int64_t)(int32_t)ret);
    }
}

/* glGetProgramResourceLocation(program, interface, name): a uniform's or
 * an attribute's location, as the two hooks above learn them. */
void rp_hook_resource_location(rp *r, const rp_msg *m, uint64_t ret)
{
    GLenum iface = (GLenum)rp_arg_i(m, 1);
    if (iface == GL_UNIFORM)
        rp_hook_uniform_location(r, m, ret);
    else if (iface == GL_PROGRAM_INPUT)
        rp_hook_attrib_location(r, m, ret);
}

int64_t rp_map_attrib(rp *r, const rp_msg *m, int64_t index)
{
    (void)m;
    if (!r->attribs.n)
        return index; /* the app asked for no location: nothing to map */
    int32_t c = r->cur_ctx >= 0 && r->cur_ctx < RP_MAX_CTX ? r->cur_ctx : 0;
    uint64_t v;
    if (r->ctx[c].program && map_get(&r->attribs, attrib_key(r, r->ctx[c].program, index), &v))
        return (int64_t)(int32_t)v;
    if (r->ctx[c].attrib_program && rp_map_get(&r->attribs, attrib_key(r, r->ctx[c].attrib_program, index), &v))
        return (int64_t)(int32_t)v;
    return index;
}

/* glUseProgram(program): uniforms without a program argument are the
 * current program's. */
void rp_hook_use_program(rp *r, const rp_msg *m, uint64_t ret)
{
    (void)ret;
    int32_t c = r->cur_ctx >= 0 && r->cur_ctx < RP_MAX_CTX ? r->cur_ctx : 0;
    r->ctx[c].program = (uint32_t)rp_arg_i(m, 0);
}

/* ---------------------------------------------------------------- arguments */

void *rp_scratch(rp *r, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (r->scratch_used + n > r->scratch_cap) {
        /* Earlier allocations of this call stay valid: a new block each time
         * the arena is outgrown, the old one kept until the call is done. */
        size_t cap = r->scratch_cap * 2 > n * 2 ? r->scratch_cap * 2 : n * 2 + (1 << 20);
        uint8_t *b = calloc(1, cap);
        if (!b)
            return NULL;
        /* Leaks the old block only until rp_scratch_reset(); kept simple:
         * chained through its first bytes. */
        if (r->scratch)
            memcpy(b, &r->scratch, sizeof r->scratch);
        r->scratch = b;
        r->scratch_cap = cap;
        r->scratch_used = 16;
    }
    void *p = r->scratch + r->scratch_used;
    memset(p, 0, n);
    r->scratch_used += n;
    return p;
}

const void *rp_arg_in(rp *r, const rp_msg *m, unsigned i, int offset_ok)
{
    (void)offset_ok;
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d)
        return NULL;
    if (d->n_rawbytes)
        return d->rawbytes[0].data;
    if (d->n_charvalue) { /* one string: the driver wants it NUL-terminated */
        char *s = rp_scratch(r, d->charvalue[0].len + 1);
        if (s)
            memcpy(s, d->charvalue[0].data, d->charvalue[0].len);
        return s;
    }
    return rp_arg_addr(m, i);
}

/* A GLchar pointer into the app's text: the recorded bytes, always
 * NUL-terminated, since a call given a negative length reads to the NUL
 * and the recorded bytes (counted by length, or strlen) do not hold it. */
const char *rp_arg_text(rp *r, const rp_msg *m, unsigned i)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d || !d->n_rawbytes)
        return rp_arg_in(r, m, i, 0);
    char *s = rp_scratch(r, d->rawbytes[0].len + 1);
    if (s)
        memcpy(s, d->rawbytes[0].data, d->rawbytes[0].len);
    return s;
}

void *rp_arg_out(rp *r, const rp_msg *m, unsigned i, int offset_ok, long room)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d || !d->n_int64value || !d->int64value[0])
        return NULL; /* the app passed NULL */
    size_t n = d->n_rawbytes ? d->rawbytes[0].len : d->n_charvalue ? d->charvalue[0].len + 1 : 0;
    if (!n && offset_ok && room <= 0)
        return rp_arg_addr(m, i); /* an offset into a bound pixel buffer */
    /* The call writes up to `room` bytes (its arguments say), whatever the
     * record holds: a hostile one may hold less. */
    if (room > (1L << 30)) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: call %llu (%s): argument %u would take %ld bytes of output: refused", r->path,
                 (unsigned long long)r->seq, rp_fn_name(m), i + 1, room);
        return NULL;
    }
    if (room > 0 && (size_t)room > n)
        n = (size_t)room;
    uint8_t *out = rp_scratch(r, n + 65536);
    if (out && offset_ok && d->n_rawbytes) {
        /* Pixels: the recorded bytes first, so that those the pack state
         * skips (row padding, skipped pixels) compare equal after the read
         * (rp_hook_read_pixels); a read that fails is told by its error. */
        memcpy(out, d->rawbytes[0].data, d->rawbytes[0].len);
        r->last_out = out, r->last_out_arg = i;
    }
    return out;
}

const char *const *rp_arg_strings(rp *r, const rp_msg *m, unsigned i)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d || !d->n_charvalue)
        return rp_arg_addr(m, i);
    const char **v = rp_scratch(r, d->n_charvalue * sizeof *v);
    for (size_t k = 0; v && k < d->n_charvalue; k++) {
        char *s = rp_scratch(r, d->charvalue[k].len + 1);
        if (s)
            memcpy(s, d->charvalue[k].data, d->charvalue[k].len);
        v[k] = s;
    }
    return v;
}

/* A name whose class an enum beside it gives (gt_api_class_named). */
int64_t rp_map_named(rp *r, uint32_t name, uint32_t what)
{
    return rp_name(r, rp_class_of_state(gt_api_class_named(what)), name);
}

static int64_t msg_arg(const void *m, unsigned i)
{
    return rp_arg_i(m, i);
}

int rp_param_class(const gt_api_fn *f, const rp_msg *m, unsigned i)
{
    return gt_api_param_class(f, i, msg_arg, m);
}
