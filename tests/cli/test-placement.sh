#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement: the verdict for processes (mixed policies and kinds, a cpuset
# narrowed after allocation), cgroups with and without a cpuset, one
# memory tier, --check, JSON, Prometheus; hostile input: vanished
# processes and cgroups, control characters, a broken numa_maps.
. "$(dirname "$0")/lib.sh"

# pfixture CASE: a fresh root built by gen-placement.sh.
pfixture() { gen_fixture gen-placement.sh "$@"; }

pfixture procs
run placement --pid 100
expect_rc 0 "a process by its PID"
expect_out "process 100 (postgres)
  runs on: CPUs 0-1, node 0
  memory may go to: nodes 0-3 (Mems_allowed_list)
  policy default: 6 mappings, 19.4M
  policy bind:1: 1 mapping, 3M
  policy weighted interleave:0,3: 1 mapping, 2M
 NODE WHERE   ANON FILE SHMEM HUGE TOTAL OFF-POLICY
    0 local   5.2M 224K    0B   8M 13.4M         0B
    1 remote    5M   1M    0B   0B    6M         0B
    2 remote    0B   0B    4M   0B    4M         0B
    3 remote    1M   0B    0B   0B    1M         0B
TOTAL        11.2M 1.2M    4M   8M 24.4M         0B
  local                    12.4M   50.8%
  as its policy asks          5M   20.5%  on the nodes its policy names
  remote anonymous            2M    8.2%  actionable
    move it now: numastatctl placement --pid 100 --move
      (its private pages only; --dry-run shows the moves)
    start it local: numactl --cpunodebind=0 --membind=0 COMMAND
      (mappings with a policy of their own keep it)
    or let the kernel move it: sysctl -w kernel.numa_balancing=1 (off now)
  remote file and shared      5M   20.5%  expected: where first read
  off-policy                  0B    0.0%
  on the fast tier         23.4M   95.9%" \
	"mixed policies and kinds: the bound and weighted pages as their policy asks; remote anonymous apart from remote file and shared, moved by numastatctl's own plan; no migratepages from node 1, where it would take the bound pages too"
expect_err "" "nothing on stderr"
long=$(awk 'length > 80' <<<"$OUT")
check "every line fits 80 columns" test -z "$long"

run placement --pid 200
expect_out_has "  remote file and shared     16M   93.8%  expected: where first read" \
	"page cache read on another node is remote file memory, expected"
expect_out_has "  remote anonymous            0B    0.0%" "and not remote anonymous"
expect_out_lacks "migratepages" "nothing to fix"

run placement --pid 300
expect_out_has "  memory may go to: node 0 (Mems_allowed_list)" "the narrowed cpuset"
expect_out_has "    1 remote   3M 128K    0B   0B  3.1M         3M" \
	"the anonymous pages on node 1 are off-policy, the file pages are not"
expect_out_has "  remote anonymous            0B    0.0%
  remote file and shared    128K    2.4%  expected: where first read
  off-policy                  3M   58.5%  actionable
    on node 1: its policy or cpuset does not allow it
    move it now: numastatctl placement --pid 300 --move
      (its private pages only; --dry-run shows the moves)" \
	"off-policy memory is not also remote anonymous, and actionable; numastatctl's own move, no migratepages, which would take node 1's page cache too"

run placement --pid 300 --check
expect_rc 3 "--check: off-policy memory is actionable, and --check counts it as the text says"
run placement --pid 100 --check
expect_rc 0 "--check: 8.2% remote anonymous is not above the default 10%"
run placement --pid 100 --max-remote-anon 8.3
expect_rc 0 "--max-remote-anon 8.3: 8.20% is not above"
run placement --pid 100 --max-remote-anon 8.2
expect_rc 3 "--max-remote-anon 8.2: above"
expect_out_has "8.2%  actionable, over --max-remote-anon" "the verdict says so"
run placement --pid 200 --check
expect_rc 0 "--check: remote page cache does not count"

