/* cap_timing_file.c: closing a timing file cut short (cap_timing_file.h). */
#define _GNU_SOURCE
#include "cap_timing_file.h"

#include <fcntl.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* The offset just after the last newline before `end`, or -1: searched
 * backwards a block at a time. */
static off_t after_last_newline(int fd, off_t end)
{
    char buf[4096];
    while (end > 0) {
        off_t from = end > (off_t)sizeof buf ? end - (off_t)sizeof buf : 0;
        ssize_t n = pread(fd, buf, (size_t)(end - from), from);
        if (n <= 0)
            return -1;
        for (ssize_t k = n - 1; k >= 0; k--) {
            if (buf[k] == '\n')
                return from + k + 1;
        }
        end = from;
    }
    return -1;
}

int cap_timing_file_close(const char *path)
{
    static const char end[] = CAP_TIMING_FILE_END;
    const size_t elen = sizeof end - 1;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return CAP_TIMING_FILE_WHOLE;
    char tail[sizeof end];
    off_t size = lseek(fd, 0, SEEK_END);
    ssize_t n = pread(fd, tail, (off_t)elen < size ? elen : (size_t)size, size < (off_t)elen ? 0 : size - (off_t)elen);
    int found = CAP_TIMING_FILE_WHOLE;
    off_t keep = n == (ssize_t)elen && memcmp(tail, end, elen) == 0 ? -1 : after_last_newline(fd, size);
    if (keep > 0 && ftruncate(fd, keep) == 0 && pwrite(fd, end, elen, keep) == (ssize_t)elen)
        found = keep < size ? CAP_TIMING_FILE_TORN : CAP_TIMING_FILE_CLOSED;
    close(fd);
    return found;
}
