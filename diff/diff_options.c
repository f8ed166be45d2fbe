/* diff_options.c: defaults, names and validation of gt_diff_options. */
#include <math.h>
#include <string.h>

#include "diff_internal.h"

static const char *const mode_names[] = {
    [GT_DIFF_EXACT] = "exact",
    [GT_DIFF_TOLERANCE] = "tolerance",
    [GT_DIFF_PERCEPTUAL] = "perceptual",
    [GT_DIFF_POSITION] = "position",
};

void gt_diff_options_init(gt_diff_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = GT_DIFF_EXACT;
    o->threshold = 0.1;
    o->radius = 1;
    o->max_diff_pixels = -1;
    o->max_diff_percent = -1;
}

int gt_diff_mode_parse(const char *name, gt_diff_mode *mode)
{
    for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
        if (strcmp(name, mode_names[i]) == 0) {
            *mode = (gt_diff_mode)i;
            return 0;
        }
    return -1;
}

const char *gt_diff_mode_name(gt_diff_mode mode)
{
    if ((unsigned)mode < sizeof mode_names / sizeof mode_names[0])
        return mode_names[mode];
    return "unknown";
}

int diff_options_check(const gt_diff_options *o, char *err)
{
    if ((unsigned)o->mode > GT_DIFF_POSITION)
        return diff_fail(err, "unknown comparison mode %d", (int)o->mode);
    if (o->tolerance > 255)
        return diff_fail(err, "tolerance %u out of range 0..255", o->tolerance);
    if (!(o->threshold >= 0 && o->threshold <= 1))
        return diff_fail(err, "threshold %g out of range 0..1", o->threshold);
    if (o->radius > DIFF_MAX_RADIUS)
        return diff_fail(err, "radius %u out of range 0..%d", o->radius, DIFF_MAX_RADIUS);
    if (isnan(o->max_diff_percent))
        return diff_fail(err, "difference budget is not a number");
    if ((unsigned)o->isolated > GT_DIFF_ISOLATED_IGNORE)
        return diff_fail(err, "unknown isolated-pixel setting %d", (int)o->isolated);
    if (o->n_ignore && !o->ignore)
        return diff_fail(err, "%zu ignore regions but no array", o->n_ignore);
    return 0;
}

int diff_within_budget(const gt_diff_options *o, uint64_t diff, double percent)
{
    int pixels_set = o->max_diff_pixels >= 0, percent_set = o->max_diff_percent >= 0;
    if (!pixels_set && !percent_set)
        return diff == 0;
    if (pixels_set && diff > (uint64_t)o->max_diff_pixels)
        return 0;
    if (percent_set && percent > o->max_diff_percent)
        return 0;
    return 1;
}

int diff_ignores_isolated(const gt_diff_options *o)
{
    if (o->isolated != GT_DIFF_ISOLATED_DEFAULT)
        return o->isolated == GT_DIFF_ISOLATED_IGNORE;
    return o->mode == GT_DIFF_PERCEPTUAL || o->mode == GT_DIFF_POSITION;
}
