/* st_merge.c: `gltrace suite merge`: the outputs of shard runs joined into
 * one, as if one run had made it: results sorted by trace, each trace's
 * folder copied beside them, every report written again. */
#include <stdlib.h>
#include <string.h>

#include "st_internal.h"

static char *device_of(const char *dir)
{
    char *path = st_fmt("%s/results.json", dir), err[ST_ERR_MAX];
    st_doc d;
    char *dev = NULL;
    if (st_doc_load(&d, path, err) == 0)
        dev = st_strdup(st_scalar(st_map_get(&d, st_root(&d), "device")));
    st_doc_free(&d);
    free(path);
    return dev;
}

static int take(st_results *all, const char *dir, const char *out_dir)
{
    char err[ST_ERR_MAX];
    st_results part = {0};
    if (st_csv_read(dir, &part, err) != 0) {
        st_say("%s", err);
        return -1;
    }
    if (!all->device)
        all->device = device_of(dir);
    for (size_t i = 0; i < part.n; i++) {
        st_result *x = &part.v[i];
        for (size_t k = 0; k < all->n; k++)
            if (!strcmp(all->v[k].trace, x->trace))
                st_say("%s: %s is in two shards' results; both are kept", dir, x->trace);
        char *src = st_fmt("%s/%s", dir, x->dir), *dst = st_fmt("%s/%s", out_dir, x->dir);
        if (strcmp(src, dst))
            st_copy_tree(src, dst);
        free(src);
        free(dst);
        st_result *y = st_results_push(all);
        *y = *x;
        memset(x, 0, sizeof *x);
        char *keep = y->message;
        int rc;
        y->message = NULL;
        st_report_read(out_dir, y, &rc, err);
        free(y->message);
        y->message = keep;
    }
    st_results_free(&part);
    return 0;
}

int gt_suite_merge(const char *const *dirs, size_t ndirs, const char *out_dir)
{
    st_results all = {0};
    char err[ST_ERR_MAX];
    if (st_mkdirs(out_dir) != 0) {
        st_say("cannot create %s", out_dir);
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; i < ndirs && rc == 0; i++)
        rc = take(&all, dirs[i], out_dir) != 0 ? 2 : 0;
    if (rc == 0) {
        if (!all.device)
            all.device = st_strdup("");
        st_results_sort(&all);
        FILE *csv, *fails;
        if (st_csv_open(out_dir, 0, &csv, &fails, err) != 0) {
            st_say("%s", err);
            rc = 2;
        } else {
            for (size_t i = 0; i < all.n; i++)
                st_csv_append(csv, fails, &all.v[i]);
            fclose(csv);
            fclose(fails);
            if (st_write_reports(out_dir, &all, err) != 0 || st_write_image_report(out_dir, &all, err) != 0)
                st_say("%s", err);
            size_t bad = 0;
            for (size_t i = 0; i < all.n; i++)
                bad += !st_status_expected(all.v[i].status);
            st_say("%zu traces from %zu runs, %zu unexpected; report: %s/report.html", all.n, ndirs, bad, out_dir);
            rc = bad ? 1 : 0;
        }
    }
    st_results_free(&all);
    return rc;
}
