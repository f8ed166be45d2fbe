/* rp_report.c: a replay's summary as the JSON and JUnit XML reports CI jobs
 * read, and the frame-time statistics of a benchmark. Strings are escaped
 * by the diff library, so that replay's and diff's reports agree on how a
 * file name or a message is written. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gt_diff.h"
#include "gt_replay.h"

static const char *const verdict[] = {"matched", "differs", "not compared", "unreadable"};

/* ---------------------------------------------------------------- JSON */

static void json_counts(FILE *f, const char *trace, int rc, const gt_replay_summary *s)
{
    fputs("{\"trace\": ", f);
    gt_diff_json_str(f, trace);
    fprintf(f, ", \"status\": \"%s\", \"exit\": %d", rc == 0 ? "matched" : rc == 1 ? "differs" : "error", rc);
    fputs(", \"error\": ", f);
    gt_diff_json_str(f, s->error[0] ? s->error : NULL);
    fprintf(f,
            ", \"calls\": %" PRIu64 ", \"skipped\": %" PRIu64 ", \"frames\": %" PRIu64 ", \"seconds\": %.6f"
            ", \"snapshots\": %" PRIu64 ", \"matched\": %" PRIu64 ", \"differing\": %" PRIu64
            ", \"not_compared\": %" PRIu64 ", \"unreadable\": %" PRIu64 ", \"snapshot_pngs\": %" PRIu64,
            s->calls, s->skipped, s->frames, s->seconds, s->snapshots, s->matched, s->differing, s->not_compared,
            s->unreadable, s->extra_pngs);
    fprintf(f, ", \"reads\": %" PRIu64 ", \"reads_matched\": %" PRIu64 ", \"reads_differing\": %" PRIu64, s->reads,
            s->reads_matched, s->reads_differing);
    if (s->differing || s->reads_differing)
        fprintf(f, ", \"first_difference\": {\"call\": %" PRIu64 ", \"frame\": %" PRIu64 "}", s->first_diff_seq,
                s->first_diff_frame);
    else
        fputs(", \"first_difference\": null", f);
}

static void json_check(FILE *f, const gt_replay_summary *s)
{
    fprintf(f, ", \"check\": {\"queries\": %" PRIu64 ", \"mismatches\": %" PRIu64 ", \"first\": [", s->checked,
            s->check_mismatches);
    for (size_t k = 0; k < s->nmismatches; k++) {
        const gt_replay_mismatch *x = &s->mismatches[k];
        fprintf(f, "%s{\"call\": %" PRIu64 ", \"frame\": %" PRIu64 ", \"function\": ", k ? ", " : "", x->seq, x->frame);
        gt_diff_json_str(f, x->function);
        fputs(", \"what\": ", f);
        gt_diff_json_str(f, x->what);
        fputs(", \"recorded\": ", f);
        gt_diff_json_str(f, x->recorded);
        fputs(", \"replayed\": ", f);
        gt_diff_json_str(f, x->replayed);
        fputs("}", f);
    }
    fputs("]}", f);
}

/* --loop: the repeats, what they compared, and for a trim how each was
 * reset (written back, or its setup replayed again and why). */
static void json_loop(FILE *f, const gt_replay_summary *s)
{
    if (!s->loop) {
        fputs(", \"loop\": null", f);
        return;
    }
    fprintf(f, ", \"loop\": {\"repeats\": %u, \"of\": \"%s\", \"compared\": %" PRIu64 ", \"matched\": %" PRIu64,
            s->loop, s->loop_range ? "trim" : "last frame", s->loop_compared, s->loop_matched);
    if (s->loop_range) {
        fprintf(f, ", \"written_back\": %u, \"reset_calls\": %" PRIu64 ", \"rebuilt\": %u, \"rebuilt_why\": ",
                s->loop_written, s->loop_reset_calls, s->loop - s->loop_written);
        gt_diff_json_str(f, s->loop_written < s->loop ? s->loop_rebuilt_why : NULL);
    }
    fputc('}', f);
}

static void json_metrics(FILE *f, const gt_replay_snapshot *p)
{
    if (p->has_metrics) {
        fprintf(f, ", \"diff_pixels\": %" PRIu64 ", \"diff_percent\": %.6f, \"max_channel_diff\": %u, \"rmse\": %.6f",
                p->diff_pixels, p->diff_percent, p->max_channel_diff, p->rmse);
        if (isfinite(p->psnr))
            fprintf(f, ", \"psnr\": %.4f", p->psnr);
        else
            fputs(", \"psnr\": null", f); /* identical within the compared region */
    } else if (p->status == GT_REPLAY_DIFFERS) {
        fprintf(f, ", \"diff_bytes\": %" PRIu64, p->diff_pixels);
    }
}

