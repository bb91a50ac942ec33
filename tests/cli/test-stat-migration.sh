#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --migration: the migration ledger, pgmigrate_success split by cause,
# on kernels with demotion per node (6.18), machine-wide (6.1) and without
# tiering counters (5.10); one-shot, interval, JSON and Prometheus.
. "$(dirname "$0")/lib.sh"

NODE_DIR=sys/devices/system/node

# vmstat FILE KEY VALUE...: rewrite counters in place, in one write, as the
# kernel's file changes under a reader that keeps it open.
vmstat() {
	local file=$ROOT/$1 script=''

	shift
	while [ $# -ge 2 ]; do
		script="$script s/^$1 [0-9]+\$/$1 $2/;"
		shift 2
	done
	sed -E "$script" "$file" >"$TMP/vmstat.new"
	dd if="$TMP/vmstat.new" of="$file" conv=notrunc status=none
}

# The fixtures' pgmigrate_success is below what they count by cause (their
# counters are made up one by one); make it a total the rows fit in.
fixture effect-6.1
vmstat proc/vmstat pgmigrate_success 7500 thp_migration_success 2
run stat --migration
expect_rc 0 "stat --migration"
expect_out "migration counters: per node (nodeN/vmstat): pgpromote_success, pgpromote_candidate; machine-wide only (/proc/vmstat, row all): numa_hint_faults, numa_hint_faults_local, numa_pages_migrated, pgmigrate_success, pgmigrate_fail, pgdemote_kswapd, pgdemote_direct, thp_migration_success; not on this kernel: pgdemote_khugepaged, pgdemote_proactive
NODE MIGRATED BALANCING PROMOTED DEMOTED_KSWAPD DEMOTED_DIRECT OTHER THP FAILED PROMOTE_HELD HINT_LOCAL%
   0        -         -      300              -              -     -   -      -          110           -
   1        -         -       20              -              -     -   -      -           10           -
   2        -         -        0              -              -     -   -      -            0           -
   3        -         -        0              -              -     -   -      -            0           -
 all     7500      5830      320            777             11   562   2      3          120        25.0" \
	"6.1: promotion per node (where pages went), demotion machine-wide; the rows of all add up to MIGRATED"
expect_err "" "nothing on stderr"

run stat --migration -J
expect_rc 0 "-J"
check "JSON: the row all adds up (balancing + promoted + demoted + other = migrated)" python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
a = [r for r in d["migration"] if r["scope"] == "all"][0]
s = a["balancing"] + a["promoted"] + a["demoted_kswapd"] + a["demoted_direct"] + a["other"]
sys.exit(0 if s == a["migrated"] == 7500 else 1)' <<<"$OUT"

# 6.18: demotion per node, on the node pages left.
fixture effect-6.18
vmstat proc/vmstat pgmigrate_success 6000
run stat --migration -r -o NODE,MIGRATED,BALANCING,PROMOTED,DEMOTED_KSWAPD,DEMOTED_DIRECT,OTHER
expect_out_has "per node (nodeN/vmstat): pgpromote_success, pgpromote_candidate, pgdemote_kswapd, pgdemote_direct, pgdemote_khugepaged, pgdemote_proactive" \
	"6.18 keeps promotion and demotion per node, and the scope line says so"
expect_out_has "all 6000 190 0 5010 40 760" "the row all: 6000 = 190 + 0 + 5010 + 40 + 760"
check "the node rows carry demotion, not the machine-wide causes" grep -qxF "0 - - 0 4000 30 -" <<<"$OUT"

# 5.10: no tiering counters at all; the rest is other.
fixture effect-5.10
run stat --migration -r
expect_out_has "not on this kernel: pgpromote_success, pgpromote_candidate, pgdemote_kswapd, pgdemote_direct, pgdemote_khugepaged, pgdemote_proactive" \
	"5.10: no promotion or demotion counters, said"
expect_out_has "NODE MIGRATED BALANCING OTHER THP FAILED HINT_LOCAL%" "their columns left out"
expect_out_has "all 77 0 77 0 0 " "all 77 pages are other (compaction, syscalls, ...)"

# Counters read apart: the named causes above the total.
fixture effect-6.18
run stat --migration
expect_out_has "the named causes exceed pgmigrate_success by 4990 pages" "an excess is said"
expect_out_has " all      250       190        0           5010             40                  0                 0     0" \
	"and OTHER is 0, never a wrapped number"

# Interval: the ledger of what happened in it.
fixture effect-6.1
vmstat proc/vmstat pgmigrate_success 7500
start stat --migration -r -o NODE,MIGRATED,BALANCING,PROMOTED,DEMOTED_KSWAPD,DEMOTED_DIRECT,OTHER,PROMOTE_HELD 0.2
wait_for "$TMP/bg.out" "sample 1 at"
vmstat proc/vmstat pgmigrate_success 7700 numa_pages_migrated 6250 pgpromote_success 340 pgpromote_candidate 500 pgdemote_direct 31
vmstat $NODE_DIR/node0/vmstat pgpromote_success 320 pgpromote_candidate 470
check "an interval: 200 migrated = 80 balancing + 20 promoted + 20 demoted directly + 80 other; 40 candidates held back" \
	wait_for "$TMP/bg.out" "all 200 80 20 0 20 80 40"
check "the node's promotion in the interval" wait_for "$TMP/bg.out" "0 - - 20 - - - 40"
stop

# Prometheus: the ledger's own families, machine-wide.
fixture effect-6.1
vmstat proc/vmstat pgmigrate_success 7500
run stat --migration --prometheus
expect_rc 0 "--prometheus"
expect_out_has 'numastatctl_migration_pages_total{cause="numa_balancing"} 5830
numastatctl_migration_pages_total{cause="promotion"} 320
numastatctl_migration_pages_total{cause="demotion_kswapd"} 777
numastatctl_migration_pages_total{cause="demotion_direct"} 11
numastatctl_migration_pages_total{cause="other"} 562' "a series per cause the kernel counts"
expect_out_lacks "numastatctl_pgpromote_success_total" "not the counters stat --tiers exports (a textfile directory would have them twice)"
if have promtool prometheus; then
	printf '%s\n' "$OUT" >"$TMP/migration.prom"
	check "promtool check metrics finds nothing" promtool check metrics <"$TMP/migration.prom"
fi

done_testing
