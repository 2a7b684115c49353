#ifndef SCREENPLAY_GLES_H
#define SCREENPLAY_GLES_H
// The OpenGL ES 2/3 and EGL headers for an app's own drawing inside
// Screenplay's frames (DrawingContext.withGL) or in its own window. GLES3's
// header declares every ES 2.0 function as well.
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

// Swift cannot import these macros (they are casts), so give them names.
static inline EGLContext screenplay_gles_no_context(void) { return EGL_NO_CONTEXT; }
static inline EGLSurface screenplay_gles_no_surface(void) { return EGL_NO_SURFACE; }
static inline EGLDisplay screenplay_gles_no_display(void) { return EGL_NO_DISPLAY; }
#endif