run placement --pid postgres --pid reader -J --max-remote-anon 5
expect_rc 3 "patterns, JSON and --check"
expect_json "JSON: the verdict of each process, its nodes, in bytes" '
t = {x["pid"]: x for x in doc["targets"]}
if sorted(t) != [100, 200]: print("targets", sorted(t)); sys.exit()
p = t[100]
want = {"target": "process", "command": "postgres", "cgroup": None, "cpuset": None,
        "cpus": [0, 1], "cpu_nodes": [0], "mem_nodes": [0, 1, 2, 3],
        "policies": ["default", "bind:1", "weighted interleave:0,3"], "mappings": 8,
        "total": 25563136, "local": 12980224, "as_policy": 5242880, "demoted": 0,
        "remote_anon": 2097152, "remote_file": 5242880, "off_policy": 0, "unknown": 0,
        "fast_tier": 24514560, "remote_anon_pct": 8.2, "over": True,
        "fixes": ["numastatctl placement --pid 100 --move",
                  "numactl --cpunodebind=0 --membind=0 COMMAND",
                  "sysctl -w kernel.numa_balancing=1"],
        "actionable": 2097152, "actionable_pct": 8.2, "planned": 2097152, "unplanned": 0}
for k, v in want.items():
    if p[k] != v: print(k, p[k], "!=", v)
classes = ["local", "as_policy", "demoted", "remote_anon", "remote_file", "off_policy", "unknown"]
if sum(p[c] for c in classes) != p["total"]: print("the classes do not sum to the total")
act = [c["class"] for c in doc["classes"] if c["actionable"]]
if act != ["remote_anon", "off_policy"]: print("actionable classes", act)
if p["actionable"] != sum(p[c] for c in act): print("actionable is not their sum")
if t[200]["over"] is not False: print("200 over")
n = [x for x in doc["nodes"] if x["pid"] == 100]
if [x["node"] for x in n] != [0, 1, 2, 3]: print("nodes", n)
if sum(x["total"] for x in n) != p["total"]: print("node totals")
if [x["local"] for x in n] != [True, False, False, False]: print("local flags")
if n[3]["anon"] != 1048576 or n[2]["shmem"] != 4194304 or n[0]["huge"] != 8388608: print("kinds", n)
'

# Cgroups: db.service has a cpuset narrowed to node 1 after it filled node
# 0; web.service has none of its own (the root's holds it).
run placement --cgroup db.service
expect_rc 0 "a unit"
expect_out "cgroup /system.slice/db.service
  runs on: CPUs 2-3, node 1
  memory may go to: node 1 (cpuset.mems.effective)
 NODE WHERE  ANON FILE SHMEM HUGE TOTAL OFF-POLICY
    0 remote  64M 100M    0B   0B  164M        64M
    1 local  192M   8M    0B   0B  200M         0B
    2 remote   0B   0B    0B   0B    0B         0B
    3 remote   0B   0B    0B   0B    0B         0B
TOTAL        256M 108M    0B   0B  364M        64M
  local                     200M   54.9%
  remote anonymous            0B    0.0%
  remote file and shared    100M   27.5%  expected: where first read
  off-policy                 64M   17.6%  actionable
    on node 0: its cpuset does not allow it
  on the fast tier          364M  100.0%" \
	"a cgroup: memory.numa_stat by kind, its cpuset's CPUs and nodes, off-policy after the cpuset was narrowed"
run placement --cgroup api.service --check
expect_rc 3 "a unit whose anonymous memory is on a node without its CPUs: --check"
expect_out_has "  remote anonymous           32M   66.7%  actionable, over --max-remote-anon
    keep it local: systemctl set-property api.service AllowedMemoryNodes=0
      (cgroup v2 moves its memory onto the new cpuset.mems)
    or let the kernel move it: sysctl -w kernel.numa_balancing=1 (off now)" \
	"the unit's fix is a systemctl command"
run placement --cgroup /system.slice/web.service
expect_out_has "  runs on: CPUs 0-5 (the cpuset of /), nodes 0-2" "a cgroup without a cpuset of its own: the nearest ancestor's"
expect_out_has "    3 remote   0B   4M    0B   0B    4M         0B" "file is file less shmem; the memory-only node is remote"
run placement --cgroup 'system.slice/*' -J
expect_json "JSON: cgroups, the weird name whole" '
c = {x["cgroup"]: x for x in doc["targets"]}
if sorted(c) != ["/system.slice/api.service", "/system.slice/db.service", "/system.slice/we\nird", "/system.slice/web.service"]: print(sorted(c))
if c["/system.slice/db.service"]["cpuset"] != "/system.slice/db.service": print("cpuset db")
if c["/system.slice/web.service"]["cpuset"] != "/": print("cpuset web")
if c["/system.slice/db.service"]["off_policy"] != 67108864: print("off_policy")
if c["/system.slice/db.service"]["pid"] is not None or c["/system.slice/db.service"]["mappings"] is not None: print("nulls")
'
run placement --cgroup '*ird'
expect_out_has 'cgroup /system.slice/we\x0aird' "a newline in a cgroup name is escaped"

