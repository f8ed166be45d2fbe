/* tcheck.h: the assertions of the C tests (library gt_tcheck, tests/CMakeLists.txt). A failed check prints where
 * and what, and the test goes on, so one run shows every failure; main
 * returns tcheck_exit(). */
#ifndef TCHECK_H
#define TCHECK_H

#include <stdio.h>

extern int tcheck_failures;
extern int tcheck_checks;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        tcheck_checks++;                                                        \
        if (!(cond)) {                                                          \
            tcheck_failures++;                                                  \
            fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* Prints the tally; 0 if every check passed. A test that checked nothing
 * has not tested anything, and fails. */
int tcheck_exit(const char *name);

#endif
