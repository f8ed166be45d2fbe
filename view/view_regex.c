/* view_regex.c: whether a search pattern is safe to hand to regcomp.
 * glibc compiles a repetition by copying what it repeats ('x+' is 'xx*',
 * 'x{2,5}' five copies), so repetitions of repetitions ('x++++', nested
 * groups) grow exponentially in memory and time: a request of a hundred
 * bytes could hold the server for minutes. Its closure pass then costs
 * about the square of what a star repeats, and of the optional copies of
 * an interval ('a{1,20000}' takes seconds). A back-reference makes
 * matching itself exponential. Both costs are estimated here the way
 * glibc builds the pattern (measured: about 10 ns per unit of the second
 * at -O2), and a pattern over either bound is refused with the reason. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define COST_MAX 20000.0 /* elements of the compiled pattern */
#define CLOSURE_MAX 5e6  /* the closure pass's work: about 50 ms */
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
 * for '*' and '?'), advancing *pp past it; 0 when *pp is no repetition.
 * *optional: how many of them are optional, -1 for a star. */
static double copies(const char **pp, double *optional)
{
    const char *p = *pp;
    *optional = 0;
    if (*p == '*' || *p == '?')
        return *optional = *p == '*' ? -1 : 1, *pp = p + 1, 1.0;
    if (*p == '+')
        return *optional = -1, *pp = p + 1, 2.0;
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
            n = m + 1, *optional = -1; /* {m,}: m copies and a star */
    } else {
        n = m;
    }
    if (*q != '}' || q == p + 1)
        return 0.0; /* not an interval: regcomp says what it is */
    *pp = q + 1;
    if (*optional == 0 && n > m)
        *optional = n - m;
    return m > n ? m : n > 1 ? n : 1.0;
}

int view_regex_check(const char *re, char *err, size_t errlen)
{
    double total[DEPTH_MAX], last[DEPTH_MAX], closure = 0, optional;
    int d = 0;
    total[0] = last[0] = 0;
    for (const char *p = re; *p;) {
        double k = copies(&p, &optional);
        if (k > 0) {
            /* a star (of a '+' too: glibc's costs little there) over s
             * elements: about s squared; k optional copies: k squared s */
            closure += optional < 0 ? (k > 1 ? last[d] : last[d] * last[d]) : optional * optional * last[d];
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
        if (closure > CLOSURE_MAX) {
            snprintf(err, errlen, "regular expression '%.200s': too costly to compile (a star or an interval "
                     "such as '{1,20000}' over %.0f elements or more)", re, sqrt(CLOSURE_MAX));
            return -1;
        }
        if (sum > COST_MAX) {
            snprintf(err, errlen, "regular expression '%.200s': its repetitions expand to more than %.0f elements "
                     "(a repetition of a repetition, such as 'x++' or '(a+)+', doubles it each time)", re, COST_MAX);
            return -1;
        }
    }
    return 0;
}
