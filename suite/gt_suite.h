/* gt_suite.h: a corpus of traces replayed as one regression run.
 *
 * A suite file (YAML, suite/README.md) lists traces and, per device, what
 * their replay must give: the snapshots recorded in the trace, or a
 * checksum per snapshot. `gt_suite_run` replays each trace in a child
 * process of its own (`gltrace replay`), so that a crash or a hang is a
 * result; it writes results.csv, failures.csv, junit.xml, results.json and
 * report.html into the output folder as it goes. Shards, merging shard
 * outputs, updating checksums from a run and adding traces complete it.
 *
 * Every function returns an exit status: 0 every result as expected (or
 * the file written), 1 some result unexpected, 2 unusable input (a message
 * naming the file, and for a suite file the line and column, is printed
 * on stderr, prefixed "gltrace suite: "). Progress lines go to stderr too. */
#ifndef GT_SUITE_H
#define GT_SUITE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gt_suite_run_options {
    const char *suite;      /* the suite file */
    const char *device;     /* the device entries to use */
    const char *out_dir;    /* created if missing */
    const char *replay_exe; /* the gltrace executable children run as `EXE replay ...` */
    unsigned jobs;          /* children at once; 0: one per online CPU */
    /* This run's shard, 1-based index of total; 0/0: from the environment
     * (gt_suite_shard_from_env), else the whole suite. */
    unsigned shard_index, shard_total;
    int resume;             /* keep out_dir's results, run only the traces missing there */
    int retries;            /* reruns of an unexpected Fail or Crash; -1: the default, 1 */
    int quiet;              /* no progress line per trace */
} gt_suite_run_options;

void gt_suite_run_options_init(gt_suite_run_options *o);

int gt_suite_run(const gt_suite_run_options *o);

/* Joins the outputs of shard runs into one in out_dir (results, per-trace
 * folders and reports), as if one run had made them. */
int gt_suite_merge(const char *const *dirs, size_t ndirs, const char *out_dir);

typedef enum gt_suite_only { GT_SUITE_ONLY_MISSING, GT_SUITE_ONLY_CHANGED, GT_SUITE_ONLY_ALL } gt_suite_only;

/* Writes the checksums the run in from_dir measured into the suite file's
 * entries for `device`: those with none (missing), those that differ
 * (changed) or both (all). The file is edited in place: every other byte,
 * comments and order included, stays as it was. */
int gt_suite_update(const char *suite, const char *device, const char *from_dir, gt_suite_only only);

/* Adds the traces (not yet listed) with `expect: recorded`; creates the
 * suite file when it does not exist. */
int gt_suite_add(const char *suite, const char *const *traces, size_t ntraces);

/* "I/N", 1 <= I <= N <= 100000: 0, or -1. */
int gt_suite_shard_parse(const char *s, unsigned *index, unsigned *total);

/* The shard the CI engine's environment names: GLTRACE_SHARD ("I/N"), or
 * GitLab's CI_NODE_INDEX/CI_NODE_TOTAL (1-based), or a Kubernetes Indexed
 * Job's JOB_COMPLETION_INDEX (0-based) with GLTRACE_SHARD_TOTAL. 1 when one
 * was found (index 1-based), 0 when none is set, -1 (message in err) when
 * the variables are set but wrong. */
int gt_suite_shard_from_env(unsigned *index, unsigned *total, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
