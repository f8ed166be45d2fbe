/* st_edit.c: see st_edit.h. */
#include <stdlib.h>
#include <string.h>

#include "st_edit.h"

void st_edits_add(st_edits *e, size_t at, size_t cut, char *text)
{
    st_edit *v = realloc(e->v, (e->n + 1) * sizeof *v);
    if (!v)
        abort();
    e->v = v;
    e->v[e->n++] = (st_edit){at, cut, text};
}

static int cmp_at(const void *a, const void *b)
{
    const st_edit *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

int st_edits_save(st_edits *e, st_doc *d)
{
    qsort(e->v, e->n, sizeof *e->v, cmp_at);
    char *tmp = st_fmt("%s.tmp", d->path);
    FILE *f = fopen(tmp, "w");
    size_t pos = 0;
    for (size_t i = 0; f && i < e->n; i++) {
        fwrite(d->text + pos, 1, e->v[i].at - pos, f);
        fputs(e->v[i].text, f);
        pos = e->v[i].at + e->v[i].cut;
    }
    int ok = f != NULL;
    if (f) {
        fwrite(d->text + pos, 1, d->len - pos, f);
        ok = !ferror(f) & (fclose(f) == 0) && rename(tmp, d->path) == 0;
    }
    if (!ok)
        st_say("cannot write %s", d->path);
    free(tmp);
    for (size_t i = 0; i < e->n; i++)
        free(e->v[i].text);
    free(e->v);
    e->v = NULL, e->n = 0;
    return ok ? 0 : -1;
}

int st_is_flow(st_doc *d, yaml_node_t *n)
{
    return n->type != YAML_SCALAR_NODE && n->start_mark.index < d->len &&
           (d->text[n->start_mark.index] == '{' || d->text[n->start_mark.index] == '[');
}

int st_is_empty(yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE && !n->data.scalar.length && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* Where a block node's own text ends: its last scalar, or the last key
 * when that key's value is empty (an empty value has no text to end at). */
static size_t deep_end(st_doc *d, yaml_node_t *n)
{
    if (n->type == YAML_SCALAR_NODE || st_is_flow(d, n))
        return n->end_mark.index;
    if (n->type == YAML_SEQUENCE_NODE)
        return n->data.sequence.items.top > n->data.sequence.items.start
                   ? deep_end(d, st_node(d, n->data.sequence.items.top[-1]))
                   : n->start_mark.index;
    if (n->data.mapping.pairs.top == n->data.mapping.pairs.start)
        return n->start_mark.index;
    yaml_node_pair_t *last = n->data.mapping.pairs.top - 1;
    yaml_node_t *v = st_node(d, last->value);
    return st_is_empty(v) ? st_node(d, last->key)->end_mark.index : deep_end(d, v);
}

size_t st_line_end_after(st_doc *d, yaml_node_t *n)
{
    size_t at = deep_end(d, n);
    while (at < d->len && d->text[at] != '\n')
        at++;
    return at;
}

size_t st_key_column(st_doc *d, yaml_node_t *map)
{
    if (map->type == YAML_MAPPING_NODE && map->data.mapping.pairs.top > map->data.mapping.pairs.start)
        return st_node(d, map->data.mapping.pairs.start->key)->start_mark.column;
    return map->start_mark.column;
}

char *st_yaml_quote(const char *s)
{
    int plain = *s && !strchr("-?:,[]{}#&*!|>'\"%@` ", *s);
    for (const char *p = s; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+", *p) != NULL;
    if (plain)
        return st_strdup(s);
    size_t n = strlen(s);
    char *q = malloc(2 * n + 3), *o = q;
    if (!q)
        abort();
    *o++ = '"';
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            *o++ = '\\';
        *o++ = *s;
    }
    *o++ = '"';
    *o = 0;
    return q;
}
