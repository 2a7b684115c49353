#!/usr/bin/env bash
# Boots the signage kiosk for real: a fresh minimal Debian 12 (debootstrap)
# with systemd as PID 1 in a container (systemd-nspawn), the .deb from
# scripts/package-deb.sh installed there as docs/kiosk.md's "A signage box from
# scratch" says (no Swift toolchain), and checks, under the shipped
# screenplay-kiosk@signage.service:
#   - it starts at boot: active (Type=notify: READY=1 from play), STATUS= in
#     `systemctl status`, its lines in the journal under the unit's name;
#   - the playlist on the output (`screenplay ctl screenshot`, a pixel read);
#   - `systemctl reload` takes a changed playlist;
#   - play killed (SIGKILL): restarted after RestartSec= and playing again;
#   - play frozen (SIGSTOP): the watchdog restarts the unit;
#   - a URL playlist from nginx outside the container: refused, with the log
#     line naming the setting, without the network drop-in; playing with it;
#     `systemd-analyze security` of both;
#   - a web item (a page from that nginx): skipped with the line naming the
#     web drop-in without it; painting with it;
#   - a newer .deb installed over the running kiosk: restarted once, the new
#     binary playing, cache, state, playlist and settings kept (the URL
#     playlist plays from the cache with nginx gone); over a stopped kiosk:
#     it stays stopped.
# What differs from a box, in a test-only drop-in
# (screenplay-kiosk@signage.service.d/headless.conf): the container has no
# VT and no DRM, so the unit's ConditionPathExists=/dev/tty7 and TTYPath=
# are cleared and cage runs on wlroots' headless backend (pixman); and
# watchdog.conf sets WatchdogSec=10 instead of 60 so that check takes
# seconds. Everything else is the installed unit.
#   scripts/kiosk-boot-check.sh [PACKAGE.deb [NEWER.deb]]
# Without PACKAGE.deb it builds one (package-deb.sh, minutes); without
# NEWER.deb it repackages PACKAGE.deb's binary with the version suffix +1.
# Needs root, network to Debian's mirror, systemd-nspawn (systemd-container)
# and nginx-light (scripts/setup.sh). Here: about 3 min for debootstrap, 1-2
# min for apt, 3 min for the checks. Not part of scripts/test.sh: a CI step
# of its own, like deb-install-check.sh. nspawn shares the host's network
# (so the container reaches nginx on 127.0.0.1); it gets CAP_BPF,
# CAP_NET_ADMIN and bpf(2), without which systemd inside cannot attach the
# cgroup filters of IPAddressDeny= and ignores it.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "kiosk-boot-check: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, systemd-nspawn)"
for tool in debootstrap systemd-nspawn nsenter nginx python3 dpkg-deb; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/setup.sh installs it)"
done
deb=${1:-}
newer=${2:-}
work=$(mktemp -d /tmp/screenplay-kioskboot.XXXXXX)
chmod 755 "$work"
if [ -z "$deb" ]; then deb=$(scripts/package-deb.sh --out "$work/deb"); fi
[ -f "$deb" ] || fail "$deb does not exist"
if [ -z "$newer" ]; then
  dpkg-deb -x "$deb" "$work/unpacked"
  newer=$(scripts/package-deb.sh --out "$work/deb-newer" --binary "$work/unpacked/usr/bin/screenplay" --version-suffix +1)
fi
old_version=$(dpkg-deb -f "$deb" Version) new_version=$(dpkg-deb -f "$newer" Version)
dpkg --compare-versions "$new_version" gt "$old_version" || fail "$newer ($new_version) is not newer than $deb ($old_version)"

