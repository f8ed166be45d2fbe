/* es2_subimage: GLES 2 with EXT_unpack_subimage and NV_pack_subimage, the
 * extensions that give GLES 2 the row length and skips of GLES 3's pixel
 * store. A 3x2 texture is uploaded from inside a 7-pixel-wide image (skip 2
 * pixels, 1 row) and read back into a 5-pixel-wide image (skip 1 pixel, 1
 * row), so the bytes the driver reads and writes are not width x height x 4.
 * The image is made by a formula check_es2_subimage.py recomputes. */
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <stdio.h>
#include <string.h>

#include "sample_egl.h"

#define APP "es2_subimage"

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, 8, 8);
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!strstr(ext, "GL_EXT_unpack_subimage") || !strstr(ext, "GL_NV_pack_subimage")) {
        printf(APP ": skipped, the extensions are missing\n");
        return 0;
    }
    unsigned char src[7 * 4 * 4];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 5 + 3);
    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH_EXT, 7);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS_EXT, 2);
    glPixelStorei(GL_UNPACK_SKIP_ROWS_EXT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 3, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, src);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    unsigned char dst[5 * 3 * 4];
    memset(dst, 0xEE, sizeof dst);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(0x0D02 /* GL_PACK_ROW_LENGTH_NV */, 5);
    glPixelStorei(0x0D04 /* GL_PACK_SKIP_PIXELS_NV */, 1);
    glPixelStorei(0x0D03 /* GL_PACK_SKIP_ROWS_NV */, 1);
    glReadPixels(0, 0, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, dst);
    GLenum err = glGetError();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    glClearColor(0.0f, 0.5f, 1.0f, 1.0f); /* the surface has defined contents to snapshot */
    glClear(GL_COLOR_BUFFER_BIT);
    sample_egl_swap(&e);
    sample_egl_close(&e);
    eglTerminate(e.dpy);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%04x\n", err);
        return 1;
    }
    /* The texel at (x, y) of the texture is src's (2 + x, 1 + y). */
    int ok = 1;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            ok &= memcmp(dst + ((1 + y) * 5 + 1 + x) * 4, src + ((1 + y) * 7 + 2 + x) * 4, 4) == 0;
    printf(APP ": read back %s\n", ok ? "matches" : "DIFFERS");
    return ok ? 0 : 1;
}
