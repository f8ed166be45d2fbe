/* gltrace record: runs a program with libgltrace.so preloaded. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gt_cli.h"
#include "gt_settings.h"
#include "gt_trim.h"
#include "cap_timing_file.h"

/* The help, from the settings table (proto/gt_settings.h): a flag that
 * takes one of some words shows them, others their value's name. */
static void flag_text(const gt_setting *s, int words, char *out, size_t len)
{
    size_t n = (size_t)snprintf(out, len, "%s", s->flag);
    if (s->kind == GT_SK_WORD && words) {
        for (const gt_choice *c = s->choices; c->word && n < len; c++) {
            if (c->offered)
                n += (size_t)snprintf(out + n, len - n, "%c%s", c == s->choices ? '=' : '|', c->word);
        }
    } else if (s->arg && n < len) {
        snprintf(out + n, len - n, "%c%s", s->kind == GT_SK_WORD ? '=' : ' ', s->arg);
    }
}

#define SYNOPSIS "usage: gltrace record"
#define SYNOPSIS_WIDTH 90
#define HELP_COLUMN 17

static void usage(FILE *f)
{
    size_t indent = sizeof SYNOPSIS - 1, col = indent;
    fputs(SYNOPSIS, f);
    for (int i = 0; i <= GT_NSETTINGS; i++) {
        char item[128], ft[96];
        if (i == GT_NSETTINGS) {
            snprintf(item, sizeof item, "-- PROGRAM [ARGS...]");
        } else if (gt_settings[i].flag) {
            flag_text(&gt_settings[i], 1, ft, sizeof ft);
            snprintf(item, sizeof item, "[%s]", ft);
        } else {
            continue;
        }
        if (col + 1 + strlen(item) > SYNOPSIS_WIDTH) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        }
        col += (size_t)fprintf(f, " %s", item);
    }
    fputc('\n', f);
    for (int i = 0; i < GT_NSETTINGS; i++) {
        if (!gt_settings[i].flag)
            continue;
        char ft[96];
        flag_text(&gt_settings[i], 0, ft, sizeof ft);
        fprintf(f, "  %-*s", HELP_COLUMN - 4, ft);
        for (const char *line = gt_settings[i].help; *line;) {
            size_t n = strcspn(line, "\n");
            fprintf(f, "%*s%.*s\n", line == gt_settings[i].help ? 2 : HELP_COLUMN, "", (int)n, line);
            line += n + (line[n] == '\n');
        }
    }
    fprintf(f, "  %-*s  keep frames N.. only: the run is recorded in full, then trimmed (gltrace trim)\n"
               "  %-*s  and only K frames from N\n", HELP_COLUMN - 4, "--start-frame N", HELP_COLUMN - 4, "--frames K");
    fputs("Exits with PROGRAM's exit status; 3 when it exits 0 but --start-frame's frames could not be cut out\n"
          "of its run (too few frames, or a trim that did not replay exactly: the whole trace is left).\n", f);
}

/* libgltrace.so beside this executable (build tree), or where the install
 * put it: GT_CAPTURE_LIBRARY, relative to this executable's folder or
 * absolute, comes from the build (cmake/install_dirs.cmake). */
#ifndef GT_CAPTURE_LIBRARY
#error "GT_CAPTURE_LIBRARY: the build defines where the install puts libgltrace.so"
#endif
static int find_library(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = 0;
    int k = snprintf(out, len, "%s/libgltrace.so", exe);
    if (k > 0 && (size_t)k < len && access(out, R_OK) == 0)
        return 0;
    const char *installed = GT_CAPTURE_LIBRARY;
    k = installed[0] == '/' ? snprintf(out, len, "%s", installed) : snprintf(out, len, "%s/%s", exe, installed);
    return k > 0 && (size_t)k < len && access(out, R_OK) == 0 ? 0 : -1;
}

/* mkdir -p: a folder given to -o may be several levels deep. */
static int make_dirs(const char *path)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p)
        return -1;
    for (char *c = p + 1; *c; c++) {
        if (*c == '/') {
            *c = 0;
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return -1;
            *c = '/';
        }
    }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* A file still locked by a process of the run (one that outlived the
 * program we started) is still being written. */
