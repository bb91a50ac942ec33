#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --prometheus and --textfile: our own names (promtool-clean), every
# knob, the configured profile's drift, frozen counters, the timestamp,
# node_exporter's names only on request, and atomic replacement of the file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

# well_formed DESC FILE: every sample belongs to a family announced once by
# HELP then TYPE, with a valid name, labels and a number.
well_formed() {
	check "$1" awk '
		/^# HELP / { if (help[$3]++) exit 1; next }
		/^# TYPE / { if (!help[$3] || type[$3]++ || ($4 != "gauge" && $4 != "counter")) exit 1; next }
		{ name = $1; sub(/\{.*/, "", name)
		  if (!type[name] || NF != 2 || $2 !~ /^-?[0-9]+$/) exit 1
		  if ($1 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-z_]+="([^"\\]|\\.)*",?)+\})?$/) exit 1 }
		' "$2"
}

fixture sparse3
conf '[profile unused]'
before=$(date +%s)
prun stat --prometheus
after=$(date +%s)
expect_rc 0 "--prometheus succeeds"
expect_err "" "and says nothing on stderr"
printf '%s\n' "$OUT" >"$TMP/plain.prom"
expect_out_has '# HELP numastatctl_numa_hit_total Allocations on this node that were meant for it (numastat numa_hit). The kernel counts one per allocation request, whatever its order, not pages; zeroed when vm.numa_stat goes to 0.
# TYPE numastatctl_numa_hit_total counter
numastatctl_numa_hit_total{node="0"} 7300011
numastatctl_numa_hit_total{node="2"} 5100022
numastatctl_numa_hit_total{node="5"} 410003' "counters in our namespace, counting allocations, sparse node labels"
expect_out_has 'numastatctl_numa_interleave_hit_total{node="0"} 2211' "interleave_hit gets the numa_ prefix"
expect_out_has 'numastatctl_numa_other_node_total{node="5"} 410003' "down to other_node"
expect_out_has '# HELP numastatctl_node_memory_mem_total_bytes MemTotal of nodeN/meminfo, in bytes.
# TYPE numastatctl_node_memory_mem_total_bytes gauge
numastatctl_node_memory_mem_total_bytes{node="0"} 16777216000' "memory in bytes, snake_case, unit last"
expect_out_has 'numastatctl_node_memory_active_anon_bytes{node="2"} 1536000' "Active(anon) becomes active_anon"
expect_out_has 'numastatctl_node_memory_kreclaimable_bytes{node="0"} 61030400' "KReclaimable keeps its K"
expect_out_has 'numastatctl_node_memory_secondary_page_tables_bytes{node="0"} 0' "SecPageTables: no 'sec' that reads as seconds"
expect_out_has 'numastatctl_node_memory_anon_hugepages_bytes{node="0"} 0' "AnonHugePages: hugepages is one word"
expect_out_has '# TYPE numastatctl_node_memory_hugepages_total_pages gauge
numastatctl_node_memory_hugepages_total_pages{node="0"} 0' "HugePages_Total is named as the count of pages it is"
expect_out_lacks 'node_memory_numa_' "no node_exporter name by default"
expect_out_lacks 'numastatctl_node_hugepages_' "no hugepages pools here: no pool series"
expect_out_has '# TYPE numastatctl_knob_value gauge
numastatctl_knob_value{knob="vm.numa_stat"} 1
numastatctl_knob_value{knob="vm.zone_reclaim_mode"} 0' "every knob, in registry order"
expect_out_has 'numastatctl_knob_value{knob="vm.min_unmapped_ratio"} 13' "numeric knobs as values"
expect_out_has 'numastatctl_knob_value{knob="mm.numa.demotion_enabled"} 0' "true/false knobs as 1/0"
expect_out_has '# TYPE numastatctl_knob_info gauge
numastatctl_knob_info{knob="vm.numa_zonelist_order",value="Node"} 1' "string knobs as an info series, the value in a label"
expect_out_lacks 'vm.zone_distribute_mode' "knobs this kernel lacks are left out"
expect_out_has '# TYPE numastatctl_counters_frozen gauge
numastatctl_counters_frozen 0' "counters are not frozen with vm.numa_stat=1"
expect_out_has 'numastatctl_config_errors 0' "a configuration without problems"
expect_out_lacks 'numastatctl_profile_drift' "and without 'profile =': no drift series"
ts=$(sed -n 's/^numastatctl_textfile_timestamp_seconds //p' <<<"$OUT")
check "the timestamp is the time of the run" test "${ts:-0}" -ge "$before" -a "${ts:-0}" -le "$after"
well_formed "the text is well-formed exposition format" "$TMP/plain.prom"
promtool_clean "promtool check metrics finds nothing" "$TMP/plain.prom"

