/* rp_inspect_json.c: the JSON writer of the state dump: members get their
 * commas and indentation here, strings go through the diff library's
 * escaper (as every report of the project), numbers that JSON cannot
 * hold (NaN, infinities) become null. */
#include "rp_inspect_internal.h"

#include <math.h>

#include "gt_api.h"
#include "gt_diff.h"

static void sep(ij *w)
{
    if (w->depth > 0 && w->count[w->depth]++)
        fputc(',', w->f);
    if (w->depth > 0 && w->depth < w->inline_from) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    } else if (w->depth >= w->inline_from && w->count[w->depth] > 1) {
        fputc(' ', w->f);
    }
}

void ij_key(ij *w, const char *key)
{
    sep(w);
    gt_diff_json_str(w->f, key);
    fputs(": ", w->f);
    w->keyed = 1;
}

/* Before a value: its separator, unless its key wrote it. */
static void value(ij *w)
{
    if (w->keyed)
        w->keyed = 0;
    else
        sep(w);
}

static void open(ij *w, char c, int one_line)
{
    value(w);
    fputc(c, w->f);
    if (w->depth + 1 < IJ_DEPTH)
        w->depth++;
    w->count[w->depth] = 0;
    if (one_line && w->inline_from > w->depth)
        w->inline_from = w->depth;
}

void ij_obj(ij *w) { open(w, '{', 0); }
void ij_arr(ij *w) { open(w, '[', 0); }
void ij_arr_inline(ij *w) { open(w, '[', 1); }

void ij_end(ij *w, char close)
{
    int had = w->count[w->depth];
    int was_inline = w->depth >= w->inline_from;
    if (w->depth == w->inline_from)
        w->inline_from = IJ_DEPTH;
    w->depth--;
    if (had && !was_inline) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    }
    fputc(close, w->f);
    if (w->depth == 0)
        fputc('\n', w->f);
}

void ij_int(ij *w, long long v)
{
    value(w);
    fprintf(w->f, "%lld", v);
}

void ij_uint(ij *w, unsigned long long v)
{
    value(w);
    fprintf(w->f, "%llu", v);
}

void ij_num(ij *w, double v)
{
    value(w);
    if (!isfinite(v))
        fputs("null", w->f);
    else if (v == (double)(long long)v && fabs(v) < 1e15)
        fprintf(w->f, "%lld", (long long)v);
    else
        fprintf(w->f, "%.9g", v);
}

void ij_bool(ij *w, int v)
{
    value(w);
    fputs(v ? "true" : "false", w->f);
}

void ij_str(ij *w, const char *s)
{
    value(w);
    gt_diff_json_str(w->f, s);
}

void ij_null(ij *w)
{
    value(w);
    fputs("null", w->f);
}

void ij_enum(ij *w, unsigned v)
{
    /* 0 and 1 are GL_NONE, GL_ZERO, GL_POINTS, GL_ONE, GL_LINES... alike:
     * numbers, as are values without a name. */
    const char *name = v > 1 ? gt_api_enum_name(v, 0, 0) : NULL;
    if (name)
        ij_str(w, name);
    else
        ij_uint(w, v);
}
