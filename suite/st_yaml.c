/* st_yaml.c: YAML (and JSON, its flow subset) through libyaml's document
 * loader. The text is kept beside the tree: `suite update` edits it by the
 * byte positions libyaml gives, since libyaml drops comments. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "st_internal.h"

static int read_all(st_doc *d, const char *path, char *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, ST_ERR_MAX, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, ST_ERR_MAX, "%s: cannot read", path);
        return -1;
    }
    buf[n] = 0;
    d->text = buf, d->len = n;
    return 0;
}

/* Whether node id reaches itself: libyaml loads an alias to an anchor that
 * encloses it (`a: &x {b: *x}`) as a cycle, and a walk down the tree
 * would not end. state: 0 unseen, 1 on the path, 2 done (each node is
 * walked once, however many aliases share it). */
static int cycle_at(st_doc *d, int id, uint8_t *state, yaml_node_t **at)
{
    yaml_node_t *n = yaml_document_get_node(&d->doc, id);
    if (!n || state[id - 1] == 2)
        return 0;
    if (state[id - 1] == 1) {
        *at = n;
        return 1;
    }
    state[id - 1] = 1;
    if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
            if (cycle_at(d, *i, state, at))
                return 1;
    } else if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
            if (cycle_at(d, p->key, state, at) || cycle_at(d, p->value, state, at))
                return 1;
    }
    state[id - 1] = 2;
    return 0;
}

static int acyclic(st_doc *d, char *err)
{
    size_t n = (size_t)(d->doc.nodes.top - d->doc.nodes.start);
    uint8_t *state = calloc(n ? n : 1, 1);
    yaml_node_t *at = NULL;
    if (!state) {
        snprintf(err, ST_ERR_MAX, "%s: out of memory", d->path);
        return -1;
    }
    int bad = cycle_at(d, 1, state, &at);
    free(state);
    if (bad)
        return st_doc_fail(d, at, err, "an alias refers to a node that contains it");
    return 0;
}

int st_doc_load(st_doc *d, const char *path, char *err)
{
    memset(d, 0, sizeof *d);
    d->path = st_strdup(path);
    if (read_all(d, path, err) != 0)
        return -1;
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)d->text, d->len);
    int ok = yaml_parser_load(&p, &d->doc);
    if (!ok) {
        const yaml_mark_t *m = p.problem ? &p.problem_mark : &p.context_mark;
        snprintf(err, ST_ERR_MAX, "%s:%zu:%zu: %s%s%s", path, m->line + 1, m->column + 1,
                 p.problem ? p.problem : "not YAML", p.context ? " " : "", p.context ? p.context : "");
    }
    yaml_parser_delete(&p);
    if (!ok)
        return -1;
    d->loaded = 1;
    if (!yaml_document_get_root_node(&d->doc)) {
        snprintf(err, ST_ERR_MAX, "%s:1:1: the file is empty", path);
        return -1;
    }
    return acyclic(d, err);
}

void st_doc_free(st_doc *d)
{
    if (d->loaded)
        yaml_document_delete(&d->doc);
    free(d->text);
    free(d->path);
    memset(d, 0, sizeof *d);
}

yaml_node_t *st_node(st_doc *d, int id)
{
    return yaml_document_get_node(&d->doc, id);
}

yaml_node_t *st_root(st_doc *d)
{
    return yaml_document_get_root_node(&d->doc);
}

const char *st_scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

yaml_node_t *st_map_get(st_doc *d, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = st_scalar(st_node(d, p->key));
        if (k && !strcmp(k, key))
            return st_node(d, p->value);
    }
    return NULL;
}

int st_doc_fail(st_doc *d, yaml_node_t *n, char *err, const char *fmt, ...)
{
    int len = snprintf(err, ST_ERR_MAX, "%s:%zu:%zu: ", d->path, n ? n->start_mark.line + 1 : 1,
                       n ? n->start_mark.column + 1 : 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + len, ST_ERR_MAX - (size_t)len, fmt, ap);
    va_end(ap);
    return -1;
}
