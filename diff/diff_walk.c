/* diff_walk.c: pairing two directory trees of PNGs by relative path. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "diff_internal.h"

typedef struct names {
    char **v;
    size_t n, cap;
} names;

static int names_push(names *l, char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

static void names_free(names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static int has_png_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, ".png") == 0;
}

/* Collects "rel/name.png" for every PNG below root/rel. Directory symlinks
 * are not followed (no loops); file symlinks are. */
static int walk(const char *root, const char *rel, names *out, char *err)
{
    char dir[4096];
    if ((size_t)snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel) >= sizeof dir)
        return diff_fail(err, "%s/%s: path too long", root, rel);
    DIR *d = opendir(dir);
    if (!d)
        return diff_fail(err, "%s: cannot read directory: %s", dir, strerror(errno));
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        char sub[4096], full[4096];
        if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >= sizeof sub ||
            (size_t)snprintf(full, sizeof full, "%s/%s", root, sub) >= sizeof full) {
            rc = diff_fail(err, "%s/%s: path too long", dir, e->d_name);
            break;
        }
        struct stat st;
        if (lstat(full, &st) != 0)
            continue; /* vanished while we looked */
        if (S_ISDIR(st.st_mode)) {
            rc = walk(root, sub, out, err);
        } else if (has_png_suffix(e->d_name) && stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            char *s = strdup(sub);
            if (!s || names_push(out, s) != 0) {
                free(s);
                rc = diff_fail(err, "out of memory listing %s", dir);
            }
        }
    }
    closedir(d);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *rel)
{
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", dir, rel);
    return s;
}

int gt_diff_batch_add_dirs(gt_diff_batch *b, const char *expected_dir,
                           const char *actual_dir, char *err)
{
    names le = {0}, la = {0};
    int rc = walk(expected_dir, "", &le, err);
    if (rc == 0)
        rc = walk(actual_dir, "", &la, err);
    /* qsort on an empty list may get NULL, which it must not. */
    if (rc == 0 && le.n > 1)
        qsort(le.v, le.n, sizeof *le.v, cmp_str);
    if (rc == 0 && la.n > 1)
        qsort(la.v, la.n, sizeof *la.v, cmp_str);
    /* Merge the two sorted lists: equal names pair up, the rest are
     * missing on one side. */
    size_t i = 0, j = 0;
    while (rc == 0 && (i < le.n || j < la.n)) {
        int c = i == le.n ? 1 : j == la.n ? -1 : strcmp(le.v[i], la.v[j]);
        const char *name = c <= 0 ? le.v[i] : la.v[j];
        char *pe = c <= 0 ? join(expected_dir, name) : NULL;
        char *pa = c >= 0 ? join(actual_dir, name) : NULL;
        if ((c <= 0 && !pe) || (c >= 0 && !pa) || gt_diff_batch_add(b, name, pe, pa) != 0)
            rc = diff_fail(err, "out of memory");
        free(pe);
        free(pa);
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    names_free(&le);
    names_free(&la);
    return rc;
}
