#!/usr/bin/env bash
# Installs screenplay from this checkout: the binary (built in release mode
# with the Swift runtime linked in, so the machine needs no toolchain), a man
# page per command generated from the help text by help2man, bash completion,
# the playlist file's JSON Schema (for editors) and the systemd user unit from contrib/; the C library
# (libscreenplay.so.0, also built with the Swift runtime linked in), its header and pkg-config file, and
# the C and Python examples; with --kiosk also the kiosk's system unit, disabled (enabling it is the
# operator's step).
#   scripts/install.sh [--prefix DIR] [--sysconfdir DIR] [--binary PATH] [--library PATH] [--kiosk]
#     --prefix DIR      where to install (default /usr/local): DIR/bin,
#                       DIR/share/man/man1, DIR/share/bash-completion/completions,
#                       DIR/share/screenplay, DIR/lib/systemd/user (and DIR/lib/systemd/system)
#     --sysconfdir DIR  for --kiosk: pam.d/, logrotate.d/ and screenplay/ go here (default /etc)
#     --binary PATH     install this already built binary instead of building
#     --library PATH    install this already built libScreenplayC.so as libscreenplay.so.0
#                       (DIR/lib, DIR/include/screenplay, DIR/lib/pkgconfig/screenplay.pc,
#                       DIR/share/doc/screenplay/examples) instead of building it
#     --kiosk           also screenplay-kiosk@.service (cage on tty7 as a user),
#                       its PAM service, DIR/share/doc/screenplay/examples/kiosk.conf,
#                       its network drop-in DIR/share/screenplay/kiosk-network.conf
#                       and web drop-in DIR/share/screenplay/kiosk-web.conf
#                       (not enabled) and the logrotate snippet for its proof-of-play files
# DESTDIR=STAGE stages the files under STAGE (as package-deb.sh does).
# Needs help2man (scripts/setup.sh installs it) for the man pages.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
sysconfdir=/etc
binary=""
library=""
kiosk=false
while (($#)); do
  case "$1" in
    --prefix) prefix=${2:?"install: --prefix needs a directory"}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --binary) binary=${2:?"install: --binary needs a path"}; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    --library) library=${2:?"install: --library needs a path"}; shift 2 ;;
    --library=*) library=${1#--library=}; shift ;;
    --sysconfdir) sysconfdir=${2:?"install: --sysconfdir needs a directory"}; shift 2 ;;
    --sysconfdir=*) sysconfdir=${1#--sysconfdir=}; shift ;;
    --kiosk) kiosk=true; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
case "$prefix" in /*) ;; *) echo "install: --prefix must be an absolute path, got '$prefix'" >&2; exit 64 ;; esac
case "$sysconfdir" in /*) ;; *) echo "install: --sysconfdir must be an absolute path, got '$sysconfdir'" >&2; exit 64 ;; esac
command -v help2man >/dev/null || { echo "install: help2man is missing (apt-get install help2man, or scripts/setup.sh)" >&2; exit 69; }

if [ -z "$binary" ]; then
  # The Swift runtime and Foundation linked in: about 74 MB, stripped below.
  swift build -c release --static-swift-stdlib --product screenplay >&2
  binary="$(swift build -c release --show-bin-path)/screenplay"
fi
[ -x "$binary" ] || { echo "install: $binary is not an executable" >&2; exit 66; }
if [ -z "$library" ]; then
  # The C library, with the Swift runtime linked in like the binary.
  swift build -c release --static-swift-stdlib --product ScreenplayC >&2
  library="$(swift build -c release --show-bin-path)/libScreenplayC.so"
fi
[ -f "$library" ] || { echo "install: $library (the C library, libScreenplayC.so) is missing" >&2; exit 66; }

root="${DESTDIR:-}$prefix"
bindir="$root/bin" mandir="$root/share/man/man1"
completions="$root/share/bash-completion/completions" units="$root/lib/systemd/user"
install -d "$bindir" "$mandir" "$completions"
install -m 0755 "$binary" "$bindir/screenplay"
strip --strip-unneeded "$bindir/screenplay"
# `--version` says "screenplay 0.1.0 (commit abc1234)"; the man pages carry the number.
version=$("$bindir/screenplay" --version | awk '{print $2}')
[ -n "$version" ] || { echo "install: $bindir/screenplay --version printed no version" >&2; exit 70; }

# Man pages from the help text, so they never drift from it. help2man runs a
# program with --help and --version: a wrapper turns `screenplay present`
# into one. The date comes from the last commit, for reproducible packages.
work=$(mktemp -d /tmp/screenplay-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
help2man --no-info --no-discard-stderr --version-string="$version" \
  --name="put an app's content on external Wayland outputs" --output="$work/screenplay.1" "$bindir/screenplay"
commands=$("$bindir/screenplay" --help | awk '/^SUBCOMMANDS:/ {on=1; next} on && NF == 0 {exit} on {print $1}')
[ -n "$commands" ] || { echo "install: found no subcommands in 'screenplay --help'" >&2; exit 70; }
for command in $commands; do
  wrapper="$work/screenplay-$command"
  printf '#!/bin/sh\nif [ "$1" = --version ]; then exec %q --version; fi\nexec %q %s "$@"\n' \
    "$bindir/screenplay" "$bindir/screenplay" "$command" >"$wrapper"
  chmod +x "$wrapper"
  summary=$("$bindir/screenplay" --help | awk -v c="$command" '$1 == c {$1 = ""; sub(/^ +/, ""); sub(/\.$/, ""); print; exit}')
  help2man --no-info --no-discard-stderr --version-string="$version" --name="$summary" \
    --output="$work/screenplay-$command.1" "$wrapper"
done
for page in "$work"/*.1; do
  # help2man names the program after the wrapper's path; the page names the command.
  sed -i "s#$work/##g" "$page"
  gzip -9n -c "$page" >"$mandir/$(basename "$page").gz"
  chmod 0644 "$mandir/$(basename "$page").gz"
done

install -m 0644 contrib/bash-completion/screenplay "$completions/screenplay"
# The playlist schema, for a playlist's "$schema" key (docs/signage.md: Checking a playlist).
install -D -m 0644 docs/playlist.schema.json "$root/share/screenplay/playlist.schema.json"

# The user unit of contrib/ (systemd notify and watchdog), pointed at the
# installed binary.
unit=contrib/screenplay-signage.service
install -d "$units"
sed -E "s#^ExecStart=([^ ]*/)?screenplay#ExecStart=$prefix/bin/screenplay#" "$unit" >"$units/$(basename "$unit")"
chmod 0644 "$units/$(basename "$unit")"
installed="user unit $(basename "$unit")"

