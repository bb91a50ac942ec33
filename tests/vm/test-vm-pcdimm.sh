#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Memory hot-add: Debian's kernel of bookworm-backports (6.12, fetched by
# fetch-kernel.sh; VM_KERNEL: another image) under Debian 12's QEMU, node
# 0 with the CPU and the boot memory, node 1 empty, an HMAT that makes node
# 1 a quarter as fast (a slower memory tier on 6.7 and later).
# When the guest's /init (init-pcdimm) says it is ready, this script plugs
# a 256 MiB pc-dimm into node 1 through QEMU's monitor (object_add,
# device_add); the guest onlines its blocks as online_movable, then as
# online, and checks the memory map at each step.  A DIMM given with
# -device at boot would not do: the kernel adds it through the same ACPI
# memory hotplug driver (no e820 entry), but before /init runs.
# VM_CAPTURE=DIR: the guest's vm-capture dumps into DIR/pcdimm-VERSION.txt.
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"
# shellcheck source=tests/vm/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"

VM_DIR=$(cd "$(dirname "$0")" && pwd)
VM_TIMEOUT=300
# vm-capture's dumps fork per file: minutes under TCG on a busy host.
[ -z "${VM_CAPTURE:-}" ] || VM_TIMEOUT=1200

[ "$(uname -m)" = x86_64 ] || skip_all "the guest is x86_64, this host is $(uname -m)"
need "$QEMU" qemu-system-x86
need /usr/bin/python3 python3
need dpkg-deb dpkg
[ "$(id -u)" = 0 ] || skip_all "fetching into the cache and booting the guest need root"
KERNEL=${VM_KERNEL:-}
if [ -z "$KERNEL" ] && ! KERNEL=$("$VM_DIR/fetch-kernel.sh" bookworm-backports 2>"$TMP/fetch.err"); then
	# In CI the mirror is there: a kernel that cannot be had is a failure.
	ci_requires qemu-system-x86 || skip_all "$(cat "$TMP/fetch.err")"
	echo "Bail out! $(cat "$TMP/fetch.err")"
	exit 1
fi
[ -r "$KERNEL" ] || skip_all "$KERNEL: not readable"

if ! "$VM_DIR/mkinitramfs.sh" "$NUMASTATCTL" "$VM_DIR/init-pcdimm" "$SOURCE_ROOT" \
	"$TMP/initramfs.cpio" "$VM_DIR/vm-capture" "$VM_DIR/map-check" 2>"$TMP/mk.err"; then
	echo "Bail out! $(head -n 1 "$TMP/mk.err")"
	exit 1
fi

# hot_add: once the guest says it is ready, the DIMM through the monitor's
# socket; what the monitor answers goes to $TMP/monitor.log.
hot_add() {
	local i=0
	while [ $i -lt $((VM_TIMEOUT * 10)) ] && ! grep -q '^# hot-add: ready' "$TMP/tap.log" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	/usr/bin/python3 - "$TMP/monitor" >"$TMP/monitor.log" 2>&1 <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(30)

def until_prompt():
    out = b""
    while not out.endswith(b"(qemu) "):
        out += s.recv(4096)
    sys.stdout.write(out.decode(errors="replace"))

until_prompt()
for cmd in ("object_add memory-backend-ram,id=hp0,size=256M",
            "device_add pc-dimm,id=dimm0,memdev=hp0,node=1"):
    s.sendall(cmd.encode() + b"\n")
    until_prompt()
PY
}

hot_add &
HOT_ADD=$!
# shellcheck disable=SC2016 # expanded when the hook runs
at_exit 'kill "$HOT_ADD" 2>/dev/null'
append="console=ttyS0 panic=-1 quiet memhp_default_state=offline"
VM_CAPTURE_FILE=
if [ -n "${VM_CAPTURE:-}" ]; then
	# shellcheck disable=SC2034 # read by run_guest
	VM_CAPTURE_FILE=$VM_CAPTURE/pcdimm-$(cat "${KERNEL%/*}/version" 2>/dev/null ||
		basename "$KERNEL" | sed 's/^vmlinuz-//').txt
	append="$append numastatctl.capture"
fi
# Node 1 has neither CPU nor boot memory: QEMU's SRAT gives the DIMM slots'
# range to the last node, which makes node 1 possible; the HMAT has its
# figures from the start, the kernel uses them when memory comes.
run_guest $VM_TIMEOUT -machine pc,hmat=on -smp 1 -m 1G,slots=2,maxmem=4G \
	-object memory-backend-ram,id=m0,size=1G -numa node,nodeid=0,cpus=0,memdev=m0,initiator=0 \
	-numa node,nodeid=1,initiator=0 \
	-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=80 \
	-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=100G \
	-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=250 \
	-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=25G \
	-chardev "socket,id=mon0,path=$TMP/monitor,server=on,wait=off" -mon chardev=mon0,mode=readline \
	-kernel "$KERNEL" -initrd "$TMP/initramfs.cpio" -append "$append"
wait "$HOT_ADD"
relay_tap $VM_TIMEOUT
if ! grep -q 'device_add' "$TMP/monitor.log" 2>/dev/null; then
	diag "monitor: $(tail -n 5 "$TMP/monitor.log" 2>/dev/null)"
fi
diag "$KERNEL under TCG, a DIMM plugged into node 1: ${ELAPSED}s from start to power-off"
done_testing
