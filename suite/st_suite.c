/* st_suite.c: the suite file, read for one device (schema: README.md).
 * A trace's own keys apply on every device; its entry for the device adds
 * to them and wins. Mesa's traces YAML reads as the same schema: its
 * `checksum` is the checksum of the last snapshot. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "st_internal.h"

typedef struct parse {
    st_doc *d;
    char err[ST_ERR_MAX];
} parse;

static int strs_of(parse *p, yaml_node_t *n, st_strs *out, const char *what)
{
    if (st_scalar(n)) {
        st_strs_push(out, st_scalar(n));
        return 0;
    }
    if (!n || n->type != YAML_SEQUENCE_NODE)
        return st_doc_fail(p->d, n, p->err, "%s: expected a list of strings", what);
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
        const char *s = st_scalar(st_node(p->d, *i));
        if (!s)
            return st_doc_fail(p->d, st_node(p->d, *i), p->err, "%s: expected a string", what);
        st_strs_push(out, s);
    }
    return 0;
}

static int env_of(parse *p, yaml_node_t *n, st_strs *out)
{
    if (!n || n->type != YAML_MAPPING_NODE)
        return st_doc_fail(p->d, n, p->err, "env: expected a mapping NAME: VALUE");
    for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < n->data.mapping.pairs.top; q++) {
        const char *k = st_scalar(st_node(p->d, q->key)), *v = st_scalar(st_node(p->d, q->value));
        if (!k || !v)
            return st_doc_fail(p->d, st_node(p->d, q->key), p->err, "env: expected NAME: VALUE strings");
        char *kv = st_fmt("%s=%s", k, v);
        st_strs_push(out, kv);
        free(kv);
    }
    return 0;
}

static int seconds_of(parse *p, yaml_node_t *n, double *out)
{
    const char *s = st_scalar(n);
    char *end;
    double v = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || !(v > 0))
        return st_doc_fail(p->d, n, p->err, "timeout: expected seconds, a number above 0");
    *out = v;
    return 0;
}

static int label_of(parse *p, yaml_node_t *n, unsigned *labels)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        {"skip", ST_L_SKIP},   {"unsupported", ST_L_SKIP}, {"flaky", ST_L_FLAKY},     {"flakes", ST_L_FLAKY},
        {"crash", ST_L_CRASH}, {"slow", ST_L_SLOW},         {"timeout", ST_L_TIMEOUT}, {"hang", ST_L_TIMEOUT},
        {"fail", ST_L_FAIL},   {"no-perf", 0},
    };
    st_strs l = {0};
    if (strs_of(p, n, &l, "label") != 0) {
        st_strs_free(&l); /* the labels before the one that is not a string */
        return -1;
    }
    for (size_t i = 0; i < l.n; i++) {
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] && strcmp(names[k].name, l.v[i]))
            k++;
        if (k == sizeof names / sizeof names[0]) {
            st_doc_fail(p->d, n, p->err, "label '%s': expected skip, flaky, crash, slow, timeout or fail", l.v[i]);
            st_strs_free(&l);
            return -1;
        }
        *labels |= names[k].bit;
    }
    st_strs_free(&l);
    return 0;
}

static void sum_push(st_trace *t, const char *key, const char *hash)
{
    st_sum *v = realloc(t->sums, (t->nsums + 1) * sizeof *v);
    if (!v)
        abort();
    t->sums = v;
    t->sums[t->nsums].key = st_strdup(key), t->sums[t->nsums].hash = st_strdup(hash);
    t->nsums++;
}

static int sums_of(parse *p, yaml_node_t *n, st_trace *t)
{
    if (st_scalar(n) && !*st_scalar(n)) { /* `checksums:` with nothing yet */
        t->expect = ST_EXPECT_CHECKSUMS;
        return 0;
    }
    if (!n || n->type != YAML_MAPPING_NODE)
        return st_doc_fail(p->d, n, p->err, "checksums: expected a mapping SNAPSHOT: CHECKSUM");
    for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < n->data.mapping.pairs.top; q++) {
        const char *k = st_scalar(st_node(p->d, q->key)), *v = st_scalar(st_node(p->d, q->value));
        if (!k || !v)
            return st_doc_fail(p->d, st_node(p->d, q->key), p->err, "checksums: expected SNAPSHOT: CHECKSUM");
        sum_push(t, k, v);
    }
    t->expect = ST_EXPECT_CHECKSUMS;
    return 0;
}

static int expect_of(parse *p, yaml_node_t *n, st_trace *t)
{
    const char *s = st_scalar(n);
    if (s && !strcmp(s, "recorded")) {
        t->expect = ST_EXPECT_RECORDED;
        return 0;
    }
    if (s && !strcmp(s, "none")) {
        t->expect = ST_EXPECT_NONE;
        return 0;
    }
    yaml_node_t *c = st_map_get(p->d, n, "checksums");
    if (c)
        return sums_of(p, c, t);
    return st_doc_fail(p->d, n, p->err, "expect: expected recorded, none or {checksums: {...}}");
}

