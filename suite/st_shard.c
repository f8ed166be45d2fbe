/* st_shard.c: which part of the suite this run takes. Shards interleave
 * (trace k of the sorted list goes to shard k mod N), as deqp-runner's,
 * so that each gets a fair share of slow and fast traces. The shard comes
 * from --shard or from the variables the CI engines set. */
#include <stdlib.h>
#include <string.h>

#include "st_internal.h"

static int count(const char *s, unsigned *v)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 6)
        return -1;
    *v = (unsigned)strtoul(s, NULL, 10);
    return 0;
}

int gt_suite_shard_parse(const char *s, unsigned *index, unsigned *total)
{
    const char *slash = s ? strchr(s, '/') : NULL;
    if (!slash)
        return -1;
    char a[16];
    if ((size_t)(slash - s) >= sizeof a)
        return -1;
    memcpy(a, s, (size_t)(slash - s));
    a[slash - s] = 0;
    unsigned i, n;
    if (count(a, &i) != 0 || count(slash + 1, &n) != 0 || i < 1 || n < 1 || i > n || n > 100000)
        return -1;
    *index = i, *total = n;
    return 0;
}

static int pair(const char *iname, const char *nname, int base, unsigned *index, unsigned *total, char *err,
                size_t errlen)
{
    const char *i = getenv(iname), *n = getenv(nname);
    unsigned iv, nv;
    if (count(i, &iv) != 0 || count(n, &nv) != 0 || nv < 1 || iv + (unsigned)(1 - base) < 1 ||
        iv + (unsigned)(1 - base) > nv) {
        snprintf(err, errlen, "%s=%s, %s=%s: expected an index (%d-based) below a total", iname, i ? i : "(unset)",
                 nname, n ? n : "(unset)", base);
        return -1;
    }
    *index = iv + (unsigned)(1 - base), *total = nv;
    return 1;
}

int gt_suite_shard_from_env(unsigned *index, unsigned *total, char *err, size_t errlen)
{
    const char *g = getenv("GLTRACE_SHARD");
    if (g && *g) {
        if (gt_suite_shard_parse(g, index, total) == 0)
            return 1;
        snprintf(err, errlen, "GLTRACE_SHARD=%s: expected I/N, 1 <= I <= N", g);
        return -1;
    }
    if (getenv("CI_NODE_TOTAL") && *getenv("CI_NODE_TOTAL"))
        return pair("CI_NODE_INDEX", "CI_NODE_TOTAL", 1, index, total, err, errlen);
    if (getenv("JOB_COMPLETION_INDEX") && *getenv("JOB_COMPLETION_INDEX"))
        return pair("JOB_COMPLETION_INDEX", "GLTRACE_SHARD_TOTAL", 0, index, total, err, errlen);
    return 0;
}
