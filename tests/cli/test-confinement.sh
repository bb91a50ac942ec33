#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --sysroot confinement: values come from the tree, never the host, and no
# symlink in a dump leads a read or a write outside it.
. "$(dirname "$0")/lib.sh"

fixture sparse3
host=$(cat /proc/sys/vm/min_slab_ratio 2>/dev/null || echo none)
run get -n vm.min_slab_ratio
expect_out 37 "the value comes from the sysroot (host has $host)"
check "the fixture value is one the host does not have" test "$host" != 37

outside="$TMP/outside"
echo 5 >"$outside"

fixture sparse3
rm "$ROOT/proc/sys/vm/min_slab_ratio"
ln -s "$outside" "$ROOT/proc/sys/vm/min_slab_ratio"
run get vm.min_slab_ratio
expect_rc 1 "an absolute symlink out of the root is not followed for reading"
expect_out_lacks 5 "the outside value is not shown"
run set vm.min_slab_ratio=9
expect_rc 1 "nor for writing"
expect_file "$outside" 5 "the file outside the root is untouched"

fixture sparse3
rm "$ROOT/proc/sys/vm/min_unmapped_ratio"
depth=$(echo "$ROOT" | tr -cd / | wc -c)
rel=$(printf '../%.0s' $(seq 1 $((depth + 3))))${outside#/}
ln -s "$rel" "$ROOT/proc/sys/vm/min_unmapped_ratio"
run set vm.min_unmapped_ratio=9
expect_rc 1 "a relative symlink climbing out of the root is clamped at the root"
expect_file "$outside" 5 "and the file outside stays untouched"

# A symlinked directory inside the dump resolves inside the root.
fixture sparse3
mkdir -p "$ROOT/real"
mv "$ROOT/proc/sys/vm" "$ROOT/real/vm"
ln -s /real/vm "$ROOT/proc/sys/vm"
run get -n vm.min_slab_ratio
expect_out 37 "an absolute symlink inside the dump resolves against the root"

done_testing
