#!/usr/bin/env bash
# Memory safety: builds everything with AddressSanitizer + LeakSanitizer and
# runs the hot-plug cycles (real output removal, CLI), the registration
# enable/disable cycle (in process), the event-flow cases (handlers that
# change registrations or shut down mid-batch, scripted compositor) under it;
# and the C library's pinball example (a minute, two real unplugs;
# the example is built with the toolchain's clang and ASan against the
# instrumented libscreenplay). Any invalid read or write, or a definite leak
# not suppressed in scripts/lsan.supp (for the C example: a leak with a frame
# in libscreenplay), fails the run.
# (valgrind 3.19 cannot read the DWARF 5 that Swift 6 emits, so ASan it is.)
# The C example's leaks outside libscreenplay are listed, not failures: with
# the fast unwinder (the slow one keeps Mesa from starting in minutes) their
# stacks end in xkbcommon, fontconfig or SDL. The 16 xkb states leaked in a
# run pair one to one with 16 xkb compose states, which only SDL makes
# (libscreenplay never calls xkb_compose). Under gdb, five wtype keys made
# five keymaps: libscreenplay made a state for each and unreffed the one
# before (4 of 5, the last at exit); SDL made five and unreffed none.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cleanup() { bash scripts/rig-cleanup.sh >/dev/null 2>&1 || true; }
trap cleanup EXIT
swift build --sanitize=address --scratch-path .build/asan --build-tests
# Mesa's driver is dlclosed at eglTerminate; LSan then cannot symbolize (or
# attribute) its allocations. Keeping it loaded makes its frames readable.
# Only for the processes under test: the compiler and linker must not get it.
driver=$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | head -1 || true)
tests=(${1:-ScreenplayCLIIntegrationTests.StormTests ScreenplayCLIIntegrationTests.HotplugTests ScreenplayIntegrationTests.RegistrationIntegrationTests ScreenplayTests.EventFlowTests ScreenplayCLIIntegrationTests.CLibrarySanitizerTests})
bundle=$(ls -d .build/asan/*/debug/ScreenplayPackageTests.xctest | head -1)
status=0
for t in "${tests[@]}"; do
  echo "== $t under AddressSanitizer"
  LD_PRELOAD="$driver" \
  LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
  ASAN_OPTIONS="detect_leaks=1:exitcode=86" \
    "$bundle" "$t" || status=$?
done
exit $status
