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
#include <unistd.h>

#include "gt_cli.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace record [-o OUT] [--mode=full|error|timing] [--timing=calls|draws]\n"
            "                      [--proc NAME] [--fb=swap|draw|none] [--fb-depth] [--textures]\n"
            "                      [--threadtime] [--level N] [--listen TARGET] -- PROGRAM [ARGS...]\n"
            "  -o OUT         where the trace goes (default: PROGRAM's name + .gltrace, or\n"
            "                 .json with --mode=timing, in the current folder; an existing\n"
            "                 file is replaced). OUT may also be\n"
            "                   a folder (an existing one, or a path ending in '/', created):\n"
            "                   each process that uses GL writes NAME.PID.gltrace there\n"
            "                   (NAME.PID.json when timing), NAME being its argv[0]'s last\n"
            "                   part; processes that never call GL or EGL leave no file\n"
            "                 a pattern: %p is the pid, %n the process name, %% a '%',\n"
            "                   as in -o 'traces/%n-%p.gltrace'\n"
            "                 One file per process either way, so `gltrace record -o traces/\n"
            "                 -- ctest` leaves a trace of every test program that used GL.\n"
            "  --mode=MODE    full: record every call into a trace (the default)\n"
            "                 error: no trace; after each GL call, glGetError: each error\n"
            "                 is one line on stderr (the call and its arguments, the error,\n"
            "                 the app's backtrace) and a summary per function at exit; the\n"
            "                 app's own glGetError still sees its errors\n"
            "                 timing: Chrome trace-event JSON (Perfetto, chrome://tracing),\n"
            "                 a slice per frame (swap to swap, per thread) and per call\n"
            "  --timing=WHAT  with --mode=timing: a slice per GL/EGL call (calls, the\n"
            "                 default) or per draw and compute dispatch only (draws)\n"
            "  --proc NAME    trace only the processes named NAME (the last part of their\n"
            "                 argv[0]); the others run untouched\n"
            "  --fb=WHEN      framebuffer snapshots: at each eglSwapBuffers (swap, the\n"
            "                 default), also after every draw call (draw), or none\n"
            "  --fb-depth     with each framebuffer snapshot, its depth (32-bit integers) and\n"
            "                 stencil (bytes) too, where the driver can read them\n"
            "  --textures     at each swap, also the textures drawn into since the last\n"
            "                 one (needs GLES 3.1)\n"
            "  --threadtime   also record each call's thread CPU time (costs a syscall per call;\n"
            "                 with --mode=timing: tts/tdur on call slices, frames always have them)\n"
            "  --no-compact   keep the trace as capture wrote it (a chunk per swap and per\n"
            "                 100 ms) instead of rewriting it in large chunks at the end\n"
            "  --level N      zstd level for the trace (default 3)\n"
            "  --listen TARGET  no trace at start: the app serves a host instead, which\n"
            "                 starts and stops tracing and receives the trace (`gltrace\n"
            "                 connect TARGET`); TARGET is unix:PATH, abstract:NAME or\n"
            "                 tcp:PORT (127.0.0.1; a token is printed), ',wait' after it\n"
            "                 makes the app wait for a host's start at its first GL call\n"
            "Exits with PROGRAM's exit status.\n", f);
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

/* Closes the JSON of a timing file whose process died before it could
 * (SIGKILL, _exit): the library writes one slice per line, so what follows
 * the last newline is a slice torn by the kill; it goes, and "]}" ends the
 * list (capture/gt_timing.c). */
static void close_timing_json(const char *path)
{
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return;
    char buf[4096];
    off_t size = lseek(fd, 0, SEEK_END), end = size;
    ssize_t n = pread(fd, buf, 3 < size ? 3 : (size_t)size, size < 3 ? 0 : size - 3);
    if (n == 3 && memcmp(buf, "]}\n", 3) == 0) {
        close(fd);
        return; /* closed by the library */
    }
    /* The last newline, searching backwards a block at a time. */
    off_t keep = -1;
    while (end > 0 && keep < 0) {
        off_t from = end > (off_t)sizeof buf ? end - (off_t)sizeof buf : 0;
        n = pread(fd, buf, (size_t)(end - from), from);
        if (n <= 0)
            break;
        for (ssize_t k = n - 1; k >= 0; k--) {
            if (buf[k] == '\n') {
                keep = from + k + 1;
                break;
            }
        }
        end = from;
    }
    static const char closing[] = "]}\n";
    if (keep > 0 && ftruncate(fd, keep) == 0 &&
        pwrite(fd, closing, sizeof closing - 1, keep) == (ssize_t)(sizeof closing - 1))
        fprintf(stderr, "gltrace record: %s was cut short (the process was killed); closed its JSON%s\n", path,
                keep < size ? ", less a torn last slice" : "");
    close(fd);
}

/* A file still locked by a process of the run (one that outlived the
 * program we started) is still being written: it is left alone. */
static int busy(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int b = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return b;
}

