/* view_find.c: filter and find over a whole trace, on the server: a
 * thread reads every record, renders it as `gltrace dump` shows it and
 * tries the patterns on that line (without its leading call number), so
 * a pattern can name a function, an enum or a value. The page polls for
 * progress and asks for matches as they come. One search at a time: a
 * new one cancels the last. */
#define _GNU_SOURCE
#include <regex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gt_show.h"
#include "view_server.h"

#define MAX_RE 8

struct view_find {
    int id;
    uint64_t used;     /* s->find_clock when last asked about: the oldest goes first */
    view_server *s;
    regex_t re[MAX_RE];
    size_t nre;
    int all;
    pthread_t thread;
    atomic_int cancel, done;
    atomic_uint_fast64_t scanned;
    uint64_t *match;   /* positions, ascending; grown under s->lock */
    uint64_t nmatch, cap;
    char error[GT_ERRLEN];
};

static int matches(view_find *f, const char *line)
{
    for (size_t i = 0; i < f->nre; i++) {
        int hit = regexec(&f->re[i], line, 0, NULL, 0) == 0;
        if (hit && !f->all)
            return 1;
        if (!hit && f->all)
            return 0;
    }
    return f->all;
}

static int add_match(view_find *f, uint64_t pos)
{
    pthread_mutex_lock(&f->s->lock);
    int rc = 0;
    if (f->nmatch == f->cap) {
        uint64_t cap = f->cap ? f->cap * 2 : 1024;
        uint64_t *m = realloc(f->match, cap * sizeof *m);
        if (!m)
            rc = -1;
        else
            f->match = m, f->cap = cap;
    }
    if (rc == 0)
        f->match[f->nmatch++] = pos;
    pthread_mutex_unlock(&f->s->lock);
    return rc;
}

static void *run(void *arg)
{
    view_find *f = arg;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    gt_reader *r = gt_reader_open(f->s->trace, f->error, sizeof f->error);
    gt_snap_chain *chain = gt_snap_chain_new(); /* coded snapshots shown by their pixels, as dump does */
    gt_record rec;
    int rc = 0;
    uint64_t pos = 0;
    while (mem && r && chain && !atomic_load(&f->cancel) && (rc = gt_reader_next(r, &rec)) == 1) {
        Gltrace__GLMessage *m = gltrace__glmessage__unpack(NULL, rec.size, rec.data);
        if (!m) {
            snprintf(f->error, sizeof f->error, "%s: record %llu (chunk at byte %llu) is not a valid GLMessage",
                     f->s->trace, (unsigned long long)rec.seq, (unsigned long long)rec.offset);
            break;
        }
        fseek(mem, 0, SEEK_SET);
        gt_show_record(mem, m, &rec, 0, 0, chain);
        fputc(0, mem);
        fflush(mem);
        gltrace__glmessage__free_unpacked(m, NULL);
        const char *line = text;
        while (*line >= '0' && *line <= '9')
            line++;
        if (*line == ' ')
            line++;
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (matches(f, line) && add_match(f, pos) != 0) {
            snprintf(f->error, sizeof f->error, "out of memory after %llu matches", (unsigned long long)f->nmatch);
            break;
        }
        atomic_store(&f->scanned, ++pos);
    }
    if (r && rc < 0)
        snprintf(f->error, sizeof f->error, "%s", gt_reader_error(r));
    if (r)
        gt_reader_close(r);
    gt_snap_chain_free(chain);
    if (mem)
        fclose(mem);
    free(text);
    atomic_store(&f->done, 1);
    return NULL;
}

void view_find_free(view_find *f)
{
    atomic_store(&f->cancel, 1);
    pthread_join(f->thread, NULL);
    for (size_t i = 0; i < f->nre; i++)
        regfree(&f->re[i]);
    free(f->match);
    free(f);
}

