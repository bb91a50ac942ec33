#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A writing command run by a user who is not root (as nobody, through
# setpriv) says in one line that it needs root, exits 1, and touches no
# state first: no lock, no directory under /run or /var/lib, no knob.
# Reading commands and --dry-run still work for that user.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to run as nobody"
need setpriv util-linux

# as_nobody ARGS...: the binary as nobody; sets OUT, ERR, RC.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NUMASTATCTL" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}

# state: what the default state directories hold, to compare after each run.
state() {
	ls -la --time-style=+%s.%N /run/numastatctl /var/lib/numastatctl 2>&1
	cat /proc/sys/vm/numa_stat /proc/sys/vm/zone_reclaim_mode
}
before=$(state)

fixture sparse3
chmod -R go+rX "$TMP"
CONF=$TMP/nonroot.conf
printf '[profile p]\nsummary = p\nvm.zone_reclaim_mode = 0\n' >"$CONF"
chmod 0644 "$CONF"

for cmd in "set vm.zone_reclaim_mode=0" "apply --config $CONF p" "revert" "confirm" \
	"set --try 10m vm.zone_reclaim_mode=0"; do
	# shellcheck disable=SC2086
	as_nobody $cmd
	expect_rc 1 "$cmd as nobody exits 1"
	expect_err "numastatctl: ${cmd%% *}: must be run as root" "$cmd says it needs root, in one line"
	# shellcheck disable=SC2086
	as_nobody --state-dir "$TMP/nobody" $cmd
	expect_rc 1 "$cmd --state-dir as nobody exits 1 on the live system"
	check "$cmd as nobody made no state directory" test ! -e "$TMP/nobody"
	# shellcheck disable=SC2086
	as_nobody --sysroot "$ROOT" $cmd
	expect_rc 1 "$cmd --sysroot as nobody, with the default state directory, exits 1"
	expect_err "numastatctl: ${cmd%% *}: must be run as root (or given --state-dir <dir> for the --sysroot tree)" \
		"$cmd --sysroot names the way out"
done
now=$(state)
if [ "$before" = "$now" ]; then
	ok "nothing changed under /run/numastatctl, /var/lib/numastatctl or in the knobs"
else
	not_ok "nothing changed under /run/numastatctl, /var/lib/numastatctl or in the knobs" \
		"before:" "$before" "after:" "$now"
fi

# A tree and a state directory of one's own need no root.
mkdir -m 0700 "$TMP/own" && chown 65534:65534 "$TMP/own" "$ROOT/proc/sys/vm/zone_reclaim_mode"
as_nobody --sysroot "$ROOT" --state-dir "$TMP/own/state" set vm.zone_reclaim_mode=1
expect_rc 0 "nobody sets a knob of its own --sysroot tree with its own --state-dir"
expect_file "$ROOT/proc/sys/vm/zone_reclaim_mode" 1 "and the tree's knob changed"

for cmd in "set --dry-run vm.zone_reclaim_mode=0" "revert --dry-run" \
	"apply --config $CONF --dry-run p" "apply --config $CONF --check p"; do
	# shellcheck disable=SC2086
	as_nobody --sysroot "$ROOT" $cmd
	if [ "$RC" = 1 ] && [ "$ERR" != "${ERR#*must be run as root}" ]; then
		not_ok "$cmd needs no root" "$ERR"
	else
		ok "$cmd needs no root"
	fi
done

# Another user's process: its numa_maps only root reads, and the message says so.
"$FIXTURES/gen-placement.sh" "$TMP/placement" procs >/dev/null
chmod -R go+rX "$TMP/placement"
chmod 0600 "$TMP/placement/proc/300/numa_maps"
as_nobody --sysroot "$TMP/placement" placement --pid 300
expect_rc 1 "placement of a process whose numa_maps nobody cannot read: exit 1"
expect_err "numastatctl: placement: process 300: /proc/300/numa_maps: Permission denied (another user's process: run as root)" \
	"the error says to run as root"
done_testing
