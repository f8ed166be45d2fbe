/* view_regex.c: whether a search pattern is safe to hand to regcomp.
 * glibc compiles a repetition by copying what it repeats ('x+' is 'xx*',
 * 'x{2,5}' five copies), so repetitions of repetitions ('x++++', nested
 * groups) grow exponentially in memory and time: a request of a hundred
 * bytes could hold the server for minutes. A back-reference makes
 * matching itself exponential. The pattern's compiled size is estimated
 * here the way glibc builds it, and a pattern over the bound is refused
 * with the reason. */
#include "view_internal.h"

#include <stdio.h>
#include <string.h>

#define COST_MAX 20000.0 /* elements of the compiled pattern */
#define DEPTH_MAX 64

/* The end of the bracket expression at p ('['), or NULL. */
static const char *bracket_end(const char *p)
{
    p++;
    if (*p == '^')
        p++;
    if (*p == ']')
        p++; /* a ']' first is a member */
    for (; *p && *p != ']'; p++) {
        if (p[0] == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
            char close = p[1];
            const char *q = p + 2;
            while (*q && !(q[0] == close && q[1] == ']'))
                q++;
            if (!*q)
                return NULL;
            p = q + 1;
        }
    }
    return *p ? p : NULL;
}

/* How many copies glibc makes of what the repetition at *pp repeats (1
 * for '*' and '?'), advancing *pp past it; 0 when *pp is no repetition. */
static double copies(const char **pp)
{
    const char *p = *pp;
    if (*p == '*' || *p == '?')
        return *pp = p + 1, 1.0;
    if (*p == '+')
        return *pp = p + 1, 2.0;
    if (*p != '{')
        return 0.0;
    double m = 0, n = -1;
    const char *q = p + 1;
    for (; *q >= '0' && *q <= '9'; q++)
        m = m * 10 + (*q - '0');
    if (*q == ',') {
        q++;
        if (*q >= '0' && *q <= '9')
            for (n = 0; *q >= '0' && *q <= '9'; q++)
                n = n * 10 + (*q - '0');
        else
            n = m + 1; /* {m,}: m copies and a star */
    } else {
        n = m;
    }
    if (*q != '}' || q == p + 1)
        return 0.0; /* not an interval: regcomp says what it is */
    *pp = q + 1;
    return m > n ? m : n > 1 ? n : 1.0;
}

int view_regex_check(const char *re, char *err, size_t errlen)
{
    double total[DEPTH_MAX], last[DEPTH_MAX];
    int d = 0;
    total[0] = last[0] = 0;
    for (const char *p = re; *p;) {
        double k = copies(&p);
        if (k > 0) {
            total[d] += last[d] * (k - 1);
            last[d] *= k;
        } else if (*p == '(') {
            if (++d == DEPTH_MAX) {
                snprintf(err, errlen, "regular expression '%.200s': groups nested deeper than %d", re, DEPTH_MAX - 1);
                return -1;
            }
            total[d] = last[d] = 0, p++;
        } else if (*p == ')' && d > 0) {
            double g = total[d] > 1 ? total[d] : 1;
            d--, p++;
            total[d] += g, last[d] = g;
        } else if (*p == '|') {
            last[d] = 0, p++;
        } else if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
            snprintf(err, errlen, "regular expression '%.200s': back-references (\\%c) are not allowed in a search: "
                     "matching them can take exponential time", re, p[1]);
            return -1;
        } else {
            const char *e = *p == '[' ? bracket_end(p) : NULL;
            p = e ? e + 1 : p + (*p == '\\' && p[1] ? 2 : 1);
            total[d] += 1, last[d] = 1;
        }
        double sum = 0; /* an open group's elements join its parent's when it closes */
        for (int i = 0; i <= d; i++)
            sum += total[i];
        if (sum > COST_MAX) {
            snprintf(err, errlen, "regular expression '%.200s': its repetitions expand to more than %.0f elements "
                     "(a repetition of a repetition, such as 'x++' or '(a+)+', doubles it each time)", re, COST_MAX);
            return -1;
        }
    }
    return 0;
}
