#!/usr/bin/env bash
# Installs everything Screenplay builds, tests and demos with, on Debian 12
# with the Swift toolchain. Idempotent: installs only what is missing.
# cage 0.1.4 will not start without Xwayland, hence xwayland; mutter and
# KWin run in their own D-Bus session, hence dbus-daemon. libmpv-dev plays
# video (installing it upgrades Mesa to 22.3.6-1+deb12u2); ffmpeg makes the
# test clips; mpv is the video benchmark's peer. help2man, dpkg-dev and
# debootstrap: install.sh's man pages, package-deb.sh, deb-install-check.sh;
# python3-debian: InstallTests reads the .deb's copyright file as Debian does.
# git: the build records the commit for --version (scripts/build-commit.sh).
# systemd, man-db: systemd-analyze verify (it runs man for Documentation=) on
# contrib's units; procps: ps, which the kiosk test reads play's user with.
# systemd-container: systemd-nspawn, which boots a debootstrapped Debian with
# systemd as PID 1 for scripts/kiosk-boot-check.sh.
# linux-perf: the frame-cost benchmark's breakdown of where the time goes.
# faketime steps the clock under `play` (clock tests); logrotate rotates the
# proof-of-play file with contrib/logrotate/screenplay (rotation test).
# swayidle: the test that a panel never blanks while play or present shows it.
# libsdl2-dev: the SDL example game (Examples/SDLGame) and its test.
# libcurl4-openssl-dev, libssl-dev: `play URL` downloads with libcurl and
# checks SHA-256 with libcrypto; nginx-light: the real web server (ETag,
# Range) its tests start on 127.0.0.1 (never as a system service), with
# certificates from a CA of their own that openssl makes.
# libmosquitto-dev: `play --mqtt` (status, proof of play and commands over
# a broker); mosquitto, mosquitto-clients: the real broker its tests and the
# fleet benchmark start on 127.0.0.1 (never as a system service), and the
# mosquitto_sub/mosquitto_pub an operator would use.
# gcc: /usr/bin/cc for the small LD_PRELOAD libraries the rig builds (sway
# output names, the faketime timerfd pass-through).
# fonts-noto-color-emoji: play's text items shape emoji in colour (the rig
# test checks the face is drawn, not a box); DejaVu Sans (fonts-dejavu-core)
# covers the Arabic and Hebrew they test. tzdata: clock items' time zones.
# python3-jsonschema: PlaylistSchemaTests checks docs/playlist.schema.json
# against every example and test playlist with it.
# libwpewebkit-1.1-dev, libwpebackend-fdo-1.0-dev, libwpe-1.0-dev: web pages
# as items (WPE WebKit, its frames through wpebackend-fdo; module Web);
# cog: the same engine's own launcher, the web benchmark's peer.
# xvfb, x11-apps, xdotool: mutter nested in an X server (its only nested
# backend) gives two monitors whose pixels xwd reads and whose keyboard
# xdotool types on; headless mutter has neither a screenshot protocol nor a
# virtual keyboard.
set -euo pipefail
packages=(
  pkg-config libwayland-dev libwayland-bin wayland-protocols
  libegl-dev libgles-dev libegl1 libgles2 libgl1-mesa-dri libegl-mesa0
  libcairo2-dev libpango1.0-dev libgdk-pixbuf-2.0-dev webp-pixbuf-loader librsvg2-dev libxkbcommon-dev libpoppler-glib-dev
  libsystemd-dev
  sway swaybg swayidle weston cage xwayland grim wtype
  mutter kwin-wayland dbus-daemon dbus-session-bus-common
  xvfb x11-apps xdotool
  fonts-dejavu-core fonts-noto-color-emoji tzdata jq
  libmpv-dev mpv ffmpeg
  libsdl2-dev
  libwpewebkit-1.1-dev libwpebackend-fdo-1.0-dev libwpe-1.0-dev cog
  libcurl4-openssl-dev libssl-dev nginx-light openssl
  libmosquitto-dev mosquitto mosquitto-clients
  help2man dpkg-dev debootstrap python3-debian python3-jsonschema gcc
  git
  systemd man-db procps systemd-container
  linux-perf
  faketime logrotate
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: the Swift toolchain is not on PATH" >&2; exit 1; }
