#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --tiers: memory tiers, node kinds, distances, promotion and demotion,
# on a 6.1-style tree (demotion machine-wide), a 6.18-style one (per node,
# one tier) and a 5.10-style one (no tiering at all).
. "$(dirname "$0")/lib.sh"

NODE_DIR=sys/devices/system/node
TIERS=sys/devices/virtual/memory_tiering

untimed() {
	sed -E 's/ at [0-9]{2}:[0-9]{2}:[0-9]{2}:/ at T:/; s/since [0-9]{2}:[0-9]{2}:[0-9]{2}:/since T:/
		s/ over [0-9.]+ s$/ over S s/'
}

fixture effect-6.1
run stat --tiers
expect_rc 0 "stat --tiers on a 6.1-style tree exits 0"
expect_out "memory tiers: 2, fastest first: memory_tier4 (nodes 0-2), memory_tier22 (node 3)
promotion: on (kernel.numa_balancing = 3); demotion: on (mm.numa.demotion_enabled = true)
promotion and demotion counters: per node (nodeN/vmstat): pgpromote_success, pgpromote_candidate; machine-wide only (/proc/vmstat, row all): pgdemote_kswapd, pgdemote_direct; not on this kernel: pgpromote_candidate_nrl, pgdemote_khugepaged, pgdemote_proactive
NODE TIER CPU MEMORY PGPROMOTE_SUCCESS PGPROMOTE_CANDIDATE PGDEMOTE_KSWAPD PGDEMOTE_DIRECT
   0    4 yes yes                  300                 410                 
   1    4 yes yes                   20                  30                 
   2    4 yes yes                    0                   0                 
   3   22 no  yes                    0                   0                 
 all                               320                 440             777              11

node distances:
NODE  0  1  2  3
   0 10 21 21 30
   1 21 10 21 30
   2 21 21 10 30
   3 30 30 30 10" \
	"tiers fastest first, the knobs that move pages, node kinds, per-node promotion, machine-wide demotion, distances"
expect_err "" "nothing on stderr"

run -J stat --tiers --nodes 2,3
check "-J is one JSON document" python3 -c 'import json, sys; json.load(sys.stdin)' <<<"$OUT"
check "-J: node rows with tier, has_cpu, has_memory, distance to the nodes shown; counters the node lacks are null" \
	python3 -c '
import json, sys
rows = json.load(sys.stdin)["tiers"]
assert rows[0] == {"node": 2, "scope": "node", "tier": 4, "has_cpu": True, "has_memory": True,
	"distance": [10, 30], "pgpromote_success": 0, "pgpromote_candidate": 0,
	"pgdemote_kswapd": None, "pgdemote_direct": None}, rows[0]
assert rows[1]["node"] == 3 and rows[1]["has_cpu"] is False and rows[1]["tier"] == 22
assert rows[2] == {"node": None, "scope": "all", "tier": None, "has_cpu": None,
	"has_memory": None, "distance": [], "pgpromote_success": 320,
	"pgpromote_candidate": 440, "pgdemote_kswapd": 777, "pgdemote_direct": 11}, rows[2]
' <<<"$OUT"

run stat --tiers --nodes 0,3 -n -r
expect_out "0 4 yes yes 300 410  
3 22 no yes 0 0  
all    320 440 777 11

0 10 30
3 30 10" "--nodes: only those rows, and the distances between them; -n -r"
run stat --tiers -o TIER,PGPROMOTE_SUCCESS --sort PGPROMOTE_SUCCESS -r
case "$OUT" in *"NODE TIER PGPROMOTE_SUCCESS
0 4 300
1 4 20
2 4 0
3 22 0
all  320"*) ok "-o and --sort take the view's columns; NODE first, all last" ;;
*) not_ok "-o and --sort take the view's columns; NODE first, all last" "$OUT" ;;
esac
run stat --tiers -o NODE,DISTANCE
case "$OUT" in *"NODE DISTANCE
   0 10 21 21 30"*) ok "-o DISTANCE: a node's distances in the table" ;;
*) not_ok "-o DISTANCE: a node's distances in the table" "$OUT" ;; esac

