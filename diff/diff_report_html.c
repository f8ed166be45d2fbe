/* diff_report_html.c: the report a person looks at. One folder: index.html
 * (style and script inline) and img/{expected,actual,diff}/NAME copies, so
 * it survives being archived as a CI artifact. Failures come first (see
 * rank()); every pair is rendered as static HTML, so the page reads even
 * with scripts off. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_html_page.h"
#include "diff_internal.h"

/* Page order: pixel differences (largest first), then size mismatches,
 * then missing files, then unreadable files, then passes. A missing file
 * says all there is in its message; a changed picture needs looking at. */
static int rank(const gt_diff_pair *p)
{
    if (p->status == GT_DIFF_FAIL)
        return p->has_result ? 0 : p->width ? 1 : 2;
    return p->status == GT_DIFF_ERROR ? 3 : 4;
}

static int cmp_pairs(const void *x, const void *y)
{
    const gt_diff_pair *a = *(const gt_diff_pair *const *)x, *b = *(const gt_diff_pair *const *)y;
    if (rank(a) != rank(b))
        return rank(a) - rank(b);
    if (rank(a) == 0 && a->result.diff_percent != b->result.diff_percent)
        return a->result.diff_percent > b->result.diff_percent ? -1 : 1;
    return strcmp(a->name, b->name);
}

typedef struct html {
    FILE *f;
    const char *dir;
    char err[GT_DIFF_ERR_MAX];
} html;

/* Copies src into dir/img/KIND/NAME. Returns 1 if the image is there. A
 * failed copy leaves the image out and says why on the page; it does not
 * fail the report, which still has everything else to show. */
static int place_image(html *h, const char *kind, const gt_diff_pair *p, const char *src)
{
    if (!src)
        return 0;
    size_t n = strlen(h->dir) + strlen(kind) + strlen(p->name) + 8;
    char *dst = malloc(n);
    if (!dst)
        return 0;
    snprintf(dst, n, "%s/img/%s/%s", h->dir, kind, p->name);
    int ok = diff_copy_file(src, dst, h->err) == 0;
    free(dst);
    return ok;
}

static void figure(html *h, const char *kind, const gt_diff_pair *p, const char *src, int lazy,
                   const char *absent)
{
    FILE *f = h->f;
    fprintf(f, "<figure><figcaption>%s</figcaption>", kind);
    if (place_image(h, kind, p, src)) {
        fprintf(f, "<img class=\"%s\" alt=\"%s\" %ssrc=\"img/%s/", kind, kind,
                lazy ? "loading=\"lazy\" " : "", kind);
        diff_url_path(f, p->name);
        fputs("\">", f);
    } else {
        fputs("<div class=\"none\">", f);
        gt_diff_xml_str(f, src ? h->err : absent);
        fputs("</div>", f);
    }
    fputs("</figure>\n", f);
}

static void metrics_table(FILE *f, const gt_diff_pair *p)
{
    fputs("<table class=\"metrics\">", f);
    if (p->width)
        fprintf(f, "<tr><td>size</td><td>%ux%u</td></tr>", p->width, p->height);
    if (p->actual_width && (p->actual_width != p->width || p->actual_height != p->height))
        fprintf(f, "<tr><td>actual size</td><td>%ux%u</td></tr>", p->actual_width, p->actual_height);
    if (p->has_result) {
        const gt_diff_result *r = &p->result;
        fprintf(f,
                "<tr><td>differing pixels</td><td>%llu (%.4f%%)</td></tr>"
                "<tr><td>anti-aliased</td><td>%llu</td></tr>"
                "<tr><td>isolated (not counted)</td><td>%llu</td></tr>"
                "<tr><td>largest channel diff</td><td>%u</td></tr>"
                "<tr><td>RMSE</td><td>%.4f</td></tr>",
                (unsigned long long)r->diff_pixels, r->diff_percent, (unsigned long long)r->aa_pixels,
                (unsigned long long)r->isolated_pixels, r->max_channel_diff, r->rmse);
        if (isfinite(r->psnr))
            fprintf(f, "<tr><td>PSNR</td><td>%.2f dB</td></tr>", r->psnr);
        else
            fputs("<tr><td>PSNR</td><td>&infin; (identical)</td></tr>", f);
        if (r->bbox.w)
            fprintf(f, "<tr><td>bounding box</td><td>x %u, y %u, %ux%u</td></tr>", r->bbox.x, r->bbox.y,
                    r->bbox.w, r->bbox.h);
    }
    fputs("</table>\n", f);
}

