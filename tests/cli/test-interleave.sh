#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Weighted interleave as registry knobs, on the trees of each kernel
# (tests/fixtures/gen-wi.sh): the per-node family and auto under both of its
# file names through get, globs, knobs, set, profiles, apply --check, JSON
# and Prometheus; auto turned off as the kernel's side effect of a weight
# write and turned on last by revert; bad input refused whole.
. "$(dirname "$0")/lib.sh"

WI=sys/kernel/mm/mempolicy/weighted_interleave
W=mm.mempolicy.weighted_interleave

# wfixture CASE: a fresh root of gen-wi.sh's CASE in $ROOT, empty $STATE.
wfixture() {
	FIXTURE_N=$((FIXTURE_N + 1))
	ROOT=$TMP/root.$FIXTURE_N
	STATE="$ROOT.state"
	"$FIXTURES/gen-wi.sh" "$ROOT" "$1" || { echo "Bail out! gen-wi.sh $1 failed"; exit 1; }
}

# --- get, globs, knobs on each kernel ---------------------------------------
wfixture wi-none
run get "$W.*"
expect_rc 1 "before 6.9: no weighted interleave knob matches"
run get "$W.node0"
expect_rc 1 "before 6.9: a weight is a knob this kernel lacks (exit 1)"
expect_err_has "not present on this kernel" "and says so"

wfixture wi-6.12
run get "$W.*"
expect_rc 0 "6.12: the glob lists every possible node's weight"
expect_out "$W.node0 = 1
$W.node1 = 1
$W.node2 = 1
$W.node3 = 1
$W.node4 = 1
$W.node5 = 1
$W.node6 = 1
$W.node7 = 1" "by node id, no auto"
run set "$W.auto=true"
expect_rc 2 "6.12: auto where the kernel lacks it is a usage error"
expect_one_err_line "in one line"
expect_err_has "came in 6.16" "naming when auto came"

wfixture wi-6.18
run get "$W.auto" "$W.node5"
expect_rc 0 "6.18: auto is read from __auto_type"
expect_out "$W.auto = true
$W.node5 = 1" "as true, with node 5's weight"
run set "$W.auto=0" --no-revert-point
expect_rc 0 "auto is written to __auto_type"
expect_file "$ROOT/$WI/__auto_type" 0 "the file the kernel has"
[ ! -e "$ROOT/$WI/auto" ] && ok "and no file named auto appears" || not_ok "and no file named auto appears"

wfixture wi-hmat
run get -n "$W.node0" "$W.node2" "$W.node5"
expect_out "14
14
3" "7.2 with HMAT: the derived weights"
run get "$W.node10"
expect_rc 2 "a node without a weight file is a usage error"
expect_err "numastatctl: get: $W.node10: no such node here: this kernel has weights for nodes 0,2,5" \
	"naming the nodes that have one"
run get "$W.node007"
expect_rc 2 "a node id with leading zeros is no name"
run get -J "$W.*"
expect_out_has '"name": "mm.mempolicy.weighted_interleave.node5",' "get -J names each node's weight"
run knobs -o NAME,PRESENT,NODES "$W.nodeN" "$W.node2" auto
expect_rc 0 "knobs takes the family, a member and the short name auto"
expect_out "NAME                                   PRESENT NODES
$W.nodeN yes     0,2,5
$W.auto  yes     " "the family once, with its nodes here"
run knobs --choices "$W.auto"
expect_out "0
1" "auto's choices"
run stat --prometheus --nodes 0
expect_out_has "numastatctl_knob_value{knob=\"$W.node5\"} 3" "Prometheus has each weight"
expect_out_has "numastatctl_knob_value{knob=\"$W.auto\"} 1" "and auto"

# --- set: the side effect, and revert turning auto on last --------------------
wfixture wi-hmat
run set "$W.node0=8" "$W.node5=2"
expect_rc 0 "set two weights with auto on"
expect_out "$W.auto: true -> false
$W.node0: 14 -> 8
$W.node5: 3 -> 2" "auto off is shown first: the kernel turns it off"
expect_file "$ROOT/$WI/node0" 8 "node0 written"
expect_file "$ROOT/$WI/auto" 0 "auto written off, as the kernel would"
mapfile -t saved < <(tail -n +2 "$STATE/revert")
if [ "$(printf '%s|' "${saved[@]}")" = "knob $W.node0 \"14\" \"8\" -|knob $W.node5 \"3\" \"2\" -|knob $W.auto \"1\" \"0\" side-effect|end 3|" ]; then
	ok "the revert point keeps auto after the weights, marked a side effect"
else
	not_ok "the revert point keeps auto after the weights, marked a side effect" "${saved[@]}"
