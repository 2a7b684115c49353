// libwayland-server, for the scripted test compositor only: the product is a
// client and never links it.
#ifndef SCREENPLAY_CWAYLANDSERVER_SHIM_H
#define SCREENPLAY_CWAYLANDSERVER_SHIM_H
#include <wayland-server-core.h>
#endif
