/*
 * screenplay.h: the C interface of libscreenplay, which puts an app's own
 * content on the external screens of a Wayland desktop or kiosk.
 *
 *     cc game.c $(pkg-config --cflags --libs screenplay)
 *
 * The model is GLFW's monitor API and SDL's display API: plain functions,
 * opaque handles, callbacks with a user pointer, and the caller's own loop
 * (or screenplay_app_run). The guide is docs/c-library.md.
 *
 * Conventions, for every function below:
 * - Every function returns a screenplay_result (SCREENPLAY_OK, 0, or a
 *   negative SCREENPLAY_ERROR_*), except the few that say otherwise.
 *   screenplay_last_error() gives the failed call's message: what failed,
 *   why, and what to do.
 * - Strings are UTF-8 and NUL-terminated. A string the caller passes is only
 *   read during the call (the library keeps its own copy). A string the
 *   library returns is owned by the library: never free it; each function
 *   says how long it stays valid.
 * - Handles are opaque and checked: a handle that was released (a screen
 *   after its disconnect callback, an app after screenplay_app_destroy), a
 *   handle of another kind, or NULL, makes the call return
 *   SCREENPLAY_ERROR_INVALID_HANDLE or SCREENPLAY_ERROR_NULL_ARGUMENT; the
 *   library never dereferences a handle's value.
 * - Threads: screenplay_app_create must be called on the process's main
 *   thread (the one that ran main()), and every other call on that same
 *   thread. A call from another thread returns SCREENPLAY_ERROR_WRONG_THREAD
 *   and touches nothing. screenplay_last_error, screenplay_result_name and
 *   screenplay_version may be called from any thread.
 * - Callbacks run on the main thread, from inside screenplay_app_dispatch
 *   or screenplay_app_run, never from another call.
 */
#ifndef SCREENPLAY_SCREENPLAY_H
#define SCREENPLAY_SCREENPLAY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header. A library with the same major version and a
 * minor version at least this one runs code built against this header. */
#define SCREENPLAY_VERSION_MAJOR 0
#define SCREENPLAY_VERSION_MINOR 1
#define SCREENPLAY_VERSION_PATCH 0
/* The header's version in one number, as screenplay_version() returns it. */
#define SCREENPLAY_VERSION \
    ((SCREENPLAY_VERSION_MAJOR << 16) | (SCREENPLAY_VERSION_MINOR << 8) | SCREENPLAY_VERSION_PATCH)

/* A call's outcome: SCREENPLAY_OK or one of the errors below. */
typedef int screenplay_result;

enum {
    SCREENPLAY_OK = 0,
    /* A pointer the call needs was NULL. */
    SCREENPLAY_ERROR_NULL_ARGUMENT = -1,
    /* A handle that was released, of the wrong kind, or never made. */
    SCREENPLAY_ERROR_INVALID_HANDLE = -2,
    /* Called from a thread other than the one that created the app. */
    SCREENPLAY_ERROR_WRONG_THREAD = -3,
    /* A value out of range, or a string that is not UTF-8. */
    SCREENPLAY_ERROR_INVALID_ARGUMENT = -4,
    /* No compositor: WAYLAND_DISPLAY unset or its socket missing. */
    SCREENPLAY_ERROR_NO_COMPOSITOR = -5,
    /* The compositor went away (and the app does not reconnect). */
    SCREENPLAY_ERROR_CONNECTION_LOST = -6,
    /* A drawing call made outside its draw callback. */
    SCREENPLAY_ERROR_NOT_IN_DRAW = -7,
    /* A drawing call failed (GL, text layout). */
    SCREENPLAY_ERROR_DRAW_FAILED = -8,
    /* A file could not be read or decoded. */
    SCREENPLAY_ERROR_FILE = -9,
    /* Not allowed from inside a callback (destroying the app, dispatching). */
    SCREENPLAY_ERROR_IN_CALLBACK = -10,
    /* The compositor offers no protocol for this (mode or power control). */
    SCREENPLAY_ERROR_UNSUPPORTED = -11,
    /* The screen does not list the mode asked for. */
    SCREENPLAY_ERROR_NOT_LISTED = -12,
    /* The compositor refused the change. */
    SCREENPLAY_ERROR_REFUSED = -13,
    /* The compositor did not confirm the change in time. */
    SCREENPLAY_ERROR_UNCONFIRMED = -14,
    /* The screen is gone. */
    SCREENPLAY_ERROR_UNKNOWN_SCREEN = -15,
    /* The app shut down before the answer came. */
    SCREENPLAY_ERROR_SHUT_DOWN = -16,
    /* The app was shut down (screenplay_app_shutdown, a signal under run). */
    SCREENPLAY_ERROR_APP_SHUT_DOWN = -17
};

