#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --cgroup: per-node memory of cgroups from cgroup v2's memory.numa_stat;
# paths, systemd units and patterns; cgroup v1 only and no memory controller.
. "$(dirname "$0")/lib.sh"

CG=sys/fs/cgroup

untimed() {
	sed -E 's/ at [0-9]{2}:[0-9]{2}:[0-9]{2}:/ at T:/; s/since [0-9]{2}:[0-9]{2}:[0-9]{2}:/since T:/
		s/ over [0-9.]+ s$/ over S s/; s/"seconds": ?[0-9.]+/"seconds":S/g
		s/"(time|since)": ?"[^"]*"/"\1":"T"/g'
}

# numa_stat CGROUP ITEM VALUES: rewrite one line in place, in one write, at
# the same length, as the kernel's file changes under a reader.
numa_stat() {
	local f=$ROOT/$CG$1/memory.numa_stat
	sed -E "s/^$2 .*/$2 $3/" "$f" >"$TMP/ns.new"
	dd if="$TMP/ns.new" of="$f" conv=notrunc status=none
}

fixture effect-6.1
run stat --cgroup nginx.service
expect_rc 0 "a service name resolves to its cgroup in system.slice"
expect_out "cgroup /system.slice/nginx.service
 NODE ANON FILE SHMEM KERNEL_STACK PAGETABLES SLAB  TOTAL
    0 200M 100M    4M         256K         2M   4M 306.2M
    1   8M   4M    0B          16K         0B   0B    12M
    2   0B   0B    0B           0B         0B   0B     0B
    3   0B   0B    0B           0B         0B   0B     0B
TOTAL 208M 104M    4M         272K         2M   4M 318.3M" \
	"one cgroup: a row per node and TOTAL, kinds of memory in human units"
expect_err "" "nothing on stderr"

for arg in /system.slice/nginx.service system.slice/nginx.service /sys/fs/cgroup/system.slice/nginx.service \
	//system.slice//nginx.service/; do
	run stat --cgroup "$arg" -n -r -o TOTAL
	expect_out "0 306.2M
1 12M
2 0B
3 0B
TOTAL 318.3M" "the path '$arg' names the same cgroup"
done
run stat --cgroup user-1000.slice -n -r -o total
expect_out "0 400M
1 0B
2 0B
3 0B
TOTAL 400M" "a slice follows systemd's dash rule: user-1000.slice is in user.slice"
run stat --cgroup user@1000.service -n -r -o total
expect_out "0 390M
1 0B
2 0B
3 0B
TOTAL 390M" "a unit outside system.slice is found in the tree"
run stat --cgroup / -b -o NODE,TOTAL
expect_out "cgroup /
 NODE      TOTAL
    0 3114270720
    1  440401920
    2  128974848
    3   52428800
TOTAL 3736076288" "the root cgroup has memory.numa_stat too; -b: bytes"
run stat --cgroup db.service -o NODE,WORKINGSET_REFAULT_FILE,ANON_THP -r
expect_out "cgroup /system.slice/db.service
NODE WORKINGSET_REFAULT_FILE ANON_THP
0 0 0B
1 0 0B
2 0 0B
3 0 0B
TOTAL 0 0B" "-o takes any item of the file; event items are counts, not sizes"
run stat --cgroup nginx.service -o NODE,WORKINGSET_REFAULT_FILE -n -r
expect_out "0 12
1 0
2 0
3 0
TOTAL 12" "a count is a plain number"
run stat --cgroup db.service --nodes 1,3 -o anon,total -n -r
expect_out "1 280M 376.5M
3 40M 48M
TOTAL 320M 424.5M" "--nodes narrows the rows and TOTAL"
run stat --cgroup db.service --sort anon -o anon -n -r
expect_out "0 300M
1 280M
2 60M
3 40M
TOTAL 680M" "--sort by a kind of memory, largest first; TOTAL last"

run -J stat --cgroup nginx.service --nodes 0
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out '{
   "time":"T",
   "cgroups": [
      {
         "cgroup": "/system.slice/nginx.service",
         "node": 0,
         "anon": 209715200,
         "file": 104857600,
         "shmem": 4194304,
         "kernel_stack": 262144,
         "pagetables": 2097152,
         "slab": 4194304,
         "total": 321126400
      }
   ]
}' "-J: a row per cgroup and node, bytes"

