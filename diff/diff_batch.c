/* diff_batch.c: comparing lists of file pairs, on all cores.
 *
 * Decoding dominates, so the parallelism is over decodes: many pairs run
 * on a pool of workers (one pair per worker at a time); a lone pair decodes
 * its two files on two threads and splits its comparison into bands. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff_internal.h"

static char *dup_or_null(const char *s, int *failed)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        *failed = 1;
    return d;
}

int gt_diff_batch_add(gt_diff_batch *b, const char *name, const char *expected,
                      const char *actual)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        gt_diff_pair *p = realloc(b->pairs, cap * sizeof *p);
        if (!p)
            return -1;
        b->pairs = p;
        b->cap = cap;
    }
    gt_diff_pair *p = &b->pairs[b->n];
    memset(p, 0, sizeof *p);
    int failed = 0;
    p->name = dup_or_null(name, &failed);
    p->expected = dup_or_null(expected, &failed);
    p->actual = dup_or_null(actual, &failed);
    if (failed || !p->name) {
        free(p->name);
        free(p->expected);
        free(p->actual);
        return -1;
    }
    b->n++;
    return 0;
}

void gt_diff_batch_free(gt_diff_batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->pairs[i].name);
        free(b->pairs[i].expected);
        free(b->pairs[i].actual);
        free(b->pairs[i].diff_image);
    }
    free(b->pairs);
    memset(b, 0, sizeof *b);
}

void gt_diff_batch_counts(const gt_diff_batch *b, size_t *pass, size_t *fail, size_t *error)
{
    size_t c[3] = {0, 0, 0};
    for (size_t i = 0; i < b->n; i++)
        c[b->pairs[i].status]++;
    if (pass)
        *pass = c[GT_DIFF_PASS];
    if (fail)
        *fail = c[GT_DIFF_FAIL];
    if (error)
        *error = c[GT_DIFF_ERROR];
}

/* One file: read and decode. Runs on its own thread for a lone pair. */
typedef struct decode_job {
    const char *path;
    const uint8_t *data; /* already loaded, or NULL */
    size_t size;
    gt_diff_image img;
    int rc;
    char err[GT_DIFF_ERR_MAX];
} decode_job;

static void *decode(void *arg)
{
    decode_job *j = arg;
    if (j->data)
        j->rc = gt_diff_png_read_mem(j->data, j->size, j->path, &j->img, j->err);
    else
        j->rc = gt_diff_png_read(j->path, &j->img, j->err);
    return NULL;
}

static void set_msg(gt_diff_pair *p, gt_diff_status st, const char *msg)
{
    p->status = st;
    snprintf(p->message, sizeof p->message, "%s", msg);
}

/* Writes the picture of the differences, if asked for and if there is any
 * difference to see. */
static void write_diff_image(gt_diff_pair *p, const gt_diff_image *e, const uint8_t *mask,
                             const char *diff_dir)
{
    char *path = p->diff_image;
    p->diff_image = NULL;
    if (!mask || p->result.identical) {
        free(path);
        return;
    }
    char err[GT_DIFF_ERR_MAX];
    if (!path) {
        size_t n = strlen(diff_dir) + strlen(p->name) + 2;
        path = malloc(n);
        if (!path)
            return;
        snprintf(path, n, "%s/%s", diff_dir, p->name);
    }
    gt_diff_image out = {0};
    if (diff_mkdirs_for(path, err) == 0 && gt_diff_render(e, mask, &out) == 0 &&
        gt_diff_png_write(path, &out, err) == 0) {
        p->diff_image = path;
        path = NULL;
    } else if (p->status == GT_DIFF_PASS) {
        /* The comparison stands; failing to draw it is still an error the
         * user must see, since they asked for the picture. */
        set_msg(p, GT_DIFF_ERROR, err);
    }
    gt_diff_image_free(&out);
    free(path);
}

/* The verdict and message of a pair whose result is in, and its diff
 * image when a mask was asked for. */
static void settle(gt_diff_pair *p, const gt_diff_image *e, const uint8_t *mask, const char *diff_dir)
{
    p->has_result = 1;
    const gt_diff_result *r = &p->result;
    p->status = r->pass ? GT_DIFF_PASS : GT_DIFF_FAIL;
    if (!r->pass)
        snprintf(p->message, sizeof p->message,
                 "%llu pixels differ (%.4f%%), largest channel difference %u%s",
                 (unsigned long long)r->diff_pixels, r->diff_percent, r->max_channel_diff,
                 r->max_channel_diff ? "" : " (in 8-bit units: the 16-bit samples differ below that)");
    if (mask)
        write_diff_image(p, e, mask, diff_dir);
}

/* Exact mode on the common PNG layouts: both files read and compared row
 * by row at full depth (diff_stream.c). Returns 1 when that settled the
 * pair, 0 to decode the ordinary way. */
static int run_stream(gt_diff_pair *p, const gt_diff_options *o, const char *diff_dir, unsigned threads)
{
    if (o->mode != GT_DIFF_EXACT || !diff_png_fast_allowed())
        return 0;
    int want_mask = diff_dir || p->diff_image;
    uint8_t *mask = NULL;
    gt_diff_image e8 = {0};
    uint32_t w, h;
    if (!diff_stream_exact(p->expected, p->actual, o, threads, &w, &h, &p->result, want_mask ? &mask : NULL,
                           &e8))
        return 0;
    p->width = p->actual_width = w;
    p->height = p->actual_height = h;
    settle(p, &e8, mask, diff_dir);
    diff_big_free(mask);
    gt_diff_image_free(&e8);
    return 1;
}

