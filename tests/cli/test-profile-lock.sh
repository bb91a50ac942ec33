#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The lock: many applies of different profiles at once end in exactly one
# profile's state, never a mix (each holds the lock for read-plan-write).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

RUNS=40

pfixture profile-basic
pids=
for i in $(seq 1 $RUNS); do
	if [ $((i % 2)) = 0 ]; then p=a; else p=b; fi
	"$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" --config "$CONF" -q apply "$p" \
		>"$TMP/out.$i" 2>"$TMP/err.$i" </dev/null &
	pids="$pids $!"
done
failed=0
for pid in $pids; do
	wait "$pid" || failed=$((failed + 1))
done
if [ "$failed" = 0 ]; then ok "$RUNS parallel applies all succeed"; else
	not_ok "$RUNS parallel applies all succeed" "$failed failed:" "$(cat "$TMP"/err.*)"; fi

state="$(knob vm/zone_reclaim_mode) $(knob vm/min_unmapped_ratio) $(knob vm/min_slab_ratio) $(knob vm/stat_interval)"
case "$state" in
"1 21 22 23" | "4 31 32 33") ok "the end state is exactly one profile's ($state)" ;;
*) not_ok "the end state is exactly one profile's" "got: $state" ;;
esac

prun apply --check a
rc_a=$RC
prun apply --check b
if [ "$((rc_a == 0)):$((RC == 0))" = "1:0" ] || [ "$((rc_a == 0)):$((RC == 0))" = "0:1" ]; then
	ok "apply --check agrees: one profile matches, the other drifts"
else
	not_ok "apply --check agrees: one profile matches, the other drifts" "check a: $rc_a, check b: $RC"
fi

prun revert
expect_rc 0 "the saved values of the last apply load and revert"
state2="$(knob vm/zone_reclaim_mode) $(knob vm/min_unmapped_ratio) $(knob vm/min_slab_ratio) $(knob vm/stat_interval)"
case "$state2" in
"1 21 22 23" | "4 31 32 33") ok "revert ends in the other profile's state, not a mix ($state2)" ;;
*) not_ok "revert ends in a whole profile's state" "got: $state2" ;;
esac
check "and changed something" test "$state" != "$state2"

done_testing
