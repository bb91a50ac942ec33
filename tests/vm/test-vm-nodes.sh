#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Nine nodes under QEMU: node 0 with the one CPU, nodes 1 to 8 of memory
# only, 64 MiB each, QEMU's distances (10 local, 20 remote).  More nodes
# than the kubelet's Topology Manager takes without
# max-allowable-numa-nodes: the guest's /init (init-nodes) proves both
# sides of advise's kubelet-numa-nodes, its printed line applied, and
# stat --compat's columns against numastat's.  VM_KERNEL boots another
# kernel (HACKING).
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"
# shellcheck source=tests/vm/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"

VM_DIR=$(cd "$(dirname "$0")" && pwd)
VM_TIMEOUT=180

guest_with_host_kernel

if ! "$VM_DIR/mkinitramfs.sh" "$NUMASTATCTL" "$VM_DIR/init-nodes" "$SOURCE_ROOT" \
	"$TMP/initramfs.cpio" 2>"$TMP/mk.err"; then
	echo "Bail out! $(head -n 1 "$TMP/mk.err")"
	exit 1
fi

# nine_nodes: -smp 1, nine memory backends, the CPU on node 0.
nine_nodes() {
	local i
	echo "-smp 1 -m 576M"
	for i in 0 1 2 3 4 5 6 7 8; do
		echo "-object memory-backend-ram,id=m$i,size=64M"
		if [ $i = 0 ]; then echo "-numa node,nodeid=0,cpus=0,memdev=m0"
		else echo "-numa node,nodeid=$i,memdev=m$i"; fi
	done
}

# shellcheck disable=SC2046 # nine_nodes is a list of words on purpose
run_guest $VM_TIMEOUT $(nine_nodes) -kernel "$KERNEL" -initrd "$TMP/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet"
relay_tap $VM_TIMEOUT
diag "$KERNEL under TCG, 9 nodes (8 of them memory only): ${ELAPSED}s from start to power-off"
done_testing
