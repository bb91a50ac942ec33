#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat: the per-node counter table, its options, -m, errors per node.
. "$(dirname "$0")/lib.sh"

fixture sparse3
run stat
expect_rc 0 "stat on sparse node ids succeeds"
expect_out " NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN INTERLEAVE_HIT LOCAL_NODE OTHER_NODE
    0  7300011       120         3300           2211    7290000      10131
    2  5100022      3300          120           2210    5080000      23342
    5   410003         0            0              0          0     410003
TOTAL 12810036      3420         3420           4421   12370000     443476" \
	"rows are nodes 0, 2, 5 (no node 1 assumed), then TOTAL"
expect_err "" "nothing on stderr"

run stat -o NODE,LOCAL%,MISS%
expect_out " NODE LOCAL% MISS%
    0   99.9   0.0
    2   99.5   0.1
    5    0.0   0.0
TOTAL   96.5   0.0" "-o picks columns; LOCAL% and MISS% are derived (TOTAL from the sums)"

run stat -o +local%
expect_out_has "OTHER_NODE LOCAL%" "-o +COL appends to the default columns"

run stat -n -r -o node,numa_miss
expect_out "0 120
2 3300
5 0
TOTAL 3420" "-n drops headings, -r single spaces"

run stat --nodes 2,5 -o NODE,NUMA_HIT
expect_out " NODE NUMA_HIT
    2  5100022
    5   410003
TOTAL  5510025" "--nodes selects nodes; TOTAL sums only those"

# The kernel counts one event per allocation request, whatever its order.
run stat --help
cols=$(printf '%s\n' "$OUT" | sed -n '/^Available output columns:/,/^$/p')
case "$cols" in
*NUMA_HIT*page* | *OTHER_NODE*page*) not_ok "no column of stat --help calls the counters pages" "$cols" ;;
*NUMA_HIT*) ok "no column of stat --help calls the counters pages" ;;
*) not_ok "no column of stat --help calls the counters pages" "no column list: $OUT" ;;
esac
expect_out_has "The kernel counts allocations, not pages: one per request, whatever its" \
	"and says what they count"
expect_out_has "NUMA_HIT  allocations served by this node as intended" "column by column"

# libnuma's node-string rules, as numactl --membind takes them.
run stat --nodes 0-2 -n -r -o NODE
expect_rc 0 "--nodes 0-2 on nodes 0, 2, 5 succeeds"
expect_out "0
2
TOTAL" "skipping the absent node 1 inside the range"
run stat --nodes 1 -o NODE
expect_rc 2 "--nodes naming a single node that does not exist exits 2"
expect_err "numastatctl: stat: --nodes: node 1: no such node here (nodes here: 0,2,5)" \
	"naming the node and the nodes there are"
expect_out "" "and prints no table"
run stat --nodes 0,2-3 -o NODE
expect_rc 2 "--nodes with a range ending on an absent node exits 2"
expect_err "numastatctl: stat: --nodes: node 3: no such node here: a range's end points must exist (nodes here: 0,2,5)" \
	"saying that a range's end points must exist"

run stat --nodes all -n -r -o node
expect_out "0
2
5
TOTAL" "--nodes all is every node"

run stat --nodes 0,x
expect_rc 2 "a malformed --nodes list exits 2"
expect_err_has "--nodes '0,x': expected node ids such as 0,2-3, or all" "saying what is allowed"

run stat -o NODE,BOGUS
expect_rc 2 "an unknown -o column exits 2"
expect_err_has "-o: unknown column 'BOGUS'" "naming the column"

run stat -o "$(printf 'NODE%.0s,' $(seq 40))NODE"
expect_rc 2 "more than 32 -o columns exit 2"
expect_err_has "-o: at most 32 columns" "saying the limit"

run stat --sort NUMA_MISS -o NODE,NUMA_MISS
expect_out " NODE NUMA_MISS
    2      3300
    0       120
    5         0
TOTAL      3420" "--sort orders rows by the column, largest first; TOTAL stays last"

run stat --sort OTHER_NODE -n -r -o node
expect_out "5
2
0
TOTAL" "--sort by a column not shown sorts by its values anyway"

run stat --sort nope
expect_rc 2 "--sort on an unknown column exits 2"

run stat -z -o NODE,NUMA_MISS,LOCAL_NODE
expect_out " NODE NUMA_MISS LOCAL_NODE
    0       120    7290000
    2      3300    5080000
TOTAL      3420   12370000" "-z drops the all-zero row of node 5"

run stat -z -o NODE,NUMA_HIT,INTERLEAVE_HIT --nodes 5
expect_out " NODE NUMA_HIT
    5   410003
TOTAL   410003" "-z drops all-zero columns"

