#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The real kernel: read vm.numa_stat, toggle it, and restore it on every path.
. "$(dirname "$0")/lib.sh"

live_numa_stat
state="$TMP/state"

run_raw get -n vm.numa_stat
expect_out "$NUMA_STAT_ORIG" "get reads the live value"

run_raw --state-dir "$state" set vm.numa_stat=1
expect_rc 0 "set to 1 succeeds"
run_raw --state-dir "$state" set vm.numa_stat=1
expect_out "vm.numa_stat: 1 (unchanged)" "setting the live value again writes nothing"

run_raw --state-dir "$state" set vm.numa_stat=0
expect_rc 0 "set vm.numa_stat=0 succeeds on the kernel"
expect_out "vm.numa_stat: 1 -> 0" "and reports the change"
expect_file "$NUMA_STAT" 0 "the kernel holds 0"
hit=$(awk '$1 == "numa_hit" { print $2 }' /sys/devices/system/node/node*/numastat | sort -n | tail -1)
check "the kernel zeroed the counters (largest numa_hit is $hit)" test "$hit" = 0
snap=$(ls "$state"/snapshots/numastat-*.json 2>/dev/null | head -1)
check "the counters were saved first" python3 -c '
import json, sys
nodes = json.load(open(sys.argv[1]))["nodes"]
assert nodes and all(n["numa_hit"] > 0 for n in nodes), nodes
' "$snap"

run_raw --state-dir "$state" set vm.numa_stat=1
expect_out "vm.numa_stat: 0 -> 1" "set back to 1"
expect_file "$NUMA_STAT" 1 "the kernel holds 1 again"

# The kernel's own refusal is reported in words (nothing changes).
swap=$(cat /proc/sys/vm/swappiness)
run_raw --state-dir "$state" set vm.swappiness=not-a-number
expect_rc 1 "a value the kernel refuses exits 1"
expect_err_has "the kernel refused the value" "and says so"
expect_file /proc/sys/vm/swappiness "$swap" "the live value is unchanged"

done_testing
