/* dlopen_app: an app that links neither libEGL nor libGLESv2, as engines
 * and toolkits often do: it dlopen()s libEGL.so.1 and libGLESv2.so.2 and
 * takes every function with dlsym(), except two extension functions it
 * asks eglGetProcAddress for (eglGetPlatformDisplayEXT, glDiscardFramebufferEXT)
 * and one name that exists nowhere (glNoSuchFunctionGLTRACE), whose answer
 * it only prints and never calls. Draws one 64x64 frame: a clear and a
 * scissored clear. Prints the frame's fingerprint; exits 0 only if GL
 * reported no error.
 *
 * Every GL and EGL call made here is listed, in order, by
 * check_dlopen_app.py: change one, change the other. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define APP "dlopen_app"
#define W 64
#define H 64

static struct {
    PFNEGLGETPROCADDRESSPROC GetProcAddress;
    PFNEGLGETERRORPROC GetError;
    PFNEGLINITIALIZEPROC Initialize;
    PFNEGLBINDAPIPROC BindAPI;
    PFNEGLCHOOSECONFIGPROC ChooseConfig;
    PFNEGLCREATEPBUFFERSURFACEPROC CreatePbufferSurface;
    PFNEGLCREATECONTEXTPROC CreateContext;
    PFNEGLMAKECURRENTPROC MakeCurrent;
    PFNEGLSWAPBUFFERSPROC SwapBuffers;
    PFNEGLDESTROYCONTEXTPROC DestroyContext;
    PFNEGLDESTROYSURFACEPROC DestroySurface;
    PFNEGLTERMINATEPROC Terminate;
} egl;

static struct {
    PFNGLGETSTRINGPROC GetString;
    PFNGLVIEWPORTPROC Viewport;
    PFNGLCLEARCOLORPROC ClearColor;
    PFNGLCLEARPROC Clear;
    PFNGLENABLEPROC Enable;
    PFNGLDISABLEPROC Disable;
    PFNGLSCISSORPROC Scissor;
    PFNGLREADPIXELSPROC ReadPixels;
    PFNGLGETERRORPROC GetError;
} gl;

typedef struct symbol {
    const char *name;
    void **slot; /* POSIX dlsym: function pointers round-trip through void * */
} symbol;

#define SYM(table, prefix, fn) {prefix #fn, (void **)&table.fn}

static const symbol egl_symbols[] = {
    SYM(egl, "egl", GetProcAddress), SYM(egl, "egl", GetError),       SYM(egl, "egl", Initialize),
    SYM(egl, "egl", BindAPI),        SYM(egl, "egl", ChooseConfig),   SYM(egl, "egl", CreatePbufferSurface),
    SYM(egl, "egl", CreateContext),  SYM(egl, "egl", MakeCurrent),    SYM(egl, "egl", SwapBuffers),
    SYM(egl, "egl", DestroyContext), SYM(egl, "egl", DestroySurface), SYM(egl, "egl", Terminate),
};
static const symbol gl_symbols[] = {
    SYM(gl, "gl", GetString), SYM(gl, "gl", Viewport), SYM(gl, "gl", ClearColor),
    SYM(gl, "gl", Clear),     SYM(gl, "gl", Enable),   SYM(gl, "gl", Disable),
    SYM(gl, "gl", Scissor),   SYM(gl, "gl", ReadPixels), SYM(gl, "gl", GetError),
};

static void *open_library(const char *soname, const symbol *syms, size_t n)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, APP ": dlopen %s: %s\n", soname, dlerror());
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot) {
            fprintf(stderr, APP ": %s has no %s\n", soname, syms[i].name);
            return NULL;
        }
    }
    return lib;
}

static int fail(const char *call)
{
    fprintf(stderr, APP ": %s failed (EGL error 0x%04x)\n", call, (unsigned)egl.GetError());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, APP ": unexpected argument '%s'\nusage: " APP " (takes no arguments)\n", argv[1]);
        return 2;
    }
    void *libegl = open_library("libEGL.so.1", egl_symbols, sizeof egl_symbols / sizeof *egl_symbols);
    void *libgles = open_library("libGLESv2.so.2", gl_symbols, sizeof gl_symbols / sizeof *gl_symbols);
    if (!libegl || !libgles)
        return 1;

    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)egl.GetProcAddress("eglGetPlatformDisplayEXT");
    /* Whatever a driver answers for an unknown name, calling it is undefined. */
    void (*nonexistent)(void) = egl.GetProcAddress("glNoSuchFunctionGLTRACE");
    if (!get_platform_display)
        return fail("eglGetProcAddress(eglGetPlatformDisplayEXT)");

    EGLDisplay dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !egl.Initialize(dpy, NULL, NULL))
        return fail("eglInitialize on the surfaceless platform");
    if (!egl.BindAPI(EGL_OPENGL_ES_API))
        return fail("eglBindAPI");
    static const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                                      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!egl.ChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        return fail("eglChooseConfig");
    static const EGLint surf_attr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLSurface surf = egl.CreatePbufferSurface(dpy, cfg, surf_attr);
    if (surf == EGL_NO_SURFACE)
        return fail("eglCreatePbufferSurface");
    static const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = egl.CreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT || !egl.MakeCurrent(dpy, surf, surf, ctx))
        return fail("eglCreateContext/eglMakeCurrent");

    const char *ext = (const char *)gl.GetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_EXT_discard_framebuffer")) {
        fprintf(stderr, APP ": the driver lacks GL_EXT_discard_framebuffer\n");
        return 1;
    }
    PFNGLDISCARDFRAMEBUFFEREXTPROC discard =
        (PFNGLDISCARDFRAMEBUFFEREXTPROC)egl.GetProcAddress("glDiscardFramebufferEXT");
    if (!discard)
        return fail("eglGetProcAddress(glDiscardFramebufferEXT)");

    gl.Viewport(0, 0, W, H);
    gl.ClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Enable(GL_SCISSOR_TEST);
    gl.Scissor(16, 16, 32, 32);
    gl.ClearColor(1.0f, 1.0f, 0.0f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Disable(GL_SCISSOR_TEST);
    /* The mobile idiom: the depth buffer need not survive the frame. */
    static const GLenum discarded[] = {GL_DEPTH_EXT};
    discard(GL_FRAMEBUFFER, 1, discarded);
    if (!egl.SwapBuffers(dpy, surf))
        return fail("eglSwapBuffers");

    static unsigned char px[W * H * 4];
    gl.ReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = gl.GetError();
    egl.MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    egl.DestroyContext(dpy, ctx);
    egl.DestroySurface(dpy, surf);
    egl.Terminate(dpy);
    dlclose(libgles);
    dlclose(libegl);

    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%04x\n", err);
        return 1;
    }
    uint32_t h = 2166136261u; /* FNV-1a, as the other samples print */
    for (size_t i = 0; i < sizeof px; i++)
        h = (h ^ px[i]) * 16777619u;
    const unsigned char *c = px + ((H / 2) * W + W / 2) * 4;
    printf(APP ": 1 frame %dx%d fnv1a=%08x centre=%02x%02x%02x%02x unknown-name=%s\n", W, H, (unsigned)h, c[0],
           c[1], c[2], c[3], nonexistent ? "non-NULL" : "NULL");
    return 0;
}
