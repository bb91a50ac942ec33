#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --prometheus and --textfile: node_exporter's names, HELP/TYPE, knobs,
# atomic replacement of the .prom file.
. "$(dirname "$0")/lib.sh"

fixture sparse3
run stat --prometheus
expect_rc 0 "--prometheus succeeds"
expect_out_has '# HELP node_memory_numa_numa_hit_total Memory information field numa_hit_total.
# TYPE node_memory_numa_numa_hit_total counter
node_memory_numa_numa_hit_total{node="0"} 7300011
node_memory_numa_numa_hit_total{node="2"} 5100022
node_memory_numa_numa_hit_total{node="5"} 410003' "counters use node_exporter's names, TYPE counter, sparse node labels"
expect_out_has 'node_memory_numa_other_node_total{node="5"} 410003' "down to other_node"
expect_out_has '# TYPE node_memory_numa_MemTotal gauge
node_memory_numa_MemTotal{node="0"} 16777216000' "memory gauges are in bytes"
expect_out_has 'node_memory_numa_Active_anon{node="2"} 1536000' "Active(anon) becomes Active_anon, as node_exporter names it"
expect_out_has 'node_memory_numa_HugePages_Total{node="0"} 0' "HugePages_* stay counts, as node_exporter has them"
expect_out_has '# TYPE numastatctl_knob_value gauge
numastatctl_knob_value{knob="vm.numa_stat"} 1
numastatctl_knob_value{knob="vm.zone_reclaim_mode"} 0
numastatctl_knob_value{knob="vm.min_unmapped_ratio"} 13' "knob values from the sysroot"
expect_out_has 'numastatctl_knob_value{knob="mm.numa.demotion_enabled"} 0' "true/false knobs as 1/0"
expect_out_lacks 'numa_zonelist_order' "knobs with words for values are left out"

# Every sample belongs to a family announced by HELP and TYPE, with an integer value.
check "the text is well-formed exposition format" awk '
	/^# HELP / { help[$3] = 1; next }
	/^# TYPE / { if (!help[$3] || ($4 != "gauge" && $4 != "counter")) exit 1; type[$3] = 1; next }
	{ name = $1; sub(/\{.*/, "", name)
	  if (!type[name] || $1 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*\{[a-z]+="[^"]*"\}$/ || $2 !~ /^[0-9]+$/ || NF != 2) exit 1 }
	' "$TMP/out"
check "no family is announced twice" [ "$(grep '^# TYPE' "$TMP/out" | sort | uniq -d | wc -l)" = 0 ]

run stat --prometheus --nodes 2
check "--nodes narrows the samples" [ "$(grep -c 'node="0"' "$TMP/out")" = 0 ]
expect_out_has 'node_memory_numa_numa_miss_total{node="2"} 3300' "to the nodes asked for"

# --textfile: written through a temporary file and rename.
mkdir "$TMP/tf"
run stat --textfile "$TMP/tf"
expect_rc 0 "--textfile succeeds"
expect_out "" "and prints nothing on stdout"
check "DIR/numastatctl.prom is written" [ -s "$TMP/tf/numastatctl.prom" ]
check "mode 0644 for node_exporter to read" [ "$(stat -c %a "$TMP/tf/numastatctl.prom")" = 644 ]
run stat --prometheus
check "its content is the --prometheus text" cmp -s "$TMP/out" "$TMP/tf/numastatctl.prom"
exec 7<"$TMP/tf/numastatctl.prom"
inode=$(stat -c %i "$TMP/tf/numastatctl.prom")
echo 2 >"$ROOT/proc/sys/vm/min_slab_ratio"
run stat --textfile "$TMP/tf" --prometheus
expect_out_has 'numastatctl_knob_value{knob="vm.min_slab_ratio"} 2' "--textfile with --prometheus also prints"
check "a rewrite replaces the file by rename (new inode), never in place" \
	[ "$(stat -c %i "$TMP/tf/numastatctl.prom")" != "$inode" ]
check "a reader of the old file still sees the old, whole content" \
	grep -q 'knob="vm.min_slab_ratio"} 37' /dev/fd/7
exec 7<&-
check "no temporary file is left behind" [ "$(ls -A "$TMP/tf")" = numastatctl.prom ]

run stat --textfile "$TMP/no/such/dir"
expect_rc 1 "a missing directory exits 1"
expect_err_has "--textfile $TMP/no/such/dir: No such file or directory" "naming it"

fixture stat-broken
mkdir "$TMP/tf2"
run stat --textfile "$TMP/tf2"
expect_rc 1 "a broken node file exits 1"
check "but the file is still written with the other nodes" \
	grep -q 'node_memory_numa_numa_hit_total{node="5"} 410003' "$TMP/tf2/numastatctl.prom"
check "without the broken node's counters" \
	[ "$(grep -c 'numa_hit_total{node="2"}' "$TMP/tf2/numastatctl.prom")" = 0 ]

fixture stat-frozen
run stat --prometheus
expect_err_has "vm.numa_stat is 0: NUMA counters are frozen at zero" "frozen counters are warned about"

done_testing
