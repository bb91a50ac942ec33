#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# advise: each rule speaks on the fixture made for it (tests/fixtures/
# gen-advise.sh advise-<rule>) and keeps quiet on its near miss
# (advise-<rule>-not), with the evidence it read; insufficient data is said
# instead of guessed.  The output forms are in test-advise-output.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"
. "$(dirname "$0")/advise-lib.sh"

# --- every rule: speaks on its case, silent on the near miss ---
# CASE RC RULE KIND TEXT: advise on CASE exits RC; RULE gives a KIND
# ("advice", "note", "insufficient": no verdict without more data) entry
# holding TEXT.
prev=
while read -r case rc rule kind text; do
	# Several rules may share a case: build and run each case once.
	if [ "$case" != "$prev" ]; then
		afixture "$case"
		prun advise
		T_OUT=$OUT T_RC=$RC T_ERR=$ERR
		afixture "$case-not"
		prun advise
		N_OUT=$OUT
		prev=$case
	fi
	OUT=$T_OUT RC=$T_RC ERR=$T_ERR
	expect_rc "$rc" "$case: exit $rc"
	case $kind in
	advice) pat="^[0-9]+\. \[[a-z]+\] $rule: " ;;
	insufficient) pat="^insufficient data: $rule: " ;;
	*) pat="^note: $rule: " ;;
	esac
	line=$(grep -E "$pat" <<<"$OUT")
	case "$line" in
	*"$text"*) ok "$case: $rule gives $kind: $text" ;;
	*) not_ok "$case: $rule gives $kind: $text" "$OUT" ;;
	esac
	# A rule may have a note for the near miss too (single-node-numa-stat:
	# keep 1, something reads the counters): for a note the text tells.
	nline=$(grep -E "$pat" <<<"$N_OUT")
	if [ -n "$nline" ] && { [ "$kind" != note ] || [[ "$nline" == *"$text"* ]]; }; then
		not_ok "$case-not: $rule gives no $kind: $text" "$N_OUT"
	else
		ok "$case-not: $rule gives no $kind: $text"
	fi
