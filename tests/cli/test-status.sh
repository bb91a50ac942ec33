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

# status -J: one document carrying what the text shows, with the same words.
fixture sparse3
echo 0 >"$ROOT/proc/sys/vm/numa_stat"
echo 7 >"$ROOT/$(echo sys/devices/system/node/node2/numastat)"
cat >"$TMP/status.conf" <<'CONF'
[numastatctl]
profile = tuned
[profile tuned]
summary = two knobs
vm.min_slab_ratio = 5
vm.zone_reclaim_mode = 0
CONF
chmod 0644 "$TMP/status.conf"
run --config "$TMP/status.conf" status -J
expect_rc 0 "status -J succeeds"
check "status -J carries the knobs by name, the drift, the locality and the warnings" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["interleave_weights"] == "0:5,2:3,5:1" and d["tiers"] == [], d["tiers"]
assert list(d) == ["knobs", "profile", "drift", "sysctl_d", "tuned", "trial", "trial_knobs", "balancing", "tiers",
	"interleave_weights", "interactions", "nodes", "total", "warnings"], list(d)
assert d["interactions"] == [], d["interactions"]
assert d["balancing"] == {"state": "on", "mode": "normal", "hint_faults": None,
	"hint_faults_local": None, "hint_local_pct": None, "pages_migrated": None,
	"pages_promoted": None}, d["balancing"]
k = {x["name"]: x for x in d["knobs"]}
assert k["vm.min_slab_ratio"] == {"name": "vm.min_slab_ratio", "value": "37",
	"meaning": "percent of a node'"'"'s pages in reclaimable slab before zone reclaim shrinks slab"}, k
assert d["trial"] is None and d["trial_knobs"] == [], d["trial"]
assert d["profile"] == {"name": "tuned", "state": "differs", "problem": None}, d["profile"]
assert d["drift"] == [{"name": "vm.min_slab_ratio", "value": "37", "wants": "5",
	"origin": sys.argv[2] + ":5"}], d["drift"]
assert [n["node"] for n in d["nodes"]] == [0, 5], d["nodes"]
assert d["nodes"][0] == {"node": 0, "numa_hit": 7300011, "numa_miss": 120, "other_node": 10131,
	"local_pct": 99.9, "miss_pct": 0.0}, d["nodes"][0]
assert d["total"]["numa_hit"] == 7300011 + 410003, d["total"]
assert d["warnings"] == [
	"/sys/devices/system/node/node2/numastat: line 1: expected '"'"'name value'"'"'",
	"vm.numa_stat is 0: NUMA counters are frozen at zero"], d["warnings"]
' "$OUT" "$TMP/status.conf"
expect_err "numastatctl: status: warning: /sys/devices/system/node/node2/numastat: line 1: expected 'name value'
numastatctl: status: warning: vm.numa_stat is 0: NUMA counters are frozen at zero" \
	"the warnings also go to stderr, as without -J"
run --config "$TMP/status.conf" status
expect_out_has "profile: tuned (live differs: vm.min_slab_ratio is 37 (wants 5))" "the text says the same drift"
sed -i 's/vm.min_slab_ratio = 5/vm.min_slab_ratio = 37/' "$TMP/status.conf"
run --config "$TMP/status.conf" status -J
check "a profile the live system matches: state matches, no drift" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["profile"]["state"] == "matches" and d["drift"] == [], d
' "$OUT"
run --config "$TMP/nonexistent.conf" status -J
check "a configuration with problems: state broken, the problem named, and a warning" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
p = d["profile"]
assert p["state"] == "broken" and p["name"] is None and "nonexistent.conf" in p["problem"], p
assert p["problem"] in d["warnings"], d
' "$OUT"

run status extra
expect_rc 2 "status takes no arguments"

done_testing
