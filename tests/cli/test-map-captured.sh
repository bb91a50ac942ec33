#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# map and its advise rules on a tree a real kernel wrote: the hot-add
# guest's capture on 6.12 with an HMAT (gen-capture.sh:pcdimm-6.12), where
# the DIMM's node is a slower tier, unlike on 6.1 (test-map's captures):
# the zone rule speaks when its memory is in ZONE_NORMAL and not when it
# is movable.  Every file is as the kernel wrote it.
. "$(dirname "$0")/lib.sh"

for cap in offline movable online; do
	golden_run "map-captured/pcdimm-6.12-$cap.out"
	expect_rc 0 "map on the captured DIMM, $cap, exits 0"
	expect_golden "map-captured/pcdimm-6.12-$cap.out" "map on the captured DIMM, $cap: as 6.12 laid it out"
done

# rule ID: advise's output names rule ID.
rule() {
	[[ $OUT =~ (^|$'\n')(\ *[0-9]+\.\ \[[a-z]+\]\ |[a-z\ ]+:\ )$1:\  ]]
}

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
