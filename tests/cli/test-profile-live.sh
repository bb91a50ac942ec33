#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# apply, --check and revert on the real kernel, with a profile that flips
# vm.numa_stat and two node-reclaim thresholds (inert while zone reclaim is
# off).  Whatever happens, the machine's values are put back on exit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to write /proc/sys"
[ -w /proc/sys/vm/numa_stat ] || skip_all "/proc/sys/vm/numa_stat is not writable here"
[ -d /sys/devices/system/node ] || skip_all "no NUMA support in this kernel"

KNOBS="numa_stat min_unmapped_ratio min_slab_ratio"
declare -A ORIG
for k in $KNOBS; do ORIG[$k]=$(cat "/proc/sys/vm/$k"); done

restore() {
	# Straight to /proc: the restore must not depend on the code under test.
	for k in $KNOBS; do echo "${ORIG[$k]}" >"/proc/sys/vm/$k"; done
	rm -rf "$TMP"
}
trap restore EXIT
trap 'exit 130' INT TERM HUP

live() {
	run_raw --state-dir "$TMP/state" --config "$CONF" "$@"
}
value() {
	cat "/proc/sys/vm/$1"
}

flip=$((1 - ORIG[numa_stat]))
mu=$(( ORIG[min_unmapped_ratio] < 100 ? ORIG[min_unmapped_ratio] + 1 : 99 ))
ms=$(( ORIG[min_slab_ratio] < 100 ? ORIG[min_slab_ratio] + 1 : 99 ))
CONF="$TMP/numastatctl.conf"
cat >"$CONF" <<CONF
[profile live]
summary = Flip numa_stat, nudge two inert thresholds
vm.numa_stat = $flip
vm.min_unmapped_ratio = $mu
vm.min_slab_ratio = $ms
CONF

live apply --check live
expect_rc 3 "--check sees the live kernel differ"

live apply live
expect_rc 0 "apply on the live kernel succeeds"
expect_out "vm.numa_stat: ${ORIG[numa_stat]} -> $flip
vm.min_unmapped_ratio: ${ORIG[min_unmapped_ratio]} -> $mu
vm.min_slab_ratio: ${ORIG[min_slab_ratio]} -> $ms" "and reports each change"
check "the kernel holds the profile's numa_stat" test "$(value numa_stat)" = "$flip"
check "and its thresholds" test "$(value min_unmapped_ratio):$(value min_slab_ratio)" = "$mu:$ms"
if [ "$flip" = 0 ]; then
	snap=$(ls "$TMP"/state/snapshots/numastat-*.json 2>/dev/null | head -1)
	nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)
	check "numa_stat 1 -> 0 saved a snapshot first" test -s "$snap"
	check "with one entry per node ($nodes)" test "$(grep -c '"node":' "$snap")" = "$nodes"
	check "holding the counters from before they were zeroed" \
		grep -Eq '"numa_hit": [1-9][0-9]*' "$snap"
	check "which the kernel then zeroed" \
		grep -qx 'numa_hit 0' "$(find /sys/devices/system/node -maxdepth 2 -name numastat | head -1)"
fi

live apply --check live
expect_rc 0 "--check after apply finds no drift"

live revert
expect_rc 0 "revert on the live kernel succeeds"
for k in $KNOBS; do
	check "revert restored vm.$k to ${ORIG[$k]}" test "$(value "$k")" = "${ORIG[$k]}"
done
live apply --check live
expect_rc 3 "after revert the profile drifts again"

done_testing