done <<'CASES'
advise-single-node 3 single-node-balancing advice set kernel.numa_balancing = 0
advise-single-node 3 single-node-zone-reclaim advice set vm.zone_reclaim_mode = 0
advise-single-node 3 single-node-numa-stat note vm.numa_stat = 0 would skip
advise-numa-stat-frozen 3 numa-stat-frozen advice set vm.numa_stat = 1
advise-tiering 3 tiering-enable advice set kernel.numa_balancing = 3 (tiering mode added
advise-tiering 3 demotion-enable advice set mm.numa.demotion_enabled = true
advise-cpuless-dram-tier 0 cpuless-dram-tier note node 2 has memory and no CPU, yet
advise-tiering-without-tiers 3 tiering-without-tiers advice set kernel.numa_balancing = 0
advise-zone-reclaim-far 3 zone-reclaim-far advice set vm.zone_reclaim_mode = 1 if each part
advise-zone-reclaim-near 3 zone-reclaim-near advice set vm.zone_reclaim_mode = 0: every node
advise-zone-reclaim-file-cache 3 zone-reclaim-file-cache advice set vm.zone_reclaim_mode = 0: page cache
advise-remote-allocations 3 remote-allocations advice node 1: 33.3% of its allocations came from
advise-hugepages-unbalanced 3 hugepages-unbalanced advice spread the 2048 kB huge page pool
advise-sysctld-profile-conflict 3 sysctld-profile-conflict advice /etc/sysctl.d/90-tuning.conf:1 sets 1
advise-knob-not-default 3 knob-not-default advice set vm.min_slab_ratio = 5 (the default)
advise-interleave-weights 3 interleave-weights advice set mm.mempolicy.weighted_interleave.auto = true: the kernel then derives 0:25 1:6
advise-damos-tiering-promoters 0 damos-tiering-promoters note a DAMOS scheme migrates pages (migrate_hot) while kernel.numa_balancing = 3 has the tiering bit
advise-damon-stat-running 0 damon-stat-running note DAMON_STAT runs: kdamond PID 4242, 3.00 s of CPU since it started
advise-sched-ext-balancing 0 sched-ext-balancing insufficient the sched_ext scheduler scx_rusty runs while NUMA balancing is on
advise-kubelet-numa-nodes 3 kubelet-numa-nodes advice the kubelet refuses to start with its Topology Manager on 9 NUMA nodes (more than 8): add: topologyManagerPolicyOptions: {max-allowable-numa-nodes: "9"}
advise-kubelet-closest-numa 3 kubelet-closest-numa advice though distances here range from 20 to 22: on line 6 of /var/lib/kubelet/config.yaml set: prefer-closest-numa-nodes: "true"
advise-lower-tier-normal-zone 3 lower-tier-normal-zone advice node 2 is in a slower tier (memory_tier22) with 2G in ZONE_NORMAL
advise-one-memory-tier 0 one-memory-tier note every node with memory is in memory_tier4, CXL or dax memory too
advise-cpuless-no-perf 0 cpuless-no-perf note node 2 has memory, no CPU and no performance data
advise-cxl-memdev-node 3 cxl-memdev-node note CXL mem0's numa_node is 0, the node of its PCI device; its memory (region0) is node 2
advise-hotplug-offline 3 hotplug-offline advice node 2: 1 of the 2 blocks of acpi PNP0C80:00 are offline (1G)
CASES

# sched_ext over a window where numa_pte_updates stands still: balancing
# marked no page then (the case above: without a window, no verdict).
# Not "scanned nothing": the scanner never marks a single-threaded task's
# pages that are on its node already, so the counter stands still without
# any scheduler too (HACKING-reasons.md, sched_ext).
afixture advise-sched-ext-balancing
prun advise --interval 0.2
# The window's seconds vary with the machine's load: the words around them.
check "over a window where numa_pte_updates stands still: balancing marked no page, said as such" \
	grep -qE "^note: sched-ext-balancing: numa_pte_updates did not move in [0-9]+ s while the sched_ext scheduler scx_rusty runs and kernel.numa_balancing = 1: NUMA balancing marked no page in that window \(nor does it mark the pages a single-threaded task has on its own node\)$" <<<"$OUT"
expect_out_has "numa_pte_updates: 5000 at the start, +0 over" "with the counter as evidence"
afixture advise-sched-ext-balancing-not
prun advise
expect_out_lacks "sched-ext-balancing" "balancing off: nothing to say"

# status says the same interactions in a line each (JSON: "interactions").
afixture advise-damos-tiering-promoters
prun status
expect_out_has "interaction: DAMOS scheme 0/0/0 (kdamond PID 4321, migrate_hot to node 0) runs while kernel.numa_balancing = 3 promotes too" \
	"status: a running migrate scheme beside tiering balancing"
prun -J status
check "status -J: the same line in interactions" python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
assert len(d["interactions"]) == 1 and d["interactions"][0].startswith("DAMOS scheme 0/0/0"), d["interactions"]' <<<"$OUT"
afixture advise-damos-tiering-promoters-not
prun status
expect_out_lacks "interaction:" "status: the scheme's kdamond off, nothing said"
afixture advise-damon-stat-running
prun status
expect_out_has "interaction: DAMON_STAT runs: kdamond PID 4242, 3.00 s of CPU since it started" \
	"status: DAMON_STAT's kdamond named"

# Weights unlike the bandwidth's, and nothing uses weighted interleave: one
# note; no other rule then advises auto (its value text was read from an
# uninitialised buffer when knob-not-default spoke of it).
afixture advise-interleave-weights
rm "$ROOT/etc/systemd/system/bw.service"
prun advise
expect_rc 0 "weights nothing uses: exit 0"
expect_out_has "note: interleave-weights: nothing here uses weighted interleave" "one note"
expect_out_lacks "knob-not-default" "and no advice on auto from another rule"

afixture advise-quiet
prun advise
expect_rc 0 "a quiet machine: exit 0"
expect_out "nothing to advise" "and it says so, nothing else"
expect_err "" "no message"

# --- the evidence: the numbers read, and where ---
afixture advise-hotplug-offline
prun advise
expect_out_has "   evidence: /sys/devices/system/memory/memoryN/state: offline for N = 9" \
	"hotplug-offline names the offline blocks"
expect_out_has "             /sys/devices/system/memory/auto_online_blocks: offline" \
	"and the policy that left them so"
afixture advise-cxl-memdev-node
prun advise
expect_out_has "   evidence: /sys/bus/cxl/devices/mem0/numa_node: 0" "cxl-memdev-node: the memdev's node"
expect_out_has "             region0's memory is on node 2 (its dax device's target_node)" \
	"and where the region's memory went"
afixture advise-lower-tier-normal-zone
prun advise
expect_out_has "   evidence: /proc/zoneinfo: node 2: 2G present in the zones below Movable" \
	"lower-tier-normal-zone: zoneinfo's figure"
afixture advise-single-node
prun advise
expect_out_has "   evidence: /sys/devices/system/node: node0 is the only node" "evidence names the file it read"
expect_out_has "             /proc/sys/kernel/numa_balancing: 1" "and the value it found"
expect_out_has "   source:   Documentation/admin-guide/sysctl/kernel.rst (numa_balancing)" "the source is printed"
expect_out_has "no reader found; looked for node_exporter processes" "single-node-numa-stat says what it looked for"
expect_out_has ", /var/lib/prometheus/node-exporter/numastatctl.prom
" "to its last word, none cut"
expect_out_has "2 recommendations (2 medium); 1 note" "a summary line counts them by priority, and the notes"
first=$(grep -m1 -E '^1\. ' <<<"$OUT")
case "$first" in *"[medium]"*) ok "the most important comes first" ;; *) not_ok "the most important comes first" "$OUT" ;; esac