static int busy(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int b = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return b;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether a file busy at first became free before the deadline: a GPU
 * process outlives the browser that started it by a moment, and its trace
 * is whole only once it has exited. One deadline for the whole run, so
 * many such files cost --linger at most, not --linger each. */
static int wait_free(const char *path, double deadline)
{
    if (!busy(path))
        return 1;
    fprintf(stderr, "gltrace: %s is still being written by a process of the run; waiting up to %.0f s\n", path,
            deadline > now_s() ? deadline - now_s() : 0.0);
    while (now_s() < deadline) {
        struct timespec step = {0, 50 * 1000 * 1000};
        nanosleep(&step, NULL);
        if (!busy(path))
            return 1;
    }
    return 0;
}

/* One run of `gltrace record`, step by step. */
typedef struct record_run {
    const char *val[GT_NSETTINGS]; /* the flags given (a switch: "1"), by setting */
    char **program;                /* PROGRAM [ARGS...] */
    int full, timed;               /* a trace file (not a host's), a timing file */
    const char *out;               /* where the output goes, absolute */
    char *abs;                     /* out, when we made it absolute */
    char path[PATH_MAX];           /* out, when we named it */
    int pattern, folder;           /* out is a %p/%n pattern, a folder */
    char list[32];                 /* the files the run made (cap_out_announce) */
    int list_fd;
    pid_t pid;
    const char *start_frame, *frames; /* --start-frame N [--frames K]: trimmed at the end */
    gt_trim_options trim;
} record_run;

/* Whether argv[*i] is a flag of the table; sets its value (taking the
 * next argument where the flag has one). -1: not one. */
static int take_flag(char **argv, int argc, int *i, record_run *r)
{
    const char *a = argv[*i];
    for (int id = 0; id < GT_NSETTINGS; id++) {
        const gt_setting *s = &gt_settings[id];
        size_t fl = s->flag ? strlen(s->flag) : 0;
        if (!s->flag || strncmp(a, s->flag, fl) != 0)
            continue;
        if (!s->arg && !a[fl])
            r->val[id] = "1";
        else if (s->kind == GT_SK_WORD && a[fl] == '=')
            r->val[id] = a + fl + 1;
        else if (s->arg && !a[fl] && *i + 1 < argc)
            r->val[id] = argv[++*i];
        else
            continue;
        return id;
    }
    return -1;
}

/* The options, up to the program. -1: go on; else the exit status. */
static int parse_args(int argc, char **argv, record_run *r)
{
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (argv[i][0] != '-')
            break; /* the program, without a '--' */
        if ((!strcmp(argv[i], "--start-frame") || !strcmp(argv[i], "--frames")) && i + 1 < argc) {
            *(argv[i][2] == 's' ? &r->start_frame : &r->frames) = argv[i + 1];
            i++;
            continue;
        }
        int id = take_flag(argv, argc, &i, r);
        if (id < 0) {
            fprintf(stderr, "gltrace record: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
        if (!gt_setting_flag_ok(id, r->val[id])) {
            char why[256];
            gt_setting_flag_error(id, r->val[id], why, sizeof why);
            fprintf(stderr, "gltrace record: %s\n", why);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "gltrace record: no program given\n");
        usage(stderr);
        return 2;
    }
    r->program = argv + i;
    return -1;
}

/* --start-frame N [--frames K]: the frames a trim of the whole run keeps
 * (every call recorded, the snapshots from frame N - 1 on, and trimmed
 * once the program is gone: capture has no tracking of the state with
 * writing off yet). -1: go on; else 2. */
static int check_trim_args(record_run *r)
{
    char *end;
    gt_trim_options_init(&r->trim);
    unsigned long long n = r->start_frame ? strtoull(r->start_frame, &end, 10) : 0, k = 0;
    if (!r->start_frame || !*r->start_frame || *end || r->start_frame[0] == '-') {
        fprintf(stderr, "gltrace record: %s\n", r->start_frame ? "--start-frame takes a frame number"
                                                                 : "--frames needs --start-frame");
        return 2;
    }
    if (r->frames && (!*r->frames || r->frames[0] == '-' || (k = strtoull(r->frames, &end, 10)) == 0 || *end)) {
        fprintf(stderr, "gltrace record: --frames takes a number of frames (1 or more), not '%s'\n", r->frames);
        return 2;
    }
    if (!r->full) {
        fprintf(stderr, "gltrace record: --start-frame needs a trace file (--mode=full, no --listen)\n");
        return 2;
    }
    r->trim.frame_first = n;
    r->trim.frame_last = k ? n + k - 1 : UINT64_MAX;
    return -1;
}

/* Flags that only make sense together. -1: go on; else the exit status. */
static int check_args(record_run *r)
{
    const char *mode = r->val[GT_SET_MODE] ? r->val[GT_SET_MODE] : gt_setting_default(GT_SET_MODE);
    if (r->val[GT_SET_TIMING] && strcmp(mode, "timing") != 0) {
        fprintf(stderr, "gltrace record: --timing needs --mode=timing\n");
        return 2;
    }
    if (r->val[GT_SET_LISTEN] && (strcmp(mode, "full") != 0 || r->val[GT_SET_OUT])) {
        fprintf(stderr, "gltrace record: --listen records through a host: no --mode other than full, no -o "
                        "(gltrace connect -o names the file)\n");
        return 2;
    }
    /* Listening, the trace is the host's: no file here. */
    r->full = strcmp(mode, "full") == 0 && !r->val[GT_SET_LISTEN];
    if (r->start_frame || r->frames)
        return check_trim_args(r);
    r->timed = strcmp(mode, "timing") == 0;
    return -1;
}

/* Where the output goes, as the library reads GLTRACE_OUT
 * (capture/cap_outpath.c): a pattern, a folder, or one file; absolute, as
 * the app may change directory. */
static void plan_output(record_run *r)
{
    const char *out = r->val[GT_SET_OUT];
    if (!out) {
        const char *base = strrchr(r->program[0], '/');
        snprintf(r->path, sizeof r->path, "%s%s", base ? base + 1 : r->program[0], r->timed ? ".json" : ".gltrace");
        out = r->path;
    }
    char cwd[PATH_MAX];
    if (out[0] != '/' && getcwd(cwd, sizeof cwd) && asprintf(&r->abs, "%s/%s", cwd, out) > 0)
        out = r->abs;
    struct stat st;
    r->out = out;
    r->pattern = strchr(out, '%') != NULL;
    r->folder = !r->pattern && (out[strlen(out) - 1] == '/' || (stat(out, &st) == 0 && S_ISDIR(st.st_mode)));
}

/* The output's folders made, a single file's path tried, the list of
 * files opened: fail here, clearly, rather than in the app. 0, or -1. */
static int prepare_output(record_run *r)
{
    const char *out = r->out;
    if (r->folder && make_dirs(out) != 0) {
        fprintf(stderr, "gltrace record: cannot create the folder %s: %s\n", out, strerror(errno));
        return -1;
    }
    /* A pattern's folder, when it has no pattern in it, is made too. */
    const char *slash = r->pattern ? strrchr(out, '/') : NULL;
    if (slash && slash != out && !memchr(out, '%', (size_t)(slash - out))) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
        if (make_dirs(dir) != 0) {
            fprintf(stderr, "gltrace record: cannot create the folder %s: %s\n", dir, strerror(errno));
            return -1;
        }
    }
    if (!r->folder && !r->pattern) {
        FILE *probe = fopen(out, "wb");
        if (!probe) {
            fprintf(stderr, "gltrace record: cannot write %s: %s\n", out, strerror(errno));
            return -1;
        }
        fclose(probe);
    }
    /* Each traced process adds the file it made (cap_out_announce). */
    snprintf(r->list, sizeof r->list, "/tmp/gltrace-record-XXXXXX");
    r->list_fd = mkstemp(r->list);
    if (r->list_fd < 0) {
        fprintf(stderr, "gltrace record: cannot create %s: %s\n", r->list, strerror(errno));
        return -1;
    }
    return 0;
}

static void set_var(gt_setting_id id, const char *value)
{
    setenv(gt_settings[id].var, value, 1);
}

/* The library preloaded, and every GLTRACE_* variable as the settings
 * table says: a flag given sets its variable; without it, the variable
 * keeps the environment's value, takes its default or goes. 0, or -1. */
static int set_environment(const record_run *r, const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    char *preload = NULL;
    if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "") < 0)
        return -1;
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    const char *val[GT_NSETTINGS];
    memcpy(val, r->val, sizeof val);
    val[GT_SET_OUT] = r->full || r->timed ? r->out : NULL;
    if (r->timed && !val[GT_SET_TIMING])
        val[GT_SET_TIMING] = gt_setting_default(GT_SET_TIMING);
    for (int id = 0; id < GT_NSETTINGS; id++) {
        const gt_setting *s = &gt_settings[id];
        if (!s->var || !s->flag)
            continue;
        if (val[id])
            set_var(id, val[id]);
        else if (s->absent == GT_ABSENT_DEFAULT)
            set_var(id, gt_setting_default(id));
        else if (s->absent == GT_ABSENT_UNSET)
            unsetenv(s->var);
    }
    if (r->list_fd >= 0)
        set_var(GT_SET_RECORD_LIST, r->list);
    /* --start-frame: the frames before it take no snapshot, which their
     * trim would leave out; without it, every frame takes its own. */
    if (r->start_frame)
        set_var(GT_SET_START_FRAME, r->start_frame);
    else
        unsetenv(gt_settings[GT_SET_START_FRAME].var);
    /* --frames K: nothing after the kept frames is recorded (one frame
     * more, as the start is one early), so a long run costs its start. */
    char stop[32];
    snprintf(stop, sizeof stop, "%llu", (unsigned long long)(r->trim.frame_last + 1));
    if (r->start_frame && r->frames)
        set_var(GT_SET_STOP_FRAME, stop);
    else
        unsetenv(gt_settings[GT_SET_STOP_FRAME].var);
    return 0;
}

