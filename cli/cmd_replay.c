/* cmd_replay.c: `gltrace replay TRACE [options]`: re-issues a trace headless
 * and compares its snapshots; prints the summary, writes the reports. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_cli.h"
#include "gt_compare_args.h"
#include "gt_replay.h"

static const char usage_text[] =
    "usage: gltrace replay TRACE [options]\n"
    "\n"
    "Replays TRACE on EGL surfaceless (no display, no flag needed) and compares\n"
    "every recorded snapshot with the replayed pixels: byte for byte by default.\n"
    "\n"
    "selection and speed:\n"
    "  --frames A-B       compare only frames A..B (0-based; A- or -B open);\n"
    "                     replay stops after frame B\n"
    "  --calls A-B        compare only snapshots taken at calls A..B; replay\n"
    "                     stops after call B\n"
    "  --snapshot WHEN    also write PNGs (to --out) the trace did not record:\n"
    "                     frame (each back buffer before its swap), draw (the\n"
    "                     draw framebuffer after each draw or compute call), or\n"
    "                     CALLSET: after the GL calls listed, as 10,20-30,100\n"
    "  --check            also issue the queries the app made (glGet*, glIs*,\n"
    "                     glGetError, glCheckFramebufferStatus) and compare their\n"
    "                     results with the recorded ones; the first differences\n"
    "                     are reported and make the exit status 1\n"
    "  --benchmark        compare nothing; report per-frame times\n"
    "  --loop N           with --benchmark: replay the last frame N more times\n"
    "\n"
    "comparison (RGBA8 snapshots; float, integer, depth and stencil ones are\n"
    "always compared exactly), the options of gltrace diff:\n" GT_COMPARE_USAGE "\n"
    "outputs:\n"
    "  --out DIR          expected, actual and diff PNGs of differing snapshots\n"
    "  --save-all         ... of every snapshot (needs --out)\n"
    "  --json FILE        JSON report ('-' for standard output)\n"
    "  --junit FILE       JUnit XML report, a test case per snapshot\n"
    "  --progress, --no-progress\n"
    "                     a progress line (default: when stderr is a terminal)\n"
    "  -q                 no warnings\n"
    "Exit status: 0 all snapshots matched, 1 some differ, 2 the trace or the\n"
    "arguments are unusable.\n";

static int parse_u64(const char *s, size_t n, uint64_t *out);

/* "10,20-30,100" as inclusive ranges (pairs); 0, or -1 when malformed. */
static int parse_callset(const char *v, uint64_t **out, size_t *n)
{
    size_t cap = 1;
    for (const char *c = v; *c; c++)
        cap += *c == ',';
    uint64_t *r = calloc(cap * 2, sizeof *r);
    if (!r)
        return -1;
    size_t k = 0;
    for (const char *s = v;; k++) {
        const char *comma = strchr(s, ','), *end = comma ? comma : s + strlen(s);
        const char *dash = memchr(s, '-', (size_t)(end - s));
        uint64_t a, b;
        if (dash ? parse_u64(s, (size_t)(dash - s), &a) != 0 || parse_u64(dash + 1, (size_t)(end - dash - 1), &b) != 0
                 : parse_u64(s, (size_t)(end - s), &a) != 0)
            goto bad;
        if (!dash)
            b = a;
        if (a > b)
            goto bad;
        r[2 * k] = a, r[2 * k + 1] = b;
        if (!comma)
            break;
        s = comma + 1;
    }
    *out = r, *n = k + 1;
    return 0;
bad:
    free(r);
    return -1;
}

static int bad_arg(const char *fmt, const char *arg)
{
    fputs("gltrace replay: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

static int parse_u64(const char *s, size_t n, uint64_t *out)
{
    char buf[32], *end;
    if (n == 0 || n >= sizeof buf || *s == '-' || *s == '+')
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* "A-B", "A-", "-B" or "A" (just A). */
static int parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
    const char *dash = strchr(s, '-');
    *lo = 0, *hi = UINT64_MAX;
    if (!dash)
        return parse_u64(s, strlen(s), lo) != 0 ? -1 : (*hi = *lo, 0);
    if (dash == s && !s[1])
        return -1;
    if (dash > s && parse_u64(s, (size_t)(dash - s), lo) != 0)
        return -1;
    if (dash[1] && parse_u64(dash + 1, strlen(dash + 1), hi) != 0)
        return -1;
    return *lo <= *hi ? 0 : -1;
}

/* ---------------------------------------------------------------- reports */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void xml_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
                fputc(*s, f);
        }
    }
}

