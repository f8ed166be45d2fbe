/* cap_real_get.h: a number asked of the driver's context (one pname of
 * glGetIntegerv, the driver's own function, not capture's wrapper), for
 * the capture modules that ask: client arrays, snapshots, the levels and
 * buffers held before a mid-run start. */
#ifndef CAP_REAL_GET_H
#define CAP_REAL_GET_H

#include "cap_real_fns.h"

static inline GLint cap_get_int(GLenum pname)
{
    GLint v = 0;
    cap_real.f.glGetIntegerv(pname, &v);
    return v;
}

#endif
