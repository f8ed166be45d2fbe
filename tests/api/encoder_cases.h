/* encoder_cases.h: what the generated gt_encoder_cases.c gives the encoder
 * test: one case per command, run with pseudo-random argument values. */
#ifndef ENCODER_CASES_H
#define ENCODER_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "gt_api.h"
#include "gt_wire_enc.h"

typedef struct gt_tval {
    int kind;       /* gt_kind of the C type */
    uint64_t bits;  /* the value: integers sign-extended, floats' IEEE bits */
    gt_span span;   /* pointers: the data recorded behind it */
} gt_tval;

typedef struct gt_case {
    const char *name;
    int32_t number;
    uint32_t alias;
    unsigned nparams;
    int has_ret;
    size_t max;     /* GT_MAX_name */
    /* Encodes args + return value at buf, fills v (params, then the return
     * value) and returns the bytes written. */
    size_t (*run)(uint8_t *buf, gt_tval *v);
} gt_case;

extern const gt_case gt_cases[];
extern const size_t gt_ncases;

uint64_t gt_rand64(void);
float gt_randf(void);
gt_span gt_rand_span(void);

#endif
