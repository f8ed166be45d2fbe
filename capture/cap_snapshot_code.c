/* cap_snapshot_code.c: on the flusher thread, each gltraceSnapshot record
 * of a buffer is rewritten with its pixels coded against the previous
 * snapshot of the same target on the same thread (gt_snapshot.h,
 * FORMAT.md "Snapshot coding"), before the chunk is compressed. The app's
 * thread only read the pixels into its buffer, as before.
 *
 * A target is a slot: the context, what was read (source, surface, object,
 * attachment, level, layer), with its size and format. Each thread has at
 * most SLOTS of them; a slot reused for another target, resized, or due
 * after GT_SNAP_KEY_INTERVAL snapshots starts with a keyframe. Readers key
 * by thread id and slot number, and see one thread's records in the order
 * this thread codes them (a thread's buffers are flushed oldest first). */
#include "cap_internal.h"
#include "gt_snapshot.h"
#include "gt_trace.h"
#include "gt_wire_enc.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define SLOTS 16
#define THREADS 64

typedef struct target {
    uint64_t key[8]; /* context, source, surface, object, attachment, level, layer, format << 32 | type */
    int32_t w, h;
} target;

typedef struct cslot {
    target t;
    uint8_t *prev; /* the last snapshot's pixels */
    size_t size;
    uint32_t since_key;
    uint64_t used; /* pass number of its last use, for reuse */
} cslot;

typedef struct cthread {
    uint64_t tid, used;
    cslot s[SLOTS];
} cthread;

static int coding_on = 1;
static int level = 3;
static cthread *threads[THREADS];
static uint64_t pass;
static ZSTD_CCtx *zctx;
static uint8_t *out, *scratch;
static size_t out_cap, scratch_cap;

void cap_snapshot_code_setup(int on, int zstd_level)
{
    coding_on = on;
    level = zstd_level;
}

void cap_snapshot_code_restart(void)
{
    for (int i = 0; i < THREADS; i++) {
        for (int k = 0; threads[i] && k < SLOTS; k++)
            free(threads[i]->s[k].prev);
        free(threads[i]);
        threads[i] = NULL;
    }
}

/* ---------------------------------------------------------------- wire */

