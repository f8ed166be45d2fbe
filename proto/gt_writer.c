/* gt_writer.c: writes a trace: per chunk a skippable header frame and one
 * independent zstd frame, and the seek index at close (FORMAT.md).
 *
 * Runs on the capture library's writer thread: it never exits or aborts,
 * and reports every failure with the file name and the byte offset. */
#define _GNU_SOURCE
#include "gt_container.h"
#include "gt_trace.h"
#include "gt_wire_times.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zstd.h>

typedef struct entry {
    uint64_t offset, tid, first_seq, last_seq, first_frame;
    uint32_t count, csize;
} entry;

struct gt_writer {
    int fd;
    char *path;
    ZSTD_CCtx *cctx;
    uint8_t *out;
    size_t outcap;
    uint8_t *times; /* a chunk with its start times as differences */
    size_t timescap;
    uint64_t off;       /* bytes in the file */
    uint64_t in;        /* record bytes taken */
    int no_space;       /* the last failure was a full disk or a size limit */
    entry *idx;
    size_t nidx, capidx;
    char err[GT_ERRLEN];
};

static gt_writer *open_common(const char *path, int fd, int level, char *err, size_t errlen)
{
    gt_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(w);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    w->fd = fd >= 0 ? fd : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        goto fail;
    }
    w->cctx = ZSTD_createCCtx();
    if (!w->cctx || ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_contentSizeFlag, 1))) {
        snprintf(err, errlen, "%s: cannot set up zstd (level %d)", path, level);
        goto fail;
    }
    return w;
fail:
    if (w->fd >= 0)
        close(w->fd);
    ZSTD_freeCCtx(w->cctx);
    free(w->path);
    free(w);
    return NULL;
}

gt_writer *gt_writer_open(const char *path, int level, char *err, size_t errlen)
{
    return open_common(path, -1, level, err, errlen);
}

gt_writer *gt_writer_open_fd(int fd, const char *name, int level, char *err, size_t errlen)
{
    return open_common(name, fd, level, err, errlen);
}

/* Writes all of iov or fails; on failure cuts the file back to where the
 * write began, so a reader sees whole chunks only. */
static int write_all(gt_writer *w, struct iovec *iov, int n)
{
    uint64_t start = w->off;
    while (n > 0) {
        ssize_t r = writev(w->fd, iov, n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            w->no_space = errno == ENOSPC || errno == EFBIG || errno == EDQUOT;
            snprintf(w->err, sizeof w->err, "%s: write failed at byte %llu: %s", w->path,
                     (unsigned long long)w->off, strerror(errno));
            if (ftruncate(w->fd, (off_t)start) == 0)
                w->off = start;
            lseek(w->fd, (off_t)w->off, SEEK_SET);
            return -1;
        }
        w->off += (uint64_t)r;
        while (n > 0 && (size_t)r >= iov->iov_len) {
            r -= (ssize_t)iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (uint8_t *)iov->iov_base + r;
            iov->iov_len -= (size_t)r;
        }
    }
    return 0;
}