prun stat --prometheus --nodes 2
check "--nodes narrows the samples" [ "$(grep -c 'node="0"' "$TMP/out")" = 0 ]
expect_out_has 'numastatctl_numa_miss_total{node="2"} 3300' "to the nodes asked for"

# --- the configured profile -----------------------------------------------
conf '[numastatctl]
profile = site
[profile base]
vm.numa_stat = 1
[profile site]
include = base
vm.min_slab_ratio = 5
vm.zone_reclaim_mode = 0
-vm.zone_distribute_mode = 1'
prun stat --prometheus
expect_rc 0 "with a profile configured"
expect_out_has '# TYPE numastatctl_profile_drift gauge
numastatctl_profile_drift{profile="site"} 1' "the profile drifts: one series for the alert"
expect_out_has 'numastatctl_knob_drift{knob="vm.min_slab_ratio",profile="site"} 1' "the knob that differs"
expect_out_has 'numastatctl_knob_drift{knob="vm.numa_stat",profile="site"} 0' "knobs that match, included ones too"
expect_out_has 'numastatctl_knob_drift{knob="vm.zone_reclaim_mode",profile="site"} 0' "every knob of the profile"
check "a '-' knob this kernel lacks is no drift, and no series" \
	[ "$(grep -c 'knob_drift{knob="vm.zone_distribute_mode"' "$TMP/out")" = 0 ]
prun apply --check
expect_rc 3 "apply --check agrees that it drifts"
prun stat --prometheus
printf '%s\n' "$OUT" >"$TMP/drift.prom"
well_formed "the drift series are well-formed" "$TMP/drift.prom"
promtool_clean "and promtool-clean" "$TMP/drift.prom"
echo 5 >"$ROOT/proc/sys/vm/min_slab_ratio"
prun stat --prometheus
expect_out_has 'numastatctl_profile_drift{profile="site"} 0' "no drift once the live system matches"
expect_out_has 'numastatctl_knob_drift{knob="vm.min_slab_ratio",profile="site"} 0' "per knob too"

conf '[numastatctl]
profile = strict
[profile strict]
vm.zone_distribute_mode = 1'
prun stat --prometheus
expect_out_has 'numastatctl_knob_drift{knob="vm.zone_distribute_mode",profile="strict"} 1' \
	"a knob the profile needs and this kernel lacks is drift"
expect_out_has 'numastatctl_profile_drift{profile="strict"} 1' "so the profile drifts"

conf '[numastatctl]
profile = nosuch
[profile other]
vm.numa_stat = 1'
prun stat --prometheus
expect_rc 0 "a default profile that does not exist does not stop the statistics"
expect_out_has 'numastatctl_config_errors 1' "it counts as a configuration problem"
expect_out_lacks 'numastatctl_profile_drift' "and no drift is claimed"

conf '[numastatctl]
profile = bad
[profile bad]
vm.numa_stat = 2
vm.min_slab_ratio = 101'
prun stat --prometheus
expect_rc 0 "a configuration with problems does not stop the statistics"
expect_out_has 'numastatctl_config_errors 2' "it is counted"
expect_out_lacks 'numastatctl_profile_drift' "and no drift is claimed"
expect_err "numastatctl: stat: warning: the configuration has problems: 'numastatctl profiles' lists them" \
	"--prometheus says so in one line"
mkdir "$TMP/tf-conf"
prun stat --textfile "$TMP/tf-conf"
expect_rc 0 "--textfile alone succeeds"
expect_err "" "and leaves it to the series (no journal line every 15 s)"
check "the file counts the problems" grep -qx 'numastatctl_config_errors 2' "$TMP/tf-conf/numastatctl.prom"

run --config "$TMP/no/such.conf" stat --prometheus
expect_out_has 'numastatctl_config_errors 1' "a --config that cannot be read is a problem"
run profiles --cat-config
if [ -z "$OUT" ]; then
	run stat --prometheus
	expect_rc 0 "without any configuration file"
	expect_err "" "nothing is said"
	expect_out_lacks 'numastatctl_config_errors' "and no profile series is exported"
else
	ok "# SKIP a default configuration exists on this machine"
fi