static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    for (int s = 0; s < 64 && *p < end; s += 7) {
        uint8_t b = *(*p)++;
        r |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

/* Skips one field's value of wire type `wt`. */
static int skip(const uint8_t **p, const uint8_t *end, unsigned wt)
{
    uint64_t v;
    if (wt == 0)
        return get_varint(p, end, &v);
    if (wt == 1 || wt == 5) {
        size_t n = wt == 1 ? 8 : 4;
        if ((size_t)(end - *p) < n)
            return -1;
        *p += n;
        return 0;
    }
    if (wt != 2 || get_varint(p, end, &v) != 0 || v > (uint64_t)(end - *p))
        return -1;
    *p += v;
    return 0;
}

/* What a snapshot record says, as capture wrote it (cap_snapshot.c). */
typedef struct parsed {
    const uint8_t *fb, *fb_end; /* the FrameBuffer field, key to end */
    const uint8_t *px;          /* contents */
    size_t npx;
    target t;
} parsed;

static int parse_fb(const uint8_t *p, const uint8_t *end, parsed *o)
{
    static const int slot_of[12] = {-1, -1, -1, -1, 7, 7, 1, 4, 3, 5, 6, 2};
    uint64_t fmt = 0, type = 0, v;
    while (p < end) {
        uint64_t key;
        if (get_varint(&p, end, &key) != 0)
            return -1;
        if (key == 0x1a) {
            if (get_varint(&p, end, &v) != 0 || v > (uint64_t)(end - p) || o->px)
                return -1;
            o->px = p, o->npx = (size_t)v;
            p += v;
            continue;
        }
        if ((key & 7) != 0 || get_varint(&p, end, &v) != 0 || key >> 3 > 11)
            return -1; /* coded already, or not ours */
        unsigned f = (unsigned)(key >> 3);
        if (f == 1)
            o->t.w = (int32_t)v;
        else if (f == 2)
            o->t.h = (int32_t)v;
        else if (f == 4)
            fmt = v;
        else if (f == 5)
            type = v;
        else if (slot_of[f] >= 0)
            o->t.key[slot_of[f]] = v;
    }
    o->t.key[7] = fmt << 32 | type;
    return o->px && o->t.w > 0 && o->t.h > 0 ? 0 : -1;
}

/* 1 when the message is a snapshot capture wrote, with *o filled. */
static int parse(const uint8_t *m, size_t n, parsed *o)
{
    memset(o, 0, sizeof *o);
    const uint8_t *p = m, *end = m + n;
    uint64_t fn = 0;
    while (p < end) {
        const uint8_t *field = p;
        uint64_t key, v;
        if (get_varint(&p, end, &key) != 0)
            return 0;
        if (key == 0x08 || key == 0x20) {
            if (get_varint(&p, end, &v) != 0)
                return 0;
            if (key == 0x08)
                o->t.key[0] = v;
            else if ((fn = v) != GT_FN_SNAPSHOT)
                return 0;
            continue;
        }
        if (key == 0x3a) {
            if (get_varint(&p, end, &v) != 0 || v > (uint64_t)(end - p) || parse_fb(p, p + v, o) != 0)
                return 0;
            o->fb = field, o->fb_end = p + v;
            p += v;
            continue;
        }
        if (skip(&p, end, (unsigned)(key & 7)) != 0)
            return 0;
    }
    return fn == GT_FN_SNAPSHOT && o->fb;
}

/* ---------------------------------------------------------------- slots */

static cthread *thread_of(uint64_t tid)
{
    int free_i = -1, old_i = 0;
    for (int i = 0; i < THREADS; i++) {
        if (threads[i] && threads[i]->tid == tid)
            return threads[i];
        if (!threads[i] && free_i < 0)
            free_i = i;
        if (threads[i] && threads[old_i] && threads[i]->used < threads[old_i]->used)
            old_i = i;
    }
    int i = free_i >= 0 ? free_i : old_i;
    if (!threads[i] && !(threads[i] = calloc(1, sizeof *threads[i])))
        return NULL;
    /* A thread forgotten: its next snapshots start with keyframes, which
     * is what a reader sees too, so both agree. */
    for (int k = 0; k < SLOTS; k++)
        free(threads[i]->s[k].prev);
    memset(threads[i], 0, sizeof *threads[i]);
    threads[i]->tid = tid;
    return threads[i];
}

/* The slot of target t; *fresh when it starts a new chain. */
static int slot_of(cthread *th, const target *t, int *fresh)
{
    int best = 0;
    for (int i = 0; i < SLOTS; i++) {
        if (th->s[i].prev && !memcmp(th->s[i].t.key, t->key, sizeof t->key)) {
            *fresh = th->s[i].t.w != t->w || th->s[i].t.h != t->h || th->s[i].since_key >= GT_SNAP_KEY_INTERVAL;
            return i;
        }
        if (th->s[i].used < th->s[best].used)
            best = i;
    }
    *fresh = 1;
    return best;
}

static int reserve(uint8_t **b, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1 << 20;
    while (c < n)
        c *= 2;
    uint8_t *v = realloc(*b, c);
    if (!v)
        return -1;
    *b = v, *cap = c;
    return 0;
}

/* ---------------------------------------------------------------- records */

/* Appends the coded form of a snapshot record (message m, n bytes) at
 * out+at. Returns the bytes written, 0 to keep the record as it is. */
static size_t code_record(cthread *th, const uint8_t *m, size_t n, const parsed *r, size_t at)
{
    int fresh;
    int i = slot_of(th, &r->t, &fresh);
    cslot *s = &th->s[i];
    if (fresh)
        s->since_key = GT_SNAP_KEY_INTERVAL; /* should this fail, the next one is a keyframe */
    if (fresh && s->size != r->npx) {
        uint8_t *v = realloc(s->prev, r->npx ? r->npx : 1);
        if (!v)
            return 0;
        s->prev = v, s->size = r->npx;
    }
    if (reserve(&scratch, &scratch_cap, r->npx) != 0)
        return 0;
    size_t bound = gt_snap_bound(r->npx), head = 64;
    if (reserve(&out, &out_cap, at + n + bound + head) != 0)
        return 0;
    uint8_t *o = out + at + 4;
    size_t before = (size_t)(r->fb - m), after = n - (size_t)(r->fb_end - m);
    memcpy(o, m, before);
    uint8_t *fb = o + before + 8; /* key and a length of up to 7 bytes, moved below */
    uint8_t *q = fb;
    uint64_t hash = gt_snap_hash(r->px, r->npx);
    *q++ = 0x61;
    for (int k = 0; k < 8; k++)
        *q++ = (uint8_t)(hash >> (8 * k));
    *q++ = 0x68, q = gt_put_varint(q, fresh ? GT_SNAP_KEY : GT_SNAP_DELTA);
    *q++ = 0x70, q = gt_put_varint(q, (uint64_t)i);
    /* The fields other than the pixels, as capture wrote them. */
    const uint8_t *f = r->fb + 1; /* past the key, then the length */
    uint64_t v;
    get_varint(&f, r->fb_end, &v);
    while (f < r->fb_end) {
        const uint8_t *start = f;
        uint64_t key = 0;
        get_varint(&f, r->fb_end, &key); /* parse_fb read these already */
        skip(&f, r->fb_end, (unsigned)(key & 7));
        if (key != 0x1a)
            memcpy(q, start, (size_t)(f - start)), q += f - start;
    }
    uint8_t *data = q + 1 + gt_varint_len(bound);
    long z = (long)r->npx;
    if (fresh)
        memcpy(data, r->px, r->npx); /* raw: the chunk's compression sees it with its neighbours */
    else
        z = gt_snap_encode(zctx, level < 1 ? level : 1, r->px, s->prev, scratch, r->npx,
                           r->npx / ((size_t)r->t.w * (size_t)r->t.h), data, bound);
    if (z < 0)
        return 0;
    *q++ = 0x1a;
    uint8_t *len_at = q;
    q = gt_put_varint(q, (uint64_t)z);
    if (q != len_at + gt_varint_len(bound))
        memmove(q, len_at + gt_varint_len(bound), (size_t)z);
    q += z;
    size_t fb_len = (size_t)(q - fb);
    uint8_t *k = o + before;
    *k++ = 0x3a;
    k = gt_put_varint(k, fb_len);
    memmove(k, fb, fb_len);
    k += fb_len;
    memcpy(k, r->fb_end, after);
    k += after;
    memcpy(s->prev, r->px, r->npx);
    s->t = r->t;
    s->since_key = fresh ? 1 : s->since_key + 1;
    s->used = pass;
    size_t len = (size_t)(k - (out + at + 4));
    uint8_t *L = out + at;
    L[0] = (uint8_t)(len >> 24), L[1] = (uint8_t)(len >> 16), L[2] = (uint8_t)(len >> 8), L[3] = (uint8_t)len;
    return 4 + len;
}

uint32_t cap_snapshot_code(uint64_t tid, const uint8_t *d, size_t len, const uint8_t **res, size_t *res_len)
{
    *res = d, *res_len = len;
    if (!coding_on || (!zctx && !(zctx = ZSTD_createCCtx())))
        return 0; /* raw, as format 1 */
    cthread *th = thread_of(tid);
    if (!th)
        return 0;
    th->used = ++pass;
    size_t at = 0;
    uint32_t found = 0, coded = 0;
    for (size_t off = 0; off + 4 <= len;) {
        size_t n = (size_t)d[off] << 24 | (size_t)d[off + 1] << 16 | (size_t)d[off + 2] << 8 | d[off + 3];
        const uint8_t *m = d + off + 4;
        parsed r;
        int snap = parse(m, n, &r);
        size_t w = snap ? code_record(th, m, n, &r, at) : 0;
        found += snap != 0;
        if (w) {
            coded++;
        } else {
            if (reserve(&out, &out_cap, at + 4 + n) != 0) {
                for (int k = 0; k < SLOTS; k++) /* the records go raw: no chain goes on from them */
                    th->s[k].since_key = GT_SNAP_KEY_INTERVAL;
                return found;
            }
            memcpy(out + at, d + off, 4 + n);
            w = 4 + n;
        }
        at += w;
        off += 4 + n;
    }
    if (coded)
        *res = out, *res_len = at;
    return found;
}
