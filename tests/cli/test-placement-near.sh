#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement's near and far: remote anonymous memory on a node of the same
# package (an SNC or NPS sibling, memory attached to the package) is near
# and not actionable unless --max-near says; on another package it is far
# and actionable.  gen-packages.sh's SNC1, SNC2, SNC3, NPS4, a guest, and a
# machine without package information (every remote page actionable, as
# before).  Text, -J, Prometheus and --check agree.
. "$(dirname "$0")/lib.sh"

KIB=4096
# has_re ERE: a line of the last output matches (the table's columns fit their widest cell).
has_re() { grep -qE "$1" <<<"$OUT"; }
# near_case CASE PER MODE: db (4100) has 256 pages on the sibling node 1 and 32 on
# the memory-only node 2*PER (near), 128 on node PER (package 1, far).
near_case() {
	local c=$1 per=$2 mode=$3 near far total
	gen_fixture gen-packages.sh "$c"
	near=$(((256 + 32) * KIB)) far=$((128 * KIB)) total=$(((64 + 256 + 32 + 128) * KIB))

	run placement --pid 4100
	expect_rc 0 "$c: placement --pid 4100"
	expect_out_has "  package 0 of 2: nodes 0-$((per - 1)),$((2 * per)) ($mode)" \
		"$c: its package, the nodes on it (the memory-only one too) and the mode"
	check "$c: the sibling node 1 is near in the table" has_re "^ +1 near +1M "
	check "$c: node $per, on package 1, is far" has_re "^ +$per far +512K "
	check "$c: the memory-only node $((2 * per)) is near" has_re "^ +$((2 * per)) near +128K "
	expect_out_has "  remote anonymous, far     512K   26.7%  actionable" \
		"$c: the other package's pages are actionable"
	expect_out_has "  remote anonymous, near    1.1M   60.0%  same package: not actionable" \
		"$c: the sibling's and the attached node's are near, not actionable"
	expect_out_has "or: migratepages 4100 $per 0 " "$c: migratepages moves the far node only"
	long=$(awk 'length > 80' <<<"$OUT")
	check "$c: every line fits 80 columns" test -z "$long"

	run placement --pid 4100 -J
	expect_json "$c: -J: near and far apart, only far actionable and planned" "
want = dict(remote_near=$near, remote_anon=$far, actionable=$far, planned=$far,
            total=$total, near_actionable=False)
got = {k: t[k] for k in want}
if got != want: print(got)
cls = {c['class']: c['actionable'] for c in doc['classes']}
if cls.get('remote_near') is not False or cls.get('remote_anon') is not True: print(cls)
where = {n['node']: n['where'] for n in doc['nodes']}
if where != {0: 'local', 1: 'near', $per: 'far', $((2 * per)): 'near'}: print(where)"

	run placement --pid 4200 --check
	expect_rc 0 "$c: pages on the sibling alone: --check passes"
	expect_out_lacks "%  actionable" "$c: nothing called actionable"
	expect_out_lacks "move it now" "$c: and no fix printed"

	run placement --pid 4200 -J
	expect_json "$c: -J: zero actionable bytes and no fix for the sibling's pages" "
if t['actionable'] != 0 or t['planned'] != 0 or t['fixes'] or t['remote_near'] != 256 * $KIB:
    print(t)"

	run placement --pid 4100 --check --max-remote-anon 30
	expect_rc 0 "$c: far 26.7% under --max-remote-anon 30: --check passes"
	run placement --pid 4100 --check --max-remote-anon 30 --max-near 50
	expect_rc 3 "$c: --max-near 50 (near 60%): near actionable too, --check fails"
	run placement --pid 4100 -J --max-near 50
	expect_json "$c: --max-near 50: near counted and planned" "
if t['actionable'] != $near + $far or t['planned'] != $near + $far or not t['near_actionable']:
    print(t)"
	run placement --pid 4100 --max-near 60
	expect_out_has "same package: not actionable" "$c: --max-near 60: 60.0% is not over it"

	run placement --pid 4100 --prometheus
	expect_out_has "numastatctl_placement_bytes{process=\"4100\",class=\"remote_near\"} $near" \
		"$c: Prometheus: the near bytes under class remote_near"
	expect_out_has "numastatctl_placement_bytes{process=\"4100\",class=\"remote_anon\"} $far" \
		"$c: and the far ones under remote_anon"
	expect_out_has "numastatctl_placement_actionable_bytes{process=\"4100\"} $far" \
		"$c: actionable: the far bytes, as --check and -J"
}

near_case snc2 2 "SNC2: 2 nodes per package"
near_case snc3 3 "SNC3: 3 nodes per package"
near_case nps4 4 "NPS4: 4 nodes per package"

# A guest: no vendor's name for its mode, the same classes.
gen_fixture gen-packages.sh guest
run placement --pid 4100
expect_out_has "  package 0 of 2: nodes 0-1,4 (2 nodes per package)" \
	"guest: the mode without a vendor's name"
run placement --pid 4100 -J
expect_json "guest: the classes as on the machine it stands for" "
if (t['remote_near'], t['remote_anon']) != (288 * $KIB, 128 * $KIB): print(t)"

# SNC1: node 1 is package 1's, far; the memory-only node 2 is attached to package 0.
gen_fixture gen-packages.sh snc1
run placement --pid 4100 -J
expect_json "snc1: node 1 on the other package is far, the attached node near" "
if (t['remote_near'], t['remote_anon'], t['actionable']) != (32 * $KIB, 128 * $KIB, 128 * $KIB):
    print(t)"
run placement --pid 4200 --check
expect_rc 0 "snc1: pages on the attached memory-only node alone: --check passes"

# No package information: every remote page actionable, as before.
gen_fixture gen-packages.sh noinfo
run placement --pid 4100
expect_out_has "  remote anonymous          1.6M   86.7%  actionable" \
	"noinfo: one remote anonymous line, all of it actionable"
check "noinfo: the table says remote" has_re "^ +1 remote "
expect_out_lacks "near" "noinfo: nothing called near"
expect_out_lacks "package" "noinfo: no package line"
run placement --pid 4100 -J
expect_json "noinfo: -J: nothing near, near_actionable null" "
if t['remote_near'] != 0 or t['near_actionable'] is not None or t['actionable'] != 416 * $KIB:
    print(t)
if {n['where'] for n in doc['nodes'] if not n['local']} != {'unknown'}: print(doc['nodes'])"
run placement --pid 4200 --check
expect_rc 3 "noinfo: the sibling's pages are actionable where packages are unknown"

for bad in -1 101 x ''; do
	run placement --pid 4100 --max-near "$bad"
	expect_rc 2 "--max-near '$bad': a usage error"
	expect_err_has "--max-near '$bad': expected a percentage from 0 to 100" \
		"--max-near '$bad': the one line says what is allowed"
done
done_testing
