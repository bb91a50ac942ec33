#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real CXL chain: QEMU 10 of bookworm-backports (fetch-qemu.sh: volatile
# type-3 expanders need QEMU 8.0 or later, Debian 12 has 7.2), a CXL host
# bridge (pxb-cxl) with two root ports and a volatile type-3 memory
# expander on each, a fixed memory window (cxl-fmw) over it, an HMAT, and a Debian kernel whose CXL
# and dax modules travel in the initramfs (fetch-kernel.sh SUITE MODULE...).
# The guest's /init (init-cxl) builds the region through sysfs, kmem
# onlines its dax device as a new node, and the memory map is checked
# against sysfs and /proc/zoneinfo.  VM_SUITES: the kernels' suites
# (default sid); VM_CAPTURE=DIR: each guest's vm-capture dump into
# DIR/cxl-VERSION.txt.
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"
# shellcheck source=tests/vm/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"

VM_DIR=$(cd "$(dirname "$0")" && pwd)
# Each guest needs 30-50 s here under TCG, a few times that on a busy host.
VM_TIMEOUT=300
# vm-capture's dumps fork per file: minutes under TCG on a busy host.
[ -z "${VM_CAPTURE:-}" ] || VM_TIMEOUT=1200
SUITES=${VM_SUITES:-sid}
# What the guest loads; cxl_core and cxl_port are built into Debian's
# kernels (then fetch-kernel.sh lists them as built in).
MODULES="cxl_core cxl_port cxl_acpi cxl_pci cxl_mem dax_cxl device_dax kmem"

[ "$(uname -m)" = x86_64 ] || skip_all "the guest is x86_64, this host is $(uname -m)"
need dpkg-deb dpkg
need modinfo kmod
need xz xz-utils
[ "$(id -u)" = 0 ] || skip_all "fetching into the cache and booting the guest need root"

# fetched WHAT SCRIPT ARGS...: FETCHED is the path SCRIPT prints; or a
# failed (in CI) or skipped check, and false.
fetched() {
	local what=$1 script=$2
	shift 2
	if FETCHED=$("$VM_DIR/$script" "$@" 2>"$TMP/fetch.err"); then
		return 0
	fi
	# In CI the mirror is there: what cannot be had is a failure.
	if ci_requires qemu-system-x86; then
		not_ok "$what" "$(cat "$TMP/fetch.err")"
	else
		ok "$what # SKIP $(cat "$TMP/fetch.err")"
	fi
	return 1
}

fetched "QEMU 10 of bookworm-backports" fetch-qemu.sh || {
	done_testing
	exit
}
QEMU=$FETCHED
fetched "its firmware" fetch-qemu.sh --firmware || {
	done_testing
	exit
}
FIRMWARE=$FETCHED
# QEMU loads its UI and audio modules from the directory of its own build,
# not the host's 7.2 ones.
QEMU_MODULE_DIR=$(dirname "$(dirname "$QEMU")")/lib/x86_64-linux-gnu/qemu
export QEMU_MODULE_DIR

# Node 0: the CPU and 512 MiB of DRAM.  The host bridge is on node 0's
# PCI bus (numa_node=0), as a real one is on a socket's.  Two expanders of 256 MiB of
# volatile memory (serials 0x4e554d41 and 0x4e554d42) behind root ports
# rp0 and rp1 of host bridge cxl.1, in a 4 GiB window: the region
# interleaves them.  The HMAT gives the host bridge a generic port (node
# 1, CPU-less, no memory of its own) at 150 ns and 40 GB/s from node 0:
# with the expanders' CDAT the kernel computes the region's access
# coordinates from it.  -hypervisor: the kernel refuses to commit a region
# when it cannot flush the CPU caches of the window by WBINVD, which it
# assumes of any guest (cxl_region_invalidate_memregion: "Failed to
# synchronize CPU cache state"); without the CPUID bit it flushes, and
# TCG's WBINVD does nothing that needs doing.
cxl_args() {
	local i
	echo "-machine q35,cxl=on,hmat=on -cpu qemu64,-hypervisor -smp 1 -m 512M"
	echo "-object memory-backend-ram,id=m0,size=512M"
	echo "-numa node,nodeid=0,cpus=0,memdev=m0,initiator=0 -numa node,nodeid=1"
	echo "-object acpi-generic-port,id=gp0,pci-bus=cxl.1,node=1"
	echo "-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=80"
	echo "-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=100G"
	echo "-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=150"
	echo "-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=40G"
	echo "-device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1,numa_node=0"
	for i in 0 1; do
		echo "-object memory-backend-ram,id=cxlmem$i,share=on,size=256M"
		echo "-device cxl-rp,port=$i,bus=cxl.1,id=rp$i,chassis=0,slot=$((i + 2))"
		echo "-device cxl-type3,bus=rp$i,volatile-memdev=cxlmem$i,id=cxl-vmem$i,sn=0x4e554d4$((i + 1))"
	done
	echo "-machine cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G"
}

for suite in $SUITES; do
	# shellcheck disable=SC2086 # MODULES is a list of words
	fetched "$suite: a kernel with its CXL modules" fetch-kernel.sh "$suite" $MODULES || continue
	kernel=$FETCHED
	version=$(cat "${kernel%/*}/version")
	if ! VM_MODULES=${kernel%/*}/modules "$VM_DIR/mkinitramfs.sh" "$NUMASTATCTL" "$VM_DIR/init-cxl" \
		"$SOURCE_ROOT" "$TMP/initramfs.cpio" "$VM_DIR/vm-capture" "$VM_DIR/map-check" 2>"$TMP/mk.err"; then
		echo "Bail out! $(head -n 1 "$TMP/mk.err")"
		exit 1
	fi
	rm -f "$TMP/console.log" "$TMP/tap.log"
	append="console=ttyS0 panic=-1 quiet"
	VM_CAPTURE_FILE=
	if [ -n "${VM_CAPTURE:-}" ]; then
		# shellcheck disable=SC2034 # read by run_guest
		VM_CAPTURE_FILE=$VM_CAPTURE/cxl-$version.txt
		append="$append numastatctl.capture"
	fi
	# shellcheck disable=SC2046 # cxl_args is a list of words on purpose
	run_guest $VM_TIMEOUT $(cxl_args) -L "$FIRMWARE" -kernel "$kernel" \
		-initrd "$TMP/initramfs.cpio" -append "$append"
	relay_tap $VM_TIMEOUT
	diag "$suite: $version, $("$QEMU" --version | head -n 1) under TCG: ${ELAPSED}s from start to power-off"
done
done_testing