/* Opaque handles. Their values are checked identifiers, never pointers to
 * memory the caller may read. */
typedef struct screenplay_app screenplay_app;
typedef struct screenplay_screen screenplay_screen;
typedef struct screenplay_registration screenplay_registration;
typedef struct screenplay_scene screenplay_scene;
typedef struct screenplay_draw screenplay_draw;
typedef struct screenplay_picture screenplay_picture;

/* ---- Version and errors ---------------------------------------------- */

/* The library's version, encoded as SCREENPLAY_VERSION. Any thread. */
uint32_t screenplay_version(void);

/* The message of the last call on this thread that failed: what failed,
 * why and the fix. Never NULL ("" when no call failed). Owned by the
 * library; valid until the next failing call on this thread. Any thread. */
const char *screenplay_last_error(void);

/* The name of a result code ("SCREENPLAY_ERROR_INVALID_HANDLE"). A static
 * string; never NULL. Any thread. */
const char *screenplay_result_name(screenplay_result result);

/* ---- The app ---------------------------------------------------------- */

/* Which screens get content (screenplay_app_options.targets). */
enum {
    /* Screens classified external (the default). */
    SCREENPLAY_TARGETS_EXTERNAL = 0,
    /* Every screen except those marked built-in by a pattern (signage). */
    SCREENPLAY_TARGETS_ALL_BUT_MARKED = 1,
    /* Every screen, built-in panels too. */
    SCREENPLAY_TARGETS_ALL = 2
};

/* Options for screenplay_app_create. Fill with screenplay_app_options_init
 * first: later versions may add fields at the end, and struct_size tells
 * the library which are there. */
typedef struct screenplay_app_options {
    /* sizeof(screenplay_app_options); set by screenplay_app_options_init. */
    uint32_t struct_size;
    /* Nonzero: when the compositor goes away, wait for one on the same
     * socket and show the content again; zero: dispatch and run return
     * SCREENPLAY_ERROR_CONNECTION_LOST. */
    int32_t reconnect;
    /* Milliseconds between reconnect attempts (default 100). */
    int32_t reconnect_interval_ms;
    /* SCREENPLAY_TARGETS_*. */
    int32_t targets;
    /* The Wayland socket's name or path; NULL uses WAYLAND_DISPLAY. Read
     * during screenplay_app_create only. */
    const char *display_name;
    /* Comma-separated screen patterns of screens to treat as built-in
     * ("HEADLESS-1", "DP-*", "serial:ABC123"), added to SCREENPLAY_BUILTIN
     * and the eDP/LVDS/DSI connectors; NULL for none. Read during
     * screenplay_app_create only. */
    const char *built_in_patterns;
} screenplay_app_options;

/* Fills `options` with the defaults (no reconnect, external screens). */
screenplay_result screenplay_app_options_init(screenplay_app_options *options);

/* Connects to the compositor and learns every screen. `options` may be
 * NULL (the defaults). On success *app is a new handle, owned by the caller
 * until screenplay_app_destroy. Call on the main thread; one app at a time. */