run stat --compact -o NODE,NUMA_HIT,NUMA_MISS
expect_out " NODE NUMA_HIT NUMA_MISS
    0     7.3M       120
    2     5.1M      3300
    5     410K         0
TOTAL      13M      3420" "--compact abbreviates counts in powers of 1000"

run stat -w 40
expect_rc 0 "a narrow width succeeds"
expect_out " NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN
    0  7300011       120         3300
    2  5100022      3300          120
    5   410003         0            0
TOTAL 12810036      3420         3420

 NODE INTERLEAVE_HIT LOCAL_NODE
    0           2211    7290000
    2           2210    5080000
    5              0          0
TOTAL           4421   12370000

 NODE OTHER_NODE
    0      10131
    2      23342
    5     410003
TOTAL     443476" "a table wider than the width folds into sections, NODE repeated"

# On a terminal the width comes from TIOCGWINSZ, else $COLUMNS; off a terminal it is unlimited.
if have script bsdutils; then
	COLUMNS=40 script -qec "'$NUMASTATCTL' --sysroot '$ROOT' stat" /dev/null </dev/null >"$TMP/tty"
	check "on a terminal without a size, \$COLUMNS=40 folds the table" \
		[ "$(tr -d '\r' <"$TMP/tty" | grep -c '^ NODE')" = 3 ]
	script -qec "stty cols 50; '$NUMASTATCTL' --sysroot '$ROOT' stat --compat" /dev/null \
		</dev/null >"$TMP/tty"
	check "TIOCGWINSZ (50 columns) folds --compat two nodes to a section, as numastat means to" \
		[ "$(tr -d '\r' <"$TMP/tty" | head -1)" = "                           node0           node2" ]
fi
COLUMNS=40 run stat
check "off a terminal \$COLUMNS is ignored: no folding" [ "$(grep -c '^ NODE' "$TMP/out")" = 1 ]

run stat -w 5
expect_rc 2 "a width below 20 is refused"

# untime: the one-shot -J time is now; everything else must not change.
untime() {
	sed -E 's/^   "time": "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z",$/   "time": "T",/' <<<"$OUT"
}
run stat -J --nodes 5
OUT=$(untime)
expect_out '{
   "time": "T",
   "nodes": [
      {
         "node": 5,
         "numa_hit": 410003,
         "numa_miss": 0,
         "numa_foreign": 0,
         "interleave_hit": 0,
         "local_node": 0,
         "other_node": 410003
      }
   ],
   "total": {
      "numa_hit": 410003,
      "numa_miss": 0,
      "numa_foreign": 0,
      "interleave_hit": 0,
      "local_node": 0,
      "other_node": 410003
   }
}' "-J: the time (ISO 8601 UTC), the nodes array and the TOTAL row as a total object"

run stat -J -o node,local%,miss% --nodes 0,5
OUT=$(untime)
expect_out '{
   "time": "T",
   "nodes": [
      {
         "node": 0,
         "local_pct": 99.9,
         "miss_pct": 0.0
      },{
         "node": 5,
         "local_pct": 0.0,
         "miss_pct": 0.0
      }
   ],
   "total": {
      "local_pct": 94.6,
      "miss_pct": 0.0
   }
}' "-J derived columns are numbers, the total's computed from the sums"

# Every column stat --help lists, on each path that prints counters: a new
# column shows in tests/expected/stat/ (an interval on a dump changes nothing,
# so there a percentage is of nothing).
golden_run stat/every-column.out
expect_rc 0 "every column at once succeeds"
expect_golden stat/every-column.out "every column in the table, derived ones from the counters"
golden_run stat/every-column-json.out
expect_golden stat/every-column-json.out "every column in -J, under its JSON name"
golden_run stat/every-column-interval.out
expect_rc 0 "every column with an interval succeeds"
expect_golden stat/every-column-interval.out "every column in an interval's lines"
golden_run stat/every-column-folded.out
expect_rc 0 "every column folded with --totals succeeds"
expect_golden stat/every-column-folded.out "every column in an interval's folded tables and its totals"

run stat extra1 extra2 extra3
expect_rc 2 "more than INTERVAL COUNT is a usage error"
run stat 0.001
expect_rc 2 "an interval below 0.01 s is refused"
run stat --rate
expect_rc 2 "--rate without an interval is refused"
run stat --help
expect_rc 0 "--help exits 0"
expect_out_has "LOCAL%  local_node / (local_node + other_node), percent" "--help lists the columns"

