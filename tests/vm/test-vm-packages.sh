#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Packages under QEMU: two sockets (-smp sockets=2), four memory nodes two
# to a socket, and a memoryless CPU node on socket 1; SLIT distances 12
# inside a socket and 21 across (11 from the memoryless node to node 3).
# The guest's /init (init-packages) checks placement's packages, mode and
# near/far classes against sysfs, that memory on a sibling is near (no
# fix, --move leaves it) and on the other socket far (moved to the local
# node), and that a CPU on a memoryless node is local to its nearest
# memory node.  VM_KERNEL boots another kernel (HACKING).
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"
# shellcheck source=tests/vm/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"

VM_DIR=$(cd "$(dirname "$0")" && pwd)
VM_TIMEOUT=180

guest_with_host_kernel

if ! "$VM_DIR/mkinitramfs.sh" "$NUMASTATCTL" "$VM_DIR/init-packages" "$SOURCE_ROOT" \
	"$TMP/initramfs.cpio" "$VM_TOUCHER" 2>"$TMP/mk.err"; then
	echo "Bail out! $(head -n 1 "$TMP/mk.err")"
	exit 1
fi

# Socket 0: CPUs 0-1, nodes 0 (CPU 0) and 1 (CPU 1); socket 1: CPUs 2-3,
# nodes 2 (CPU 2), 3 (memory only) and 4 (CPU 3, no memory).  Four CPUs,
# not more: six under TCG on a busy 2-core host stalled the guest's boot.
packages_args() {
	local i j d pkg=(0 0 1 1 1)
	echo "-smp 4,sockets=2,cores=2,threads=1 -m 768M"
	for i in 0 1 2 3; do
		echo "-object memory-backend-ram,id=m$i,size=192M"
	done
	echo "-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1"
	echo "-numa node,nodeid=2,cpus=2,memdev=m2 -numa node,nodeid=3,memdev=m3"
	echo "-numa node,nodeid=4,cpus=3"
	for ((i = 0; i < 5; i++)); do
		for ((j = i + 1; j < 5; j++)); do
			if [ "${pkg[i]}" != "${pkg[j]}" ]; then d=21
			elif [ "$i$j" = 34 ]; then d=11
			else d=12; fi
			echo "-numa dist,src=$i,dst=$j,val=$d"
		done
	done
}

# shellcheck disable=SC2046 # packages_args is a list of words on purpose
run_guest $VM_TIMEOUT $(packages_args) -kernel "$KERNEL" -initrd "$TMP/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet"
relay_tap $VM_TIMEOUT
diag "$KERNEL under TCG, 2 sockets, 5 nodes (QEMU's nodeid 3 without CPUs, 4 without memory): ${ELAPSED}s from start to power-off"
done_testing