root="$work/root"
nspawn_pid="" nginx_pid=""
cleanup() {
  if [ -n "$nspawn_pid" ] && kill -0 "$nspawn_pid" 2>/dev/null; then
    inside systemctl poweroff 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.5; done
    kill "$nspawn_pid" 2>/dev/null || true
  fi
  [ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null || true
  if ! grep -q " $work" /proc/mounts; then rm -rf "$work"; else say "$work still has mounts; left in place"; fi
}
trap cleanup EXIT

started=$(date +%s)
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; fail "debootstrap failed"; }
say "debootstrap took $(($(date +%s) - started)) s"
cp /etc/resolv.conf "$root/etc/"
# The container's /tmp is its own tmpfs: files for it go here.
check="$root/opt/kiosk-check"
mkdir -p "$check"
cp "$deb" "$check/screenplay.deb"
cp "$newer" "$check/screenplay-newer.deb"

init=""
boot() {
  systemd-nspawn -D "$root" --boot --register=no --keep-unit --console=pipe \
    --capability=CAP_BPF,CAP_NET_ADMIN --system-call-filter=bpf >>"$work/nspawn.log" 2>&1 </dev/null &
  nspawn_pid=$!
  local state=""
  for _ in $(seq 120); do
    init=$(pgrep -o -P "$nspawn_pid" || true)
    if [ -n "$init" ]; then
      state=$(inside systemctl is-system-running 2>/dev/null || true)
      case "$state" in running | degraded) break ;; esac
    fi
    sleep 0.5
  done
  case "$state" in running | degraded) ;; *) cat "$work/nspawn.log"; fail "the container did not boot (state '$state')" ;; esac
  say "booted: systemd is $state"
}
# A command in the container (its namespaces, PID 1 there), as root.
inside() {
  nsenter -t "$init" -m -u -i -n -p -r -w -- /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}
poweroff() {
  inside systemctl poweroff || true
  for _ in $(seq 60); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$nspawn_pid" 2>/dev/null; then fail "the container did not power off"; fi
  nspawn_pid=""
}

boot
started=$(date +%s)
# docs/kiosk.md step 1 (seatd gives cage its seat on a real box; unused headless).
inside bash -euc 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq
  apt-get install -y -qq --no-install-recommends /opt/kiosk-check/screenplay.deb cage xwayland seatd >/dev/null
  apt-get install -y -qq --no-install-recommends procps >/dev/null  # pgrep and kill, for the checks only' ||
  fail "apt-get install of the package, cage, xwayland and seatd failed"
say "apt-get took $(($(date +%s) - started)) s"
if inside sh -c 'command -v swift || ls -d /usr/lib/swift /opt/swift' 2>/dev/null; then fail "a Swift toolchain is present"; fi

unit=screenplay-kiosk@signage.service
# docs/kiosk.md steps 2-5, the media made here: a playlist of one colour, shown
# again every 2 s, so a reload shows within seconds.
inside bash -euc '
  useradd --create-home signage
  mkdir -p /srv/signage
  printf "%s\n" "{\"playlists\": {\"lobby\": [{\"color\": \"ff0000\", \"duration\": 2}]}, \"default\": \"lobby\"}" >/srv/signage/signage.json
  chmod -R a+rX /srv/signage
  cp /usr/share/doc/screenplay/examples/kiosk.conf /etc/screenplay/kiosk-signage.conf
  grep -qx "SCREENPLAY_PLAYLIST=/srv/signage/signage.json" /etc/screenplay/kiosk-signage.conf
  systemctl enable '"$unit"'
  systemctl set-default graphical.target
  # Test only: no VT and no DRM in a container (see the top of kiosk-boot-check.sh).
  mkdir -p /etc/systemd/system/'"$unit"'.d
  printf "%s\n" "[Unit]" "ConditionPathExists=" "[Service]" "TTYPath=" "StandardInput=null" "TTYReset=no" "TTYVHangup=no" \
    "TTYVTDisallocate=no" "Environment=WLR_BACKENDS=headless WLR_HEADLESS_OUTPUTS=1 WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1" \
    >/etc/systemd/system/'"$unit"'.d/headless.conf
  printf "%s\n" "[Service]" "WatchdogSec=10" >/etc/systemd/system/'"$unit"'.d/watchdog.conf
