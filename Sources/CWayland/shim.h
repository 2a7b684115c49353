#ifndef SCREENPLAY_CWAYLAND_SHIM_H
#define SCREENPLAY_CWAYLAND_SHIM_H
#include <wayland-client.h>
#include <wayland-cursor.h>
#include <wayland-egl.h>
#include <poll.h>
#include <errno.h>
#endif
