# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The package built from the tree, for the tests that build it
# (tests/cli/test-deb.sh) and install it (tests/boot/run.sh): the copy of
# the tree it is built from, and the build test-deb leaves for the boot
# test, which would otherwise build the same bytes a third time (test-deb
# shows two builds of one tree are byte-identical).

# source_tar: the tracked and the new, not ignored files, as a clean
# checkout has them (no build directory, no earlier package build), as a
# tar stream.
source_tar() {
	git -C "$SOURCE_ROOT" ls-files -z -co --exclude-standard |
		tar -C "$SOURCE_ROOT" -cf - --no-recursion --null --verbatim-files-from -T -
}

# copy_source DIR: those files in DIR.
copy_source() {
	mkdir -p "$1"
	source_tar | tar -xf - -C "$1"
}

# The build left for the boot test: in the build directory, under the
# hash of the tree's files (their contents, names and times), so that a
# tree changed since is built again.
DEB_CACHE=${BUILD_ROOT:+$BUILD_ROOT/tests/deb-cache}

# source_key: that hash.
source_key() {
	source_tar | sha256sum | cut -c1-16
}

# deb_cache_put DEB KEY: keep DEB, built from the tree whose source_key was
# KEY (taken before the copy: a tree changed during the build keeps
# nothing useful).
deb_cache_put() {
	[ -n "$DEB_CACHE" ] || return 0
	rm -rf "$DEB_CACHE" && mkdir -p "$DEB_CACHE" &&
		cp "$1" "$DEB_CACHE/" && echo "$2" >"$DEB_CACHE/key.new" &&
		mv "$DEB_CACHE/key.new" "$DEB_CACHE/key"
}

# deb_cache_get DIR: the kept .deb copied into DIR, if it was built from
# the tree as it is now; false if there is none.
deb_cache_get() {
	local deb
	[ -n "$DEB_CACHE" ] && [ -s "$DEB_CACHE/key" ] || return 1
	[ "$(<"$DEB_CACHE/key")" = "$(source_key)" ] || return 1
	deb=$(ls "$DEB_CACHE"/numastatctl_*.deb 2>/dev/null) && [ -f "$deb" ] && cp "$deb" "$1/"
}
