/* gt_api_get.h: the GL parameter names (pnames) of glGet* for GLES, as a
 * table for the tools: how many values each carries and which GLES
 * versions and extensions define it. Generated (gt_api_gets.c) from
 * api/get_counts.tsv and gl.xml by api/gen_api.py; capture reads the same
 * counts through its own generated switch (gt_get_counts.h). */
#ifndef GT_API_GET_H
#define GT_API_GET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gt_api_get {
    uint32_t value;
    const char *name;
    uint16_t values;        /* values it carries; 0: as many as `counted_by` gives */
    uint16_t indexed;       /* values per index of glGet*i_v */
    uint32_t counted_by;    /* the pname whose value is the count (values 0) */
    uint8_t get;            /* gl.xml lists it for glGet* (group GetPName); the
                               others are parameters of gl*Parameter*v, glLight*v... */
    uint8_t gles1;          /* 10: GLES 1.0 defines it; 0: not GLES 1 core */
    uint8_t gles;           /* 20, 30, 31, 32: the first GLES 2/3 defining it; 0: none */
    const char *extensions; /* the GLES extensions defining it, space-separated */
} gt_api_get;

/* By value. */
extern const gt_api_get gt_api_gets[];
extern const size_t gt_api_ngets;

/* The entry of `pname`, or NULL (then it carries one value). */
const gt_api_get *gt_api_get_find(uint32_t pname);

#ifdef __cplusplus
}
#endif
#endif