static void run_pair(gt_diff_pair *p, const gt_diff_options *o, const char *diff_dir,
                     unsigned threads)
{
    if (!p->expected || !p->actual) {
        set_msg(p, GT_DIFF_FAIL, p->expected ? "missing from ACTUAL" : "not in EXPECTED (only in ACTUAL)");
        return;
    }
    decode_job je = {.path = p->expected}, ja = {.path = p->actual};
    diff_file fe = {0}, fa = {0};
    /* The same bytes are the same pixels: decode once (to validate the
     * file and get its pixels for ignore regions and metrics). Files of
     * different sizes cannot be the same, and each is then loaded by the
     * thread that decodes it, so loading overlaps too. */
    struct stat se, sa;
    int same_bytes = 0;
    if (stat(p->expected, &se) == 0 && stat(p->actual, &sa) == 0 && se.st_size == sa.st_size) {
        if (diff_file_open(p->expected, &fe, je.err) != 0) {
            set_msg(p, GT_DIFF_ERROR, je.err);
            return;
        }
        if (diff_file_open(p->actual, &fa, ja.err) != 0) {
            diff_file_release(&fe);
            set_msg(p, GT_DIFF_ERROR, ja.err);
            return;
        }
        je.data = fe.data;
        je.size = fe.size;
        ja.data = fa.data;
        ja.size = fa.size;
        same_bytes = je.size == ja.size && memcmp(je.data, ja.data, je.size) == 0;
    }
    if (!same_bytes) {
        diff_file_release(&fe); /* read again as the stream needs them */
        diff_file_release(&fa);
        je.data = ja.data = NULL;
        if (run_stream(p, o, diff_dir, threads))
            return;
    }
    pthread_t tid;
    int threaded = !same_bytes && threads > 1 && pthread_create(&tid, NULL, decode, &je) == 0;
    if (!threaded)
        decode(&je);
    if (!same_bytes)
        decode(&ja);
    if (threaded)
        pthread_join(tid, NULL);
    diff_file_release(&fe);
    diff_file_release(&fa);
    const gt_diff_image *ea = same_bytes ? &je.img : &ja.img;
    if (same_bytes)
        ja.rc = je.rc;
    if (je.rc != 0 || ja.rc != 0) {
        set_msg(p, GT_DIFF_ERROR, je.rc != 0 ? je.err : ja.err);
        goto out;
    }
    p->width = je.img.width;
    p->height = je.img.height;
    p->actual_width = ea->width;
    p->actual_height = ea->height;
    if (je.img.width != ea->width || je.img.height != ea->height) {
        p->status = GT_DIFF_FAIL;
        snprintf(p->message, sizeof p->message, "size differs: expected %ux%u (%s), actual %ux%u (%s)",
                 je.img.width, je.img.height, p->expected, ea->width, ea->height, p->actual);
        goto out;
    }
    int want_mask = diff_dir || p->diff_image;
    uint8_t *mask = want_mask ? diff_big_alloc((size_t)je.img.width * je.img.height) : NULL;
    char err[GT_DIFF_ERR_MAX];
    if (want_mask && !mask) {
        set_msg(p, GT_DIFF_ERROR, "out of memory for the difference mask");
        goto out;
    }
    if (gt_diff_compare(&je.img, ea, o, threads, &p->result, mask, err) != 0) {
        set_msg(p, GT_DIFF_ERROR, err);
        diff_big_free(mask);
        goto out;
    }
    settle(p, &je.img, mask, diff_dir);
    diff_big_free(mask);
out:
    gt_diff_image_free(&je.img);
    gt_diff_image_free(&ja.img);
}

typedef struct pool {
    gt_diff_batch *b;
    const gt_diff_options *o;
    const char *diff_dir;
    atomic_size_t next;
} pool;

static void *worker(void *arg)
{
    pool *pl = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&pl->next, 1);
        if (i >= pl->b->n)
            return NULL;
        run_pair(&pl->b->pairs[i], pl->o, pl->diff_dir, 1);
    }
}

void gt_diff_batch_run(gt_diff_batch *b, const gt_diff_options *o, const char *diff_dir,
                       unsigned threads)
{
    char err[GT_DIFF_ERR_MAX];
    unsigned t = threads ? threads : diff_cpu_count();
    if (diff_options_check(o, err) != 0) {
        for (size_t i = 0; i < b->n; i++)
            set_msg(&b->pairs[i], GT_DIFF_ERROR, err);
        return;
    }
    /* Fewer pairs than cores: parallelise inside each pair instead. */
    if (b->n < t) {
        for (size_t i = 0; i < b->n; i++)
            run_pair(&b->pairs[i], o, diff_dir, t);
        return;
    }
    pool pl = {.b = b, .o = o, .diff_dir = diff_dir};
    atomic_init(&pl.next, 0);
    pthread_t *tids = calloc(t, sizeof *tids);
    unsigned started = 0;
    /* This thread is worker number t; if some fail to start, the others
     * simply take more pairs each. */
    for (unsigned i = 1; tids && i < t; i++)
        if (pthread_create(&tids[started], NULL, worker, &pl) == 0)
            started++;
    worker(&pl);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
}
