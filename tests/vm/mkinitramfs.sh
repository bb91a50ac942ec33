#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mkinitramfs.sh BINARY INIT SRCDIR OUT [HELPER...]: an uncompressed newc
# initramfs that carries busybox, the built numastatctl, every library it
# links or dlopen()s (at the host's paths, so the guest's ld.so finds them
# where it looks), the numactl package's own numastat for comparison, the
# test's helper programs in /usr/bin, and INIT as /init.  With
# VM_MODULES set (a directory fetch-kernel.sh filled), its modules and
# their load order too, in /usr/lib/modules/vm: the guest's /init loads
# them with insmod in that order.
set -eu

BINARY=$1 INIT=$2 SRCDIR=$3 OUT=$4
shift 4
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/numastatctl-initramfs.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

# Debian 12 is /usr-merged: /lib, /lib64, /bin, /sbin are symlinks into
# /usr.  Build the same layout so every path ldd prints means the same file.
layout() {
	local d
	mkdir -p "$ROOT"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,proc,sys,dev,run,tmp}
	for d in bin sbin lib lib64; do
		if [ -L "/$d" ]; then
			ln -s "$(readlink "/$d")" "$ROOT/$d"
		else
			mkdir -p "$ROOT/$d"
		fi
	done
}

# put SRC DEST: copy a file (symlinks resolved) to DEST inside the root.
put() {
	mkdir -p "$(dirname "$ROOT$2")"
	cp -L "$1" "$ROOT$2"
}

# with_libs FILE: the shared objects FILE needs, and the loader.
with_libs() {
	local lib
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$ROOT$lib" ] || put "$lib" "$lib"
	done
}

# The sonames the sources dlopen(): read from the tree, so a library added
# later travels too.  The three named ones are the design's list.
dlopen_sonames() {
	{
		printf '%s\n' libsmartcols.so.1 libnuma.so.1 libmnl.so.0
		grep -ho '"lib[a-z0-9_+-]*\.so\.[0-9]*"' "$SRCDIR"/src/*/*.c | tr -d '"'
	} | sort -u
}

# soname_path SONAME: where the host's loader finds it.
soname_path() {
	"$LDCONFIG" -p | awk -v s="$1" '$1 == s && /x86-64/ { print $NF; exit }'
}

LDCONFIG=$(command -v ldconfig || echo /sbin/ldconfig)
layout
[ -x /bin/busybox ] || die "/bin/busybox: not installed (package busybox-static)"
ldd /bin/busybox >/dev/null 2>&1 && die "/bin/busybox: not statically linked (install busybox-static)"
put /bin/busybox /usr/bin/busybox

put "$BINARY" /usr/sbin/numastatctl
with_libs "$BINARY"
for so in $(dlopen_sonames); do
	path=$(soname_path "$so")
	[ -n "$path" ] || die "$so: not installed on the host"
	put "$path" "$path"
	with_libs "$path"
done

numastat=$(command -v numastat) || die "numastat: not installed (package numactl)"
put "$numastat" /usr/bin/numastat
with_libs "$numastat"

for helper in "$@"; do
	put "$helper" "/usr/bin/${helper##*/}"
	with_libs "$helper"
	chmod 0755 "$ROOT/usr/bin/${helper##*/}"
done

if [ -n "${VM_MODULES:-}" ]; then
	[ -s "$VM_MODULES/load" ] || die "$VM_MODULES/load: missing (fetch-kernel.sh SUITE MODULE...)"
	for f in "$VM_MODULES"/load "$VM_MODULES"/builtin "$VM_MODULES"/*.ko; do
		put "$f" "/usr/lib/modules/vm/${f##*/}"
	done
fi

put "$INIT" /init
chmod 0755 "$ROOT/init" "$ROOT/usr/bin/busybox" "$ROOT/usr/sbin/numastatctl"
# Owned by root whoever builds it: the guest refuses group/other-writable or
# foreign-owned config files, like sshd's StrictModes.
(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$OUT"