run stat --tiers --prometheus
expect_rc 0 "--prometheus exits 0"
for line in 'numastatctl_memory_tiers 2' 'numastatctl_node_memory_tier{node="3"} 22' \
	'numastatctl_node_has_cpu{node="3"} 0' 'numastatctl_node_distance{node="0",to="3"} 30' \
	'numastatctl_pgpromote_success_total{node="0"} 300' 'numastatctl_pgdemote_kswapd_total 777'; do
	case "$OUT" in *"$line"*) ok "--prometheus has $line" ;; *) not_ok "--prometheus has $line" "$OUT" ;; esac
done
if have promtool prometheus; then
	printf '%s\n' "$OUT" >"$TMP/t.prom"
	check "promtool check metrics finds nothing" promtool check metrics <"$TMP/t.prom"
fi
mkdir "$TMP/tf"
run stat --tiers --textfile "$TMP/tf"
check "--textfile writes numastatctl-tiers.prom" grep -q '^numastatctl_memory_tiers 2$' \
	"$TMP/tf/numastatctl-tiers.prom"

# 6.8 and later: demotion per node (counted where reclaimed); one tier here.
fixture effect-6.18
run stat --tiers -o NODE,TIER,PGDEMOTE_KSWAPD,PGDEMOTE_DIRECT,PGDEMOTE_PROACTIVE
expect_rc 0 "stat --tiers on a 6.18-style tree exits 0"
expect_out "memory tiers: one (memory_tier4: nodes 0-1): nothing is promoted or demoted between tiers
promotion: off (kernel.numa_balancing = 1); demotion: off (mm.numa.demotion_enabled not on this kernel)
promotion and demotion counters: per node (nodeN/vmstat): pgpromote_success, pgpromote_candidate, pgpromote_candidate_nrl, pgdemote_kswapd, pgdemote_direct, pgdemote_khugepaged, pgdemote_proactive
NODE TIER PGDEMOTE_KSWAPD PGDEMOTE_DIRECT PGDEMOTE_PROACTIVE
   0    4            4000              30                  0
   1    4            1010              10                  0
 all                 5010              40                  0

node distances:
NODE  0  1
   0 10 32
   1 32 10" "one tier is said in one line; demotion per node, the all row machine-wide"

# No memory tiering (before 6.1): one clear line, not an error.
fixture effect-5.10
run stat --tiers
expect_rc 0 "a kernel without memory tiering exits 0"
expect_out "memory tiers: not on this kernel (no /sys/devices/virtual/memory_tiering): nothing is promoted or demoted between tiers
promotion: off (kernel.numa_balancing = 0); demotion: off (mm.numa.demotion_enabled not on this kernel)
promotion and demotion counters: none on this kernel
NODE TIER CPU MEMORY
   0      yes yes
   1      yes yes

node distances:
NODE  0  1
   0 10 20
   1 20 10" "it says so, and still shows the node kinds and distances"
expect_err "" "nothing on stderr"
run stat --tiers --prometheus
case "$OUT" in *"numastatctl_memory_tiers 0"*) ok "--prometheus: 0 memory tiers" ;;
*) not_ok "--prometheus: 0 memory tiers" "$OUT" ;; esac

# Interval mode: promotion on node 0 shows as a delta there.
fixture effect-6.1
start stat --tiers -r -o NODE,PGPROMOTE_SUCCESS --totals 0.2
wait_for "$TMP/bg.out" "sample 1 at"
sed -E 's/^pgpromote_success 300$/pgpromote_success 364/' "$ROOT/$NODE_DIR/node0/vmstat" >"$TMP/v"
dd if="$TMP/v" of="$ROOT/$NODE_DIR/node0/vmstat" conv=notrunc status=none
check "promotions in an interval show on the node promoted to" wait_for "$TMP/bg.out" "0 64"
stop
expect_rc 130 "Ctrl-C ends it by SIGINT"
case "$OUT" in *"total since"*"0 64"*) ok "and the totals carry it" ;; *) not_ok "and the totals carry it" "$OUT" ;; esac

