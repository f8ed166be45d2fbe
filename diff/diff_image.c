/* diff_image.c: the in-memory image, and the small helpers every file of the
 * library uses (error messages). */
#include <malloc.h>
#include <pthread.h>
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
 * aligned to 2 MB and offered to transparent huge pages.
 *
 * And a directory of small frames allocates the same few sizes over and
 * over; glibc hands blocks above its mmap threshold back to the kernel on
 * free, so each pair paid for fresh pages again (a third of the time of
 * 1000 pairs of 320x240). Each thread therefore keeps a few freed buffers
 * for the next pair. */
#define HUGE_PAGE ((size_t)2 << 20)
#define CACHE_SLOTS 4

static __thread void *cache[CACHE_SLOTS];
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_release(void *unused)
{
    (void)unused;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        free(cache[i]);
        cache[i] = NULL;
    }
}

static void cache_init(void)
{
    (void)pthread_key_create(&cache_key, cache_release);
}

/* A cached block of at least n bytes (2 MB aligned if `huge`), not more
 * than twice that: a 4K frame's buffer must not serve a thumbnail. */
static void *cache_take(size_t n, int huge)
{
    for (int i = 0; i < CACHE_SLOTS; i++) {
        void *p = cache[i];
        if (!p)
            continue;
        size_t cap = malloc_usable_size(p);
        if (cap >= n && cap / 2 <= n && (!huge || ((uintptr_t)p & (HUGE_PAGE - 1)) == 0)) {
            cache[i] = NULL;
            return p;
        }
    }
    return NULL;
}

void diff_big_free(void *p)
{
    if (!p)
        return;
    if (malloc_usable_size(p) >= 64 * 1024) {
        pthread_once(&cache_once, cache_init);
        /* Registers this thread's cache for release when it exits. */
        (void)pthread_setspecific(cache_key, cache);
        for (int i = 0; i < CACHE_SLOTS; i++)
            if (!cache[i]) {
                cache[i] = p;
                return;
            }
        /* Full: keep the newest, drop the oldest slot's block. */
        free(cache[0]);
        memmove(cache, cache + 1, sizeof cache[0] * (CACHE_SLOTS - 1));
        cache[CACHE_SLOTS - 1] = p;
        return;
    }
    free(p);
}

void *diff_big_alloc(size_t n)
{
    int huge = n >= HUGE_PAGE / 2;
    void *p = n >= 64 * 1024 ? cache_take(n, huge) : NULL;
    if (p)
        return p;
    if (!huge)
        return malloc(n ? n : 1);
    size_t rounded = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
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
    diff_big_free(img->rgba);
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
