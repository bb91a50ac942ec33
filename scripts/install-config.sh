#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# install-config.sh SOURCE DIR: install SOURCE as DIR/numastatctl.conf unless
# that file exists already.  The file holds the administrator's profiles: an
# upgrade or a second `meson install` must never overwrite them.
set -eu
src=$1
dir=${DESTDIR:-}$2
dest=$dir/numastatctl.conf

if [ -e "$dest" ] || [ -L "$dest" ]; then
	echo "Keeping existing $dest"
	exit 0
fi
if [ -n "${MESON_INSTALL_DRY_RUN:-}" ]; then
	echo "Would install $src to $dest"
	exit 0
fi
install -d -m 0755 "$dir"
# The file may be read by root only at boot, but holds nothing secret; it
# must not be group- or world-writable, or numastatctl refuses it.
install -m 0644 "$src" "$dest.tmp.$$"
mv -f "$dest.tmp.$$" "$dest"
echo "Installing $src to $dest"
