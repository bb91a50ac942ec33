#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# status: the knobs in words and the warnings that need attention.
. "$(dirname "$0")/lib.sh"

fixture sparse3
run status
expect_rc 0 "status succeeds"
expect_out_has "vm.min_slab_ratio" "lists the knobs present"
expect_out_lacks "vm.zone_distribute_mode" "leaves out knobs this kernel lacks"
check "kernel.numa_balancing 1 is described as normal" grep -Eq '^kernel\.numa_balancing +1 normal$' <<<"$OUT"
check "vm.numa_stat 1 is described as on" grep -Eq '^vm\.numa_stat +1 on$' <<<"$OUT"
check "mm.numa.demotion_enabled shows the kernel's word" grep -Eq '^mm\.numa\.demotion_enabled +false off$' <<<"$OUT"
expect_err "" "no warnings on a healthy tree"

fixture sparse3
echo 0 >"$ROOT/proc/sys/vm/numa_stat"
echo 99 >"$ROOT/proc/sys/vm/zone_reclaim_mode"
echo 2 >"$ROOT/proc/sys/kernel/numa_balancing"
run status
expect_err_has "warning: vm.numa_stat is 0: NUMA counters are frozen at zero" "warns when counters are off"
expect_err_has "warning: vm.zone_reclaim_mode is 99, outside what numastatctl sets" "warns about values the kernel took but we refuse"
expect_err_has "tiering mode promotes pages, but mm.numa.demotion_enabled is off" "warns about tiering without demotion"
check "an out-of-range value is described with its unknown bits" grep -q 'unknown bits 0x60' <<<"$OUT"

fixture sparse3
run status -J
expect_rc 0 "status -J succeeds"
check "status -J is one JSON document with a knobs array" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
k = {x["knob"]: x for x in d["knobs"]}
assert k["vm.min_slab_ratio"]["value"] == "37", k
' "$OUT"

run status extra
expect_rc 2 "status takes no arguments"

done_testing