# --- node_exporter's names, on request -------------------------------------
conf '[profile unused]'
prun stat --prometheus --prometheus-names=node_exporter
expect_rc 0 "--prometheus-names=node_exporter succeeds"
printf '%s\n' "$OUT" >"$TMP/ne.prom"
expect_out_has '# HELP node_memory_numa_numa_hit_total Memory information field numa_hit_total.
# TYPE node_memory_numa_numa_hit_total counter
node_memory_numa_numa_hit_total{node="0"} 7300011' "counters under node_exporter's meminfo_numa names"
expect_out_has 'node_memory_numa_MemTotal{node="0"} 16777216000' "memory under its names, in bytes"
expect_out_has 'node_memory_numa_Active_anon{node="2"} 1536000' "Active(anon) as it spells it"
expect_out_has 'node_memory_numa_HugePages_Total{node="0"} 0' "HugePages_Total the count it has"
expect_out_lacks 'numastatctl_numa_hit_total' "instead of ours"
expect_out_has 'numastatctl_knob_value{knob="vm.numa_stat"} 1' "the rest keeps our namespace"
well_formed "still well-formed" "$TMP/ne.prom"
if have promtool prometheus; then
	promtool check metrics <"$TMP/ne.prom" >"$TMP/lint" 2>&1
	check "promtool finds only node_exporter's own camelCase names" \
		test -s "$TMP/lint" -a "$(grep -vc "^node_memory_numa_[A-Za-z_]* metric names should be written in 'snake_case' not 'camelCase'$" "$TMP/lint")" = 0
fi
prun stat --prometheus
cp "$TMP/out" "$TMP/default.prom"
prun stat --prometheus --prometheus-names numastatctl
check "--prometheus-names=numastatctl is the default" \
	cmp -s <(grep -v timestamp_seconds "$TMP/out") <(grep -v timestamp_seconds "$TMP/default.prom")
prun stat --prometheus --prometheus-names=node-exporter
expect_rc 2 "an unknown naming is a usage error"
expect_err_has "--prometheus-names 'node-exporter': expected numastatctl or node_exporter" "naming what is allowed"
prun stat --prometheus-names=node_exporter
expect_rc 2 "--prometheus-names alone is a usage error"
expect_err_has "--prometheus-names needs --prometheus or --textfile" "saying what it needs"

# --- hugepage pools: bytes, as stat -m -J gives them ----------------------
fixture sparse3
conf '[profile unused]'
for size in 2048 1048576; do
	d=$ROOT/sys/devices/system/node/node2/hugepages/hugepages-${size}kB
	mkdir -p "$d"
	echo 3 >"$d/nr_hugepages"
	echo 1 >"$d/free_hugepages"
	echo 0 >"$d/surplus_hugepages"
done
prun stat --prometheus
expect_out_has '# TYPE numastatctl_node_hugepages_total_bytes gauge
numastatctl_node_hugepages_total_bytes{node="2"} 3227516928' "pools of every size summed, in bytes"
expect_out_has 'numastatctl_node_hugepages_free_bytes{node="2"} 1075838976' "free ones too"
prun -J stat -m --nodes 2 -o HugePages_Total
check "the same bytes as stat -m -J" grep -q '"hugepages_total": 3227516928\|"HugePages_Total": 3227516928' "$TMP/out"
prun stat --prometheus
printf '%s\n' "$OUT" >"$TMP/hp.prom"
promtool_clean "promtool-clean with hugepage pools" "$TMP/hp.prom"

# --- odd meminfo fields and knob values from a dump ------------------------
fixture sparse3
conf '[profile unused]'
cat >>"$ROOT/sys/devices/system/node/node0/meminfo" <<'EOF'
Node 0 Foo_s:                 1 kB
Node 0 b_Bar:                 2 kB
Node 0 Active_anon:           3 kB
Node 0 Mem_Total:             4 kB
Node 0 (x):                   5 kB
EOF
printf 'No"d\\e\n' >"$ROOT/proc/sys/vm/numa_zonelist_order"
# A value of two lines is no kernel's: refused where it is read, so no series.
printf '3\n# x\n' >"$ROOT/proc/sys/vm/min_slab_ratio"
prun stat --prometheus
expect_rc 0 "odd fields and values are no error"
printf '%s\n' "$OUT" >"$TMP/odd.prom"
expect_out_has 'numastatctl_node_memory_foos_bytes{node="0"} 1024' "a trailing unit-like word is joined"
expect_out_has 'numastatctl_node_memory_bbar_bytes{node="0"} 2048' "a leading one too"
expect_out_has 'numastatctl_node_memory_x_bytes{node="0"} 5120' "parentheses go"
check "a field that maps onto another's name adds no second family" \
	[ "$(grep -c '^numastatctl_node_memory_active_anon_bytes{node="0"}' "$TMP/odd.prom")" = 1 ]
