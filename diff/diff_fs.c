/* diff_fs.c: the few filesystem chores of the outputs: making folders,
 * copying images into a report, counting CPUs. */
#define _GNU_SOURCE /* copy_file_range */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff_internal.h"

int diff_mkdirs_for(const char *path, char *err)
{
    char buf[4096];
    if ((size_t)snprintf(buf, sizeof buf, "%s", path) >= sizeof buf)
        return diff_fail(err, "%s: path too long", path);
    char *slash = strrchr(buf, '/');
    if (!slash || slash == buf)
        return 0;
    *slash = 0;
    for (char *p = buf + 1; ; p++) {
        if (*p == '/' || *p == 0) {
            char c = *p;
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return diff_fail(err, "%s: cannot create directory: %s", buf, strerror(errno));
            *p = c;
            if (!c)
                break;
        }
    }
    return 0;
}

int diff_copy_file(const char *src, const char *dst, char *err)
{
    if (diff_mkdirs_for(dst, err) != 0)
        return -1;
    struct stat ss, ds;
    if (stat(src, &ss) == 0 && stat(dst, &ds) == 0 && ss.st_dev == ds.st_dev && ss.st_ino == ds.st_ino)
        return 0; /* already there (a diff image written into the report) */
    /* A copy, not a hard link: a report is archived, and whoever produced
     * the frames may rewrite them in place afterwards. copy_file_range lets
     * the kernel share extents where the filesystem can. */
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return diff_fail(err, "%s: cannot open: %s", src, strerror(errno));
    int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (out < 0) {
        int e = errno;
        close(in);
        return diff_fail(err, "%s: cannot create: %s", dst, strerror(e));
    }
    int rc = 0;
    char buf[65536];
    for (;;) {
        ssize_t n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
        if (n == 0)
            break;
        if (n > 0)
            continue;
        if (errno == EINTR)
            continue;
        /* Not supported here (old kernel, odd filesystem): plain copy of
         * whatever is left. */
        ssize_t r;
        while ((r = read(in, buf, sizeof buf)) != 0) {
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0 || write(out, buf, (size_t)r) != r) {
                rc = diff_fail(err, "%s: cannot copy to %s: %s", src, dst, strerror(errno));
                break;
            }
        }
        break;
    }
    close(in);
    if (close(out) != 0 && rc == 0)
        rc = diff_fail(err, "%s: write error: %s", dst, strerror(errno));
    return rc;
}

unsigned diff_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