static void pair_section(html *h, const gt_diff_pair *p, size_t index)
{
    static const char *const cls[] = {"pass", "fail", "error"};
    static const char *const badge[] = {"PASS", "FAIL", "ERROR"};
    FILE *f = h->f;
    int lazy = p->status == GT_DIFF_PASS;
    fprintf(f, "<section class=\"pair %s\" id=\"pair%zu\" data-name=\"", cls[p->status], index);
    gt_diff_xml_str(f, p->name);
    fprintf(f, "\">\n<h2><span class=\"badge\">%s</span><span class=\"name\">", badge[p->status]);
    gt_diff_xml_str(f, p->name);
    fputs("</span></h2>\n", f);
    if (p->message[0]) {
        fputs("<p class=\"msg\">", f);
        gt_diff_xml_str(f, p->message);
        fputs("</p>\n", f);
    }
    metrics_table(f, p);
    fputs("<div class=\"row\">\n", f);
    figure(h, "expected", p, p->expected, lazy, "missing");
    figure(h, "actual", p, p->actual, lazy, "missing");
    figure(h, "diff", p, p->diff_image, lazy,
           p->has_result && p->result.identical ? "identical" : "no diff image");
    fputs("</div>\n", f);
    if (p->width && p->actual_width) { /* both decoded */
        /* Both images again, stacked: the slider uncovers actual over
         * expected, the button flicks between the two. */
        fputs("<div class=\"flick\"><div class=\"controls\">expected "
              "<input type=\"range\" class=\"slider\" min=\"0\" max=\"100\" value=\"0\" "
              "aria-label=\"expected to actual\"> actual "
              "<button type=\"button\" class=\"toggle\">flick</button>"
              "<span class=\"shown\">showing: expected</span></div>\n<div class=\"stack\">",
              f);
        for (int k = 0; k < 2; k++) {
            const char *kind = k ? "actual" : "expected";
            fprintf(f, "<img class=\"%s\" alt=\"%s\" %ssrc=\"img/%s/", k ? "over" : "under", kind,
                    lazy ? "loading=\"lazy\" " : "", kind);
            diff_url_path(f, p->name);
            fputs(k ? "\" style=\"clip-path:inset(0 100% 0 0)\">" : "\">", f);
        }
        fputs("</div></div>\n", f);
    }
    fputs("</section>\n", f);
}

int gt_diff_report_html(const char *dir, const gt_diff_batch *b, const gt_diff_options *o,
                        char *err)
{
    html h = {.dir = dir};
    size_t n = strlen(dir) + 16;
    char *index = malloc(n);
    const gt_diff_pair **order = malloc((b->n ? b->n : 1) * sizeof *order);
    if (!index || !order) {
        free(index);
        free(order);
        return diff_fail(err, "out of memory");
    }
    snprintf(index, n, "%s/index.html", dir);
    if (diff_mkdirs_for(index, err) != 0) {
        free(index);
        free(order);
        return -1;
    }
    h.f = fopen(index, "w");
    if (!h.f) {
        diff_fail(err, "%s: cannot create", index);
        free(index);
        free(order);
        return -1;
    }
    for (size_t i = 0; i < b->n; i++)
        order[i] = &b->pairs[i];
    qsort(order, b->n, sizeof *order, cmp_pairs);

    size_t pass, fail, error;
    gt_diff_batch_counts(b, &pass, &fail, &error);
    FILE *f = h.f;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
               "<title>gltrace diff: %zu of %zu differ%s</title>\n<style>\n%s</style></head>\n<body>\n",
            fail, b->n, error ? ", errors" : "", diff_html_css);
    fprintf(f, "<header><h1>gltrace diff</h1>\n<p id=\"summary\">%zu pairs: %zu passed, %zu failed, "
               "%zu error%s</p>\n",
            b->n, pass, fail, error, error == 1 ? "" : "s");
    fprintf(f, "<p>mode %s, tolerance %u, threshold %g, radius %u, anti-aliasing %s, isolated pixels %s, "
               "alpha %s",
            gt_diff_mode_name(o->mode), o->tolerance, o->threshold, o->radius,
            o->count_aa ? "counted" : "excluded", diff_ignores_isolated(o) ? "ignored" : "counted",
            o->ignore_alpha ? "ignored" : "compared");
    if (o->max_diff_pixels >= 0)
        fprintf(f, ", budget %lld pixels", (long long)o->max_diff_pixels);
    if (o->max_diff_percent >= 0)
        fprintf(f, ", budget %g%%", o->max_diff_percent);
    for (size_t i = 0; i < o->n_ignore; i++)
        fprintf(f, ", ignoring %u,%u %ux%u", o->ignore[i].x, o->ignore[i].y, o->ignore[i].w,
                o->ignore[i].h);
    fputs("</p>\n<p class=\"legend\">diff image:<span style=\"background:#f00\"></span>difference"
          "<span style=\"background:#ff0\"></span>anti-aliasing"
          "<span style=\"background:#ffbe8c\"></span>within tolerance or isolated"
          "<span style=\"background:#bfdfff\"></span>ignored</p>\n"
          "<p id=\"status\" data-state=\"loading\">loading…</p></header>\n<main>\n",
          f);
    for (size_t i = 0; i < b->n; i++)
        pair_section(&h, order[i], i);
    fprintf(f, "</main>\n<script>\n%s</script>\n</body></html>\n", diff_html_js);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        diff_fail(err, "%s: write error", index);
        free(index);
        free(order);
        return -1;
    }
    free(index);
    free(order);
    return 0;
}
