/* diff_report_junit.c: the report CI servers display (Jenkins, GitLab,
 * GitHub test reporters): one testcase per pair. */
#include <math.h>
#include <stdio.h>

#include "diff_internal.h"

static void metrics_text(FILE *f, const gt_diff_pair *p)
{
    if (!p->has_result)
        return;
    const gt_diff_result *r = &p->result;
    fprintf(f, "differing pixels: %llu of %llu (%.4f%%)&#10;anti-aliased pixels: %llu&#10;"
               "isolated pixels: %llu&#10;largest channel difference: %u&#10;RMSE: %.4f&#10;PSNR: ",
            (unsigned long long)r->diff_pixels, (unsigned long long)r->compared_pixels,
            r->diff_percent, (unsigned long long)r->aa_pixels, (unsigned long long)r->isolated_pixels,
            r->max_channel_diff, r->rmse);
    if (isfinite(r->psnr))
        fprintf(f, "%.2f dB", r->psnr);
    else
        fputs("infinite", f);
    if (r->bbox.w)
        fprintf(f, "&#10;bounding box: x=%u y=%u w=%u h=%u", r->bbox.x, r->bbox.y, r->bbox.w, r->bbox.h);
    fputs("&#10;", f);
}

int gt_diff_report_junit(FILE *f, const gt_diff_batch *b, const gt_diff_options *o)
{
    size_t pass, fail, error;
    gt_diff_batch_counts(b, &pass, &fail, &error);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<testsuites name=\"gltrace diff\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
            b->n, fail, error);
    fprintf(f, "  <testsuite name=\"gltrace diff (%s)\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
               "skipped=\"0\">\n",
            gt_diff_mode_name(o->mode), b->n, fail, error);
    for (size_t i = 0; i < b->n; i++) {
        const gt_diff_pair *p = &b->pairs[i];
        fputs("    <testcase classname=\"gltrace.diff\" name=\"", f);
        gt_diff_xml_str(f, p->name);
        fputc('"', f);
        if (p->status == GT_DIFF_PASS) {
            fputs(">\n      <system-out>", f);
            metrics_text(f, p);
            fputs("</system-out>\n    </testcase>\n", f);
            continue;
        }
        const char *tag = p->status == GT_DIFF_FAIL ? "failure" : "error";
        fprintf(f, ">\n      <%s message=\"", tag);
        gt_diff_xml_str(f, p->message);
        fprintf(f, "\" type=\"%s\">", p->status == GT_DIFF_FAIL ? "difference" : "unreadable");
        fputs("expected: ", f);
        gt_diff_xml_str(f, p->expected ? p->expected : "(missing)");
        fputs("&#10;actual: ", f);
        gt_diff_xml_str(f, p->actual ? p->actual : "(missing)");
        fputs("&#10;", f);
        metrics_text(f, p);
        if (p->diff_image) {
            fputs("diff image: ", f);
            gt_diff_xml_str(f, p->diff_image);
        }
        fprintf(f, "</%s>\n    </testcase>\n", tag);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return ferror(f) ? -1 : 0;
}
