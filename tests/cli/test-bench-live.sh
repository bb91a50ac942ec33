#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench on the real kernel: a short A/B run, JSON, and interrupted runs that
# must leave vm.numa_stat where it was.
. "$(dirname "$0")/lib.sh"

live_numa_stat
[ -r /sys/devices/system/node/has_memory ] || skip_all "no NUMA node directory in /sys"
# numa_available() fails where a seccomp filter refuses the memory-policy calls.
if command -v numactl >/dev/null && ! numactl --hardware >/dev/null 2>&1; then
	skip_all "NUMA is not available to processes here (numactl --hardware fails)"
fi
pid=
at_exit '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null'

echo 1 >"$NUMA_STAT"
run_raw --state-dir "$TMP/s1" bench --rounds 4 --size 4
expect_rc 0 "a short bench run succeeds"
expect_out_has "vm.numa_stat 1 against 0: 1 thread on node" "it says what it ran"
expect_out_has "VALUE ROUNDS NS_PER_FAULT FAULTS_PER_SEC" "a table of the medians"
check "a row for 1 with 4 rounds" grep -Eq '^1 +4 +[0-9]+\.[0-9] +[0-9]+$' <<<"$OUT"
check "a row for 0 with 4 rounds" grep -Eq '^0 +4 +[0-9]+\.[0-9] +[0-9]+$' <<<"$OUT"
check "the verdict line gives the difference, the interval and the reading" \
	grep -Eq '^vm\.numa_stat=0 against 1: [+-][0-9]+\.[0-9]{2}% ns per fault, 95% CI [+-][0-9]+\.[0-9]{2}% \.\. [+-][0-9]+\.[0-9]{2}%: (no significant difference|significantly faster|significantly slower)$' <<<"$OUT"
expect_file "$NUMA_STAT" 1 "vm.numa_stat is back at 1"
expect_err_has "zeroed the NUMA counters; they were saved to $TMP/s1/snapshots/" "the counters were saved first"

run_raw --state-dir "$TMP/s2" -J bench --rounds 5 --size 4
expect_rc 0 "bench -J succeeds"
check "bench -J matches its schema in numastatctl(8)" \
	python3 "$SOURCE_ROOT/tests/json-schema.py" "$SOURCE_ROOT/man/numastatctl.8.scd" bench <<<"$OUT"
check "-J: two rows; B's interval and 'significant' agree (significant iff 0 is outside)" python3 -c '
import json, sys
a, b = json.loads(sys.argv[1])["bench"]
assert (a["value"], b["value"]) == ("1", "0"), (a, b)
assert a["name"] == b["name"] == "vm.numa_stat" and "knob" not in a, a
assert a["rounds"] == b["rounds"] == 5 and a["threads"] == 1 and a["size_mib"] == 4
assert a["ns_per_fault"] > 0 and b["faults_per_sec"] > 0
assert a["diff_pct"] is None and isinstance(b["diff_pct"], float)
assert b["ci95_low_pct"] <= b["diff_pct"] <= b["ci95_high_pct"], b
assert b["significant"] == (b["ci95_low_pct"] > 0 or b["ci95_high_pct"] < 0), b
' "$OUT"
expect_file "$NUMA_STAT" 1 "vm.numa_stat is back at 1 after -J"

run_raw --state-dir "$TMP/s2" -q bench --rounds 4 --size 2
expect_rc 0 "bench -q succeeds"
expect_out "" "and prints nothing but errors"

run_raw --state-dir "$TMP/s3" bench --values 1,1 --rounds 4 --size 4 --threads 2
expect_rc 0 "an A/A run (1 against 1, two threads) measures the noise"
expect_out_has "2 threads on node" "with two threads"
check "and, never switching numa_stat off, saves no snapshot" test ! -e "$TMP/s3/snapshots"

has_snapshot() {
	compgen -G "$1/snapshots/numastat-*.json" >/dev/null
}

