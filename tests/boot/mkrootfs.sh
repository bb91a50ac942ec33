#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mkrootfs.sh CACHEDIR: print the path of a Debian 12 root file system
# tarball with systemd, a kernel and an initramfs, building it with
# mmdebstrap from this machine's apt sources when CACHEDIR does not hold one
# made from the same recipe yet.  Progress goes to standard error.
set -eu

CACHE=$1
# Seconds one mmdebstrap run may take: about 8 minutes on two idle CPUs.
MMDEBSTRAP_TIMEOUT=${MMDEBSTRAP_TIMEOUT:-1500}

die() {
	echo "mkrootfs: $*" >&2
	exit 1
}

# What the guest needs: systemd as PID 1 (systemd-sysv), udev to find the
# disk, procps for sysctl(8) and its procps.service, a kernel with its
# initramfs, the libraries numastatctl dlopen()s (libsmartcols1 and
# libnuma1, libmnl0; the ELF itself needs only libc), tuned, the daemon
# that starts after numastatctl.service and sets NUMA knobs too, and podman
# (with its OCI runtime crun and monitor conmon) for real containers, run
# from a directory since no registry is reachable.
PACKAGES=systemd,systemd-sysv,udev,procps,kmod,linux-image-amd64,initramfs-tools,libnuma1,libsmartcols1,libmnl0,tuned,podman,crun,conmon
# An initramfs with the few modules a virtio disk needs, not MODULES=most:
# the guest decompresses and the build compresses it under TCG on two CPUs.
# Written before the kernel package is installed, so its first
# update-initramfs already uses it.  ($1 is the root, for mmdebstrap.)
# shellcheck disable=SC2016
INITRAMFS_HOOK='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d" &&
printf "MODULES=list\n" >"$1/etc/initramfs-tools/conf.d/numastatctl-boot" &&
printf "%s\n" virtio_pci virtio_blk ext4 crc32c_generic >"$1/usr/share/initramfs-tools/modules.d/numastatctl-boot"'
DPKG_OPTS=(path-exclude=/usr/share/man/* path-exclude=/usr/share/doc/* path-exclude=/usr/share/locale/*)

# apt sources: the machine's own Debian 12 sources (deb822 or one-line).
sources() {
	local f
	for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
		if [ -s "$f" ] && grep -qE '^[[:space:]]*(deb |Types:)' "$f"; then
			echo "$f"
			return
		fi
	done
	die "no Debian apt sources in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
}

command -v mmdebstrap >/dev/null || die "mmdebstrap: not installed (package mmdebstrap)"
SOURCES=$(sources)
# The cache key: everything that decides what the tarball holds.
key=$({
	echo "bookworm minbase $PACKAGES"
	echo "$INITRAMFS_HOOK"
	echo "${DPKG_OPTS[*]}"
	cat "$SOURCES"
} | sha256sum | cut -c1-16)
TAR=$CACHE/rootfs-bookworm-$key.tar
if [ -s "$TAR" ]; then
	echo "$TAR"
	exit 0
fi

mkdir -p "$CACHE"
tmp=$(mktemp "$CACHE/.rootfs.XXXXXX.tar")
trap 'rm -f "$tmp"' EXIT
echo "mkrootfs: building $TAR with mmdebstrap (several minutes)" >&2
dpkgopts=()
for o in "${DPKG_OPTS[@]}"; do dpkgopts+=(--dpkgopt="$o"); done
# Bounded (a mirror that stops answering must not hold CI), and tried a
# second time: what fails here is mostly the network, and a build that
# fails twice is reported.
build() {
	timeout --kill-after=30 "$MMDEBSTRAP_TIMEOUT" mmdebstrap --variant=minbase \
		--include="$PACKAGES" --essential-hook="$INITRAMFS_HOOK" "${dpkgopts[@]}" \
		bookworm "$tmp" "$SOURCES" >&2
}
if ! build; then
	echo "mkrootfs: mmdebstrap failed, trying once more" >&2
	build || die "mmdebstrap failed twice (limit ${MMDEBSTRAP_TIMEOUT}s each)"
fi
mv "$tmp" "$TAR"
trap - EXIT
echo "$TAR"