static const char *const verdict[] = {"matched", "differs", "not compared", "unreadable"};

static void write_json(FILE *f, const char *trace, int rc, const gt_replay_summary *s)
{
    fputs("{\"trace\": ", f);
    json_str(f, trace);
    fprintf(f, ", \"status\": \"%s\", \"exit\": %d", rc == 0 ? "matched" : rc == 1 ? "differs" : "error", rc);
    fputs(", \"error\": ", f);
    if (s->error[0])
        json_str(f, s->error);
    else
        fputs("null", f);
    fprintf(f,
            ", \"calls\": %" PRIu64 ", \"skipped\": %" PRIu64 ", \"frames\": %" PRIu64 ", \"seconds\": %.6f"
            ", \"snapshots\": %" PRIu64 ", \"matched\": %" PRIu64 ", \"differing\": %" PRIu64
            ", \"not_compared\": %" PRIu64 ", \"unreadable\": %" PRIu64 ", \"snapshot_pngs\": %" PRIu64,
            s->calls, s->skipped, s->frames, s->seconds, s->snapshots, s->matched, s->differing, s->not_compared,
            s->unreadable, s->extra_pngs);
    if (s->differing)
        fprintf(f, ", \"first_difference\": {\"call\": %" PRIu64 ", \"frame\": %" PRIu64 "}", s->first_diff_seq,
                s->first_diff_frame);
    else
        fputs(", \"first_difference\": null", f);
    fprintf(f, ", \"check\": {\"queries\": %" PRIu64 ", \"mismatches\": %" PRIu64 ", \"first\": [", s->checked,
            s->check_mismatches);
    for (size_t k = 0; k < s->nmismatches; k++) {
        const gt_replay_mismatch *x = &s->mismatches[k];
        fprintf(f, "%s{\"call\": %" PRIu64 ", \"frame\": %" PRIu64 ", \"function\": ", k ? ", " : "", x->seq, x->frame);
        json_str(f, x->function);
        fputs(", \"what\": ", f);
        json_str(f, x->what);
        fputs(", \"recorded\": ", f);
        json_str(f, x->recorded);
        fputs(", \"replayed\": ", f);
        json_str(f, x->replayed);
        fputs("}", f);
    }
    fputs("]}", f);
    fputs(", \"results\": [", f);
    for (size_t i = 0; i < s->nsnaps; i++) {
        const gt_replay_snapshot *p = &s->snaps[i];
        fprintf(f, "%s\n  {\"call\": %" PRIu64 ", \"frame\": %" PRIu64 ", \"what\": ", i ? "," : "", p->seq, p->frame);
        json_str(f, p->what);
        fprintf(f, ", \"width\": %u, \"height\": %u, \"status\": \"%s\"", p->width, p->height, verdict[p->status]);
        if (p->status == GT_REPLAY_NOT_COMPARED || p->status == GT_REPLAY_UNREADABLE) {
            fputs(", \"why\": ", f);
            json_str(f, p->message);
        } else {
            fprintf(f, ", \"identical\": %s", p->identical ? "true" : "false");
        }
        if (p->has_metrics) {
            fprintf(f, ", \"diff_pixels\": %" PRIu64 ", \"diff_percent\": %.6f, \"max_channel_diff\": %u, \"rmse\": %.6f",
                    p->diff_pixels, p->diff_percent, p->max_channel_diff, p->rmse);
            if (isfinite(p->psnr))
                fprintf(f, ", \"psnr\": %.4f", p->psnr);
            else
                fputs(", \"psnr\": null", f); /* identical within the compared region */
        }
        else if (p->status == GT_REPLAY_DIFFERS)
            fprintf(f, ", \"diff_bytes\": %" PRIu64, p->diff_pixels);
        const char *names[] = {"expected_png", "actual_png", "diff_png"};
        const char *vals[] = {p->expected_png, p->actual_png, p->diff_png};
        for (int k = 0; k < 3; k++) {
            if (vals[k][0]) {
                fprintf(f, ", \"%s\": ", names[k]);
                json_str(f, vals[k]);
            }
        }
        fputc('}', f);
    }
    fputs("]", f);
    if (s->nframe_ms) {
        fputs(", \"frame_ms\": [", f);
        for (size_t i = 0; i < s->nframe_ms; i++)
            fprintf(f, "%s%.4f", i ? ", " : "", s->frame_ms[i]);
        fputc(']', f);
    }
    fputs("}\n", f);
}

