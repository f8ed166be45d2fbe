/* tcheck.c: the tally of tcheck.h. */
#include "tcheck.h"

int tcheck_failures;
int tcheck_checks;

int tcheck_exit(const char *name)
{
    if (tcheck_checks == 0) {
        fprintf(stderr, "%s: no checks ran\n", name);
        return 1;
    }
    fprintf(stderr, "%s: %d checks, %d failed\n", name, tcheck_checks, tcheck_failures);
    return tcheck_failures ? 1 : 0;
}
