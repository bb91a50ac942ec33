#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# trial's verdicts decided by the running kernel (root; runs alone), each
# where it fires and where it must not: two short --foreground trials.
#  - --baseline 0: every counter with events in the window is no-baseline;
#    HINT_LOCAL% is no-events where no hinting fault came (balancing does
#    nothing on one node), LOCAL% never is (every allocation counts).
#  - vm.numa_stat 1 -> 0 as the trial's change: the kernel zeroes the
#    numastat counters, which end below the start: reset; /proc/vmstat's
#    own counters are not zeroed (pgpromote_success stays 0 to 0 on a
#    machine without tiers: within-noise), and a numastat counter at 0
#    (numa_miss on one node) did not go down: no reset.
# higher needs a second node: the 4-node guest proves it (tests/vm/init,
# check_trial); HACKING-proofs.md says where each verdict is proven.
. "$(dirname "$0")/lib.sh"

live_numa_stat
need python3 python3
[ -d /sys/devices/system/node/node0 ] || skip_all "no NUMA node 0 here"
ZR=/proc/sys/vm/zone_reclaim_mode
[ -w $ZR ] || skip_all "$ZR is not writable here"
zr=$(cat $ZR)
at_exit "echo $zr >$ZR"
state=$TMP/state

# verdicts: "COUNTER SCOPE VERDICT" for every row of the last trial.
verdicts() {
	run_raw --state-dir "$state" trial -J
	python3 -c '
import json, sys
for r in json.load(sys.stdin)["counters"]:
    print(r["counter"], r["scope"], r["verdict"])
' <<<"$OUT"
}

# has ROWS COUNTER SCOPE VERDICT: the row is there with that verdict.
has() {
	grep -qx "$2 $3 $4" <<<"$1"
}

# ---- no baseline; no events ----
run_raw --state-dir "$state" set --try 5s --baseline 0 --foreground vm.zone_reclaim_mode=$((zr ? 0 : 1))
expect_rc 0 "set --try 5s --baseline 0 --foreground: exit 0 once the time is up"
expect_file $ZR "$zr" "vm.zone_reclaim_mode is back after the trial"
rows=$(verdicts)
if has "$rows" numa_hit all no-baseline; then ok "--baseline 0: numa_hit, counted in the window, is no-baseline"; else
	not_ok "--baseline 0: numa_hit, counted in the window, is no-baseline" "$rows"; fi
bad=$(grep -vE ' (no-baseline|no-events)$' <<<"$rows")
if [ -z "$bad" ]; then ok "--baseline 0: no row has a verdict on a spread"; else
	not_ok "--baseline 0: no row has a verdict on a spread" "$bad"; fi
run_raw --state-dir "$state" trial -J
faults=$(python3 -c '
import json, sys
for r in json.load(sys.stdin)["counters"]:
    if r["counter"] == "numa_hint_faults" and r["scope"] == "all":
        print(r["trial"])
' <<<"$OUT")
if [ "$faults" = 0.0 ] || [ "$faults" = 0 ]; then
	if has "$rows" hint_local_pct all no-events; then ok "no hinting fault in the window: HINT_LOCAL% is no-events"; else
		not_ok "no hinting fault in the window: HINT_LOCAL% is no-events" "$rows"; fi
else
	ok "# SKIP HINT_LOCAL% no-events: NUMA balancing took hinting faults in the window ($faults/s)"
fi
if has "$rows" local_pct all no-baseline; then ok "LOCAL%, whose allocations the window holds, is not no-events"; else
	not_ok "LOCAL%, whose allocations the window holds, is not no-events" "$rows"; fi

# ---- reset ----
echo 1 >"$NUMA_STAT"
run_raw --state-dir "$state" set --try 5s --baseline 3s --foreground vm.numa_stat=0
expect_rc 0 "set --try 5s --baseline 3s --foreground vm.numa_stat=0: exit 0"
expect_file "$NUMA_STAT" 1 "vm.numa_stat is 1 again after the trial"
expect_err_has "zeroed the NUMA counters" "and the zeroing is said"
rows=$(verdicts)
for c in numa_hit local_pct; do
	if has "$rows" $c all reset; then ok "the kernel zeroed the numastat counters: $c is reset"; else
		not_ok "the kernel zeroed the numastat counters: $c is reset" "$rows"; fi
done
if has "$rows" pgpromote_success all within-noise; then
	ok "pgpromote_success, /proc/vmstat's and 0 throughout: within-noise, not reset"
else not_ok "pgpromote_success, /proc/vmstat's and 0 throughout: within-noise, not reset" "$rows"; fi
miss=$(awk '$1 == "numa_miss" { t += $2 } END { print t + 0 }' /sys/devices/system/node/node*/numastat)
nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)
if [ "$nodes" = 1 ]; then
	if has "$rows" numa_miss all within-noise; then ok "numa_miss, 0 on one node, did not go down: within-noise, not reset"; else
		not_ok "numa_miss, 0 on one node, did not go down: within-noise, not reset" "$rows"; fi
else
	ok "# SKIP numa_miss not reset: $nodes nodes, numa_miss $miss is zeroed like numa_hit"
fi
bad=$(grep ' reset$' <<<"$rows" | grep -vE '^(numa_hit|numa_miss|local_pct|miss_pct) ')
if [ -z "$bad" ]; then ok "reset only for the numastat counters vm.numa_stat zeroes"; else
	not_ok "reset only for the numastat counters vm.numa_stat zeroes" "$bad"; fi

done_testing
