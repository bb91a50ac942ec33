#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench: refusals, knob and option validation (nothing here touches the live
# kernel; test-bench-live.sh runs it and interrupts it).
. "$(dirname "$0")/lib.sh"

fixture sparse3

run bench
expect_rc 2 "bench under --sysroot is a usage error"
expect_err "numastatctl: bench: --sysroot $ROOT: bench runs on the live system only (it flips a knob of the running kernel)
Try 'numastatctl bench --help' for more information." "naming the option and why"
expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "the fixture's numa_stat is untouched"
check "and no state was written" test ! -e "$STATE"

# Knob checks come before the sysroot check: they need no system at all.
# The messages name every knob bench flips: tests/expected/bench/.
golden_run bench/no-flip.err
expect_rc 2 "a KNOB_F_NO_FLIP knob is refused"
expect_golden bench/no-flip.err "saying why and which knobs bench flips"

run bench --knob mm.numa.demotion_enabled --values 0,1
expect_rc 2 "demotion_enabled is refused too"
expect_err_has "mm.numa.demotion_enabled: not safe to flip repeatedly" "naming it"

golden_run bench/not-registry.err
expect_rc 2 "a pass-through sysctl is refused"
expect_golden bench/not-registry.err "as nobody vouches for it"

run bench --knob vm.drop_caches --values 1,3
expect_rc 2 "an action sysctl is refused"
expect_one_err_line "in one line"

run bench --knob kernel.hostname --values a,b
expect_rc 2 "a knob outside the managed namespaces is refused"

run bench --knob vm.zone_reclaim_mode
expect_rc 2 "another knob needs --values"
expect_err "numastatctl: bench: --knob vm.zone_reclaim_mode needs --values <a>,<b>
Try 'numastatctl bench --help' for more information." "and says so"

run bench --knob zone_reclaim_mode --values 0,9
expect_rc 2 "each value is validated against the registry"
expect_err "numastatctl: bench: vm.zone_reclaim_mode: invalid value '9': must be 0..7, an OR of 1 (reclaim), 2 (write), 4 (unmap), e.g. 1|2 or reclaim|write" "with the registry's words"

run bench --values 1,2
expect_rc 2 "vm.numa_stat values are 0 or 1"
expect_err_has "vm.numa_stat: invalid value '2'" "naming the bad value"

for bad in 1 1,0,1 ,1 "" "$(printf 'x%.0s' $(seq 300)),1"; do
	run bench --values "$bad"
	expect_rc 2 "--values '${bad:0:12}' is refused"
done
run bench --values 1
expect_err "numastatctl: bench: --values: invalid value '1': expected two values, <a>,<b>
Try 'numastatctl bench --help' for more information." "saying what --values takes"

for opt in "--rounds 3" "--rounds 1001" "--rounds x" "--threads 0" "--threads 1025" \
	"--size 0" "--size 65537" "--size -1" "--node x" "--node 65536"; do
	# shellcheck disable=SC2086
	run bench $opt
	expect_rc 2 "bench $opt is refused"
done
run bench --rounds 3
expect_err "numastatctl: bench: --rounds: invalid value '3': must be 4..1000
Try 'numastatctl bench --help' for more information." "naming the range (4 rounds is the least for a 95% interval)"

run bench later
expect_rc 2 "a stray argument is refused"
expect_err_has "unexpected argument 'later'" "and named"

run_raw bench --help
expect_rc 0 "--help exits 0"
expect_out_has "Mann-Whitney" "and says which interval it reports"

if [ "$(id -u)" != 0 ]; then
	ok "# SKIP needs root to run as nobody"
elif have setpriv util-linux; then
	LD_DEBUG=files setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMASTATCTL" --state-dir "$TMP/nobody" bench >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	ERR=$(grep -v '^ *[0-9]*:' "$TMP/err")
	expect_rc 1 "bench as nobody exits 1"
	expect_err "numastatctl: bench: must be run as root" "in one clear line"
	if grep -q 'file=libnuma' "$TMP/err"; then
		not_ok "libnuma was not loaded for nobody"
	else
		ok "libnuma was not loaded for nobody"
	fi
	check "nothing was written for nobody" test ! -e "$TMP/nobody"
fi

done_testing