# Several cgroups, or a pattern: a row each, sorted by the share off the main node.
run stat --cgroup '*.service' --cgroup init.scope
expect_rc 0 "a pattern and a unit exit 0"
expect_out 'CGROUP                                            N0     N1   N2  N3  TOTAL MAIN OFF%
/system.slice/db.service                      929.5M 376.5M 105M 48M   1.4G    0 36.3
/system.slice/we"ird\name.service                 4K     0B   0B  8K    12K    3 33.3
/system.slice/nginx.service                   306.2M    12M   0B  0B 318.3M    0  3.8
/user.slice/user-1000.slice/user@1000.service   390M     0B   0B  0B   390M    0  0.0
/init.scope                                       2M     0B   0B  0B     2M    0  0.0' \
	"a row per cgroup, the node with most of its memory (MAIN) and the share elsewhere, largest share first"
run stat --cgroup 'system.slice/*' --sort TOTAL -o CGROUP,TOTAL -r -n
expect_out '/system.slice/db.service 1.4G
/system.slice/nginx.service 318.3M
/system.slice/we"ird\x5cname.service 12K' "a pattern with a slash matches paths; --sort TOTAL; -r encodes a backslash"
run stat --cgroup nginx.service --cgroup nginx.service -r -n -o total
expect_out "0 306.2M
1 12M
2 0B
3 0B
TOTAL 318.3M" "a cgroup named twice is one cgroup"
run -J stat --cgroup 'system.slice/*' -o total --nodes 0,3
check "-J of several: a row per cgroup and node, with main and the cgroup's share elsewhere" \
	python3 -c '
import json, sys
rows = json.load(sys.stdin)["cgroups"]
assert rows[0] == {"cgroup": "/system.slice/we\"ird\\name.service", "node": 0, "total": 4096,
	"main": False, "off_main_pct": 33.3}, rows[0]
assert rows[3] == {"cgroup": "/system.slice/db.service", "node": 3, "total": 50331648,
	"main": False, "off_main_pct": 4.9}, rows[3]
assert [r["cgroup"] for r in rows] == ["/system.slice/we\"ird\\name.service"] * 2 + ["/system.slice/db.service"] * 2 + ["/system.slice/nginx.service"] * 2
' <<<"$OUT"

run stat --cgroup 'system.slice/*' --prometheus
expect_rc 0 "--prometheus exits 0"
case "$OUT" in *'numastatctl_cgroup_memory_bytes{cgroup="/system.slice/we\"ird\\name.service",node="3",type="anon"} 8192'*) ok "--prometheus escapes a label value" ;;
*) not_ok "--prometheus escapes a label value" "$OUT" ;; esac
case "$OUT" in *'numastatctl_cgroup_memory_events_total{cgroup="/system.slice/nginx.service",node="0",event="workingset_refault_file"} 12'*) ok "--prometheus: event items are counters" ;;
*) not_ok "--prometheus: event items are counters" "$OUT" ;; esac
expect_out_has "numastatctl_cgroups_left_out 0" "--prometheus: no cgroup left out under the cap"
expect_err "" "and nothing said"
if have promtool prometheus; then
	printf '%s\n' "$OUT" >"$TMP/c.prom"
	check "promtool check metrics finds nothing" promtool check metrics <"$TMP/c.prom"
fi
mkdir "$TMP/tf"
run stat --cgroup nginx.service --textfile "$TMP/tf"
check "--textfile writes numastatctl-cgroup.prom" \
	grep -q 'cgroup="/system.slice/nginx.service",node="0",type="anon"} 209715200' "$TMP/tf/numastatctl-cgroup.prom"

# A name with a newline: escaped on a terminal, in JSON and in Prometheus.
mkdir "$ROOT/$CG/system.slice/a
b.service"
cp "$ROOT/$CG/init.scope/memory.numa_stat" "$ROOT/$CG/system.slice/a
b.service/"
run stat --cgroup 'system.slice/a*' -r -n -o CGROUP,TOTAL
expect_out '/system.slice/a\x0ab.service 2M' "a control character in a name is shown as \\x0a"
run -J stat --cgroup 'system.slice/a*' -o total
expect_out_has '"cgroup": "/system.slice/a\nb.service"' "and JSON escapes it"
run stat --cgroup "/system.slice/a
b.service" -o total
expect_out_has 'cgroup /system.slice/a\x0ab.service' "and the title over one cgroup's table"

