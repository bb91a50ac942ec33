#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# apply under injected kernel faults (tests/fault): for a profile of n knobs,
# a refused k-th write (k = 1..n) rolls back the k-1 writes before it,
# newest first; a clamped value is reported and restored; the state for
# revert is not left claiming a change that did not happen.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fault-lib.sh"
. "$(dirname "$0")/profile-lib.sh"

# In registry order, the order apply writes in.
KNOBS=(vm.zone_reclaim_mode vm.min_unmapped_ratio vm.min_slab_ratio kernel.numa_balancing)
FILES=(vm/zone_reclaim_mode vm/min_unmapped_ratio vm/min_slab_ratio kernel/numa_balancing)
OLD=(0 13 37 1)
NEW=(6 21 41 2)
N=${#KNOBS[@]}

run_fault() {
	local rules=$1
	shift
	FLOG="$TMP/fault.log"
	rm -f "$FLOG"
	FAULT_INJECT="$rules" FAULT_LOG="$FLOG" LD_PRELOAD="$SHIM" prun "$@"
	WRITES=$(sed "s|$ROOT||" "$FLOG" 2>/dev/null)
}
expect_fixture_unchanged() {
	local i bad=
	for ((i = 0; i < N; i++)); do
		[ "$(cat "$ROOT/proc/sys/${FILES[i]}")" = "${OLD[i]}" ] || bad+=" ${KNOBS[i]}"
	done
	if [ -z "$bad" ]; then ok "$1"; else not_ok "$1" "changed:$bad"; fi
}
want_writes() {
	local k=$1 i
	for ((i = 0; i < k - 1; i++)); do
		echo "write #$((i + 1)) /proc/sys/${FILES[i]}: ${NEW[i]}: ok"
	done
	echo "write #$k /proc/sys/${FILES[k - 1]}: ${NEW[k - 1]}: injected failure"
	for ((i = k - 2; i >= 0; i--)); do
		echo "write #$((2 * k - 1 - i)) /proc/sys/${FILES[i]}: ${OLD[i]}: ok"
	done
}

# The profile lists the knobs in reverse: apply still writes in registry order.
profile="[profile p]"
for ((i = N - 1; i >= 0; i--)); do profile+=$'\n'"${KNOBS[i]} = ${NEW[i]}"; done

for ((k = 1; k <= N; k++)); do
	fixture sparse3
	conf "$profile"
	run_fault "write:$k:EINVAL" apply p
	expect_rc 1 "apply, write $k of $N refused: exit 1"
	expect_fixture_unchanged "apply, write $k of $N refused: every knob holds its old value"
	if [ "$WRITES" = "$(want_writes "$k")" ]; then
		ok "apply, write $k of $N refused: the $((k - 1)) earlier writes were undone, newest first"
	else
		not_ok "apply, write $k of $N refused: the $((k - 1)) earlier writes were undone, newest first" \
			"writes:" "$WRITES" "want:" "$(want_writes "$k")"
	fi
	expect_err_has "${KNOBS[k - 1]}: cannot write /proc/sys/${FILES[k - 1]}: the kernel refused the value" \
		"apply, write $k of $N refused: names the knob"
	check "apply, write $k of $N refused: the lock is free" flock -n "$STATE/lock" true
	prun apply --check p
	expect_rc 3 "apply, write $k of $N refused: --check still sees the drift"
done

fixture sparse3
conf "$profile"
run_fault "write:2:EINVAL" -J apply p
expect_rc 1 "apply -J, write 2 refused: exit 1"
check "apply -J: JSON says rolled-back, then failed" \
	grep -qz '"vm.zone_reclaim_mode",[^}]*"action": "rolled-back".*"vm.min_unmapped_ratio",[^}]*"action": "failed"' "$TMP/out"

fixture sparse3
conf "$profile"
run_fault "clamp:/vm/min_slab_ratio:9" apply p
expect_rc 1 "apply with a clamped value: exit 1"
expect_err_has "vm.min_slab_ratio: wrote 41, but the kernel kept 9" "apply reports what the kernel kept"
expect_fixture_unchanged "apply with a clamped value: everything restored"

# After a rolled-back apply, revert has nothing of it to undo.
fixture sparse3
conf "$profile"
run_fault "write:3:EINVAL" apply p
run revert
expect_fixture_unchanged "revert after a rolled-back apply changes nothing"

done_testing
