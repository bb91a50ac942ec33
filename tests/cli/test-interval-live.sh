#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Interval mode and --pid on the running kernel (root; runs alone): real
# uevents (the kernel emits one when "add" is written to a device's uevent
# file), a forged one from a local process that must be ignored, a real
# counter reset by toggling vm.numa_stat (restored on every path), and
# --pid on this shell compared with numastat itself.
. "$(dirname "$0")/lib.sh"

NODE0=/sys/devices/system/node/node0
NUMA_STAT=/proc/sys/vm/numa_stat

[ "$(id -u)" = 0 ] || skip_all "needs root"
[ -d "$NODE0" ] || skip_all "no NUMA node 0 here"

saved_numa_stat=$(cat "$NUMA_STAT" 2>/dev/null)
# Put back only what this script changed: other runs may toggle it too.
touched=
SLEEPER=
at_exit '[ -n "$SLEEPER" ] && kill "$SLEEPER" 2>/dev/null'
at_exit '[ -n "$touched" ] && echo "$saved_numa_stat" >"$NUMA_STAT"'

# --pid on this shell: it waits for the command, so its memory holds still.
run_raw stat --pid $$
expect_rc 0 "stat --pid \$\$ on the live system"
expect_out_has "PID $$ (bash)" "names this shell"
expect_out_has "TOTAL" "and prints its table"
if have numastat numactl; then
	# This shell's heap moves as it stores output; a sleeping child's does not.
	sleep 600 &
	SLEEPER=$!
	# Until it has exec'd and gone to sleep its memory is still moving.
	for _ in $(seq 50); do
		[ "$(cat /proc/$SLEEPER/comm 2>/dev/null)" = sleep ] &&
			[ "$(cut -d' ' -f3 /proc/$SLEEPER/stat 2>/dev/null)" = S ] && break
		sleep 0.1
	done
	run_raw stat --pid $SLEEPER --compat
	want=$(numastat -p $SLEEPER)
	if [ "$OUT" = "$want" ]; then ok "--compat is byte for byte numastat -p"
	else not_ok "--compat is byte for byte numastat -p" "got:" "$OUT" "numastat:" "$want"; fi
fi
run_raw stat --pid "cmdline:self-exclusion-$$-token"
expect_rc 1 "a pattern only this numastatctl's own command line holds matches nothing"
expect_err_has "no process matches" "its own process is left out, as numastat does"

# Hotplug: a forged datagram first (must be ignored), then a real kernel event.
if [ -w "$NODE0/uevent" ]; then
	start_raw stat --totals 0.2
	wait_for_re "$TMP/bg.out" '^ +0 '
	python3 - <<'EOF'
import socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)  # NETLINK_KOBJECT_UEVENT
s.bind((0, 0))
msg = (b"add@/devices/system/node/node77\0ACTION=add\0"
       b"DEVPATH=/devices/system/node/node77\0SUBSYSTEM=node\0SEQNUM=1\0")
s.sendto(msg, (0, 1))  # to the kernel's multicast group, from a local port
EOF
	echo add >"$NODE0/uevent"
	check "a kernel uevent (node add) is noticed" \
		wait_for "$TMP/bg.err" "kernel uevent: node 0 added"
	mem=$(ls -d /sys/devices/system/memory/memory[0-9]* 2>/dev/null | head -n 1)
	if [ -n "$mem" ] && [ -w "$mem/uevent" ]; then
		echo online >"$mem/uevent"
		check "a memory block online event is noticed" \
			wait_for "$TMP/bg.err" "kernel uevent: memory block ${mem##*memory} online"
	fi
	stop
	expect_rc 130 "sampling goes on through topology events and ends by SIGINT"
	expect_err_lacks() {
		case "$ERR" in *"$1"*) not_ok "$2" "stderr has: $1" ;; *) ok "$2" ;; esac
	}
	expect_err_lacks "node77" "a datagram from a local process (not port 0) is ignored"
	expect_err_lacks "is gone" "node 0 is still sampled after the re-scan"
	expect_out_has "total since" "--totals: the totals after Ctrl-C"
else
	ok "# SKIP $NODE0/uevent is not writable"
fi

# A real reset: vm.numa_stat 1 -> 0 zeroes every counter.
if [ "$saved_numa_stat" = 1 ] && [ -w "$NUMA_STAT" ]; then
	start_raw stat -J 0.2
	wait_for "$TMP/bg.out" '"sample":1,'
	touched=1
	echo 0 >"$NUMA_STAT"
	check "the kernel's zeroing is seen as a reset" wait_for "$TMP/bg.err" "counters went down"
	echo 1 >"$NUMA_STAT"
	stop
	expect_rc 130 "a reset does not fail the run: it ends by SIGINT"
	expect_err_has "node 0: counters went down: vm.numa_stat is 0, counting is off" \
		"and the message says why"
	check "the reset sample is marked" grep -qF '"reset":true' <<<"$OUT"
	check "no delta is ever negative" test -z "$(grep -oE '":-[0-9]' <<<"$OUT")"
	check "vm.numa_stat is back to 1" test "$(cat "$NUMA_STAT")" = 1
else
	ok "# SKIP vm.numa_stat is not 1 or not writable"
fi

done_testing