fi
run revert
expect_rc 0 "revert"
expect_out_has "$W.node0: 8 -> 14
$W.node5: 2 -> 3
$W.auto: false -> true" "restores the weights, then auto on last"
expect_file "$ROOT/$WI/auto" 1 "auto is on again"

# A weight someone changed since: left alone, and auto with it, since
# turning auto on again would derive every weight anew, over that one.
wfixture wi-hmat
run set "$W.node0=8" "$W.node5=2"
echo 9 >"$ROOT/$WI/node0"
run revert
expect_rc 1 "revert with a weight changed since: exit 1"
expect_err "numastatctl: revert: $W.node0: left at 9: changed since numastatctl wrote 8 (--force restores 14)
numastatctl: revert: $W.auto: not restored: it would undo the knobs left alone (--force restores it too)" \
	"names the weight, and auto kept off for it"
expect_file "$ROOT/$WI/node5" 3 "the other weight is restored"
expect_file "$ROOT/$WI/node0" 9 "the weight changed since keeps its value"
expect_file "$ROOT/$WI/auto" 0 "auto stays off"
run revert --force
expect_rc 0 "revert --force restores all"
expect_out_has "$W.node0: 9 -> 14" "the weight changed since"
expect_out_has "$W.auto: false -> true" "and auto, last"

# The same revert point in the format of 0.1.0, left in the runtime
# directory by an upgrade without a reboot: its side effect line is read.
wfixture wi-hmat
run set "$W.node0=8" "$W.node5=2"
printf "# numastatctl revert state: 'numastatctl revert' writes these back\n# values before 'set' at 2026-01-01T00:00:00Z\n# for --sysroot %s\n%s = 14\n%s = 3\n# a side effect of the change above, restored last:\n%s = 1\n" \
	"$(realpath "$ROOT")" "$W.node0" "$W.node5" "$W.auto" >"$STATE/revert"
run revert
expect_rc 0 "revert of a revert point of 0.1.0 with a side effect"
expect_out_has "$W.node0: 8 -> 14
$W.node5: 2 -> 3
$W.auto: false -> true" "restores the weights, then auto on last"


# auto false named before a weight: the revert still turns auto on after
# every weight (a weight written turns auto off in the kernel), whatever
# the order typed.
wfixture wi-hmat
run set "$W.auto=false" "$W.node0=8"
expect_rc 0 "auto false, then a weight"
run revert
expect_rc 0 "revert of auto false and a weight"
expect_out_has "$W.node0: 8 -> 14
$W.auto: false -> true" "the weight first, auto on last"
# A revert point written in the order typed (an older numastatctl): the same.
wfixture wi-hmat
run set "$W.auto=false" "$W.node0=8"
printf 'knob %s "1" "0" -\nknob %s "14" "8" -\nend 2\n' "$W.auto" "$W.node0" >"$TMP/records"
{ head -n 1 "$STATE/revert"; cat "$TMP/records"; } >"$TMP/revert" && cat "$TMP/revert" >"$STATE/revert"
run revert
expect_out_has "$W.node0: 8 -> 14
$W.auto: false -> true" "an old revert point in the order typed: auto on still last"

# auto true over weights set by hand: the kernel derives every weight anew,
# so the revert point keeps the hand's weights and revert puts them back.
wfixture wi-hmat
echo false >"$ROOT/$WI/auto"
echo 5 >"$ROOT/$WI/node0" && echo 4 >"$ROOT/$WI/node2" && echo 1 >"$ROOT/$WI/node5"
run set "$W.auto=true"
expect_rc 0 "auto true over weights set by hand"
expect_out_has "$W.auto: false -> true" "turns auto on"
check "the revert point keeps node0's weight" grep -q "^knob $W.node0 \"5\" .* side-effect$" "$STATE/revert"
check "and node2's" grep -q "^knob $W.node2 \"4\" .* side-effect$" "$STATE/revert"
# The kernel's derived weights (the fixture does not derive them).
echo 14 >"$ROOT/$WI/node0" && echo 14 >"$ROOT/$WI/node2" && echo 3 >"$ROOT/$WI/node5"
run revert
expect_rc 0 "revert of auto true"
expect_out_has "$W.auto: true -> false
$W.node0: 14 -> 5
$W.node2: 14 -> 4
$W.node5: 3 -> 1" "auto off, then the hand's weights back"
expect_file "$ROOT/$WI/node0" 5 "node0 is the hand's again"

wfixture wi-hmat
run set --dry-run "$W.node2=7"
expect_rc 0 "--dry-run"
expect_out "$W.auto: true -> false (dry run)
$W.node2: 14 -> 7 (dry run)" "--dry-run shows the side effect too"
expect_file "$ROOT/$WI/auto" true "and writes nothing"

