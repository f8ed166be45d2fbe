/* view_regex.c: whether a search pattern is safe to hand to regcomp.
 *
 * glibc compiles a repetition by copying what it repeats ('x+' is 'xx*',
 * 'x{2,5}' five copies) and then computes every element's epsilon
 * closure; measured on this machine's glibc at -O2: 'x' and eleven '+'
 * 2.3 s once a '?' is under them ('d?+++++++++++'), '(^)+++++' 8.7 s,
 * '(' and 900 '^' and ')*' 7.2 s, 'a{1,20000}' 3.6 s. A request of a
 * hundred bytes could hold the server for minutes, and a back-reference
 * makes matching itself exponential. Estimating glibc's cost proved
 * fragile (the fuzzer found three patterns past two estimates), so the
 * grammar is narrowed instead to what a search needs and glibc compiles
 * in time linear in its length: no repetition of a repetition, nor of a
 * group holding a repetition, an anchor or an empty alternative, nor of
 * an anchor; intervals up to 255; no back-reference; at most 512 bytes.
 * Worst cases left (a{1,255} written 60 times, '(a|...|a)+' of 400
 * alternatives): tens of milliseconds. */
#include "view_internal.h"

#include <stdio.h>
#include <string.h>

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

#define RE_MAX 512      /* bytes of a pattern */
#define DEPTH_MAX 64
#define DUP_MAX 255     /* an interval's bounds */

/* The end of the repetition at p ('*', '+', '?' or an interval), or NULL
 * when p is none; *big: an interval bound over DUP_MAX. */
static const char *repetition_end(const char *p, int *big)
{
    *big = 0;
    if (*p == '*' || *p == '+' || *p == '?')
        return p + 1;
    if (*p != '{')
        return NULL;
    const char *q = p + 1;
    long n = 0;
    for (int part = 0; part < 2; part++) {
        for (n = 0; *q >= '0' && *q <= '9'; q++)
            n = n < 100000 ? n * 10 + (*q - '0') : n;
        *big |= n > DUP_MAX;
        if (part == 0 && *q == ',')
            q++;
        else
            break;
    }
    return *q == '}' && q > p + 1 ? q + 1 : NULL; /* else not an interval: regcomp says what it is */
}

static int refuse(char *err, size_t errlen, const char *re, const char *why)
{
    snprintf(err, errlen, "regular expression '%.200s': %s", re, why);
    return -1;
}

int view_regex_check(const char *re, char *err, size_t errlen)
{
    /* per open group: it holds a repetition, an anchor or an empty
     * alternative (repeating it is refused); its current branch is empty */
    unsigned char risky[DEPTH_MAX], empty[DEPTH_MAX];
    int d = 0, last = 0; /* last: what the next repetition would repeat: 0 nothing, 1 safe, 2 risky */
    risky[0] = 0, empty[0] = 1;
    if (strlen(re) > RE_MAX)
        return refuse(err, errlen, re, "longer than 512 bytes: too long for a search");
    for (const char *p = re; *p;) {
        int big;
        const char *e = repetition_end(p, &big);
        if (e) {
            if (big)
                return refuse(err, errlen, re, "an interval past {255}: not allowed in a search");
            if (last == 2)
                return refuse(err, errlen, re, "a repetition of a repetition, of an anchor, or of a group holding "
                              "one or an empty alternative, is not allowed in a search (glibc takes exponential "
                              "time to compile them)");
            risky[d] = 1, last = 2, p = e;
            continue;
        }
        if (*p == '(') {
            if (++d == DEPTH_MAX)
                return refuse(err, errlen, re, "groups nested too deep");
            risky[d] = 0, empty[d] = 1, last = 0, p++;
        } else if (*p == ')' && d > 0) {
            int r = risky[d] || empty[d];
            d--, p++;
            risky[d] |= r, empty[d] = 0, last = r ? 2 : 1;
        } else if (*p == '|') {
            risky[d] |= empty[d];
            empty[d] = 1, last = 0, p++;
        } else if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
            return refuse(err, errlen, re, "a back-reference is not allowed in a search (matching it can take "
                          "exponential time)");
        } else if (*p == '^' || *p == '$') {
            risky[d] = 1, empty[d] = 0, last = 2, p++;
        } else {
            const char *b = *p == '[' ? bracket_end(p) : NULL;
            p = b ? b + 1 : p + (*p == '\\' && p[1] ? 2 : 1);
            empty[d] = 0, last = 1;
        }
    }
    return 0;
}