pfixture nocpuset
run placement --cgroup db.service -J
expect_json "no cpuset controller: every CPU node is local, nothing is off-policy" '
t = doc["targets"][0]
if t["cpuset"] is not None or t["cpus"] != [] or t["mem_nodes"] != []: print("cpuset", t)
if t["cpu_nodes"] != [0, 1, 2] or t["off_policy"] != 0 or t["remote_anon"] != 0: print(t)
'
run placement --cgroup db.service
expect_out_has "  runs on: every CPU (no cpuset), nodes 0-2
  memory may go to: any node (no cpuset)" "and the text says so"

pfixture onetier
run placement --pid 100
expect_out_lacks "fast tier" "one memory tier: no fast share"
run placement --pid 100 -J
expect_json "fast_tier is null with one tier" 'if doc["targets"][0]["fast_tier"] is not None: print(doc["targets"][0]["fast_tier"])'

# Hostile input.
pfixture procs
run placement --pid 100 --pid 999
expect_rc 1 "a PID that does not exist fails the run"
expect_err "numastatctl: placement: process 999: gone (no /proc/999)" "and says so in one line"
expect_out_has "process 100 (postgres)" "after printing the others"
run placement --pid 4194305
expect_rc 1 "a number above PID_MAX_LIMIT"
expect_err "numastatctl: placement: --pid '4194305': not a process id (at most 4194304)" "is no process id"
run placement --pid nosuchname
expect_rc 1 "a pattern that matches nothing"
expect_err "numastatctl: placement: --pid 'nosuchname': no process matches (by name; 'cmdline:PATTERN' looks in the command lines)" "says so"

# 600 matches the pattern, its status is there, its numa_maps is not: that
# is no process that went (one gone has no status either), it is an error.
mkdir -p "$ROOT/proc/600"
printf 'Name:\tpostgres\nCpus_allowed_list:\t0\n' >"$ROOT/proc/600/status"
printf 'postgres\0' >"$ROOT/proc/600/cmdline"
run placement --pid postgres
expect_rc 1 "a process a pattern found without a numa_maps beside its status fails the run"
expect_err "numastatctl: placement: process 600: /proc/600/numa_maps: not present (a kernel without NUMA?)" \
	"saying so, not that it is gone"
expect_out_has "process 100 (postgres)" "the others are printed"
run placement --pid 600
expect_rc 1 "named by its PID"
expect_err "numastatctl: placement: process 600: /proc/600/numa_maps: not present (a kernel without NUMA?)" "the same"
mkdir -p "$ROOT/proc/601"
printf 'Name:\tlonely\nCpus_allowed_list:\t0\n' >"$ROOT/proc/601/status"
printf 'lonely\0' >"$ROOT/proc/601/cmdline"
run placement --pid lonely
expect_rc 1 "a pattern matching only processes whose numa_maps cannot be read is no silent success"
rm -r "$ROOT/proc/600" "$ROOT/proc/601"

run placement --pid kworker
expect_rc 0 "a kernel thread found by a pattern"
check "is left out (no mappings)" test -z "$OUT"
run placement --pid evil
expect_out_has 'process 500 (evil\x1b[2Jname)' "control characters in a process name are escaped"
run placement --pid 500 -J
expect_json "JSON keeps the name whole" 'if doc["targets"][0]["command"] != "evil\x1b[2Jname": print(doc["targets"][0]["command"])'

printf '7f00 default N0=1 kernelpagesize_kB=4\n7f01 sometimes N0=1\n' >"$ROOT/proc/200/numa_maps"
run placement --pid 200 --pid 100
expect_rc 1 "a broken numa_maps fails the run"
expect_err "numastatctl: placement: process 200: /proc/200/numa_maps: line 2: unknown policy 'sometimes'" \
	"naming the line and the problem"
