#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fetch-kernel.sh SUITE: print the path of a cached vmlinuz of Debian's
# linux-image-amd64 in SUITE (bookworm-backports, sid, ...), fetching it
# first when the cache has none younger than a week.  The machine's apt
# sources and state are left alone: a private sources list (the Debian
# mirror this machine already uses, with SUITE), lists, archives and
# status live in the cache directory, ${NUMASTATCTL_VM_CACHE:-
# ${XDG_CACHE_HOME:-/var/cache}/numastatctl-vm}.  Only the kernel image is
# kept (no modules: the guests boot a busybox initramfs); the version goes
# to SUITE/version beside it.  Exit 1 with one line on stderr when it
# cannot be had (no mirror, no network, no such package).
set -eu

SUITE=${1:?usage: fetch-kernel.sh SUITE}
CACHE=${NUMASTATCTL_VM_CACHE:-${XDG_CACHE_HOME:-/var/cache}/numastatctl-vm}
DIR=$CACHE/$SUITE
APT=$CACHE/apt-$SUITE
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

die() {
	echo "fetch-kernel: $SUITE: $*" >&2
	exit 1
}

if [ -s "$DIR/vmlinuz" ] && [ -n "$(find "$DIR/vmlinuz" -mtime -7)" ]; then
	echo "$DIR/vmlinuz"
	exit 0
fi
[ -r "$KEYRING" ] || die "$KEYRING: missing (package debian-archive-keyring)"
# The Debian mirror of this machine: where its bookworm main comes from.
MIRROR=$(apt-cache policy 2>/dev/null |
	awk '$3 ~ /^(bookworm|trixie|sid|unstable)(-updates)?\/main$/ { print $2; exit }')
[ -n "$MIRROR" ] || die "no Debian mirror in this machine's apt sources"

mkdir -p "$APT/lists/partial" "$APT/archives/partial" "$DIR"
echo "deb [signed-by=$KEYRING] $MIRROR $SUITE main" >"$APT/sources.list"
: >"$APT/status"
OPTS=(-o "Dir::Etc::SourceList=$APT/sources.list" -o Dir::Etc::SourceParts=/nonexistent
	-o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT" -o "Dir::State::status=$APT/status"
	-o Acquire::Languages=none -o APT::Sandbox::User=root -q)
apt-get "${OPTS[@]}" update >"$APT/update.log" 2>&1 || die "apt-get update failed: $(tail -n 1 "$APT/update.log")"

# linux-image-amd64 depends on the versioned image; since 7.x the image is
# in linux-binary-VERSION, which the image package depends on.
deps() {
	apt-cache "${OPTS[@]}" depends "$1" 2>/dev/null |
		awk -v re="$2" '$1 == "Depends:" && $2 ~ re { print $2 }' | head -n 1
}
image=$(deps linux-image-amd64 '^linux-image-[0-9]')
[ -n "$image" ] || die "no linux-image-amd64 in $SUITE"
pkgs=("$image")
binary=$(deps "$image" '^linux-binary-[0-9]')
[ -z "$binary" ] || pkgs+=("$binary")

work=$(mktemp -d "$CACHE/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get "${OPTS[@]}" download "${pkgs[@]}" >download.log 2>&1) ||
	die "apt-get download ${pkgs[*]} failed: $(tail -n 1 "$work/download.log")"
for deb in "$work"/*.deb; do
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards \
		'./boot/vmlinuz-*' './usr/lib/modules/*/vmlinuz' 2>/dev/null || true
done
vmlinuz=$(find "$work/boot" "$work/usr/lib/modules" -name 'vmlinuz*' -type f 2>/dev/null | head -n 1)
[ -n "$vmlinuz" ] || die "no vmlinuz in ${pkgs[*]}"
mv "$vmlinuz" "$DIR/vmlinuz.new"
mv "$DIR/vmlinuz.new" "$DIR/vmlinuz"
# The package keeps its build date: the age counts from this fetch.
touch "$DIR/vmlinuz"
echo "${image#linux-image-}" >"$DIR/version"
rm -rf "$APT/archives"
echo "$DIR/vmlinuz"
