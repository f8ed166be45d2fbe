/* dlopen_app: links no GL library; opens libEGL and libGLESv2 itself and
 * takes every function with dlsym, one through eglGetProcAddress, and asks
 * for a name that exists nowhere. One frame. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <dlfcn.h>
#include <stdio.h>

#define LOAD(lib, type, name) type name = (type)dlsym(lib, #name)

int main(void)
{
    void *egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    void *gles = dlopen("libGLESv2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!egl || !gles) {
        fprintf(stderr, "dlopen_app: %s\n", dlerror());
        return 1;
    }
    LOAD(egl, PFNEGLGETPROCADDRESSPROC, eglGetProcAddress);
    LOAD(egl, PFNEGLINITIALIZEPROC, eglInitialize);
    LOAD(egl, PFNEGLCHOOSECONFIGPROC, eglChooseConfig);
    LOAD(egl, PFNEGLCREATEPBUFFERSURFACEPROC, eglCreatePbufferSurface);
    LOAD(egl, PFNEGLCREATECONTEXTPROC, eglCreateContext);
    LOAD(egl, PFNEGLMAKECURRENTPROC, eglMakeCurrent);
    LOAD(egl, PFNEGLSWAPBUFFERSPROC, eglSwapBuffers);
    LOAD(egl, PFNEGLTERMINATEPROC, eglTerminate);
    LOAD(gles, PFNGLCLEARCOLORPROC, glClearColor);
    LOAD(gles, PFNGLCLEARPROC, glClear);
    LOAD(gles, PFNGLGETERRORPROC, glGetError);
    if (!eglGetProcAddress || !glClear) {
        fprintf(stderr, "dlopen_app: dlsym failed\n");
        return 1;
    }
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    void (*nothing)(void) = eglGetProcAddress("glNoSuchFunctionGLTRACE");
    (void)nothing; /* whatever the driver answers, never called */
    EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    static const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
    static const EGLint pb_attr[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    static const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglInitialize(dpy, NULL, NULL) || !eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) {
        fprintf(stderr, "dlopen_app: no display\n");
        return 1;
    }
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attr);
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    eglMakeCurrent(dpy, surf, surf, ctx);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    eglSwapBuffers(dpy, surf);
    GLenum err = glGetError();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    printf("dlopen_app: error 0x%x\n", err);
    return err == GL_NO_ERROR ? 0 : 1;
}
