#!/usr/bin/env bash
# The whole test suite: set-up, build (the integration tests drive the real
# `screenplay` binary), unit and integration tests against headless sway,
# weston, cage, mutter and KWin that the tests start themselves.
#
#   scripts/test.sh            everything
#   scripts/test.sh --unit     only the unit targets: no compositor, seconds
#   scripts/test.sh --repeat N [--busy] --filter NAME
#                              runs the tests NAME matches N times and says
#                              how often they passed; --busy keeps one core
#                              busy meanwhile (a loaded machine), to show a
#                              flake or its absence
#   scripts/test.sh ARGS...    ARGS go to `swift test` (e.g. --filter StormTests)
set -euo pipefail
cd "$(dirname "$0")/.."
# The test targets that start no compositor (Package.swift lists them first).
unit_targets="FrameTimingTests|EventLoopTests|WebTests|DocumentsTests|RenderingTests|WaylandClientTests|ScreenplayTests|ScreenplayCLITests|SignageTests|FleetTests|PresenterTests"
if [ "${1:-}" = "--unit" ]; then
  shift
  scripts/setup.sh
  swift build --build-tests
  # No rig cleanup: a unit run starts no compositor, so it leaves other
  # runs' compositors alone.
  exec swift test --skip-build --filter "^($unit_targets)\." "$@"
fi
if [ "${1:-}" = "--repeat" ]; then
  runs="${2:-}"
  shift 2 || true
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || {
    echo "test.sh: --repeat takes a count of runs, e.g. --repeat 10 --filter StuckRendererTests" >&2
    exit 2
  }
  busy=0
  args=()
  for a in "$@"; do
    if [ "$a" = "--busy" ]; then busy=1; else args+=("$a"); fi
  done
  [[ " ${args[*]:-} " == *" --filter "* ]] || {
    echo "test.sh: --repeat needs --filter NAME (which tests to repeat)" >&2
    exit 2
  }
  scripts/setup.sh
  swift build --build-tests
  logs=$(mktemp -d /tmp/screenplay-repeat.XXXXXX)
  hog=""
  cleanup() {
    [ -n "$hog" ] && kill "$hog" 2>/dev/null
    bash scripts/rig-cleanup.sh >/dev/null 2>&1 || true
  }
  trap cleanup EXIT
  if ((busy)); then
    # One core kept busy for the whole repeat, as another program would.
    sh -c 'while :; do :; done' &
    hog=$!
  fi
  passed=0
  for ((i = 1; i <= runs; i++)); do
    start=$(date +%s)
    if swift test --skip-build "${args[@]}" >"$logs/run-$i.log" 2>&1; then
      if grep -q "Executed 0 tests" "$logs/run-$i.log"; then
        echo "test.sh: the filter matched no test (${args[*]}); see $logs/run-$i.log" >&2
        exit 2
      fi
      passed=$((passed + 1))
      echo "run $i of $runs: passed ($(($(date +%s) - start)) s)"
    else
      echo "run $i of $runs: FAILED ($(($(date +%s) - start)) s, log $logs/run-$i.log):"
      grep -E "error: |Fatal error|Crash" "$logs/run-$i.log" | head -5 | sed 's/^/    /'
    fi
  done
  echo "repeat: $passed of $runs passed (${args[*]}$( ((busy)) && echo ", one core busy"))"
  [ "$passed" -eq "$runs" ]
  exit
fi
scripts/setup.sh
cleanup() { bash scripts/rig-cleanup.sh >/dev/null 2>&1 || true; }
trap cleanup EXIT
swift build --build-tests
if [ $# -gt 0 ]; then
  exec swift test --skip-build "$@"
fi
# The whole suite runs two tests at a time, each in its own process with
# its own compositors: most of a rig test's time is waiting for refreshes,
# timers and servers, so one after another took 30 minutes where CI should
# take under 20. Two, not one per core of a bigger machine: every rig test
# is shown to pass beside one busy core (--repeat --busy), not beside seven.
# MemoryFlatTests runs alone afterwards: it bounds RSS slopes of 1 KiB/s
# over 90 s, and beside another test's bursts it failed where it passes
# alone (see RELIABILITY.md); the benchmark's 30-minute run is the long
# evidence.
status=0
swift test --skip-build --parallel --num-workers 2 --skip MemoryFlatTests || status=$?
swift test --skip-build --filter MemoryFlatTests || status=$?
exit "$status"
