#ifndef SCREENPLAY_CGLIB_SHIM_H
#define SCREENPLAY_CGLIB_SHIM_H
/* GLib's header directories (glib-2.0.pc is clean) for CWPE's C; nothing
   in Swift imports this module. */
#include <glib.h>
#endif