screenplay_result screenplay_app_create(const screenplay_app_options *options, screenplay_app **app);

/* Shuts the app down (every scene disconnects, its callbacks run) and
 * releases its handle and every screen, scene, registration and picture
 * handle of it. Not from inside a callback (SCREENPLAY_ERROR_IN_CALLBACK). */
screenplay_result screenplay_app_destroy(screenplay_app *app);

/* A descriptor that turns readable whenever the app has work: poll it for
 * reading in your loop, then call screenplay_app_dispatch. Owned by the
 * library: never read, write or close it. */
screenplay_result screenplay_app_fd(screenplay_app *app, int *fd);

/* Does everything that is ready without blocking: Wayland events, timers,
 * callbacks, and draws the scenes that are due. Returns
 * SCREENPLAY_ERROR_CONNECTION_LOST once the compositor is gone (without
 * reconnect) and SCREENPLAY_ERROR_APP_SHUT_DOWN after a shutdown. */
screenplay_result screenplay_app_dispatch(screenplay_app *app);

/* How long poll() may wait before screenplay_app_dispatch is due by a
 * timer, in milliseconds: -1 when no timer is set; with `limit` >= 0 at
 * most `limit`. */
screenplay_result screenplay_app_timeout(screenplay_app *app, int limit, int *timeout_ms);

/* Runs the app's own loop until SIGINT or SIGTERM (the app is then shut
 * down) or screenplay_app_shutdown; returns SCREENPLAY_OK then, or
 * SCREENPLAY_ERROR_CONNECTION_LOST. Signal handlers in place before are
 * put back. Not from inside a callback. */
screenplay_result screenplay_app_run(screenplay_app *app);

/* Tears every scene down and closes the connection; run returns. The
 * handle stays valid (for screenplay_app_destroy); other calls on it return
 * SCREENPLAY_ERROR_APP_SHUT_DOWN. May be called from a callback. */
screenplay_result screenplay_app_shutdown(screenplay_app *app);

/* ---- Screens ------------------------------------------------------------ */

/* What happened to a screen, for the screen callback. */
enum {
    SCREENPLAY_SCREEN_CONNECTED = 0,
    /* Mode, scale, transform, position, head or power changed. */
    SCREENPLAY_SCREEN_CHANGED = 1,
    /* Gone; its scenes are disconnected already. The handle is released
     * when the callback returns. */
    SCREENPLAY_SCREEN_DISCONNECTED = 2
};

/* Hears screens come, change and go. `event` is SCREENPLAY_SCREEN_*. */
typedef void (*screenplay_screen_callback)(
    screenplay_app *app, screenplay_screen *screen, int event, void *user_data);

/* Sets the screen callback (NULL removes it); `user_data` is passed back.
 * Screens present at screenplay_app_create are listed by
 * screenplay_app_screen, not reported as connected. */
screenplay_result screenplay_app_set_screen_callback(
    screenplay_app *app, screenplay_screen_callback callback, void *user_data);

/* How many screens there are now. */
screenplay_result screenplay_app_screen_count(screenplay_app *app, int *count);

/* The screen at `index` (0 ..< count, in announcement order). The handle
 * is the library's; it stays valid until the screen disconnects. */
screenplay_result screenplay_app_screen(screenplay_app *app, int index, screenplay_screen **screen);

/* The screen's connector name ("HDMI-A-1"). Owned by the library, valid
 * until the screen's handle is released. */
screenplay_result screenplay_screen_name(screenplay_screen *screen, const char **name);
/* The compositor's description of the screen; "" when none. Ownership as name. */
screenplay_result screenplay_screen_description(screenplay_screen *screen, const char **description);
/* The manufacturer; "" when unknown. Ownership as name. */
screenplay_result screenplay_screen_make(screenplay_screen *screen, const char **make);
/* The model; "" when unknown. Ownership as name. */
screenplay_result screenplay_screen_model(screenplay_screen *screen, const char **model);
/* The serial number; "" when unknown. Ownership as name. */
screenplay_result screenplay_screen_serial(screenplay_screen *screen, const char **serial);

