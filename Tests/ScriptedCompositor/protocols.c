// Compiles the committed scanner output under the fixture's own symbol names
// (see renames.h and scripts/generate-test-protocols.sh).
#include "renames.h"
#include <wayland-util.h>
#include "protocols/wlr-layer-shell-unstable-v1-protocol.c"
#include "protocols/xdg-output-unstable-v1-protocol.c"
#include "protocols/xdg-shell-protocol.c"
#include "protocols/presentation-time-protocol.c"
#include "protocols/wlr-output-management-unstable-v1-protocol.c"
#include "protocols/wlr-output-power-management-unstable-v1-protocol.c"