# One node at its defaults, nothing reading the counters: information, not advice.
afixture advise-single-node
echo 0 >"$ROOT/proc/sys/kernel/numa_balancing"
echo 0 >"$ROOT/proc/sys/vm/zone_reclaim_mode"
prun advise
expect_rc 0 "one node at its defaults: exit 0 (vm.numa_stat = 0 helps only where allocation speed is the bottleneck)"
expect_out_has "note: single-node-numa-stat: vm.numa_stat = 0 would skip" "said as a note"
expect_out_has "nothing to advise; 1 note" "and counted as one"

afixture advise-single-node-not
prun advise
expect_out_has "reader: node_exporter (pid 777) runs with --collector.meminfo_numa" \
	"node_exporter's meminfo_numa collector is found in its command line"

afixture advise-remote-allocations
prun advise
expect_out_has 'process 4242 (db\x1b[2Jworker) holds 1G on node 1 and last ran on node 0' \
	"the process holding the most remote memory is named (control characters escaped)"
expect_out_has "process 4343 (cache) holds 3.9M on node 1" "then the next"
expect_out_lacks "process 4444" "a process running on the node itself is not remote"
expect_out_has "trend of other_node: not measured (one sample; --interval SECONDS takes a second)" \
	"without --interval the trend is said to be unmeasured"

afixture advise-zone-reclaim-far
prun advise
expect_out_has "taken by (numa_miss, then distance from node 0 in nodeN/distance): node 1 111112 at 40; RECLAIM_DISTANCE is 30" \
	"zone-reclaim-far shows where the spill went and how far, against RECLAIM_DISTANCE"
expect_out_has "numa_foreign 111112 of 1111112 allocations meant for it (10.0%)" "and the spill"
expect_out_has "node 0: page cache zone reclaim can drop (Active(file) + Inactive(file) - Mapped - Dirty, nodeN/meminfo): 196.3M; it leaves 41M (vm.min_unmapped_ratio 1% of MemTotal 4G)" \
	"and the page cache zone reclaim could drop, against what it leaves"
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n' >"$ROOT/proc/cpuinfo"
echo "10 31" >"$ROOT/sys/devices/system/node/node0/distance"
echo "31 10" >"$ROOT/sys/devices/system/node/node1/distance"
echo 1 >"$ROOT/proc/sys/vm/zone_reclaim_mode"
prun advise
expect_out_has "set vm.zone_reclaim_mode = 0: every node is within RECLAIM_DISTANCE 32" \
	"AMD Zen: distance 31 is within the reclaim distance of 32"
expect_out_has "RECLAIM_DISTANCE is 32 on AMD Zen (/proc/cpuinfo: AuthenticAMD, cpu family 25" \
	"saying how it knows"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n' >"$ROOT/proc/cpuinfo"
prun advise
expect_out_lacks "zone-reclaim-near" "elsewhere 31 is beyond 30: zone reclaim fits, no zone-reclaim-near"