static void write_junit(FILE *f, const char *trace, const gt_replay_summary *s)
{
    size_t failures = 0, skipped = 0;
    for (size_t i = 0; i < s->nsnaps; i++) {
        failures += s->snaps[i].status == GT_REPLAY_DIFFERS || s->snaps[i].status == GT_REPLAY_UNREADABLE;
        skipped += s->snaps[i].status == GT_REPLAY_NOT_COMPARED;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"gltrace replay ", f);
    xml_str(f, trace);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"%zu\" time=\"%.3f\">\n",
            s->nsnaps + (s->error[0] ? 1 : 0) + (s->checked ? 1 : 0), failures + (s->check_mismatches ? 1 : 0),
            s->error[0] ? 1 : 0, skipped, s->seconds);
    for (size_t i = 0; i < s->nsnaps; i++) {
        const gt_replay_snapshot *p = &s->snaps[i];
        fprintf(f, "  <testcase classname=\"frame%06" PRIu64 "\" name=\"call %" PRIu64 " ", p->frame, p->seq);
        xml_str(f, p->what);
        fputs("\"", f);
        if (p->status == GT_REPLAY_MATCHED) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n    ", f);
        if (p->status == GT_REPLAY_NOT_COMPARED) {
            fputs("<skipped message=\"", f);
            xml_str(f, p->message);
            fputs("\"/>\n", f);
        } else if (p->status == GT_REPLAY_UNREADABLE) {
            fputs("<failure message=\"could not be read back: ", f);
            xml_str(f, p->message);
            fputs("\"/>\n", f);
        } else {
            char msg[512];
            if (p->has_metrics)
                snprintf(msg, sizeof msg, "%" PRIu64 " pixels differ (%.4f%%), largest channel difference %u", p->diff_pixels,
                         p->diff_percent, p->max_channel_diff);
            else
                snprintf(msg, sizeof msg, "%" PRIu64 " bytes differ", p->diff_pixels);
            fputs("<failure message=\"", f);
            xml_str(f, msg);
            fputs("\">", f);
            if (p->diff_png[0] || p->actual_png[0]) {
                fputs("expected ", f);
                xml_str(f, p->expected_png);
                fputs(", actual ", f);
                xml_str(f, p->actual_png);
                fputs(", diff ", f);
                xml_str(f, p->diff_png);
            }
            fputs("</failure>\n", f);
        }
        fputs("  </testcase>\n", f);
    }
    if (s->checked) {
        fputs("  <testcase classname=\"replay\" name=\"queries (--check)\"", f);
        if (!s->check_mismatches) {
            fputs("/>\n", f);
        } else {
            char msg[512];
            const gt_replay_mismatch *x = &s->mismatches[0];
            snprintf(msg, sizeof msg, "%" PRIu64 " of %" PRIu64 " queries gave another result; first: call %" PRIu64
                     " %s %s: recorded %s, replayed %s", s->check_mismatches, s->checked, x->seq, x->function, x->what,
                     x->recorded, x->replayed);
            fputs(">\n    <failure message=\"", f);
            xml_str(f, msg);
            fputs("\"/>\n  </testcase>\n", f);
        }
    }
    if (s->error[0]) {
        fputs("  <testcase classname=\"replay\" name=\"the whole trace\">\n    <error message=\"", f);
        xml_str(f, s->error);
        fputs("\"/>\n  </testcase>\n", f);
    }
    fputs("</testsuite>\n</testsuites>\n", f);
}