int view_find_start(view_server *s, const char *const *re, size_t nre, int all, char *err, size_t errlen)
{
    view_find *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    f->s = s;
    f->all = all;
    for (; f->nre < nre && f->nre < MAX_RE; f->nre++) {
        int rc = view_regex_check(re[f->nre], err, errlen) != 0 ? -1
                 : regcomp(&f->re[f->nre], re[f->nre], REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char why[200];
            if (rc > 0) {
                regerror(rc, &f->re[f->nre], why, sizeof why);
                snprintf(err, errlen, "regular expression '%.200s': %s", re[f->nre], why);
            }
            for (size_t i = 0; i < f->nre; i++)
                regfree(&f->re[i]);
            free(f);
            return -1;
        }
    }
    pthread_mutex_lock(&s->lock);
    f->id = ++s->next_find_id;
    pthread_mutex_unlock(&s->lock);
    if (pthread_create(&f->thread, NULL, run, f) != 0) {
        snprintf(err, errlen, "cannot start the search thread");
        for (size_t i = 0; i < f->nre; i++)
            regfree(&f->re[i]);
        free(f);
        return -1;
    }
    /* Several searches live at once (a page filters with one and finds
     * with another; a second tab has its own): the new one takes a free
     * slot, else the one least recently asked about. */
    pthread_mutex_lock(&s->lock);
    size_t slot = 0;
    for (size_t i = 0; i < VIEW_FINDS; i++) {
        if (!s->finds[i]) {
            slot = i;
            break;
        }
        if (s->finds[i]->used < s->finds[slot]->used)
            slot = i;
    }
    view_find *old = s->finds[slot];
    f->used = ++s->find_clock;
    s->finds[slot] = f;
    pthread_mutex_unlock(&s->lock);
    /* the old thread takes s->lock to add matches: joined without it */
    if (old)
        view_find_free(old);
    return f->id;
}

void view_find_stop_all(view_server *s)
{
    view_find *gone[VIEW_FINDS];
    pthread_mutex_lock(&s->lock);
    memcpy(gone, s->finds, sizeof gone);
    memset(s->finds, 0, sizeof s->finds);
    pthread_mutex_unlock(&s->lock);
    for (size_t i = 0; i < VIEW_FINDS; i++)
        if (gone[i]) /* joined without the lock, as above */
            view_find_free(gone[i]);
}

view_find *view_find_get(view_server *s, int id)
{
    for (size_t i = 0; i < VIEW_FINDS; i++)
        if (s->finds[i] && s->finds[i]->id == id) {
            s->finds[i]->used = ++s->find_clock;
            return s->finds[i];
        }
    return NULL;
}

void view_find_status(view_find *f, view_buf *b)
{
    view_buf_printf(b, "{\"id\":%d,\"done\":%s,\"scanned\":%llu,\"total\":%llu,\"matches\":%llu", f->id,
                    atomic_load(&f->done) ? "true" : "false", (unsigned long long)atomic_load(&f->scanned),
                    (unsigned long long)f->s->ix->ncalls, (unsigned long long)f->nmatch);
    if (atomic_load(&f->done) && f->error[0]) {
        view_buf_put(b, ",\"error\":", 9);
        view_buf_str(b, f->error);
    }
    view_buf_put(b, "}", 1);
}

size_t view_find_page(view_find *f, uint64_t k, uint64_t *pos, size_t n, uint64_t *total)
{
    size_t got = 0;
    for (uint64_t i = k; i < f->nmatch && got < n; i++)
        pos[got++] = f->match[i];
    *total = f->nmatch;
    return got;
}

int view_find_next(view_find *f, uint64_t pos, int dir, uint64_t *out, int *pending)
{
    /* first match > pos */
    uint64_t lo = 0, hi = f->nmatch;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (f->match[mid] <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    *pending = !atomic_load(&f->done);
    if (dir > 0) {
        if (lo < f->nmatch)
            return *out = f->match[lo], 1;
        return 0;
    }
    /* last match < pos */
    uint64_t i = lo;
    while (i > 0 && f->match[i - 1] >= pos)
        i--;
    if (i > 0)
        return *out = f->match[i - 1], *pending = 0, 1;
    return 0;
}
