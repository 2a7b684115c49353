#ifndef SCREENPLAY_CPIXBUF_SHIM_H
#define SCREENPLAY_CPIXBUF_SHIM_H
#include <gdk-pixbuf/gdk-pixbuf.h>
#endif
