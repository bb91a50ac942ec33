# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What fetch-kernel.sh and fetch-qemu.sh share: a private apt state for one
# Debian SUITE in the cache directory, ${NUMASTATCTL_VM_CACHE:-
# ${XDG_CACHE_HOME:-/var/cache}/numastatctl-vm}.  The machine's apt sources
# and state are left alone: the sources list (the Debian mirror this
# machine already uses, with SUITE), lists, archives and an empty status
# live in CACHE/apt-SUITE.  Nothing is installed: packages are downloaded
# and unpacked by the caller.  The caller defines die().

CACHE=${NUMASTATCTL_VM_CACHE:-${XDG_CACHE_HOME:-/var/cache}/numastatctl-vm}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# vm_apt SUITE: sets APT (the state directory) and APT_OPTS (apt-get and
# apt-cache options that use it), and updates its lists.
vm_apt() {
	local mirror
	APT=$CACHE/apt-$1
	[ -r "$KEYRING" ] || die "$KEYRING: missing (package debian-archive-keyring)"
	# The Debian mirror of this machine: where its bookworm main comes from.
	mirror=$(apt-cache policy 2>/dev/null |
		awk '$3 ~ /^(bookworm|trixie|sid|unstable)(-updates)?\/main$/ { print $2; exit }')
	[ -n "$mirror" ] || die "no Debian mirror in this machine's apt sources"
	mkdir -p "$APT/lists/partial" "$APT/archives/partial"
	echo "deb [signed-by=$KEYRING] $mirror $1 main" >"$APT/sources.list"
	: >"$APT/status"
	APT_OPTS=(-o "Dir::Etc::SourceList=$APT/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		-o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT" -o "Dir::State::status=$APT/status"
		-o Acquire::Languages=none -o APT::Sandbox::User=root -q)
	apt-get "${APT_OPTS[@]}" update >"$APT/update.log" 2>&1 ||
		die "apt-get update failed: $(tail -n 1 "$APT/update.log")"
}

# vm_apt_dep PACKAGE REGEX: the first package PACKAGE depends on whose
# name matches REGEX.
vm_apt_dep() {
	apt-cache "${APT_OPTS[@]}" depends "$1" 2>/dev/null |
		awk -v re="$2" '$1 == "Depends:" && $2 ~ re { print $2 }' | head -n 1
}

# vm_apt_download DIR PACKAGE...: the packages' .deb files into DIR.
vm_apt_download() {
	local dir=$1
	shift
	(cd "$dir" && apt-get "${APT_OPTS[@]}" download "$@" >download.log 2>&1) ||
		die "apt-get download $* failed: $(tail -n 1 "$dir/download.log")"
}

# vm_fresh FILE: FILE exists, not empty, and was fetched less than a week ago.
vm_fresh() {
	[ -s "$1" ] && [ -n "$(find "$1" -mtime -7)" ]
}
