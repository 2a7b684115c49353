// A scripted Wayland compositor for tests: a test fixture only, never part of
// the product. It serves one socket from its own thread and produces, on
// command, protocol edge cases real compositors rarely produce on demand
// (outputs removed before done, enter for dead outputs, closed before
// configure, 0x0 configures, refresh 0, double configures, a withdrawn layer
// shell). Every call is thread-safe: it takes the server's lock, acts, and
// flushes the events to the client before returning.
//
// Offered globals: wl_compositor v4, wl_shm (libwayland's), wl_output v4 per
// added output, and optionally zxdg_output_manager_v1 v3 and
// zwlr_layer_shell_v1 v4. Never xdg_wm_base. Frame callbacks fire on a 16 ms
// timer and shm buffers are released at once, so Mesa's software EGL runs.
#ifndef SCRIPTED_COMPOSITOR_H
#define SCRIPTED_COMPOSITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct scripted_compositor scripted_compositor;

/// How the next layer surfaces answer their initial commit.
typedef enum {
    /// One configure with the output's logical size (a real compositor).
    SCRIPTED_CONFIGURE_OUTPUT_SIZE = 0,
    /// One configure of (w1, h1); 0x0 means "you choose".
    SCRIPTED_CONFIGURE_SIZE = 1,
    /// Two configures, (w1, h1) then (w2, h2), in one flush, before any ack.
    SCRIPTED_CONFIGURE_TWICE = 2,
    /// `closed` instead of any configure.
    SCRIPTED_CLOSE = 3,
} scripted_initial_reply;

/// Starts serving on a fresh socket in a temporary directory; NULL on failure.
scripted_compositor *scripted_start(bool offer_layer_shell, bool offer_xdg_output);
/// Stops the thread, disconnects clients, removes the socket, frees all.
void scripted_stop(scripted_compositor *c);
/// Absolute socket path, for WAYLAND_DISPLAY or wl_display_connect.
const char *scripted_socket_path(const scripted_compositor *c);

/// Adds a wl_output global (logical size is pixels / scale); returns its
/// index. Without `send_done` a binding client gets every description event
/// but `done`.
int scripted_add_output(
    scripted_compositor *c, const char *name, int32_t x, int32_t y, int32_t width, int32_t height,
    int32_t scale, int32_t refresh_mhz, bool send_done);
/// Sends wl_output.done to every resource of the output (and later binds).
void scripted_send_output_done(scripted_compositor *c, int output);
/// Withdraws the output's global (wl_global_remove).
void scripted_remove_output(scripted_compositor *c, int output);
/// Sends wl_surface.enter on the layer surface's wl_surface naming the
/// output; false when the client has no resource for that output.
bool scripted_send_enter(scripted_compositor *c, int layer_surface, int output);
/// Withdraws the output's global and, in the same flush, sends enter for it
/// on the layer surface: the client reads the enter after it dropped the output.
bool scripted_remove_output_then_enter(scripted_compositor *c, int output, int layer_surface);
/// Withdraws the output's global and, in the same flush, sends a configure
/// to the layer surface on it; returns the configure's serial (0 if dead).
uint32_t scripted_remove_output_then_configure(
    scripted_compositor *c, int output, int layer_surface, uint32_t width, uint32_t height);
/// Withdraws zwlr_layer_shell_v1 (existing objects stay valid).
void scripted_remove_layer_shell(scripted_compositor *c);

void scripted_set_initial_reply(
    scripted_compositor *c, scripted_initial_reply reply, uint32_t w1, uint32_t h1, uint32_t w2, uint32_t h2);
/// Sends a configure to a live layer surface; returns its serial (0 if dead).
uint32_t scripted_configure(scripted_compositor *c, int layer_surface, uint32_t width, uint32_t height);

