/* st_add.c: `gltrace suite add`: traces appended to the suite file's
 * `traces:` with `expect: recorded`, by edits of its text. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "st_edit.h"

static const char fresh[] =
    "# A gltrace suite: `gltrace suite run FILE --device NAME --out DIR`\n"
    "# (schema: suite/README.md in the gltrace sources).\n"
    "traces:\n";

/* The trace's path as the suite names it: relative to the suite's folder
 * when it lies below it. */
static char *name_for(const char *suite_dir, const char *trace)
{
    char dir[PATH_MAX], abs[PATH_MAX];
    if (!realpath(suite_dir, dir) || !realpath(trace, abs))
        return st_strdup(trace);
    size_t n = strlen(dir);
    if (!strncmp(abs, dir, n) && abs[n] == '/')
        return st_strdup(abs + n + 1);
    return st_strdup(abs);
}

static int create(const char *suite)
{
    FILE *f = fopen(suite, "w");
    int ok = f && fputs(fresh, f) >= 0;
    if (f)
        ok &= fclose(f) == 0;
    if (!ok)
        st_say("cannot create %s", suite);
    return ok ? 0 : -1;
}

int gt_suite_add(const char *suite, const char *const *traces, size_t ntraces)
{
    struct stat st;
    if (stat(suite, &st) != 0 && create(suite) != 0)
        return 2;
    st_suite s;
    if (st_suite_load(&s, suite, "") != 0)
        return 2;
    st_doc *d = &s.doc;
    yaml_node_t *root = st_root(d), *list = st_map_get(d, root, "traces");
    yaml_node_t *key = NULL;
    for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < root->data.mapping.pairs.top; q++)
        if (st_node(d, q->value) == list)
            key = st_node(d, q->key);
    int block = list->type == YAML_MAPPING_NODE && !st_is_flow(d, list);
    size_t col = block ? st_key_column(d, list) : 2, added = 0;
    char *text = st_strdup("");
    for (size_t i = 0; i < ntraces; i++) {
        char *name = name_for(s.dir, traces[i]);
        int known = 0;
        for (size_t k = 0; k < s.ntraces; k++)
            known |= !strcmp(s.traces[k].name, name);
        char *q = st_yaml_quote(name), *more = known ? NULL : st_fmt("%s\n%*s%s:\n%*sexpect: recorded", text,
                                                                        (int)col, "", q, (int)col + 2, "");
        if (more) {
            free(text);
            text = more;
            added++;
        }
        free(q);
        free(name);
    }
    st_edits e = {0};
    if (block)
        st_edits_add(&e, st_line_end_after(d, list), 0, text);
    else if (st_is_empty(list))
        st_edits_add(&e, st_line_end_after(d, key), 0, text);
    else /* `traces: {}`: the empty flow mapping becomes the block */
        st_edits_add(&e, list->start_mark.index, list->end_mark.index - list->start_mark.index, text);
    int rc = added ? st_edits_save(&e, d) : 0;
    if (!added)
        free(e.v[0].text), free(e.v);
    st_say("%s: %zu traces added", suite, rc == 0 ? added : 0);
    st_suite_free(&s);
    return rc ? 2 : 0;
}