/* The current mode's size in device pixels (0 x 0 when it has none). */
screenplay_result screenplay_screen_size(screenplay_screen *screen, int *width, int *height);
/* The panel's physical size in millimetres (0 when unknown). */
screenplay_result screenplay_screen_physical_size(screenplay_screen *screen, int *width_mm, int *height_mm);
/* The current refresh rate in millihertz (60000 for 60 Hz; 0 when unknown). */
screenplay_result screenplay_screen_refresh(screenplay_screen *screen, int *millihertz);
/* The compositor's integer scale factor (1, 2, ...). */
screenplay_result screenplay_screen_scale(screenplay_screen *screen, int *scale);

/* How the compositor turns the screen's content. */
enum {
    SCREENPLAY_TRANSFORM_NORMAL = 0,
    SCREENPLAY_TRANSFORM_90 = 1,
    SCREENPLAY_TRANSFORM_180 = 2,
    SCREENPLAY_TRANSFORM_270 = 3,
    SCREENPLAY_TRANSFORM_FLIPPED = 4,
    SCREENPLAY_TRANSFORM_FLIPPED_90 = 5,
    SCREENPLAY_TRANSFORM_FLIPPED_180 = 6,
    SCREENPLAY_TRANSFORM_FLIPPED_270 = 7
};
/* The screen's transform, SCREENPLAY_TRANSFORM_*. */
screenplay_result screenplay_screen_transform(screenplay_screen *screen, int *transform);

/* What a screen is to the app. */
enum {
    /* A laptop's own panel, or marked built-in by a pattern. */
    SCREENPLAY_SCREEN_BUILT_IN = 0,
    /* No built-in panel: the screen that keeps the app's own windows. */
    SCREENPLAY_SCREEN_MAIN = 1,
    /* Gets content. */
    SCREENPLAY_SCREEN_EXTERNAL = 2
};
/* The screen's classification (SCREENPLAY_SCREEN_BUILT_IN, _MAIN,
 * _EXTERNAL); `reason` (may be NULL) gets why, owned as the name. */
screenplay_result screenplay_screen_classification(
    screenplay_screen *screen, int *classification, const char **reason);

/* One mode of a screen. */
typedef struct screenplay_mode {
    int32_t width;
    int32_t height;
    /* Refresh in millihertz; 0 when the compositor reports none. */
    int32_t refresh_millihz;
    /* Nonzero for the screen's preferred mode. */
    int32_t preferred;
} screenplay_mode;

/* How many modes the screen lists (0 on compositors that list none). */
screenplay_result screenplay_screen_mode_count(screenplay_screen *screen, int *count);
/* The listed mode at `index`, copied into *mode. */
screenplay_result screenplay_screen_mode(screenplay_screen *screen, int index, screenplay_mode *mode);
/* The current mode, copied into *mode; *has_mode is 0 when it has none. */
screenplay_result screenplay_screen_current_mode(screenplay_screen *screen, screenplay_mode *mode, int *has_mode);

/* ---- Mode and power requests -------------------------------------------- */

/* The answer to a mode request: `result` is SCREENPLAY_OK or an error;
 * `mode` the screen's mode afterwards (NULL when unknown); `message` says
 * why it failed (NULL on success), valid during the callback only. The
 * screen handle may already be released when the screen went away. */
typedef void (*screenplay_mode_callback)(screenplay_screen *screen, screenplay_result result,
                                         const screenplay_mode *mode, const char *message, void *user_data);

/* Asks for a mode `width` x `height` at `refresh_millihz` (0: any refresh).
 * Returns at once; `callback` (may be NULL) hears the answer from a later
 * dispatch. */