# The kiosk: a system unit that runs cage on tty7 as a dedicated user with
# `screenplay play` inside, its PAM service and the settings file to copy.
# Disabled: it takes over a VT at boot, so enabling it is the operator's step.
if $kiosk; then
  kiosk_unit=contrib/screenplay-kiosk@.service
  system_units="$root/lib/systemd/system" examples="$root/share/doc/screenplay/examples"
  install -d "$system_units" "$examples" "${DESTDIR:-}$sysconfdir/pam.d" "${DESTDIR:-}$sysconfdir/screenplay" \
    "${DESTDIR:-}$sysconfdir/logrotate.d"
  sed -e "s#/usr/bin/screenplay #$prefix/bin/screenplay #g" -e "s#/etc/screenplay/#$sysconfdir/screenplay/#g" \
    -e "s#/usr/share/doc/screenplay/#$prefix/share/doc/screenplay/#g" \
    "$kiosk_unit" >"$system_units/$(basename "$kiosk_unit")"
  chmod 0644 "$system_units/$(basename "$kiosk_unit")"
  install -m 0644 contrib/screenplay-kiosk.pam "${DESTDIR:-}$sysconfdir/pam.d/screenplay-kiosk"
  install -m 0644 contrib/screenplay-kiosk.conf "$examples/kiosk.conf"
  # A URL playlist, --mqtt and web items need it; a kiosk links it into its
  # unit's drop-in folder (docs/kiosk.md).
  # Web items need the second: WebKit's sandbox makes namespaces and mounts.
  for dropin in network web; do
    sed -e "s#/usr/share/screenplay/#$prefix/share/screenplay/#g" "contrib/screenplay-kiosk-$dropin.conf" \
      >"$root/share/screenplay/kiosk-$dropin.conf"
    chmod 0644 "$root/share/screenplay/kiosk-$dropin.conf"
  done
  # Rotates the proof-of-play files where kiosk.conf puts them; without it
  # they grow for as long as the box runs.
  install -m 0644 contrib/logrotate/screenplay "${DESTDIR:-}$sysconfdir/logrotate.d/screenplay"
  installed="$installed, system unit $(basename "$kiosk_unit") (disabled; docs/kiosk.md: A signage box from scratch)"
fi

# The C library under its soname, the link name for the linker, the
# header and the pkg-config file (docs/c-library.md).
header=Sources/CScreenplay/include/screenplay/screenplay.h
libversion=$(awk '/#define SCREENPLAY_VERSION_(MAJOR|MINOR|PATCH)/ {v = v sep $3; sep = "."} END {print v}' "$header")
case "$libversion" in [0-9]*.[0-9]*.[0-9]*) ;; *) echo "install: no SCREENPLAY_VERSION_* in $header" >&2; exit 70 ;; esac
libdir="$root/lib"
install -d "$libdir/pkgconfig" "$root/include/screenplay"
install -m 0644 "$library" "$libdir/libscreenplay.so.0"
strip --strip-unneeded "$libdir/libscreenplay.so.0"
ln -sf libscreenplay.so.0 "$libdir/libscreenplay.so"
install -m 0644 "$header" "$root/include/screenplay/screenplay.h"
sed -e "s#@PREFIX@#$prefix#" -e "s#@VERSION@#$libversion#" contrib/screenplay.pc.in >"$libdir/pkgconfig/screenplay.pc"
chmod 0644 "$libdir/pkgconfig/screenplay.pc"
examples="$root/share/doc/screenplay/examples"
install -D -m 0644 Examples/CPinball/pinball.c "$examples/c-pinball/pinball.c"
install -m 0644 Examples/CPinball/backglass.svg "$examples/c-pinball/backglass.svg"
install -D -m 0644 Examples/PythonScoreboard/scoreboard.py "$examples/python-scoreboard/scoreboard.py"
installed="$installed, libscreenplay $libversion (lib, include/screenplay, pkgconfig)"

echo "install: screenplay $version in $root (bin, $(echo "$commands" | wc -w | tr -d ' ') command man pages + screenplay(1), bash completion, $installed)" >&2
