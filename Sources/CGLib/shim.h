#ifndef SCREENPLAY_CGLIB_SHIM_H
#define SCREENPLAY_CGLIB_SHIM_H
/* GLib's header directories (glib-2.0.pc is clean) for CWPE's C; in Swift
   only WebTests imports it, for a GLib source of its own. */
#include <glib.h>
#endif
