/* rp_inspect.c: `gltrace inspect`: a replay that stops after chosen calls
 * and dumps the state of the context current there (gt_inspect.h). The
 * replay loop calls back after each record (gt_replay_options.after_call);
 * the dump itself is gt_inspect_write, which a lockstep replay can call
 * as well. */
#include "rp_inspect_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <GLES3/gl32.h>

#include "gt_api.h"

void gt_inspect_options_init(gt_inspect_options *o)
{
    memset(o, 0, sizeof *o);
    o->frame_last = UINT64_MAX;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The GLES version as 11, 20, 30, 31, 32, from GL_VERSION ("OpenGL ES 3.2
 * Mesa ...", "OpenGL ES-CM 1.1 Mesa ..."). */
int ik_gles_version(void)
{
    const char *v = (const char *)glGetString(GL_VERSION);
    const char *num = v ? strpbrk(v, "0123456789") : NULL;
    if (!num || num[1] != '.')
        return 20;
    return (num[0] - '0') * 10 + (num[2] >= '0' && num[2] <= '9' ? num[2] - '0' : 0);
}

static void header(ik *k)
{
    rp *r = k->r;
    ij *w = k->w;
    ij_key(w, "schema");
    ij_str(w, "gltrace-inspect/1");
    ij_key(w, "trace");
    ij_str(w, r->path);
    ij_key(w, "call");
    ij_uint(w, r->seq);
    ij_key(w, "frame");
    ij_uint(w, r->frame);
    ij_key(w, "function");
    ij_str(w, r->cur ? gt_api_number_name(r->cur->function, r->cur->has_alias ? r->cur->alias : 0) : NULL);
    ij_key(w, "gl");
    ij_obj(w);
    ij_key(w, "version");
    ij_str(w, (const char *)glGetString(GL_VERSION));
    ij_key(w, "es_version");
    ij_int(w, k->ver);
    ij_key(w, "renderer");
    ij_str(w, (const char *)glGetString(GL_RENDERER));
    ij_key(w, "vendor");
    ij_str(w, (const char *)glGetString(GL_VENDOR));
    ij_key(w, "shading_language_version");
    ij_str(w, k->ver >= 20 ? (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION) : NULL);
    ij_key(w, "extensions");
    ij_str(w, k->exts);
    ij_end(w, '}');
}

static int make_dir(const char *dir, char *err, size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* has_ctx 0: the call's thread had no context: the EGL part only. */
static int dump(rp *r, const char *dir, int resources, int has_ctx, char *err, size_t errlen)
{
    if (make_dir(dir, err, errlen) != 0)
        return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/state.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    ij w = {.f = f, .inline_from = IJ_DEPTH};
    ik k = {.r = r, .w = &w, .dir = dir, .resources = resources};
    ij_obj(&w);
    has_ctx = has_ctx && r->bound_ctx >= 0 && r->bound_ctx < RP_MAX_CTX && eglGetCurrentContext() != EGL_NO_CONTEXT;
    if (has_ctx) {
        r->cur_ctx = r->bound_ctx;
        rp_hold_errors(r); /* the app's pending error stays the app's */
        k.ver = ik_gles_version();
        k.exts = (const char *)glGetString(GL_EXTENSIONS);
        rp_names_reverse(r, &k.rev);
    }
    header(&k);
    ik_egl(&k);
    if (has_ctx) {
        ik_context_state(&k);
        ik_vertex_attribs(&k);
        ik_program(&k);
        ik_framebuffers(&k);
        ik_textures(&k);
        ik_buffers(&k);
        ik_transform_feedback(&k);
        ik_queries(&k);
        rp_shader_copy_done(&k.copier);
        while (glGetError() != GL_NO_ERROR) /* replay's own reads' */
            ;
    }
    ij_end(&w, '}');
    rp_map_free(&k.rev);
    if (ferror(f) | (fclose(f) != 0)) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

int gt_inspect_write(struct rp *r, const char *dir, int resources, char *err, size_t errlen)
{
    return dump(r, dir, resources, 1, err, errlen);
}

/* ---------------------------------------------------------------- gltrace inspect */

typedef struct run {
    const gt_inspect_options *o;
    gt_inspect_summary *sum;
    int many;              /* the set names more than one call: one folder each */
    int failed;
} run;

static int wanted(const run *u, rp *r)
{
    const gt_inspect_options *o = u->o;
    if (r->frame < o->frame_first || r->frame > o->frame_last)
        return 0;
    int in = 0;
    for (size_t i = 0; i < o->ncalls && !in; i++)
        in = r->seq >= o->calls[2 * i] && r->seq <= o->calls[2 * i + 1];
    if (!in || !o->draws_only)
        return in;
    const rp_msg *m = r->cur;
    const rp_entry *e = m->function >= 0 && (size_t)m->function <= r->max_number ? r->by_number[m->function] : NULL;
    return e && e->cls == GT_CLASS_DRAW;
}

static int after_call(void *user, struct rp *r, uint64_t tid)
{
    run *u = user;
    if (!wanted(u, r))
        return 0;
    double t = now();
    int has_ctx = rp_make_current_for(r, tid) == 0;
    char dir[4096], err[512];
    if (u->many)
        snprintf(dir, sizeof dir, "%s/call-%" PRIu64, u->o->out_dir, r->seq);
    else
        snprintf(dir, sizeof dir, "%s", u->o->out_dir);
    if (dump(r, dir, !u->o->no_resources, has_ctx, err, sizeof err) != 0) {
        snprintf(u->sum->error, sizeof u->sum->error, "%s", err);
        u->failed = 1;
        return 1;
    }
    u->sum->dumps++;
    u->sum->last_call = r->seq;
    u->sum->dump_seconds += now() - t;
    return 0;
}

int gt_inspect_run(const char *trace, const gt_inspect_options *o, gt_inspect_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    if (!o->out_dir || !o->ncalls) {
        snprintf(sum->error, sizeof sum->error, "no calls or no output folder given");
        return 2;
    }
    if (make_dir(o->out_dir, sum->error, sizeof sum->error) != 0)
        return 2;
    run u = {.o = o, .sum = sum};
    uint64_t last = 0;
    for (size_t i = 0; i < o->ncalls; i++)
        last = o->calls[2 * i + 1] > last ? o->calls[2 * i + 1] : last;
    u.many = o->ncalls > 1 || o->calls[0] != o->calls[1] || o->draws_only;
    gt_replay_options ro;
    gt_replay_options_init(&ro);
    ro.quiet = o->quiet;
    ro.call_last = last;
    /* The recorded snapshots are not compared (each a read back): only the
     * dumps are wanted. An empty range of calls to compare says so. */
    ro.call_first = last < UINT64_MAX ? last + 1 : last;
    ro.frame_last = o->frame_last; /* stops after it */
    ro.after_call = after_call;
    ro.after_call_user = &u;
    gt_replay_summary rs;
    double t = now();
    int rc = gt_replay_run(trace, &ro, &rs);
    sum->replay_seconds = now() - t;
    if (rc == 2 && !sum->error[0])
        snprintf(sum->error, sizeof sum->error, "%s", rs.error);
    gt_replay_summary_free(&rs);
    if (rc == 2 || u.failed)
        return 2;
    if (!sum->dumps) {
        snprintf(sum->error, sizeof sum->error, "%s: no call of the set was replayed (the trace has %s)", trace,
                 "fewer calls, or none of them is a draw there");
        return 1;
    }
    return 0;
}