/* Removes what the run made that holds nothing: the list of files, and
 * the file -o named, made empty to fail early on an unwritable path. */
static void remove_unused(const record_run *r)
{
    if (r->list_fd >= 0) {
        close(r->list_fd);
        unlink(r->list);
    }
    if ((r->full || r->timed) && !r->folder && !r->pattern)
        unlink(r->out);
}

/* Forks and runs the program. The child reports a failed exec through a
 * close-on-exec pipe, so a program that cannot start is told apart from
 * one that exits 127. -1: started; else the exit status. */
static int run_child(record_run *r)
{
    int exec_pipe[2];
    if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
        fprintf(stderr, "gltrace record: pipe: %s\n", strerror(errno));
        return 2;
    }
    r->pid = fork();
    if (r->pid < 0) {
        fprintf(stderr, "gltrace record: fork: %s\n", strerror(errno));
        return 2;
    }
    if (r->pid == 0) {
        if (r->list_fd >= 0)
            close(r->list_fd);
        close(exec_pipe[0]);
        execvp(r->program[0], r->program);
        int e = errno;
        if (write(exec_pipe[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(exec_pipe[1]);
    int exec_errno = 0;
    ssize_t got;
    while ((got = read(exec_pipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR)
        ;
    close(exec_pipe[0]);
    if (got != (ssize_t)sizeof exec_errno)
        return -1;
    fprintf(stderr, "gltrace record: cannot run %s: %s\n", r->program[0], strerror(exec_errno));
    waitpid(r->pid, NULL, 0);
    remove_unused(r);
    return 127;
}

/* Waits for the program; the child owns the terminal's signals. 0 and
 * *status, or -1. */
static int wait_child(const record_run *r, int *status)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    while (waitpid(r->pid, status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "gltrace record: waitpid: %s\n", strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* The files the run made: every file a process announced, once each (a
 * name twice would be compacted twice), a line each. *out_announced: the
 * file -o named was among them. */
static char *announced_files(record_run *r, int *out_announced)
{
    char *names = NULL;
    size_t names_len = 0;
    *out_announced = 0;
    if (r->list_fd < 0)
        return NULL;
    FILE *lf = fdopen(r->list_fd, "r");
    if (lf) {
        FILE *mem = open_memstream(&names, &names_len);
        char line[PATH_MAX + 2];
        while (mem && fgets(line, sizeof line, lf)) {
            line[strcspn(line, "\n")] = 0;
            if (!r->folder && !r->pattern && strcmp(line, r->out) == 0 && (*out_announced)++)
                continue;
            fprintf(mem, "%s\n", line);
        }
        if (mem)
            fclose(mem);
        fclose(lf);
    }
    r->list_fd = -1;
    unlink(r->list);
    return names;
}

/* --start-frame: the run's trace replaced by its trim (the whole one is
 * left as it is when the trim fails or does not replay exactly: -1). */
static int trim_file(const record_run *r, const char *name)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.trimming", name);
    gt_trim_summary s;
    int rc = gt_trim_run(name, tmp, &r->trim, &s);
    if (rc == 0 && rename(tmp, name) == 0) {
        fprintf(stderr, "gltrace record: kept %llu frames from frame %s (calls %llu-%llu of the run), %llu bytes of "
                "the whole run's %llu\n", (unsigned long long)s.frames, r->start_frame, (unsigned long long)s.first_call,
                (unsigned long long)s.last_call, (unsigned long long)s.out_bytes, (unsigned long long)s.in_bytes);
        return 0;
    }
    remove(tmp);
    fprintf(stderr, "gltrace record: %s left whole: %s; its frames before %s took no snapshot\n", name,
            rc == 2 ? s.error : "its trim at --start-frame did not replay exactly (gltrace trim says more)",
            r->start_frame);
    return -1;
}

/* One file of the run, its process gone: a trace compacted, a timing
 * file's JSON closed if it was cut short. -1: --start-frame's trim of it
 * could not be made. */
static int finish_file(const record_run *r, const char *name, int level, double deadline)
{
    if (!wait_free(name, deadline)) {
        fprintf(stderr, "gltrace: %s is still being written by a process of the run after --linger; left as it is\n",
                name);
        return r->start_frame ? -1 : 0;
    }
    /* Nothing is at risk any more, so the many small chunks written for
     * crash safety become a few large ones, which compress far better. A
     * trace whose capture did not finish (_exit, a crash: no seek index)
     * is left as it is. */
    char err[512];
    if (r->full && !r->val[GT_SET_NO_COMPACT] && gt_compact_in_place(name, level, err, sizeof err) == -1)
        fprintf(stderr, "gltrace record: trace left uncompacted: %s\n", err);
    int rc = r->start_frame ? trim_file(r, name) : 0;
    int closed = r->timed ? cap_timing_file_close(name) : CAP_TIMING_FILE_WHOLE;
    if (closed != CAP_TIMING_FILE_WHOLE)
        fprintf(stderr, "gltrace record: %s was cut short (the process was killed); closed its JSON%s\n", name,
                closed == CAP_TIMING_FILE_TORN ? ", less a torn last slice" : "");
    struct stat st;
    if (stat(name, &st) == 0)
        fprintf(stderr, "gltrace: wrote %s (%lld bytes)\n", name, (long long)st.st_size);
    return rc;
}

/* Every file of the run finished, and what the run leaves said. -1: a
 * --start-frame trim could not be made. */
static int finish_outputs(record_run *r)
{
    int out_announced;
    char *names = announced_files(r, &out_announced);
    long level;
    gt_setting_parse(GT_SET_LEVEL, r->val[GT_SET_LEVEL], &level);
    long linger;
    gt_setting_parse(GT_SET_LINGER, r->val[GT_SET_LINGER], &linger);
    double deadline = now_s() + (double)linger;
    int nfiles = 0, rc = 0;
    for (char *name = names, *nl; name && (nl = strchr(name, '\n')); name = nl + 1) {
        *nl = 0;
        nfiles++;
        rc |= finish_file(r, name, (int)level, deadline);
    }
    free(names);
    /* The file -o named, made empty above: no process of the run used GL,
     * so there is no trace, and an empty file would only look like one. */
    struct stat st;
    if ((r->full || r->timed) && !r->folder && !r->pattern && !out_announced && stat(r->out, &st) == 0 &&
        st.st_size == 0)
        unlink(r->out);
    if ((r->full || r->timed) && nfiles == 0)
        fprintf(stderr, "gltrace: no process of the run used GL or EGL; no trace written to %s\n", r->out);
    return rc;
}

/* The program's exit status as ours. */
static int exit_status(const record_run *r, int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "gltrace record: %s was killed by signal %d\n", r->program[0], WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return 2;
}

/* The steps up to the program's end. -1: it ran; else the exit status. */
static int start_and_wait(record_run *r, int *status)
{
    int done = check_args(r);
    if (done >= 0)
        return done;
    char lib[PATH_MAX];
    if (find_library(lib, sizeof lib) != 0) {
        fprintf(stderr, "gltrace record: libgltrace.so not found beside the gltrace executable\n");
        return 2;
    }
    plan_output(r);
    if ((r->full || r->timed) && prepare_output(r) != 0)
        return 2;
    if (set_environment(r, lib) != 0)
        return 2;
    if ((done = run_child(r)) >= 0)
        return done;
    return wait_child(r, status) == 0 ? -1 : 2;
}

int gt_cmd_record(int argc, char **argv)
{
    record_run r = {.list_fd = -1};
    int done = parse_args(argc, argv, &r);
    if (done >= 0)
        return done;
    int status = 0;
    done = start_and_wait(&r, &status);
    if (done < 0) {
        int trimmed = finish_outputs(&r);
        done = exit_status(&r, status);
        if (done == 0 && trimmed != 0)
            done = 3; /* the program ran, but the frames asked for were not cut out of its run */
    }
    free(r.abs);
    return done;
}