# auto already off: no side effect, plain revert.
wfixture wi-7.2
echo false >"$ROOT/$WI/auto"
run set "$W.node2=4"
expect_out "$W.node2: 1 -> 4" "with auto off, a weight is a weight"
run revert
expect_out_has "$W.node2: 4 -> 1" "and revert restores it alone"
expect_out_lacks "$W.auto" "without touching auto"

# No bandwidth data: the kernel cannot turn auto on again.  Auto on had
# derived nothing (every weight 1), so the weights are what revert restores.
wfixture wi-7.2
run set "$W.node0=3"
expect_rc 0 "auto on without bandwidth data: the weight is written"
expect_out "$W.auto: true -> false
$W.node0: 1 -> 3" "auto off is shown"
expect_err_has "nothing turns it on again until reboot" "with a warning that it stays off"
expect_one_err_line "in one line"
run revert
expect_rc 0 "revert"
expect_out_has "$W.node0: 3 -> 1" "restores the weight"
expect_out_lacks "$W.auto" "and does not try auto (ENODEV would undo the revert)"
expect_err_has "$W.auto stays false" "saying auto stays off, and why"
expect_file "$ROOT/$WI/node0" 1 "node0 back to 1"
run set "$W.auto=true"
expect_rc 2 "auto on where the kernel has no bandwidth data: refused before any write"
expect_err_has "refuses (ENODEV)" "saying the kernel would refuse it"
expect_one_err_line "in one line"
# With bandwidth data appearing later (a CXL region onlined), revert turns auto on.
echo true >"$ROOT/$WI/auto"
run set "$W.node0=3"
mkdir -p "$ROOT/sys/devices/system/node/node5/access1/initiators"
echo 25000 >"$ROOT/sys/devices/system/node/node5/access1/initiators/read_bandwidth"
run revert
expect_out_has "$W.auto: false -> true" "revert turns auto on once the kernel has bandwidth data"

# --- bad input: one line, exit 2, nothing written -----------------------------
wfixture wi-hmat
for bad in "$W.node0=0" "$W.node0=256" "$W.node0=-1" "$W.node0=" "$W.node0=0x10" "$W.node0=1.5" \
	"$W.node9=2" "$W.nodeN=2" "$W.auto=maybe" "$W.auto=1 $W.node0=2" "$W.node0=2 $W.auto=on"; do
	# shellcheck disable=SC2086 # two assignments in one case
	run set $bad
	expect_rc 2 "set $bad: exit 2"
	expect_one_err_line "set $bad: one line"
	[ ! -e "$STATE/revert" ] && ok "set $bad: no revert point" || not_ok "set $bad: no revert point"
done
run set "$W.auto=1" "$W.node0=2"
expect_err_has "exclude each other" "auto on with a weight: says why"
expect_file "$ROOT/$WI/node0" 14 "nothing was written"
expect_file "$ROOT/$WI/auto" true "auto neither"

# '-' skips a node this machine has no weight for (a fleet's profile).
wfixture wi-hmat
run set -- "-$W.node9=2" "$W.node0=5"
expect_rc 0 "'-' before a node without a weight: skipped"
expect_out_has "$W.node9: (skipped: not on this kernel)" "said to be skipped"
expect_file "$ROOT/$WI/node0" 5 "the rest is written"

# --- profiles ------------------------------------------------------------------
wfixture wi-hmat
cat >"$TMP/wi.conf" <<EOF
[profile cxl]
summary = DRAM and CXL at 8:2
$W.auto = false
$W.node0 = 8
$W.node2 = 8
$W.node5 = 2

[profile firmware]
summary = the firmware's weights
$W.auto = true

[profile both]
$W.auto = true
$W.node0 = 8
EOF
run --config "$TMP/wi.conf" apply --check cxl
expect_rc 3 "apply --check: the profile differs"
run --config "$TMP/wi.conf" apply cxl
expect_rc 0 "apply a profile of weights with auto off"
expect_out "$W.auto: true -> false
$W.node0: 14 -> 8
$W.node2: 14 -> 8
$W.node5: 3 -> 2" "auto first, then the weights by node"
run --config "$TMP/wi.conf" apply --check cxl
expect_rc 0 "apply --check: now it matches"
run --config "$TMP/wi.conf" apply firmware
expect_rc 0 "a profile can say auto"
# The weights the kernel derives are read back (this fixture derives none).
expect_out "$W.auto: false -> true
$W.node0: 8 -> 8
$W.node2: 8 -> 8
$W.node5: 2 -> 2" "and turns it on, with the weights it derives"
run --config "$TMP/wi.conf" apply both
expect_rc 2 "a profile with auto on and a weight is refused"
expect_err_has "exclude each other" "saying why"
expect_err_has "wi.conf:" "naming the lines"
run --config "$TMP/wi.conf" apply --check both
expect_rc 2 "apply --check refuses it too"

