#!/usr/bin/env bash
# Builds a Debian package of screenplay for this machine's architecture:
# the release binary with the Swift runtime linked in (--static-swift-stdlib,
# stripped), its man pages, bash completion, the systemd user unit and the
# kiosk's system unit (disabled: no maintainer script enables it) and its
# network drop-in, and the C library for apps in C, C++, Rust or Python
# (libscreenplay.so.0, with the Swift runtime linked in too, its header,
# screenplay.pc and the examples), as scripts/install.sh --prefix /usr --kiosk
# lays them out. One package: the library and its header are small beside the
# runtime both carry. Its postinst restarts the kiosks that run, once, on an
# upgrade (contrib/debian/postinst); its prerm stops them on removal. Depends:
# comes from dpkg-shlibdeps (the shared libraries the binary links), plus what
# is loaded at run time and no linker can see: Mesa's EGL and GL drivers
# (llvmpipe when there is no GPU), libmpv (opened when video first plays) and
# a font for text.
#   scripts/package-deb.sh [--out DIR] [--binary PATH] [--library PATH] [--version-suffix SUFFIX]
# Writes DIR/screenplay_VERSION_ARCH.deb (default DIR: .build/deb) and prints
# its path. VERSION is the binary's (`screenplay --version`) followed by
# SUFFIX, such as +1: a rebuild dpkg takes for newer (the upgrade check).
# Needs dpkg-dev and help2man (scripts/setup.sh installs both). The check
# that it installs and runs on a fresh Debian 12 without the Swift toolchain
# is scripts/deb-install-check.sh; that it boots, plays and upgrades in place
# under systemd, scripts/kiosk-boot-check.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/deb
binary=""
suffix=""
library=""
while (($#)); do
  case "$1" in
    --out) out=${2:?"package-deb: --out needs a directory"}; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --binary) binary=${2:?"package-deb: --binary needs a path"}; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    --library) library=${2:?"package-deb: --library needs a path"}; shift 2 ;;
    --library=*) library=${1#--library=}; shift ;;
    --version-suffix) suffix=${2?"package-deb: --version-suffix needs a suffix such as +1"}; shift 2 ;;
    --version-suffix=*) suffix=${1#--version-suffix=}; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package-deb: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
for tool in dpkg-shlibdeps dpkg-deb dpkg-gencontrol; do
  command -v "$tool" >/dev/null || { echo "package-deb: $tool is missing (apt-get install dpkg-dev, or scripts/setup.sh)" >&2; exit 69; }
done

work=$(mktemp -d /tmp/screenplay-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
stage="$work/root"
DESTDIR="$stage" scripts/install.sh --prefix /usr --kiosk ${binary:+--binary "$binary"} ${library:+--library "$library"}
version=$("$stage/usr/bin/screenplay" --version | awk '{print $2}')$suffix
case "$version" in *[!0-9A-Za-z.+~-]*) echo "package-deb: '$version' is no Debian version (suffix '$suffix')" >&2; exit 64 ;; esac
arch=$(dpkg --print-architecture)

# dpkg-shlibdeps and dpkg-gencontrol read a debian/control of a source
# package; this stub describes the one binary package.
mkdir -p "$work/debian" "$stage/DEBIAN" "$stage/usr/share/doc/screenplay"
cat >"$work/debian/control" <<EOF
Source: screenplay
Section: video
Priority: optional
Maintainer: Screenplay maintainers <screenplay@localhost>
Standards-Version: 4.6.2

Package: screenplay
Architecture: any
Depends: \${shlibs:Depends}, libegl-mesa0, libgl1-mesa-dri, libmpv2, fonts-dejavu-core
Recommends: webp-pixbuf-loader
Suggests: cage, xwayland
Description: put an app's content on the external displays of a Wayland desktop
 Screenplay presents content (test card, colours, GLSL shaders, images,
 PDFs with a presenter console, video through libmpv) on the external
 outputs of a wlroots, KDE or GNOME Wayland session, paced to each output's
 refresh, and plays signage playlists unattended (screenplay play).
 libscreenplay.so.0 (screenplay.h, pkg-config screenplay) lets apps in C,
 C++, Rust or Python put their own content on external screens.
 The Swift runtime is linked into the binary and the library.
EOF
cat >"$work/debian/changelog" <<EOF
screenplay ($version) unstable; urgency=medium

  * Built from $(git rev-parse --short HEAD 2>/dev/null || echo "a checkout").

 -- Screenplay maintainers <screenplay@localhost>  $(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
EOF
gzip -9n -c "$work/debian/changelog" >"$stage/usr/share/doc/screenplay/changelog.Debian.gz"
# The copyright file in Debian's machine-readable format (DEP-5); InstallTests
# parses it as Debian's tools do.
install -m 0644 contrib/debian/copyright "$stage/usr/share/doc/screenplay/copyright"
(
  cd "$work"
  dpkg-shlibdeps -Tdebian/substvars -e root/usr/bin/screenplay -e root/usr/lib/libscreenplay.so.0 2>"$work/shlibdeps.log" || { cat "$work/shlibdeps.log" >&2; exit 70; }
  dpkg-gencontrol -pscreenplay -Pdebian/stage -Tdebian/substvars -cdebian/control -ldebian/changelog \
    -fdebian/files -DInstalled-Size="$(du -sk --exclude=DEBIAN root | cut -f1)" -O >"$work/control"
)
cp "$work/control" "$stage/DEBIAN/control"
# Files under /etc are the administrator's once installed: dpkg keeps their edits.
(cd "$stage" && find etc -type f | sed 's#^#/#' | sort) >"$stage/DEBIAN/conffiles"
install -m 0755 contrib/debian/postinst contrib/debian/prerm "$stage/DEBIAN/"
mkdir -p "$out"
deb="$out/screenplay_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "package-deb: $(grep '^Depends:' "$stage/DEBIAN/control" | cut -c1-200)..." >&2
echo "$deb"