# Interval mode: signed changes per node, per second with --rate, JSON lines.
fixture effect-6.1
start stat --cgroup nginx.service -r -o anon,total --totals 0.2
wait_for "$TMP/bg.out" "sample 1 at"
numa_stat /system.slice/nginx.service anon "N0=208666624 N1=9437184 N2=0 N3=0"
check "memory moving from node 0 to node 1 shows as -1M and +1M" \
	wait_for "$TMP/bg.out" "$(printf '0 -1M -1M\n1 +1M +1M')"
stop
expect_rc 130 "Ctrl-C ends it by SIGINT"
case "$OUT" in *"total since"*"0 -1M -1M"*"1 +1M +1M"*"TOTAL 0B 0B") ok "the totals: the change since the start" ;;
*) not_ok "the totals: the change since the start" "$OUT" ;; esac

fixture effect-6.1
run stat --cgroup 'system.slice/*' 0.01 1 -r --totals
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out 'sample 1 at T: changes over S s
CGROUP N0 N1 N2 N3 TOTAL
/system.slice/db.service 0B 0B 0B 0B 0B
/system.slice/we"ird\x5cname.service 0B 0B 0B 0B 0B
/system.slice/nginx.service 0B 0B 0B 0B 0B

total since T: changes over S s
CGROUP N0 N1 N2 N3 TOTAL
/system.slice/db.service 0B 0B 0B 0B 0B
/system.slice/we"ird\x5cname.service 0B 0B 0B 0B 0B
/system.slice/nginx.service 0B 0B 0B 0B 0B' "several, interval: each node's change, no MAIN or OFF% (a state, not a change)"
run -J stat --cgroup nginx.service --rate -o anon --nodes 1 0.01 1 --totals
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out '{"sample":1,"time":"T","seconds":S,"cgroups":[{"cgroup":"/system.slice/nginx.service","node":1,"anon":0.00}]}
{"since":"T","seconds":S,"cgroups":[{"cgroup":"/system.slice/nginx.service","node":1,"anon":0.00}]}' \
	"-J --rate: a line per sample, bytes per second"

# Not found, bad names.
fixture effect-6.1
run stat --cgroup nope.service
expect_rc 1 "a unit without a cgroup exits 1"
expect_err "numastatctl: stat: --cgroup nope.service: no such unit's cgroup (not /system.slice/nope.service, nor anywhere under /sys/fs/cgroup)" \
	"saying where it looked"
run stat --cgroup /system.slice/nope
expect_rc 1 "a path that is no cgroup exits 1"
expect_err "numastatctl: stat: --cgroup /system.slice/nope: no such cgroup (/sys/fs/cgroup/system.slice/nope)" "naming it"
run stat --cgroup 'nope*'
expect_rc 1 "a pattern that matches nothing exits 1"
expect_err "numastatctl: stat: --cgroup 'nope*': no cgroup matches" "saying so"
run stat --cgroup nginx.service --cgroup nope.service -n -r -o total
expect_rc 1 "one bad name among good ones exits 1"
expect_out "0 306.2M
1 12M
2 0B
3 0B
TOTAL 318.3M" "after showing the good ones"
for bad in ../etc /system.slice/../.. ./x ''; do
	run stat --cgroup "$bad"
	expect_rc 2 "--cgroup '$bad' is a usage error"
done
expect_err "numastatctl: stat: --cgroup '': expected a cgroup path, a unit or a pattern
Try 'numastatctl stat --help' for more information." "an empty name is refused in one line"
run stat --cgroup /system.slice/nginx.service/worker
expect_rc 1 "a cgroup without the memory controller exits 1"
expect_err "numastatctl: stat: /sys/fs/cgroup/system.slice/nginx.service/worker/memory.numa_stat: not present: the memory controller is not enabled for this cgroup (its parent's cgroup.subtree_control lacks memory)" \
	"saying what to enable"
