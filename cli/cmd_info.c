/* gltrace info: a trace's summary as one JSON object. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "gt_cli.h"
#include "gt_show.h"

/* Small set of 64-bit ids (threads, contexts); traces have few of each. */
typedef struct idset {
    uint64_t *v;
    size_t n, cap;
} idset;

static void idset_add(idset *s, uint64_t id)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == id)
            return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        uint64_t *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = id;
}

/* Later metadata records fill in what the first could not know: the merged
 * view points into the kept messages, later fields winning. */
typedef struct metas {
    Gltrace__GLMessage **m;
    size_t n, cap;
} metas;

static int keep_metadata(metas *k, Gltrace__GLMessage *m)
{
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 8;
        Gltrace__GLMessage **n = realloc(k->m, cap * sizeof *n);
        if (!n)
            return 0;
        k->m = n;
        k->cap = cap;
    }
    k->m[k->n++] = m;
    return 1;
}

static void merge_metadata(const metas *k, Gltrace__TraceMetadata *a)
{
    gltrace__trace_metadata__init(a);
    for (size_t i = 0; i < k->n; i++) {
        const Gltrace__TraceMetadata *b = k->m[i]->metadata;
#define TAKE_STR(f) if (b->f) a->f = b->f
#define TAKE_NUM(f) if (b->has_##f) { a->has_##f = 1; a->f = b->f; }
#define TAKE_REP(f) if (b->n_##f) { a->n_##f = b->n_##f; a->f = b->f; }
        TAKE_NUM(format_version);
        TAKE_STR(tool_version);
        TAKE_REP(command_line);
        TAKE_STR(process_name);
        TAKE_NUM(pid);
        TAKE_STR(gl_vendor);
        TAKE_STR(gl_renderer);
        TAKE_STR(gl_version);
        TAKE_STR(gl_shading_language_version);
        TAKE_STR(gl_extensions);
        TAKE_STR(egl_vendor);
        TAKE_STR(egl_version);
        TAKE_STR(egl_client_apis);
        TAKE_STR(egl_extensions);
        TAKE_REP(options);
        TAKE_NUM(start_time_realtime_ns);
        TAKE_NUM(start_time_monotonic_ns);
#undef TAKE_STR
#undef TAKE_NUM
#undef TAKE_REP
    }
}

int gt_cmd_info(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
        fprintf(help ? stdout : stderr, "usage: gltrace info TRACE\n");
        return help ? 0 : 2;
    }
    const char *path = argv[1];
    char err[GT_ERRLEN];
    gt_reader *r = gt_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "gltrace info: %s\n", err);
        return 2;
    }
    uint64_t calls = 0, frames = 0, created = 0, markers = 0, first_t = 0, last_t = 0;
    uint64_t snapshots = 0, array_data = 0, mapped_data = 0;
    idset threads = {0}, contexts = {0};
    metas kept = {0};
    gt_record rec;
    int rc, status = 0;
    while ((rc = gt_reader_next(r, &rec)) == 1) {
        Gltrace__GLMessage *m = gltrace__glmessage__unpack(NULL, rec.size, rec.data);
        if (!m) {
            fprintf(stderr, "gltrace info: %s: record %" PRIu64 " (chunk at byte %" PRIu64 ") is not a valid GLMessage\n",
                    path, rec.seq, rec.offset);
            status = 2;
            break;
        }
        if (m->function == GT_FN_METADATA && m->metadata) {
            if (keep_metadata(&kept, m))
                continue; /* freed at the end */
        } else if (m->function == GT_FN_UNCOVERED) {
            markers++;
        } else if (m->function == GT_FN_SNAPSHOT) {
            snapshots++;
        } else if (m->function == GT_FN_VERTEX_ATTRIB_POINTER_DATA) {
            array_data++;
        } else if (m->function == GT_FN_MAPPED_DATA) {
            mapped_data++;
        } else if (!GT_FN_IS_SYNTHETIC(m->function)) {
            calls++;
            if (!first_t)
                first_t = (uint64_t)m->start_time;
            last_t = (uint64_t)m->start_time;
            const gt_api_fn *fn = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
            int cls = fn ? fn->cls : GT_CLASS_NONE;
            if (cls == GT_CLASS_FRAME)
                frames++;
            if (cls == GT_CLASS_CONTEXT && m->returnvalue && m->returnvalue->n_int64value &&
                m->returnvalue->int64value[0])
                created++;
            if (m->context_id >= 0)
                idset_add(&contexts, (uint64_t)m->context_id);
            idset_add(&threads, m->has_thread_id ? m->thread_id : rec.thread_id);
        }
        gltrace__glmessage__free_unpacked(m, NULL);
    }
    if (rc < 0) {
        fprintf(stderr, "gltrace info: %s\n", gt_reader_error(r));
        status = 2;
    }
    /* A trace that never swaps: its snapshots end its frames (proto/gt_frames.c). */
    const char *ends = "swaps";
    gt_frame_ends fe;
    if (!frames && status == 0 && gt_frames_scan(path, gt_api_ends_frame, 0, &fe, err, sizeof err) == 0) {
        if (fe.n)
            frames = fe.n, ends = "snapshots";
        gt_frames_free(&fe);
    }
    gt_reader_stats st;
    gt_reader_stats_get(r, &st);
    gt_reader_close(r);
    uint64_t ncontexts = contexts.n > created ? contexts.n : created;
    printf("{\"file\":");
    gt_show_json_string(stdout, path, strlen(path));
    printf(",\"format\":\"%s\",\"indexed\":%s,\"calls\":%" PRIu64 ",\"frames\":%" PRIu64 ",\"frames_end_at\":\"%s\""
           ",\"contexts\":%" PRIu64 ",\"threads\":%zu,\"uncovered_markers\":%" PRIu64
           ",\"snapshots\":%" PRIu64 ",\"client_array_records\":%" PRIu64
           ",\"mapped_data_records\":%" PRIu64 ",\"chunks\":%" PRIu64 ",\"size_on_disk\":%" PRIu64 ",\"size_uncompressed\":%" PRIu64
           ",\"duration_ns\":%" PRIu64 ",\"complete\":%s,\"metadata\":",
           st.format == GT_FORMAT_LEGACY ? "android-legacy" : "gltrace-zstd", st.has_index ? "true" : "false",
           calls, frames, ends, ncontexts, threads.n, markers, snapshots, array_data, mapped_data, st.chunks, st.file_size, st.uncompressed_size,
           last_t - first_t, status == 0 ? "true" : "false");
    if (kept.n) {
        Gltrace__TraceMetadata merged;
        merge_metadata(&kept, &merged);
        gt_show_metadata_json(stdout, &merged);
    } else {
        printf("null");
    }
    printf("}\n");
    for (size_t i = 0; i < kept.n; i++)
        gltrace__glmessage__free_unpacked(kept.m[i], NULL);
    free(kept.m);
    free(threads.v);
    free(contexts.v);
    return status;
}
