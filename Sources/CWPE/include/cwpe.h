#ifndef SCREENPLAY_CWPE_H
#define SCREENPLAY_CWPE_H
/* Screenplay's narrow C face of WPE WebKit and wpebackend-fdo. The GLib,
   WebKit and wpebackend-fdo types stay in cwpe.c: Swift sees opaque views,
   plain numbers and callbacks, so their headers (whose pkg-config files carry
   flags SwiftPM rejects) never reach a Swift module. */
#include <stdint.h>
#include <stdbool.h>

typedef struct sp_web_view sp_web_view;

/* How frames leave the web process. */
enum sp_web_export {
    SP_WEB_EXPORT_NONE = 0,
    /* EGLImages bound as textures: no CPU copy. */
    SP_WEB_EXPORT_EGL = 1,
    /* wl_shm buffers: one CPU upload per frame (EGL lacks EGL_WL_bind_wayland_display). */
    SP_WEB_EXPORT_SHM = 2,
};

/* Why the web process went away (WebKitWebProcessTerminationReason). */
enum sp_web_termination {
    SP_WEB_CRASHED = 0,
    SP_WEB_EXCEEDED_MEMORY = 1,
    SP_WEB_TERMINATED_BY_API = 2,
};

/* Called on the thread that pumps the GLib context (the main thread). */
typedef struct {
    void *data;
    /* An EGLImage (handle: pass to sp_web_view_release_image once unused). */
    void (*egl_frame)(void *data, void *egl_image, uint32_t width, uint32_t height, void *handle);
    /* wl_shm pixels (ARGB8888/XRGB8888 little-endian, so B,G,R,A bytes),
       valid only during the call; the buffer is released after it. */
    void (*shm_frame)(void *data, const void *pixels, int32_t stride, uint32_t width, uint32_t height,
                      bool opaque);
    /* 0 started, 1 redirected, 2 committed, 3 finished (WebKitLoadEvent). */
    void (*load_changed)(void *data, int event);
    void (*load_failed)(void *data, const char *uri, const char *reason);
    void (*terminated)(void *data, int reason);
    /* A navigation to an origin outside the allowed list was refused. */
    void (*blocked)(void *data, const char *uri);
} sp_web_callbacks;

/* Loads the fdo backend and prepares it for `egl_display`; returns the
   export in use (EGL where the display can bind Wayland buffers, else
   SHM; SHM first when `prefer_shm`: software GL presenting through wl_shm,
   where a frame copied once beats a texture drawn and read back), NONE
   with `error` filled when neither works. Once per process. */
int sp_web_initialize(void *egl_display, bool prefer_shm, char *error, int error_size);

/* Web processes share one context per process: ephemeral (no disk
   cache, cookies or storage under $HOME), sandboxed when `sandbox`,
   each web process limited to `memory_limit_mb` (0: WebKit's default). */
bool sp_web_context_configure(bool sandbox, uint32_t memory_limit_mb, const char *sandbox_path);
/* Whether the context runs web processes in bubblewrap. */
bool sp_web_context_sandboxed(void);

/* A view of `width` x `height` layout pixels rendered at `scale` device
   pixels each. `allowed` lists origins ("https://example.com") that
   navigations may reach (NULL-terminated; NULL or empty: any); `file_root`,
   when set, is the only folder file:// may load from. */
sp_web_view *sp_web_view_new(const sp_web_callbacks *callbacks, uint32_t width, uint32_t height, float scale,
                             const char *const *allowed, const char *file_root);
void sp_web_view_load(sp_web_view *view, const char *uri);
void sp_web_view_reload(sp_web_view *view);
void sp_web_view_resize(sp_web_view *view, uint32_t width, uint32_t height, float scale);
void sp_web_view_frame_complete(sp_web_view *view);
void sp_web_view_release_image(sp_web_view *view, void *handle);
void sp_web_view_terminate_web_process(sp_web_view *view);
/* Input, in layout pixels (pointer) and XKB keysyms (keys). */
void sp_web_view_pointer_motion(sp_web_view *view, int x, int y);
void sp_web_view_pointer_button(sp_web_view *view, int x, int y, uint32_t button, bool pressed);
void sp_web_view_scroll(sp_web_view *view, int x, int y, int dx, int dy);
void sp_web_view_key(sp_web_view *view, uint32_t keysym, uint32_t hardware_keycode, bool pressed, uint32_t modifiers);
void sp_web_view_destroy(sp_web_view *view);

/* The GLib main context of this thread, run from another loop. The
   context is acquired once, so sources attached from other threads wake
   it. sp_glib_pump dispatches what is ready and fills `fds`/`events`
   (POLLIN/POLLOUT) with what to wait on next and `timeout_ms` (-1: none);
   returns the number of descriptors (at most `capacity`), -1 when the
   context belongs to another thread. */
int sp_glib_pump(int32_t *fds, int16_t *events, int capacity, int32_t *timeout_ms);

#endif