run stat --cgroup '*' -n -r -o CGROUP
expect_rc 0 "a pattern passes over cgroups without memory accounting quietly"
expect_out_lacks "worker" "and leaves them out"
run stat --cgroup 'system.slice/*/worker'
expect_rc 1 "a pattern that matches only cgroups without memory accounting exits 1"
expect_err_has "no cgroup matched has memory.numa_stat" "saying so"
printf 'total=5 N0=5\n' >"$ROOT/$CG/init.scope/memory.numa_stat"
run stat --cgroup init.scope
expect_rc 1 "a v1-format file in the v2 tree exits 1"
expect_err_has "init.scope/memory.numa_stat: cgroup v1's format (total=..., in pages), not v2's" "saying so"
printf 'anon N0=5 N1=x\n' >"$ROOT/$CG/init.scope/memory.numa_stat"
run stat --cgroup init.scope
expect_rc 1 "a malformed file exits 1"
expect_err_has "init.scope/memory.numa_stat: line 1: expected N<node>=<value>" "with the line"
run stat --cgroup "/$(printf 'a%.0s' $(seq 5000))"
expect_rc 2 "a path longer than the kernel allows exits 2"
expect_err_has "Try 'numastatctl stat --help'" "a usage error, with the usual hint"
check "which shows the start of the argument, not all 5000 bytes" test "$(printf '%s' "$ERR" | head -n 1 | wc -c)" -lt 400
rm "$ROOT/$CG/init.scope/memory.numa_stat"
mkfifo "$ROOT/$CG/init.scope/memory.numa_stat"
run stat --cgroup init.scope
expect_rc 1 "a FIFO for memory.numa_stat in a dump exits 1, and does not hang"
expect_err_has "init.scope/memory.numa_stat: not a regular file" "saying so"
run stat --cgroup nginx.service --nodes 9
expect_rc 2 "--nodes naming an absent node exits 2"
run stat --cgroup nginx.service --pid 1
expect_rc 2 "--cgroup --pid exits 2"
run stat --cgroup nginx.service -o NODE,BOGUS
expect_rc 2 "an unknown -o column exits 2"
expect_err_has "-o: unknown column 'BOGUS' for --cgroup: NODE, ANON, FILE," "listing the columns"
run stat --cgroup nginx.service --sort anno
expect_err_has "--sort: unknown column 'anno' for --cgroup: did you mean ANON?" "or suggesting the closest"

# The hierarchy: v1 only, v2 without memory, none.
fixture effect-5.10
run stat --cgroup nginx.service
expect_rc 1 "cgroup v1 only exits 1"
expect_err "numastatctl: stat: --cgroup: the memory controller is on cgroup v1 (/sys/fs/cgroup/memory): the per-node memory of cgroups is read from cgroup v2 only (a kernel booted with systemd.unified_cgroup_hierarchy=1 has it)" \
	"in one line that says what would give it"
for args in "-J" "--prometheus" "--textfile $TMP" "0.01 2" "-J 0.01 2"; do
	# shellcheck disable=SC2086 # the arguments are words
	run stat --cgroup '*.service' $args
	expect_rc 1 "cgroup v1 only, $args: exits 1"
	expect_one_err_line "cgroup v1 only, $args: one line"
	expect_out "" "cgroup v1 only, $args: nothing on stdout (no document half written)"
done
fixture effect-6.18
run stat --cgroup nginx.service
expect_rc 1 "cgroup v2 without the memory controller exits 1"
expect_err "numastatctl: stat: --cgroup: cgroup v2 at /sys/fs/cgroup has no memory controller (its cgroup.controllers lacks memory)" \
	"in one line"
rm -r "${ROOT:?}/$CG"
run stat --cgroup /
expect_rc 1 "no cgroup hierarchy exits 1"
expect_err "numastatctl: stat: --cgroup: no cgroup v2 hierarchy at /sys/fs/cgroup or /sys/fs/cgroup/unified" \
	"in one line"

