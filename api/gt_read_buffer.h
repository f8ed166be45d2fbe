/* gt_read_buffer.h: putting back a read buffer that glGet returned.
 *
 * Mesa reports GL_READ_BUFFER as GL_FRONT for a single-buffered surface (a
 * pbuffer whose config was picked by EGL_CONFIG_ID, as a browser's GPU
 * process does), but GLES's glReadBuffer accepts only GL_BACK or GL_NONE
 * for the default framebuffer: giving the value back raises
 * GL_INVALID_ENUM, which replay took for an unreadable snapshot and capture
 * left in the app's error state. GL_BACK names that same buffer there. */
#ifndef GT_READ_BUFFER_H
#define GT_READ_BUFFER_H

#include "gt_enums.h"

static inline unsigned gt_read_buffer_settable(int got)
{
    return got == GL_FRONT ? GL_BACK : (unsigned)got;
}

#endif
