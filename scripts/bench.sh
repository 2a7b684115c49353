#!/usr/bin/env bash
# Benchmarks: builds `screenplay` and `screenplay-bench` in release mode and runs every
# benchmark against headless sway/weston that it starts itself. Writes
# bench-results/{results.json,summary.md,*.svg} and, after a full run, docs/performance.md's
# Performance table. Under 10 minutes on 2 cores; `--quick` is a ~2 minute smoke run.
#   scripts/bench.sh [--quick] [--only pacing,scaling,hotplug,idle,video,signage,layouts,web,fleet,soak,day,textures] [--soak-minutes N] [--texture-minutes N] [--out DIR]
# The memory soak (soak) runs only when asked for: it takes half an hour; so does the
# ten-minute day of signage (day: hot-plugs, compositor restarts, reloads, ctl traffic), and the
# hour-long texture soak (textures: GL objects held by a playlist that keeps making pictures).
# `--only video` is the short video run: Screenplay against `mpv --fs --loop`.
# SCRATCH_PATH=/some/dir puts the build elsewhere than .build.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=()
if [[ -n "${SCRATCH_PATH:-}" ]]; then scratch=(--scratch-path "$SCRATCH_PATH"); fi
# Release only: debug builds would measure the Swift optimiser's absence.
swift build -c release "${scratch[@]}" --product screenplay
swift build -c release "${scratch[@]}" --product screenplay-bench
bin="$(swift build -c release "${scratch[@]}" --show-bin-path)"
# No rig-cleanup.sh trap here (it would spare the benchmark's rigs while it runs anyway): the
# benchmark stops its own compositors; after an interrupted run, run it by hand.
"$bin/screenplay-bench" --screenplay "$bin/screenplay" "$@"
