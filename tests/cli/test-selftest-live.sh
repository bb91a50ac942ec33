#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# selftest on the real kernel: the counters move, stand still at
# vm.numa_stat=0 (--toggle), and vm.numa_stat ends where it started.
. "$(dirname "$0")/lib.sh"

live_numa_stat
[ -r /sys/devices/system/node/has_memory ] || skip_all "no NUMA node directory in /sys"
# numa_available() fails where a seccomp filter refuses the memory-policy calls.
if command -v numactl >/dev/null && ! numactl --hardware >/dev/null 2>&1; then
	skip_all "NUMA is not available to processes here (numactl --hardware fails)"
fi
pid=
at_exit '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null'
state="$TMP/state"
nodes=$(tr ',' ' ' </sys/devices/system/node/has_memory)
first=$(grep -o '^[0-9]*' /sys/devices/system/node/has_cpu)

# no_fail DESC: stdout has PASS lines and no FAIL line.
no_fail() {
	if grep -q '^FAIL' <<<"$OUT" || ! grep -q '^PASS' <<<"$OUT"; then
		not_ok "$1" "stdout:" "$OUT" "stderr:" "$ERR"
	else
		ok "$1"
	fi
}

echo 1 >"$NUMA_STAT"
LD_DEBUG=files "$NUMASTATCTL" --state-dir "$state" selftest --pages 64 >/dev/null 2>"$TMP/err"
check "selftest loads libnuma (the probe of test-selftest.sh sees it)" grep -q 'file=libnuma' "$TMP/err"

run_raw --state-dir "$state" selftest --pages 256
expect_rc 0 "selftest passes on this machine"
no_fail "every check passes or is skipped"
expect_out_has "PASS local: node $first from a CPU of node $first: numa_hit +" "local placement raises numa_hit"
expect_out_has "PASS local: node $first from a CPU of node $first: local_node +" "and local_node"
expect_out_has "(want >= +256)" "by at least one event per page"
if [ "$(echo $nodes | wc -w)" = 1 ]; then
	expect_out_has "SKIP remote: this machine has one NUMA node" "one node: the remote check says it cannot run"
else
	expect_out_has "PASS remote: " "several nodes: other_node moves for remote placement"
fi
expect_out_has "SKIP counting off: --toggle switches vm.numa_stat off" "without --toggle numa_stat is left alone"
expect_out_has "SKIP numa_miss, numa_foreign:" "miss and foreign are not faked"
expect_file "$NUMA_STAT" 1 "vm.numa_stat is untouched"
check "and no snapshot was taken" test ! -e "$state/snapshots"

run_raw --state-dir "$state" selftest --toggle --pages 256
expect_rc 0 "selftest --toggle passes"
no_fail "every --toggle check passes or is skipped"
expect_out_has "PASS counting off: node $first from a CPU of node $first: every counter +0 (want +0)" \
	"at vm.numa_stat=0 no counter moves"
expect_out_has "PASS restore: vm.numa_stat is 1 again" "the value is restored"
expect_out_has "PASS counting again: node $first from a CPU of node $first: numa_hit +" \
	"and counting resumes"
expect_file "$NUMA_STAT" 1 "the kernel holds 1 again"
expect_err_has "zeroed the NUMA counters; they were saved to $state/snapshots/numastat-" \
	"the counters were saved before they were zeroed"
snap=$(ls "$state"/snapshots/numastat-*.json 2>/dev/null | head -1)
check "the snapshot holds the counters from before" python3 -c '
import json, sys
nodes = json.load(open(sys.argv[1]))["nodes"]
assert nodes and all(n["numa_hit"] > 0 for n in nodes), nodes
' "$snap"

run_raw --state-dir "$state" -J selftest --toggle --pages 64
expect_rc 0 "selftest -J --toggle passes"
check "selftest -J matches its schema in numastatctl(8)" \
	python3 "$SOURCE_ROOT/tests/json-schema.py" "$SOURCE_ROOT/man/numastatctl.8.scd" selftest <<<"$OUT"
