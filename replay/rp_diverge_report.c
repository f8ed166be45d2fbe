/* rp_diverge_report.c: gltrace diverge's result as text for a person and
 * as one JSON object (strings escaped by the diff library, as every report
 * of the project). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gt_diff.h"
#include "gt_diverge.h"

static const char *label(const gt_diverge_options *o, int b)
{
    if (b && o->b_recorded)
        return "the trace's recorded snapshots";
    const char *l = b ? o->label_b : o->label_a;
    return l && l[0] ? l : "the current environment";
}

static void text_side(FILE *f, const char *name, const char *lbl, const gt_diverge_side *s)
{
    fprintf(f, "  %s (%s): ", name, lbl);
    if (s->width)
        fprintf(f, "%" PRIu32 "x%" PRIu32 ", hash %016" PRIx64 "%s%s\n", s->width, s->height, s->hash,
                s->png[0] ? ", " : "", s->png);
    else
        fputs("no picture\n", f);
}

static void text_metrics(FILE *f, const gt_diverge_result *r)
{
    if (!r->has_metrics) {
        fputs("  the two pictures could not be compared (sizes differ, or one could not be read)\n", f);
        return;
    }
    fprintf(f, "  differences: %" PRIu64 " pixels (%.3f%%), largest channel difference %u, RMSE %.3f", r->diff_pixels,
            r->diff_percent, r->max_channel_diff, r->rmse);
    if (isfinite(r->psnr))
        fprintf(f, ", PSNR %.2f dB", r->psnr);
    fprintf(f, "%s%s\n", r->diff_png[0] ? "; picture: " : "", r->diff_png);
}

static void text_found(FILE *f, const gt_diverge_options *o, const gt_diverge_result *r)
{
    const char *where = !strcmp(r->kind, "draw")        ? "the draw framebuffer after this draw"
                        : !strcmp(r->kind, "frame end") ? "the back buffer at this frame's end"
                                                        : "the recorded snapshot after this call";
    fprintf(f, "gltrace diverge: first divergence at call %" PRIu64 ", %s (frame %" PRIu64 "; compared: %s)\n",
            r->call, r->function, r->frame, where);
    if (r->what[0])
        fprintf(f, "  the recorded snapshot %s (record %" PRIu64 ") taken after it\n", r->what, r->snapshot_seq);
    if (r->note[0])
        fprintf(f, "  note: %s\n", r->note);
    text_side(f, "A", label(o, 0), &r->a);
    text_side(f, "B", label(o, 1), &r->b);
    text_metrics(f, r);
    if (r->a.state_dir[0] || r->b.state_dir[0])
        fprintf(f, "  state at the call: %s%s%s\n", r->a.state_dir, r->b.state_dir[0] ? ", " : "", r->b.state_dir);
    if (r->state_note[0])
        fprintf(f, "  state: %s\n", r->state_note);
}

int gt_diverge_report_text(FILE *f, const gt_diverge_options *o, const gt_diverge_result *r)
{
    if (r->error[0])
        fprintf(f, "gltrace diverge: %s\n", r->error);
    else if (r->found)
        text_found(f, o, r);
    else
        fprintf(f, "gltrace diverge: no divergence: A (%s) and B (%s) agree%s\n", label(o, 0), label(o, 1),
                r->note[0] ? "" : " at every point compared");
    if (!r->found && r->note[0])
        fprintf(f, "  note: %s\n", r->note);
    fprintf(f, "  compared: %" PRIu64 " frame ends, %" PRIu64 " draws, %" PRIu64 " recorded snapshots; %" PRIu64
               " differed within the tolerance\n", r->frames, r->draws, r->snapshots, r->tolerated);
    fprintf(f, "  time: %.3f s (", r->seconds);
    for (int i = 0; i < r->passes; i++)
        fprintf(f, "%spass %d %.3f s", i ? ", " : "", i + 1, r->pass_seconds[i]);
    fputs(")\n", f);
    return ferror(f) ? -1 : 0;
}

static void json_str_field(FILE *f, const char *key, const char *v)
{
    fprintf(f, ", \"%s\": ", key);
    gt_diff_json_str(f, v && v[0] ? v : NULL);
}

static void json_side(FILE *f, const char *key, const char *lbl, const gt_diverge_side *s)
{
    fprintf(f, ", \"%s\": {\"label\": ", key);
    gt_diff_json_str(f, lbl);
    fprintf(f, ", \"width\": %" PRIu32 ", \"height\": %" PRIu32 ", \"hash\": \"%016" PRIx64 "\"", s->width, s->height,
            s->hash);
    json_str_field(f, "png", s->png);
    json_str_field(f, "state", s->state_dir);
    fputc('}', f);
}

static void json_found(FILE *f, const gt_diverge_options *o, const gt_diverge_result *r)
{
    fprintf(f, ", \"divergence\": {\"call\": %" PRIu64 ", \"frame\": %" PRIu64, r->call, r->frame);
    json_str_field(f, "function", r->function);
    json_str_field(f, "kind", r->kind);
    json_str_field(f, "snapshot", r->what);
    if (r->what[0])
        fprintf(f, ", \"snapshot_record\": %" PRIu64, r->snapshot_seq);
    json_str_field(f, "note", r->note);
    json_side(f, "a", label(o, 0), &r->a);
    json_side(f, "b", label(o, 1), &r->b);
    json_str_field(f, "diff_png", r->diff_png);
    if (r->has_metrics) {
        fprintf(f, ", \"diff_pixels\": %" PRIu64 ", \"diff_percent\": %.4f, \"max_channel_diff\": %u, \"rmse\": %.4f",
                r->diff_pixels, r->diff_percent, r->max_channel_diff, r->rmse);
        if (isfinite(r->psnr))
            fprintf(f, ", \"psnr\": %.4f", r->psnr);
    }
    json_str_field(f, "state_note", r->state_note);
    fputc('}', f);
}

int gt_diverge_report_json(FILE *f, const gt_diverge_options *o, const gt_diverge_result *r, int rc)
{
    fputs("{\"trace\": ", f);
    gt_diff_json_str(f, o->trace_a);
    json_str_field(f, "trace_b", o->b_recorded ? NULL : o->trace_b);
    fprintf(f, ", \"status\": \"%s\", \"exit\": %d", rc == 0 ? "agree" : rc == 1 ? "diverge" : "error", rc);
    json_str_field(f, "a", label(o, 0));
    json_str_field(f, "b", label(o, 1));
    json_str_field(f, "error", r->error);
    if (r->found)
        json_found(f, o, r);
    else
        json_str_field(f, "note", r->note);
    fprintf(f, ", \"compared\": {\"frame_ends\": %" PRIu64 ", \"draws\": %" PRIu64 ", \"recorded_snapshots\": %" PRIu64
               ", \"within_tolerance\": %" PRIu64 "}, \"seconds\": %.3f, \"passes\": [",
            r->frames, r->draws, r->snapshots, r->tolerated, r->seconds);
    for (int i = 0; i < r->passes; i++)
        fprintf(f, "%s%.3f", i ? ", " : "", r->pass_seconds[i]);
    fputs("]}\n", f);
    return ferror(f) ? -1 : 0;
}