# status: the locality summary under the knobs; -J stays one JSON document.
fixture sparse3
run status
expect_rc 0 "status succeeds"
expect_out_has "Per-node locality (allocation events since boot or the last counter reset):
 NODE NUMA_HIT NUMA_MISS OTHER_NODE LOCAL% MISS%
    0  7300011       120      10131   99.9   0.0
    2  5100022      3300      23342   99.5   0.1
    5   410003         0     410003    0.0   0.0
TOTAL 12810036      3420     443476   96.5   0.0" "status shows per-node locality"
run status -J
check "status -J is one valid JSON document, the locality summary in it" \
	python3 -c 'import json,sys; d = json.load(sys.stdin); assert [n["node"] for n in d["nodes"]] == [0, 2, 5] and d["total"]["numa_hit"] == 12810036, d' <"$TMP/out"

# One broken node: the others are printed, the bad file is named, exit 1.
fixture stat-broken
run stat -o NODE,NUMA_HIT
expect_rc 1 "a node with a malformed numastat exits 1"
expect_out " NODE NUMA_HIT
    0  7300011
    5   410003
TOTAL  7710014" "the other nodes are still printed"
expect_err "numastatctl: stat: /sys/devices/system/node/node2/numastat: line 2: value is not a decimal number" \
	"the bad file and line are named, once"

run stat -m -o MemTotal
expect_rc 1 "a node without meminfo exits 1 under -m"
expect_out " NODE MemTotal
    0    15.6G
    2    15.6G
TOTAL    31.2G" "-m prints the nodes it could read"
expect_err "numastatctl: stat: /sys/devices/system/node/node5/meminfo: file is missing" \
	"naming the missing file"

# A file far larger than any numastat: refused for that node only.
fixture sparse3
head -c 100000 /dev/zero | tr '\0' 'x' >"$ROOT/sys/devices/system/node/node0/numastat"
printf 'numa_hit 1\r\nnuma_miss 2\r\n' >"$ROOT/sys/devices/system/node/node5/numastat"
run stat -n -r -o NODE,NUMA_HIT
expect_rc 1 "a huge and a CRLF numastat exit 1"
expect_out "2 5100022
TOTAL 5100022" "the good node is still printed"
expect_err "numastatctl: stat: /sys/devices/system/node/node0/numastat: file too large
numastatctl: stat: /sys/devices/system/node/node5/numastat: line 1: value is not a decimal number" \
	"each bad file is named with its problem"

# A counter a later kernel may add is kept, not an error.
fixture sparse3
echo "numa_future 77" >>"$ROOT/sys/devices/system/node/node2/numastat"
run stat -n -r -o NODE,NUMA_HIT --nodes 2
expect_rc 0 "an unknown extra counter is not an error"
run stat --prometheus --nodes 2
expect_out_has 'numastatctl_numa_future_total{node="2"} 77' "and --prometheus exports it"

fixture stat-frozen
run stat -o NODE,NUMA_HIT
expect_rc 0 "frozen counters are not an error"
expect_err "numastatctl: stat: warning: vm.numa_stat is 0: NUMA counters are frozen at zero ('numastatctl set vm.numa_stat=1' turns counting on)" \
	"vm.numa_stat=0 is warned about, once"
run stat -m -o MemTotal
expect_err "" "-m does not read the counters, so no warning"

# -m: meminfo per node with hugepages from nodeN/hugepages.
"$FIXTURES/gen-nodes.sh" "$TMP/h6" 6 sparse
ROOT=$TMP/h6
run stat -m
expect_rc 0 "-m on a generated tree succeeds"
expect_out " NODE MemTotal MemFree MemUsed FilePages AnonPages Shmem   Slab HugePages_Total HugePages_Free
    0       4G      1G      3G    200.3M     50.1M    2M  48.8M             16M             8M
    1       4G      1G      3G    200.7M     50.2M    2M  48.8M             32M            16M
    2       4G      1G      3G      201M     50.3M    2M  48.9M             48M            24M
    3       4G      1G      3G    201.3M     50.4M    2M  48.9M              0B             0B
    8       4G      1G      3G    201.6M     50.5M    2M  48.9M             16M             8M
    9       4G      1G      3G      202M     50.7M    2M  48.9M             32M            16M
TOTAL      24G      6G     18G      1.2G    302.3M 12.1M 293.2M            144M            72M" \
	"-m: human sizes, hugepages summed from nodeN/hugepages in bytes"

run stat -m -b -o MemFree,dirty --sort Dirty --nodes 0,9 -n -r
expect_out "9 1078515712 18432
0 1074537472 3072
TOTAL 2153053184 21504" "-m -b bytes, -o field names case-insensitive, --sort on a field"

