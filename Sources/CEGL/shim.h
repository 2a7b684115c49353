#ifndef SCREENPLAY_CEGL_SHIM_H
#define SCREENPLAY_CEGL_SHIM_H
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

// Swift cannot import these macros (they are casts), so give them names.
static inline EGLContext screenplay_egl_no_context(void) { return EGL_NO_CONTEXT; }
static inline EGLSurface screenplay_egl_no_surface(void) { return EGL_NO_SURFACE; }
static inline EGLDisplay screenplay_egl_no_display(void) { return EGL_NO_DISPLAY; }
static inline EGLConfig screenplay_egl_no_config(void) { return (EGLConfig)0; }
#endif