check "-J prints the checks array, none failed, counting off passed" python3 -c '
import json, sys
checks = json.loads(sys.argv[1])["checks"]
assert all(c["result"] in ("pass", "skip") for c in checks), checks
off = [c for c in checks if c["check"] == "counting off"]
assert off and all(c["result"] == "pass" and c["delta"] == 0 for c in off), off
' "$OUT"
expect_file "$NUMA_STAT" 1 "vm.numa_stat is 1 after -J too"

run_raw --state-dir "$state" -q selftest --pages 64
expect_rc 0 "selftest -q passes"
expect_out "" "and prints nothing: the exit code tells"

# The largest --pages (4 GiB of 4 KiB pages) against this machine's free memory.
free_kb=$(awk '$3 == "MemFree:" { print $4 }' /sys/devices/system/node/node*/meminfo | sort -n | head -1)
if [ "$(getconf PAGESIZE)" = 4096 ] && [ "$free_kb" -lt $((8 * 1024 * 1024)) ]; then
	run_raw --state-dir "$state" selftest --pages 1048576
	expect_rc 2 "--pages beyond half of a node's free memory is refused"
	expect_err_has "--pages 1048576: 4096 MiB is more than half of node " "saying how much is free"
	expect_out "" "before any check runs"
else
	ok "# SKIP a node has more than 8 GiB free: 4 GiB of pages would be allowed"
fi

# Starting from 0: without --toggle only the "off" check runs; with it, 0 is restored.
echo 0 >"$NUMA_STAT"
run_raw --state-dir "$state" selftest --pages 64
expect_rc 0 "selftest at vm.numa_stat=0 passes"
expect_out_has "PASS counting off: " "it checks that the counters stand still"
expect_out_has "SKIP counting: vm.numa_stat is 0" "and says why it cannot check counting"
expect_file "$NUMA_STAT" 0 "vm.numa_stat stays 0"
run_raw --state-dir "$state" selftest --toggle --pages 64
expect_rc 0 "selftest --toggle from 0 passes"
expect_out_has "PASS local: " "it switched counting on for the local checks"
expect_out_has "PASS restore: vm.numa_stat is 0 again" "and restored 0"
expect_file "$NUMA_STAT" 0 "the kernel holds 0 again"

# Interrupted while the counters are off: vm.numa_stat still comes back.
# 1 GiB of pages keeps the "counting off" check busy long enough to be hit.
echo 1 >"$NUMA_STAT"
if [ "$(getconf PAGESIZE)" = 4096 ] && [ "$free_kb" -ge $((2 * 1024 * 1024 + 65536)) ]; then
	"$NUMASTATCTL" --state-dir "$state" selftest --toggle --pages 262144 \
		>"$TMP/out" 2>"$TMP/err" </dev/null &
	pid=$!
	while [ "$(cat "$NUMA_STAT")" != 0 ] && kill -0 "$pid" 2>/dev/null; do :; done
	check "selftest --toggle switched vm.numa_stat off" test "$(cat "$NUMA_STAT")" = 0
	kill -INT "$pid"
	wait "$pid"
	RC=$?
	pid=
	OUT=$(<"$TMP/out")
	ERR=$(<"$TMP/err")
	expect_rc 1 "SIGINT during the check exits 1"
	expect_err_has "numastatctl: selftest: interrupted by SIGINT after " "saying it was interrupted"
	expect_out_has "PASS restore: vm.numa_stat is 1 again" "after restoring vm.numa_stat"
	expect_file "$NUMA_STAT" 1 "the kernel holds 1 again"
else
	ok "# SKIP a node has less than 2 GiB free for the interrupted run"
fi

# No snapshot possible (a file where the snapshots go): vm.numa_stat is
# never switched off.
echo 1 >"$NUMA_STAT"
mkdir -p "$TMP/nosnap" && : >"$TMP/nosnap/snapshots"
run_raw --state-dir "$TMP/nosnap" selftest --toggle --pages 64
expect_rc 1 "selftest --toggle fails when the counters cannot be saved"
expect_out_has "FAIL toggle: vm.numa_stat: not switched off, since that zeroes the NUMA counters" \
	"and says vm.numa_stat was not switched off"
expect_file "$NUMA_STAT" 1 "vm.numa_stat stayed 1"

done_testing