/* One key of a trace or of its device entry; 1 when the key is not one. */
static int trace_key(parse *p, const char *k, yaml_node_t *v, st_trace *t)
{
    if (!strcmp(k, "options"))
        return strs_of(p, v, &t->options, "options");
    if (!strcmp(k, "wrapper")) {
        st_strs_free(&t->wrapper);
        return strs_of(p, v, &t->wrapper, "wrapper");
    }
    if (!strcmp(k, "env"))
        return env_of(p, v, &t->env);
    if (!strcmp(k, "timeout"))
        return seconds_of(p, v, &t->timeout);
    if (!strcmp(k, "label"))
        return label_of(p, v, &t->labels);
    if (!strcmp(k, "expect"))
        return expect_of(p, v, t);
    if (!strcmp(k, "checksums"))
        return sums_of(p, v, t);
    if (!strcmp(k, "checksum")) {
        if (!st_scalar(v))
            return st_doc_fail(p->d, v, p->err, "checksum: expected a string");
        t->expect = ST_EXPECT_CHECKSUMS;
        if (*st_scalar(v))
            sum_push(t, "last", st_scalar(v));
        return 0;
    }
    if (!strcmp(k, "text"))
        return 0; /* Mesa's free text */
    return 1;
}

static int device_entry(parse *p, yaml_node_t *n, st_trace *t)
{
    if (st_scalar(n) && !*st_scalar(n))
        return 0;
    if (!n || n->type != YAML_MAPPING_NODE)
        return st_doc_fail(p->d, n, p->err, "a device entry: expected a mapping");
    for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < n->data.mapping.pairs.top; q++) {
        yaml_node_t *kn = st_node(p->d, q->key);
        const char *k = st_scalar(kn);
        int rc = k ? trace_key(p, k, st_node(p->d, q->value), t) : 1;
        if (rc < 0)
            return -1;
        if (rc > 0)
            return st_doc_fail(p->d, kn, p->err, "unknown key '%s' in a device entry", k ? k : "?");
    }
    return 0;
}

static const char *const trace_only[] = {"url", "sha256"};

static int trace_entry(parse *p, const char *name, yaml_node_t *n, const char *device, st_trace *t)
{
    t->name = st_strdup(name);
    if (st_scalar(n) && !*st_scalar(n))
        return 0;
    if (!n || n->type != YAML_MAPPING_NODE)
        return st_doc_fail(p->d, n, p->err, "trace '%s': expected a mapping", name);
    yaml_node_t *mine = NULL;
    for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < n->data.mapping.pairs.top; q++) {
        yaml_node_t *kn = st_node(p->d, q->key), *v = st_node(p->d, q->value);
        const char *k = st_scalar(kn);
        if (!k)
            return st_doc_fail(p->d, kn, p->err, "expected a key");
        if (!strcmp(k, trace_only[0]) || !strcmp(k, trace_only[1])) {
            if (!st_scalar(v))
                return st_doc_fail(p->d, v, p->err, "%s: expected a string", k);
            char **to = k[0] == 'u' ? &t->url : &t->sha256;
            free(*to); /* a key given twice: the last one wins */
            *to = st_strdup(st_scalar(v));
            continue;
        }
        int rc = trace_key(p, k, v, t);
        if (rc < 0)
            return -1;
        if (rc > 0 && !strcmp(k, device))
            mine = v;
    }
    if (!mine)
        return 0;
    if (t->expect == ST_EXPECT_NONE) /* named for the device (Mesa style): a checksum, maybe not yet written */
        t->expect = ST_EXPECT_CHECKSUMS;
    return device_entry(p, mine, t);
}

static int devices_section(parse *p, yaml_node_t *n, const char *device, st_trace *base)
{
    if (n->type != YAML_MAPPING_NODE)
        return st_doc_fail(p->d, n, p->err, "devices: expected a mapping NAME: {env, wrapper, timeout, options}");
    yaml_node_t *mine = st_map_get(p->d, n, device);
    return mine ? device_entry(p, mine, base) : 0;
}

static void copy_base(st_trace *t, const st_trace *b)
{
    for (size_t i = 0; i < b->options.n; i++)
        st_strs_push(&t->options, b->options.v[i]);
    for (size_t i = 0; i < b->env.n; i++)
        st_strs_push(&t->env, b->env.v[i]);
    for (size_t i = 0; i < b->wrapper.n; i++)
        st_strs_push(&t->wrapper, b->wrapper.v[i]);
    t->timeout = b->timeout, t->labels = b->labels, t->expect = b->expect;
    for (size_t i = 0; i < b->nsums; i++)
        sum_push(t, b->sums[i].key, b->sums[i].hash);
}

static void trace_free(st_trace *t)
{
    free(t->name);
    free(t->path);
    free(t->url);
    free(t->sha256);
    st_strs_free(&t->options);
    st_strs_free(&t->env);
    st_strs_free(&t->wrapper);
    for (size_t i = 0; i < t->nsums; i++) {
        free(t->sums[i].key);
        free(t->sums[i].hash);
    }
    free(t->sums);
    memset(t, 0, sizeof *t);
}