static void json_snapshot(FILE *f, const gt_replay_snapshot *p, int first)
{
    fprintf(f, "%s\n  {\"call\": %" PRIu64 ", \"frame\": %" PRIu64 ", \"what\": ", first ? "" : ",", p->seq, p->frame);
    gt_diff_json_str(f, p->what);
    fprintf(f, ", \"width\": %u, \"height\": %u, \"status\": \"%s\"", p->width, p->height, verdict[p->status]);
    if (p->status == GT_REPLAY_NOT_COMPARED || p->status == GT_REPLAY_UNREADABLE) {
        fputs(", \"why\": ", f);
        gt_diff_json_str(f, p->message);
    } else {
        fprintf(f, ", \"identical\": %s", p->identical ? "true" : "false");
    }
    json_metrics(f, p);
    const char *names[] = {"expected_png", "actual_png", "diff_png"};
    const char *vals[] = {p->expected_png, p->actual_png, p->diff_png};
    for (int k = 0; k < 3; k++) {
        if (vals[k][0]) {
            fprintf(f, ", \"%s\": ", names[k]);
            gt_diff_json_str(f, vals[k]);
        }
    }
    if (p->has_hash)
        fprintf(f, ", \"hash\": \"%016" PRIx64 "\"", p->hash);
    fputc('}', f);
}

static void write_json(FILE *f, const char *trace, int rc, const gt_replay_summary *s)
{
    json_counts(f, trace, rc, s);
    json_check(f, s);
    json_loop(f, s);
    fputs(", \"results\": [", f);
    for (size_t i = 0; i < s->nsnaps; i++)
        json_snapshot(f, &s->snaps[i], i == 0);
    fputs("]", f);
    if (s->nframe_ms) {
        fputs(", \"frame_ms\": [", f);
        for (size_t i = 0; i < s->nframe_ms; i++)
            fprintf(f, "%s%.4f", i ? ", " : "", s->frame_ms[i]);
        fputc(']', f);
    }
    fputs("}\n", f);
}

/* ---------------------------------------------------------------- JUnit */

static void junit_difference(FILE *f, const gt_replay_snapshot *p)
{
    char msg[512];
    if (p->has_metrics)
        snprintf(msg, sizeof msg, "%" PRIu64 " pixels differ (%.4f%%), largest channel difference %u", p->diff_pixels,
                 p->diff_percent, p->max_channel_diff);
    else
        snprintf(msg, sizeof msg, "%" PRIu64 " bytes differ", p->diff_pixels);
    fputs("<failure message=\"", f);
    gt_diff_xml_str(f, msg);
    fputs("\">", f);
    if (p->diff_png[0] || p->actual_png[0]) {
        fputs("expected ", f);
        gt_diff_xml_str(f, p->expected_png);
        fputs(", actual ", f);
        gt_diff_xml_str(f, p->actual_png);
        fputs(", diff ", f);
        gt_diff_xml_str(f, p->diff_png);
    }
    fputs("</failure>\n", f);
}

static void junit_snapshot(FILE *f, const gt_replay_snapshot *p)
{
    fprintf(f, "  <testcase classname=\"frame%06" PRIu64 "\" name=\"call %" PRIu64 " ", p->frame, p->seq);
    gt_diff_xml_str(f, p->what);
    fputs("\"", f);
    if (p->status == GT_REPLAY_MATCHED) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n    ", f);
    if (p->status == GT_REPLAY_NOT_COMPARED) {
        fputs("<skipped message=\"", f);
        gt_diff_xml_str(f, p->message);
        fputs("\"/>\n", f);
    } else if (p->status == GT_REPLAY_UNREADABLE) {
        fputs("<failure message=\"could not be read back: ", f);
        gt_diff_xml_str(f, p->message);
        fputs("\"/>\n", f);
    } else {
        junit_difference(f, p);
    }
    fputs("  </testcase>\n", f);
}

static void junit_check(FILE *f, const gt_replay_summary *s)
{
    fputs("  <testcase classname=\"replay\" name=\"queries (--check)\"", f);
    if (!s->check_mismatches) {
        fputs("/>\n", f);
        return;
    }
    char msg[512];
    const gt_replay_mismatch *x = &s->mismatches[0];
    snprintf(msg, sizeof msg, "%" PRIu64 " of %" PRIu64 " queries gave another result; first: call %" PRIu64
             " %s %s: recorded %s, replayed %s", s->check_mismatches, s->checked, x->seq, x->function, x->what,
             x->recorded, x->replayed);
    fputs(">\n    <failure message=\"", f);
    gt_diff_xml_str(f, msg);
    fputs("\"/>\n  </testcase>\n", f);
}

