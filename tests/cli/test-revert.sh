#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# revert keeps its promise: it restores exactly what the kernel held (even a
# value outside the registry's range), refuses a revert file that is not
# one of ours or belongs to another system, never undoes an older change
# than the last one, and a change that cannot leave its revert point (full
# disk, immutable or read-only state dir) is not made unless
# --no-revert-point says so, which then forgets the older revert point.
. "$(dirname "$0")/lib.sh"

VM=proc/sys/vm

# Values the kernel accepts beyond the registry: zone_reclaim_mode takes any
# int (only 1|2|4 mean something), stat_interval any jiffies count.
fixture sparse3
echo 8 >"$ROOT/$VM/zone_reclaim_mode"
echo 7200 >"$ROOT/$VM/stat_interval"
run set vm.zone_reclaim_mode=1 vm.stat_interval=3
expect_rc 0 "set replaces values outside the registry's range"
run revert
expect_rc 0 "revert restores them"
expect_out_has "vm.zone_reclaim_mode: 1 -> 8" "zone_reclaim_mode goes back to 8"
expect_file "$ROOT/$VM/zone_reclaim_mode" 8 "exactly as the kernel held it"
expect_file "$ROOT/$VM/stat_interval" 7200 "and stat_interval to 7200"

# A revert file that is not ours: one line naming it, nothing restored.
# crafted NAME TEXT: $STATE/revert holds TEXT after our header lines.
crafted() {
	mkdir -p "$STATE"
	printf "# numastatctl revert state: 'numastatctl revert' writes these back\n# values before 'set' at 2026-01-01T00:00:00Z\n# for --sysroot %s\n%b" \
		"$(realpath "$ROOT")" "$1" >"$STATE/revert"
	chmod 0600 "$STATE/revert"
}
fixture sparse3
for bad in 'vm.min_slab_ratio = 1\e[31m\n:a control character' \
	"vm.min_slab_ratio = $(head -c 300 /dev/zero | tr '\0' 1)\n:value too long" \
	'vm.min_slab_ratio = 1:no newline at the end' \
	'kernel.hostname = evil\n:unknown knob' \
	'vm.min_slab_ratio\n:expected' \
	'vm.min_slab_ratio = \n:no value'; do
	crafted "${bad%:*}"
	run revert
	expect_rc 1 "a revert file with ${bad##*:}: exit 1"
	expect_err_has "${bad##*:}" "names the problem (${bad##*:})"
	expect_err_has "nothing was restored" "and says nothing was restored (${bad##*:})"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "and restores nothing (${bad##*:})"
done

# Saved for one system, never written to another.
fixture sparse3
run set vm.min_slab_ratio=50
A=$ROOT
fixture sparse3
echo 50 >"$ROOT/$VM/min_slab_ratio"
run_raw -S "$ROOT" --state-dir "${A}.state" revert
expect_rc 1 "a revert point of another --sysroot is refused"
expect_err "numastatctl: revert: ${A}.state/revert: saved for --sysroot $(realpath "$A"), not for --sysroot $(realpath "$ROOT"): nothing was restored" \
	"naming both systems"
expect_file "$ROOT/$VM/min_slab_ratio" 50 "nothing was written to the other tree"
sed -i '/^# for /d' "${A}.state/revert"
run_raw -S "$A" --state-dir "${A}.state" revert
expect_rc 1 "a revert file that does not say which system it is for is refused"
expect_err_has "does not say which system it is for" "and says why"

# revert --no-snapshot: restoring numa_stat 1 -> 0 zeroes the counters too.
fixture sparse3
echo 0 >"$ROOT/$VM/numa_stat"
run set vm.numa_stat=1 vm.min_slab_ratio=50
: >"$STATE/snapshots"
run revert
expect_rc 1 "revert refuses numa_stat 1 -> 0 when the counters cannot be saved"
expect_err "numastatctl: revert: vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters: $STATE/snapshots: Not a directory (use --no-snapshot to go ahead without a snapshot)" \
	"in one line, with the way out"
expect_out "" "and prints no 'restoring' line before it refuses"
expect_file "$ROOT/$VM/numa_stat" 1 "numa_stat stays 1"
run revert --no-snapshot
expect_rc 0 "revert --no-snapshot goes ahead"
expect_file "$ROOT/$VM/numa_stat" 0 "numa_stat is back to 0"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "and min_slab_ratio to 37"

