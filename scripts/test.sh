#!/usr/bin/env bash
# The whole test suite: set-up, build (the integration tests drive the real
# `screenplay` binary), unit and integration tests against headless sway and
# weston that the tests start themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cleanup() { bash scripts/rig-cleanup.sh >/dev/null 2>&1 || true; }
trap cleanup EXIT
swift build --build-tests
swift test --skip-build "$@"
