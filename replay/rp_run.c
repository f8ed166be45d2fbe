/* rp_run.c: the replay loop. Records come in the recorded global order
 * (the reader merges threads by seq); each is dispatched to its generated
 * routine (gt_replay_gen.c), to the hand-written EGL code, or to the
 * handlers of the records gltrace adds. */
#include "rp_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_api.h"
#include "gt_trace.h"

static void scratch_reset(rp *r)
{
    if (!r->scratch)
        return;
    /* Free the blocks chained behind the current one. */
    uint8_t *prev;
    memcpy(&prev, r->scratch, sizeof prev);
    while (prev) {
        uint8_t *pp;
        memcpy(&pp, prev, sizeof pp);
        free(prev);
        prev = pp;
    }
    memset(r->scratch, 0, 8); /* the link to the previous block */
    r->scratch_used = 16;
}

static int32_t number_of(const char *name)
{
    const gt_api_fn *f = gt_api_find_name(name);
    return f ? f->number : -1;
}

static int setup(rp *r)
{
    r->fn = calloc(rp_nentries, sizeof *r->fn);
    size_t max = 0;
    for (size_t i = 0; i < rp_nentries; i++)
        if ((size_t)rp_entries[i].number > max)
            max = (size_t)rp_entries[i].number;
    r->max_number = max;
    r->by_number = calloc(max + 1, sizeof *r->by_number);
    if (!r->fn || !r->by_number)
        return -1;
    for (size_t i = 0; i < rp_nentries; i++) {
        const rp_entry *e = &rp_entries[i];
        if (e->alias == 0)
            r->by_number[e->number] = e;
        if (e->fn)
            r->fn[i] = (void *)eglGetProcAddress(e->name);
    }
    r->num_vap = number_of("glVertexAttribPointer");
    r->num_vaip = number_of("glVertexAttribIPointer");
    r->num_vp = number_of("glVertexPointer");
    r->num_np = number_of("glNormalPointer");
    r->num_cp = number_of("glColorPointer");
    r->num_tcp = number_of("glTexCoordPointer");
    r->num_pspo = number_of("glPointSizePointerOES");
    return 0;
}

/* The entry of a record: by number, or by number and alias index. */
static const rp_entry *entry_of(rp *r, const rp_msg *m)
{
    if (m->function < 0 || (size_t)m->function > r->max_number)
        return NULL;
    uint32_t alias = m->has_alias ? m->alias : 0;
    if (!alias)
        return r->by_number[m->function];
    for (size_t i = 0; i < rp_nentries; i++)
        if (rp_entries[i].number == m->function && rp_entries[i].alias == alias)
            return &rp_entries[i];
    return NULL;
}

static void replay_record(rp *r, const rp_msg *m, uint64_t tid)
{
    if (m->function >= GT_FN_INVALID && m->function <= GT_FN_SYNTHETIC_LAST) {
        if (m->function == GT_FN_UNCOVERED)
            rp_warn_once(r, -1, "the app used functions gltrace does not cover (first: %s): not replayed",
                         m->marker ? m->marker : "?");
        else
            rp_synthetic(r, m, tid);
        return;
    }
    const rp_entry *e = entry_of(r, m);
    if (!e) {
        rp_warn_once(r, m->function, "record %llu: function number %d is unknown to this gltrace: skipped",
                     (unsigned long long)r->seq, m->function);
        r->sum->skipped++;
        return;
    }
    r->sum->calls++;
    if (e->how == RP_EGL) {
        if (!rp_egl_dispatch(r, m, e->name, tid))
            r->sum->skipped++;
        return;
    }
    if (e->how == RP_SKIP) {
        r->sum->skipped++;
        return;
    }
    if (rp_make_current_for(r, tid) != 0) {
        rp_warn_once(r, m->function, "%s with no context current on its thread: skipped", e->name);
        r->sum->skipped++;
        return;
    }
    if (!r->fn[e - rp_entries]) {
        rp_warn_once(r, m->function, "%s: the replay driver does not have it: skipped", e->name);
        r->sum->skipped++;
        return;
    }
    e->fn(r, m);
    scratch_reset(r);
}

int gt_replay_run(const char *path, const gt_replay_options *opt, gt_replay_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    rp *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(sum->error, sizeof sum->error, "out of memory");
        return 2;
    }
    r->opt = opt;
    r->sum = sum;
    r->path = path;
    r->cur_ctx = -1;
    int status = 2;
    char err[GT_ERRLEN];
    gt_reader *rd = NULL;
    if (opt->out_dir && mkdir(opt->out_dir, 0777) != 0 && errno != EEXIST) {
        snprintf(sum->error, sizeof sum->error, "cannot make %s: %s", opt->out_dir, strerror(errno));
        goto out;
    }
    rd = gt_reader_open(path, err, sizeof err);
    if (!rd) {
        snprintf(sum->error, sizeof sum->error, "%s", err);
        goto out;
    }
    if (setup(r) != 0 || rp_egl_open(r) != 0) {
        if (!sum->error[0])
            snprintf(sum->error, sizeof sum->error, "out of memory");
        goto out;
    }
    gt_record rec;
    int rc;
    while ((rc = gt_reader_next(rd, &rec)) == 1) {
        rp_msg *m = gltrace__glmessage__unpack(NULL, rec.size, rec.data);
        if (!m) {
            snprintf(sum->error, sizeof sum->error, "%s: record %llu (chunk at byte %llu) is not a valid GLMessage",
                     path, (unsigned long long)rec.seq, (unsigned long long)rec.offset);
            break;
        }
        r->seq = rec.seq;
        r->cur = m;
        replay_record(r, m, m->has_thread_id ? m->thread_id : rec.thread_id);
        gltrace__glmessage__free_unpacked(m, NULL);
        if (sum->error[0])
            break;
    }
    if (rc < 0 && !sum->error[0])
        snprintf(sum->error, sizeof sum->error, "%s", gt_reader_error(rd));
    if (!sum->error[0])
        status = sum->differing ? 1 : 0;
out:
    if (rd)
        gt_reader_close(rd);
    rp_egl_close(r);
    scratch_reset(r);
    free(r->scratch);
    for (int i = 0; i < 64; i++)
        free(r->arrays[i]);
    rp_map_free(&r->names);
    rp_map_free(&r->handles);
    rp_map_free(&r->surfaces);
    rp_map_free(&r->locations);
    rp_map_free(&r->maps);
    free(r->fn);
    free(r->by_number);
    free(r);
    return status;
}
