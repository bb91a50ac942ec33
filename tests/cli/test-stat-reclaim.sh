#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --reclaim: the pages reclaim scanned and freed, machine-wide (up to
# 6.18) or per node (7.2 and later) as the fixture's kernel keeps them, in
# every output form.
. "$(dirname "$0")/lib.sh"

NODE_DIR=sys/devices/system/node

untimed() {
	sed -E 's/ at [0-9]{2}:[0-9]{2}:[0-9]{2}:/ at T:/; s/since [0-9]{2}:[0-9]{2}:[0-9]{2}:/since T:/
		s/ over [0-9.]+ s$/ over S s/'
}

# vmstat FILE KEY VALUE...: rewrite counters in place, in one write and at
# the same length, as the kernel's file changes under a reader that keeps it open.
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

# reclaimed: effect-6.1 with some reclaim done (its counters are all 0).
reclaimed() {
	fixture effect-6.1
	vmstat proc/vmstat pgscan_kswapd 2000 pgscan_direct 500 pgsteal_kswapd 1500 pgsteal_direct 100 \
		pgscan_anon 800 pgscan_file 1700 pgsteal_anon 300 pgsteal_file 1300
}

# A 6.1 kernel: vm events, machine-wide only; no khugepaged or proactive counters.
reclaimed
run stat --reclaim
expect_rc 0 "stat --reclaim exits 0"
expect_out "reclaim counters: machine-wide (/proc/vmstat, row all); not on this kernel: pgscan_khugepaged, pgscan_proactive, pgsteal_khugepaged, pgsteal_proactive
NODE PGSCAN_KSWAPD PGSCAN_DIRECT PGSTEAL_KSWAPD PGSTEAL_DIRECT PGSCAN_ANON PGSCAN_FILE PGSTEAL_ANON PGSTEAL_FILE STEAL%
 all          2000           500           1500            100         800        1700          300         1300   64.0" \
	"one row for the whole machine, what the kernel lacks said and left out, STEAL% = 1600 / 2500"
expect_err "" "nothing on stderr"
run -J stat --reclaim -o PGSCAN_DIRECT,STEAL%
check "-J: node null, scope all, the counters as numbers, steal_pct" python3 -c '
import json, sys
r = json.load(sys.stdin)["reclaim"]
assert r == [{"node": None, "scope": "all", "pgscan_direct": 500, "steal_pct": 64.0}], r' <<<"$OUT"
run stat --reclaim -o PGSCAN_DIRECT --sort pgscan_direct -n -r
expect_out "all 500" "-o and --sort take the view's columns, NODE first"
run stat --reclaim -o PGSCAN
expect_rc 2 "an unknown column exits 2"
expect_err_has "-o: unknown column 'PGSCAN' for --reclaim: did you mean" "with a suggestion"
run stat --reclaim --balancing
expect_rc 2 "two views at once exit 2"
run stat --reclaim -m
expect_rc 2 "-m is the counter table's"
run stat --reclaim --prometheus
expect_out_has "numastatctl_pgscan_direct_total 500" "--prometheus: a machine-wide counter has no node label"
expect_out_lacks "numastatctl_pgscan_khugepaged_total" "and a counter the kernel lacks is left out"
if have promtool prometheus; then
	check "promtool check metrics finds nothing" promtool check metrics <<<"$OUT"
fi

# 7.2: the kernel keeps them per node, so each node gets a row; /proc/vmstat
# holds their sums.
fixture effect-6.18
for n in 0 1; do
	printf 'pgscan_kswapd %d\npgscan_direct %d\npgsteal_kswapd %d\npgsteal_direct %d\n' \
		$((100 * (n + 1))) $((n * 10)) $((50 * (n + 1))) $((n * 5)) >>"$ROOT/$NODE_DIR/node$n/vmstat"
done
vmstat proc/vmstat pgscan_kswapd 300 pgscan_direct 10 pgsteal_kswapd 150 pgsteal_direct 5
run stat --reclaim -o NODE,PGSCAN_KSWAPD,PGSCAN_DIRECT,PGSTEAL_KSWAPD,PGSCAN_ANON -r
expect_out "reclaim counters: per node (nodeN/vmstat): pgscan_kswapd, pgscan_direct, pgsteal_kswapd, pgsteal_direct; machine-wide only (/proc/vmstat, row all): pgscan_khugepaged, pgscan_proactive, pgsteal_khugepaged, pgsteal_proactive, pgscan_anon, pgscan_file, pgsteal_anon, pgsteal_file
NODE PGSCAN_KSWAPD PGSCAN_DIRECT PGSTEAL_KSWAPD PGSCAN_ANON
0 100 0 50 
1 200 10 100 
all 300 10 150 0" "node rows where the kernel keeps them per node; the machine row sums them and has the rest"
run stat --reclaim --prometheus
expect_out_has 'numastatctl_pgscan_kswapd_total{node="1"} 200' "--prometheus: a per-node counter has a node label"
expect_out_has 'numastatctl_pgscan_anon_total 0' "and a machine-wide one none"

# Interval mode: what reclaim did in each interval, and since the start.
reclaimed
run stat --reclaim 0.01 2 -r -n -o NODE,PGSCAN_DIRECT,STEAL% --totals
expect_out "all 0 
all 0 
all 0 " "unchanged counters: zero deltas, no STEAL% of nothing"
reclaimed
start stat --reclaim -r -o NODE,PGSCAN_FILE,PGSTEAL_FILE,STEAL% --totals 0.2
wait_for "$TMP/bg.out" "sample 1 at"
vmstat proc/vmstat pgscan_file 1900 pgsteal_file 1400 pgscan_anon 800
check "a sample shows what reclaim scanned and freed in it, and its share" \
	wait_for "$TMP/bg.out" "all 200 100 50.0"
stop
expect_rc 130 "Ctrl-C ends it by SIGINT"
total=$(printf '%s\n' "$OUT" | untimed | sed -n '/^total since/,$p')
case "$total" in *"all 200 100 50.0") ok "the totals carry it" ;; *) not_ok "the totals carry it" "$total" ;; esac

done_testing