run_raw --state-dir "$TMP/s5" bench --knob vm.zone_distribute_mode --values 0,1 --rounds 4 --size 2
expect_rc 1 "a registry knob this kernel lacks exits 1"
expect_err_has "vm.zone_distribute_mode: cannot read /proc/sys/vm/zone_distribute_mode: not present on this kernel" \
	"and says it is not present"

run_raw --state-dir "$TMP/s5" bench --node 65535 --rounds 4 --size 2
expect_rc 2 "a node without CPUs and memory is refused"
expect_err "numastatctl: bench: --node 65535: the node must have both CPUs and memory" "in one line"
expect_file "$NUMA_STAT" 1 "vm.numa_stat untouched by the refused runs"

# The counters cannot be saved: numa_stat is never switched off.
mkdir -p "$TMP/s6"
: >"$TMP/s6/snapshots"
run_raw --state-dir "$TMP/s6" bench --rounds 4 --size 2
expect_rc 1 "bench refuses numa_stat 1 -> 0 when the counters cannot be saved"
expect_err "numastatctl: bench: vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters: $TMP/s6/snapshots: Not a directory (use --no-snapshot to go ahead without a snapshot)" \
	"in one line, with the way out"
expect_out "" "and prints no results"
expect_file "$NUMA_STAT" 1 "vm.numa_stat stays 1"

# interrupt SIGNAL START: start a long run at vm.numa_stat=START, wait until it
# has switched numa_stat off once (its snapshot exists), then send SIGNAL.
interrupt() {
	local sig=$1 start=$2 state="$TMP/int-$1" i
	echo "$start" >"$NUMA_STAT"
	"$NUMASTATCTL" --state-dir "$state" bench --rounds 1000 --size 16 \
		>"$TMP/out" 2>"$TMP/err" </dev/null &
	pid=$!
	for i in $(seq 600); do
		has_snapshot "$state" && break
		sleep 0.05
	done
	check "SIG$sig: the run got going (the counters were saved before numa_stat went 0)" \
		has_snapshot "$state"
	kill -"$sig" "$pid"
	wait "$pid"
	RC=$?
	pid=
	ERR=$(<"$TMP/err")
	OUT=$(<"$TMP/out")
	expect_rc 1 "SIG$sig: bench exits 1"
	expect_err_has "numastatctl: bench: interrupted by SIG$sig after " "SIG$sig: it says it was interrupted"
	expect_err_has "numastatctl: bench: vm.numa_stat: restored to $start" "SIG$sig: and that it restored $start"
	expect_file "$NUMA_STAT" "$start" "SIG$sig: vm.numa_stat is back at $start"
	expect_out "" "SIG$sig: no half-measured results"
}
interrupt INT 1
interrupt TERM 0
interrupt HUP 1

# Another writer changes the knob mid-run: the run stops (its numbers would
# mix two settings) and the original value still comes back.
slab=/proc/sys/vm/min_slab_ratio
slab_orig=$(cat "$slab")
at_exit 'echo "$slab_orig" >"$slab"'
a=$(((slab_orig + 1) % 100)) b=$(((slab_orig + 2) % 100)) other=$(((slab_orig + 50) % 100))
"$NUMASTATCTL" --state-dir "$TMP/s4" bench --knob vm.min_slab_ratio --values "$a,$b" \
	--rounds 1000 --size 4 >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for i in $(seq 600); do
	[ "$(cat "$slab")" != "$slab_orig" ] && break
	sleep 0.05
done
check "the min_slab_ratio run got going" test "$(cat "$slab")" != "$slab_orig"
echo "$other" >"$slab"
wait "$pid"
RC=$?
pid=
ERR=$(<"$TMP/err")
expect_rc 1 "a knob changed by another writer mid-run stops bench with exit 1"
expect_err_has "numastatctl: bench: vm.min_slab_ratio: changed by another writer during the run (now '$other', expected '" \
	"naming the knob and the stranger's value"
expect_err_has "vm.min_slab_ratio: restored to $slab_orig" "and restoring the original value"
expect_file "$slab" "$slab_orig" "min_slab_ratio is back at $slab_orig"

done_testing
