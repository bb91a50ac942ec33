#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# advise's single-node rules on the running kernel of a one-node machine
# (this host's and CI's): each knob set, advise must speak; put back to 0,
# it must stay silent.  The multi-node guest (tests/vm/init,
# check_advise_knobs) holds the same knobs on and finds the rules silent.
# vm.numa_stat is never written: 0 would zero the host's NUMA counters
# under whatever else reads them; its rule is the note for the value 1.
# Whatever happens, the machine's values are put back on exit.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to write /proc/sys"
nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l)
[ "$nodes" = 1 ] || skip_all "the single-node rules need one NUMA node, this machine has $nodes"
for k in kernel/numa_balancing vm/zone_reclaim_mode; do
	[ -w "/proc/sys/$k" ] || skip_all "/proc/sys/$k is not writable here"
done

declare -A ORIG
ORIG[kernel/numa_balancing]=$(</proc/sys/kernel/numa_balancing)
ORIG[vm/zone_reclaim_mode]=$(</proc/sys/vm/zone_reclaim_mode)

restore() {
	# Straight to /proc: the restore must not depend on the code under test.
	local k
	for k in "${!ORIG[@]}"; do echo "${ORIG[$k]}" >"/proc/sys/$k"; done
	rm -rf "$TMP"
}
trap restore EXIT
trap 'exit 130' INT TERM HUP

# advise on the live kernel, with no configuration and a state dir of its own.
live_advise() {
	run_raw --state-dir "$TMP/state" --config "$TMP/none.conf" advise
}
: >"$TMP/none.conf"

# rule_line ID: the line that gives rule ID's advice or note (an exact
# pattern, so an evidence line naming the knob does not count).
rule_line() {
	grep -E "^( *[0-9]+\. \[[a-z]+\] |note: )$1: " <<<"$OUT"
}

# speaks ID DESC / silent ID DESC
speaks() {
	if rule_line "$1" >/dev/null; then ok "$2"; else not_ok "$2" "no $1 line" "$OUT"; fi
}
silent() {
	if grep -q -- "$1" <<<"$OUT"; then not_ok "$2" "$1 speaks" "$OUT"; else ok "$2"; fi
}

echo 0 >/proc/sys/kernel/numa_balancing
echo 0 >/proc/sys/vm/zone_reclaim_mode
live_advise
silent single-node-balancing "numa_balancing 0 on one node: single-node-balancing is silent"
silent single-node-zone-reclaim "zone_reclaim_mode 0 on one node: single-node-zone-reclaim is silent"

echo 1 >/proc/sys/kernel/numa_balancing
echo 1 >/proc/sys/vm/zone_reclaim_mode
check "the kernel holds numa_balancing 1" test "$(</proc/sys/kernel/numa_balancing)" = 1
check "and zone_reclaim_mode 1" test "$(</proc/sys/vm/zone_reclaim_mode)" = 1
live_advise
expect_rc 3 "advise with both knobs on one node: exit 3, there is advice"
expect_err "" "and nothing on stderr"
speaks single-node-balancing "numa_balancing 1 on one node: single-node-balancing speaks"
check "it advises kernel.numa_balancing = 0" grep -q \
	"single-node-balancing: set kernel.numa_balancing = 0: this machine has one NUMA node" "$TMP/out"
speaks single-node-zone-reclaim "zone_reclaim_mode 1 on one node: single-node-zone-reclaim speaks"
check "it advises vm.zone_reclaim_mode = 0" grep -q \
	"single-node-zone-reclaim: set vm.zone_reclaim_mode = 0: this machine has one NUMA node" "$TMP/out"
silent zone-reclaim-near "one node: zone-reclaim-near (a rule of several nodes) is silent"

if [ "$(</proc/sys/vm/numa_stat)" = 1 ]; then
	speaks single-node-numa-stat "numa_stat 1 on one node: the single-node-numa-stat note"
else
	ok "# SKIP the single-node-numa-stat note: vm.numa_stat is 0 here"
fi

echo 0 >/proc/sys/kernel/numa_balancing
echo 0 >/proc/sys/vm/zone_reclaim_mode
live_advise
silent single-node-balancing "put back to 0: single-node-balancing is silent again"
silent single-node-zone-reclaim "put back to 0: single-node-zone-reclaim is silent again"

done_testing
