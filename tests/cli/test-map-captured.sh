#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# map and its advise rules on the trees real kernels wrote: the dumps the
# CXL guest (7.2: a region of two memdevs onlined by kmem into ZONE_NORMAL,
# the host bridge on node 0) and the hot-add guest (6.12 with an HMAT: a
# DIMM on a node of its own, offline, online_movable, online) captured,
# rebuilt by gen-capture.sh.  Every file here is as the kernel wrote it:
# what the layout of gen-map.sh could get wrong, these cannot.
. "$(dirname "$0")/lib.sh"

for cap in cxl-7.2 cxl-7.2-prom pcdimm-6.12-offline pcdimm-6.12-movable pcdimm-6.12-online; do
	golden_run "map-captured/$cap.out"
	expect_rc 0 "map on the captured $cap exits 0"
	expect_golden "map-captured/$cap.out" "map on the captured $cap: as the kernel laid it out"
done

# rule ID: advise on the tree in $ROOT names rule ID.
rule() {
	[[ $OUT =~ (^|$'\n')(\ *[0-9]+\.\ \[[a-z]+\]\ |[a-z\ ]+:\ )$1:\  ]]
}

gen_fixture gen-capture.sh cxl-7.2
run advise
rule lower-tier-normal-zone
check "CXL, 7.2: the region kmem onlined into ZONE_NORMAL on a slower tier is advice" test $? = 0
rule cxl-memdev-node
check "CXL, 7.2: each memdev's numa_node 0 is not its region's node 1" test $? = 0
rule hotplug-offline
check "CXL, 7.2: nothing left offline" test $? = 1

gen_fixture gen-capture.sh "pcdimm-6.12@hot-added, offline"
run advise
rule hotplug-offline
check "DIMM, 6.12: its blocks left offline are advice" test $? = 0
rule lower-tier-normal-zone
check "DIMM, 6.12: offline, nothing in a zone" test $? = 1
gen_fixture gen-capture.sh "pcdimm-6.12@online_movable"
run advise
rule lower-tier-normal-zone
check "DIMM, 6.12: online_movable on the slower tier is no advice" test $? = 1
rule hotplug-offline
check "DIMM, 6.12: online_movable, nothing offline" test $? = 1
gen_fixture gen-capture.sh "pcdimm-6.12@online"
run advise
rule lower-tier-normal-zone
check "DIMM, 6.12: online into ZONE_NORMAL on the slower tier is advice" test $? = 0

done_testing
