/* st_edit.h: edits of a suite file's text at the positions libyaml gives,
 * so that everything not edited (comments, order, quoting) stays. */
#ifndef ST_EDIT_H
#define ST_EDIT_H

#include "st_internal.h"

typedef struct st_edit {
    size_t at, cut;   /* byte offset, bytes removed there */
    char *text;       /* inserted there */
} st_edit;

typedef struct st_edits {
    st_edit *v;
    size_t n;
} st_edits;

void st_edits_add(st_edits *e, size_t at, size_t cut, char *text);
/* Applies the edits to d's text and writes the file (by rename). 0 or -1. */
int st_edits_save(st_edits *e, st_doc *d);

/* The offset just after the last line a block node's text takes. */
size_t st_line_end_after(st_doc *d, yaml_node_t *n);
/* The column of a block mapping's keys. */
size_t st_key_column(st_doc *d, yaml_node_t *map);
int st_is_flow(st_doc *d, yaml_node_t *n);
int st_is_empty(yaml_node_t *n);
/* s as a YAML scalar: plain when safe, else double-quoted (malloc'd). */
char *st_yaml_quote(const char *s);

#endif
