#include "st_internal.h"
int gt_suite_update(const char *suite, const char *device, const char *from_dir, gt_suite_only only)
{ (void)suite; (void)device; (void)from_dir; (void)only; return 2; }
int gt_suite_add(const char *suite, const char *const *traces, size_t ntraces)
{ (void)suite; (void)traces; (void)ntraces; return 2; }
