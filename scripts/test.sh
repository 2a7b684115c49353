#!/usr/bin/env bash
# The whole test suite: set-up, build (the integration tests drive the real
# `screenplay` binary), unit and integration tests against headless sway,
# weston, cage, mutter and KWin that the tests start themselves.
#
#   scripts/test.sh            everything
#   scripts/test.sh --unit     only the unit targets: no compositor, seconds
#   scripts/test.sh ARGS...    ARGS go to `swift test` (e.g. --filter StormTests)
set -euo pipefail
cd "$(dirname "$0")/.."
# The test targets that start no compositor (Package.swift lists them first).
unit_targets="FrameTimingTests|DocumentsTests|RenderingTests|WaylandClientTests|ScreenplayTests|ScreenplayCLITests"
if [ "${1:-}" = "--unit" ]; then
  shift
  scripts/setup.sh
  swift build --build-tests
  # No rig cleanup: a unit run starts no compositor, so it leaves other
  # runs' compositors alone.
  exec swift test --skip-build --filter "^($unit_targets)\." "$@"
fi
scripts/setup.sh
cleanup() { bash scripts/rig-cleanup.sh >/dev/null 2>&1 || true; }
trap cleanup EXIT
swift build --build-tests
swift test --skip-build "$@"
