#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Many set/apply/revert runs at once on one sysroot and one state dir: the
# lock serialises them, so the knobs end as exactly one run left them, never
# a mix.  The lock is the kernel's flock: a run killed with SIGKILL while it
# holds it (caught mid-write by the fault-injection preload) releases it,
# and revert undoes what the killed run had written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fault-lib.sh"
. "$(dirname "$0")/profile-lib.sh"

K=(vm/min_slab_ratio vm/min_unmapped_ratio vm/zone_reclaim_mode)
triple() { local f; for f in "${K[@]}"; do printf '%s ' "$(cat "$ROOT/proc/sys/$f")"; done; }

# wait_for FILE: until FILE exists (a bounded wait, not a timing assertion).
wait_for() {
	local i
	for ((i = 0; i < 3000; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.01
	done
	return 1
}

# The states a run may leave: the fixture's, each set's, each profile's.
CONF="$TMP/profiles.conf"
for i in 1 2 3 4; do
	printf '[profile p%s]\nvm.min_slab_ratio = %s\nvm.min_unmapped_ratio = %s\nvm.zone_reclaim_mode = %s\n' \
		"$i" $((20 + i)) $((50 + i)) $((i % 4 + 4))
done >"$CONF"
trust "$CONF"
VALID="37 13 0 "
for i in 1 2 3 4; do VALID+=$'\n'"$((20 + i)) $((50 + i)) $((i % 4 + 4)) "; done
for i in $(seq 1 8); do VALID+=$'\n'"$((60 + i)) $((80 + i)) $((i % 4)) "; done

fixture sparse3
pids=()
for i in $(seq 1 8); do
	"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" -q \
		set vm.min_slab_ratio=$((60 + i)) vm.min_unmapped_ratio=$((80 + i)) \
		vm.zone_reclaim_mode=$((i % 4)) >/dev/null 2>"$TMP/set$i.err" &
	pids+=($!)
done
rcs=
for p in "${pids[@]}"; do wait "$p"; rcs+="$? "; done
check "8 parallel sets all succeed (rc: $rcs)" test "$rcs" = "0 0 0 0 0 0 0 0 "
now=$(triple)
if grep -qxF "$now" <<<"$VALID"; then ok "8 parallel sets end in one set's state ($now)"
else not_ok "8 parallel sets end in one set's state" "knobs: $now"; fi

fixture sparse3
pids=()
for round in 1 2; do
	for i in 1 2 3 4; do
		"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" -c "$CONF" -q apply p$i \
			>/dev/null 2>>"$TMP/mixed.err" &
		pids+=($!)
		"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" -q set vm.min_slab_ratio=$((60 + i)) \
			vm.min_unmapped_ratio=$((80 + i)) vm.zone_reclaim_mode=$((i % 4)) \
			>/dev/null 2>>"$TMP/mixed.err" &
		pids+=($!)
		"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" -q revert >/dev/null 2>>"$TMP/mixed.err" &
		pids+=($!)
	done
done
bad=
for p in "${pids[@]}"; do wait "$p"; rc=$?; [ $rc -le 1 ] || bad+=" $rc"; done
check "24 parallel apply/set/revert runs: none crashes or misuses an exit code" test -z "$bad"
now=$(triple)
if grep -qxF "$now" <<<"$VALID"; then ok "apply/set/revert in parallel end in one run's state ($now)"
else not_ok "apply/set/revert in parallel end in one run's state" "knobs: $now" "$(<"$TMP/mixed.err")"; fi
check "no failure message other than 'nothing to revert'" \
	bash -c "! grep -v -i 'revert' '$TMP/mixed.err'"

# SIGKILL while holding the lock, before its first write.
fixture sparse3
FAULT_INJECT="stall:1:$TMP/go1" LD_PRELOAD="$SHIM" "$NUMASTATCTL" -S "$ROOT" \
	--state-dir "$STATE" set vm.min_slab_ratio=5 >/dev/null 2>&1 &
victim=$!
check "a run stalls inside its first write" wait_for "$TMP/go1.waiting"
check "while it holds the lock, no one else gets it" bash -c "! flock -n '$STATE/lock' true"
{ kill -9 "$victim" && wait "$victim"; } 2>/dev/null
check "after SIGKILL the lock is free" flock -n "$STATE/lock" true
run set vm.min_slab_ratio=6
expect_rc 0 "a new set runs at once"
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 6 "and its value is written"

# SIGKILL between two writes: nothing can stop that half-way state, but the
# values saved before the first write let revert undo it.
fixture sparse3
FAULT_INJECT="stall:2:$TMP/go2" LD_PRELOAD="$SHIM" "$NUMASTATCTL" -S "$ROOT" \
	--state-dir "$STATE" set vm.min_slab_ratio=5 vm.min_unmapped_ratio=7 >/dev/null 2>&1 &
victim=$!
check "a run stalls inside its second write" wait_for "$TMP/go2.waiting"
{ kill -9 "$victim" && wait "$victim"; } 2>/dev/null
check "the first write had happened" test "$(triple)" = "5 13 0 "
run revert
expect_rc 0 "revert after a killed run succeeds"
check "and restores the values from before the killed run" test "$(triple)" = "37 13 0 "

done_testing
