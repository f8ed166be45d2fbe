/* cap_log.c: the capture library's only voice. One fixed prefix, stderr,
 * and a hard stop of tracing on any fault of ours: the app always goes on. */
#include "cap_internal.h"

#include <stdarg.h>
#include <stdio.h>

void cap_log(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gltrace: %s\n", line);
}

void cap_fail(const char *fmt, ...)
{
    static _Atomic int failed;
    if (atomic_exchange(&failed, 1))
        return;
    atomic_store(&cap_tracing, 0);
    cap_dispatch_select(0);
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    cap_log("%s", line);
}