# A full disk: the revert point cannot be written, so nothing changes.
full_disk() {
	FULL="$TMP/full.$RANDOM"
	mkdir "$FULL" && mount -t tmpfs -o size=64k,mode=0700 none "$FULL" 2>/dev/null || return 1
	at_exit "umount '$FULL'"
}
if [ "$(id -u)" = 0 ] && full_disk; then
	fixture sparse3
	run --state-dir "$FULL/state" set vm.min_slab_ratio=50
	expect_rc 0 "a first change leaves its revert point"
	dd if=/dev/zero of="$FULL/fill" bs=4k >/dev/null 2>&1
	saved=$(cat "$FULL/state/revert")
	run --state-dir "$FULL/state" set vm.min_unmapped_ratio=5
	expect_rc 1 "full disk: a change without a revert point is refused"
	expect_err "numastatctl: set: cannot save the revert point in $FULL/state: No space left on device: nothing was changed (use --no-revert-point to go ahead without one)" \
		"full disk: one line, with the way out"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "full disk: nothing was changed"
	expect_file "$FULL/state/revert" "$saved" "full disk: the revert point of the first change is intact"
	run --state-dir "$FULL/state" set --no-revert-point vm.min_unmapped_ratio=5
	expect_rc 0 "--no-revert-point goes ahead"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 5 "and changes the value"
	expect_err "numastatctl: set: warning: no revert point was saved (--no-revert-point): 'numastatctl revert' cannot undo this change, nor the one before (its revert point was removed)" \
		"saying revert cannot undo it, nor the change before"
	run --state-dir "$FULL/state" revert
	expect_rc 1 "revert then has nothing to revert"
	expect_err_has "nothing to revert" "and says so"
	expect_file "$ROOT/$VM/min_slab_ratio" 50 "the older change is not undone behind the last one's back"
	check "no temporary file is left on the full disk" bash -c "! ls -A '$FULL/state' | grep -q '^\\.'"
	# Read-only: not even the lock can be taken.
	rm -f "$FULL/fill"
	mount -o remount,ro "$FULL" 2>/dev/null
	run --state-dir "$FULL/state" set vm.min_slab_ratio=44
	expect_rc 1 "a read-only state dir refuses the change"
	expect_err_has "$FULL/state/lock: Read-only file system" "naming the lock it cannot take"
	expect_file "$ROOT/$VM/min_slab_ratio" 50 "and changes nothing"
else
	ok "# SKIP needs root and a tmpfs mount for a full disk"
fi

# Room for the revert point but not for the snapshot: the change is refused
# and its revert point taken back, so revert cannot "undo" what never happened.
if [ "$(id -u)" = 0 ] && full_disk; then
	fixture sparse3
	mkdir -p "$FULL/state/snapshots"
	run --state-dir "$FULL/state" set vm.min_slab_ratio=50
	run --state-dir "$FULL/state" revert
	i=0
	while dd if=/dev/zero of="$FULL/fill.$i" bs=4k count=1 2>/dev/null; do i=$((i + 1)); done
	rm -f "$FULL/fill.$i" "$FULL/fill.0"
	run --state-dir "$FULL/state" set vm.numa_stat=0 vm.min_slab_ratio=50
	expect_rc 1 "no room for the snapshot: numa_stat 1 -> 0 is refused"
	expect_err_has "refusing 1 -> 0, which zeroes the NUMA counters: cannot write in $FULL/state/snapshots: No space left on device" \
		"no room for the snapshot: says so"
	expect_file "$ROOT/$VM/numa_stat" 1 "no room for the snapshot: numa_stat stays 1"
	check "and the revert point saved for it is taken back" test ! -e "$FULL/state/revert"
	check "no temporary file is left" bash -c "! ls -A '$FULL/state' '$FULL/state/snapshots' | grep -q '^\.'"
else
	ok "# SKIP needs root and a tmpfs mount for a full disk"
fi

# An immutable state dir (root is not exempt): nothing new can be written in it.
fixture sparse3
run set vm.min_slab_ratio=50
if ! have chattr e2fsprogs; then
	: # reported by have
elif chattr +i "$STATE" 2>/dev/null; then
	saved=$(cat "$STATE/revert")
	run set vm.min_unmapped_ratio=5
	expect_rc 1 "immutable: a change without a revert point is refused"
	expect_err_has "cannot save the revert point in $STATE: Operation not permitted" "immutable: says why"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "immutable: nothing was changed"
	run set --no-revert-point vm.min_unmapped_ratio=5
	expect_rc 1 "immutable: --no-revert-point is refused too, since the old revert point cannot be removed"
	expect_err "numastatctl: set: cannot remove the revert point of the last change ($STATE/revert): Operation not permitted: nothing was changed (use --no-revert-point to go ahead without one)" \
		"immutable: naming the revert point that would otherwise undo an older change"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "immutable: still nothing was changed"
	expect_file "$STATE/revert" "$saved" "immutable: the revert point is the first change's"
	chattr -i "$STATE"
	run revert
	expect_rc 0 "and revert undoes exactly the first change"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "min_slab_ratio is back"
else
	ok "# SKIP this file system has no immutable flag"
fi

# --no-revert-point with a working state dir: the old revert point goes.
fixture sparse3
run set vm.min_slab_ratio=50
run set --no-revert-point vm.min_unmapped_ratio=5
expect_rc 0 "--no-revert-point on a working state dir"
check "removes the revert point of the change before" test ! -e "$STATE/revert"
run revert
expect_rc 1 "so revert cannot undo an older change"
expect_file "$ROOT/$VM/min_slab_ratio" 50 "min_slab_ratio keeps the first change"
run set --no-revert-point vm.min_unmapped_ratio=5
expect_rc 0 "--no-revert-point with nothing to change"
check "writes nothing and says nothing" test -z "$ERR"

# A change rolled back after --no-revert-point removed the old revert
# point: nothing changed, so the old revert point is back.
fixture sparse3
run set vm.min_slab_ratio=50
saved=$(cat "$STATE/revert")
if ! have chattr e2fsprogs; then
	: # reported by have
elif chattr +i "$ROOT/$VM/zone_reclaim_mode" 2>/dev/null; then
	run set --no-revert-point vm.min_unmapped_ratio=5 vm.zone_reclaim_mode=1
	expect_rc 1 "a failed change with --no-revert-point is rolled back"
	expect_file "$STATE/revert" "$saved" "and the revert point of the change before is back"
	chattr -i "$ROOT/$VM/zone_reclaim_mode"
else
	ok "# SKIP this file system has no immutable flag"
fi

done_testing