' || fail "docs/kiosk.md's steps 2-5 failed"
poweroff
say "--- reboot: the kiosk starts at boot"
boot

# The unit's state, one property.
prop() { inside systemctl show -P "$1" "$unit"; }
# Waits up to $1 s for the unit to be active with an invocation other than $2.
wait_active() {
  for _ in $(seq $(($1 * 4))); do
    if [ "$(prop ActiveState)" = active ] && [ "$(prop InvocationID)" != "${2:-}" ]; then return 0; fi
    sleep 0.25
  done
  inside systemctl status --no-pager "$unit" | sed -n '1,20p' || true
  fail "$unit is not active after $1 s"
}
play_pid() { inside pgrep -o -u signage -x screenplay; }
# The middle pixel of what play shows now, as "R G B" (screenplay ctl screenshot).
shot=0
# The unit's first journal line since SINCE (seconds) holding both strings,
# looked for TRIES times half a second apart; empty if none came.
journal_line() {
  local since=$1 tries=$2 first=$3 second=$4 found=""
  for _ in $(seq "$tries"); do
    found=$(inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | grep -F "$first" | grep -F "$second" | sed -n '1p' || true)
    [ -n "$found" ] && break
    sleep 0.5
  done
  printf '%s' "$found"
}
pixel() {
  shot=$((shot + 1))
  # As docs/kiosk.md does it: the kiosk's user, whose socket it is.
  inside runuser -u signage -- screenplay ctl screenshot --socket /run/screenplay-kiosk-signage/play.sock \
    "/home/signage/shot$shot.png" >/dev/null || fail "screenplay ctl screenshot failed"
  python3 - "$root/home/signage/shot$shot.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
assert depth == 8 and colour in (2, 6), f"PNG depth {depth} colour type {colour}"
bpp = 3 if colour == 2 else 4
raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
for y in range(height):
    kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if kind == 1: line[i] = (line[i] + a) & 255
        elif kind == 2: line[i] = (line[i] + b) & 255
        elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
middle = rows[height // 2][(width // 2) * bpp:(width // 2) * bpp + 3]
print(*middle)
EOF
}
# Waits up to $2 s for the middle pixel to be the colour $1 (r, g or b).
wait_colour() {
  local seen=""
  for _ in $(seq "$2"); do
    seen=$(pixel) || true
    set -- "$1" "$2" $seen
    case "$1" in
      r) [ "${3:-0}" -gt 200 ] && [ "${4:-255}" -lt 40 ] && [ "${5:-255}" -lt 40 ] && { echo "$seen"; return 0; } ;;
      g) [ "${4:-0}" -gt 200 ] && [ "${3:-255}" -lt 40 ] && [ "${5:-255}" -lt 40 ] && { echo "$seen"; return 0; } ;;
      b) [ "${5:-0}" -gt 200 ] && [ "${3:-255}" -lt 40 ] && [ "${4:-255}" -lt 40 ] && { echo "$seen"; return 0; } ;;
    esac
    sleep 1
  done
  echo "$seen"
  return 1
}

say "--- started at boot"
wait_active 30 ""
inside systemctl status --no-pager "$unit" | sed -n '1,12p'
[ "$(prop Type)" = notify ] || fail "the unit is not Type=notify"
status=$(prop StatusText)
[ -n "$status" ] || fail "no STATUS= from play"
say "active (Type=notify, so READY=1 arrived); STATUS=$status"
seen=$(wait_colour r 10) || fail "the output does not show the playlist's red (middle pixel $seen)"
say "the output shows the playlist: middle pixel $seen (ff0000)"

say "--- systemctl reload"
inside sh -c 'printf "%s\n" "{\"playlists\": {\"lobby\": [{\"color\": \"0000ff\", \"duration\": 2}]}, \"default\": \"lobby\"}" >/srv/signage/signage.json'
since=$(inside date +%s)
inside systemctl reload "$unit" || fail "systemctl reload failed"
seen=$(wait_colour b 10) || fail "after the reload the output does not show blue (middle pixel $seen)"
inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | grep -F "reloaded /srv/signage/signage.json (screenplay ctl reload)" ||
  fail "no journal line of the reload by systemctl reload"
