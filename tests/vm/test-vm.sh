#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The multi-node truth: boot the packaged Debian kernel under QEMU with four
# emulated NUMA nodes and a busybox initramfs that carries the built binary,
# let the guest's /init run numastatctl against the live kernel and compare
# it with the guest's own numastat, and turn the guest's TAP into ours.
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"

VM_DIR=$(cd "$(dirname "$0")" && pwd)
QEMU=qemu-system-x86_64
# A hard limit for the guest, which needs 15-25 s here under TCG and a few
# times that on a busy 2-core host.
VM_TIMEOUT=180

# The guest runs the binary built here: an x86_64 one.
[ "$(uname -m)" = x86_64 ] || skip_all "the guest is x86_64, this host is $(uname -m)"
need $QEMU qemu-system-x86
# shellcheck disable=SC2012 # ls -v: the newest version last
KERNEL=$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)
[ -n "$KERNEL" ] || missing_all "no /boot/vmlinuz-* to boot (package linux-image-amd64)" linux-image-amd64
[ -r "$KERNEL" ] || skip_all "$KERNEL: not readable (the VM test runs as root)"

bail_out() {
	echo "Bail out! $*"
	exit 1
}

if ! "$VM_DIR/mkinitramfs.sh" "$NUMASTATCTL" "$VM_DIR/init" "$SOURCE_ROOT" \
	"$TMP/initramfs.cpio" ${VM_TOUCHER:+"$VM_TOUCHER"} 2>"$TMP/mk.err"; then
	bail_out "$(head -n 1 "$TMP/mk.err")"
fi

# Four nodes of 256 MiB each; nodes 0-2 have one CPU each, node 3 has
# memory only (no cpus=: the kernel lists it in has_memory, not has_cpu).
# Node pairs {0,1} and {2,3} are near (20), the rest far (40, beyond the
# kernel's RECLAIM_DISTANCE of 30): tests/vm/init checks the guest sees this
# SLIT, and advise judges zone reclaim and tiering on it.
# Node 3 also gets a 128 MiB DIMM, which the guest onlines and offlines.
numa_args() {
	local i
	for i in 0 1 2 3; do
		echo "-object memory-backend-ram,id=m$i,size=256M"
		if [ $i = 3 ]; then
			echo "-numa node,nodeid=$i,memdev=m$i"
		else
			echo "-numa node,nodeid=$i,cpus=$i,memdev=m$i"
		fi
	done
	echo "-numa dist,src=0,dst=1,val=20 -numa dist,src=2,dst=3,val=20"
	echo "-numa dist,src=0,dst=2,val=40 -numa dist,src=0,dst=3,val=40"
	echo "-numa dist,src=1,dst=2,val=40 -numa dist,src=1,dst=3,val=40"
	# A DIMM on node 3 for the guest to online and offline (real hotplug).
	echo "-object memory-backend-ram,id=dimm3,size=128M"
	echo "-device pc-dimm,id=dimm3,memdev=dimm3,node=3"
}

# TCG, always: the results must not depend on the host, and a /dev/kvm that
# opens is no promise that the CPU can virtualise (nested guests hang).
accel=tcg

# ttyS0: console (kernel messages, each command's output); ttyS1: TAP only.
# panic=-1 and -no-reboot: a guest that dies ends QEMU at once.
# memhp_default_state=offline: the DIMM waits for the guest to online it,
# whatever the kernel's build-time default.
start=$(date +%s)
# shellcheck disable=SC2046 # numa_args is a list of words on purpose
timeout $VM_TIMEOUT $QEMU -accel $accel -smp 3 -m 1G,slots=2,maxmem=2G $(numa_args) \
	-kernel "$KERNEL" -initrd "$TMP/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet memhp_default_state=offline" \
	-nographic -no-reboot -monitor none -nic none \
	-serial "file:$TMP/console.log" -serial "file:$TMP/tap.log" \
	</dev/null >"$TMP/qemu.out" 2>&1
qemu_rc=$?
elapsed=$(($(date +%s) - start))

# Each guest line becomes ours: ok/not ok renumbered, comments kept.
plan=
seen=0
while IFS= read -r line; do
	case "$line" in
	"ok "*) seen=$((seen + 1)); ok "${line#ok [0-9]* - }" ;;
	"not ok "*) seen=$((seen + 1)); not_ok "${line#not ok [0-9]* - }" ;;
	"#"*) diag "${line#"#"}" ;;
	1..*) plan=${line#1..} ;;
	esac
done < <(tr -d '\r' <"$TMP/tap.log" 2>/dev/null)

console_tail() {
	tail -n 25 "$TMP/console.log" 2>/dev/null | tr -d '\r'
	cat "$TMP/qemu.out"
}

if [ $qemu_rc = 124 ]; then
	not_ok "the guest powered off within ${VM_TIMEOUT}s" "$(console_tail)"
elif [ $qemu_rc != 0 ] || ! grep -q 'reboot: Power down' "$TMP/console.log" 2>/dev/null; then
	# A kernel panic (init died) also ends QEMU with 0: -no-reboot.
	not_ok "the guest powered off by itself" "qemu exit $qemu_rc" "$(console_tail)"
else
	ok "the guest powered off by itself"
fi
if [ -n "$plan" ] && [ "$plan" = "$seen" ] && [ "$seen" -gt 0 ]; then
	ok "the guest finished all its $seen checks"
else
	not_ok "the guest finished all its checks" "plan '${plan:-none}', lines $seen" \
		"$(console_tail)"
fi
diag "$KERNEL under $accel, 4 nodes (node 3 memory only): ${elapsed}s from start to power-off"
done_testing
