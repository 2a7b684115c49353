// Hand-written (not generated); see interfaces.c.
#ifndef SCREENPLAY_INTERFACES_H
#define SCREENPLAY_INTERFACES_H
#include <wayland-client.h>
/// The interface description named `name`, or NULL when Screenplay does not bind it.
const struct wl_interface *screenplay_interface(const char *name);
#endif
