#!/usr/bin/env bash
# Installs the .deb from scripts/package-deb.sh into a fresh minimal Debian 12
# (debootstrap --variant=minbase) that has no Swift toolchain, and runs there:
# `screenplay --version`, `screenplay doctor` and a short `screenplay play`
# (a colour, a PNG and a shader) on a headless sway, checking the
# proof-of-play lines, a pixel of the output (grim) and a clean SIGTERM.
# It checks the copyright file and the kiosk's system unit as installed:
# disabled, `systemd-analyze verify` clean with Debian's cage, systemd and
# man-db installed beside it, and enabled for a user as docs/kiosk.md's
# "A signage box from scratch" does it.
# apt resolves the package's Depends: from Debian's mirror, so a missing one
# shows up here as a library that does not load.
#   scripts/deb-install-check.sh [PACKAGE.deb]
# Without an argument it builds the package first (package-deb.sh, minutes).
# Needs root and network. Here: about 1.5 min for debootstrap, 1-2 min for apt,
# seconds for the checks. Not part of scripts/test.sh: run it in CI as its own
# step (it does not touch other people's compositors: its sway runs in the chroot).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "deb-install-check: needs root (debootstrap, chroot, mounts)" >&2; exit 1; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
deb=${1:-}
if [ -z "$deb" ]; then deb=$(scripts/package-deb.sh); fi
[ -f "$deb" ] || { echo "deb-install-check: $deb does not exist" >&2; exit 66; }

root=$(mktemp -d /tmp/screenplay-debcheck.XXXXXX)
chmod 755 "$root"  # it becomes /, which the unprivileged compositor user must traverse
cleanup() {
  for m in "$root/dev" "$root/proc"; do umount -R "$m" 2>/dev/null || true; done
  if ! grep -q " $root" /proc/mounts; then rm -rf "$root"; else echo "deb-install-check: $root still has mounts; left in place" >&2; fi
}
trap cleanup EXIT

started=$(date +%s)
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
echo "deb-install-check: debootstrap took $(($(date +%s) - started)) s" >&2
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/"
chmod 1777 "$root/tmp"
cp "$deb" "$root/tmp/screenplay.deb"
cp contrib/debian/copyright "$root/tmp/copyright.expected"

# Test media, made here (the chroot has no tools for it): a 64x36 green PNG.
python3 - "$root/tmp/media" <<'EOF'
import os, struct, sys, zlib
folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\0" + b"\x00\xc0\x00" * 64 for _ in range(36))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 36, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
open(os.path.join(folder, "green.png"), "wb").write(png)
open(os.path.join(folder, "wave.frag"), "w").write(
    "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.5 + 0.5 * sin(iTime), 0.0, 1.0, 1.0); }\n")
open(os.path.join(folder, "signage.json"), "w").write(
    '{"playlists": {"s": [{"color": "ff0000"}, {"file": "green.png"}, {"file": "wave.frag"}]}, "default": "s"}\n')
EOF

started=$(date +%s)
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -euo pipefail -c '
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends /tmp/screenplay.deb >/dev/null
  # For the check only: a headless compositor and a screenshot tool; what a
  # kiosk adds (cage, xwayland) and what verifies its unit (systemd, man-db).
  apt-get install -y -qq --no-install-recommends sway grim cage xwayland systemd man-db >/dev/null
'
echo "deb-install-check: apt-get took $(($(date +%s) - started)) s" >&2

chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -euo pipefail -c '
  fail() { echo "deb-install-check: FAILED: $*" >&2; exit 1; }
  trap '"'"'echo "deb-install-check: FAILED: status $? at line $LINENO of the chroot script" >&2'"'"' ERR
  if command -v swift >/dev/null || ls /usr/lib/swift /opt/swift >/dev/null 2>&1; then fail "a Swift toolchain is present"; fi
  if ldd /usr/bin/screenplay | grep -E "not found|libswift|libFoundation"; then fail "libraries missing or Swift runtime linked dynamically"; fi
  echo "--- screenplay --version"
  line=$(screenplay --version) && echo "$line"
  case "$line" in "screenplay "*" (commit "*")") ;; *) fail "--version says \"$line\", not \"screenplay VERSION (commit HASH)\"" ;; esac
  version=$(echo "$line" | cut -d" " -f2)
  [ "$version" = "$(dpkg-query -W -f="\${Version}" screenplay)" ] || fail "--version says $version, the package another"
  man -w screenplay-play >/dev/null 2>&1 || [ -f /usr/share/man/man1/screenplay-play.1.gz ] || fail "no man page for play"
  cmp /usr/share/doc/screenplay/copyright /tmp/copyright.expected || fail "the copyright file is not contrib/debian/copyright"

  echo "--- the kiosk unit"
  kiosk=/usr/lib/systemd/system/screenplay-kiosk@.service
  [ -f "$kiosk" ] && [ -f /etc/pam.d/screenplay-kiosk ] && [ -f /usr/share/doc/screenplay/examples/kiosk.conf ] ||
    fail "the kiosk unit, its PAM service or the example settings are missing"
  grep -qx /etc/pam.d/screenplay-kiosk /var/lib/dpkg/info/screenplay.conffiles || fail "/etc/pam.d/screenplay-kiosk is no conffile"
  grep -qx /etc/logrotate.d/screenplay /var/lib/dpkg/info/screenplay.conffiles ||
    fail "/etc/logrotate.d/screenplay (proof-of-play rotation) is missing or no conffile"
  if find /etc/systemd -name "screenplay-kiosk@*" | grep .; then fail "installing enabled the kiosk"; fi
  useradd --create-home signage
  sed "s#^SCREENPLAY_PLAYLIST=.*#SCREENPLAY_PLAYLIST=/tmp/media/signage.json#" /usr/share/doc/screenplay/examples/kiosk.conf \
    >/etc/screenplay/kiosk-signage.conf
  # verify takes a unit file: the template as the instance docs/kiosk.md enables.
  cp "$kiosk" /tmp/screenplay-kiosk@signage.service
  systemd-analyze verify /tmp/screenplay-kiosk@signage.service 2>/tmp/verify.log || { cat /tmp/verify.log; fail "systemd-analyze verify failed"; }
  [ ! -s /tmp/verify.log ] || { cat /tmp/verify.log; fail "systemd-analyze verify warned"; }
  systemctl enable screenplay-kiosk@signage.service 2>&1
  [ "$(systemctl is-enabled screenplay-kiosk@signage.service)" = enabled ] || fail "systemctl enable did not enable the kiosk"
  [ -L /etc/systemd/system/graphical.target.wants/screenplay-kiosk@signage.service ] || fail "the kiosk is not wanted by graphical.target"

  # sway refuses root: an unprivileged user runs it, as the test rig does.
  useradd --create-home rig
  run=/tmp/rig-runtime && mkdir -m 0700 "$run" && chown rig: "$run"
  printf "xwayland disable\noutput HEADLESS-1 mode 640x480 position 0 0\noutput HEADLESS-2 mode 640x480 position 640 0\n" >/tmp/sway.conf
  # setpriv execs (runuser would fork), so $! is sway itself: it is stopped by that id.
  setpriv --reuid=rig --regid=rig --init-groups env XDG_RUNTIME_DIR="$run" WLR_BACKENDS=headless WLR_HEADLESS_OUTPUTS=2 \
    WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 sway -c /tmp/sway.conf >/tmp/sway.log 2>&1 &
  sway_pid=$!
  trap "kill $sway_pid 2>/dev/null || true" EXIT
  for _ in $(seq 100); do [ -S "$run/wayland-1" ] && break; sleep 0.1; done
  [ -S "$run/wayland-1" ] || { cat /tmp/sway.log; fail "sway did not start"; }
  export XDG_RUNTIME_DIR="$run" WAYLAND_DISPLAY=wayland-1 SCREENPLAY_BUILTIN=HEADLESS-1

  echo "--- screenplay doctor"
  screenplay doctor || fail "doctor found a problem (status $?)"

  echo "--- screenplay play (4 s)"
  screenplay play --duration 1 --stats /tmp/stats.jsonl /tmp/media/signage.json 2>/tmp/play.log &
  play=$!
  sleep 4
  grim -t ppm -o HEADLESS-2 /tmp/shot.ppm || fail "grim could not capture HEADLESS-2"
  kill -TERM "$play"
  status=0; wait "$play" || status=$?
  cat /tmp/play.log
  [ "$status" -eq 0 ] || fail "play exited $status on SIGTERM"
  for source in "#FF0000" /tmp/media/green.png /tmp/media/wave.frag; do
    # JSONSerialization writes / as \/.
    sed "s#\\\\/#/#g" /tmp/stats.jsonl >/tmp/stats.txt
    grep "\"event\":\"item\"" /tmp/stats.txt | grep "\"output\":\"HEADLESS-2\"" | grep -F "\"source\":\"$source\"" >/dev/null ||
      { cat /tmp/stats.jsonl; fail "no proof-of-play line for $source on HEADLESS-2"; }
  done
  # The middle pixel of the capture (PPM: three header lines, then RGB bytes)
  # is one of the three items, never black or the grey of nothing ready.
  # (No pipe that closes early here: under pipefail a writer killed by SIGPIPE would end the script.)
  header=$(head -n 3 /tmp/shot.ppm | wc -c)
  pixel=$(od -An -tu1 -j $((header + (240 * 640 + 320) * 3)) -N 3 /tmp/shot.ppm)
  pixel=$(echo $pixel)
  echo "middle pixel of HEADLESS-2: $pixel"
  set -- $pixel
  { [ "$1" -gt 200 ] && [ "$2" -lt 40 ] && [ "$3" -lt 40 ]; } || { [ "$2" -gt 150 ] && [ "$1" -lt 40 ]; } || [ "$3" -gt 200 ] ||
    fail "the output shows none of the items (middle pixel $pixel)"
  kill "$sway_pid" 2>/dev/null || true
  wait "$sway_pid" 2>/dev/null || true
'
echo "deb-install-check: $(basename "$deb") installs on a fresh Debian 12 without the Swift toolchain; --version, doctor and play work there; the kiosk unit verifies and enables"
