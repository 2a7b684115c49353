#!/usr/bin/env bash
# Installs screenplay from this checkout: the binary (built in release mode
# with the Swift runtime linked in, so the machine needs no toolchain), a man
# page per command generated from the help text by help2man, bash completion,
# and the systemd user unit from contrib/ when there is one.
#   scripts/install.sh [--prefix DIR] [--binary PATH]
#     --prefix DIR   where to install (default /usr/local): DIR/bin,
#                    DIR/share/man/man1, DIR/share/bash-completion/completions,
#                    DIR/lib/systemd/user
#     --binary PATH  install this already built binary instead of building
# DESTDIR=STAGE stages the files under STAGE (as package-deb.sh does).
# Needs help2man (scripts/setup.sh installs it) for the man pages.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
binary=""
while (($#)); do
  case "$1" in
    --prefix) prefix=${2:?"install: --prefix needs a directory"}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --binary) binary=${2:?"install: --binary needs a path"}; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
case "$prefix" in /*) ;; *) echo "install: --prefix must be an absolute path, got '$prefix'" >&2; exit 64 ;; esac
command -v help2man >/dev/null || { echo "install: help2man is missing (apt-get install help2man, or scripts/setup.sh)" >&2; exit 69; }

if [ -z "$binary" ]; then
  # The Swift runtime and Foundation linked in: about 74 MB, stripped below.
  swift build -c release --static-swift-stdlib --product screenplay >&2
  binary="$(swift build -c release --show-bin-path)/screenplay"
fi
[ -x "$binary" ] || { echo "install: $binary is not an executable" >&2; exit 66; }

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

# The user unit of contrib/ (systemd notify and watchdog), if this checkout has
# one, pointed at the installed binary.
unit=$(ls contrib/*.service 2>/dev/null | head -n 1 || true)
if [ -n "$unit" ]; then
  install -d "$units"
  sed -E "s#^ExecStart=([^ ]*/)?screenplay#ExecStart=$prefix/bin/screenplay#" "$unit" >"$units/$(basename "$unit")"
  chmod 0644 "$units/$(basename "$unit")"
fi

echo "install: screenplay $version in $root (bin, $(echo "$commands" | wc -w | tr -d ' ') command man pages + screenplay(1), bash completion${unit:+, user unit $(basename "$unit")})" >&2
