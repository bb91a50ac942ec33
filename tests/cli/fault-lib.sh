# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# For the tests that run the binary with the fault-injection preload
# (tests/fault/fault.c): finds it, and skips the whole script when the
# preload cannot be loaded in front of this build (a sanitizer runtime that
# insists on coming first, and no way to relax that).

SHIM="${BUILD_ROOT:?run through meson test}/tests/fault/fault.so"
[ -f "$SHIM" ] || skip_all "the fault-injection preload was not built"
# gcc's ASan runtime checks that it is the first library loaded; the preload
# comes first, and calls on into ASan's write() interceptor, which is safe.
if ldd "$NUMASTATCTL" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fi
if ! LD_PRELOAD="$SHIM" FAULT_INJECT= "$NUMASTATCTL" --version >/dev/null 2>&1; then
	skip_all "the fault-injection preload cannot be loaded into this build of numastatctl"
fi
