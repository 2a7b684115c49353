// A test-only Wayland client that moves and clicks a pointer through
// zwlr_virtual_pointer_v1 (sway and other wlroots compositors offer it), as
// wtype types keys: Debian 12 packages no tool that drives it (no wlrctl;
// ydotool needs /dev/uinput, which a headless compositor does not read).
#ifndef SCREENPLAY_VIRTUAL_POINTER_H
#define SCREENPLAY_VIRTUAL_POINTER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct virtual_pointer virtual_pointer;

/// Connects to `display` (socket name or path), binds the seat and the
/// virtual pointer manager and makes a pointer. NULL when the compositor
/// cannot be reached or offers no zwlr_virtual_pointer_manager_v1; then
/// `error` (at least 256 bytes) says which.
virtual_pointer *virtual_pointer_connect(const char *display, char *error);
/// Moves to (x, y) of a layout `width` x `height` (absolute motion), then a
/// frame; waits until the compositor has handled it.
bool virtual_pointer_move(virtual_pointer *p, uint32_t x, uint32_t y, uint32_t width, uint32_t height);
/// Presses or releases an evdev button (BTN_LEFT is 0x110), then a frame.
bool virtual_pointer_button(virtual_pointer *p, uint32_t button, bool pressed);
/// Scrolls vertically by `value` surface units, then a frame.
bool virtual_pointer_scroll(virtual_pointer *p, double value);
/// Destroys the pointer and disconnects.
void virtual_pointer_disconnect(virtual_pointer *p);

#endif
