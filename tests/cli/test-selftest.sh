#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# selftest: refusals and option errors (nothing here touches the live kernel;
# test-selftest-live.sh runs the checks).
. "$(dirname "$0")/lib.sh"

fixture sparse3

run selftest
expect_rc 2 "selftest under --sysroot is a usage error"
expect_err "numastatctl: selftest: --sysroot $ROOT: selftest runs on the live system only (libnuma places memory on the running kernel's nodes)
Try 'numastatctl selftest --help' for more information." "naming the option and why"
expect_out "" "and prints no check"

run selftest --toggle
expect_rc 2 "--toggle under --sysroot is refused the same way"
expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "the fixture's numa_stat is untouched"
check "and no state was written" test ! -e "$STATE"

run selftest --pages 8
expect_rc 2 "--pages below 16 is refused"
expect_err "numastatctl: selftest: --pages: invalid value '8': must be 16..1048576
Try 'numastatctl selftest --help' for more information." "naming the range"

run selftest --pages 12x
expect_rc 2 "--pages with junk is refused"

run selftest --pages 1048577
expect_rc 2 "--pages above the maximum is refused"

run selftest now
expect_rc 2 "a stray argument is refused"
expect_err "numastatctl: selftest: unexpected argument 'now'
Try 'numastatctl selftest --help' for more information." "and named"

run selftest --togle
expect_rc 2 "an unknown option is refused"
expect_err_has "unrecognized option '--togle'" "and named"

run_raw selftest --help
expect_rc 0 "--help exits 0"
expect_out_has "--toggle" "and documents --toggle"

# Non-root on the live system: refused before libnuma is even loaded.
if [ "$(id -u)" != 0 ]; then
	ok "# SKIP needs root to run as nobody"
elif have setpriv util-linux; then
	for args in "selftest" "selftest --toggle"; do
		# shellcheck disable=SC2086
		LD_DEBUG=files setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$NUMASTATCTL" --state-dir "$TMP/nobody" $args >"$TMP/out" 2>"$TMP/err" </dev/null
		RC=$?
		ERR=$(grep -v '^ *[0-9]*:' "$TMP/err")
		expect_rc 1 "$args as nobody exits 1"
		expect_err "numastatctl: selftest: must be run as root" "$args as nobody: one clear line"
		if grep -q 'file=libnuma' "$TMP/err"; then
			not_ok "$args as nobody: libnuma was loaded"
		else
			ok "$args as nobody: libnuma was not loaded"
		fi
	done
	check "nothing was written for nobody" test ! -e "$TMP/nobody"
fi

# Commands other than selftest and bench never load libnuma (its constructor
# reads every node's meminfo), not even on the live system (read-only here);
# test-selftest-live.sh shows that the probe does see it when it is loaded.
for args in "get" "status" "stat" "knobs"; do
	# shellcheck disable=SC2086
	LD_DEBUG=files "$NUMASTATCTL" --state-dir "$STATE" $args \
		>/dev/null 2>"$TMP/err" </dev/null
	if grep -q 'file=libnuma' "$TMP/err"; then
		not_ok "$args does not load libnuma" "$(grep 'file=libnuma' "$TMP/err")"
	else
		ok "$args does not load libnuma"
	fi
done

done_testing
