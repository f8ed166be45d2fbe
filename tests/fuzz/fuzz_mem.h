/* fuzz_mem.h: the fuzz targets' input as a file, for the parsers that read
 * files by path (the trace reader opens and preads its file): an anonymous
 * memory file, named by its /proc/self/fd path, so no disk is touched. */
#ifndef FUZZ_MEM_H
#define FUZZ_MEM_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Fills a fresh memory file with the input; its path in `path`. Returns
 * the descriptor (close it after), or -1. */
static inline int fuzz_mem_file(const uint8_t *data, size_t size, char *path, size_t len)
{
    int fd = memfd_create("fuzz_input", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    snprintf(path, len, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