int gt_cmd_record(int argc, char **argv)
{
    const char *out = NULL, *level = NULL, *fb = NULL, *mode = "full", *timing = NULL, *proc = NULL, *listen_on = NULL;
    int threadtime = 0, textures = 0, compact = 1, fb_depth = 0, i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--level") == 0 && i + 1 < argc) {
            level = argv[++i];
            char *end;
            long v = strtol(level, &end, 10);
            if (*end || v < -7 || v > 19) {
                fprintf(stderr, "gltrace record: --level takes a zstd level from -7 to 19, not '%s'\n", level);
                return 2;
            }
        } else if (strncmp(argv[i], "--fb=", 5) == 0 || (strcmp(argv[i], "--fb") == 0 && i + 1 < argc)) {
            fb = argv[i][4] == '=' ? argv[i] + 5 : argv[++i];
            if (strcmp(fb, "swap") != 0 && strcmp(fb, "draw") != 0 && strcmp(fb, "none") != 0) {
                fprintf(stderr, "gltrace record: --fb takes swap, draw or none, not '%s'\n", fb);
                return 2;
            }
        } else if (strncmp(argv[i], "--mode=", 7) == 0 || (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)) {
            mode = argv[i][6] == '=' ? argv[i] + 7 : argv[++i];
            if (strcmp(mode, "full") != 0 && strcmp(mode, "error") != 0 && strcmp(mode, "timing") != 0) {
                fprintf(stderr, "gltrace record: --mode takes full, error or timing, not '%s'\n", mode);
                return 2;
            }
        } else if (strncmp(argv[i], "--timing=", 9) == 0 || (strcmp(argv[i], "--timing") == 0 && i + 1 < argc)) {
            timing = argv[i][8] == '=' ? argv[i] + 9 : argv[++i];
            if (strcmp(timing, "calls") != 0 && strcmp(timing, "draws") != 0) {
                fprintf(stderr, "gltrace record: --timing takes calls or draws, not '%s'\n", timing);
                return 2;
            }
        } else if (strcmp(argv[i], "--proc") == 0 && i + 1 < argc) {
            proc = argv[++i];
        } else if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc) {
            listen_on = argv[++i];
        } else if (strcmp(argv[i], "--no-compact") == 0) {
            compact = 0;
        } else if (strcmp(argv[i], "--fb-depth") == 0) {
            fb_depth = 1;
        } else if (strcmp(argv[i], "--textures") == 0) {
            textures = 1;
        } else if (strcmp(argv[i], "--threadtime") == 0) {
            threadtime = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "gltrace record: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            break; /* the program, without a '--' */
        }
    }
    if (i >= argc) {
        fprintf(stderr, "gltrace record: no program given\n");
        usage(stderr);
        return 2;
    }
    if (timing && strcmp(mode, "timing") != 0) {
        fprintf(stderr, "gltrace record: --timing needs --mode=timing\n");
        return 2;
    }
    char lib[PATH_MAX];
    if (find_library(lib, sizeof lib) != 0) {
        fprintf(stderr, "gltrace record: libgltrace.so not found beside the gltrace executable\n");
        return 2;
    }
    if (listen_on && (strcmp(mode, "full") != 0 || out)) {
        fprintf(stderr, "gltrace record: --listen records through a host: no --mode other than full, no -o "
                        "(gltrace connect -o names the file)\n");
        return 2;
    }
    /* Listening, the trace is the host's: no file here. */
    int full = strcmp(mode, "full") == 0 && !listen_on, timed = strcmp(mode, "timing") == 0;
    const char *ext = timed ? ".json" : ".gltrace";
    char path[PATH_MAX];
    if (!out) {
        const char *base = strrchr(argv[i], '/');
        snprintf(path, sizeof path, "%s%s", base ? base + 1 : argv[i], ext);
        out = path;
    }
    /* The app may change directory: give it an absolute path. */
    char *abs = NULL;
    char cwd[PATH_MAX];
    if (out[0] != '/' && getcwd(cwd, sizeof cwd) && asprintf(&abs, "%s/%s", cwd, out) > 0)
        out = abs;
    /* Where the output goes, as the library reads GLTRACE_OUT
     * (capture/gt_outpath.c): a pattern, a folder, or one file. */
    struct stat st;
    size_t olen = strlen(out);
    int pattern = strchr(out, '%') != NULL;
    int folder = !pattern && (out[olen - 1] == '/' || (stat(out, &st) == 0 && S_ISDIR(st.st_mode)));
    char list[] = "/tmp/gltrace-record-XXXXXX";
    int list_fd = -1;
    if (full || timed) {
        /* Fail here, clearly, rather than in the app. */
        if (folder && make_dirs(out) != 0) {
            fprintf(stderr, "gltrace record: cannot create the folder %s: %s\n", out, strerror(errno));
            return 2;
        }
        /* A pattern's folder, when it has no pattern in it, is made too. */
        char *slash = pattern ? strrchr(out, '/') : NULL;
        if (slash && slash != out && !memchr(out, '%', (size_t)(slash - out))) {
            char dir[PATH_MAX];
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
            if (make_dirs(dir) != 0) {
                fprintf(stderr, "gltrace record: cannot create the folder %s: %s\n", dir, strerror(errno));
                return 2;
            }
        }
        if (!folder && !pattern) {
            FILE *probe = fopen(out, "wb");
            if (!probe) {
                fprintf(stderr, "gltrace record: cannot write %s: %s\n", out, strerror(errno));
                return 2;
            }
            fclose(probe);
        }
        /* Each traced process adds the file it made (gt_out_announce). */
        list_fd = mkstemp(list);
        if (list_fd < 0) {
            fprintf(stderr, "gltrace record: cannot create %s: %s\n", list, strerror(errno));
            return 2;
        }
        setenv("GLTRACE_RECORD_LIST", list, 1);
    }

    const char *old = getenv("LD_PRELOAD");
    char *preload = NULL;
    if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "") < 0)
        return 2;
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    setenv("GLTRACE", mode, 1);
    if (full || timed)
        setenv("GLTRACE_OUT", out, 1);
    if (listen_on)
        setenv("GLTRACE_LISTEN", listen_on, 1);
    else
        unsetenv("GLTRACE_LISTEN");
    if (timed)
        setenv("GLTRACE_TIMING", timing ? timing : "calls", 1);
    if (proc)
        setenv("GLTRACE_PROC", proc, 1);
    else
        unsetenv("GLTRACE_PROC");
    if (threadtime)
        setenv("GLTRACE_THREADTIME", "1", 1);
    setenv("GLTRACE_FB", fb ? fb : "swap", 1);
    setenv("GLTRACE_TEXTURES", textures ? "1" : "0", 1);
    setenv("GLTRACE_FB_DEPTH", fb_depth ? "1" : "0", 1);
    if (level)
        setenv("GLTRACE_ZSTD_LEVEL", level, 1);

    /* The child reports a failed exec through a close-on-exec pipe, so a
     * program that cannot start is told apart from one that exits 127. */
    int exec_pipe[2];
    if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
        fprintf(stderr, "gltrace record: pipe: %s\n", strerror(errno));
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "gltrace record: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        if (list_fd >= 0)
            close(list_fd);
        close(exec_pipe[0]);
        execvp(argv[i], argv + i);
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
    if (got == (ssize_t)sizeof exec_errno) {
        fprintf(stderr, "gltrace record: cannot run %s: %s\n", argv[i], strerror(exec_errno));
        waitpid(pid, NULL, 0);
        if (list_fd >= 0) {
            close(list_fd);
            unlink(list);
        }
        if ((full || timed) && !folder && !pattern)
            unlink(out); /* made empty above, to fail early on an unwritable path */
        free(abs);
        return 127;
    }
    /* The child owns the terminal's signals; we only wait for it. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "gltrace record: waitpid: %s\n", strerror(errno));
            return 2;
        }
    }
    /* The files the run made: every file a process announced. */
    char *names = NULL;
    size_t names_len = 0;
    int out_announced = 0;
    if (list_fd >= 0) {
        FILE *lf = fdopen(list_fd, "r");
        if (lf) {
            FILE *mem = open_memstream(&names, &names_len);
            char line[PATH_MAX + 2];
            while (mem && fgets(line, sizeof line, lf)) {
                /* One process per file; a name twice would be compacted twice. */
                line[strcspn(line, "\n")] = 0;
                if (!folder && !pattern && strcmp(line, out) == 0) {
                    if (out_announced++)
                        continue;
                }
                fprintf(mem, "%s\n", line);
            }
            if (mem)
                fclose(mem);
            fclose(lf);
        }
        unlink(list);
    }
    int level_n = level ? atoi(level) : 3;
    int nfiles = 0;
    for (char *name = names, *nl; name && *name; name = nl + 1) {
        nl = strchr(name, '\n');
        if (!nl)
            break;
        *nl = 0;
        nfiles++;
        if (busy(name)) {
            fprintf(stderr, "gltrace: %s is still being written by a process of the run; left as it is\n", name);
            continue;
        }
        /* The app is gone: nothing is at risk any more, so the many small
         * chunks written for crash safety become a few large ones, which
         * compress far better. A trace whose capture did not finish
         * (_exit, a crash: no seek index) is left as it is. */
        char err[512];
        if (full && compact && gt_compact_in_place(name, level_n, err, sizeof err) == -1)
            fprintf(stderr, "gltrace record: trace left uncompacted: %s\n", err);
        if (timed)
            close_timing_json(name);
        if (stat(name, &st) == 0)
            fprintf(stderr, "gltrace: wrote %s (%lld bytes)\n", name, (long long)st.st_size);
    }
    free(names);
    /* The file -o named, made empty above: no process of the run used GL,
     * so there is no trace, and an empty file would only look like one. */
    if ((full || timed) && !folder && !pattern && !out_announced && stat(out, &st) == 0 && st.st_size == 0)
        unlink(out);
    if ((full || timed) && nfiles == 0)
        fprintf(stderr, "gltrace: no process of the run used GL or EGL; no trace written to %s\n", out);
    free(abs);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "gltrace record: %s was killed by signal %d\n", argv[i], WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return 2;
}
