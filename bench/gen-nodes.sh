#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-nodes.sh DIR N: a sysroot with N online NUMA nodes (node0..nodeN-1),
# each with numastat, meminfo, distance and cpulist, for benchmarks of many
# nodes.  Values differ per node and are far from anything a real host has.
# One awk process writes every file: a shell loop would take longer than
# the benchmark for 1024 nodes.
set -eu

if [ $# -ne 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: $0 DIR NODES" >&2
	exit 2
fi
dir=$1 n=$2
node=$dir/sys/devices/system/node
mkdir -p "$node" "$dir/proc/sys/vm" "$dir/proc/sys/kernel"
for ((i = 0; i < n; i++)); do
	printf '%s\0' "$node/node$i"
done | xargs -0 mkdir -p
echo 1 >"$dir/proc/sys/vm/numa_stat"
echo 0 >"$dir/proc/sys/vm/zone_reclaim_mode"
echo 0 >"$dir/proc/sys/kernel/numa_balancing"

awk -v n="$n" -v dir="$node" 'BEGIN {
	last = n - 1
	range = last ? "0-" last : "0"
	print range > (dir "/online"); close(dir "/online")
	print range > (dir "/possible"); close(dir "/possible")
	print range > (dir "/has_cpu"); close(dir "/has_cpu")
	print range > (dir "/has_memory"); close(dir "/has_memory")
	print range > (dir "/has_normal_memory"); close(dir "/has_normal_memory")
	for (i = 0; i < n; i++) {
		d = dir "/node" i
		hit = 7000000 + i * 1013
		f = d "/numastat"
		printf "numa_hit %d\nnuma_miss %d\nnuma_foreign %d\n", hit, i * 7 + 3, i * 11 + 5 > f
		printf "interleave_hit %d\nlocal_node %d\nother_node %d\n", 2000 + i, hit - i * 13, i * 13 + 17 > f
		close(f)
		f = d "/meminfo"
		total = 16384000 + i * 4096
		free = 8000000 + i * 512
		printf "Node %d MemTotal:       %8d kB\n", i, total > f
		printf "Node %d MemFree:        %8d kB\n", i, free > f
		printf "Node %d MemUsed:        %8d kB\n", i, total - free > f
		printf "Node %d FilePages:      %8d kB\n", i, 103968 + i > f
		printf "Node %d AnonPages:      %8d kB\n", i, 5040 + i > f
		printf "Node %d Slab:           %8d kB\n", i, 81304 + i > f
		printf "Node %d HugePages_Total:  %5d\n", i, 0 > f
		printf "Node %d HugePages_Free:   %5d\n", i, 0 > f
		printf "Node %d HugePages_Surp:   %5d\n", i, 0 > f
		close(f)
		f = d "/distance"
		line = ""
		for (j = 0; j < n; j++)
			line = line (j ? " " : "") (i == j ? 10 : 21)
		print line > f
		close(f)
		f = d "/cpulist"
		print 2 * i "-" 2 * i + 1 > f
		close(f)
	}
}'
