#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat on the running kernel (root): the table, --compat beside numastat,
# and the vm.numa_stat=0 warning, with numa_stat restored on every path.
. "$(dirname "$0")/lib.sh"

[ -d /sys/devices/system/node/node0 ] || skip_all "no NUMA nodes in sysfs"
live_numa_stat
trap 'exit 1' INT TERM

echo 1 >"$NUMA_STAT"
run_raw stat -n -r -o NODE
expect_rc 0 "stat on the live system succeeds"
want=$(cd /sys/devices/system/node && ls -d node[0-9]* | sed 's/node//' | sort -n)
expect_out "$want
TOTAL" "one row per node directory, then TOTAL"
expect_err "" "no warning while counting"

run_raw stat -J -o NODE,NUMA_HIT
expect_out_has '"numa_hit": ' "-J on the live system"

if have numastat numactl; then
	numastat >"$TMP/real"
	run_raw stat --compat
	# Counters move between the two runs: compare the header and row names.
	check "--compat has numastat's header line" \
		[ "$(head -1 "$TMP/out")" = "$(head -1 "$TMP/real")" ]
	check "and its row names in its order" \
		[ "$(cut -c1-16 "$TMP/out")" = "$(cut -c1-16 "$TMP/real")" ]
	check "and its line lengths" \
		[ "$(awk '{ print length }' "$TMP/out")" = "$(awk '{ print length }' "$TMP/real")" ]
fi

run_raw stat -m -b -n -r -o MemTotal --nodes 0
expect_rc 0 "-m reads the live meminfo"
check "MemTotal in bytes is a positive multiple of 1024" \
	[ "$(( $(printf '%s\n' "$OUT" | awk 'NR == 1 { print $2 }') % 1024 ))" = 0 ]

echo 0 >"$NUMA_STAT"
run_raw stat -o NODE,NUMA_HIT
expect_rc 0 "with vm.numa_stat=0 stat still succeeds"
expect_err "numastatctl: stat: warning: vm.numa_stat is 0: NUMA counters are frozen at zero ('numastatctl set vm.numa_stat=1' turns counting on)" \
	"and warns once that the counters are frozen"
check "the kernel zeroed node0's numa_hit" [ "$(printf '%s\n' "$OUT" | awk '$1 == 0 { print $2 }')" = 0 ]
echo "$NUMA_STAT_ORIG" >"$NUMA_STAT"
check "vm.numa_stat is restored" [ "$(cat "$NUMA_STAT")" = "$NUMA_STAT_ORIG" ]

done_testing