# --- zone-reclaim-far: silent where zone reclaim cannot help ---
# far_silent DESC: advise speaks of the spill (remote-allocations), never
# advises zone reclaim for it.
far_silent() {
	prun advise
	if grep -q "zone-reclaim-far" <<<"$OUT"; then not_ok "$1" "$OUT"; else ok "$1"; fi
	expect_out_has "] remote-allocations: node 1: 10.0%" "($1: the spill itself is still named)"
}
afixture advise-zone-reclaim-far
sed -i 's/^\(Node 0 Active(file): *\)[0-9]* kB/\19000 kB/' "$ROOT/sys/devices/system/node/node0/meminfo"
far_silent "an anonymous spill with 9.5M of page cache, under the 41M zone reclaim leaves: silent"
afixture advise-zone-reclaim-far
echo 60 >"$ROOT/proc/sys/vm/min_unmapped_ratio"
far_silent "vm.min_unmapped_ratio 60: zone reclaim leaves more than the node's page cache: silent"
afixture advise-zone-reclaim-far
for n in 0 1; do echo "10 21" >"$ROOT/sys/devices/system/node/node$n/distance"; done
echo "21 10" >"$ROOT/sys/devices/system/node/node1/distance"
far_silent "the spill lands 21 away, within RECLAIM_DISTANCE: silent"

# The machine of the report: CPUs on nodes 0 and 1 (21 apart), memory only
# on 2 and 3 (40 from each other); node 0 spills onto node 1.
afixture advise-zone-reclaim-far
"$FIXTURES/gen-nodes.sh" "$ROOT" 4 >/dev/null
N=$ROOT/sys/devices/system/node
echo 0-1 >"$N/has_cpu"
: >"$N/node2/cpulist"
: >"$N/node3/cpulist"
printf '%s\n' "10 21 17 28" >"$N/node0/distance"
printf '%s\n' "21 10 28 17" >"$N/node1/distance"
printf '%s\n' "17 28 10 40" >"$N/node2/distance"
printf '%s\n' "28 17 40 10" >"$N/node3/distance"
printf 'numa_hit 1000000\nnuma_miss 0\nnuma_foreign 111112\ninterleave_hit 0\nlocal_node 1000000\nother_node 0\n' >"$N/node0/numastat"
printf 'numa_hit 1000000\nnuma_miss 111112\nnuma_foreign 0\ninterleave_hit 0\nlocal_node 1000000\nother_node 111112\n' >"$N/node1/numastat"
far_silent "the largest distance (40) lies between two CPU-less nodes, the spill lands 21 away: silent"

# Zone reclaim on, the spill in the since-boot counters: never taken for a fit.
afixture advise-zone-reclaim-far
echo 1 >"$ROOT/proc/sys/vm/zone_reclaim_mode"
printf '[profile hpc]\nvm.zone_reclaim_mode = 1\n' >>"$CONF"
prun advise
expect_out_has "insufficient data: zone-reclaim-far: zone reclaim is on, and node 0's counters since boot show 10.0% of the allocations meant for it sent to other nodes, which may predate it: --interval SECONDS shows whether it still happens" \
	"zone reclaim on while the counters show the spill: insufficient data, not a fit"

afixture advise-sysctld-profile-conflict
prun advise
expect_out_has "at boot systemd-sysctl writes 1 (/etc/sysctl.d/90-tuning.conf:1); numastatctl.service is not enabled, so that value holds" \
	"sysctld-profile-conflict says which value holds at boot"

# kernel.numa_balancing's default is 1 where more than one node is online.
afixture advise-quiet
echo 0 >"$ROOT/proc/sys/kernel/numa_balancing"
prun advise
expect_out_has "] knob-not-default: set kernel.numa_balancing = 1 (the default with more than one node), or record 0 in a profile if it is meant" \
	"two nodes, balancing 0 that nothing records: the default there is 1"

afixture advise-knob-not-default-not
prun advise
expect_rc 0 "a value sysctl.d sets is explained: exit 0"
printf '[profile slab]\nvm.min_slab_ratio = 37\n' >>"$CONF"
rm "$ROOT/etc/sysctl.d/60-slab.conf"
prun advise
expect_rc 0 "so is a value some profile sets"

# --- insufficient data, said instead of guessed ---
afixture advise-remote-allocations
echo "42.10 80.00" >"$ROOT/proc/uptime"
prun advise
expect_out_has "insufficient data: remote-allocations: the counters cover only 42 s since boot (/proc/uptime; at least 600 s are needed, or --interval SECONDS)" \
	"42 s after boot: insufficient data, with the reason"
