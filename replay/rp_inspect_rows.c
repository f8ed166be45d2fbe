/* rp_inspect_rows.c: the generated state table (api/gt_api_state.h) walked
 * for one context: which rows its GLES version and extensions have, their
 * values written by type, object names as the trace knows them. */
#include "rp_inspect_internal.h"

#include <errno.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"

int ik_has_ext(const ik *k, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = k->exts; p && (p = strstr(p, name)) != NULL; p += n)
        if ((p == k->exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

int ik_has(const ik *k, const gt_api_state *s)
{
    if (k->ver < 20 ? s->gles1 != 0 : s->gles != 0 && s->gles <= k->ver)
        return 1;
    char one[128];
    for (const char *p = s->extensions; *p;) {
        size_t n = strcspn(p, " ");
        if (n < sizeof one) {
            memcpy(one, p, n);
            one[n] = 0;
            if (ik_has_ext(k, one))
                return 1;
        }
        p += n + (p[n] == ' ');
    }
    return 0;
}

uint32_t ik_recorded(ik *k, int state_cls, uint32_t replayed)
{
    if (!replayed || state_cls <= 0 || state_cls > GT_STATE_QUERY_NAME)
        return replayed;
    return rp_name_recorded(k->r, &k->rev, rp_class_of_state(state_cls), replayed);
}

void ik_name(ik *k, int state_cls, uint32_t replayed)
{
    ij_obj(k->w);
    ij_key(k->w, "recorded");
    ij_uint(k->w, ik_recorded(k, state_cls, replayed));
    ij_key(k->w, "replayed");
    ij_uint(k->w, replayed);
    ij_end(k->w, '}');
}

int ik_file(ik *k, const char *name, const void *data, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", k->dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, n, f) == n;
    ok &= fclose(f) == 0;
    k->files += ok;
    return ok ? 0 : -1;
}

static void one_value(ik *k, const gt_api_state *s, double v)
{
    switch (s->type) {
    case GT_STATE_BOOL: ij_bool(k->w, v != 0); break;
    case GT_STATE_FLOAT: ij_num(k->w, v); break;
    case GT_STATE_ENUM: ij_enum(k->w, (unsigned)(long long)v); break;
    case GT_STATE_NAME: ik_name(k, s->cls, (uint32_t)(long long)v); break;
    default: ij_num(k->w, v); break;
    }
}

void ik_values(ik *k, const gt_api_state *s, const double *v, int n, int as_array)
{
    if (!as_array && n == 1) {
        one_value(k, s, v[0]);
        return;
    }
    if (s->type == GT_STATE_NAME)
        ij_arr(k->w);
    else
        ij_arr_inline(k->w);
    for (int i = 0; i < n; i++)
        one_value(k, s, v[i]);
    ij_end(k->w, ']');
}

/* How many values a row gives: its count, or the value of its counting pname. */
static int row_values(const gt_api_state *s)
{
    if (s->values)
        return s->values;
    GLint n = 0;
    glGetIntegerv(s->counted_by, &n);
    glGetError();
    return n < 0 ? 0 : n > 256 ? 256 : n;
}

void ik_rows(ik *k, gt_state_query query, gt_state_scope scope, ik_getter *get, void *arg)
{
    double v[256];
    for (size_t i = 0; i < gt_api_nstates; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if (s->query != query || s->scope != scope || !ik_has(k, s))
            continue;
        int n = row_values(s);
        if (!n || get(k, s, arg, v, n) != 0)
            continue;
        ij_key(k->w, s->name);
        ik_values(k, s, v, n, s->values == 0 || s->values > 1);
    }
}
