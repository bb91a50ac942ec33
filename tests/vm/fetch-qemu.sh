#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fetch-qemu.sh [SUITE]: print the path of a cached qemu-system-x86_64 of
# Debian's qemu-system-x86 in SUITE (default bookworm-backports: QEMU 10,
# whose cxl-type3 devices take volatile memory; Debian 12's 7.2 has only
# persistent ones), fetching it first when the cache has none younger than
# a week.  Nothing is installed: the packages come through the private apt
# state of vm-apt.sh and are unpacked into CACHE/qemu-SUITE/root, the
# machine's own qemu and apt state are left alone.  Run it with
# `-L CACHE/qemu-SUITE/firmware` (printed by `fetch-qemu.sh --firmware`):
# the firmware of the same suite (SeaBIOS, the option ROMs), found there
# before the machine's.  The binary must find every shared library on this
# machine (the host's own qemu-system-x86 brings them); exit 1 with one
# line on stderr naming the first missing one, or when the packages cannot
# be had.
set -eu

FIRMWARE_ONLY=
if [ "${1:-}" = --firmware ]; then
	FIRMWARE_ONLY=1
	shift
fi
SUITE=${1:-bookworm-backports}

die() {
	echo "fetch-qemu: $SUITE: $*" >&2
	exit 1
}

# shellcheck source=tests/vm/vm-apt.sh
. "$(dirname "$0")/vm-apt.sh"
DIR=$CACHE/qemu-$SUITE
BIN=$DIR/root/usr/bin/qemu-system-x86_64

# usable: the binary is there and every library it links resolves here.
usable() {
	local missing
	missing=$(ldd "$BIN" 2>/dev/null | awk '/not found/ { print $1; exit }')
	[ -z "$missing" ] || die "$BIN: $missing not found on this machine (install the host's qemu-system-x86)"
	"$BIN" --version >/dev/null 2>&1 || die "$BIN --version fails"
}

if ! vm_fresh "$DIR/version"; then
	vm_apt "$SUITE"
	# qemu-system-data: the option ROMs; seabios: the BIOS this QEMU wants
	# (qemu-system-x86 of bookworm-backports asks for a newer one than
	# Debian 12's).
	pkgs=(qemu-system-x86 qemu-system-common qemu-system-data seabios)
	mkdir -p "$CACHE"
	work=$(mktemp -d "$CACHE/fetch.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	vm_apt_download "$work" "${pkgs[@]}"
	mkdir "$work/root" "$work/firmware"
	for deb in "$work"/*.deb; do
		dpkg-deb -x "$deb" "$work/root" || die "$deb: cannot unpack"
	done
	# One directory for -L: QEMU's data files and SeaBIOS's images, as
	# Debian's own build finds them in /usr/share/qemu and /usr/share/seabios.
	for f in "$work"/root/usr/share/qemu/* "$work"/root/usr/share/seabios/*; do
		ln -sfn "../root/${f#"$work/root/"}" "$work/firmware/${f##*/}"
	done
	rm -rf "$DIR"
	mkdir -p "$DIR"
	mv "$work/root" "$work/firmware" "$DIR/"
	dpkg-deb -f "$work"/qemu-system-x86_*.deb Version >"$DIR/version"
	rm -rf "$APT/archives"
fi
usable
if [ -n "$FIRMWARE_ONLY" ]; then
	echo "$DIR/firmware"
else
	echo "$BIN"
fi
