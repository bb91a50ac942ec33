#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fetch-kernel.sh SUITE [MODULE...]: print the path of a cached vmlinuz of
# Debian's linux-image-amd64 in SUITE (bookworm-backports, sid, ...),
# fetching it first when the cache has none younger than a week.  The
# packages come through a private apt state in the cache directory
# (vm-apt.sh); the machine's apt sources and state are left alone.  The
# kernel image is kept, its version in SUITE/version beside it; with
# MODULEs, also those of them the kernel builds as modules and every
# module they depend on, uncompressed (busybox's insmod reads no .ko.xz),
# in SUITE/modules/NAME.ko, with SUITE/modules/load naming them in load
# order (dependencies first) and SUITE/modules/builtin those built in.
# Exit 1 with one line on stderr when it cannot be had (no mirror, no
# network, no such package or module).
set -eu

SUITE=${1:?usage: fetch-kernel.sh SUITE [MODULE...]}
shift
WANT=$(printf '%s\n' "$@" | tr - _ | sort -u | sed '/^$/d')

die() {
	echo "fetch-kernel: $SUITE: $*" >&2
	exit 1
}

# shellcheck source=tests/vm/vm-apt.sh
. "$(dirname "$0")/vm-apt.sh"
DIR=$CACHE/$SUITE
MODS=$DIR/modules

if vm_fresh "$DIR/vmlinuz" && { [ -z "$WANT" ] ||
	{ vm_fresh "$MODS/load" && [ "$(cat "$MODS/asked" 2>/dev/null)" = "$WANT" ]; }; }; then
	echo "$DIR/vmlinuz"
	exit 0
fi
vm_apt "$SUITE"

# linux-image-amd64 depends on the versioned image; since 7.x the image is
# in linux-binary-VERSION, the modules in linux-modules-VERSION and their
# modules.builtin in linux-base-VERSION, which the image package depends
# on (before, the image package held them all).
image=$(vm_apt_dep linux-image-amd64 '^linux-image-[0-9]')
[ -n "$image" ] || die "no linux-image-amd64 in $SUITE"
pkgs=("$image")
parts=(binary)
[ -z "$WANT" ] || parts+=(modules base)
for part in "${parts[@]}"; do
	dep=$(vm_apt_dep "$image" "^linux-$part-[0-9]")
	[ -z "$dep" ] || pkgs+=("$dep")
done

mkdir -p "$DIR"
work=$(mktemp -d "$CACHE/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
vm_apt_download "$work" "${pkgs[@]}"
mkdir "$work/root"
for deb in "$work"/*.deb; do
	if [ -n "$WANT" ]; then
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root" 2>/dev/null || true
	else
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root" --wildcards \
			'./boot/vmlinuz-*' './usr/lib/modules/*/vmlinuz' 2>/dev/null || true
	fi
done
vmlinuz=$(find "$work/root/boot" "$work/root/usr/lib/modules" -name 'vmlinuz*' -type f 2>/dev/null | head -n 1)
[ -n "$vmlinuz" ] || die "no vmlinuz in ${pkgs[*]}"
version=${image#linux-image-}

# builtin NAME: the kernel has module NAME built in (modules.builtin).
builtin() {
	grep -q "/\(${1}\|${1//_/-}\)\.ko\(\.[a-z]*\)\?$" "$TREE/modules.builtin" 2>/dev/null
}

# visit NAME: NAME's dependencies (modinfo's depends, the field depmod
# builds modules.dep from), depth first, then NAME itself, uncompressed
# into $MODS.new; each module once, at its first place.
visit() {
	local name=$1 file dep
	case " ${ORDER[*]} ${BUILTIN[*]} " in *" $name "*) return ;; esac
	if builtin "$name"; then
		BUILTIN+=("$name")
		return
	fi
	file=$(find "$TREE/kernel" -name "$name.ko*" -o -name "${name//_/-}.ko*" | head -n 1)
	[ -n "$file" ] || die "module $name: neither built in nor in ${pkgs[*]}"
	for dep in $(modinfo -F depends "$file" | tr , ' '); do
		visit "${dep//-/_}"
	done
	case "$file" in
	*.xz) xz -dc "$file" ;;
	*.zst) zstd -qdc "$file" ;;
	*.gz) gzip -dc "$file" ;;
	*) cat "$file" ;;
	esac >"$MODS.new/$name.ko" || die "$file: cannot uncompress"
	ORDER+=("$name")
}

# keep_modules: the named modules and their dependencies into $MODS.
keep_modules() {
	local name
	TREE=$(find "$work/root" -maxdepth 4 -type d -path "*/modules/$version" | head -n 1)
	[ -n "$TREE" ] || die "no modules of $version in ${pkgs[*]}"
	ORDER=() BUILTIN=()
	rm -rf "$MODS.new"
	mkdir -p "$MODS.new"
	for name in $WANT; do visit "$name"; done
	printf '%s\n' "${ORDER[@]}" >"$MODS.new/load"
	printf '%s\n' "${BUILTIN[@]}" >"$MODS.new/builtin"
	echo "$WANT" >"$MODS.new/asked"
	rm -rf "$MODS"
	mv "$MODS.new" "$MODS"
}
[ -z "$WANT" ] || keep_modules

mv "$vmlinuz" "$DIR/vmlinuz.new"
mv "$DIR/vmlinuz.new" "$DIR/vmlinuz"
# The package keeps its build date: the age counts from this fetch.
touch "$DIR/vmlinuz"
echo "$version" >"$DIR/version"
rm -rf "$APT/archives"
echo "$DIR/vmlinuz"