expect_out_has "process 100" "the others are printed"
printf 'Name:\tx\n' >"$ROOT/proc/200/status"
run placement --pid 200
expect_err "numastatctl: placement: process 200: /proc/200/status: no Cpus_allowed_list" "a status without Cpus_allowed_list"

sed -i '/Mems_allowed/d' "$ROOT/proc/100/status"
run placement --pid 100
expect_out_has "  memory may go to: any node (no cpuset)" "a kernel without cpusets has no Mems_allowed_list"

rm "$ROOT/sys/fs/cgroup/system.slice/web.service/memory.numa_stat"
run placement --cgroup web.service --cgroup db.service
expect_rc 1 "a named cgroup without memory.numa_stat"
expect_err_has "/sys/fs/cgroup/system.slice/web.service/memory.numa_stat: not present: gone, or the memory controller is not enabled" "says what it may mean"
expect_out_has "cgroup /system.slice/db.service" "the others are printed"
run placement --cgroup '/system.slice/w*'
expect_rc 0 "a pattern leaves out the groups without memory accounting"
rm -r "$ROOT/sys/fs/cgroup/system.slice/db.service"
run placement --cgroup db.service
expect_rc 1 "a removed unit"
expect_err "numastatctl: placement: --cgroup db.service: no such unit's cgroup (not /system.slice/db.service, nor anywhere under /sys/fs/cgroup)" \
	"is not found"

# Usage errors: nothing read.
for args in "" "--check" "--pid 1 stray" "--pid 1 --max-remote-anon 101" "--pid 1 --max-remote-anon -1" \
	"--pid 1 --max-remote-anon nan" "--pid 1 --max-remote-anon ''" "--pid 1 --prometheus -J" "--cgroup ''" \
	"--pid ''" "--pid 1 --pid ''"; do
	eval "run placement $args"
	expect_rc 2 "usage error: placement $args"
done
run placement --pid 1 --max-remote-anon abc
expect_err "numastatctl: placement: --max-remote-anon 'abc': expected a percentage from 0 to 100
Try 'numastatctl placement --help' for more information." "a bad percentage names what is allowed"

# Prometheus: a set of series per cgroup and per --pid argument, never per PID.
pfixture procs
run placement --pid cmdline:r --pid 100 --cgroup db.service --prometheus
expect_rc 0 "--prometheus"
expect_out_has 'numastatctl_placement_bytes{process="cmdline:r",class="remote_file"} 22151168' \
	"the processes a pattern matched are summed under the argument"
expect_out_has 'numastatctl_placement_fast_tier_bytes{process="cmdline:r"} 47845376' \
	"the fast tier in a family of its own, since it overlaps the classes"
