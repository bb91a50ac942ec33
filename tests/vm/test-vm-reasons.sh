#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --migration-reasons on a real kernel: Debian sid's (7.x: demotion,
# damon, nodeN/reclaim), fetched once into the cache (fetch-kernel.sh) and
# booted under QEMU with the HMAT of test-vm-interleave.sh (node 1: memory
# only, slower, a lower tier).  The guest's /init (init-reasons) provokes
# each cause of migration on its own and checks its row; ROUNDS=N in
# VM_APPEND repeats them.  VM_KERNEL=IMAGE boots another kernel.
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"
# shellcheck source=tests/vm/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"

VM_DIR=$(cd "$(dirname "$0")" && pwd)
VM_TIMEOUT=${VM_TIMEOUT:-300}

[ "$(uname -m)" = x86_64 ] || skip_all "the guest is x86_64, this host is $(uname -m)"
need $QEMU qemu-system-x86
need migratepages numactl
[ "$(id -u)" = 0 ] || skip_all "fetching into the cache and booting the guest need root"

if ! "$VM_DIR/mkinitramfs.sh" "$NUMASTATCTL" "$VM_DIR/init-reasons" "$SOURCE_ROOT" \
	"$TMP/initramfs.cpio" "$VM_WHY" "$VM_SCX" "$(command -v migratepages)" 2>"$TMP/mk.err"; then
	echo "Bail out! $(head -n 1 "$TMP/mk.err")"
	exit 1
fi

# The HMAT of test-vm-interleave.sh: node 1 a quarter of node 0's bandwidth.
hmat_args() {
	echo "-machine pc,hmat=on -smp 1 -m 1G"
	echo "-object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M"
	echo "-numa node,nodeid=0,cpus=0,memdev=m0,initiator=0"
	echo "-numa node,nodeid=1,memdev=m1,initiator=0"
	echo "-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=80"
	echo "-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=100G"
	echo "-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=250"
	echo "-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=25G"
}

kernel=${VM_KERNEL:-}
if [ -z "$kernel" ] && ! kernel=$("$VM_DIR/fetch-kernel.sh" sid 2>"$TMP/fetch.err"); then
	if ci_requires qemu-system-x86; then
		not_ok "sid: a kernel to boot" "$(cat "$TMP/fetch.err")"
	else
		ok "sid: a kernel to boot # SKIP $(cat "$TMP/fetch.err")"
	fi
	done_testing
	exit
fi
# shellcheck disable=SC2046 # hmat_args is a list of words on purpose
run_guest "$VM_TIMEOUT" $(hmat_args) -kernel "$kernel" -initrd "$TMP/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet ${VM_APPEND:-}"
relay_tap "$VM_TIMEOUT"
diag "$(cat "${kernel%/*}/version" 2>/dev/null || echo "$kernel") under TCG: ${ELAPSED}s from start to power-off"
done_testing
