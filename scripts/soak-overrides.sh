#!/usr/bin/env bash
# A layout under emergency overrides for MINUTES (default 30): a photo, a
# text, a seconds clock and a ticker region on headless weston (1920x1080),
# with `ctl override --text` of a new message every minute for 20 s. Writes
# OUT/rss.tsv (seconds, VmRSS KiB, open fds of `play`, every 10 s) and
# prints the least and most RSS of the second minute and of the last, and
# the open fds seen: a leak in overrides (their text, their layers) shows as
# a per-minute minimum that climbs. Not in CI (half an hour); a manual
# check, as scripts/bench.sh --only soak is.
#   scripts/soak-overrides.sh [BIN] [MINUTES] [OUT]
set -euo pipefail
BIN=${1:-.build/release/screenplay}
MINUTES=${2:-30}
OUT=${3:-soak-overrides}
mkdir -p "$OUT"
BIN=$(realpath "$BIN")
OUT=$(realpath "$OUT")
D=$(mktemp -d /tmp/screenplay-soak-overrides.XXXXXX)
export XDG_RUNTIME_DIR=$D/rt XDG_STATE_HOME=$D/state XDG_CACHE_HOME=$D/cache
mkdir -m 700 "$XDG_RUNTIME_DIR"
ffmpeg -v error -f lavfi -i testsrc2=s=1440x950 -frames:v 1 "$D/photo.png"
cat >"$D/layout.json" <<JSON
{"layouts": {"l": {"background": "101010", "regions": [
 {"name": "photo", "x": 0, "y": 0, "width": "75%", "height": "88%", "items": [{"file": "$D/photo.png"}]},
 {"name": "text", "x": "75%", "y": 0, "width": "25%", "height": "30%", "items": [{"text": "Soup of the day", "size": 48}]},
 {"name": "clock", "x": "75%", "y": "30%", "width": "25%", "height": "58%", "items": [{"clock": "%H:%M:%S", "size": 80}]},
 {"name": "ticker", "x": 0, "y": "88%", "width": "100%", "height": "12%", "items": [{"ticker": "Screenplay soak · overrides every minute · ", "speed": 120, "size": 64}]}]}},
 "panels": [{"match": "*", "layout": "l"}]}
JSON
weston --backend=headless-backend.so --socket=soak-overrides --idle-time=0 --width=1920 --height=1080 >"$D/weston.log" 2>&1 &
weston_pid=$!
play_pid=""
trap 'kill $play_pid $weston_pid 2>/dev/null || true' EXIT
sleep 2
export WAYLAND_DISPLAY=soak-overrides
"$BIN" play "$D/layout.json" >"$D/play.log" 2>&1 &
play_pid=$!
sleep 5
echo "t_s rss_kib fds" >"$OUT/rss.tsv"
start=$(date +%s)
n=0
while (($(date +%s) - start < MINUTES * 60)); do
  t=$(($(date +%s) - start))
  kill -0 $play_pid 2>/dev/null || { echo "soak-overrides: play exited; see $D/play.log" >&2; exit 1; }
  echo "$t $(awk '/VmRSS/{print $2}' /proc/$play_pid/status) $(ls /proc/$play_pid/fd | wc -l)" >>"$OUT/rss.tsv"
  if ((t / 60 >= n)); then
    n=$((n + 1))
    "$BIN" ctl override --text "Override number $n at $(date +%T) — $RANDOM" --for 20s >>"$D/ctl.log"
  fi
  sleep 10
done
kill $play_pid
wait $play_pid || true
awk -v last=$(((MINUTES - 1) * 60)) 'NR > 1 && $1 >= 60 && $1 < 120 { if (!a || $2 < a) a = $2; if ($2 > b) b = $2 }
  NR > 1 && $1 >= last { if (!c || $2 < c) c = $2; if ($2 > d) d = $2 } NR > 1 { f[$3] = 1 }
  END { printf "second minute RSS %d-%d KiB, last minute %d-%d KiB; fds seen:", a, b, c, d; for (k in f) printf " %s", k; print "" }' "$OUT/rss.tsv"