say "reload: middle pixel $seen (0000ff)"

say "--- kill -KILL play"
invocation=$(prop InvocationID) restart_sec=$(($(prop RestartUSec | sed 's/[^0-9].*//')))
victim=$(play_pid)
[ -n "$victim" ] || fail "no play process"
killed=$(date +%s.%N)
inside kill -KILL "$victim"
wait_active 60 "$invocation"
back=$(date +%s.%N)
seen=$(wait_colour b 10) || fail "after the restart the output does not show the playlist (middle pixel $seen)"
took=$(python3 -c "print(f'{$back - $killed:.1f}')")
inside journalctl -u "$unit" --since "@${killed%.*}" --no-pager -o short-monotonic | grep -E "Scheduled restart|Started" || true
python3 -c "import sys; sys.exit(0 if $restart_sec <= $back - $killed <= $restart_sec + 15 else 1)" ||
  fail "play killed at $killed, the unit active again after $took s (RestartSec=$restart_sec s)"
say "play (pid $victim) killed: active again after $took s (RestartSec=${restart_sec}s), new play pid $(play_pid), middle pixel $seen"

say "--- kill -STOP play (test-only WatchdogSec=$(($(prop WatchdogUSec | sed 's/[^0-9].*//'))))"
invocation=$(prop InvocationID)
victim=$(play_pid)
stopped=$(inside date +%s)
inside kill -STOP "$victim"
wait_active 60 "$invocation"
inside journalctl -u "$unit" --since "@$stopped" --no-pager -o cat | grep -i "watchdog" ||
  fail "the unit restarted, but not for its watchdog"
seen=$(wait_colour b 10) || fail "after the watchdog's restart the output does not show the playlist (middle pixel $seen)"
say "play (pid $victim) frozen: the watchdog restarted the unit; new play pid $(play_pid), middle pixel $seen"

say "--- the journal under the unit's name"
inside journalctl -u "$unit" --no-pager -o cat | grep -E "^screenplay: " | sed -n '1,5p'
[ "$(inside journalctl -u "$unit" --no-pager -o cat | grep -c '^screenplay: ')" -gt 0 ] || fail "no play lines under $unit"

say "--- the network: a URL playlist from nginx on the host's 127.0.0.1"
mkdir -p "$work/www"
printf '%s\n' '{"playlists": {"lobby": [{"color": "00ff00", "duration": 2}]}, "default": "lobby"}' >"$work/www/signage.json"
chmod -R a+rX "$work/www"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx.conf" <<EOF
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events {}
http {
  access_log $work/nginx-access.log;
  client_body_temp_path $work/nginx-body;
  server { listen 127.0.0.1:$port; root $work/www; }
}
EOF
nginx -c "$work/nginx.conf" &
nginx_pid=$!
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/signage.json"
# MQTT first, beside the local playlist: refused, with the setting named.
inside sed -i -e "s#^SCREENPLAY_OPTIONS=.*#& --mqtt mqtt://127.0.0.1:1883#" /etc/screenplay/kiosk-signage.conf
since=$(inside date +%s)
inside systemctl restart "$unit"
wait_active 30 ""
line=$(journal_line "$since" 40 "MQTT: cannot connect" "RestrictAddressFamilies=")
[ -n "$line" ] || { inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | tail; fail "no MQTT refusal line naming the setting"; }
echo "$line"
inside sed -i -e "s# --mqtt mqtt://127.0.0.1:1883##" /etc/screenplay/kiosk-signage.conf
inside sed -i "s#^SCREENPLAY_PLAYLIST=.*#SCREENPLAY_PLAYLIST=$url#" /etc/screenplay/kiosk-signage.conf
since=$(inside date +%s)
inside systemctl restart "$unit"
wait_active 30 ""
refusal=$(journal_line "$since" 30 "cannot fetch the playlist $url" "RestrictAddressFamilies=")
[ -n "$refusal" ] || { inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | tail; fail "no log line names the sandbox setting"; }
echo "$refusal"
seen=$(pixel)
set -- $seen
[ "$2" -lt 200 ] || fail "the offline unit shows the URL playlist's green ($seen): its sandbox let the fetch through"
say "without the network drop-in: refused, middle pixel $seen; the line above names the setting"
offline_score=$(inside systemd-analyze security "$unit" | grep -o "Overall exposure level for .*")