fixture effect-6.1
run stat --tiers --rate 0.01 1 -o NODE,PGDEMOTE_KSWAPD -r --totals
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out "memory tiers: 2, fastest first: memory_tier4 (nodes 0-2), memory_tier22 (node 3)
promotion: on (kernel.numa_balancing = 3); demotion: on (mm.numa.demotion_enabled = true)
promotion and demotion counters: per node (nodeN/vmstat): pgpromote_success, pgpromote_candidate; machine-wide only (/proc/vmstat, row all): pgdemote_kswapd, pgdemote_direct; not on this kernel: pgpromote_candidate_nrl, pgdemote_khugepaged, pgdemote_proactive
sample 1 at T: per second over S s
NODE PGDEMOTE_KSWAPD
0 
1 
2 
3 
all 0

total since T: per second over S s
NODE PGDEMOTE_KSWAPD
0 
1 
2 
3 
all 0" "--rate: per second; the header lines once, no distance matrix in interval mode"

# Broken trees: said, exit 1, what can be shown is shown.
fixture effect-6.1
echo 'x-y' >"$ROOT/$TIERS/memory_tier22/nodelist"
run stat --tiers
expect_rc 1 "a malformed nodelist exits 1"
expect_err "numastatctl: stat: /sys/devices/virtual/memory_tiering/memory_tier22/nodelist: not a node list" \
	"naming the file"
fixture effect-6.1
echo '2-3' >"$ROOT/$TIERS/memory_tier22/nodelist"
run stat --tiers
expect_rc 1 "a node in two tiers exits 1"
expect_err_has "node 2 is in memory_tier4 and memory_tier22" "saying which"
fixture effect-6.1
echo '10 21 21' >"$ROOT/$NODE_DIR/node1/distance"
run stat --tiers -n -r
expect_rc 1 "a distance line that does not match the online nodes exits 1"
expect_err "numastatctl: stat: /sys/devices/system/node/node1/distance: not one distance per online node" \
	"naming the file"
case "$OUT" in *"1 4 yes yes 20 30"*"1    "*) ok "the other nodes and the table are still shown" ;;
*) not_ok "the other nodes and the table are still shown" "$OUT" ;; esac
fixture effect-6.1
rm "$ROOT/$NODE_DIR/node2/vmstat"
run stat --tiers -r -n -o NODE,TIER,PGPROMOTE_SUCCESS
expect_rc 1 "a node without vmstat exits 1"
expect_err "numastatctl: stat: /sys/devices/system/node/node2/vmstat: file is missing" "naming the file"
case "$OUT" in "0 4 300
1 4 20
2 4 
3 22 0
all  320"*) ok "the node keeps its row (its tier), without counters" ;;
*) not_ok "the node keeps its row (its tier), without counters" "$OUT" ;; esac
fixture effect-6.1
rm "$ROOT/$NODE_DIR/has_cpu"
run -J stat --tiers --nodes 0
check "a kernel without has_cpu: has_cpu is null, not false" \
	python3 -c 'import json, sys; assert json.load(sys.stdin)["tiers"][0]["has_cpu"] is None' <<<"$OUT"
fixture effect-6.1
run stat --tiers --balancing
expect_rc 2 "two views at once exit 2"
expect_err_has "--tiers and --balancing are separate views: give one" "saying so"

# Every line fits the width on a terminal (-w stands for it); piped, the
# header lines stay one line per record.
fixture effect-6.1
for w in 80 40; do
	run stat --tiers -w $w
	check "stat --tiers -w $w: every line fits $w columns" \
		test "$(printf '%s\n' "$OUT" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le $w
	check "stat --tiers -w $w: the wrapped lines say what they said" \
		test "$(printf '%s\n' "$OUT" | sed -n '/^NODE\|^ NODE/q;p' | sed 's/^  //' | tr '\n' ' ' | tr -s ' ')" = \
		"memory tiers: 2, fastest first: memory_tier4 (nodes 0-2), memory_tier22 (node 3) promotion: on (kernel.numa_balancing = 3); demotion: on (mm.numa.demotion_enabled = true) promotion and demotion counters: per node (nodeN/vmstat): pgpromote_success, pgpromote_candidate; machine-wide only (/proc/vmstat, row all): pgdemote_kswapd, pgdemote_direct; not on this kernel: pgpromote_candidate_nrl, pgdemote_khugepaged, pgdemote_proactive "
done
run stat --balancing -w 40
check "stat --balancing -w 40: its scope line fits too" \
	test "$(printf '%s\n' "$OUT" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le 40