# --- stat --pid --interleave: where the pages landed ------------------------
wfixture wi-hmat
mkdir -p "$ROOT/proc/4242"
printf 'Name:\tpostgres\n' >"$ROOT/proc/4242/status"
printf 'postgres\0' >"$ROOT/proc/4242/cmdline"
cat >"$ROOT/proc/4242/numa_maps" <<'EOF2'
00400000 weighted interleave:0,2,5 file=/usr/bin/postgres mapped=10 N0=10 kernelpagesize_kB=4
7f6000000000 weighted interleave:0,2,5 anon=3100 dirty=3100 N0=1400 N2=1400 N5=300 kernelpagesize_kB=4
7f7000000000 weighted interleave=static:0,5 anon=1700 dirty=1700 N0=1400 N5=300 kernelpagesize_kB=4
EOF2
run stat --pid 4242 --interleave
expect_rc 0 "stat --pid --interleave"
expect_out "PID 4242 (postgres): 2 anonymous mappings under weighted interleave, 4800 pages
1 file mapping left out: the page cache is where its first reader put it
NODE PAGES SHARE% WEIGHT WANTS% WANTS_PAGES
   0  2800   58.3     14   58.3        2800
   2  1400   29.2     14   29.2        1400
   5   600   12.5      3   12.5         600

WANTS%: each node's share by the weights now (0:14 2:14 5:3, auto on);
pages placed before a weight changed keep their node" "pages per node against the weights' shares"
run -J stat --pid 4242 --interleave
expect_out_has '"wants_pages": 600' "-J carries the same"
run stat --interleave
expect_rc 2 "--interleave without --pid: usage error"
run stat --pid 4242 --interleave --compat
expect_rc 2 "--interleave with --compat: usage error"
echo "7f8000000000 weighted interleave N0=1 kernelpagesize_kB=4" >>"$ROOT/proc/4242/numa_maps"
run stat --pid 4242 --interleave
expect_rc 1 "a policy without its nodes: the process is reported"
expect_err_has "weighted interleave without a node list" "naming the problem"

# --- advise: the kernel's auto rule, and its profile -------------------------
wfixture wi-hmat
run advise
expect_out_has "note: interleave-weights: the kernel's auto already gives the weights the firmware's bandwidth asks for (0:14 2:14 5:3)" \
	"advise says when auto already gives the weights"
expect_out_has "node 5 (no CPU): access1/initiators: read 25000 MiB/s, write 30000 MiB/s, latency 250/300 ns" \
	"with the firmware's numbers as evidence"

# 6.12 has weights and no auto: the weights themselves are advised.
wfixture wi-hmat
rm "$ROOT/$WI/auto"
echo 1 >"$ROOT/$WI/node0"
echo 1 >"$ROOT/$WI/node2"
echo 1 >"$ROOT/$WI/node5"
run advise
expect_out_lacks "interleave-weights: set" \
	"weights 1:1:1 on a tiered HMAT machine where nothing uses weighted interleave: no advice on them"
expect_out_has "note: interleave-weights: nothing here uses weighted interleave (no mapping in a process's numa_maps, no unit's NUMAPolicy=, no weight in the profile): its weights matter once something does; the firmware's bandwidth gives 0:14 2:14 5:3 (node:weight)" \
	"one note for the machine"
n=$(grep -c "interleave-weights" <<<"$OUT")
check "one item, not one per node ($n)" test "$n" = 1
expect_out_lacks "knob-not-default: set $W.auto" "nor advice on auto through another rule"
mkdir -p "$ROOT/proc/4343"
printf 'Name:\tstream\n' >"$ROOT/proc/4343/status"
printf '7f0000000000 weighted interleave:0,2,5 anon=3 dirty=3 N0=1 N2=1 N5=1 kernelpagesize_kB=4\n' \
	>"$ROOT/proc/4343/numa_maps"
run advise
expect_rc 3 "weights 1:1:1 where the bandwidth says otherwise and a process uses weighted interleave: advice"
expect_out_has "interleave-weights: set $W.node0 = 14:" "node 0's weight"
expect_out_has "interleave-weights: set $W.node5 = 3:" "node 5's weight"
run advise --profile wi
expect_rc 3 "advise --profile"
printf '%s\n' "$OUT" >"$TMP/advised.conf"
run --config "$TMP/advised.conf" apply --check wi
expect_rc 3 "apply --check takes the advised profile: it differs"
run --config "$TMP/advised.conf" apply wi
expect_rc 0 "apply sets the advised weights"
expect_file "$ROOT/$WI/node5" 3 "node 5 at 3"
run advise
expect_out_lacks "interleave-weights" "and advise has nothing more to say on them"

done_testing