/* 0, or -1 after saying why the report could not be written. */
static int report(const char *path, const char *trace, int rc, const gt_replay_summary *s, int junit)
{
    if (!path)
        return 0;
    int to_stdout = !strcmp(path, "-");
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gltrace replay: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (junit)
        write_junit(f, trace, s);
    else
        write_json(f, trace, rc, s);
    int bad = ferror(f);
    if (!to_stdout)
        bad |= fclose(f) != 0;
    else
        bad |= fflush(f) != 0;
    if (bad) {
        fprintf(stderr, "gltrace replay: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_benchmark(const char *path, const gt_replay_summary *s)
{
    if (!s->nframe_ms) {
        fprintf(stderr, "gltrace replay: %s: no frame ended (no eglSwapBuffers); %.3f s in all\n", path, s->seconds);
        return;
    }
    double *v = malloc(s->nframe_ms * sizeof *v), sum = 0;
    if (!v)
        return;
    memcpy(v, s->frame_ms, s->nframe_ms * sizeof *v);
    qsort(v, s->nframe_ms, sizeof *v, cmp_double);
    for (size_t i = 0; i < s->nframe_ms; i++)
        sum += v[i];
    size_t n = s->nframe_ms;
    fprintf(stderr,
            "gltrace replay: %s: %zu frames in %.3f s (%.1f fps); frame time ms: median %.3f, p95 %.3f, "
            "min %.3f, max %.3f; %.3f s in all\n",
            path, n, sum / 1e3, sum > 0 ? n * 1e3 / sum : 0.0, v[n / 2], v[(n * 95) / 100 < n ? (n * 95) / 100 : n - 1],
            v[0], v[n - 1], s->seconds);
    free(v);
}

int gt_cmd_replay(int argc, char **argv)
{
    gt_replay_options o;
    gt_replay_options_init(&o);
    gt_compare_args c;
    gt_compare_args_init(&c);
    const char *path = NULL, *json = NULL, *junit = NULL;
    uint64_t *callset = NULL;
    int progress = -1, only_paths = 0;
    char err[256];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (only_paths || s[0] != '-' || !s[1]) {
            if (path)
                return bad_arg("unexpected argument '%s' (give one TRACE)", s);
            path = s;
            continue;
        }
        char opt[32];
        const char *v = NULL, *eq = strchr(s, '=');
        if (eq && s[1] == '-' && (size_t)(eq - s) < sizeof opt) {
            memcpy(opt, s, (size_t)(eq - s));
            opt[eq - s] = 0;
            v = eq + 1;
        } else {
            snprintf(opt, sizeof opt, "%s", s);
        }
        int valued = gt_compare_takes_value(opt) || !strcmp(opt, "--out") || !strcmp(opt, "--json") ||
                     !strcmp(opt, "--junit") || !strcmp(opt, "--frames") || !strcmp(opt, "--calls") ||
                     !strcmp(opt, "--loop") || !strcmp(opt, "--snapshot");
        if (valued && !v) {
            if (i + 1 == argc)
                return bad_arg("option '%s' needs a value", s);
            v = argv[++i];
        } else if (!valued && v) {
            return bad_arg("option '%s' takes no value", s);
        }
        if (!strcmp(opt, "--")) {
            only_paths = 1;
        } else if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (gt_compare_takes_value(opt)) {
            if (gt_compare_value(&c, opt, v, err, sizeof err) != 0)
                return bad_arg("%s", err);
        } else if (gt_compare_flag(&c, opt)) {
        } else if (!strcmp(opt, "--out")) {
            o.out_dir = v;
        } else if (!strcmp(opt, "--json")) {
            json = v;
        } else if (!strcmp(opt, "--junit")) {
            junit = v;
        } else if (!strcmp(opt, "--frames")) {
            if (parse_range(v, &o.frame_first, &o.frame_last) != 0)
                return bad_arg("--frames '%s': expected A-B, A-, -B or A (frame numbers from 0, A <= B)", v);
        } else if (!strcmp(opt, "--calls")) {
            if (parse_range(v, &o.call_first, &o.call_last) != 0)
                return bad_arg("--calls '%s': expected A-B, A-, -B or A (call numbers, A <= B)", v);
        } else if (!strcmp(opt, "--loop")) {
            uint64_t n;
            if (parse_u64(v, strlen(v), &n) != 0 || n == 0 || n > 1000000)
                return bad_arg("--loop '%s': expected a count 1..1000000", v);
            o.loop = (unsigned)n;
        } else if (!strcmp(opt, "--snapshot")) {
            if (!strcmp(v, "frame"))
                o.snapshot = GT_REPLAY_SNAP_FRAME;
            else if (!strcmp(v, "draw"))
                o.snapshot = GT_REPLAY_SNAP_DRAW;
            else if (parse_callset(v, &callset, &o.nsnap_calls) == 0)
                o.snapshot = GT_REPLAY_SNAP_CALLS, o.snap_calls = callset;
            else
                return bad_arg("--snapshot '%s': expected frame, draw or call numbers and ranges (10,20-30,100)", v);
        } else if (!strcmp(opt, "--check")) {
            o.check = 1;
        } else if (!strcmp(opt, "--save-all")) {
            o.save_all = 1;
        } else if (!strcmp(opt, "--benchmark")) {
            o.benchmark = 1;
        } else if (!strcmp(opt, "--progress")) {
            progress = 1;
        } else if (!strcmp(opt, "--no-progress")) {
            progress = 0;
        } else if (!strcmp(opt, "-q") || !strcmp(opt, "--quiet")) {
            o.quiet = 1;
        } else {
            return bad_arg("unknown option '%s'", s);
        }
    }
    if (!path)
        return bad_arg("%s", "missing TRACE");
    if (o.snapshot && !o.out_dir)
        return bad_arg("%s", "--snapshot writes PNGs: give --out DIR");
    if (o.check && o.benchmark)
        return bad_arg("%s", "--benchmark issues no query: no --check with it");
    if (o.snapshot && o.benchmark)
        return bad_arg("%s", "--benchmark reads nothing back: no --snapshot with it");
    if (o.save_all && !o.out_dir)
        return bad_arg("%s", "--save-all needs --out DIR");
    if (o.loop && !o.benchmark)
        return bad_arg("%s", "--loop needs --benchmark (a looped frame need not draw what was recorded)");
    if (o.benchmark && (c.given || o.out_dir))
        return bad_arg("%s", "--benchmark compares nothing: no comparison options or --out with it");
    if (gt_compare_finish(&c, err, sizeof err) != 0)
        return bad_arg("%s", err);
    if (c.given)
        o.compare = &c.o;
    o.progress = progress >= 0 ? progress : (!o.quiet && isatty(2));

    gt_replay_summary s;
    int rc = gt_replay_run(path, &o, &s);
    if (o.benchmark)
        print_benchmark(path, &s);
    else
        fprintf(stderr,
                "gltrace replay: %s: %" PRIu64 " calls (%" PRIu64 " skipped), %" PRIu64 " frames; %" PRIu64
                " snapshots: %" PRIu64 " matched, %" PRIu64 " differ, %" PRIu64 " not compared\n",
                path, s.calls, s.skipped, s.frames, s.snapshots, s.matched, s.differing, s.not_compared);
    if (s.differing)
        fprintf(stderr, "gltrace replay: first difference at call %" PRIu64 ", frame %" PRIu64 "\n", s.first_diff_seq,
                s.first_diff_frame);
    if (o.snapshot)
        fprintf(stderr, "gltrace replay: --snapshot: %" PRIu64 " PNGs written to %s\n", s.extra_pngs, o.out_dir);
    if (o.check) {
        fprintf(stderr, "gltrace replay: --check: %" PRIu64 " queries issued, %" PRIu64 " gave another result\n",
                s.checked, s.check_mismatches);
        for (size_t k = 0; k < s.nmismatches && k < 5; k++)
            fprintf(stderr, "gltrace replay:   call %" PRIu64 " (frame %" PRIu64 ") %s %s: recorded %s, replayed %s\n",
                    s.mismatches[k].seq, s.mismatches[k].frame, s.mismatches[k].function, s.mismatches[k].what,
                    s.mismatches[k].recorded, s.mismatches[k].replayed);
    }
    for (size_t k = 0; s.unreadable && k < s.nsnaps; k++) {
        const gt_replay_snapshot *u = &s.snaps[k];
        if (u->status == GT_REPLAY_UNREADABLE) {
            fprintf(stderr, "gltrace replay: %" PRIu64 " snapshots could not be read back; the first at call %" PRIu64
                            ", frame %" PRIu64 ": %s\n", s.unreadable, u->seq, u->frame, u->message);
            break;
        }
    }
    if (s.error[0])
        fprintf(stderr, "gltrace replay: %s\n", s.error);
    int ranged = o.frame_first || o.frame_last != UINT64_MAX || o.call_first || o.call_last != UINT64_MAX;
    if (!o.benchmark && ranged && rc == 0 && s.matched + s.differing == 0) {
        /* A range that misses every snapshot would pass a CI job on nothing. */
        fprintf(stderr, "gltrace replay: %s: no snapshot lies inside --frames/--calls (the trace has %" PRIu64
                        " frames)\n", path, s.frames);
        rc = 2;
    }
    if (report(json, path, rc, &s, 0) != 0 || report(junit, path, rc, &s, 1) != 0)
        rc = 2;
    gt_replay_summary_free(&s);
    free(callset);
    return rc;
}
