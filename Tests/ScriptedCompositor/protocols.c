// Compiles the committed scanner output under the fixture's own symbol names
// (see renames.h and scripts/generate-test-protocols.sh).
#include "renames.h"
#include <wayland-util.h>
#include "protocols/wlr-layer-shell-unstable-v1-protocol.c"
#include "protocols/xdg-output-unstable-v1-protocol.c"
#include "protocols/wlr-output-management-unstable-v1-protocol.c"
#include "protocols/wlr-output-power-management-unstable-v1-protocol.c"

// get_popup names xdg_popup; the fixture offers no xdg-shell, so a bare
// description (no requests, no events) is enough to type the argument.
const struct wl_interface xdg_popup_interface = {"xdg_popup", 6, 0, NULL, 0, NULL};
