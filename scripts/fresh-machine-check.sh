#!/usr/bin/env bash
# Checks that scripts/setup.sh installs everything the tests need: builds the tests
# here, then runs them in a minimal Debian 12 (debootstrap --variant=minbase) that has
# nothing but what setup.sh installs, with this checkout and the Swift toolchain
# bind-mounted in. Needs root and network; about 5 minutes.
#   scripts/fresh-machine-check.sh [XCTEST-FILTER]
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine-check: needs root (debootstrap, chroot, mounts)" >&2; exit 1; }
repo=$PWD
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
# A git worktree keeps its history in the main checkout's .git: the tests read
# it (the commit --version names), so it is mounted too, read-only.
gitdir=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
case "$gitdir" in "" | "$repo"/*) gitdir="" ;; esac
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null

swift build --build-tests
bundle="$(swift build --show-bin-path)/ScreenplayPackageTests.xctest"
root=$(mktemp -d /tmp/screenplay-fresh.XXXXXX)
chmod 755 "$root"  # it becomes /, which the unprivileged rig user must traverse
cleanup() {
  for m in "$root/dev" "$root/proc" "$root$repo" "$root$toolchain" ${gitdir:+"$root$gitdir"}; do umount -R "$m" 2>/dev/null || true; done
  # Never delete through a mount that is still there (it would reach the checkout).
  if ! grep -q " $root" /proc/mounts; then rm -rf "$root"; else echo "fresh-machine-check: $root still has mounts; left in place" >&2; fi
}
trap cleanup EXIT

debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mkdir -p "$root$repo" "$root$toolchain"
mount --bind "$repo" "$root$repo"
mount --bind "$toolchain" "$root$toolchain"
if [ -n "$gitdir" ]; then
  mkdir -p "$root$gitdir"
  mount -o bind,ro "$gitdir" "$root$gitdir"
fi
cp /etc/resolv.conf "$root/etc/"
chmod 1777 "$root/tmp"
chroot "$root" /usr/bin/env -i HOME=/root PATH="$toolchain/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" bash -c "
  set -e
  apt-get update -qq
  cd '$repo' && scripts/setup.sh
  '$bundle' ${1:-}
"
echo "fresh-machine-check: the tests passed on a minimal Debian 12 with only setup.sh's packages"
