/* cap_write_call.c: calls capture writes of its own (a texture level or
 * a buffer read back before a mid-run capture's start, cap_texhold.c and
 * cap_bufhold.c), of the functions api/state.tsv's `function` lines name
 * for each use, as trim writes them (replay/rp_trim_write.c): no function
 * name here. */
#include "cap_internal.h"
#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_encoders.h"

#include <string.h>

/* A call of the function api/state.tsv names for `use`, written as the
 * thread's next record: integer arguments, and the bytes of its one
 * pointer. */
void cap_write_call(cap_tls *t, const char *use, const int64_t *args, const void *bytes, size_t len)
{
    const gt_api_fn *f = NULL;
    for (size_t i = 0; !f && i < gt_api_nstate_fns; i++)
        if (!strcmp(gt_api_state_fns[i].use, use))
            f = gt_api_find_name(gt_api_state_fns[i].int_fn);
    if (!f) {
        cap_log("api/state.tsv names no function for %s: what was read back before the start is not written", use);
        return;
    }
    gt_span s = {0};
    if (bytes)
        cap_span_raw(&s, bytes, (long)len, 1);
    uint64_t now = cap_clock_now();
    uint8_t *p = cap_rec_begin(t, 64 + 24 * (size_t)f->nparams + gt_span_room(&s), f->number, now, now);
    if (!p)
        return;
    for (unsigned i = 0; i < f->nparams; i++) {
        gt_kind k = (gt_kind)f->params[i].kind;
        if (k == GT_K_POINTER)
            p = gt_dt_ptr(p, 0x2a, (uint64_t)(uintptr_t)bytes, &s);
        else if (gt_api_wire_type(k) == 8)
            p = gt_dt_i64(p, 0x2a, args[i]);
        else
            p = gt_dt_i32(p, 0x2a, (uint8_t)gt_api_wire_type(k), (int32_t)args[i]);
    }
    cap_rec_end(t, p, f->alias, now, now);
}