run stat --tiers
check "piped: three header lines, one record each" \
	test "$(printf '%s\n' "$OUT" | sed -n '1,3p' | cut -c1-14 | tr '\n' '|')" = "memory tiers: |promotion: on |promotion and |"

# A big matrix is left out by default, and its files not read (n² numbers):
# 100 nodes; at 64 the matrix is still shown.
"$FIXTURES/gen-nodes.sh" "$TMP/n100" 100 >/dev/null
"$FIXTURES/gen-effect.sh" "$TMP/n100" 0 >/dev/null
ROOT=$TMP/n100
rm "$ROOT/$NODE_DIR/node5/distance"
run stat --tiers
expect_rc 0 "100 nodes: the distances are not read (node5's is missing: no error)"
expect_out_has "node distances: left out, 100 nodes (a number for each pair of them); -o +DISTANCE lists each node's, numactl -H prints the matrix" \
	"the matrix is left out, saying how to see it"
expect_out_lacks "NODE  0  1" "no matrix"
run -J stat --tiers
check "-J: no distance key by default" python3 -c '
import json, sys
assert all("distance" not in r for r in json.load(sys.stdin)["tiers"])' <<<"$OUT"
run stat --tiers --prometheus
expect_out_has "# numastatctl_node_distance: left out, 100 nodes (a series for each pair); stat --tiers -o +DISTANCE lists them" \
	"--prometheus: the distance series left out, said in a comment"
expect_out_lacks 'numastatctl_node_distance{' "no distance series"
if have promtool prometheus; then
	check "promtool check metrics takes it" promtool check metrics <<<"$OUT"
fi
run stat --tiers -o +DISTANCE -n -r
expect_rc 1 "-o +DISTANCE reads the distances: node5's missing one is said"
expect_err_has "node5/distance" "naming it"
cp "$ROOT/$NODE_DIR/node4/distance" "$ROOT/$NODE_DIR/node5/distance"
run -J stat --tiers -o NODE,DISTANCE
check "-J -o NODE,DISTANCE: each node's 100 distances" python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["tiers"] if r["node"] is not None]
assert len(rows) == 100 and all(len(r["distance"]) == 100 for r in rows)' <<<"$OUT"
"$FIXTURES/gen-nodes.sh" "$TMP/n64" 64 >/dev/null
"$FIXTURES/gen-effect.sh" "$TMP/n64" 0 >/dev/null
ROOT=$TMP/n64
run stat --tiers -n -r
check "64 nodes: the matrix is shown, a row per node" \
	test "$(printf '%s\n' "$OUT" | awk 'NF == 65' | wc -l)" = 64

# Node lists are never cut: 400 nodes, ids spaced as on a machine with
# holes, 50 ranges in each tier.
"$FIXTURES/gen-nodes.sh" "$TMP/sparse400" 400 sparse >/dev/null
"$FIXTURES/gen-effect.sh" "$TMP/sparse400" 0 >/dev/null
ROOT=$TMP/sparse400
# ranges FILE: the ids of a node list file as ranges ("0-3,8-11").
ranges() {
	tr , '\n' <"$1" | awk 'NR == 1 { lo = $1 } NR > 1 && $1 != prev + 1 { printf "%s%s", sep, (lo == prev ? lo : lo "-" prev); sep = ","; lo = $1 }
		{ prev = $1 } END { printf "%s%s\n", sep, (lo == prev ? lo : lo "-" prev) }'
}
t4=$(ranges "$ROOT/sys/devices/virtual/memory_tiering/memory_tier4/nodelist")
t22=$(ranges "$ROOT/sys/devices/virtual/memory_tiering/memory_tier22/nodelist")
run stat --tiers --nodes 0 -o NODE
expect_out_has "memory tiers: 2, fastest first: memory_tier4 (nodes $t4), memory_tier22 (nodes $t22)" \
	"the tiers line names every node of each tier, whole ranges"
run stat --tiers --nodes 3000
expect_rc 2 "a node that is not here exits 2"
expect_err "numastatctl: stat: --nodes: node 3000: no such node here (nodes here: $(<"$ROOT/sys/devices/system/node/online"))" \
	"naming every node there is"

done_testing