# The hybrid layout: v2 at /sys/fs/cgroup/unified, with memory there.
fixture effect-6.1
mkdir "$ROOT/$CG.v2"
mv "$ROOT/$CG"/* "$ROOT/$CG.v2/"
mv "$ROOT/$CG.v2" "$ROOT/$CG/unified"
run stat --cgroup /sys/fs/cgroup/unified/system.slice/nginx.service -n -r -o total
expect_out "0 306.2M
1 12M
2 0B
3 0B
TOTAL 318.3M" "the hybrid layout: v2 under /sys/fs/cgroup/unified"

# No column is left out at many nodes: 40 nodes, three services.
"$FIXTURES/gen-nodes.sh" "$TMP/n40" 40 >/dev/null
"$FIXTURES/gen-effect.sh" "$TMP/n40" 3 >/dev/null
ROOT=$TMP/n40
want="CGROUP $(seq -f 'N%g' 0 39 | paste -sd' ') TOTAL MAIN OFF%"
run stat --cgroup '*.service' -r
expect_rc 0 "several cgroups on 40 nodes exit 0"
check "a column for each of the 40 nodes, then TOTAL, MAIN and OFF%" \
	test "$(printf '%s\n' "$OUT" | head -1)" = "$want"
run stat --cgroup '*.service' -w 80
check "folded to 80 columns, every line fits" \
	test "$(printf '%s\n' "$OUT" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le 80
check "and the sections hold every column, CGROUP first in each" \
	test "$(printf '%s\n' "$OUT" | awk '$1 == "CGROUP" { for (i = 2; i <= NF; i++) printf "%s ", $i } END { print "" }')" = "${want#CGROUP } "
run stat --cgroup '*.service' 0.01 1 -r
check "interval samples: N0 to N39 and TOTAL" \
	test "$(printf '%s\n' "$OUT" | sed -n '2p')" = "CGROUP $(seq -f 'N%g' 0 39 | paste -sd' ') TOTAL"

# Prometheus at scale: at most 20000 series of the two cgroup families.  60
# services on 40 nodes with 9 items each are 360 series a cgroup: the 55
# largest fit, 5 are left out, counted in a series and said on stderr.
"$FIXTURES/gen-nodes.sh" "$TMP/n40c60" 40 >/dev/null
"$FIXTURES/gen-effect.sh" "$TMP/n40c60" 60 >/dev/null
ROOT=$TMP/n40c60
series() { grep -c '^numastatctl_cgroup_memory_\(bytes\|events_total\){' <<<"$OUT"; }
run stat --cgroup '*.service' -b -n -r -o CGROUP,TOTAL --sort TOTAL
by_size=$(awk '{ print $1 }' <<<"$OUT")
run stat --cgroup '*.service' --prometheus
expect_rc 0 "a pattern past the series cap exits 0"
check "19800 series: the 55 cgroups that fit in 20000, 360 each" test "$(series)" = 19800
check "the 55 largest are in" test "$(grep -o '^numastatctl_cgroup_memory_bytes{cgroup="[^"]*"' <<<"$OUT" |
	sed 's/.*cgroup="//; s/"$//' | sort -u)" = "$(head -55 <<<"$by_size" | sort)"
expect_out_has "# TYPE numastatctl_cgroups_left_out gauge
numastatctl_cgroups_left_out 5" "the 5 left out are counted in a series"
expect_err "numastatctl: stat: warning: --cgroup: Prometheus series for 55 of the 60 cgroups (the ones named, then the largest, up to 20000 series): 5 left out" \
	"and said in one line"
if have promtool prometheus; then
	printf '%s\n' "$OUT" >"$TMP/cap.prom"
	check "promtool check metrics passes on the capped scrape" promtool check metrics <"$TMP/cap.prom"
fi
smallest=$(tail -1 <<<"$by_size")
run stat --cgroup "${smallest#/system.slice/}" --cgroup '*.service' --prometheus
check "a cgroup named by its unit keeps its series, however small" \
	grep -q "^numastatctl_cgroup_memory_bytes{cgroup=\"$smallest\"" <<<"$OUT"
check "and counts against the cap: 54 others fit" test "$(series)" = 19800
expect_out_has "numastatctl_cgroups_left_out 5" "5 left out, the named one not among them"
args=()
for i in $(seq 1 60); do args+=(--cgroup "svc$i.service"); done
run stat "${args[@]}" --cgroup '*.service' --prometheus
check "60 cgroups named are held to the cap too: 55 fit" test "$(series)" = 19800
expect_out_has "numastatctl_cgroups_left_out 5" "the named past the cap left out, and counted"
expect_out_has 'numastatctl_cgroup_memory_bytes{cgroup="/system.slice/svc1.service"' \
	"the named in the order given: the first is in"
expect_out_lacks 'numastatctl_cgroup_memory_bytes{cgroup="/system.slice/svc60.service"' "the last is not"
# Escaping is not one-to-one: the byte ESC and the text \x1b are written alike.
cp -r "$ROOT/sys/fs/cgroup/system.slice/svc1.service" "$ROOT/sys/fs/cgroup/system.slice/$(printf 'e\033.service')"
cp -r "$ROOT/sys/fs/cgroup/system.slice/svc1.service" "$ROOT/sys/fs/cgroup/system.slice/e\x1b.service"
run stat --cgroup 'e*.service' --prometheus --nodes 0
check "two cgroups whose paths are written alike: one set of series" \
	test "$(grep -c '^numastatctl_cgroup_memory_bytes{cgroup="/system.slice/e' <<<"$OUT")" = 8
expect_out_has "numastatctl_cgroups_left_out 1" "the other left out, and counted"
expect_err_has "1 cgroup left out of the Prometheus text: its path would be written as another's is" "and said"
rm -r "$ROOT/sys/fs/cgroup/system.slice/e"*
run stat --cgroup '*.service' --prometheus --nodes 0-19
check "--nodes: 180 series a cgroup, all 60 fit" test "$(series)" = 10800
expect_out_has "numastatctl_cgroups_left_out 0" "none left out"
expect_err "" "and nothing said"
mkdir "$TMP/tfcap"
run stat --cgroup '*.service' --textfile "$TMP/tfcap"
check "--textfile holds the same cap" grep -qx 'numastatctl_cgroups_left_out 5' "$TMP/tfcap/numastatctl-cgroup.prom"
run stat --cgroup '*.service' -J
check "-J is not capped: all 60 cgroups on 40 nodes" \
	test "$(python3 -c 'import json, sys; print(len(json.load(sys.stdin)["cgroups"]))' <<<"$OUT")" = 2400

# -J of many cgroups is printed a part at a time (4096 rows, whole
# cgroups): 120 services on 40 nodes are two parts, one document.
"$FIXTURES/gen-nodes.sh" "$TMP/n40c120" 40 >/dev/null
"$FIXTURES/gen-effect.sh" "$TMP/n40c120" 120 >/dev/null
ROOT=$TMP/n40c120
run stat --cgroup '*.service' -J
expect_rc 0 "-J of 4800 rows exits 0"
check "one document: 4800 rows, each cgroup's 40 together, largest share off the main node first" \
	python3 -c '
import json, sys
rows = json.load(sys.stdin)["cgroups"]
assert len(rows) == 4800, len(rows)
names = [r["cgroup"] for r in rows]
assert all(len(set(names[i:i + 40])) == 1 for i in range(0, 4800, 40)), "a cgroup split"
assert len(set(names)) == 120
off = [rows[i]["off_main_pct"] for i in range(0, 4800, 40)]
assert off == sorted(off, reverse=True), off
' <<<"$OUT"
run stat --cgroup '*.service' -J -o NODE,TOTAL
check "the same rows with -o" test "$(python3 -c 'import json, sys; print(len(json.load(sys.stdin)["cgroups"]))' <<<"$OUT")" = 4800
run stat --cgroup '*.service' -J 0.01 2 --totals
check "interval -J: a document per line, each of 4800 rows, and the totals" python3 -c '
import json, sys
lines = sys.stdin.read().splitlines()
assert len(lines) == 3, len(lines)
for l in lines:
    assert len(json.loads(l)["cgroups"]) == 4800
' <<<"$OUT"

# A list of what -o takes that is too long for a message says how much is left.
"$FIXTURES/gen-nodes.sh" "$TMP/n300" 300 >/dev/null
"$FIXTURES/gen-effect.sh" "$TMP/n300" 2 >/dev/null
ROOT=$TMP/n300
run stat --cgroup '*.service' -o QQQQQQQ
expect_rc 2 "an unknown column at 300 nodes exits 2"
check "the columns named plus the ones counted are all 304 (CGROUP, N0-N299, TOTAL, MAIN, OFF%)" \
	test "$(sed -n '1s/.*for --cgroup: //p' <<<"$ERR" | awk -F', ' '{ n = NF; if (match($NF, / and [0-9]+ more$/)) n += substr($NF, RSTART + 5) + 0 } END { print n }')" = 304

done_testing
