/* st_write.c: results.csv and failures.csv (a line per result, appended
 * and synced as each trace ends), and results.json and junit.xml
 * (rewritten whole, by rename, so a reader never sees half a file). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_diff.h"
#include "st_internal.h"

static const char csv_header[] = "trace,status,duration,first_difference,attempts,dir,message\n";

/* Cuts a line a killed run left half written. */
static void drop_partial_line(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    long last = 0, pos = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        pos++;
        if (c == '\n')
            last = pos;
    }
    fclose(f);
    if (last != pos && truncate(path, last) != 0)
        st_say("%s: cannot cut its last, partial line", path);
}

static FILE *open_csv(const char *out_dir, const char *name, int keep, char *err)
{
    char *path = st_fmt("%s/%s", out_dir, name);
    if (keep)
        drop_partial_line(path);
    FILE *f = fopen(path, keep ? "a" : "w");
    if (!f)
        snprintf(err, ST_ERR_MAX, "cannot write %s: %s", path, strerror(errno));
    else if (ftell(f) == 0)
        fputs(csv_header, f);
    free(path);
    return f;
}

int st_csv_open(const char *out_dir, int keep, FILE **results, FILE **failures, char *err)
{
    *results = open_csv(out_dir, "results.csv", keep, err);
    *failures = *results ? open_csv(out_dir, "failures.csv", keep, err) : NULL;
    if (!*failures && *results)
        fclose(*results);
    return *failures ? 0 : -1;
}

static void csv_line(FILE *f, const st_result *x)
{
    st_csv_field(f, x->trace);
    fprintf(f, ",%s,%.3f,", st_status_name(x->status), x->seconds);
    if (x->has_first)
        fprintf(f, "call %" PRIu64 " frame %" PRIu64, x->first_call, x->first_frame);
    fprintf(f, ",%u,", x->attempts);
    st_csv_field(f, x->dir);
    fputc(',', f);
    st_csv_field(f, x->message);
    fputc('\n', f);
    fflush(f);
    fsync(fileno(f));
}

void st_csv_append(FILE *results, FILE *failures, const st_result *x)
{
    csv_line(results, x);
    if (!st_status_expected(x->status))
        csv_line(failures, x);
}

/* Splits one CSV line into at most max fields (in place). */
static size_t csv_split(char *s, char **f, size_t max)
{
    size_t n = 0;
    while (n < max) {
        char *out = s;
        f[n++] = s;
        if (*s == '"') {
            for (s++; *s && !(*s == '"' && s[1] != '"'); s++)
                *out++ = *s == '"' ? *++s : *s;
            if (*s)
                s++;
        } else {
            while (*s && *s != ',')
                *out++ = *s++;
        }
        int more = *s == ',';
        *out = 0;
        if (!more)
            break;
        s++;
    }
    return n;
}

static int row(st_results *r, char *line)
{
    char *f[7];
    if (csv_split(line, f, 7) != 7)
        return -1;
    st_status st;
    if (st_status_parse(f[1], &st) != 0)
        return -1;
    st_result *x = st_results_push(r);
    x->trace = st_strdup(f[0]);
    x->status = st;
    x->seconds = strtod(f[2], NULL);
    x->has_first = sscanf(f[3], "call %" SCNu64 " frame %" SCNu64, &x->first_call, &x->first_frame) == 2;
    x->attempts = (unsigned)strtoul(f[4], NULL, 10);
    x->dir = st_strdup(f[5]);
    x->message = f[6][0] ? st_strdup(f[6]) : NULL;
    return 0;
}

int st_csv_read(const char *out_dir, st_results *r, char *err)
{
    char *path = st_fmt("%s/results.csv", out_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, ST_ERR_MAX, "%s: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] != '\n')
            break; /* cut by a killed run */
        line[len - 1] = 0;
        if (lineno++ == 0 || !line[0])
            continue;
        if (row(r, line) != 0)
            st_say("%s:%d: not a result line, left out", path, lineno);
    }
    free(line);
    fclose(f);
    free(path);
    return 0;
}

/* ---------------------------------------------------------------- reports */

static void counts(const st_results *r, size_t c[ST_NSTATUS])
{
    memset(c, 0, ST_NSTATUS * sizeof *c);
    for (size_t i = 0; i < r->n; i++)
        c[r->v[i].status]++;
}