expect_out_has 'value="No\"d\\e"' "label values are escaped"
expect_out_lacks 'knob="vm.min_slab_ratio"' "a knob value of two lines gives no series"
well_formed "still well-formed" "$TMP/odd.prom"
promtool_clean "and promtool-clean" "$TMP/odd.prom"

# --- --textfile: written through a temporary file and rename ---------------
fixture sparse3
conf '[profile unused]'
mkdir "$TMP/tf"
prun stat --textfile "$TMP/tf"
expect_rc 0 "--textfile succeeds"
expect_out "" "and prints nothing on stdout"
check "DIR/numastatctl.prom is written" [ -s "$TMP/tf/numastatctl.prom" ]
check "mode 0644 for node_exporter to read" [ "$(stat -c %a "$TMP/tf/numastatctl.prom")" = 644 ]
prun stat --prometheus
check "its content is the --prometheus text" \
	cmp -s <(grep -v timestamp_seconds "$TMP/out") <(grep -v timestamp_seconds "$TMP/tf/numastatctl.prom")
exec 7<"$TMP/tf/numastatctl.prom"
inode=$(stat -c %i "$TMP/tf/numastatctl.prom")
echo 2 >"$ROOT/proc/sys/vm/min_slab_ratio"
prun stat --textfile "$TMP/tf" --prometheus
expect_out_has 'numastatctl_knob_value{knob="vm.min_slab_ratio"} 2' "--textfile with --prometheus also prints"
check "a rewrite replaces the file by rename (new inode), never in place" \
	[ "$(stat -c %i "$TMP/tf/numastatctl.prom")" != "$inode" ]
check "a reader of the old file still sees the old, whole content" \
	grep -q 'knob="vm.min_slab_ratio"} 37' /dev/fd/7
exec 7<&-
check "no temporary file is left behind" [ "$(ls -A "$TMP/tf")" = numastatctl.prom ]

prun stat --textfile "$TMP/no/such/dir"
expect_rc 1 "a missing directory exits 1"
expect_err "numastatctl: stat: --textfile $TMP/no/such/dir: No such file or directory" "naming it"

prun stat --textfile "$TMP/tf/node.prom"
expect_rc 2 "--textfile DIR/file.prom is a usage error"
expect_err "numastatctl: stat: --textfile $TMP/tf/node.prom: expected a directory, not a file name (numastatctl.prom is written in the directory)" \
	"saying in one line that the option takes a directory"
check "and writes nothing" [ "$(ls -A "$TMP/tf")" = numastatctl.prom ]
prun stat --textfile "$TMP/tf/numastatctl.prom"
expect_rc 2 "--textfile naming an existing file is a usage error"
expect_err "numastatctl: stat: --textfile $TMP/tf/numastatctl.prom: not a directory (the option takes the directory to write numastatctl.prom in)" \
	"in one line"
check "and leaves the file alone" grep -q 'knob="vm.min_slab_ratio"} 2' "$TMP/tf/numastatctl.prom"
prun stat --textfile "$TMP/tf/numastatctl.prom/sub"
expect_rc 2 "a path through a file is a usage error too"

fixture stat-broken
conf '[profile unused]'
mkdir "$TMP/tf2"
prun stat --textfile "$TMP/tf2"
expect_rc 1 "a broken node file exits 1"
check "but the file is still written with the other nodes" \
	grep -q 'numastatctl_numa_hit_total{node="5"} 410003' "$TMP/tf2/numastatctl.prom"
check "without the broken node's counters" \
	[ "$(grep -c 'numa_hit_total{node="2"}' "$TMP/tf2/numastatctl.prom")" = 0 ]
promtool_clean "a partial file is promtool-clean too" "$TMP/tf2/numastatctl.prom"

# --- vm.numa_stat=0 ---------------------------------------------------------
fixture stat-frozen
conf '[profile unused]'
prun stat --prometheus
expect_err_has "vm.numa_stat is 0: NUMA counters are frozen at zero" "--prometheus warns about frozen counters"
expect_out_has 'numastatctl_counters_frozen 1' "and says so in a series"
mkdir "$TMP/tf3"
prun stat --textfile "$TMP/tf3"
expect_rc 0 "--textfile on frozen counters succeeds"
expect_err "" "quietly: the series carries it"
check "the file says the counters are frozen" grep -qx 'numastatctl_counters_frozen 1' "$TMP/tf3/numastatctl.prom"
check "the file holds vm.numa_stat 0" grep -qx 'numastatctl_knob_value{knob="vm.numa_stat"} 0' "$TMP/tf3/numastatctl.prom"

done_testing
