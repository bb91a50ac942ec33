#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# set -f reads its input whole, at most 1 MiB, and any problem reading it
# is one line and exit 2 (1 when out of memory), with nothing changed: a
# directory is no empty file, /dev/zero no endless one, and under a memory
# limit every failure still says what it is.
. "$(dirname "$0")/lib.sh"

fixture sparse3
before=$(cat "$ROOT/proc/sys/vm/min_slab_ratio")

run set -f "$TMP"
expect_rc 2 "a directory is refused"
expect_err "numastatctl: set: $TMP: cannot read: Is a directory" "in one line"

# bounded ARGS...: run, but never let a regression eat the machine's memory or
# time.  ASan cannot start under ulimit -v (its shadow memory), so there its
# own limit on resident memory stands in.
bounded() {
	local limit="ulimit -v 1048576"
	[ "${SANITIZE:-none}" = none ] ||
		limit="export ASAN_OPTIONS=${ASAN_OPTIONS:-}:hard_rss_limit_mb=1024"
	(eval "$limit"; exec timeout 30 "$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" "$@") \
		>"$TMP/out" 2>"$TMP/err"
	RC=$? OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
}

start=$(date +%s)
bounded set -f /dev/zero </dev/null
expect_rc 2 "/dev/zero is refused"
expect_err "numastatctl: set: /dev/zero: larger than 1 MiB: not a sysctl.d file" "in one line"
check "at once, not after eating memory" test $(($(date +%s) - start)) -lt 10

# Exactly 1 MiB is read; one byte more is not.
{ echo "vm.min_slab_ratio = 9"; head -c $((1048576 - 22 - 1)) /dev/zero | tr '\0' '#'; echo; } >"$TMP/1mib.conf"
check "the file is 1 MiB" test "$(stat -c %s "$TMP/1mib.conf")" = 1048576
run set --dry-run -f "$TMP/1mib.conf"
expect_rc 0 "a file of exactly 1 MiB is read"
expect_out "vm.min_slab_ratio: $before -> 9 (dry run)" "and used"
echo >>"$TMP/1mib.conf"
run set --dry-run -f "$TMP/1mib.conf"
expect_rc 2 "one byte more is refused"
expect_err "numastatctl: set: $TMP/1mib.conf: larger than 1 MiB: not a sysctl.d file" "saying so"

bounded set -f - </dev/zero
expect_rc 2 "an endless stdin is refused"
expect_err "numastatctl: set: <stdin>: larger than 1 MiB: not a sysctl.d file" "as <stdin>"

# Under an address-space limit every failure is one line that says what it is.
# limited KIB FILE: set -f FILE under KIB KiB of address space; sets RC.
limited() {
	prlimit --as=$(($1 * 1024)) "$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" \
		set --dry-run -f "$2" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
}
silent= seen_fail= seen_ok=
# judge KIB FILE: one run; a failure must be exactly one "numastatctl: set:" line.
judge() {
	limited "$1" "$2"
	case $RC in
	0) seen_ok=1 ;;
	127) ;; # the dynamic loader could not map libc: its own message, not ours
	*)
		seen_fail=1
		if [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -q '^numastatctl: set: ' "$TMP/err"; then
			silent="$silent $1 KiB ($(basename "$2")): exit $RC, stderr: $(<"$TMP/err")"
		fi ;;
	esac
}
if unsanitized "an address-space limit" && have prlimit util-linux; then
	yes 'vm.min_slab_ratio = 7' | head -10000 >"$TMP/big.conf"
	printf 'vm.min_slab_ratio = 7\nvm.min_*ratio = 8\n' >"$TMP/small.conf"
	# The least that starts at all (the loader's needs vary by machine) ...
	lo=1024 hi=65536
	while [ $((hi - lo)) -gt 16 ]; do
		mid=$(((lo + hi) / 2))
		limited "$mid" "$TMP/small.conf"
		if [ "$RC" = 127 ]; then lo=$mid; else hi=$mid; fi
	done
	# ... then finely above it, where each allocation fails in turn, and coarsely up.
	for kb in $(seq "$lo" 16 $((lo + 512))); do
		judge "$kb" "$TMP/small.conf"
		judge "$kb" "$TMP/big.conf"
	done
	for kb in $(seq "$lo" 512 $((lo + 16384))); do
		judge "$kb" "$TMP/big.conf"
	done
	if [ -z "$silent" ]; then ok "under a memory limit, every failure is one numastatctl line"
	else not_ok "under a memory limit, every failure is one numastatctl line" "$silent"; fi
	check "the sweep saw failures" test -n "$seen_fail"
	check "and successes" test -n "$seen_ok"
fi
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" "$before" "nothing was written"

done_testing
