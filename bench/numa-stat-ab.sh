#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Reproduce bench/numa-stat-ab.md: the machine, then the runs it records.
#   bench/numa-stat-ab.sh [path/to/numastatctl]      (as root)
# The runs use SCHED_FIFO (chrt -f 10) so that other tasks cannot take the
# CPU in the middle of a round; the kernel's RT throttling still leaves them
# 5% of every second.  NO_RT=1 runs at normal priority instead.
set -u
ctl=${1:-numastatctl}
state=$(mktemp -d "${TMPDIR:-/tmp}/numa-stat-ab.XXXXXX")
trap 'rm -rf "$state"' EXIT
prio=(chrt -f 10)
[ -n "${NO_RT:-}" ] && prio=()

echo "# $(uname -sr), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')," \
	"$(nproc) CPUs, NUMA nodes with memory: $(cat /sys/devices/system/node/has_memory)"
echo "# THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled)," \
	"vm.numa_stat before: $(cat /proc/sys/vm/numa_stat), load: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
	echo
	echo "\$ ${prio[*]} numastatctl $*"
	"${prio[@]}" "$ctl" --state-dir "$state" "$@" 2>&1 | grep -v 'zeroed the NUMA counters'
}
# A/A first: how far apart two identical settings land is the noise floor.
run bench --values 1,1 --rounds 60
run bench --rounds 60
run bench --rounds 60 --threads 2
echo
echo "# vm.numa_stat after: $(cat /proc/sys/vm/numa_stat), load: $(cut -d' ' -f1-3 /proc/loadavg)"
