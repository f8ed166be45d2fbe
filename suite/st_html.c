/* st_html.c: the report a person opens. report.html: counts, then every
 * trace, unexpected results first, with the expected, actual and diff
 * pictures of a failure's differing snapshots; images/index.html: those
 * snapshots again in diff's own report (slider, flicker, metrics). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gt_diff.h"
#include "st_internal.h"

static int rank(const st_result *x)
{
    if (!st_status_expected(x->status))
        return 0;
    return x->status == ST_FLAKE || x->status == ST_EXPECTED_FAIL ? 1 : x->status == ST_PASS ? 3 : 2;
}

static int cmp_rank(const void *a, const void *b)
{
    const st_result *x = *(const st_result *const *)a, *y = *(const st_result *const *)b;
    return rank(x) != rank(y) ? rank(x) - rank(y) : strcmp(x->trace, y->trace);
}

static const st_result **ordered(const st_results *r)
{
    const st_result **v = malloc((r->n ? r->n : 1) * sizeof *v);
    if (!v)
        abort();
    for (size_t i = 0; i < r->n; i++)
        v[i] = &r->v[i];
    qsort(v, r->n, sizeof *v, cmp_rank);
    return v;
}

static void picture(FILE *f, const char *kind, const char *src)
{
    fprintf(f, "<figure><figcaption>%s</figcaption>", kind);
    if (src) {
        fputs("<a href=\"", f);
        gt_diff_xml_str(f, src);
        fputs("\"><img loading=\"lazy\" src=\"", f);
        gt_diff_xml_str(f, src);
        fprintf(f, "\" alt=\"%s\"></a>", kind);
    } else {
        fputs("<span>none</span>", f);
    }
    fputs("</figure>", f);
}

static void snapshots(FILE *f, const st_result *x)
{
    int shown = 0;
    for (size_t i = 0; i < x->nsnaps && shown < 4; i++) {
        const st_snap *s = &x->snaps[i];
        if (!s->actual_png && !s->diff_png)
            continue;
        fprintf(f, "<div class=\"snap\"><p>call %" PRIu64 ", frame %" PRIu64 ", ", s->call, s->frame);
        gt_diff_xml_str(f, s->what);
        fprintf(f, ": %s</p>", s->status);
        picture(f, "expected", s->expected_png);
        picture(f, "actual", s->actual_png);
        picture(f, "diff", s->diff_png);
        fputs("</div>\n", f);
        shown++;
    }
}

static void row(FILE *f, const st_result *x)
{
    const char *cls = !st_status_expected(x->status) ? "bad" : x->status == ST_PASS ? "ok" : "note";
    fprintf(f, "<tr class=\"%s\"><td class=\"st\">%s</td><td>", cls, st_status_name(x->status));
    gt_diff_xml_str(f, x->trace);
    fprintf(f, "</td><td>%.2f s</td><td>%u</td><td>", x->seconds, x->attempts);
    if (x->has_first)
        fprintf(f, "call %" PRIu64 ", frame %" PRIu64, x->first_call, x->first_frame);
    fputs("</td><td>", f);
    gt_diff_xml_str(f, x->message ? x->message : "");
    if (x->dir) {
        fputs(" <a href=\"", f);
        gt_diff_xml_str(f, x->dir);
        fputs("/log.txt\">log</a>", f);
    }
    fputs("</td></tr>\n", f);
    if (rank(x) < 2 && x->nsnaps) {
        fputs("<tr><td></td><td colspan=\"5\">", f);
        snapshots(f, x);
        fputs("</td></tr>\n", f);
    }
}

static const char css[] =
    "body{font:14px sans-serif;margin:1em}table{border-collapse:collapse}td,th{padding:2px 8px;"
    "border-bottom:1px solid #ddd;text-align:left;vertical-align:top}tr.bad .st{color:#fff;background:#c00}"
    "tr.note .st{background:#fd8}tr.ok .st{color:#060}figure{display:inline-block;margin:4px}"
    "img{max-width:320px;max-height:240px;image-rendering:pixelated;border:1px solid #888}";

int st_write_html(const char *out_dir, const st_results *r, char *err)
{
    char *path = st_fmt("%s/report.html", out_dir), *tmp = st_fmt("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, ST_ERR_MAX, "cannot write %s", path);
        free(path);
        free(tmp);
        return -1;
    }
    size_t c[ST_NSTATUS] = {0}, bad = 0;
    for (size_t i = 0; i < r->n; i++)
        c[r->v[i].status]++, bad += !st_status_expected(r->v[i].status);
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gltrace suite: %zu "
               "unexpected of %zu</title><style>%s</style></head><body>\n<h1>gltrace suite, device ",
            bad, r->n, css);
    gt_diff_xml_str(f, r->device);
    fprintf(f, "</h1>\n<p id=\"summary\" data-unexpected=\"%zu\">%zu traces, %zu unexpected:", bad, r->n, bad);
    for (int s = 0; s < ST_NSTATUS; s++)
        if (c[s])
            fprintf(f, " %s %zu,", st_status_name((st_status)s), c[s]);
    fputs(" <a href=\"images/index.html\">differing snapshots side by side</a></p>\n<table>\n<tr><th>status</th>"
          "<th>trace</th><th>time</th><th>runs</th><th>first difference</th><th>detail</th></tr>\n", f);
    const st_result **v = ordered(r);
    for (size_t i = 0; i < r->n; i++)
        row(f, v[i]);
    free(v);
    fputs("</table>\n</body></html>\n", f);
    int ok = !ferror(f) & (fclose(f) == 0) && rename(tmp, path) == 0;
    if (!ok)
        snprintf(err, ST_ERR_MAX, "cannot write %s", path);
    free(path);
    free(tmp);
    return ok ? 0 : -1;
}

static void add_pair(gt_diff_batch *b, const char *out_dir, const st_result *x, const st_snap *s)
{
    char *name = st_fmt("%s/call%" PRIu64 "-%s.png", x->dir, s->call, s->what);
    char *e = s->expected_png ? st_fmt("%s/%s", out_dir, s->expected_png) : NULL;
    char *a = s->actual_png ? st_fmt("%s/%s", out_dir, s->actual_png) : NULL;
    if (gt_diff_batch_add(b, name, e, a) == 0) {
        gt_diff_pair *p = &b->pairs[b->n - 1];
        p->status = GT_DIFF_FAIL;
        snprintf(p->message, sizeof p->message, "%s: %s at call %" PRIu64 ", frame %" PRIu64 " (%s)", x->trace,
                 s->what, s->call, s->frame, st_status_name(x->status));
        p->width = p->actual_width = s->width, p->height = p->actual_height = s->height;
        p->diff_image = s->diff_png ? st_fmt("%s/%s", out_dir, s->diff_png) : NULL;
    }
    free(name);
    free(e);
    free(a);
}

int st_write_image_report(const char *out_dir, const st_results *r, char *err)
{
    gt_diff_batch b = {0};
    for (size_t i = 0; i < r->n; i++) {
        const st_result *x = &r->v[i];
        for (size_t k = 0; rank(x) < 2 && k < x->nsnaps; k++)
            if (x->snaps[k].actual_png || x->snaps[k].diff_png)
                add_pair(&b, out_dir, x, &x->snaps[k]);
    }
    gt_diff_options o;
    gt_diff_options_init(&o);
    char *dir = st_fmt("%s/images", out_dir), derr[GT_DIFF_ERR_MAX];
    int rc = gt_diff_report_html(dir, &b, &o, derr);
    if (rc != 0)
        snprintf(err, ST_ERR_MAX, "%s", derr);
    free(dir);
    gt_diff_batch_free(&b);
    return rc;
}
