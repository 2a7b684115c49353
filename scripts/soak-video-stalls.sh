#!/usr/bin/env bash
# A looping video on headless weston whose compositor stops for STALL seconds
# (SIGSTOP, then SIGCONT) once a minute, for MINUTES (default 10). A display
# stall makes the decoder keep a few more pictures: the memory soak saw that
# as a one-time step of 300 to 700 KiB. This shows whether the step repeats
# with every stall (a leak a box would feel after months) or is paid once.
# Writes OUT/rss.tsv (seconds, VmRSS KiB, "stall" where one began) and prints
# each minute's least, median and most RSS. Not in CI (ten minutes); a
# manual check, as scripts/soak-overrides.sh is.
#   scripts/soak-video-stalls.sh [BIN] [MINUTES] [OUT] [STALL]
set -euo pipefail
BIN=${1:-.build/release/screenplay}
MINUTES=${2:-10}
OUT=${3:-soak-video-stalls}
STALL=${4:-3}
mkdir -p "$OUT"
BIN=$(realpath "$BIN")
OUT=$(realpath "$OUT")
D=$(mktemp -d /tmp/screenplay-soak-stalls.XXXXXX)
export XDG_RUNTIME_DIR=$D/rt XDG_STATE_HOME=$D/state XDG_CACHE_HOME=$D/cache
mkdir -m 700 "$XDG_RUNTIME_DIR"
# The memory soak's clip: 640x360, 30 fps, 3 s, looping.
ffmpeg -v error -f lavfi -i testsrc2=s=640x360:r=30:d=3 -c:v libx264 -pix_fmt yuv420p "$D/clip.mp4"
weston --backend=headless-backend.so --socket=soak-stalls --idle-time=0 --width=1280 --height=720 >"$D/weston.log" 2>&1 &
weston_pid=$!
video_pid=""
# A stopped compositor left behind would hang whatever connects to it next.
trap 'kill -CONT $weston_pid 2>/dev/null; kill $video_pid $weston_pid 2>/dev/null || true' EXIT
sleep 2
export WAYLAND_DISPLAY=soak-stalls
# weston's one output is the main screen, so the video asks for it by --all.
"$BIN" present "$D/clip.mp4" --all >"$D/video.log" 2>&1 &
video_pid=$!
sleep 5
echo "t_s rss_kib event" >"$OUT/rss.tsv"
start=$(date +%s)
stalls=0
while (($(date +%s) - start < MINUTES * 60)); do
  t=$(($(date +%s) - start))
  kill -0 $video_pid 2>/dev/null || { echo "soak-video-stalls: the video exited; see $D/video.log" >&2; exit 1; }
  event=-
  # The first stall after a minute of playing, so the first minute is the "before".
  if ((t >= 60 && t / 60 > stalls)); then
    stalls=$((stalls + 1))
    event=stall
  fi
  echo "$t $(awk '/VmRSS/{print $2}' /proc/$video_pid/status) $event" >>"$OUT/rss.tsv"
  if [[ $event == stall ]]; then
    kill -STOP $weston_pid
    sleep "$STALL"
    kill -CONT $weston_pid
  fi
  sleep 1
done
kill $video_pid
wait $video_pid || true
echo "$stalls stalls of $STALL s, one a minute from minute 1"
echo "minute least median most (KiB)"
awk 'NR > 1 { m = int($1 / 60); v[m] = v[m] " " $2 } END {
  for (k = 0; k in v; k++) {
    n = split(substr(v[k], 2), a, " ")
    for (i = 2; i <= n; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    printf "%d %d %d %d\n", k, a[1], a[int((n + 1) / 2)], a[n]
  } }' "$OUT/rss.tsv"
