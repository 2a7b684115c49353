#!/usr/bin/env bash
# The main job: set-up, build, and `screenplay demo` (its own headless
# compositor when there is no WAYLAND_DISPLAY). Arguments go to `demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product screenplay
exec .build/release/screenplay demo "$@"
