/* layer_loader: a GLES layer loader following Android's contract (the
 * "GLES Layers" notes in ../shared/seeds), and a small app that draws only
 * through the dispatch table it builds.
 *
 * GLES_LAYERS lists layer libraries, colon-separated, the first directly
 * below the app. From the bottom up, each layer gets
 * AndroidGLESLayer_Initialize(its id, get_next_layer_proc_address), then
 * AndroidGLESLayer_GetProcAddress(name, next) for every function the loader
 * knows (every EGL and GLES command gltrace's registry covers), where `next`
 * is what lies below it; what it returns becomes the table entry.
 * get_next_layer_proc_address(id, name) answers from the table as it was
 * below that layer. Before drawing, each layer is also asked for a name no
 * API has: it must hand `next` back.
 *
 * The app: EGL surfaceless, a 64x64 pbuffer, GLES 2; three frames of a
 * clear and a triangle with a uniform colour, read back and swapped. Prints
 * the last frame's fingerprint (fnv1a) and exits 0 only if GL reported no
 * error. Exits 1 naming the library or symbol on any loader failure. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"

#define APP "layer_loader"
#define MAX_LAYERS 8
#define W 64
#define H 64

typedef void *(*next_gpa_fn)(void *layer_id, const char *name);
typedef void (*init_fn)(void *layer_id, next_gpa_fn get_next);
typedef void *(*layer_gpa_fn)(const char *name, void *next);

static void *drv_egl, *drv_gles;
static __eglMustCastToProperFunctionPointerType (*drv_gpa)(const char *);
static void **table;                  /* what the app calls: top of the chain */
static void **below[MAX_LAYERS];      /* the table as it was below layer i */
static int ids[MAX_LAYERS];

static void *driver(const char *name)
{
    void *p = dlsym(drv_gles, name);
    if (!p)
        p = dlsym(drv_egl, name);
    if (!p)
        p = (void *)drv_gpa(name); /* the driver's own: not a layer's */
    return p;
}

static void *next_layer_proc_address(void *layer_id, const char *name)
{
    int i = *(const int *)layer_id;
    const gt_api_fn *f = name ? gt_api_find_name(name) : NULL;
    return f ? below[i][f - gt_api_fns] : name ? driver(name) : NULL;
}

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "%s: %s: %s\n", APP, what, detail ? detail : "");
    exit(1);
}