screenplay_result screenplay_screen_set_mode(screenplay_screen *screen, int width, int height,
                                             int refresh_millihz, screenplay_mode_callback callback,
                                             void *user_data);

/* A panel's power. */
enum {
    SCREENPLAY_POWER_UNKNOWN = -1,
    SCREENPLAY_POWER_OFF = 0,
    SCREENPLAY_POWER_ON = 1
};

/* The answer to a power request: `power` is SCREENPLAY_POWER_*; `message`
 * as for screenplay_mode_callback. */
typedef void (*screenplay_power_callback)(screenplay_screen *screen, screenplay_result result, int power,
                                          const char *message, void *user_data);

/* Switches the panel on or off (`power`: SCREENPLAY_POWER_ON or _OFF).
 * Returns at once; `callback` (may be NULL) hears the answer. */
screenplay_result screenplay_screen_set_power(screenplay_screen *screen, int power,
                                              screenplay_power_callback callback, void *user_data);

/* Reads the panel's power. Returns at once; `callback` (not NULL) hears
 * it: SCREENPLAY_POWER_UNKNOWN where the compositor cannot tell. */
screenplay_result screenplay_screen_read_power(screenplay_screen *screen, screenplay_power_callback callback,
                                               void *user_data);

/* ---- Content on external screens ----------------------------------------- */

/* A scene came up on a screen (first), or is gone (last: its handle is
 * released when the callback returns). */
typedef void (*screenplay_scene_callback)(screenplay_scene *scene, void *user_data);

/* Draw one frame of the scene. It runs with the scene's EGL context
 * current, its framebuffer bound and the viewport covering it: raw OpenGL
 * ES 2/3 calls draw there (GL's origin is the bottom left). `draw` is valid
 * during this call only, for the screenplay_draw_* helpers (which may
 * change GL state: set what you rely on after calling one). */
typedef void (*screenplay_draw_callback)(screenplay_scene *scene, screenplay_draw *draw, void *user_data);

/* Registers content for external screens: one scene per target screen
 * while the registration is enabled (the most recent registration wins).
 * `name` (may be NULL) names it in messages; the three callbacks may be
 * NULL (no draw: the scene stays black); `user_data` is passed to each.
 * *registration is the caller's until screenplay_unregister_content or
 * screenplay_app_destroy. */
screenplay_result screenplay_register_content(
    screenplay_app *app, const char *name, screenplay_scene_callback on_connect,
    screenplay_draw_callback on_draw, screenplay_scene_callback on_disconnect, void *user_data,
    screenplay_registration **registration);

/* Removes the registration (its scenes disconnect) and releases the handle. */
screenplay_result screenplay_unregister_content(screenplay_registration *registration);

/* Enables (nonzero) or disables (0) the registration: a disabled one shows
 * nothing and hands its screens to the one before it. */
screenplay_result screenplay_registration_set_enabled(screenplay_registration *registration, int enabled);

/* Whether any target screen is there for the registration now. */
screenplay_result screenplay_registration_is_available(screenplay_registration *registration, int *available);

/* A key pressed (`pressed` nonzero) or released in an app window.
 * `keysym` is the key's XKB name ("a", "Left", "Return", "space"), `text`
 * what it types ("" for none); both valid during the callback only. */
typedef void (*screenplay_key_callback)(screenplay_scene *window, const char *keysym, const char *text,
                                        int pressed, void *user_data);

/* Opens an ordinary window of the app (on whichever screen the compositor
 * puts it: the laptop's, a keypad), titled `title` (may be NULL), drawn by
 * `on_draw` and hearing keys through `on_key`; any callback may be NULL.
 * *window is a scene handle at once, valid until the disconnect callback
 * returns (screenplay_window_close, the compositor closing it, shutdown). */
