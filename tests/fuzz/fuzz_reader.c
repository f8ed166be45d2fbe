/* fuzz_reader: the trace reader (proto/gt_reader.c) on any bytes: the zstd
 * container with and without its seek index (then the chunk headers are
 * walked), and the legacy Android framing; every record read, then a seek
 * to a frame and a few records more. Damage must give -1 and a message,
 * never a crash or a read past a buffer. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_mem.h"
#include "gt_trace.h"

/* Enough to read every record of any corpus input; bounds the time of an
 * input that declares millions of tiny records. */
#define MAX_RECORDS 200000

static int scan(void *ctx, const uint8_t *msg, size_t len, uint64_t id, uint64_t keep, uint64_t *seq)
{
    (void)ctx;
    (void)id;
    (void)keep;
    return gt_wire_find_varint(msg, len, GT_FIELD_SEQ, seq);
}

static void read_all(gt_reader *r, unsigned long max)
{
    gt_record rec;
    volatile uint8_t sink = 0;
    for (unsigned long i = 0; i < max && gt_reader_next(r, &rec) == 1; i++)
        if (rec.size)
            sink ^= rec.data[0] ^ rec.data[rec.size - 1]; /* the record's bytes are readable */
    (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[GT_ERRLEN];
    int fd = fuzz_mem_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    gt_reader *r = gt_reader_open(path, err, sizeof err);
    if (r) {
        read_all(r, MAX_RECORDS);
        gt_reader_stats st;
        gt_reader_stats_get(r, &st);
        if (gt_reader_seek_frame(r, st.frames / 2) == 0)
            read_all(r, 64);
        gt_reader_close(r);
    }
    /* Again with a scanner: the reader's other path to each record's seq. */
    if ((r = gt_reader_open(path, err, sizeof err))) {
        gt_reader_set_scanner(r, scan, NULL);
        read_all(r, MAX_RECORDS);
        gt_reader_close(r);
    }
    close(fd);
    return 0;
}
