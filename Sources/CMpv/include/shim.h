#ifndef SCREENPLAY_CMPV_SHIM_H
#define SCREENPLAY_CMPV_SHIM_H
#include <mpv/client.h>
#include <mpv/render.h>
#include <mpv/render_gl.h>
#include <EGL/egl.h>

// mpv resolves GL entry points through this; eglGetProcAddress serves the
// context EGL made current (core and extension functions alike, EGL 1.5).
static inline void *screenplay_mpv_get_proc_address(void *unused, const char *name) {
    (void)unused;
    return (void *)eglGetProcAddress(name);
}

// libmpv is loaded when video first plays (mpv_loader.c), not at start: its
// FFmpeg tree is about 25 MiB of a process's memory that a box showing web
// pages, pictures or PDFs never uses. Why it could not be loaded, or NULL.
const char *screenplay_mpv_load_error(void);
#endif
