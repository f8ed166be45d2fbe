/* fuzz_text: the text inputs of the command line and the capture library:
 * call and frame sets and ranges (proto/gt_callset.c) and the GLTRACE_*
 * values and `gltrace record` flags (proto/gt_settings.c).
 * Input: one selector byte, then the text. Selector % (2 + settings):
 * 0 a call set (then membership of a few numbers), 1 a range, else the
 * value of setting (selector - 2), as the variable and as the flag. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gt_callset.h"
#include "gt_settings.h"

static void callset(const char *text)
{
    gt_callset set = {0};
    char err[256];
    if (gt_callset_parse("--calls", text, &set, err, sizeof err) == 0) {
        static const uint64_t probe[] = {0, 1, 2, 9, 10, 100, 1000, UINT64_MAX - 1, UINT64_MAX};
        for (size_t i = 0; i < sizeof probe / sizeof *probe; i++)
            (void)gt_callset_contains(&set, probe[i]);
        for (size_t i = 0; i < set.n; i++)
            (void)gt_callset_contains(&set, set.bounds[i]);
        gt_callset_free(&set);
    }
}

static void setting(gt_setting_id id, const char *text)
{
    long v;
    char out[512];
    (void)gt_setting_parse(id, text, &v);
    if (!gt_setting_flag_ok(id, text))
        gt_setting_flag_error(id, text, out, sizeof out);
    (void)gt_setting_default(id);
    (void)gt_setting_by_flag(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    unsigned sel = data[0] % (2u + GT_NSETTINGS);
    if (sel == 0) {
        callset(text);
    } else if (sel == 1) {
        uint64_t first, last;
        char err[256];
        (void)gt_callset_parse_range("--frames", text, &first, &last, err, sizeof err);
    } else {
        setting((gt_setting_id)(sel - 2), text);
    }
    free(text);
    return 0;
}