inside bash -euc 'mkdir -p /etc/systemd/system/'"$unit"'.d
  ln -s /usr/share/screenplay/kiosk-network.conf /etc/systemd/system/'"$unit"'.d/network.conf
  systemctl daemon-reload && systemctl restart '"$unit"
wait_active 30 ""
inside systemctl show -p RestrictAddressFamilies -p IPAddressDeny "$unit"
seen=$(wait_colour g 20) || { inside journalctl -u "$unit" -n 10 --no-pager -o cat; fail "with the network drop-in the URL playlist does not play (middle pixel $seen)"; }
grep -q "GET /signage.json" "$work/nginx-access.log" || fail "nginx served no request"
say "with the network drop-in: the URL playlist plays, middle pixel $seen (00ff00)"
network_score=$(inside systemd-analyze security "$unit" | grep -o "Overall exposure level for .*")
say "--- web items: a page from nginx painting blue"
printf '%s\n' '<!doctype html><html><body style="margin:0;background:#0000ff"></body></html>' >"$work/www/blue.html"
printf '%s\n' "{\"playlists\": {\"lobby\": [{\"web\": \"http://127.0.0.1:$port/blue.html\", \"duration\": 3600}]}, \"default\": \"lobby\"}" >"$work/www/web.json"
chmod -R a+rX "$work/www"
inside sed -i "s#^SCREENPLAY_PLAYLIST=.*#SCREENPLAY_PLAYLIST=http://127.0.0.1:$port/web.json#" /etc/screenplay/kiosk-signage.conf
since=$(inside date +%s)
inside systemctl restart "$unit"
# Without the web drop-in WebKit's sandbox cannot start: the item is skipped
# with a line naming the fix, and the unit starts (the placeholder shows).
wait_active 30 ""
line=$(journal_line "$since" 40 "WebKit's sandbox cannot start" "kiosk-web.conf")
[ -n "$line" ] || { inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | tail; fail "no line says WebKit's sandbox cannot start and names the web drop-in"; }
echo "$line"
seen=$(pixel)
set -- $seen
[ "$3" -lt 200 ] || fail "without the web drop-in the page shows ($seen)"
say "without the web drop-in: the web item skipped, middle pixel $seen; the line above names the fix"
inside bash -euc 'ln -s /usr/share/screenplay/kiosk-web.conf /etc/systemd/system/'"$unit"'.d/web.conf
  systemctl daemon-reload && systemctl restart '"$unit"
wait_active 30 ""
inside systemctl show -p RestrictNamespaces -p SystemCallFilter "$unit" | cut -c1-200
seen=$(wait_colour b 40) || { inside journalctl -u "$unit" -n 10 --no-pager -o cat; fail "with the web drop-in the page does not paint (middle pixel $seen)"; }
grep -q "GET /blue.html" "$work/nginx-access.log" || fail "nginx served no page"
say "with the network and web drop-ins: the page from nginx paints, middle pixel $seen (0000ff)"
web_score=$(inside systemd-analyze security "$unit" | grep -o "Overall exposure level for .*")
# Back to the URL playlist, for the upgrade below.
inside sed -i "s#^SCREENPLAY_PLAYLIST=.*#SCREENPLAY_PLAYLIST=$url#" /etc/screenplay/kiosk-signage.conf
inside systemctl restart "$unit"
wait_active 30 ""
seen=$(wait_colour g 20) || fail "back on the URL playlist, it does not play (middle pixel $seen)"
say "systemd-analyze security: offline unit: $offline_score"
say "systemd-analyze security: with the network drop-in: $network_score"
say "systemd-analyze security: with the network and web drop-ins: $web_score"

