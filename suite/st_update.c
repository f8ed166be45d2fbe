/* st_update.c: `gltrace suite update`: the checksums a run measured,
 * written into the device's entries of the suite file as edits of its
 * text (st_edit.h), so that the change a reviewer reads is only theirs.
 * An entry with Mesa's `checksum:` gets the last snapshot's; any other
 * gets `checksums:`, a line per snapshot. Traces that expect their recorded
 * snapshots on the device are left alone; keys of snapshots the run did not
 * give are kept. */
#include <stdlib.h>
#include <string.h>

#include "st_classify.h"
#include "st_edit.h"

typedef struct update {
    st_doc *d;
    const char *device;
    gt_suite_only only;
    st_edits e;
    size_t written;
} update;

static int wanted(update *u, const char *old, const char *now)
{
    int missing = !old || !*old, changed = old && *old && strcasecmp(old, now);
    return (missing && u->only != GT_SUITE_ONLY_CHANGED) || (changed && u->only != GT_SUITE_ONLY_MISSING);
}

static int usable(const st_snap *s)
{
    return s->hash[0] && strcmp(s->status, "not compared") && strcmp(s->status, "unreadable");
}

static void set_scalar(update *u, yaml_node_t *v, const char *now)
{
    int quoted = v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    char q = v->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ? '\'' : '"';
    size_t at = v->start_mark.index, cut = v->end_mark.index - v->start_mark.index;
    if (st_is_empty(v)) /* `checksum:` and nothing: the value goes after the colon */
        st_edits_add(&u->e, at, 0, st_fmt(" %s", now));
    else
        st_edits_add(&u->e, at, cut, quoted ? st_fmt("%c%s%c", q, now, q) : st_strdup(now));
    u->written++;
}

/* "K: H" lines (block, at column col) or "K: H, ..." (flow) of the
 * snapshots to add to `have` (NULL: none yet). */
static char *new_sums(update *u, const st_result *x, yaml_node_t *have, size_t col, int flow)
{
    char *out = st_strdup("");
    for (size_t i = 0; i < x->nsnaps; i++) {
        if (!usable(&x->snaps[i]))
            continue;
        char *k = st_snap_key(&x->snaps[i]);
        yaml_node_t *old = have ? st_map_get(u->d, have, k) : NULL;
        if (old && st_scalar(old) && wanted(u, st_scalar(old), x->snaps[i].hash))
            set_scalar(u, old, x->snaps[i].hash);
        else if (!old && u->only != GT_SUITE_ONLY_CHANGED) {
            char *more = flow ? st_fmt("%s%s%s: %s", out, *out ? ", " : "", k, x->snaps[i].hash)
                              : st_fmt("%s\n%*s%s: %s", out, (int)col, "", k, x->snaps[i].hash);
            free(out);
            out = more;
            u->written++;
        }
        free(k);
    }
    return out;
}

static void into_checksums(update *u, const st_result *x, yaml_node_t *sums)
{
    if (sums->type == YAML_MAPPING_NODE && !st_is_flow(u->d, sums)) {
        char *add = new_sums(u, x, sums, st_key_column(u->d, sums), 0);
        if (*add)
            st_edits_add(&u->e, st_line_end_after(u->d, sums), 0, add);
        else
            free(add);
        return;
    }
    int flow = sums->type == YAML_MAPPING_NODE;
    char *add = new_sums(u, x, flow ? sums : NULL, 0, 1);
    if (!*add)
        ;
    else if (flow) /* before the closing brace */
        st_edits_add(&u->e, sums->end_mark.index - 1, 0,
                     st_fmt("%s%s", sums->data.mapping.pairs.top > sums->data.mapping.pairs.start ? ", " : "", add));
    else
        st_edits_add(&u->e, sums->start_mark.index, sums->end_mark.index - sums->start_mark.index,
                     st_fmt("%s{%s}", st_is_empty(sums) ? " " : "", add));
    free(add);
}

/* The device's entry exists (a mapping): its checksum, or new checksums. */
static void into_entry(update *u, const st_result *x, yaml_node_t *dev)
{
    yaml_node_t *one = st_map_get(u->d, dev, "checksum"), *many = st_map_get(u->d, dev, "checksums");
    yaml_node_t *exp = st_map_get(u->d, dev, "expect");
    if (!many && exp)
        many = st_map_get(u->d, exp, "checksums");
    if (one) {
        const st_snap *last = NULL;
        for (size_t i = 0; i < x->nsnaps; i++)
            last = usable(&x->snaps[i]) ? &x->snaps[i] : last;
        if (last && st_scalar(one) && wanted(u, st_scalar(one), last->hash))
            set_scalar(u, one, last->hash);
    } else if (many) {
        into_checksums(u, x, many);
    } else if (!exp && u->only != GT_SUITE_ONLY_CHANGED) {
        int flow = st_is_flow(u->d, dev);
        size_t col = st_key_column(u->d, dev);
        char *sums = new_sums(u, x, NULL, col + 2, flow);
        if (!*sums)
            ;
        else if (flow)
            st_edits_add(&u->e, dev->end_mark.index - 1, 0,
                         st_fmt("%schecksums: {%s}", dev->data.mapping.pairs.top > dev->data.mapping.pairs.start
                                ? ", " : "", sums));
        else
            st_edits_add(&u->e, st_line_end_after(u->d, dev), 0, st_fmt("\n%*schecksums:%s", (int)col, "", sums));
        free(sums);
    }
}

