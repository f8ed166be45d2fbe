/* rp_inspect_diff.c: what changed between two dumps (--diff-from). Both
 * state.json files are read back and flattened into JSON-pointer paths of
 * their leaves (an array of plain values is one leaf: a viewport changes
 * as a whole); the paths whose text differs, or that one side lacks, are
 * the changes. Numbers are compared as written, which is how the dump
 * writes them both times. */
#include "gt_inspect.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gt_diff.h"

typedef struct leaf { char *path; const char *v; size_t n; } leaf;
typedef struct flat { char *text; leaf *l; size_t n, cap; int bad; } flat;

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *skip_string(const char *p)
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return *p ? p + 1 : p;
}

/* The end of the value at p (no descent), or NULL. */
static const char *skip_value(const char *p)
{
    p = ws(p);
    if (*p == '"')
        return skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; *p; p++) {
            if (*p == '"') {
                p = skip_string(p) - 1;
                continue;
            }
            depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
            if (!depth)
                return p + 1;
        }
        return NULL;
    }
    const char *s = p;
    while (*p && !strchr(",}] \n\t\r", *p))
        p++;
    return p > s ? p : NULL;
}

static void add(flat *f, const char *path, const char *v, size_t n)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 1024;
        leaf *l = realloc(f->l, cap * sizeof *l);
        if (!l) {
            f->bad = 1;
            return;
        }
        f->l = l, f->cap = cap;
    }
    f->l[f->n].path = strdup(path);
    f->l[f->n].v = v, f->l[f->n].n = n;
    f->bad |= !f->l[f->n].path;
    f->n++;
}

/* An array of plain values only: a leaf. */
static int plain_array(const char *p, const char *end)
{
    if (*p != '[')
        return 0;
    for (p++; p < end; p++) {
        if (*p == '"')
            p = skip_string(p) - 1;
        else if (*p == '{' || *p == '[')
            return 0;
    }
    return 1;
}

static const char *walk(flat *f, const char *p, char *path, size_t len);

static const char *member(flat *f, const char *p, char *path, size_t len, const char *key, size_t klen)
{
    size_t at = strlen(path);
    if (at + klen + 2 < len) {
        path[at] = '/';
        for (size_t i = 0; i < klen; i++) /* JSON pointer: ~ and / escaped */
            path[at + 1 + i] = key[i] == '/' ? '|' : key[i];
        path[at + 1 + klen] = 0;
    }
    p = walk(f, p, path, len);
    path[at] = 0;
    return p;
}

static const char *walk(flat *f, const char *p, char *path, size_t len)
{
    p = ws(p);
    const char *end = skip_value(p);
    if (!end) {
        f->bad = 1;
        return NULL;
    }
    if ((*p != '{' && *p != '[') || plain_array(p, end)) {
        add(f, path, p, (size_t)(end - p));
        return end;
    }
    int obj = *p == '{';
    size_t index = 0;
    p = ws(p + 1);
    while (p && *p && *p != '}' && *p != ']') {
        char key[256];
        size_t klen;
        if (obj) {
            const char *ke = skip_string(p);
            klen = (size_t)(ke - p - 2) < sizeof key ? (size_t)(ke - p - 2) : sizeof key - 1;
            memcpy(key, p + 1, klen);
            p = ws(ke);
            if (*p != ':') {
                f->bad = 1;
                return NULL;
            }
            p++;
        } else {
            klen = (size_t)snprintf(key, sizeof key, "%zu", index++);
        }
        p = member(f, p, path, len, key, klen);
        p = p ? ws(p) : NULL;
        if (p && *p == ',')
            p = ws(p + 1);
    }
    return p && *p ? p + 1 : NULL;
}

static int load(const char *path, flat *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    f->text = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
    int ok = f->text && fread(f->text, 1, (size_t)n, fp) == (size_t)n;
    fclose(fp);
    char p[1024] = "";
    if (!ok || !walk(f, f->text, p, sizeof p) || f->bad) {
        snprintf(err, errlen, "%s: not a state dump gltrace can read", path);
        return -1;
    }
    return 0;
}

static void flat_free(flat *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->l[i].path);
    free(f->l);
    free(f->text);
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const leaf *)a)->path, ((const leaf *)b)->path);
}

static const leaf *find(const flat *f, const char *path)
{
    leaf key = {(char *)path, NULL, 0};
    return bsearch(&key, f->l, f->n, sizeof *f->l, by_path);
}

/* What says which call a dump is, not what the context holds. */
static int about_the_dump(const char *path)
{
    return !strcmp(path, "/call") || !strcmp(path, "/frame") || !strcmp(path, "/function");
}

static void change(FILE *out, int *first, const char *path, const leaf *a, const leaf *b)
{
    fprintf(out, "%s\n    {\"path\": ", *first ? "" : ",");
    *first = 0;
    gt_diff_json_str(out, path);
    if (a)
        fprintf(out, ", \"before\": %.*s", (int)a->n, a->v);
    if (b)
        fprintf(out, ", \"after\": %.*s", (int)b->n, b->v);
    fputc('}', out);
}

int gt_inspect_diff(const char *before, const char *after, FILE *out, char *err, size_t errlen)
{
    flat a, b;
    if (load(before, &a, err, errlen) != 0) {
        flat_free(&a);
        return -1;
    }
    if (load(after, &b, err, errlen) != 0) {
        flat_free(&a);
        flat_free(&b);
        return -1;
    }
    if (a.n) /* qsort of a NULL array (an empty document) is undefined, even of 0 items */
        qsort(a.l, a.n, sizeof *a.l, by_path);
    if (b.n)
        qsort(b.l, b.n, sizeof *b.l, by_path);
    const leaf *ca = find(&a, "/call"), *cb = find(&b, "/call");
    fprintf(out, "{\"from\": %.*s, \"to\": %.*s, \"changes\": [", ca ? (int)ca->n : 4, ca ? ca->v : "null",
            cb ? (int)cb->n : 4, cb ? cb->v : "null");
    int first = 1;
    for (size_t i = 0; i < a.n; i++) {
        const leaf *o = find(&b, a.l[i].path);
        if (!about_the_dump(a.l[i].path) && (!o || o->n != a.l[i].n || memcmp(o->v, a.l[i].v, o->n)))
            change(out, &first, a.l[i].path, &a.l[i], o);
    }
    for (size_t i = 0; i < b.n; i++)
        if (!find(&a, b.l[i].path))
            change(out, &first, b.l[i].path, NULL, &b.l[i]);
    fprintf(out, "%s]}\n", first ? "" : "\n");
    flat_free(&a);
    flat_free(&b);
    return ferror(out) ? -1 : 0;
}
