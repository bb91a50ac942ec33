#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# set under injected kernel faults (tests/fault): a refused k-th write rolls
# back the k-1 writes before it, newest first; a clamped value is reported
# and restored; a failed restore is not called a clean rollback; an
# unusable snapshot dir refuses numa_stat 1 -> 0 unless --no-snapshot.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/fault-lib.sh"


# run_fault RULES ARGS...: run with the preload; the write log is in $FLOG.
run_fault() {
	local rules=$1
	shift
	FLOG="$TMP/fault.log"
	rm -f "$FLOG"
	FAULT_INJECT="$rules" FAULT_LOG="$FLOG" LD_PRELOAD="$SHIM" run "$@"
	WRITES=$(sed "s|$ROOT||" "$FLOG" 2>/dev/null)
}

# A weight written while weighted interleave's auto is on: the plan turns
# auto off first (the kernel's side effect), so when a later weight fails
# the rollback restores the weights first and auto last.
W=mm.mempolicy.weighted_interleave
FIXTURE_N=$((FIXTURE_N + 1))
ROOT=$TMP/root.$FIXTURE_N
STATE="$ROOT.state"
"$FIXTURES/gen-wi.sh" "$ROOT" wi-hmat || { echo "Bail out! gen-wi.sh failed"; exit 1; }
run_fault "write:/node5:EINVAL" set "$W.node0=8" "$W.node5=2"
expect_rc 1 "weighted interleave: a failed weight write"
expect_out "$W.auto: true (rolled back)
$W.node0: 14 (rolled back)" "rolls back node0 and auto"
WI=/sys/kernel/mm/mempolicy/weighted_interleave
check "auto written off first, restored last" [ "$WRITES" = "write #1 $WI/auto: 0: ok
write #2 $WI/node0: 8: ok
write #3 $WI/node5: 2: injected failure
write #4 $WI/node0: 14: ok
write #5 $WI/auto: 1: ok" ]
expect_file "$ROOT/sys/kernel/mm/mempolicy/weighted_interleave/node0" 14 "node0 is 14 again"
expect_file "$ROOT/sys/kernel/mm/mempolicy/weighted_interleave/auto" 1 "auto is on again"

KNOBS=(vm.min_slab_ratio vm.min_unmapped_ratio vm.zone_reclaim_mode kernel.numa_balancing)
FILES=(vm/min_slab_ratio vm/min_unmapped_ratio vm/zone_reclaim_mode kernel/numa_balancing)
OLD=(37 13 0 1)
NEW=(41 21 6 2)
N=${#KNOBS[@]}

assignments() {
	local i
	for ((i = 0; i < N; i++)); do printf '%s=%s\n' "${KNOBS[i]}" "${NEW[i]}"; done
}

expect_fixture_unchanged() {
	local i bad=
	for ((i = 0; i < N; i++)); do
		[ "$(cat "$ROOT/proc/sys/${FILES[i]}")" = "${OLD[i]}" ] || bad+=" ${KNOBS[i]}"
	done
	if [ -z "$bad" ]; then ok "$1"; else not_ok "$1" "changed:$bad"; fi
}

# The write log for "write k fails": writes 1..k-1, the failed k-th, then the
# k-1 earlier knobs restored to their old values, newest first.
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

mapfile -t ARGS < <(assignments)
for ((k = 1; k <= N; k++)); do
	fixture sparse3
	run_fault "write:$k:EINVAL" set "${ARGS[@]}"
	expect_rc 1 "write $k of $N refused: exit 1"
	expect_fixture_unchanged "write $k of $N refused: every knob holds its old value"
	if [ "$WRITES" = "$(want_writes "$k")" ]; then
		ok "write $k of $N refused: the $((k - 1)) earlier writes were undone, newest first"
	else
		not_ok "write $k of $N refused: the $((k - 1)) earlier writes were undone, newest first" \
			"writes:" "$WRITES" "want:" "$(want_writes "$k")"
	fi
	expect_err "numastatctl: set: ${KNOBS[k - 1]}: cannot write /proc/sys/${FILES[k - 1]}: the kernel refused the value
numastatctl: set: nothing was changed: every value written before the failure was restored" \
		"write $k of $N refused: the failed knob is named, then the rollback"
	want=
	for ((i = 0; i < N; i++)); do
		if ((i < k - 1)); then
			want+="${KNOBS[i]}: ${OLD[i]} (rolled back)"$'\n'
		elif ((i > k - 1)); then
			want+="${KNOBS[i]}: ${OLD[i]} (not written)"$'\n'
		fi
	done
	expect_out "${want%$'\n'}" "write $k of $N refused: stdout says what was rolled back and what was never written"
	check "write $k of $N refused: the lock is free afterwards" flock -n "$STATE/lock" true
done

# Errnos other than EINVAL carry their own words.
for e in EPERM:"permission denied" EROFS:"read-only file system"; do
	fixture sparse3
	run_fault "write:2:${e%%:*}" set "${ARGS[@]}"
	expect_rc 1 "${e%%:*} on write 2: exit 1"
	expect_err_has "${KNOBS[1]}: cannot write /proc/sys/${FILES[1]}: ${e#*:}" "${e%%:*} is explained"
	expect_fixture_unchanged "${e%%:*} on write 2: every knob holds its old value"
done

# -J after a failure: the actions are in the JSON, the errors on stderr.
fixture sparse3
run_fault "write:2:EINVAL" -J set "${ARGS[@]:0:2}"
expect_rc 1 "-J with write 2 refused: exit 1"
check "-J with write 2 refused: JSON says rolled-back, then failed" \
	grep -qz '"vm.min_slab_ratio",[^}]*"action": "rolled-back".*"vm.min_unmapped_ratio",[^}]*"action": "failed"' "$TMP/out"
expect_fixture_unchanged "-J with write 2 refused: every knob holds its old value"

# The kernel clamps: the write succeeds, the read-back differs.
fixture sparse3
run_fault "clamp:/vm/min_unmapped_ratio:9" set "${ARGS[@]}"
expect_rc 1 "a clamped value fails the set"
expect_err "numastatctl: set: vm.min_unmapped_ratio: wrote 21, but the kernel kept 9
numastatctl: set: nothing was changed: every value written before the failure was restored" \
	"a clamped value is reported with what the kernel kept"
expect_fixture_unchanged "a clamped value is restored with the others"

fixture sparse3
run_fault "clamp:/vm/min_slab_ratio:30" set vm.min_slab_ratio=41
expect_rc 1 "a clamped single knob fails"
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 37 "a clamped single knob is restored"

# A short write (the kernel consumed part of the value) is a failure.
fixture sparse3
run_fault "short:/vm/min_slab_ratio:1" set vm.min_slab_ratio=41
expect_rc 1 "a short write fails"
expect_err_has "vm.min_slab_ratio: cannot write /proc/sys/vm/min_slab_ratio: the kernel accepted only part of the value" \
	"a short write is explained"

# A driver's own EIO is not mistaken for a short write.
fixture sparse3
run_fault "write:1:EIO" set vm.min_slab_ratio=41
expect_rc 1 "EIO from the kernel fails the set"
expect_err_has "vm.min_slab_ratio: cannot write /proc/sys/vm/min_slab_ratio: Input/output error" \
	"EIO is reported as an I/O error"

# The restore fails too: nobody may claim nothing changed.
fixture sparse3
run_fault "write:2:EINVAL;write:3:EPERM" set "${ARGS[@]}"
expect_rc 1 "a failed restore: exit 1"
expect_err "numastatctl: set: vm.min_slab_ratio: cannot restore /proc/sys/vm/min_slab_ratio (37): permission denied (needs root; kernel.* NUMA knobs need CAP_SYS_ADMIN)
numastatctl: set: vm.min_unmapped_ratio: cannot write /proc/sys/vm/min_unmapped_ratio: the kernel refused the value
numastatctl: set: not every value could be restored: see the knobs above" \
	"a failed restore names the knob left changed and does not claim a clean rollback"
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 41 "the knob that could not be restored keeps the new value"

# The state dir cannot hold the counter snapshot (a file stands in its way).
fixture sparse3
mkdir "$STATE" && : >"$STATE/snapshots"
run set vm.numa_stat=0
expect_rc 1 "numa_stat 1 -> 0 without a place for the snapshot: exit 1"
expect_err_has "vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters" "and says why"
expect_err_has "use --no-snapshot" "and how to go ahead anyway"
expect_one_err_line "in one line"
expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "numa_stat stays 1"
check "no revert point claims the refused change" test ! -e "$STATE/revert"

run set --no-snapshot vm.numa_stat=0
expect_rc 0 "--no-snapshot goes ahead"
expect_file "$ROOT/proc/sys/vm/numa_stat" 0 "numa_stat is now 0"
check "and revert can undo it" grep -q '^knob vm.numa_stat "1" "0" -$' "$STATE/revert"

# The kernel refuses numa_stat=0: the snapshot was saved, but nothing was
# zeroed, so it goes (stat --since would count from a reset that never was).
fixture sparse3
run_fault "write:/vm/numa_stat:EINVAL" set vm.numa_stat=0
expect_rc 1 "a refused numa_stat=0 fails"
check "the snapshot of a reset that did not happen is removed" \
	test -z "$(ls -A "$STATE/snapshots")"
check "and no claim is made that the counters were zeroed" bash -c "! grep -q zeroed '$TMP/err'"
run_fault "write:2:EINVAL" set vm.numa_stat=0 vm.min_slab_ratio=41
expect_err_has "vm.numa_stat 1 -> 0 zeroed the NUMA counters" "written and rolled back, numa_stat=0 did zero them: said so"
check "and its snapshot is kept" test "$(ls "$STATE/snapshots" | wc -l)" = 1

fixture sparse3
run set vm.numa_stat=0
expect_rc 0 "with a usable state dir, numa_stat 1 -> 0 goes ahead"
has_snapshot() { compgen -G "$STATE/snapshots/numastat-*.json" >/dev/null; }
check "and the counters were saved first" has_snapshot

done_testing
