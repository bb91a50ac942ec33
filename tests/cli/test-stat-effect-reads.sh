#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --balancing, --tiers, --cgroup read each file once: one-shot, open and
# read once; with an interval, opened once and pread once per sample.
. "$(dirname "$0")/lib.sh"

need strace strace
ROOT=$(mktemp -d "$TMP/root.XXXXXX")
"$FIXTURES/gen-nodes.sh" "$ROOT" 4 >/dev/null
"$FIXTURES/gen-effect.sh" "$ROOT" 3 >/dev/null

# reads ARGS...: per file the view touched, "OPENS PREADS+READS path", sorted.
reads() {
	strace -f -e trace=openat,openat2,pread64,read,close -o "$TMP/trace" \
		"$NUMASTATCTL" --sysroot "$ROOT" "$@" >/dev/null 2>"$TMP/err" </dev/null
	awk '
	match($0, /open(at|at2)\([^"]*"[^"]*"/) && $NF ~ /^[0-9]+$/ {
		p = substr($0, RSTART, RLENGTH)
		sub(/^[^"]*"/, "", p); sub(/"$/, "", p)
		fd[$NF] = p; opens[p]++; next
	}
	match($0, /(pread64|read)\([0-9]+,/) {
		f = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", f); sub(/,/, "", f)
		if (f in fd) reads[fd[f]]++
		next
	}
	match($0, /close\([0-9]+\)/) { f = substr($0, RSTART + 6, RLENGTH - 7); delete fd[f] }
	END { for (p in opens) if (p ~ /vmstat|numa_stat|distance/) print opens[p], reads[p] + 0, p }
	' "$TMP/trace" | sort -k3
}

out=$(reads stat --balancing)
expect_one() {
	if [ "$out" = "$1" ]; then ok "$2"; else not_ok "$2" "got:" "$out" "want:" "$1"; fi
}
expect_one "1 1 /proc/vmstat
1 1 /sys/devices/system/node/node0/vmstat" \
	"--balancing: /proc/vmstat once, and node0/vmstat once to learn nothing is per node"
out=$(reads stat --balancing 0.01 3)
expect_one "1 4 /proc/vmstat
1 1 /sys/devices/system/node/node0/vmstat" \
	"--balancing 0.01 3: /proc/vmstat opened once, read at start and once per sample"
out=$(reads stat --tiers 0.01 3)
expect_one "1 4 /proc/vmstat
1 4 /sys/devices/system/node/node0/vmstat
1 4 /sys/devices/system/node/node1/vmstat
1 4 /sys/devices/system/node/node2/vmstat
1 4 /sys/devices/system/node/node3/vmstat" \
	"--tiers 0.01 3: every vmstat once per sample, no distance (the samples show none)"
out=$(reads stat --tiers)
expect_one "1 1 /proc/vmstat
1 1 /sys/devices/system/node/node0/distance
1 1 /sys/devices/system/node/node0/vmstat
1 1 /sys/devices/system/node/node1/distance
1 1 /sys/devices/system/node/node1/vmstat
1 1 /sys/devices/system/node/node2/distance
1 1 /sys/devices/system/node/node2/vmstat
1 1 /sys/devices/system/node/node3/distance
1 1 /sys/devices/system/node/node3/vmstat" \
	"--tiers: each file once, the distances for the matrix"
out=$(reads stat --cgroup '*.service' 0.01 3)
expect_one "4 4 /sys/fs/cgroup/system.slice/svc1.service/memory.numa_stat
4 4 /sys/fs/cgroup/system.slice/svc2.service/memory.numa_stat
4 4 /sys/fs/cgroup/system.slice/svc3.service/memory.numa_stat" \
	"--cgroup 0.01 3: every memory.numa_stat once per sample, opened and closed each time (no fd kept per cgroup: a thousand cgroups under ulimit -n 1024)"
out=$(reads stat --cgroup '*.service' --prometheus)
expect_one "1 1 /sys/fs/cgroup/system.slice/svc1.service/memory.numa_stat
1 1 /sys/fs/cgroup/system.slice/svc2.service/memory.numa_stat
1 1 /sys/fs/cgroup/system.slice/svc3.service/memory.numa_stat" \
	"--cgroup --prometheus: each file once"

done_testing