// Queries.
/// Layer surfaces ever created, and those not yet destroyed.
int scripted_layer_surface_count(scripted_compositor *c);
int scripted_live_layer_surface_count(scripted_compositor *c);
/// The newest live layer surface asked for on the output named `name`, or -1.
int scripted_layer_surface_on(scripted_compositor *c, const char *output_name);
bool scripted_layer_surface_is_live(scripted_compositor *c, int layer_surface);
/// Copies the name of the output the layer surface was asked for ("" = NULL).
void scripted_layer_surface_output(scripted_compositor *c, int layer_surface, char *buffer, size_t size);
/// Serials of configures sent and acked, in order (up to `capacity`); returns the count.
int scripted_sent_serials(scripted_compositor *c, int layer_surface, uint32_t *serials, int capacity);
int scripted_acked_serials(scripted_compositor *c, int layer_surface, uint32_t *serials, int capacity);
/// Pixel size of the first and of the last buffer committed (0x0 before any).
void scripted_first_buffer_size(scripted_compositor *c, int layer_surface, int32_t *width, int32_t *height);
void scripted_last_buffer_size(scripted_compositor *c, int layer_surface, int32_t *width, int32_t *height);
/// wl_display.error events sent to any client, and the last one in words.
int scripted_protocol_error_count(scripted_compositor *c);
void scripted_last_protocol_error(scripted_compositor *c, char *buffer, size_t size);
/// Clients connected now.
int scripted_client_count(scripted_compositor *c);
/// wl_output and zxdg_output_v1 resources of the output still alive (all clients).
int scripted_output_resource_count(scripted_compositor *c, int output);
/// zwlr_layer_shell_v1 binds ever made.
int scripted_layer_shell_binds(scripted_compositor *c);

// Presentation feedback and xdg-shell, offered on request (before the
// client binds) so the tests that predate them see the same globals.

/// How the compositor answers wp_presentation_feedback.
typedef enum {
    /// Never: neither presented nor discarded (sway 1.7's headless backend).
    SCRIPTED_FEEDBACK_NEVER = 0,
    /// `presented`, `late_frames` frame ticks after the commit.
    SCRIPTED_FEEDBACK_LATE = 1,
    /// As LATE for every other commit; the others are never answered.
    SCRIPTED_FEEDBACK_ALTERNATE = 2,
} scripted_feedback_mode;

/// Offers wp_presentation v1 answering as `mode` says.
void scripted_offer_presentation(scripted_compositor *c, scripted_feedback_mode mode, int late_frames);
/// Offers xdg_wm_base v3: toplevels only; the first commit is answered with
/// a configure of the fullscreen output's logical size (0x0 otherwise).
void scripted_offer_xdg_shell(scripted_compositor *c);
/// Feedback requests ever made, answered, and alive unanswered now.
void scripted_feedback_counts(scripted_compositor *c, int *requested, int *answered, int *live);
/// Toplevels ever made, and the output a toplevel asked to be fullscreen on (-1: none).
int scripted_toplevel_count(scripted_compositor *c);
int scripted_toplevel_fullscreen_output(scripted_compositor *c, int toplevel);
/// Sends, in one flush, wl_surface.enter (ops[i] = output index) or leave
/// (ops[i] = -output-1) on the toplevel's surface; false if any could not be sent.
bool scripted_send_toplevel_outputs(scripted_compositor *c, int toplevel, const int *ops, int count);

// Output management (zwlr_output_manager_v1 v4) and power
// (zwlr_output_power_manager_v1 v1). Heads go out in the reverse order of the
// outputs, so only matching by name pairs them right.

/// How configurations are answered.
typedef enum {
    /// test and apply succeed (apply changes the wl_output's mode).
    SCRIPTED_CONFIG_SUCCEED = 0,
    /// test and apply answer `failed`.
    SCRIPTED_CONFIG_FAIL = 1,
    /// The next configuration created sees the state change under it (a new
    /// serial, as after a hot-plug) and is cancelled; later ones succeed.
    SCRIPTED_CONFIG_CHANGE_SERIAL_ONCE = 2,
} scripted_config_reply;

