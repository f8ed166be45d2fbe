/* st_internal.h: what the files of the suite library share. */
#ifndef ST_INTERNAL_H
#define ST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <yaml.h>

#include "gt_suite.h"

#define ST_ERR_MAX 1024

/* ---- YAML documents (st_yaml.c) ---------------------------------------- */

/* A loaded file: its text (for edits by position) and libyaml's tree. */
typedef struct st_doc {
    char *path;
    char *text;
    size_t len;
    yaml_document_t doc;
    int loaded;
} st_doc;

/* 0, or -1 with "FILE:LINE:COL: problem" in err. JSON reports load too. */
int st_doc_load(st_doc *d, const char *path, char *err);
void st_doc_free(st_doc *d);
yaml_node_t *st_node(st_doc *d, int id);
yaml_node_t *st_root(st_doc *d);
/* The value of `key` in a mapping node, or NULL. */
yaml_node_t *st_map_get(st_doc *d, yaml_node_t *map, const char *key);
/* The scalar's text (NUL-terminated by libyaml), or NULL when not a scalar. */
const char *st_scalar(yaml_node_t *n);
/* -1 with "FILE:LINE:COL: what" in err, at node n. */
int st_doc_fail(st_doc *d, yaml_node_t *n, char *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- the suite (st_suite.c) -------------------------------------------- */

enum { /* labels, as bits */
    ST_L_SKIP = 1, ST_L_FLAKY = 2, ST_L_CRASH = 4, ST_L_SLOW = 8, ST_L_TIMEOUT = 16, ST_L_FAIL = 32,
};

typedef enum st_expect { ST_EXPECT_NONE, ST_EXPECT_RECORDED, ST_EXPECT_CHECKSUMS } st_expect;

typedef struct st_strs { char **v; size_t n; } st_strs;

/* A checksum expected for one snapshot: key "CALL-WHAT" or "last". */
typedef struct st_sum { char *key, *hash; } st_sum;

/* What one trace must give on the run's device, merged from the trace's
 * own keys and its entry for the device. */
typedef struct st_trace {
    char *name;      /* the key in the file */
    char *path;      /* the file to replay (resolved; fetched for URLs) */
    char *url, *sha256;
    st_strs options, env, wrapper;
    double timeout;  /* seconds */
    st_expect expect;
    st_sum *sums;
    size_t nsums;
    unsigned labels;
    off_t size;
} st_trace;

typedef struct st_suite {
    st_doc doc;
    char *dir;           /* the suite file's folder: relative paths start there */
    char *download_url;  /* traces-db download-url, or NULL */
    st_trace *traces;
    size_t ntraces;
} st_suite;

/* Reads the suite for `device`: 0, or 2 after printing why. */
int st_suite_load(st_suite *s, const char *path, const char *device);
void st_suite_free(st_suite *s);
void st_strs_push(st_strs *s, const char *v);
void st_strs_free(st_strs *s);

/* ---- downloads (st_fetch.c, st_sha256.c) --------------------------------- */

void st_sha256_file_hex(const char *path, char out[65]);
/* Fetches url into dest with retries, checks sha256 (when not NULL). 0 or
 * -1 with the reason in err. A file already there with that checksum is kept. */
int st_fetch(const char *url, const char *sha256, const char *dest, char *err);

/* ---- results (st_result.c) --------------------------------------------- */

typedef enum st_status {
    ST_PASS, ST_FAIL, ST_CRASH, ST_TIMEOUT, ST_FLAKE, ST_SKIP, ST_EXPECTED_FAIL, ST_UNEXPECTED_PASS, ST_ERROR,
    ST_NSTATUS
} st_status;

const char *st_status_name(st_status s);
int st_status_parse(const char *name, st_status *s);
int st_status_expected(st_status s);

/* One snapshot of a replay report. */
typedef struct st_snap {
    uint64_t call, frame;
    char what[64], status[16], hash[24];
    unsigned width, height;
    char *expected_png, *actual_png, *diff_png; /* relative to the output folder, or NULL */
} st_snap;

typedef struct st_result {
    char *trace;
    st_status status;
    double seconds;
    int has_first;
    uint64_t first_call, first_frame;
    unsigned attempts;
    char *dir;       /* the trace's folder, relative to the output folder */
    char *message;
    st_snap *snaps;
    size_t nsnaps;
    /* From the report: what was compared at all (snapshots and the app's
     * pixel reads), and the reads that differ (not among snaps). */
    uint64_t compared, reads_differing;
} st_result;

typedef struct st_results {
    st_result *v;
    size_t n, cap;
    char *device;
} st_results;

st_result *st_results_push(st_results *r);
void st_result_free(st_result *x);
void st_results_free(st_results *r);
void st_results_sort(st_results *r);

/* Reads a replay JSON report into x->snaps (paths made relative to the
 * output folder through x->dir). 0, or -1 when it cannot be read. The
 * report's exit and first difference land in *exit_rc, x->first_*. */
int st_report_read(const char *out_dir, st_result *x, int *exit_rc, char *err);

/* ---- output files (st_write.c, st_html.c) ------------------------------ */

/* The per-result lines of results.csv and failures.csv: appended and
 * synced, so a killed run keeps what it wrote. */
int st_csv_open(const char *out_dir, int keep, FILE **results, FILE **failures, char *err);
void st_csv_append(FILE *results, FILE *failures, const st_result *x);
/* Reads out_dir/results.csv (complete lines only) into r. 0; -1 when absent. */
int st_csv_read(const char *out_dir, st_results *r, char *err);
/* Rewrites results.json, junit.xml and report.html from r. */
int st_write_reports(const char *out_dir, const st_results *r, char *err);
int st_write_html(const char *out_dir, const st_results *r, char *err);
/* images/index.html: the diff report of every differing snapshot of the
 * unexpected results (gt_diff_report_html, with its slider and flicker). */
int st_write_image_report(const char *out_dir, const st_results *r, char *err);

/* ---- children (st_child.c) -------------------------------------------- */

typedef struct st_child {
    int pid;
    double started, deadline;
    int timed_out, status, done;
} st_child;

double st_now(void);
/* Starts argv with env additions (K=V) in its own process group, stdout and
 * stderr into log (when not NULL). 0 or -1. */
int st_child_start(st_child *c, char *const argv[], const st_strs *env, const char *log, double timeout);
/* Waits until some child of v ends or its deadline passes (then kills its
 * group); marks done ones. Returns how many are done now. */
size_t st_child_wait(st_child **v, size_t n);
void st_child_block_sigchld(int block);

/* ---- small things (st_util.c) ------------------------------------------ */

char *st_strdup(const char *s);
char *st_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int st_mkdirs(const char *dir);
/* A folder name for a trace: its path with unsafe bytes replaced, and a hash. */
char *st_trace_dirname(const char *trace);
int st_copy_tree(const char *src, const char *dst);
void st_csv_field(FILE *f, const char *s);
void st_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