expect_out_lacks "] remote-allocations:" "and no advice from those counters"
expect_rc 0 "insufficient data is no advice: exit 0"
rm "$ROOT/proc/uptime"
prun advise
expect_out_has "insufficient data: remote-allocations: /proc/uptime cannot be read" "a missing /proc/uptime is said"

afixture advise-zone-reclaim-far
for n in 0 1; do printf 'numa_hit 3000\nnuma_miss 0\nnuma_foreign 300\ninterleave_hit 0\nlocal_node 3000\nother_node 0\n' \
	>"$ROOT/sys/devices/system/node/node$n/numastat"; done
prun advise
expect_out_has "insufficient data: remote-allocations, zone-reclaim-far: the counters hold only 6000 allocation events" \
	"counters just reset: one line for both rules that need them"
expect_out_lacks "] zone-reclaim-far:" "and no zone reclaim advice"
rm "$ROOT/sys/devices/system/node/node1/distance"
prun advise
expect_out_has "insufficient data: zone-reclaim-far: the node distances cannot be read" "a missing distance file is said"

afixture advise-tiering-without-tiers
rm -r "$ROOT/sys/devices/virtual/memory_tiering"
prun advise
expect_out_has "insufficient data: tiering-without-tiers: kernel.numa_balancing has tiering mode on, but the memory tiers cannot be read" \
	"tiers unreadable with tiering on: insufficient data, not advice"
expect_rc 0 "exit 0"

# The kubelet's file changed as the advice prints it, and the rule is
# silent.  "add" once printed a second key beside the option's own line (a
# key twice fails strict YAML decoding; a lenient decoder keeps one of the
# two), and a block line below a flow mapping, which is no YAML.
KCONF=var/lib/kubelet/config.yaml
# kubelet_edit: the last advise's kubelet-closest-numa edit, made to $ROOT/$KCONF.
kubelet_edit() {
	local re_set='on line ([0-9]+) of /var/lib/kubelet/config.yaml set: ([^ ]+: "[a-z0-9]+") \('
	local re_line='replace line ([0-9]+) of /var/lib/kubelet/config.yaml with: (.*\}) \('
	local text n
	text=$(grep '] kubelet-closest-numa: ' <<<"$OUT")
	if [[ $text =~ $re_set ]]; then
		n=${BASH_REMATCH[1]} text=${BASH_REMATCH[2]}
		sed -i "${n}s/^\\( *\\).*/\\1$text/" "$ROOT/$KCONF"
	elif [[ $text =~ $re_line ]]; then
		n=${BASH_REMATCH[1]} text=${BASH_REMATCH[2]}
		sed -i "${n}s/.*/$text/" "$ROOT/$KCONF"
	else
		return 1
	fi
}
afixture advise-kubelet-closest-numa
prun advise
check "an option the file has: its own line set, as printed" kubelet_edit
check "the file then has one prefer-closest-numa-nodes, true" \
	test "$(grep -c prefer-closest-numa-nodes "$ROOT/$KCONF")" = 1 -a -n "$(grep -x '    prefer-closest-numa-nodes: "true"' "$ROOT/$KCONF")"
prun advise
expect_out_lacks "kubelet-closest-numa" "and advise is silent on it"
afixture advise-kubelet-closest-numa
sed -i '/^topologyManagerPolicyOptions:/,/prefer-closest/d' "$ROOT/$KCONF"
echo 'topologyManagerPolicyOptions: {max-allowable-numa-nodes: "8"}' >>"$ROOT/$KCONF"
prun advise
expect_out_has 'with: topologyManagerPolicyOptions: {max-allowable-numa-nodes: "8", prefer-closest-numa-nodes: "true"} (' \
	"options as a flow mapping: the line to write whole, the option inside it"
check "replaced as printed" kubelet_edit
prun advise
expect_out_lacks "kubelet-closest-numa" "and advise is silent on it"
check "the other option is kept" grep -qx 'topologyManagerPolicyOptions: {max-allowable-numa-nodes: "8", prefer-closest-numa-nodes: "true"}' "$ROOT/$KCONF"

# --interval: a second sample; fixture counters stand still, so too few events.
afixture advise-remote-allocations
prun advise --interval 0.2
expect_out_has "insufficient data: remote-allocations: the 0.2 s interval saw only 0 allocation events" \
	"--interval with counters that did not move: too few events, said so"
expect_rc 0 "and no advice from them"

done_testing
