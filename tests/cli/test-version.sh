#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One version: meson.build's, which `--version` prints; NEWS's newest entry
# and debian/changelog's newest entry name the same.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

version=$(sed -n "s/^  version: '\([^']*\)',\$/\1/p" "$SOURCE_ROOT/meson.build")
check "meson.build has a version" test -n "$version"

run_raw --version
expect_rc 0 "--version exits 0"
expect_out "numastatctl $version" "--version prints meson.build's version"

OUT=$(grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+ \([0-9]{4}-[0-9]{2}-[0-9]{2}\)$' "$SOURCE_ROOT/NEWS" | cut -d' ' -f1)
expect_out "$version" "NEWS's newest entry is meson.build's version"

OUT=$(sed -n '1s/^numastatctl (\([^)]*\)) .*/\1/p' "$SOURCE_ROOT/debian/changelog")
expect_out "$version" "debian/changelog's newest entry is meson.build's version (a native package: no Debian revision)"

# The dates: the changelog's entry is of NEWS's day.
news_date=$(grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+ \(' "$SOURCE_ROOT/NEWS" | sed 's/.*(\(.*\))/\1/')
OUT=$(date -u -d "$(sed -n '/^ -- /{s/^ -- .*>  //p;q}' "$SOURCE_ROOT/debian/changelog")" +%Y-%m-%d)
expect_out "$news_date" "debian/changelog's newest entry is dated as NEWS's"

done_testing