say "--- upgrade in place: $old_version -> $new_version over the running kiosk"
# The URL playlist must now come from the cache: nginx goes.
kill "$nginx_pid"
wait "$nginx_pid" 2>/dev/null || true
nginx_pid=""
inside bash -c 'echo operator >/var/lib/screenplay-kiosk/signage/marker; echo operator >/var/cache/screenplay-kiosk/signage/marker
  chown signage: /var/lib/screenplay-kiosk/signage/marker /var/cache/screenplay-kiosk/signage/marker'
# Every file of the cache, state, playlist and settings, with its hash (taken with play stopped would be
# stricter; play only adds to these while it runs).
kept() { inside sh -c 'find /var/lib/screenplay-kiosk /var/cache/screenplay-kiosk /srv/signage /etc/screenplay /etc/systemd/system/'"$unit"'.d -type f -o -type l | sort | xargs sha256sum'; }
before=$(kept)
invocation=$(prop InvocationID) old_pid=$(play_pid)
since=$(inside date +%s)
inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /opt/kiosk-check/screenplay-newer.deb >/dev/null ||
  fail "installing the newer package failed"
[ "$(inside dpkg-query -W -f='${Version}' screenplay)" = "$new_version" ] || fail "the newer package is not installed"
wait_active 30 "$invocation"
sleep 3
starts=$(inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | grep -c "^Started " || true)
stops=$(inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | grep -c "^Stopping " || true)
[ "$starts" -eq 1 ] && [ "$stops" -eq 1 ] || fail "the upgrade stopped the kiosk $stops times and started it $starts times, not once"
new_pid=$(play_pid)
exe=$(inside readlink "/proc/$new_pid/exe")
[ "$exe" = /usr/bin/screenplay ] || fail "play runs $exe, not the installed /usr/bin/screenplay"
seen=$(wait_colour g 15) || fail "after the upgrade the URL playlist does not play from the cache (middle pixel $seen)"
after=$(kept)
echo "$before" | grep -E "marker|signage.json|kiosk-signage.conf|network.conf|web.conf|headless.conf" | sed 's/^/  before: /'
[ -z "$(comm -23 <(echo "$before" | sort) <(echo "$after" | sort))" ] ||
  { diff <(echo "$before") <(echo "$after") || true; fail "files of the cache, state, playlist or settings changed or went"; }
say "upgraded to $new_version: restarted once (play pid $old_pid -> $new_pid, running $exe), the URL playlist plays from the kept cache with nginx gone (middle pixel $seen); all $(echo "$before" | wc -l) files of cache, state, playlist and settings unchanged"

say "--- the same package again over a stopped kiosk"
inside systemctl stop "$unit"
stopped_as="$(prop ActiveState) (result $(prop Result), cage's exit status $(prop ExecMainStatus))"
since=$(inside date +%s)
inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall --no-install-recommends /opt/kiosk-check/screenplay-newer.deb >/dev/null ||
  fail "reinstalling the newer package failed"
sleep 2
case "$(prop ActiveState)" in inactive | failed) ;; *) fail "the reinstall started the stopped kiosk ($(prop ActiveState))" ;; esac
[ -z "$(play_pid || true)" ] || fail "play runs after the reinstall over a stopped kiosk"
[ "$(inside journalctl -u "$unit" --since "@$since" --no-pager -o cat | grep -c '^Start' || true)" -eq 0 ] || fail "the reinstall started the kiosk"
say "stopped: $stopped_as; after the reinstall still $(prop ActiveState), no play process, no start in the journal"

poweroff
say "the kiosk boots, plays, reloads, restarts, answers its watchdog, refuses or reaches the network as set, shows web items with the web drop-in, and upgrades in place under systemd as PID 1 ($old_version -> $new_version)"
