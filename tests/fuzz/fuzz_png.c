/* fuzz_png: PNG reading from memory (diff/diff_png_*.c, every colour type,
 * bit depth and interlacing, the inflate and unfilter stages), PNG files
 * as `gltrace diff` reads a pair of them (gt_diff_batch_run: the streaming
 * exact comparison, diff_stream.c and diff_png_source.c, where the layout
 * allows, else the whole decode), and the image comparison's options as
 * the command line parses them (cli/cli_compare_args.c) and
 * gt_diff_compare/gt_diff_render take them.
 *
 * Input: either a PNG, or comparison options then a PNG: lines of
 * "--option value" or "--flag", ended by a NUL byte. A decoded image of
 * reasonable size is compared with a changed copy of itself under the
 * options, and the picture of the differences rendered. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli_compare_args.h"
#include "gt_diff.h"

/* Comparison cost grows with pixels times radius squared: keep an input
 * fast enough for the fuzzer to try many. */
#define MAX_COMPARED_PIXELS (256u * 256u)

/* Parses the option lines in text (NUL-terminated, modified). 0 when they
 * are all taken, as the commands would accept them. */
static int parse_options(char *text, cli_compare_args *a)
{
    char err[256];
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *sp = strchr(line, ' ');
        if (sp)
            *sp++ = 0;
        if (cli_compare_flag(a, line))
            continue;
        if (!sp || !cli_compare_takes_value(line) || cli_compare_value(a, line, sp, err, sizeof err) != 0)
            return -1;
    }
    return cli_compare_finish(a, err, sizeof err);
}

static void compare(const gt_diff_image *img, const cli_compare_args *a)
{
    if ((uint64_t)img->width * img->height > MAX_COMPARED_PIXELS)
        return;
    gt_diff_image other = {0}, out = {0};
    if (gt_diff_image_alloc(&other, img->width, img->height) != 0)
        return;
    size_t bytes = (size_t)img->width * img->height * 4;
    memcpy(other.rgba, img->rgba, bytes);
    for (size_t i = 0; i < bytes; i += 37) /* a scatter of changed channels */
        other.rgba[i] ^= (uint8_t)(i * 13);
    uint8_t *mask = malloc(bytes / 4 ? bytes / 4 : 1);
    gt_diff_result r;
    char err[GT_DIFF_ERR_MAX];
    for (unsigned threads = 1; mask && threads <= 2; threads++)
        if (gt_diff_compare(img, &other, &a->o, threads, &r, mask, err) == 0 && threads == 2)
            if (gt_diff_render(img, mask, &out) == 0)
                gt_diff_image_free(&out);
    (void)gt_diff_image_hash(img);
    free(mask);
    gt_diff_image_free(&other);
}

/* The input as a file, compared with itself as a pair of files is, on one
 * thread and on two: the streaming reader checks chunks and CRCs as they
 * pass, inflates through a window and unfilters into a ring of rows. A
 * memory file: no disk, nothing left behind. */
static void compare_files(const uint8_t *data, size_t size, const cli_compare_args *a)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size < 8 || size > (1u << 20) || memcmp(data, sig, 8) != 0)
        return;
    int fd = memfd_create("fuzz.png", 0);
    if (fd < 0)
        return;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (write(fd, data, size) == (ssize_t)size) {
        for (unsigned threads = 1; threads <= 2; threads++) {
            gt_diff_batch b = {0};
            if (gt_diff_batch_add(&b, "fuzz.png", path, path) == 0)
                gt_diff_batch_run(&b, &a->o, NULL, threads);
            gt_diff_batch_free(&b);
        }
    }
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cli_compare_args a;
    cli_compare_args_init(&a);
    const uint8_t *nul = size >= 2 && data[0] == '-' && data[1] == '-' ? memchr(data, 0, size) : NULL;
    if (nul) {
        size_t n = (size_t)(nul - data);
        char *text = malloc(n + 1);
        if (!text)
            return 0;
        memcpy(text, data, n + 1);
        int bad = parse_options(text, &a);
        free(text);
        if (bad)
            return 0;
        size -= n + 1;
        data = nul + 1;
    }
    gt_diff_image img = {0};
    char err[GT_DIFF_ERR_MAX];
    if (gt_diff_png_read_mem(data, size, "fuzz.png", &img, err) == 0) {
        compare(&img, &a);
        gt_diff_image_free(&img);
    }
    compare_files(data, size, &a);
    return 0;
}
