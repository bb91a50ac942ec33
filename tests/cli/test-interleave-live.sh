#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Weighted interleave on the running kernel: get reads node weights and
# auto (under either file name), set and revert round-trip a weight, and a
# weight written while auto is on where the kernel cannot turn auto on again
# (no bandwidth data: ENODEV) is only shown (--dry-run): written, it would
# leave auto off until reboot.  Whatever it
# changes is written back straight to sysfs at exit, not through the code
# under test.  A kernel without the files (before 6.9) skips.
. "$(dirname "$0")/lib.sh"

WI=/sys/kernel/mm/mempolicy/weighted_interleave
W=mm.mempolicy.weighted_interleave
[ "$(id -u)" = 0 ] || skip_all "needs root to write $WI"
[ -d "$WI" ] || skip_all "this kernel has no $WI (weighted interleave came in 6.9)"
# The lowest node with a weight file.
NODE=$(find "$WI" -maxdepth 1 -name 'node[0-9]*' -printf '%f\n' | sed 's/^node//' | sort -n | head -1)
[ -n "$NODE" ] || skip_all "$WI has no node weight here"
AUTO=
for f in auto __auto_type; do [ -e "$WI/$f" ] && AUTO=$WI/$f; done
[ -z "$AUTO" ] || [ -w "$AUTO" ] || skip_all "$AUTO is not writable here"
[ -w "$WI/node$NODE" ] || skip_all "$WI/node$NODE is not writable here"
state=$TMP/state

WEIGHT_ORIG=$(<"$WI/node$NODE")
AUTO_ORIG=${AUTO:+$(<"$AUTO")}
# The weight first (it turns auto off), then auto, as revert does; only
# what differs: writing even the same weight turns auto off, and without
# bandwidth data nothing turns it on again until reboot.
# shellcheck disable=SC2016 # expanded when the hook runs
at_exit '[ "$(<"$WI/node$NODE")" = "$WEIGHT_ORIG" ] || echo "$WEIGHT_ORIG" >"$WI/node$NODE" 2>/dev/null
	[ -z "$AUTO" ] || [ "$(<"$AUTO")" = "$AUTO_ORIG" ] || echo "$AUTO_ORIG" >"$AUTO" 2>/dev/null
	[ -z "$AUTO" ] || [ "$(<"$AUTO")" = "$AUTO_ORIG" ] ||
		echo "# $AUTO stays $(<"$AUTO"): the kernel cannot turn auto on again without bandwidth data"'
diag "$(uname -r): $WI has $(ls "$WI" | tr '\n' ' ')"

run_raw get "$W.node$NODE"
expect_out "$W.node$NODE = $WEIGHT_ORIG" "get reads node $NODE's weight"
if [ -n "$AUTO" ]; then
	run_raw get "$W.auto"
	expect_out "$W.auto = $AUTO_ORIG" "get reads auto from ${AUTO##*/}"
	run_raw get -n auto
	expect_out "$AUTO_ORIG" "by its short name too"
else
	run_raw get "$W.auto"
	expect_rc 2 "a kernel with weights and no auto: auto is a usage error"
	expect_one_err_line "in one line"
fi
run_raw get "$W.node4096"
expect_rc 2 "a node without a weight: a usage error"

# Bad values: refused before anything is written.
for bad in 0 256 -1 0x10; do
	run_raw --state-dir "$state" set "$W.node$NODE=$bad"
	expect_rc 2 "set node$NODE=$bad: exit 2"
done
expect_file "$WI/node$NODE" "$WEIGHT_ORIG" "the weight is unchanged"
[ -z "$AUTO" ] || expect_file "$AUTO" "$AUTO_ORIG" "auto is unchanged"

# Can the kernel turn auto on?  Only with bandwidth data (access class 1).
bandwidth=$(ls /sys/devices/system/node/node*/access1/initiators/read_bandwidth 2>/dev/null | head -1)
new=$((WEIGHT_ORIG % 255 + 1))
if [ -n "$AUTO" ] && [ "$AUTO_ORIG" = true ] && [ -z "$bandwidth" ]; then
	# A real write would turn auto off until reboot: only what set would do.
	run_raw --state-dir "$state" set --dry-run "$W.node$NODE=$new"
	expect_rc 0 "set --dry-run of a weight with auto on"
	expect_out "$W.auto: true -> false (dry run)
$W.node$NODE: $WEIGHT_ORIG -> $new (dry run)" "shows that the kernel would turn auto off"
	expect_file "$WI/node$NODE" "$WEIGHT_ORIG" "nothing written"
	expect_file "$AUTO" true "auto still on"
	run_raw --state-dir "$state" set "$W.auto=true"
	expect_out "$W.auto: true (unchanged)" "auto on when it reads on: nothing written"
	# Writing true to a kernel without bandwidth data fails even while it reads
	# true (no state yet): the write was not sent, so it succeeded.
	check "the kernel itself refuses auto on here (ENODEV): why revert leaves it off" \
		bash -c "! echo 1 >'$AUTO' 2>/dev/null"
	diag "the weight round trip runs where auto is off or can be turned on again: here it would leave auto off until reboot"
else
	run_raw --state-dir "$state" set "$W.node$NODE=$new"
	expect_rc 0 "set node$NODE=$new"
	expect_file "$WI/node$NODE" "$new" "the kernel holds it"
	[ -z "$AUTO" ] || expect_file "$AUTO" false "auto is off now"
	if [ "$AUTO_ORIG" = true ]; then
		expect_out_has "$W.auto: true -> false" "and set said so"
	fi
	run_raw --state-dir "$state" revert
	expect_rc 0 "revert"
	[ -z "$AUTO" ] || expect_file "$AUTO" "$AUTO_ORIG" "auto is back to $AUTO_ORIG"
	if [ "$AUTO_ORIG" != true ]; then
		expect_file "$WI/node$NODE" "$WEIGHT_ORIG" "the weight is back"
	else
		diag "auto on again: node$NODE is $(<"$WI/node$NODE") as the kernel derives it"
	fi
fi

done_testing
