#!/usr/bin/env bash
# Regenerates the server side of the protocols the scripted test compositor
# (Tests/ScriptedCompositor) speaks beyond libwayland-server's core protocol.
# Committed like Sources/CWaylandProtocols; the .c files are not compiled on
# their own but included by Tests/ScriptedCompositor/protocols.c, which renames
# the interface symbols so they do not clash with the client's copies linked
# into the same test binary.  Usage: scripts/generate-test-protocols.sh [OUTDIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/Tests/ScriptedCompositor/protocols}
sys=$(pkg-config --variable=pkgdatadir wayland-protocols)
protocols=(
  "$sys/stable/xdg-shell/xdg-shell.xml"
  "$sys/stable/presentation-time/presentation-time.xml"
  "$sys/unstable/xdg-output/xdg-output-unstable-v1.xml"
  "$here/protocols/wlr-layer-shell-unstable-v1.xml"
  "$here/protocols/wlr-output-management-unstable-v1.xml"
  "$here/protocols/wlr-output-power-management-unstable-v1.xml"
)
mkdir -p "$out"
for xml in "${protocols[@]}"; do
  base=$(basename "$xml" .xml)
  wayland-scanner server-header "$xml" "$out/$base-server-protocol.h"
  wayland-scanner private-code "$xml" "$out/$base-protocol.c"
done

# The client side of zwlr_virtual_pointer_v1 for Tests/VirtualPointer (a test
# client that clicks like a mouse on sway); compiled as it is.
vp=${2:-$here/Tests/VirtualPointer}
xml="$here/protocols/wlr-virtual-pointer-unstable-v1.xml"
wayland-scanner client-header "$xml" "$vp/wlr-virtual-pointer-unstable-v1-client-protocol.h"
wayland-scanner private-code "$xml" "$vp/wlr-virtual-pointer-unstable-v1-protocol.c"
