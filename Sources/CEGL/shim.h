#ifndef SCREENPLAY_CEGL_SHIM_H
#define SCREENPLAY_CEGL_SHIM_H
#include <stddef.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
// ES 3 entry points (vertex array objects, samplers) for saving and
// restoring the state an app's own GL block may change; called only on an
// ES 3 context.
#include <GLES3/gl3.h>

// Swift cannot import these macros (they are casts), so give them names.
static inline EGLContext screenplay_egl_no_context(void) { return EGL_NO_CONTEXT; }
static inline EGLSurface screenplay_egl_no_surface(void) { return EGL_NO_SURFACE; }
static inline EGLDisplay screenplay_egl_no_display(void) { return EGL_NO_DISPLAY; }
static inline EGLConfig screenplay_egl_no_config(void) { return (EGLConfig)0; }

// EGL 1.4 drivers only offer the platform entry points as EXT extensions, which
// are reachable only through eglGetProcAddress; calling a function pointer
// fetched that way is much simpler from C than from Swift.
static inline EGLDisplay screenplay_egl_get_platform_display_ext(EGLenum platform, void *native) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (get == NULL) return EGL_NO_DISPLAY;
    return get(platform, native, NULL);
}

static inline EGLSurface screenplay_egl_create_platform_window_surface_ext(
    EGLDisplay display, EGLConfig config, void *native_window) {
    PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC create =
        (PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC)eglGetProcAddress(
            "eglCreatePlatformWindowSurfaceEXT");
    if (create == NULL) return EGL_NO_SURFACE;
    return create(display, config, native_window, NULL);
}
// EGL_KHR_swap_buffers_with_damage / EGL_EXT_swap_buffers_with_damage:
// both spellings take the same arguments (rects of x, y, width, height,
// origin bottom left). Returns EGL_FALSE with EGL_BAD_ACCESS set when
// neither is there, so the caller falls back to eglSwapBuffers.
static inline EGLBoolean screenplay_egl_swap_buffers_with_damage(
    EGLDisplay display, EGLSurface surface, const EGLint *rects, EGLint count) {
    typedef EGLBoolean (*swap_with_damage)(EGLDisplay, EGLSurface, const EGLint *, EGLint);
    static swap_with_damage swap = NULL;
    static int looked = 0;
    if (!looked) {
        swap = (swap_with_damage)eglGetProcAddress("eglSwapBuffersWithDamageKHR");
        if (swap == NULL) swap = (swap_with_damage)eglGetProcAddress("eglSwapBuffersWithDamageEXT");
        looked = 1;
    }
    if (swap == NULL) return EGL_FALSE;
    return swap(display, surface, rects, count);
}

// GL_OES_EGL_image: an EGLImage (a web page's frame from another process)
// becomes a texture's storage, no copy. Returns 0 when the driver lacks it.
static inline int screenplay_gl_egl_image_target_texture_2d(void *image) {
    static PFNGLEGLIMAGETARGETTEXTURE2DOESPROC target = NULL;
    if (target == NULL)
        target = (PFNGLEGLIMAGETARGETTEXTURE2DOESPROC)eglGetProcAddress("glEGLImageTargetTexture2DOES");
    if (target == NULL) return 0;
    target(GL_TEXTURE_2D, (GLeglImageOES)image);
    return 1;
}
#endif