static void json(FILE *f, const st_results *r)
{
    size_t c[ST_NSTATUS], unexpected = 0;
    counts(r, c);
    fputs("{\"device\": ", f);
    gt_diff_json_str(f, r->device);
    fputs(", \"counts\": {", f);
    for (int s = 0; s < ST_NSTATUS; s++) {
        fprintf(f, "%s\"%s\": %zu", s ? ", " : "", st_status_name((st_status)s), c[s]);
        unexpected += st_status_expected((st_status)s) ? 0 : c[s];
    }
    fprintf(f, "}, \"traces\": %zu, \"unexpected\": %zu, \"results\": [", r->n, unexpected);
    for (size_t i = 0; i < r->n; i++) {
        const st_result *x = &r->v[i];
        fprintf(f, "%s\n  {\"trace\": ", i ? "," : "");
        gt_diff_json_str(f, x->trace);
        fprintf(f, ", \"status\": \"%s\", \"expected\": %s, \"duration\": %.3f, \"attempts\": %u",
                st_status_name(x->status), st_status_expected(x->status) ? "true" : "false", x->seconds, x->attempts);
        if (x->has_first)
            fprintf(f, ", \"first_difference\": {\"call\": %" PRIu64 ", \"frame\": %" PRIu64 "}", x->first_call,
                    x->first_frame);
        else
            fputs(", \"first_difference\": null", f);
        fputs(", \"dir\": ", f);
        gt_diff_json_str(f, x->dir);
        fputs(", \"message\": ", f);
        gt_diff_json_str(f, x->message);
        fputc('}', f);
    }
    fputs("]}\n", f);
}

static void junit_case(FILE *f, const st_result *x)
{
    fputs("  <testcase classname=\"gltrace.suite\" name=\"", f);
    gt_diff_xml_str(f, x->trace);
    fprintf(f, "\" time=\"%.3f\"", x->seconds);
    const char *tag = x->status == ST_FAIL || x->status == ST_UNEXPECTED_PASS ? "failure"
                      : x->status == ST_SKIP                                 ? "skipped"
                      : st_status_expected(x->status)                        ? NULL
                                                                              : "error";
    if (!tag && x->status == ST_PASS) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n    ", f);
    if (tag) {
        fprintf(f, "<%s type=\"%s\" message=\"", tag, st_status_name(x->status));
        gt_diff_xml_str(f, x->message ? x->message : st_status_name(x->status));
        fputs("\"/>", f);
    } else {
        fprintf(f, "<system-out>%s", st_status_name(x->status));
        if (x->message) {
            fputs(": ", f);
            gt_diff_xml_str(f, x->message);
        }
        fputs("</system-out>", f);
    }
    fputs("\n  </testcase>\n", f);
}

static void junit(FILE *f, const st_results *r)
{
    size_t c[ST_NSTATUS];
    counts(r, c);
    double t = 0;
    for (size_t i = 0; i < r->n; i++)
        t += r->v[i].seconds;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"gltrace suite ", f);
    gt_diff_xml_str(f, r->device);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n", r->n,
            c[ST_FAIL] + c[ST_UNEXPECTED_PASS], c[ST_CRASH] + c[ST_TIMEOUT] + c[ST_ERROR], c[ST_SKIP], t);
    for (size_t i = 0; i < r->n; i++)
        junit_case(f, &r->v[i]);
    fputs("</testsuite>\n</testsuites>\n", f);
}

static int save(const char *out_dir, const char *name, void (*write)(FILE *, const st_results *),
                const st_results *r, char *err)
{
    char *path = st_fmt("%s/%s", out_dir, name), *tmp = st_fmt("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    if (f) {
        write(f, r);
        ok = !ferror(f) & (fclose(f) == 0) && rename(tmp, path) == 0;
    }
    if (!ok)
        snprintf(err, ST_ERR_MAX, "cannot write %s: %s", path, strerror(errno));
    free(path);
    free(tmp);
    return ok ? 0 : -1;
}

int st_write_reports(const char *out_dir, const st_results *r, char *err)
{
    if (save(out_dir, "results.json", json, r, err) != 0 || save(out_dir, "junit.xml", junit, r, err) != 0)
        return -1;
    return st_write_html(out_dir, r, err);
}
