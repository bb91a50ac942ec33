# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What the QEMU tests (tests/vm, tests/boot) share, on top of tests/cli/lib.sh:
# the emulated NUMA machine, a bounded guest run that always ends QEMU, and
# relaying the guest's TAP (written to its second serial port) as ours.

QEMU=qemu-system-x86_64

# guest_with_host_kernel: what a guest of the built binary needs (an x86_64
# host, QEMU), and KERNEL, the image to boot: VM_KERNEL (another kernel, by
# hand: HACKING, "The 4-node guest on other kernels"), else the host's
# newest /boot/vmlinuz-*; the script skips when one is missing.
guest_with_host_kernel() {
	[ "$(uname -m)" = x86_64 ] || skip_all "the guest is x86_64, this host is $(uname -m)"
	need $QEMU qemu-system-x86
	# shellcheck disable=SC2012 # ls -v: the newest version last
	KERNEL=${VM_KERNEL:-$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)}
	[ -n "$KERNEL" ] || missing_all "no /boot/vmlinuz-* to boot (package linux-image-amd64)" linux-image-amd64
	[ -r "$KERNEL" ] || skip_all "$KERNEL: not readable (the VM test runs as root)"
}

# numa_args SIZE CPUS: four nodes of SIZE of memory each; the first CPUS
# nodes have one CPU each, the others memory only.  Node pairs {0,1} and
# {2,3} are near (20), the rest far (40, beyond the kernel's
# RECLAIM_DISTANCE of 30).
numa_args() {
	local i
	for i in 0 1 2 3; do
		echo "-object memory-backend-ram,id=m$i,size=$1"
		if [ $i -lt "$2" ]; then
			echo "-numa node,nodeid=$i,cpus=$i,memdev=m$i"
		else
			echo "-numa node,nodeid=$i,memdev=m$i"
		fi
	done
	echo "-numa dist,src=0,dst=1,val=20 -numa dist,src=2,dst=3,val=20"
	echo "-numa dist,src=0,dst=2,val=40 -numa dist,src=0,dst=3,val=40"
	echo "-numa dist,src=1,dst=2,val=40 -numa dist,src=1,dst=3,val=40"
}

# run_guest SECONDS QEMU-ARGS...: run QEMU under TCG with ttyS0 (console:
# kernel messages, command output) into $TMP/console.log and ttyS1 (TAP
# only) into $TMP/tap.log, and with VM_CAPTURE_FILE set ttyS2 into that
# file (a guest's vm-capture dump); sets QEMU_RC and ELAPSED.  TCG, always: the
# results must not depend on the host, and a /dev/kvm that opens is no
# promise that the CPU can virtualise (nested guests hang).  -no-reboot:
# a guest that dies or reboots ends QEMU at once.  QEMU runs in the
# background so that an exit hook kills it however this script ends.
run_guest() {
	local limit=$1 start
	shift
	start=$(date +%s)
	timeout --kill-after=10 "$limit" $QEMU -accel tcg "$@" \
		-nographic -no-reboot -monitor none -nic none \
		-serial "file:$TMP/console.log" -serial "file:$TMP/tap.log" \
		${VM_CAPTURE_FILE:+-serial "file:$VM_CAPTURE_FILE"} \
		</dev/null >"$TMP/qemu.out" 2>&1 &
	QEMU_PID=$!
	# timeout runs in a process group of its own, QEMU with it: the hook
	# kills the group (killing timeout alone would leave QEMU running).
	# shellcheck disable=SC2016 # expanded when the hook runs
	at_exit '[ -n "${QEMU_PID:-}" ] && kill -KILL -- -"$QEMU_PID" 2>/dev/null'
	# A TERM (meson's timeout, or .ci/test-all ending its background boot)
	# or a Ctrl-C ends the script through its EXIT hooks, so QEMU too;
	# wait returns at once for a trapped signal.
	trap 'exit 143' TERM
	trap 'exit 130' INT
	wait "$QEMU_PID"
	QEMU_RC=$?
	QEMU_PID=
	# shellcheck disable=SC2034 # for the caller's summary
	ELAPSED=$(($(date +%s) - start))
}

# console_tail: the end of the guest's console and QEMU's own output.
console_tail() {
	tail -n 25 "$TMP/console.log" 2>/dev/null | tr -d '\r'
	cat "$TMP/qemu.out"
}

# relay_tap: each guest TAP line becomes ours (ok/not ok renumbered,
# comments kept), then two checks of our own: the guest powered off by
# itself within LIMIT seconds (the first argument of run_guest), and it
# reported as many results as its plan announced.
relay_tap() {
	local limit=$1 plan='' seen=0 line
	while IFS= read -r line; do
		case "$line" in
		"ok "*) seen=$((seen + 1)); ok "${line#ok [0-9]* - }" ;;
		"not ok "*) seen=$((seen + 1)); not_ok "${line#not ok [0-9]* - }" ;;
		"#"*) diag "${line#"#"}" ;;
		1..*) plan=${line#1..} ;;
		esac
	done < <(tr -d '\r' <"$TMP/tap.log" 2>/dev/null)

	if [ "$QEMU_RC" = 124 ] || [ "$QEMU_RC" = 137 ]; then
		not_ok "the guest powered off within ${limit}s" "$(console_tail)"
	elif [ "$QEMU_RC" != 0 ] || ! grep -q 'reboot: Power down' "$TMP/console.log" 2>/dev/null; then
		# A kernel panic also ends QEMU with 0: -no-reboot.
		not_ok "the guest powered off by itself" "qemu exit $QEMU_RC" "$(console_tail)"
	else
		ok "the guest powered off by itself"
	fi
	if [ -n "$plan" ] && [ "$plan" = "$seen" ] && [ "$seen" -gt 0 ]; then
		ok "the guest finished all its $seen checks"
	else
		not_ok "the guest finished all its checks" "plan '${plan:-none}', lines $seen" \
			"$(console_tail)"
	fi
}
