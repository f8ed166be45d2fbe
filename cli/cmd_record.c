/* gltrace record: runs a program with libgltrace.so preloaded. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt_cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gltrace record [-o OUT.gltrace] [--fb=swap|draw|none] [--fb-depth] [--textures]\n"
            "                      [--threadtime] [--level N] -- PROGRAM [ARGS...]\n"
            "  -o FILE        where the trace goes (default: PROGRAM's name + .gltrace,\n"
            "                 in the current folder; an existing file is replaced)\n"
            "  --fb=WHEN      framebuffer snapshots: at each eglSwapBuffers (swap, the\n"
            "                 default), also after every draw call (draw), or none\n"
            "  --fb-depth     with each framebuffer snapshot, its depth (floats) and\n"
            "                 stencil (bytes) too, where the driver can read them\n"
            "  --textures     at each swap, also the textures drawn into since the last\n"
            "                 one (needs GLES 3.1)\n"
            "  --threadtime   also record each call's thread CPU time (costs a syscall per call)\n"
            "  --no-compact   keep the trace as capture wrote it (a chunk per swap and per\n"
            "                 100 ms) instead of rewriting it in large chunks at the end\n"
            "  --level N      zstd level for the trace (default 3)\n"
            "Exits with PROGRAM's exit status.\n");
}

/* libgltrace.so beside this executable (build tree) or in ../lib/gltrace. */
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
    const char *const rel[] = {"/libgltrace.so", "/../lib/gltrace/libgltrace.so"};
    for (size_t i = 0; i < 2; i++) {
        if ((size_t)snprintf(out, len, "%s%s", exe, rel[i]) < len && access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

int gt_cmd_record(int argc, char **argv)
{
    const char *out = NULL, *level = NULL, *fb = NULL;
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
    char lib[PATH_MAX];
    if (find_library(lib, sizeof lib) != 0) {
        fprintf(stderr, "gltrace record: libgltrace.so not found beside the gltrace executable\n");
        return 2;
    }
    char path[PATH_MAX];
    if (!out) {
        const char *base = strrchr(argv[i], '/');
        snprintf(path, sizeof path, "%s.gltrace", base ? base + 1 : argv[i]);
        out = path;
    }
    /* The app may change directory: give it an absolute path. */
    char *abs = NULL;
    char cwd[PATH_MAX];
    if (out[0] != '/' && getcwd(cwd, sizeof cwd) && asprintf(&abs, "%s/%s", cwd, out) > 0)
        out = abs;
    /* Fail here, clearly, rather than in the app. */
    FILE *probe = fopen(out, "wb");
    if (!probe) {
        fprintf(stderr, "gltrace record: cannot write %s: %s\n", out, strerror(errno));
        return 2;
    }
    fclose(probe);

    const char *old = getenv("LD_PRELOAD");
    char *preload = NULL;
    if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "") < 0)
        return 2;
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    setenv("GLTRACE", "1", 1);
    setenv("GLTRACE_OUT", out, 1);
    if (threadtime)
        setenv("GLTRACE_THREADTIME", "1", 1);
    setenv("GLTRACE_FB", fb ? fb : "swap", 1);
    setenv("GLTRACE_TEXTURES", textures ? "1" : "0", 1);
    setenv("GLTRACE_FB_DEPTH", fb_depth ? "1" : "0", 1);
    if (level)
        setenv("GLTRACE_ZSTD_LEVEL", level, 1);

    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "gltrace record: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        execvp(argv[i], argv + i);
        fprintf(stderr, "gltrace record: cannot run %s: %s\n", argv[i], strerror(errno));
        _exit(127);
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
    /* The app is gone: nothing is at risk any more, so the many small
     * chunks written for crash safety become a few large ones, which
     * compress far better. A trace whose capture did not finish (_exit, a
     * crash: no seek index) is left as it is. */
    char err[512];
    int level_n = level ? atoi(level) : 3;
    if (compact && WIFEXITED(status) && gt_compact_in_place(out, level_n, err, sizeof err) == -1)
        fprintf(stderr, "gltrace record: trace left uncompacted: %s\n", err);
    struct stat st;
    if (stat(out, &st) == 0)
        fprintf(stderr, "gltrace: wrote %s (%lld bytes)\n", out, (long long)st.st_size);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "gltrace record: %s was killed by signal %d\n", argv[i], WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return 2;
}
