// ScreenplayGLES is a library product for its public include directory: an
// app writes `import ScreenplayGLES` and calls glClearColor, glDrawArrays,
// eglGetCurrentContext... (Debian: libgles-dev, libegl-dev). SwiftPM needs
// one source file in a C target; this is it.
#include "ScreenplayGLES.h"