run stat -m -J -o HugePages_Total,Active\(anon\) --nodes 9
OUT=$(untime)
expect_out '{
   "time": "T",
   "nodes": [
      {
         "node": 9,
         "hugepages_total": 33554432,
         "active_anon": 52598784
      }
   ],
   "total": {
      "hugepages_total": 33554432,
      "active_anon": 52598784
   }
}' "-m -J: bytes as numbers, keys in lower case, with time and total"

run stat -m -o MemTotal,NoSuchField
expect_rc 2 "-m -o with an unknown field exits 2"
expect_err_has "-o: unknown meminfo field 'NoSuchField'" "naming the field"

# Many nodes: every node is a row, ids in numeric order.
"$FIXTURES/gen-nodes.sh" "$TMP/n1024" 1024
ROOT=$TMP/n1024
run stat -n -r -o NODE
expect_rc 0 "1024 nodes succeed"
check "1024 node rows and TOTAL" [ "$(printf '%s\n' "$OUT" | wc -l)" = 1025 ]
check "node rows in numeric order (9 before 10, 1023 last)" \
	[ "$(printf '%s\n' "$OUT" | sed -n '10p;11p;1024p' | tr '\n' ' ')" = "9 10 1023 " ]
run stat -n -r -o NODE,NUMA_HIT --nodes 1023
expect_out "1023 2136553
TOTAL 2136553" "the last of 1024 nodes reads its own file"

# Any column order and subset, with -z, --sort and folding: valid in every
# form.  NODE is the row's label wherever -o puts it, and may be left out.
fixture sparse3
# json_keys COLS: $OUT is one JSON document whose node objects have the keys
# of COLS in that order and whose total has the same but "node".
json_keys() {
	python3 -c '
import json, sys
doc = json.load(sys.stdin)
keys = list(dict.fromkeys(c.lower().replace("%", "_pct") for c in sys.argv[1].split(",")))
assert doc["nodes"], "no nodes"
for n in doc["nodes"]:
    assert list(n) == keys, (list(n), keys)
assert list(doc["total"]) == [k for k in keys if k != "node"], doc["total"]
' "$1" <<<"$OUT"
}
# json_lines COLS: each line of $OUT is a sample whose nodes and total have these keys.
json_lines() {
	python3 -c '
import json, sys
keys = list(dict.fromkeys(c.lower().replace("%", "_pct") for c in sys.argv[1].split(",")))
for line in sys.stdin:
    doc = json.loads(line)
    assert all(list(n) == keys + ["reset"] * ("sample" in doc) for n in doc["nodes"]), doc
    assert list(doc["total"]) == [k for k in keys if k != "node"], doc["total"]
' "$1" <<<"$OUT"
}
for cols in NUMA_HIT NUMA_HIT,NODE LOCAL%,NODE,MISS% MISS%,NUMA_MISS NODE NODE,NUMA_HIT,NODE; do
	for extra in "" "-z" "--sort numa_hit" "-z --sort local%"; do
		# shellcheck disable=SC2086 # the options are words
		run -J stat -o "$cols" $extra
		expect_rc 0 "stat -J -o $cols $extra exits 0"
		check "stat -J -o $cols $extra: the columns' keys, the total without node" json_keys "$cols"
		# shellcheck disable=SC2086
		run -J stat -o "$cols" $extra 0.01 1 --totals
		check "stat -J -o $cols $extra INTERVAL: each line with those keys" json_lines "$cols"
		# shellcheck disable=SC2086
		run stat -o "$cols" $extra -r
		expect_rc 0 "stat -o $cols $extra exits 0"
		check "stat -o $cols $extra: a header in -o's order and at least a row" \
			test "$(printf '%s\n' "$OUT" | head -1)" = "${cols//,/ }" -a "$(printf '%s\n' "$OUT" | wc -l)" -ge 2
	done
done
run stat -o NUMA_HIT -z -n -r
expect_out "7300011
5100022
410003
12810036" "-z without NODE keeps the rows whose counts are not zero, and the sum"
run stat -o NUMA_HIT,NODE -r
expect_out "NUMA_HIT NODE
7300011 0
5100022 2
410003 5
12810036 TOTAL" "NODE last: TOTAL is its label there"
run stat -o NUMA_HIT -w 20
expect_rc 0 "a single column without NODE folds to nothing to fold"
expect_out "NUMA_HIT
 7300011
 5100022
  410003
12810036" "and prints it whole"
run stat -o NUMA_HIT,NUMA_MISS,NODE,NUMA_FOREIGN -w 24
expect_out " NODE NUMA_HIT NUMA_MISS
    0  7300011       120
    2  5100022      3300
    5   410003         0
TOTAL 12810036      3420

 NODE NUMA_FOREIGN
    0         3300
    2          120
    5            0
TOTAL         3420" "folded: NODE, the rows' label, first in every section"

done_testing