static int top_level(parse *p, st_suite *s, const char *device, st_trace *base, yaml_node_t **traces)
{
    yaml_node_t *root = st_root(p->d);
    if (root->type != YAML_MAPPING_NODE)
        return st_doc_fail(p->d, root, p->err, "expected a mapping with 'traces'");
    for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < root->data.mapping.pairs.top; q++) {
        yaml_node_t *kn = st_node(p->d, q->key), *v = st_node(p->d, q->value);
        const char *k = st_scalar(kn);
        int rc = 0;
        if (!k)
            return st_doc_fail(p->d, kn, p->err, "expected a key");
        if (!strcmp(k, "traces")) {
            *traces = v;
        } else if (!strcmp(k, "traces-db")) {
            const char *u = st_scalar(st_map_get(p->d, v, "download-url"));
            if (!u || !*u)
                return st_doc_fail(p->d, v, p->err, "traces-db: expected download-url: URL");
            free(s->download_url);
            s->download_url = st_strdup(u);
            if (base->expect == ST_EXPECT_RECORDED)
                base->expect = ST_EXPECT_NONE; /* Mesa: a trace runs only on the devices it names */
        } else if (!strcmp(k, "devices")) {
            rc = devices_section(p, v, device, base);
        } else if (strcmp(k, "options") && strcmp(k, "timeout") && strcmp(k, "expect") && strcmp(k, "label")) {
            return st_doc_fail(p->d, kn, p->err, "unknown key '%s' (expected traces, traces-db, devices, options, "
                               "timeout, expect)", k);
        } else {
            rc = trace_key(p, k, v, base);
        }
        if (rc)
            return -1;
    }
    if (!*traces || ((*traces)->type != YAML_MAPPING_NODE && !(st_scalar(*traces) && !*st_scalar(*traces))))
        return st_doc_fail(p->d, *traces ? *traces : root, p->err, "expected 'traces:' with a mapping PATH: ENTRY");
    return 0;
}

static void resolve_path(st_suite *s, st_trace *t)
{
    t->path = t->name[0] == '/' ? st_strdup(t->name) : st_fmt("%s/%s", s->dir, t->name);
    struct stat st;
    if (stat(t->path, &st) == 0)
        t->size = st.st_size;
    else if (!t->url && s->download_url)
        t->url = st_fmt("%s%s%s", s->download_url, s->download_url[strlen(s->download_url) - 1] == '/' ? "" : "/",
                        t->name);
}

static int load_traces(parse *p, st_suite *s, const char *device, const st_trace *base, yaml_node_t *traces)
{
    if (traces->type != YAML_MAPPING_NODE)
        return 0;
    size_t n = (size_t)(traces->data.mapping.pairs.top - traces->data.mapping.pairs.start);
    s->traces = calloc(n ? n : 1, sizeof *s->traces);
    for (yaml_node_pair_t *q = traces->data.mapping.pairs.start; q < traces->data.mapping.pairs.top; q++) {
        yaml_node_t *kn = st_node(p->d, q->key);
        const char *k = st_scalar(kn);
        if (!k || !*k)
            return st_doc_fail(p->d, kn, p->err, "expected a trace path or name");
        for (size_t i = 0; i < s->ntraces; i++)
            if (!strcmp(s->traces[i].name, k))
                return st_doc_fail(p->d, kn, p->err, "trace '%s' is listed twice", k);
        st_trace *t = &s->traces[s->ntraces++];
        copy_base(t, base);
        if (trace_entry(p, k, st_node(p->d, q->value), device, t) != 0)
            return -1;
        resolve_path(s, t);
    }
    return 0;
}

int st_suite_load(st_suite *s, const char *path, const char *device)
{
    memset(s, 0, sizeof *s);
    parse p = {.d = &s->doc};
    st_trace base = {.timeout = 300, .expect = ST_EXPECT_RECORDED};
    yaml_node_t *traces = NULL;
    const char *slash = strrchr(path, '/');
    s->dir = slash ? st_fmt("%.*s", (int)(slash - path), path) : st_strdup(".");
    if (s->dir[0] == 0) {
        free(s->dir);
        s->dir = st_strdup("/");
    }
    int rc = st_doc_load(&s->doc, path, p.err) != 0 || top_level(&p, s, device, &base, &traces) != 0 ||
             load_traces(&p, s, device, &base, traces) != 0;
    trace_free(&base);
    if (rc)
        st_say("%s", p.err);
    return rc ? 2 : 0;
}

void st_suite_free(st_suite *s)
{
    for (size_t i = 0; i < s->ntraces; i++)
        trace_free(&s->traces[i]);
    free(s->traces);
    free(s->dir);
    free(s->download_url);
    st_doc_free(&s->doc);
    memset(s, 0, sizeof *s);
}
