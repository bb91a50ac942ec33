#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# map: which node is what, on the machines gen-map.sh lays out (a CXL
# region of two memdevs, every node in one tier, a dax device onlined by
# kmem into ZONE_NORMAL, an ACPI DIMM with a block left offline, no memory
# blocks at all), on gen-packages.sh's SNC3 and NPS4 packages and on real
# guests' captures (gen-capture.sh); -J
# against its schema, --prometheus through promtool; what breaks it.
. "$(dirname "$0")/lib.sh"

M=sys/devices/system/memory

for m in cxl onetier dax pcdimm none snc3 nps4; do
	golden_run "map/$m.out"
	expect_rc 0 "map on $m exits 0"
	expect_golden "map/$m.out" "map on $m: the machine, a row per node, a line per node"
done
# Real guests: what their sysfs said, read back.
for m in capture-cxl-7.2 capture-pcdimm-offline capture-pcdimm-movable capture-pcdimm-online; do
	golden_run "map/$m.out"
	expect_rc 0 "map on $m exits 0"
	expect_golden "map/$m.out" "map on $m: the guest's devices, zones and tiers"
done
golden_run map/capture-cxl-7.2-json.out
expect_golden map/capture-cxl-7.2-json.out "map -J on the CXL guest"
gen_fixture gen-capture.sh cxl-7.2
run map
expect_out_has "   1    0   0   21 -      cxl region0   512M      0B      0B cxl       7" \
	"the CXL guest: node 1 is region0, in ZONE_NORMAL, memory_tier21, CXL figures"
printf '[numastatctl]\n' >"$ROOT/map.conf"
run --config "$ROOT/map.conf" advise
expect_out_has "lower-tier-normal-zone: node 1 is in a slower tier (memory_tier21) with 512M" \
	"advise on the CXL guest: the lower tier in ZONE_NORMAL"
expect_out_has "note: cxl-memdev-node: CXL mem0's numa_node is 0, the node of its PCI device; its memory (region0) is node 1" \
	"and the memdevs' numa_node against the region's node"
gen_fixture gen-capture.sh "pcdimm-6.1@hot-added, offline"
printf '[numastatctl]\n' >"$ROOT/map.conf"
run --config "$ROOT/map.conf" advise
expect_out_has "hotplug-offline: node 1: 2 of the 2 blocks of acpi PNP0C80:00 are offline (256M)" \
	"advise on the pc-dimm guest: its blocks left offline"

golden_run map/cxl-json.out
expect_rc 0 "map -J exits 0"
expect_golden map/cxl-json.out "map -J: machine fields, nodes, sources, regions, memdevs, dax"
for p in cxl pcdimm; do
	golden_run "map/$p-prom.out"
	expect_rc 0 "map --prometheus on $p exits 0"
	expect_golden "map/$p-prom.out" "map --prometheus on $p: info series and sizes"
	if have promtool; then
		check "promtool finds nothing in $p's series" \
			bash -c 'promtool check metrics <<<"$1"' _ "$OUT"
	fi
done

gen_fixture gen-map.sh cxl
run -J map
check "-J: the region's node is the dax device's target node, the memdevs on node 0" \
	python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["regions"][0]
assert r["region"] == "region0" and r["node"] == 2 and r["dax"] == "dax0.0", r
assert [(m["memdev"], m["numa_node"], m["region_node"]) for m in d["memdevs"]] == \
	[("mem0", 0, 2), ("mem1", 0, 2)], d["memdevs"]
n2 = d["nodes"][2]
assert n2["movable_bytes"] == 2 << 30 and n2["normal_bytes"] == 0 and n2["perf"] == "cxl", n2
assert d["nodes"][0]["demotion_targets"] == [2] and d["nodes"][1]["demotion_targets"] == [2]
' <<<"$OUT"

# Broken files: the one named, the rest of the map still shown, exit 1.
gen_fixture gen-map.sh pcdimm
echo "asleep" >"$ROOT/$M/memory9/state"
run map
expect_rc 1 "an unknown block state: exit 1"
expect_err "numastatctl: map: /$M/memory9/state: expected online, offline or going-offline" \
	"the file and what it may hold"
expect_out_has "NODE CPUS" "the table still shows"
gen_fixture gen-map.sh cxl
echo "0xZZ" >"$ROOT/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/size"
run map
expect_rc 1 "a region's size that is no number: exit 1"
expect_err "numastatctl: map: /sys/bus/cxl/devices/region0/size: expected a number such as 0x10000000" \
	"the region's file named"
gen_fixture gen-map.sh cxl
printf 'Node 0, zone   Normal\n        present  many\n' >"$ROOT/proc/zoneinfo"
run map
expect_rc 1 "a zoneinfo that does not parse: exit 1"
expect_err "numastatctl: map: /proc/zoneinfo: line 2: expected a page count" "the line named"
expect_out_has "   0    2   0    4 2      boot             -       -" \
	"the zones not shown rather than half-read"

# A kernel with the dax and CXL buses but no device on them, as this
# host's (dax built in, nothing bound): nothing to sort, and nothing said.
gen_fixture gen-map.sh none
rm -rf "$ROOT/sys/bus/dax/devices" "$ROOT/sys/bus/cxl/devices"
mkdir -p "$ROOT/sys/bus/dax/devices" "$ROOT/sys/bus/cxl/devices"
run map
expect_rc 0 "empty dax and CXL buses: exit 0"
expect_err "" "and nothing on stderr (no sort of an empty list)"

# A dump whose names hold control characters: escaped in the text.
gen_fixture gen-map.sh cxl
ep=$ROOT/sys/devices/platform/ACPI0017:00/root0/port1/endpoint5
ln -sfn "../../../../../pci0000:0c/x/mem"$'\e[2J'"0" "$ep/uport"
run map
expect_out_has 'mem\x1b[2J0 (serial unknown' "a memdev named with ESC: \\x1b, not the escape"
expect_out_lacks $'\e' "no raw escape reaches the terminal"

run map --prometheus -J
expect_rc 2 "--prometheus with -J: a usage error"
expect_err_has "--prometheus and -J: choose one" "says to choose"
run map extra
expect_rc 2 "an operand: a usage error"

done_testing