/* --loop's repeats as one test case, failed when a repeated snapshot or
 * read differed; its name says how a trim's repeats were reset. */
static void junit_loop(FILE *f, const gt_replay_summary *s)
{
    char name[512], msg[128];
    const char *what = s->loop_range ? "trim's kept calls" : "last frame";
    int n = snprintf(name, sizeof name, "--loop %u (the %s)", s->loop, what);
    if (s->loop_range && n > 0 && (size_t)n < sizeof name)
        snprintf(name + n, sizeof name - (size_t)n, ": %u reset by writing back, %u by replaying the setup again%s%s",
                 s->loop_written, s->loop - s->loop_written, s->loop_written < s->loop ? ": " : "",
                 s->loop_written < s->loop ? s->loop_rebuilt_why : "");
    fputs("  <testcase classname=\"replay\" name=\"", f);
    gt_diff_xml_str(f, name);
    if (s->loop_matched == s->loop_compared) {
        fputs("\"/>\n", f);
        return;
    }
    snprintf(msg, sizeof msg, "%" PRIu64 " of %" PRIu64 " repeated snapshots and reads differ",
             s->loop_compared - s->loop_matched, s->loop_compared);
    fputs("\">\n    <failure message=\"", f);
    gt_diff_xml_str(f, msg);
    fputs("\"/>\n  </testcase>\n", f);
}

static void write_junit(FILE *f, const char *trace, const gt_replay_summary *s)
{
    size_t failures = 0, skipped = 0;
    for (size_t i = 0; i < s->nsnaps; i++) {
        failures += s->snaps[i].status == GT_REPLAY_DIFFERS || s->snaps[i].status == GT_REPLAY_UNREADABLE;
        skipped += s->snaps[i].status == GT_REPLAY_NOT_COMPARED;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"gltrace replay ", f);
    gt_diff_xml_str(f, trace);
    int loop = s->loop && s->loop_compared; /* repeats compared (not --benchmark) */
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"%zu\" time=\"%.3f\">\n",
            s->nsnaps + (s->error[0] ? 1 : 0) + (s->checked ? 1 : 0) + (size_t)loop,
            failures + (s->check_mismatches ? 1 : 0) + (size_t)(loop && s->loop_matched != s->loop_compared),
            s->error[0] ? 1 : 0, skipped, s->seconds);
    for (size_t i = 0; i < s->nsnaps; i++)
        junit_snapshot(f, &s->snaps[i]);
    if (s->checked)
        junit_check(f, s);
    if (loop)
        junit_loop(f, s);
    if (s->error[0]) {
        fputs("  <testcase classname=\"replay\" name=\"the whole trace\">\n    <error message=\"", f);
        gt_diff_xml_str(f, s->error);
        fputs("\"/>\n  </testcase>\n", f);
    }
    fputs("</testsuite>\n</testsuites>\n", f);
}

/* ---------------------------------------------------------------- files */

int gt_replay_report_write(FILE *f, gt_replay_report_format format, const char *trace, int rc,
                           const gt_replay_summary *s)
{
    if (format == GT_REPLAY_REPORT_JUNIT)
        write_junit(f, trace, s);
    else
        write_json(f, trace, rc, s);
    return ferror(f) ? -1 : 0;
}

int gt_replay_report_save(const char *path, gt_replay_report_format format, const char *trace, int rc,
                          const gt_replay_summary *s, char *err, size_t errlen)
{
    int to_stdout = !strcmp(path, "-");
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    int bad = gt_replay_report_write(f, format, trace, rc, s) != 0;
    bad |= (to_stdout ? fflush(f) : fclose(f)) != 0;
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- frame times */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int gt_replay_frame_stats_get(const gt_replay_summary *s, gt_replay_frame_stats *st)
{
    size_t n = s->nframe_ms;
    if (!n)
        return -1;
    double *v = malloc(n * sizeof *v), sum = 0;
    if (!v)
        return -2;
    memcpy(v, s->frame_ms, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    st->frames = n;
    st->total_ms = sum;
    st->fps = sum > 0 ? n * 1e3 / sum : 0.0;
    st->median_ms = v[n / 2];
    st->p95_ms = v[(n * 95) / 100 < n ? (n * 95) / 100 : n - 1];
    st->min_ms = v[0];
    st->max_ms = v[n - 1];
    free(v);
    return 0;
}