/// Offers both globals (call before the client connects).
void scripted_offer_output_management(scripted_compositor *c);
/// The output's head: identity and modes ({width, height, mHz} triples),
/// the preferred and current mode indices. By default a head lists the
/// output's one mode, preferred and current, and no make, model or serial.
void scripted_set_head(
    scripted_compositor *c, int output, const char *make, const char *model, const char *serial, const int32_t *modes,
    int mode_count, int preferred, int current);
/// A head with no wl_output: an output the compositor has disabled.
int scripted_add_disabled_head(scripted_compositor *c, const char *name);
/// Every head of the output (and its modes) gets `finished` and is destroyed
/// at once, then the head is announced again in the same flush, reusing the
/// freed ids: the race of wlroots 0.15 (sway 1.7) when outputs come and go.
void scripted_retire_and_reannounce_heads(scripted_compositor *c, int output);
void scripted_set_config_reply(scripted_compositor *c, scripted_config_reply reply);
/// Configurations created so far, the serial the last one carried, and the
/// serial of the current head state.
int scripted_configuration_count(scripted_compositor *c);
uint32_t scripted_last_configuration_serial(scripted_compositor *c);
uint32_t scripted_head_serial(scripted_compositor *c);
/// The output's current mode.
void scripted_output_mode(scripted_compositor *c, int output, int32_t *width, int32_t *height, int32_t *refresh);
/// The panel's power; switching it as another program would (frame
/// callbacks of surfaces on an output that is off are held until it is on).
bool scripted_power_is_on(scripted_compositor *c, int output);
void scripted_set_power(scripted_compositor *c, int output, bool on);
/// Answer set_mode with `failed` from now on.
void scripted_set_power_refuses(scripted_compositor *c, bool refuses);
/// set_mode requests received.
int scripted_power_requests(scripted_compositor *c);

// A seat (wl_seat v7) with a pointer and touch, and a keyboard only when
// asked, offered on request (before the client binds). Events go to the client that owns the
// toplevel's surface, each followed by a frame.

/// Offers the seat.
void scripted_offer_seat(scripted_compositor *c);
/// Offers the seat with a keyboard too (a US keymap from the system's
/// xkeyboard-config is sent when the client gets its wl_keyboard).
void scripted_offer_seat_with_keyboard(scripted_compositor *c);
/// A key (evdev code: KEY_A is 30) for the client of the toplevel's
/// surface, after an enter (and empty modifiers) when that surface did not
/// have keyboard focus. False when the client has no wl_keyboard.
bool scripted_key(scripted_compositor *c, int toplevel, uint32_t key, bool pressed);
/// Pointer enter on the toplevel's surface at surface-local (x, y); the
/// motion, button, scroll and leave that follow go to that surface. False
/// when the client has no wl_pointer (or the toplevel is gone).
bool scripted_pointer_enter(scripted_compositor *c, int toplevel, double x, double y);
bool scripted_pointer_motion(scripted_compositor *c, double x, double y);
/// An evdev button code (BTN_LEFT is 0x110).
bool scripted_pointer_button(scripted_compositor *c, uint32_t button, bool pressed);
/// Vertical scroll by `dy` surface units.
bool scripted_pointer_scroll(scripted_compositor *c, double dy);
bool scripted_pointer_leave(scripted_compositor *c);
/// wl_pointer.set_cursor requests with a surface (a cursor image) seen.
int scripted_cursor_sets(scripted_compositor *c);

typedef enum {
    SCRIPTED_TOUCH_DOWN = 0,
    SCRIPTED_TOUCH_MOTION = 1,
    SCRIPTED_TOUCH_UP = 2,
    /// wl_touch.cancel (every touch point; `id`, `x`, `y` unused).
    SCRIPTED_TOUCH_CANCEL = 3,
} scripted_touch_kind;

/// A touch event for the client of the toplevel's surface (down names the
/// surface; motion and up name only `id`, as the protocol does).
bool scripted_touch(scripted_compositor *c, scripted_touch_kind kind, int toplevel, int32_t id, double x, double y);

#endif
