/* gt_callset.c: the call-set grammar of gt_callset.h. The messages say
 * which part of the value is wrong, since a set can be long. */
#include "gt_callset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decimal digits s[0..n) as *v: 0, or -1 with the reason in why. */
static int parse_number(const char *s, size_t n, uint64_t *v, char *why, size_t len)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            snprintf(why, len, "'%.*s' is not a number", (int)n, s);
            return -1;
        }
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10) {
            snprintf(why, len, "'%.*s' is too large", (int)n, s);
            return -1;
        }
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* One RANGE, s[0..n), as *a..*b: 0, or -1 with the reason in why. */
static int parse_range(const char *s, size_t n, uint64_t *a, uint64_t *b, char *why, size_t len)
{
    const char *dash = memchr(s, '-', n);
    size_t na = dash ? (size_t)(dash - s) : n, nb = dash ? n - na - 1 : 0;
    if (n == 0 || (dash && na == 0 && nb == 0)) {
        snprintf(why, len, n ? "'-' has no bound" : "an empty range");
        return -1;
    }
    *a = 0, *b = UINT64_MAX;
    if (na && parse_number(s, na, a, why, len) != 0)
        return -1;
    if (!dash)
        *b = *a;
    else if (nb && parse_number(dash + 1, nb, b, why, len) != 0)
        return -1;
    if (*a > *b) {
        snprintf(why, len, "%.*s runs backwards (A > B)", (int)n, s);
        return -1;
    }
    return 0;
}

/* The whole value, as a list (one = 0) or a single range (one = 1). */
static int parse(const char *arg, const char *text, int one, gt_callset *set, char *err, size_t errlen)
{
    char why[160];
    size_t cap = 1;
    for (const char *c = text; *c; c++)
        cap += *c == ',';
    set->bounds = NULL, set->n = 0;
    uint64_t *r = NULL;
    if (one && cap > 1) {
        snprintf(why, sizeof why, "one range only, not a list");
        goto bad;
    }
    if (!(r = malloc(cap * 2 * sizeof *r))) {
        snprintf(why, sizeof why, "out of memory");
        goto bad;
    }
    const char *s = text;
    for (size_t k = 0; k < cap; k++) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (parse_range(s, n, &r[2 * k], &r[2 * k + 1], why, sizeof why) != 0)
            goto bad;
        s += n + 1;
    }
    set->bounds = r, set->n = cap;
    return 0;
bad:
    free(r);
    snprintf(err, errlen, "%s '%s': %s; expected N, A-B, A- or -B%s", arg, text, why,
             one ? "" : ", or a list of them separated by commas");
    return -1;
}

int gt_callset_parse(const char *arg, const char *text, gt_callset *set, char *err, size_t errlen)
{
    return parse(arg, text, 0, set, err, errlen);
}

int gt_callset_parse_range(const char *arg, const char *text, uint64_t *first, uint64_t *last, char *err,
                           size_t errlen)
{
    gt_callset one;
    if (parse(arg, text, 1, &one, err, errlen) != 0)
        return -1;
    *first = one.bounds[0], *last = one.bounds[1];
    gt_callset_free(&one);
    return 0;
}

int gt_callset_contains(const gt_callset *set, uint64_t n)
{
    for (size_t k = 0; k < set->n; k++)
        if (n >= set->bounds[2 * k] && n <= set->bounds[2 * k + 1])
            return 1;
    return 0;
}

void gt_callset_free(gt_callset *set)
{
    free(set->bounds);
    set->bounds = NULL, set->n = 0;
}
