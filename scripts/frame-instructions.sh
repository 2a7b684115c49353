#!/usr/bin/env bash
# Instructions per presented frame, counted by callgrind: a figure machine
# load does not move, to compare two ways of presenting the same frame
# (the frame-cost bench's cases) and to find where a difference goes
# (callgrind_annotate OUT/CASE.out). Each case runs under valgrind on a
# headless weston of its own (one 1280x720 output at 60 Hz): once WARMUP
# reports have come (screenplay's --stats lines each second, simple-egl's
# "frames in 5 seconds"), the counts are zeroed; after REPORTS more they
# are dumped, and the frames those reports name divide them. Under
# valgrind a frame takes some 50 times longer, so the rate is far below
# 60 Hz: compare cases with each other, never with a bench's milliseconds.
# Not in CI (about 2 minutes a case); a manual check.
#   scripts/frame-instructions.sh [BIN] [OUT] [CASE...]
# CASE: simple-egl clear clear-egl solid-shader solid-shader-egl clear-30fps
# text-30fps (default: all). Env: WARMUP (default 4), REPORTS (default 40).
set -euo pipefail
BIN=$(realpath "${1:-.build/release/screenplay}")
OUT=$(realpath -m "${2:-frame-instructions}")
shift $(($# < 2 ? $# : 2))
CASES=("$@")
((${#CASES[@]})) || CASES=(simple-egl clear clear-egl solid-shader solid-shader-egl clear-30fps text-30fps)
WARMUP=${WARMUP:-4}
REPORTS=${REPORTS:-40}
mkdir -p "$OUT"
D=$(mktemp -d /tmp/screenplay-frame-instructions.XXXXXX)
export XDG_RUNTIME_DIR=$D/rt
mkdir -m 700 "$XDG_RUNTIME_DIR"
# Valgrind 3.19 cannot read the DWARF a Swift build writes ("unhandled dwarf2
# abbrev form"): a copy without it keeps the symbol table, so names remain.
objcopy --strip-debug "$BIN" "$D/screenplay"
BIN=$D/screenplay
printf 'void mainImage(out vec4 fragColor, in vec2 fragCoord) {\n    fragColor = vec4(32.0 / 255.0, 64.0 / 255.0, 96.0 / 255.0, 1.0);\n}\n' >"$D/solid.frag"

weston_pid="" client_pid=""
trap 'kill $client_pid $weston_pid 2>/dev/null || true' EXIT

# The environment (VARS) and command line (COMMAND) of one case, in the
# frame-cost bench's words. No `env` in between: callgrind_control would
# not reach a run that an exec turned into another program.
case_command() {
  VARS=() COMMAND=("$BIN" present --all)
  case $1 in
    # stdbuf's own settings, as it would set them: its lines as they come.
    simple-egl) VARS=(LD_PRELOAD=/usr/libexec/coreutils/libstdbuf.so _STDBUF_O=L) COMMAND=(weston-simple-egl -f) ;;
    clear) VARS=(SCREENPLAY_BENCH_CONTINUOUS=1) && COMMAND+=(color 204060) ;;
    clear-egl) VARS=(SCREENPLAY_BENCH_CONTINUOUS=1 SCREENPLAY_SHM_PRESENT=0) && COMMAND+=(color 204060) ;;
    solid-shader) COMMAND+=("$D/solid.frag") ;;
    solid-shader-egl) VARS=(SCREENPLAY_SHM_PRESENT=0) && COMMAND+=("$D/solid.frag") ;;
    clear-30fps) VARS=(SCREENPLAY_BENCH_CONTINUOUS=1) && COMMAND+=(color 204060 --fps 30) ;;
    text-30fps) VARS=(SCREENPLAY_BENCH_CONTINUOUS=1 "SCREENPLAY_BENCH_TEXT=Score 42") && COMMAND+=(color 204060 --fps 30) ;;
    *) echo "frame-instructions: unknown case '$1'" >&2 && exit 64 ;;
  esac
  [[ $1 == simple-egl ]] || COMMAND+=(--stats -)
}

# Frames a report line names: simple-egl's "N frames in 5 seconds", or the
# "presented" of screenplay's frames line.
frames_of() {
  if [[ $1 =~ ^([0-9]+)\ frames\ in ]]; then
    echo "${BASH_REMATCH[1]}"
  elif [[ $1 == *'"event":"frames"'* && $1 =~ \"presented\":([0-9]+) ]]; then
    echo "${BASH_REMATCH[1]}"
  fi
}

printf 'case\tframes\tinstructions\tinstructions per frame\n' >"$OUT/summary.tsv"
for name in "${CASES[@]}"; do
  case_command "$name"
  socket=frame-instructions-$name
  weston --backend=headless-backend.so --socket="$socket" --idle-time=0 --width=1280 --height=720 \
    >"$D/weston-$name.log" 2>&1 &
  weston_pid=$!
  for _ in $(seq 50); do [[ -S $XDG_RUNTIME_DIR/$socket ]] && break; sleep 0.1; done
  mkfifo "$D/$name.fifo"
  (
    export WAYLAND_DISPLAY=$socket
    ((${#VARS[@]} == 0)) || export "${VARS[@]}"
    exec valgrind --tool=callgrind --callgrind-out-file="$OUT/$name.out" "${COMMAND[@]}"
  ) >"$D/$name.fifo" 2>"$OUT/$name.log" &
  client_pid=$!
  seen=0 frames=0
  while IFS= read -r line; do
    n=$(frames_of "$line")
    [[ -n $n ]] || continue
    seen=$((seen + 1))
    if ((seen == WARMUP)); then
      callgrind_control -z "$client_pid" >/dev/null 2>&1
    elif ((seen > WARMUP)); then
      frames=$((frames + n))
      if ((seen == WARMUP + REPORTS)); then
        callgrind_control --dump="$name" "$client_pid" >/dev/null 2>&1
        break
      fi
    fi
  done <"$D/$name.fifo"
  kill "$client_pid" "$weston_pid" 2>/dev/null || true
  wait "$client_pid" "$weston_pid" 2>/dev/null || true
  client_pid="" weston_pid=""
  # The requested dump (.1) holds the counts since the zero; the one at exit is left.
  dump=$OUT/$name.out.1
  [[ -f $dump ]] || { echo "frame-instructions: $name: no dump; see $OUT/$name.log" >&2; exit 1; }
  total=$(awk '/^summary:/ { print $2 }' "$dump")
  ((frames > 0)) || { echo "frame-instructions: $name presented no frame; see $OUT/$name.log" >&2; exit 1; }
  printf '%s\t%d\t%d\t%d\n' "$name" "$frames" "$total" $((total / frames)) | tee -a "$OUT/summary.tsv"
done
