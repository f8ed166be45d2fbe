/* diff_image.c: the in-memory image, and the small helpers every file of the
 * library uses (error messages). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "diff_internal.h"

int diff_fail(char *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, GT_DIFF_ERR_MAX, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Frames are 8 to 33 MB. On the virtual machines CI runs on, faulting in
 * fresh 4 KB pages costs about 25 ms per 8 MB, more than decoding the PNG;
 * 2 MB pages cost about 1 ms (bench/diff/README.md). So large buffers are
 * aligned to 2 MB and offered to transparent huge pages. Freed with free().
 */
#define HUGE_PAGE ((size_t)2 << 20)

void *diff_big_alloc(size_t n)
{
    if (n < HUGE_PAGE / 2)
        return malloc(n ? n : 1);
    size_t rounded = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *p = NULL;
    if (rounded < n || posix_memalign(&p, HUGE_PAGE, rounded) != 0)
        return NULL;
    /* Advice only: without THP the buffer simply uses small pages. */
    (void)madvise(p, rounded, MADV_HUGEPAGE);
    return p;
}

int diff_image_alloc_uninit(gt_diff_image *img, uint32_t width, uint32_t height)
{
    memset(img, 0, sizeof *img);
    size_t n = (size_t)width * height;
    if (height && n / height != width)
        return -1;
    if (n > SIZE_MAX / 4)
        return -1;
    img->rgba = diff_big_alloc(n * 4);
    if (!img->rgba)
        return -1;
    img->width = width;
    img->height = height;
    return 0;
}

int gt_diff_image_alloc(gt_diff_image *img, uint32_t width, uint32_t height)
{
    if (diff_image_alloc_uninit(img, width, height) != 0)
        return -1;
    memset(img->rgba, 0, (size_t)width * height * 4);
    return 0;
}

void gt_diff_image_free(gt_diff_image *img)
{
    free(img->rgba);
    memset(img, 0, sizeof *img);
}

/* FNV-1a would cost a multiply per byte; this mixes 8 bytes per step,
 * which keeps hashing a 4K frame far below the cost of decoding it. */
static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t gt_diff_image_hash(const gt_diff_image *img)
{
    size_t n = (size_t)img->width * img->height * 4;
    uint64_t h = mix64(((uint64_t)img->width << 32) | img->height);
    const uint8_t *p = img->rgba;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        h = (h ^ mix64(v + i)) * 0x9e3779b97f4a7c15ULL;
    }
    uint64_t tail = 0;
    memcpy(&tail, p + i, n - i);
    return mix64(h ^ mix64(tail ^ n));
}
