#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Weighted interleave on real kernels: Debian's linux-image-amd64 of
# bookworm-backports (6.12: weights, no auto) and of sid (7.x: auto), each
# fetched once into a cache (fetch-kernel.sh) and booted under QEMU with an
# HMAT (-machine hmat=on) that gives a CPU-less node 1 a quarter of node 0's
# bandwidth.  The guest's /init (init-interleave) checks get, set, profiles
# and revert of the weights, auto where the kernel has it, advise against
# the weights the kernel derives, and where a process's pages land under
# MPOL_WEIGHTED_INTERLEAVE.
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"
# shellcheck source=tests/vm/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"

VM_DIR=$(cd "$(dirname "$0")" && pwd)
# Each guest needs 15-25 s here under TCG, a few times that on a busy host.
VM_TIMEOUT=300
SUITES="bookworm-backports sid"

[ "$(uname -m)" = x86_64 ] || skip_all "the guest is x86_64, this host is $(uname -m)"
need $QEMU qemu-system-x86
need dpkg-deb dpkg
need migratepages numactl
[ "$(id -u)" = 0 ] || skip_all "fetching into the cache and booting the guest need root"

if ! "$VM_DIR/mkinitramfs.sh" "$NUMASTATCTL" "$VM_DIR/init-interleave" "$SOURCE_ROOT" \
	"$TMP/initramfs.cpio" "$WI_TOUCHER" "$VM_DIR/map-check" ${VM_MOVER:+"$VM_MOVER"} "$(command -v migratepages)" 2>"$TMP/mk.err"; then
	echo "Bail out! $(head -n 1 "$TMP/mk.err")"
	exit 1
fi

# Node 0: the CPU and DRAM; node 1: memory only, reached from node 0 at a
# quarter of the bandwidth and three times the latency (a CXL expander).
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

for suite in $SUITES; do
	if ! kernel=$("$VM_DIR/fetch-kernel.sh" "$suite" 2>"$TMP/fetch.err"); then
		# In CI the mirror is there: a kernel that cannot be had is a failure.
		if ci_requires qemu-system-x86; then
			not_ok "$suite: a kernel to boot" "$(cat "$TMP/fetch.err")"
		else
			ok "$suite: a kernel to boot # SKIP $(cat "$TMP/fetch.err")"
		fi
		continue
	fi
	rm -f "$TMP/console.log" "$TMP/tap.log"
	# shellcheck disable=SC2046 # hmat_args is a list of words on purpose
	run_guest $VM_TIMEOUT $(hmat_args) -kernel "$kernel" -initrd "$TMP/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 quiet"
	relay_tap $VM_TIMEOUT
	diag "$suite: $(cat "${kernel%/*}/version") under TCG: ${ELAPSED}s from start to power-off"
done
done_testing