sums=$(awk -F'[{}]' '/^numastatctl_placement_bytes\{/ { split($2, l, ",class="); t[l[1]] += $3 }
	END { for (k in t) print k, t[k] }' <<<"$OUT" | sort)
check "sum() over the classes is each target's total" test "$sums" = 'cgroup="/system.slice/db.service" 381681664
process="100" 25563136
process="cmdline:r" 48893952'
expect_out_lacks 'class="fast_tier"' "and not a class"
expect_out_has 'numastatctl_placement_processes{process="cmdline:r"} 4' "and counted"
expect_out_has 'numastatctl_placement_bytes{cgroup="/system.slice/db.service",class="off_policy"} 67108864' "a cgroup's verdict"
expect_out_lacks 'pid=' "no PID label"
dups=$(grep -v '^#' <<<"$OUT" | sed 's/ [0-9]*$//' | sort | uniq -d)
check "no series twice (the node series of a pattern's processes are summed)" test -z "$dups"
n1=$(grep -c '^numastatctl' <<<"$OUT")
mkdir -p "$ROOT/proc/700"
cp "$ROOT/proc/200/status" "$ROOT/proc/200/numa_maps" "$ROOT/proc/700/"
printf 'reader\0' >"$ROOT/proc/700/cmdline"
run placement --pid cmdline:r --pid 100 --cgroup db.service --prometheus
n2=$(grep -c '^numastatctl' <<<"$OUT")
check "one more matching process adds no series ($n1, $n2)" test "$n1" = "$n2"
run placement --pid 100 --pid 100 --cgroup db.service --cgroup /system.slice/db.service --prometheus
dups=$(grep -v '^#' <<<"$OUT" | sed 's/ [0-9]*$//' | sort | uniq -d)
check "a --pid or a cgroup given twice has its series once" test -z "$dups"
expect_out_has 'numastatctl_placement_processes{process="100"} 1' "the one target's"
if have promtool prometheus; then
	printf '%s\n' "$OUT" >"$TMP/placement.prom"
	check "promtool check metrics finds nothing" promtool check metrics <"$TMP/placement.prom"
fi
mkdir "$TMP/tf"
run placement --cgroup db.service --textfile "$TMP/tf"
expect_rc 0 "--textfile"
check "writes numastatctl-placement.prom" grep -q '^numastatctl_placement_bytes{cgroup="/system.slice/db.service",class="local"} 209715200$' "$TMP/tf/numastatctl-placement.prom"
check "and prints nothing" test -z "$OUT"

# Many cgroups on many nodes: the series stay bounded, as stat --cgroup's.
FIXTURE_N=$((FIXTURE_N + 1))
ROOT=$TMP/root.$FIXTURE_N
"$FIXTURES/gen-nodes.sh" "$ROOT" 64 >/dev/null && "$FIXTURES/gen-effect.sh" "$ROOT" 200 >/dev/null ||
	{ echo "Bail out! gen-effect.sh failed"; exit 1; }
run placement --cgroup svc7.service --cgroup '*.service' --prometheus
expect_rc 0 "200 services on 64 nodes"
expect_err "numastatctl: placement: warning: --prometheus: 125 targets left out, to stay within 20000 series (numastatctl_placement_cgroups_left_out)" \
	"the cgroups past the bound are said"
expect_out_has "numastatctl_placement_cgroups_left_out 125" "and counted"
n=$(grep -c '^numastatctl_placement_\(node_\)\?bytes{cgroup=' <<<"$OUT")
check "at most 20000 cgroup series ($n)" test "$n" -le 20000
expect_out_has 'numastatctl_placement_bytes{cgroup="/system.slice/svc7.service",class="local"}' "a unit named on its own is always in"

# Intent: what a policy or the kernel's demotion put somewhere is not to be
# fixed; a printed command moves what it says (migrate_pages(2) pairs the
# nodes by position: "migratepages P 0 0-2" moves nothing).
pfixture intent
run placement --pid 1100 --check
expect_rc 3 "bind without a move: off-policy, actionable, what --check counts"
expect_out_has "  off-policy                  8M   88.9%  actionable, over --max-remote-anon
    on node 0: its policy or cpuset does not allow it
    move it now: numastatctl placement --pid 1100 --move
      (its private pages only; --dry-run shows the moves)" \
	"pages on node 0 under bind:1: numastatctl's own move, page by page"
expect_out_lacks "0-2" "never a destination list that holds the source"
run placement --pid 1200 --check
expect_rc 0 "interleave and weighted interleave where they ask: --check passes"
expect_out_has "  as its policy asks         16M   94.1%  on the nodes its policy names
  remote anonymous            0B    0.0%" "as its policy asks, not remote anonymous"
expect_out_lacks "migratepages" "no move that would undo the interleave"
expect_out_lacks "numactl" "no numactl that would replace it"
expect_out_lacks "NUMA balancing" "nothing about balancing, which never moves interleaved pages"
expect_out_lacks "off the weights" "its weighted mapping holds 3:1, as the weights 3:1 ask"
run placement --pid 1500 --check
expect_rc 0 "weighted interleave off the weights' shares: still as its policy asks"
expect_out_has "  as its policy asks          4M  100.0%  on the nodes its policy names
    1 weighted interleave mapping off the weights' shares:
    numastatctl stat --pid 1500 --interleave" "said apart, with the view that shows the shares"
run placement --pid 1300 --check
expect_rc 0 "cold pages demoted to the slow tier: --check passes"
expect_out_has "  demoted                    87M   70.7%  to a slower tier by reclaim
  remote anonymous            0B    0.0%
  remote file and shared      0B    0.0%
  off-policy                  0B    0.0%" "bind:0 pages on node 3 are demoted, not off-policy"
expect_out_lacks "migratepages" "and not moved back onto the fast node"
run placement --pid 1400 --check
expect_rc 0 "a private file mapping's copied pages: --check passes"
expect_out_has "  remote anonymous            0B    0.0%" "no phantom remote anonymous"
expect_out_has "  unknown                     4K    0.9%  estimated: copied pages of file mappings" \
	"the one copied page whose node numa_maps does not give is an estimate"
expect_out_has "  local                     460K   99.1%" \
	"copied pages of a mapping wholly on node 0 are local, exactly"
run placement --pid 1100 --pid 1200 --pid 1300 --pid 1400 -J
expect_json "JSON: the classes of each process, and its fixes" '
t = {x["pid"]: x for x in doc["targets"]}
classes = ["local", "as_policy", "demoted", "remote_anon", "remote_file", "off_policy", "unknown"]
for pid, x in t.items():
    if sum(x[c] for c in classes) != x["total"]: print(pid, "classes do not sum to total")
if t[1100]["off_policy"] != 8388608 or t[1100]["fixes"] != ["numastatctl placement --pid 1100 --move"]: print(1100, t[1100])
if t[1200]["as_policy"] != 16777216 or t[1200]["fixes"] != []: print(1200, t[1200])
if t[1300]["demoted"] != 91226112 or t[1300]["off_policy"] != 0: print(1300, t[1300])
if t[1400]["unknown"] != 4096 or t[1400]["remote_anon"] != 0: print(1400, t[1400])
if t[1200]["weights_off"] != 0: print("weights_off", t[1200]["weights_off"])
'
printf 'pgdemote_kswapd 0\npgdemote_direct 0\npgdemote_khugepaged 0\n' >"$ROOT/proc/vmstat"
run placement --pid 1300 --check
expect_out_has "  off-policy                 86M   69.9%  actionable, over --max-remote-anon" \
	"demotion_enabled true but no pgdemote_* counted: bind:0 pages on node 3 are off-policy, not demoted"
expect_rc 3 "and --check counts them"
mkdir -p "$ROOT/sys/devices/system/node/node0"
for n in 0 1 2 3; do
	printf 'pgdemote_kswapd %d\npgdemote_direct 0\npgdemote_khugepaged 0\n' $((n == 0 ? 22272 : 0)) \
		>"$ROOT/sys/devices/system/node/node$n/vmstat"
done
run placement --pid 1300 --check
expect_rc 0 "per-node counters: node 0 demoted, so node 3's pages are demoted"
expect_out_has "  demoted                    87M   70.7%  to a slower tier by reclaim" \
	"counted on the fast node it left, as 6.9 and later count them"

# The plan: a process is local wherever any of its threads may run.
pfixture procs
mkdir -p "$ROOT/proc/100/task/100" "$ROOT/proc/100/task/101"
cp "$ROOT/proc/100/status" "$ROOT/proc/100/task/100/status"
sed 's/^Cpus_allowed_list:.*/Cpus_allowed_list:\t2-3/' "$ROOT/proc/100/status" >"$ROOT/proc/100/task/101/status"
run placement --pid 100 --check
expect_rc 0 "a worker thread on node 1: its memory there is local, nothing is remote"
expect_out_has "  runs on: CPUs 0-3 (2 threads), nodes 0-1" "every thread's CPUs, and their nodes"
expect_out_has "  remote anonymous            0B    0.0%" "node 1's heap is the worker's"
sed -i 's/^Cpus_allowed_list:.*/Cpus_allowed_list:\t4-5/' "$ROOT/proc/100/task/101/status"
run placement --pid 100 --move --dry-run
expect_rc 0 "--move --dry-run on a fixture: the plan, nothing done"
expect_out "plan: 512 pages (2M) to move
  process 100: node 1 -> node 2, 512 pages (2M, remote anonymous)
dry run: nothing moved" "a worker on node 2: node 1's heap goes to node 2, the nearer of its nodes (20 against 21)"
run placement --pid 100 --move --dry-run -J
expect_json "--move --dry-run -J: the plan's moves, nothing done" '
m = doc["moves"]
if [(x["pid"], x["from"], x["to"], x["class"], x["pages"], x["bytes"]) for x in m] != [(100, 1, 2, "remote_anon", 512, 2097152)]: print(m)
if any(x["moved"] or x["done"] for x in m): print(m)
'

# A CPU on a memoryless node: its nearest memory node is its local memory.
pfixture procs
printf '0-1,3\n' >"$ROOT/sys/devices/system/node/has_memory"
sed -i 's/^Cpus_allowed_list:.*/Cpus_allowed_list:\t4-5/' "$ROOT/proc/200/status"
run placement --pid 200 -J
expect_json "CPUs only on memoryless node 2: node 1, the nearest (20), is its local memory" '
t = doc["targets"][0]
if t["cpu_nodes"] != [2]: print("cpu_nodes", t["cpu_nodes"])
n = {x["node"]: x["local"] for x in doc["nodes"]}
if n != {0: False, 1: True}: print(n)
if t["remote_anon"] != 0: print("remote_anon", t["remote_anon"])
'
run placement --pid 200
expect_out_has "  local memory: node 1 (nearest to memoryless node 2)" "said in one line"

# --move: what it takes and refuses.
run placement --pid 100 --dry-run
expect_rc 2 "--dry-run alone"
expect_err "numastatctl: placement: --dry-run: it shows what --move would do; add --move
Try 'numastatctl placement --help' for more information." "says to add --move"
run placement --pid 100 --move --check
expect_rc 2 "--move with --check"
run placement --pid 100 --move
expect_rc 2 "--move on a --sysroot tree: it moves live processes only"
expect_err_has "placement --move runs on the live system only" "said"

# A cgroup's processes: their own policy decides (podman run ... numactl --preferred=1).
pfixture procs
printf '4242\n' >"$ROOT/sys/fs/cgroup/system.slice/api.service/cgroup.procs"
mkdir -p "$ROOT/proc/4242"
printf 'Name:\tapi\nCpus_allowed_list:\t0-1\nMems_allowed_list:\t0-3\n' >"$ROOT/proc/4242/status"
printf 'api\0' >"$ROOT/proc/4242/cmdline"
printf '7f0000000000 prefer:1 anon=8192 dirty=8192 N1=8192 kernelpagesize_kB=4\n' >"$ROOT/proc/4242/numa_maps"
run placement --cgroup api.service --check
expect_rc 0 "its process asked for node 1 (prefer:1): as its policy asks, --check passes"
expect_out_has "  as its policy asks         32M   66.7%" "memory.numa_stat's 32M on node 1 split as the mapping says"
expect_out_lacks "systemctl\|--move" "no command that would move it against its policy"
printf '7f0000000000 default anon=8192 dirty=8192 N1=8192 kernelpagesize_kB=4\n' >"$ROOT/proc/4242/numa_maps"
run placement --cgroup api.service --check
expect_rc 3 "the same pages without a policy: remote anonymous"
expect_out_has "    move it now: numastatctl placement --cgroup /system.slice/api.service --move" \
	"moved by numastatctl, the cgroup named as the command line can name it again"
run placement --cgroup api.service --move --dry-run
expect_out "plan: 8192 pages (32M) to move
  process 4242: node 1 -> node 0, 8192 pages (32M, remote anonymous)
dry run: nothing moved" "a cgroup's plan is its processes' moves"

# A dump's memory.numa_stat whose sizes add up past 64 bits: no wrapped
# TOTAL that --check would pass, an error naming the file.
pfixture procs
sed -i 's/^anon N0=67108864 /anon N0=18446744073709551615 /' \
	"$ROOT/sys/fs/cgroup/system.slice/db.service/memory.numa_stat"
run placement --cgroup db.service --check
expect_rc 1 "sizes past 64 bits fail the target, --check or not"
expect_err "numastatctl: placement: /sys/fs/cgroup/system.slice/db.service/memory.numa_stat: the sizes add up past 64 bits" \
	"in one line naming the file"
expect_out_lacks "TOTAL" "and no table of wrapped sums"
sed -i 's/^anon N0=18446744073709551615 N1=201326592/anon N0=18446744073709551615 N1=0/' \
	"$ROOT/sys/fs/cgroup/system.slice/db.service/memory.numa_stat"
run placement --cgroup db.service --check
expect_rc 1 "a node's kinds that add up past 64 bits alone fail it too"

# Many mappings: the sums hold (bench/results.md has the time and memory).
pfixture many 3000
run placement --pid 900 -J
expect_json "3000 mappings summed" '
t = doc["targets"][0]
if t["mappings"] != 3000: print("mappings", t["mappings"])
if t["total"] != 1000 * (3 + 5 + 2) * 4096: print("total", t["total"])
if t["off_policy"] != 0: print("off_policy")
if t["policies"] != ["default", "bind:1"]: print(t["policies"])
'

done_testing
