/* test_callset: the call-set grammar of proto/gt_callset.h, which replay's
 * --frames, --calls and --snapshot and extract's --frames share: every
 * form it accepts gives the ranges it should, and every malformed value is
 * refused with a message that names the argument, quotes the value and
 * says what is wrong. Exit 0 when all hold. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gt_callset.h"

static int failures;

static void fail(const char *what, const char *text, const char *detail)
{
    failures++;
    fprintf(stderr, "FAIL %s '%s': %s\n", what, text, detail);
}

/* `text` parses as a set to the n ranges in want (pairs). */
static void good(const char *text, const uint64_t *want, size_t n)
{
    gt_callset s;
    char err[512] = "";
    if (gt_callset_parse("--snapshot", text, &s, err, sizeof err) != 0) {
        fail("refused", text, err);
        return;
    }
    if (s.n != n || memcmp(s.bounds, want, 2 * n * sizeof *want) != 0)
        fail("parsed to other ranges", text, "");
    gt_callset_free(&s);
}

/* `text` is refused as a set (list = 1) or a single range (list = 0), with
 * a message holding `--opt 'text'` and `why`. */
static void bad(int list, const char *text, const char *why)
{
    char err[512] = "", head[256];
    uint64_t a = 7, b = 7;
    gt_callset s = {0};
    int rc = list ? gt_callset_parse("--opt", text, &s, err, sizeof err)
                  : gt_callset_parse_range("--opt", text, &a, &b, err, sizeof err);
    snprintf(head, sizeof head, "--opt '%s': ", text);
    if (rc == 0)
        fail("accepted", text, "");
    else if (strncmp(err, head, strlen(head)) != 0 || !strstr(err, why) || !strstr(err, "expected N, A-B, A- or -B"))
        fail("unclear message", text, err);
    else if (s.n || s.bounds || a != 7 || b != 7)
        fail("left a result behind", text, err);
}

static void range(const char *text, uint64_t first, uint64_t last)
{
    char err[512] = "";
    uint64_t a, b;
    if (gt_callset_parse_range("--frames", text, &a, &b, err, sizeof err) != 0)
        fail("range refused", text, err);
    else if (a != first || b != last)
        fail("range parsed to another span", text, "");
}

int main(void)
{
    const uint64_t M = UINT64_MAX;
    good("5", (const uint64_t[]){5, 5}, 1);
    good("0", (const uint64_t[]){0, 0}, 1);
    good("10-20", (const uint64_t[]){10, 20}, 1);
    good("7-7", (const uint64_t[]){7, 7}, 1);
    good("10-", (const uint64_t[]){10, M}, 1);
    good("-20", (const uint64_t[]){0, 20}, 1);
    good("18446744073709551615", (const uint64_t[]){M, M}, 1);
    good("10,20-30,100", (const uint64_t[]){10, 10, 20, 30, 100, 100}, 3);
    good("-5,8,40-", (const uint64_t[]){0, 5, 8, 8, 40, M}, 3);
    good("3,1", (const uint64_t[]){3, 3, 1, 1}, 2);

    range("0-0", 0, 0);
    range("1-", 1, M);
    range("-9", 0, 9);
    range("12", 12, 12);

    for (int list = 0; list < 2; list++) {
        bad(list, "", "an empty range");
        bad(list, "-", "'-' has no bound");
        bad(list, "x", "'x' is not a number");
        bad(list, "12-x", "'x' is not a number");
        bad(list, "x-12", "'x' is not a number");
        bad(list, "30-20", "30-20 runs backwards (A > B)");
        bad(list, "+5", "'+5' is not a number");
        bad(list, " 5", "' 5' is not a number");
        bad(list, "5 ", "'5 ' is not a number");
        bad(list, "1-2-3", "'2-3' is not a number");
        bad(list, "--5", "'-5' is not a number");
        bad(list, "18446744073709551616", "'18446744073709551616' is too large");
    }
    bad(1, "1,,2", "an empty range");
    bad(1, "1,", "an empty range");
    bad(1, ",1", "an empty range");
    bad(1, "1,5-2", "5-2 runs backwards");
    bad(0, "1,2", "one range only, not a list");

    gt_callset s;
    char err[512];
    if (gt_callset_parse("--frames", "2,5-7,20-", &s, err, sizeof err) != 0) {
        fail("refused", "2,5-7,20-", err);
    } else {
        const uint64_t in[] = {2, 5, 6, 7, 20, 21, M}, out[] = {0, 1, 3, 4, 8, 19};
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
            if (!gt_callset_contains(&s, in[i]))
                fail("contains misses a number", "2,5-7,20-", "");
        for (size_t i = 0; i < sizeof out / sizeof out[0]; i++)
            if (gt_callset_contains(&s, out[i]))
                fail("contains finds a number outside", "2,5-7,20-", "");
        gt_callset_free(&s);
        gt_callset_free(&s); /* safe twice */
    }
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("call sets: all forms parsed, all malformed values refused with a clear message\n");
    return 0;
}
