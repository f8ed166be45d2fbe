/* gt_api_get.c: lookups in the generated glGet* pname table. */
#include "gt_api_get.h"

const gt_api_get *gt_api_get_find(uint32_t pname)
{
    size_t lo = 0, hi = gt_api_ngets;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (gt_api_gets[mid].value < pname)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < gt_api_ngets && gt_api_gets[lo].value == pname ? &gt_api_gets[lo] : NULL;
}