screenplay_result screenplay_open_window(
    screenplay_app *app, const char *title, screenplay_scene_callback on_connect, screenplay_draw_callback on_draw,
    screenplay_key_callback on_key, screenplay_scene_callback on_disconnect, void *user_data,
    screenplay_scene **window);

/* Closes a window opened with screenplay_open_window (its disconnect
 * callback runs, then the handle is released). */
screenplay_result screenplay_window_close(screenplay_scene *window);

/* The screen the scene shows on (NULL when between screens). */
screenplay_result screenplay_scene_screen(screenplay_scene *scene, screenplay_screen **screen);
/* The scene's size in device pixels. */
screenplay_result screenplay_scene_size(screenplay_scene *scene, int *width, int *height);
/* Frames per second wanted while the display link runs (0: the screen's refresh). */
screenplay_result screenplay_scene_set_preferred_fps(screenplay_scene *scene, int frames_per_second);
/* Pauses (nonzero, the default) or runs (0) the display link: a running
 * one draws every refresh; a paused one only after needs_display. */
screenplay_result screenplay_scene_set_paused(screenplay_scene *scene, int paused);
/* Asks for one frame soon: call when the content changed. */
screenplay_result screenplay_scene_set_needs_display(screenplay_scene *scene);

/* ---- Drawing helpers (inside a draw callback only) ------------------------- */

/* Colours are 0xRRGGBB. Coordinates are device pixels, origin top left. */

/* The size being drawn, in device pixels. */
screenplay_result screenplay_draw_size(screenplay_draw *draw, int *width, int *height);
/* The framebuffer object bound for the draw (bind it again, never 0, if
 * you bind your own) and the context's GLES major version (2 or 3). */
screenplay_result screenplay_draw_gl_target(screenplay_draw *draw, unsigned int *framebuffer, int *gles_major);
/* Fills the whole frame with `rgb`. */
screenplay_result screenplay_draw_clear(screenplay_draw *draw, uint32_t rgb);
/* Fills a rectangle with `rgb`. */
screenplay_result screenplay_draw_fill(screenplay_draw *draw, int x, int y, int width, int height, uint32_t rgb);

/* Text alignment in its box. */
enum { SCREENPLAY_ALIGN_LEFT = 0, SCREENPLAY_ALIGN_CENTER = 1, SCREENPLAY_ALIGN_RIGHT = 2 };

/* Draws UTF-8 `text` (wrapped at words to `max_width`, 0 for the frame's
 * width minus x) with its box's top left at (x, y), `pixel_height` pixels
 * high, in `font` (a pango family such as "Sans Bold"; NULL for "Sans").
 * *drawn_height (may be NULL) gets the height drawn. */
screenplay_result screenplay_draw_text(screenplay_draw *draw, const char *text, int x, int y, int max_width,
                                       int pixel_height, uint32_t rgb, int align, const char *font,
                                       int *drawn_height);

/* Draws the picture scaled into the rectangle. */
screenplay_result screenplay_draw_picture(screenplay_draw *draw, screenplay_picture *picture, int x, int y,
                                          int width, int height);
/* Draws the picture as large as fits, centred, on `background_rgb`. */
screenplay_result screenplay_draw_picture_fitted(screenplay_draw *draw, screenplay_picture *picture,
                                                 uint32_t background_rgb);

/* ---- Pictures ---------------------------------------------------------- */

/* Loads a picture from a file (PNG, JPEG, SVG, WebP, ...). *picture is the
 * caller's until screenplay_picture_destroy or screenplay_app_destroy. */
screenplay_result screenplay_picture_load(screenplay_app *app, const char *path, screenplay_picture **picture);
/* The picture's size in pixels. */
screenplay_result screenplay_picture_size(screenplay_picture *picture, int *width, int *height);
/* Frees the picture and releases its handle. */
screenplay_result screenplay_picture_destroy(screenplay_picture *picture);

#ifdef __cplusplus
}
#endif

#endif /* SCREENPLAY_SCREENPLAY_H */
