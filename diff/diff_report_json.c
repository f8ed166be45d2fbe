/* diff_report_json.c: the machine-readable report. One object; numbers
 * that JSON cannot hold (PSNR of equal images is infinite) are null. */
#include <math.h>
#include <stdio.h>

#include "diff_internal.h"

static const char *const status_names[] = {"pass", "fail", "error"};

static void num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

static void write_options(FILE *f, const gt_diff_options *o)
{
    fprintf(f, "  \"options\": {\"mode\": \"%s\", \"tolerance\": %u, \"threshold\": ",
            gt_diff_mode_name(o->mode), o->tolerance);
    num(f, o->threshold);
    fprintf(f, ", \"radius\": %u, \"count_aa\": %s, \"isolated\": \"%s\", \"alpha\": \"%s\", "
               "\"max_diff_pixels\": ",
            o->radius, o->count_aa ? "true" : "false", diff_ignores_isolated(o) ? "ignore" : "count",
            o->ignore_alpha ? "ignore" : "compare");
    if (o->max_diff_pixels >= 0)
        fprintf(f, "%lld", (long long)o->max_diff_pixels);
    else
        fputs("null", f);
    fputs(", \"max_diff_percent\": ", f);
    if (o->max_diff_percent >= 0)
        num(f, o->max_diff_percent);
    else
        fputs("null", f);
    fputs(", \"ignore\": [", f);
    for (size_t i = 0; i < o->n_ignore; i++) {
        const gt_diff_rect *r = &o->ignore[i];
        fprintf(f, "%s{\"x\": %u, \"y\": %u, \"w\": %u, \"h\": %u}", i ? ", " : "", r->x, r->y, r->w, r->h);
    }
    fputs("]},\n", f);
}

static void write_metrics(FILE *f, const gt_diff_result *r)
{
    fprintf(f, "{\"compared_pixels\": %llu, \"diff_pixels\": %llu, \"diff_percent\": ",
            (unsigned long long)r->compared_pixels, (unsigned long long)r->diff_pixels);
    num(f, r->diff_percent);
    fprintf(f, ", \"aa_pixels\": %llu, \"isolated_pixels\": %llu, \"max_channel_diff\": %u, \"rmse\": ",
            (unsigned long long)r->aa_pixels, (unsigned long long)r->isolated_pixels, r->max_channel_diff);
    num(f, r->rmse);
    fputs(", \"psnr\": ", f);
    num(f, r->psnr);
    fprintf(f, ", \"identical\": %s, \"bbox\": ", r->identical ? "true" : "false");
    if (r->bbox.w)
        fprintf(f, "{\"x\": %u, \"y\": %u, \"w\": %u, \"h\": %u}", r->bbox.x, r->bbox.y, r->bbox.w,
                r->bbox.h);
    else
        fputs("null", f);
    fputc('}', f);
}

int gt_diff_report_json(FILE *f, const gt_diff_batch *b, const gt_diff_options *o)
{
    size_t pass, fail, error;
    gt_diff_batch_counts(b, &pass, &fail, &error);
    fputs("{\n  \"tool\": \"gltrace diff\",\n  \"format_version\": 1,\n", f);
    write_options(f, o);
    fprintf(f, "  \"summary\": {\"pairs\": %zu, \"passed\": %zu, \"failed\": %zu, \"errors\": %zu, "
               "\"status\": \"%s\"},\n",
            b->n, pass, fail, error, error ? "error" : fail ? "fail" : "pass");
    fputs("  \"pairs\": [", f);
    for (size_t i = 0; i < b->n; i++) {
        const gt_diff_pair *p = &b->pairs[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"name\": ", f);
        gt_diff_json_str(f, p->name);
        fprintf(f, ", \"status\": \"%s\", \"message\": ", status_names[p->status]);
        gt_diff_json_str(f, p->message);
        fputs(", \"expected\": ", f);
        gt_diff_json_str(f, p->expected);
        fputs(", \"actual\": ", f);
        gt_diff_json_str(f, p->actual);
        if (p->width)
            fprintf(f, ", \"width\": %u, \"height\": %u, \"actual_width\": %u, \"actual_height\": %u",
                    p->width, p->height, p->actual_width, p->actual_height);
        fputs(", \"metrics\": ", f);
        if (p->has_result)
            write_metrics(f, &p->result);
        else
            fputs("null", f);
        fputs(", \"diff_image\": ", f);
        gt_diff_json_str(f, p->diff_image);
        fputc('}', f);
    }
    fputs(b->n ? "\n  ]\n}\n" : "]\n}\n", f);
    return ferror(f) ? -1 : 0;
}
