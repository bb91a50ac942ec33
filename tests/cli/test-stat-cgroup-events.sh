#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --cgroup: the cgroup's NUMA balancing and tiering events from its
# memory.stat (6.12+: numa_pte_updates, numa_hint_faults,
# numa_pages_migrated, pgpromote_success, pgdemote_*), which the kernel
# keeps for the whole cgroup, not per node.  The keys are read from the
# file, never guessed from the kernel's version.
. "$(dirname "$0")/lib.sh"

CG=sys/fs/cgroup

# memstat CGROUP MIGRATED: a 6.12 memory.stat (other keys, ours in the
# kernel's order) for CGROUP, numa_pages_migrated MIGRATED.
memstat() {
	printf 'anon 8192\nfile 4096\nworkingset_nodereclaim 0\npgdemote_kswapd 7\npgdemote_direct 1\npgdemote_khugepaged 0\npgpromote_success 3\npgfault 100\nnuma_pages_migrated %s\nnuma_pte_updates 9000\nnuma_hint_faults 8500\n' \
		"$2" >"$ROOT/$CG$1/memory.stat"
}

# A 6.1 tree has no memory.stat events: nothing of them is said or shown.
fixture effect-6.1
run stat --cgroup nginx.service
expect_rc 0 "6.1 (no memory.stat in the dump): exit 0"
expect_out_lacks "NUMA events" "no events line"
printf 'anon 8192\nfile 4096\nworkingset_nodereclaim 0\n' >"$ROOT/$CG/system.slice/nginx.service/memory.stat"
run stat --cgroup nginx.service
expect_out_lacks "NUMA events" "a 6.1 memory.stat (none of the keys): no events line, no zeros"
run -J stat --cgroup nginx.service
expect_out_lacks "numa_pages_migrated" "and no JSON key"
expect_out_lacks '"events"' "nor an events array"
run stat --cgroup nginx.service --prometheus
expect_out_lacks "numastatctl_cgroup_numa_events_total" "and no Prometheus family"

fixture effect-6.1
memstat /system.slice/nginx.service 8192
memstat /system.slice/db.service 123
run stat --cgroup nginx.service
expect_rc 0 "6.12 memory.stat: exit 0"
expect_out_has "cgroup /system.slice/nginx.service
NUMA events of the whole cgroup (memory.stat): numa_pte_updates 9000, numa_hint_faults 8500, numa_pages_migrated 8192, pgpromote_success 3, pgdemote_kswapd 7, pgdemote_direct 1, pgdemote_khugepaged 0
 NODE" "one cgroup: its events in a line above the table"
run stat --cgroup 'system.slice/*' -o CGROUP,NUMA_PAGES_MIGRATED,numa_hint_faults,PGDEMOTE_KSWAPD --sort NUMA_PAGES_MIGRATED
expect_rc 0 "several: -o names the events"
OUT=$(sed 's/ *$//' <<<"$OUT")
expect_out 'CGROUP                            NUMA_PAGES_MIGRATED NUMA_HINT_FAULTS PGDEMOTE_KSWAPD
/system.slice/nginx.service                      8192             8500               7
/system.slice/db.service                          123             8500               7
/system.slice/we"ird\name.service' \
	"a column each, sorted by migrations; a cgroup without memory.stat: empty"
run stat --cgroup 'system.slice/*'
expect_out_lacks "NUMA_PAGES_MIGRATED" "not among the default columns"
run -J stat --cgroup nginx.service
json=$(/usr/bin/python3 -c 'import json, sys
doc = json.load(sys.stdin)
rows = doc["cgroups"]
if any(k.startswith(("numa_", "pgpromote", "pgdemote")) for r in rows for k in r): print("an event on a node row")
print(doc["events"])' <<<"$OUT")
check "-J: the whole cgroup's events once, in events, every one the table shows; none on the node rows ($json)" \
	test "$json" = "[{'cgroup': '/system.slice/nginx.service', 'numa_pte_updates': 9000, 'numa_hint_faults': 8500, 'numa_pages_migrated': 8192, 'pgpromote_success': 3, 'pgdemote_kswapd': 7, 'pgdemote_direct': 1, 'pgdemote_khugepaged': 0}]"
run -J stat --cgroup 'system.slice/*'
if why=$(/usr/bin/python3 "$SOURCE_ROOT/tests/json-schema.py" "$SOURCE_ROOT/man/numastatctl.8.scd" \
	"stat --cgroup" <<<"$OUT" 2>&1); then ok "-J of several, with the events: the page's schema"
else not_ok "-J of several, with the events: the page's schema" "$why"; fi
run stat --cgroup 'system.slice/*' --prometheus
expect_out_has '# TYPE numastatctl_cgroup_numa_events_total counter
numastatctl_cgroup_numa_events_total{cgroup="/system.slice/db.service",event="numa_pte_updates"} 9000' \
	"Prometheus: one counter family, no node label"
expect_out_has 'numastatctl_cgroup_numa_events_total{cgroup="/system.slice/nginx.service",event="pgdemote_khugepaged"} 0' \
	"every key the file has, zero too"
if command -v promtool >/dev/null; then
	printf '%s\n' "$OUT" >"$TMP/cg.prom"
	lint=$(promtool check metrics <"$TMP/cg.prom" 2>&1)
	check "promtool finds nothing to say ($lint)" test -z "$lint"
else
	missing "promtool is not installed (package prometheus)" prometheus
fi

# Interval: the changes; a broken memory.stat is said once and shown empty.
fixture effect-6.1
memstat /system.slice/nginx.service 8192
run stat --cgroup nginx.service 0.01 1
expect_out_has "NUMA events of the whole cgroup (memory.stat, changes): numa_pte_updates 0," \
	"an interval: the events' changes"
printf 'numa_pages_migrated 1\nnuma_pages_migrated 2\n' >"$ROOT/$CG/system.slice/nginx.service/memory.stat"
run stat --cgroup 'system.slice/*' -o CGROUP,TOTAL,NUMA_PAGES_MIGRATED
expect_err_has "/sys/fs/cgroup/system.slice/nginx.service/memory.stat: line 2: a key given twice" \
	"a memory.stat with a key twice: one line naming the file and line"
mkfifo "$ROOT/$CG/system.slice/db.service/memory.stat"
timeout 10 "$NUMASTATCTL" --sysroot "$ROOT" stat --cgroup db.service >"$TMP/fifo.out" 2>&1
check "a FIFO as memory.stat is never waited on" test $? -ne 124

done_testing