static void load_chain(void)
{
    drv_egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    drv_gles = dlopen("libGLESv2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!drv_egl || !drv_gles)
        fail("cannot load the driver", dlerror());
    drv_gpa = (__eglMustCastToProperFunctionPointerType(*)(const char *))dlsym(drv_egl, "eglGetProcAddress");
    if (!drv_gpa)
        fail("the driver's libEGL has no eglGetProcAddress", NULL);
    table = calloc(gt_api_nfns, sizeof *table);
    if (!table)
        fail("out of memory", NULL);
    for (size_t k = 0; k < gt_api_nfns; k++)
        table[k] = driver(gt_api_fns[k].name);

    char *spec = getenv("GLES_LAYERS") ? strdup(getenv("GLES_LAYERS")) : NULL;
    char *paths[MAX_LAYERS];
    int n = 0;
    for (char *s = spec ? strtok(spec, ":") : NULL; s && n < MAX_LAYERS; s = strtok(NULL, ":"))
        paths[n++] = s;
    for (int i = n - 1; i >= 0; i--) { /* from the bottom: the driver's neighbour first */
        void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            fail("cannot load a layer", dlerror());
        init_fn init = (init_fn)dlsym(h, "AndroidGLESLayer_Initialize");
        layer_gpa_fn gpa = (layer_gpa_fn)dlsym(h, "AndroidGLESLayer_GetProcAddress");
        if (!init || !gpa)
            fail("not a GLES layer (no AndroidGLESLayer_Initialize/GetProcAddress)", paths[i]);
        below[i] = malloc(gt_api_nfns * sizeof *table);
        if (!below[i])
            fail("out of memory", NULL);
        memcpy(below[i], table, gt_api_nfns * sizeof *table);
        ids[i] = i;
        init(&ids[i], next_layer_proc_address);
        for (size_t k = 0; k < gt_api_nfns; k++)
            table[k] = gpa(gt_api_fns[k].name, table[k]);
        void *sentinel = &ids[i];
        if (gpa("glNoSuchCommandGLTRACE", sentinel) != sentinel)
            fail("a layer did not hand back `next` for a name it does not know", paths[i]);
    }
    printf("%s: %d layers; unknown names handed back by every layer\n", APP, n);
    free(spec);
}

/* The table's entry for a name, as the app's function pointer. */
static void *T(const char *name)
{
    const gt_api_fn *f = gt_api_find_name(name);
    if (!f || !table[f - gt_api_fns])
        fail("no such function in the chain", name);
    return table[f - gt_api_fns];
}
#define CALL(type, name) ((type)T(#name))

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "precision mediump float;\n"
                             "uniform vec4 u_color;\n"
                             "void main() { gl_FragColor = u_color; }\n";

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = CALL(PFNGLCREATESHADERPROC, glCreateShader)(type);
    CALL(PFNGLSHADERSOURCEPROC, glShaderSource)(s, 1, &src, NULL);
    CALL(PFNGLCOMPILESHADERPROC, glCompileShader)(s);
    GLint ok = 0;
    CALL(PFNGLGETSHADERIVPROC, glGetShaderiv)(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        fail("a shader does not compile", NULL);
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1)
        fail("takes no arguments (the layers come from GLES_LAYERS)", argv[1]);
    load_chain();
    EGLDisplay dpy = CALL(PFNEGLGETPLATFORMDISPLAYPROC, eglGetPlatformDisplay)(EGL_PLATFORM_SURFACELESS_MESA,
                                                                               EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !CALL(PFNEGLINITIALIZEPROC, eglInitialize)(dpy, NULL, NULL))
        fail("eglInitialize", NULL);
    CALL(PFNEGLBINDAPIPROC, eglBindAPI)(EGL_OPENGL_ES_API);
    static const EGLint want[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                  EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                                  EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!CALL(PFNEGLCHOOSECONFIGPROC, eglChooseConfig)(dpy, want, &cfg, 1, &n) || n < 1)
        fail("eglChooseConfig", NULL);
    static const EGLint sattr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLSurface surf = CALL(PFNEGLCREATEPBUFFERSURFACEPROC, eglCreatePbufferSurface)(dpy, cfg, sattr);
    static const EGLint cattr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = CALL(PFNEGLCREATECONTEXTPROC, eglCreateContext)(dpy, cfg, EGL_NO_CONTEXT, cattr);
    if (!surf || !ctx || !CALL(PFNEGLMAKECURRENTPROC, eglMakeCurrent)(dpy, surf, surf, ctx))
        fail("eglCreatePbufferSurface, eglCreateContext or eglMakeCurrent", NULL);

    GLuint prog = CALL(PFNGLCREATEPROGRAMPROC, glCreateProgram)();
    CALL(PFNGLATTACHSHADERPROC, glAttachShader)(prog, shader(GL_VERTEX_SHADER, vs_src));
    CALL(PFNGLATTACHSHADERPROC, glAttachShader)(prog, shader(GL_FRAGMENT_SHADER, fs_src));
    CALL(PFNGLBINDATTRIBLOCATIONPROC, glBindAttribLocation)(prog, 0, "a_pos");
    CALL(PFNGLLINKPROGRAMPROC, glLinkProgram)(prog);
    CALL(PFNGLUSEPROGRAMPROC, glUseProgram)(prog);
    GLint color = CALL(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation)(prog, "u_color");
    static const GLfloat tri[] = {-0.8f, -0.8f, 0.8f, -0.8f, 0.0f, 0.8f};
    GLuint vbo;
    CALL(PFNGLGENBUFFERSPROC, glGenBuffers)(1, &vbo);
    CALL(PFNGLBINDBUFFERPROC, glBindBuffer)(GL_ARRAY_BUFFER, vbo);
    CALL(PFNGLBUFFERDATAPROC, glBufferData)(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    CALL(PFNGLVERTEXATTRIBPOINTERPROC, glVertexAttribPointer)(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    CALL(PFNGLENABLEVERTEXATTRIBARRAYPROC, glEnableVertexAttribArray)(0);

    static unsigned char px[W * H * 4];
    for (int f = 0; f < 3; f++) {
        CALL(PFNGLCLEARCOLORPROC, glClearColor)(0.1f, 0.2f + 0.2f * (float)f, 0.4f, 1.0f);
        CALL(PFNGLCLEARPROC, glClear)(GL_COLOR_BUFFER_BIT);
        CALL(PFNGLUNIFORM4FPROC, glUniform4f)(color, 1.0f, 0.5f * (float)f, 0.0f, 1.0f);
        CALL(PFNGLDRAWARRAYSPROC, glDrawArrays)(GL_TRIANGLES, 0, 3);
        CALL(PFNGLREADPIXELSPROC, glReadPixels)(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        CALL(PFNEGLSWAPBUFFERSPROC, eglSwapBuffers)(dpy, surf);
    }
    GLenum err = CALL(PFNGLGETERRORPROC, glGetError)();
    CALL(PFNEGLMAKECURRENTPROC, eglMakeCurrent)(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    CALL(PFNEGLDESTROYCONTEXTPROC, eglDestroyContext)(dpy, ctx);
    CALL(PFNEGLDESTROYSURFACEPROC, eglDestroySurface)(dpy, surf);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof px; i++)
        h = (h ^ px[i]) * 16777619u;
    printf("%s: 3 frames %dx%d fnv1a=%08x\n", APP, W, H, h);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "%s: GL error 0x%x\n", APP, err);
        return 1;
    }
    return 0;
}