int gt_writer_chunk(gt_writer *w, const gt_chunk_info *info, const void *records, size_t len)
{
    w->no_space = 0;
    if (len > UINT32_MAX) {
        snprintf(w->err, sizeof w->err, "%s: chunk of %zu bytes is too large", w->path, len);
        return -1;
    }
    size_t bound = ZSTD_compressBound(len);
    if (bound > w->outcap) {
        uint8_t *o = realloc(w->out, bound);
        if (!o) {
            snprintf(w->err, sizeof w->err, "%s: out of memory for a %zu-byte chunk", w->path, bound);
            return -1;
        }
        w->out = o;
        w->outcap = bound;
    }
    /* Start times as differences: most records then begin with the same
     * bytes as the one before, which zstd codes in a fraction of a byte
     * (about half the bytes of a call-heavy trace). */
    uint32_t flags = info->flags;
    if (gt_times_codable(records, len, 1)) {
        if (len > w->timescap) {
            uint8_t *t = realloc(w->times, len);
            if (!t) {
                snprintf(w->err, sizeof w->err, "%s: out of memory for a %zu-byte chunk", w->path, len);
                return -1;
            }
            w->times = t;
            w->timescap = len;
        }
        memcpy(w->times, records, len);
        gt_times_to_delta(w->times, len, 1);
        records = w->times;
        flags |= GT_CHUNK_TIMES | GT_CHUNK_TIMES_BASE;
    }
    size_t csize = ZSTD_compress2(w->cctx, w->out, w->outcap, records, len);
    if (ZSTD_isError(csize)) {
        snprintf(w->err, sizeof w->err, "%s: zstd: %s", w->path, ZSTD_getErrorName(csize));
        return -1;
    }
    if (w->nidx == w->capidx) {
        size_t cap = w->capidx ? w->capidx * 2 : 256;
        entry *e = realloc(w->idx, cap * sizeof *e);
        if (!e) {
            snprintf(w->err, sizeof w->err, "%s: out of memory for the index", w->path);
            return -1;
        }
        w->idx = e;
        w->capidx = cap;
    }
    uint8_t h[GT_CHUNK_HEADER] = {0};
    uint8_t *p = h + 8;
    gt_le32(h, GT_CHUNK_FRAME);
    gt_le32(h + 4, GT_CHUNK_PAYLOAD);
    gt_le32(p, GT_CHUNK_MAGIC);
    gt_le16(p + 4, 1);
    gt_le16(p + 6, GT_CHUNK_PAYLOAD);
    gt_le64(p + 8, info->thread_id);
    gt_le64(p + 16, info->first_seq);
    gt_le64(p + 24, info->last_seq);
    gt_le64(p + 32, info->first_frame);
    gt_le32(p + 40, info->record_count);
    gt_le32(p + 44, (uint32_t)len);
    gt_le32(p + 48, (uint32_t)csize);
    gt_le32(p + 52, flags);
    gt_le32(p + 60, gt_crc32(p, 60));
    uint64_t at = w->off;
    struct iovec iov[2] = {{h, sizeof h}, {w->out, csize}};
    if (write_all(w, iov, 2) != 0)
        return -1;
    w->idx[w->nidx++] = (entry){at, info->thread_id, info->first_seq, info->last_seq,
                                info->first_frame, info->record_count, (uint32_t)csize};
    w->in += len;
    return 0;
}

int gt_writer_close(gt_writer *w, char *err, size_t errlen)
{
    size_t n = 8 + 16 + GT_INDEX_ENTRY * w->nidx + 16;
    uint8_t *b = malloc(n);
    int rc = -1;
    if (!b) {
        snprintf(err, errlen, "%s: out of memory for the seek index", w->path);
        goto out;
    }
    gt_le32(b, GT_INDEX_FRAME);
    gt_le32(b + 4, (uint32_t)(n - 8));
    uint8_t *p = b + 8;
    gt_le32(p, GT_INDEX_MAGIC);
    gt_le32(p + 4, 1);
    gt_le64(p + 8, w->nidx);
    uint8_t *e = p + 16;
    for (size_t i = 0; i < w->nidx; i++, e += GT_INDEX_ENTRY) {
        gt_le64(e, w->idx[i].offset);
        gt_le64(e + 8, w->idx[i].tid);
        gt_le64(e + 16, w->idx[i].first_seq);
        gt_le64(e + 24, w->idx[i].last_seq);
        gt_le64(e + 32, w->idx[i].first_frame);
        gt_le32(e + 40, w->idx[i].count);
        gt_le32(e + 44, w->idx[i].csize);
    }
    gt_le64(e, w->off);
    gt_le32(e + 8, gt_crc32(p, (size_t)(e + 8 - p)));
    gt_le32(e + 12, GT_END_MAGIC);
    struct iovec iov = {b, n};
    if (write_all(w, &iov, 1) != 0) {
        snprintf(err, errlen, "%s", w->err);
        goto out;
    }
    if (close(w->fd) != 0) {
        w->fd = -1;
        snprintf(err, errlen, "%s: close failed: %s", w->path, strerror(errno));
        goto out;
    }
    w->fd = -1;
    rc = 0;
out:
    free(b);
    gt_writer_abandon(w);
    return rc;
}

void gt_writer_abandon(gt_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd);
    ZSTD_freeCCtx(w->cctx);
    free(w->out);
    free(w->times);
    free(w->idx);
    free(w->path);
    free(w);
}

const char *gt_writer_error(const gt_writer *w) { return w->err; }
int gt_writer_set_level(gt_writer *w, int level)
{
    return ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, level)) ? -1 : 0;
}

int gt_writer_no_space(const gt_writer *w) { return w->no_space; }
uint64_t gt_writer_bytes_out(const gt_writer *w) { return w->off; }
uint64_t gt_writer_bytes_in(const gt_writer *w) { return w->in; }
