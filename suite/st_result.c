/* st_result.c: a trace's result: its status and what its replay report
 * says of each snapshot. */
#include <stdlib.h>
#include <string.h>

#include "st_internal.h"

static const char *const names[ST_NSTATUS] = {
    "Pass", "Fail", "Crash", "Timeout", "Flake", "Skip", "ExpectedFail", "UnexpectedPass", "Error",
};

const char *st_status_name(st_status s)
{
    return names[s];
}

int st_status_parse(const char *name, st_status *s)
{
    for (int i = 0; i < ST_NSTATUS; i++)
        if (!strcmp(names[i], name)) {
            *s = (st_status)i;
            return 0;
        }
    return -1;
}

/* A Flake passed on a retry: reported, but not a regression (as deqp-runner). */
int st_status_expected(st_status s)
{
    return s == ST_PASS || s == ST_FLAKE || s == ST_SKIP || s == ST_EXPECTED_FAIL;
}

st_result *st_results_push(st_results *r)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        st_result *v = realloc(r->v, cap * sizeof *v);
        if (!v)
            abort();
        r->v = v, r->cap = cap;
    }
    st_result *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    return x;
}

static void snaps_free(st_result *x)
{
    for (size_t i = 0; i < x->nsnaps; i++) {
        free(x->snaps[i].expected_png);
        free(x->snaps[i].actual_png);
        free(x->snaps[i].diff_png);
    }
    free(x->snaps);
    x->snaps = NULL, x->nsnaps = 0;
}

void st_result_free(st_result *x)
{
    free(x->trace);
    free(x->dir);
    free(x->message);
    snaps_free(x);
    memset(x, 0, sizeof *x);
}

void st_results_free(st_results *r)
{
    for (size_t i = 0; i < r->n; i++)
        st_result_free(&r->v[i]);
    free(r->v);
    free(r->device);
    memset(r, 0, sizeof *r);
}

static int cmp_result(const void *a, const void *b)
{
    return strcmp(((const st_result *)a)->trace, ((const st_result *)b)->trace);
}

void st_results_sort(st_results *r)
{
    qsort(r->v, r->n, sizeof *r->v, cmp_result);
}

static uint64_t num(st_doc *d, yaml_node_t *map, const char *key)
{
    const char *s = st_scalar(st_map_get(d, map, key));
    return s ? strtoull(s, NULL, 10) : 0;
}

static char *png(st_doc *d, yaml_node_t *map, const char *key, const st_result *x)
{
    const char *s = st_scalar(st_map_get(d, map, key));
    return s && *s ? st_fmt("%s/img/%s", x->dir, s) : NULL;
}

static void snap_of(st_doc *d, yaml_node_t *n, const st_result *x, st_snap *o)
{
    memset(o, 0, sizeof *o);
    o->call = num(d, n, "call"), o->frame = num(d, n, "frame");
    o->width = (unsigned)num(d, n, "width"), o->height = (unsigned)num(d, n, "height");
    const char *s = st_scalar(st_map_get(d, n, "what"));
    snprintf(o->what, sizeof o->what, "%s", s ? s : "");
    s = st_scalar(st_map_get(d, n, "status"));
    snprintf(o->status, sizeof o->status, "%s", s ? s : "");
    s = st_scalar(st_map_get(d, n, "hash"));
    snprintf(o->hash, sizeof o->hash, "%s", s ? s : "");
    o->expected_png = png(d, n, "expected_png", x);
    o->actual_png = png(d, n, "actual_png", x);
    o->diff_png = png(d, n, "diff_png", x);
}

int st_report_read(const char *out_dir, st_result *x, int *exit_rc, char *err)
{
    char *path = st_fmt("%s/%s/report.json", out_dir, x->dir);
    st_doc d;
    int rc = st_doc_load(&d, path, err);
    free(path);
    snaps_free(x);
    if (rc != 0) {
        st_doc_free(&d);
        return -1;
    }
    yaml_node_t *root = st_root(&d), *res = st_map_get(&d, root, "results");
    const char *e = st_scalar(st_map_get(&d, root, "exit"));
    *exit_rc = e ? atoi(e) : 2;
    yaml_node_t *first = st_map_get(&d, root, "first_difference");
    x->has_first = first && first->type == YAML_MAPPING_NODE;
    if (x->has_first)
        x->first_call = num(&d, first, "call"), x->first_frame = num(&d, first, "frame");
    x->compared = num(&d, root, "matched") + num(&d, root, "differing") + num(&d, root, "reads_matched") +
                  num(&d, root, "reads_differing");
    x->reads_differing = num(&d, root, "reads_differing");
    const char *why = st_scalar(st_map_get(&d, root, "error"));
    if (why && *why && strcmp(why, "null") && !x->message)
        x->message = st_strdup(why);
    if (res && res->type == YAML_SEQUENCE_NODE) {
        size_t n = (size_t)(res->data.sequence.items.top - res->data.sequence.items.start);
        x->snaps = calloc(n ? n : 1, sizeof *x->snaps);
        for (size_t i = 0; i < n; i++)
            snap_of(&d, st_node(&d, res->data.sequence.items.start[i]), x, &x->snaps[x->nsnaps++]);
    }
    st_doc_free(&d);
    return 0;
}
