/* cap_outpath.c: which process is traced and where its output goes.
 *
 * The process name, for GLTRACE_PROC and for output names, is
 * program_invocation_short_name: the last part of argv[0], as the program
 * was started. Not /proc/self/comm: the kernel cuts that to 15 bytes and a
 * program may rename its main thread (both would make a name the user
 * typed stop matching), and Android's debug.egl.debug_proc, which
 * GLTRACE_PROC mirrors, is compared with the command line too.
 *
 * GLTRACE_OUT is a file, a folder, or a pattern:
 *   a pattern has %p (the pid), %n (the process name) or %% (a '%');
 *   a folder is an existing directory or a path ending in '/' (created if
 *   missing), and each process writes NAME.PID.gltrace there (.json in
 *   the timing mode);
 *   anything else is the file itself.
 * A process that makes no GL or EGL call never gets here: the output is
 * opened at the first call (cap_init.c), so it leaves no file. */
#define _GNU_SOURCE
#include "cap_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cap_proc_name(void)
{
    const char *n = program_invocation_short_name;
    return n && *n ? n : "app";
}

int cap_proc_selected(void)
{
    const char *want = gt_setting_env(GT_SET_PROC);
    return !want || !*want || strcmp(want, cap_proc_name()) == 0;
}

/* Appends s to out[*n], or fails when out is full. */
static int add(char *out, size_t len, size_t *n, const char *s)
{
    size_t k = strlen(s);
    if (*n + k >= len)
        return -1;
    memcpy(out + *n, s, k + 1);
    *n += k;
    return 0;
}

/* A process name as one file name component. */
static void safe_name(char *dst, size_t len)
{
    snprintf(dst, len, "%s", cap_proc_name());
    for (char *c = dst; *c; c++) {
        if (*c == '/')
            *c = '_';
    }
    if (strcmp(dst, ".") == 0 || strcmp(dst, "..") == 0)
        snprintf(dst, len, "app");
}

int cap_out_path(const char *spec, const char *ext, char *out, size_t len)
{
    char name[256], pid[24];
    safe_name(name, sizeof name);
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    size_t n = 0;
    out[0] = 0;
    if (!spec || !*spec) {
        /* No GLTRACE_OUT: NAME.gltrace (NAME.json) in the current folder. */
        if (add(out, len, &n, name) || add(out, len, &n, ext))
            goto too_long;
        return 0;
    }
    if (strchr(spec, '%')) {
        for (const char *s = spec; *s; s++) {
            char one[2] = {*s, 0};
            const char *piece = one;
            if (*s == '%') {
                if (s[1] == 'p')
                    piece = pid;
                else if (s[1] == 'n')
                    piece = name;
                else if (s[1] == '%')
                    piece = "%";
                else {
                    cap_log("GLTRACE_OUT=%s: '%%%c' is not %%p, %%n or %%%%; tracing is off", spec, s[1] ? s[1] : ' ');
                    return -1;
                }
                s++;
            }
            if (add(out, len, &n, piece))
                goto too_long;
        }
        return 0;
    }
    struct stat st;
    size_t sl = strlen(spec);
    int dir = spec[sl - 1] == '/' || (stat(spec, &st) == 0 && S_ISDIR(st.st_mode));
    if (!dir) {
        if (add(out, len, &n, spec))
            goto too_long;
        return 0;
    }
    /* Each process of a run may be the first to get here. */
    if (mkdir(spec, 0755) != 0 && errno != EEXIST) {
        cap_log("cannot create the folder %s: %s; tracing is off", spec, strerror(errno));
        return -1;
    }
    if (add(out, len, &n, spec) || (spec[sl - 1] != '/' && add(out, len, &n, "/")) || add(out, len, &n, name) ||
        add(out, len, &n, ".") || add(out, len, &n, pid) || add(out, len, &n, ext))
        goto too_long;
    return 0;
too_long:
    cap_log("GLTRACE_OUT=%s gives a path longer than %zu bytes; tracing is off", spec, len - 1);
    return -1;
}

void cap_out_announce(const char *path)
{
    /* gltrace record learns which files the run made from this list: one
     * line per file, each one write() on an O_APPEND descriptor, so lines
     * of concurrent processes never mix. */
    const char *list = gt_setting_env(GT_SET_RECORD_LIST);
    if (!list || !*list)
        return;
    int fd = open(list, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        return;
    char line[PATH_MAX + 2];
    int k = snprintf(line, sizeof line, "%s\n", path);
    if (k > 0 && (size_t)k < sizeof line) {
        ssize_t w = write(fd, line, (size_t)k);
        (void)w;
    }
    close(fd);
}