/* The trace has no entry for the device yet: one is added, unless the
 * trace says it expects its recording everywhere. */
static void new_entry(update *u, const st_result *x, yaml_node_t *key, yaml_node_t *trace)
{
    if (u->only == GT_SUITE_ONLY_CHANGED || st_map_get(u->d, trace, "expect") ||
        (trace->type != YAML_MAPPING_NODE && !st_is_empty(trace)) || st_is_flow(u->d, trace))
        return;
    size_t col = trace->type == YAML_MAPPING_NODE ? st_key_column(u->d, trace) : key->start_mark.column + 2;
    char *sums = new_sums(u, x, NULL, col + 4, 0);
    size_t at = st_line_end_after(u->d, trace->type == YAML_MAPPING_NODE ? trace : key);
    if (*sums)
        st_edits_add(&u->e, at, 0, st_fmt("\n%*s%s:\n%*schecksums:%s", (int)col, "", u->device, (int)col + 2, "",
                                          sums));
    free(sums);
}

/* `DEVICE:` with nothing after it: the checksums go below its key. */
static void into_empty_entry(update *u, const st_result *x, yaml_node_t *trace, yaml_node_t *dev)
{
    yaml_node_t *key = NULL;
    for (yaml_node_pair_t *q = trace->data.mapping.pairs.start; q < trace->data.mapping.pairs.top; q++)
        if (st_node(u->d, q->value) == dev)
            key = st_node(u->d, q->key);
    if (!key || st_is_flow(u->d, trace) || u->only == GT_SUITE_ONLY_CHANGED)
        return;
    size_t col = key->start_mark.column + 2;
    char *sums = new_sums(u, x, NULL, col + 2, 0);
    if (*sums)
        st_edits_add(&u->e, st_line_end_after(u->d, key), 0, st_fmt("\n%*schecksums:%s", (int)col, "", sums));
    free(sums);
}

static const st_result *result_of(const st_results *r, const char *trace)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->v[i].trace, trace) && r->v[i].nsnaps)
            return &r->v[i];
    return NULL;
}

/* Such a trace compares with its own snapshots on this device: no checksum. */
static int expects_recording(const st_suite *s, const char *name)
{
    for (size_t i = 0; i < s->ntraces; i++)
        if (!strcmp(s->traces[i].name, name))
            return s->traces[i].expect == ST_EXPECT_RECORDED;
    return 1;
}

static int load_run(const char *from, st_results *r)
{
    char err[ST_ERR_MAX];
    if (st_csv_read(from, r, err) != 0) {
        st_say("%s", err);
        return -1;
    }
    for (size_t i = 0; i < r->n; i++) {
        int rc;
        char *keep = r->v[i].message;
        r->v[i].message = NULL;
        st_report_read(from, &r->v[i], &rc, err);
        free(r->v[i].message);
        r->v[i].message = keep;
    }
    return 0;
}

int gt_suite_update(const char *suite, const char *device, const char *from_dir, gt_suite_only only)
{
    st_suite s;
    if (st_suite_load(&s, suite, device) != 0) /* the whole file is checked before any edit */
        return 2;
    st_results r = {0};
    if (load_run(from_dir, &r) != 0) {
        st_suite_free(&s);
        return 2;
    }
    update u = {.d = &s.doc, .device = device, .only = only};
    yaml_node_t *traces = st_map_get(u.d, st_root(u.d), "traces");
    for (yaml_node_pair_t *q = traces && traces->type == YAML_MAPPING_NODE ? traces->data.mapping.pairs.start : NULL;
         q && q < traces->data.mapping.pairs.top; q++) {
        yaml_node_t *key = st_node(u.d, q->key), *t = st_node(u.d, q->value);
        const st_result *x = result_of(&r, st_scalar(key));
        yaml_node_t *dev = x ? st_map_get(u.d, t, device) : NULL;
        if (!x || expects_recording(&s, st_scalar(key)))
            continue;
        if (dev && dev->type == YAML_MAPPING_NODE)
            into_entry(&u, x, dev);
        else if (dev && st_is_empty(dev))
            into_empty_entry(&u, x, t, dev);
        else if (!dev)
            new_entry(&u, x, key, t);
    }
    int rc = u.e.n ? st_edits_save(&u.e, u.d) : 0;
    st_say("%s: %zu checksums written for %s", suite, rc == 0 ? u.written : 0, device);
    st_results_free(&r);
    st_suite_free(&s);
    return rc ? 2 : 0;
}
