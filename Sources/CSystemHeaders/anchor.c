// CSystemHeaders exists for its public include directory, which SwiftPM puts
// on the header search path of every target that depends on it, in this
// package and in packages that depend on Screenplay. The directory links the
// header trees of pango, gdk-pixbuf, librsvg and harfbuzz from /usr/include, so
// CCairo, CPixbuf and CRsvg find them without pangocairo's, gdk-pixbuf's and
// librsvg's pkg-config files: those pull in gmodule-no-export-2.0 (through
// gio-2.0), whose -pthread SwiftPM rejects with "prohibited flag(s)" warnings
// in every build, the builds of packages that depend on Screenplay included.
// glib's and cairo's own directories come from cairo.pc and glib-2.0.pc, which
// are clean. SwiftPM needs one source file in a C target; this is it.
#include "system_headers.h"
