#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source-path=SCRIPTDIR
# bench/stat-scale.sh [--build DIR] [--runs N]: every stat view at 1, 64,
# 256 and 1024 generated nodes (instructions: does any grow faster than the
# nodes?), and stat --compat and --prometheus at 1024 nodes against numastat
# and node_exporter in CPU time, page faults and max RSS.  Markdown on
# standard output, for bench/results.md.  Needs root (a mount namespace puts
# the generated tree on /sys/devices/system/node, where numastat reads),
# valgrind, numastat and prometheus-node-exporter, curl, python3.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
BUILD=$SRC/build RUNS=50
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=${2:?}; shift ;;
	--runs) RUNS=${2:?}; shift ;;
	*) echo "usage: bench/stat-scale.sh [--build DIR] [--runs N]" >&2; exit 2 ;;
	esac
	shift
done
BIN=$BUILD/src/numastatctl
[ -x "$BIN" ] || { echo "bench/stat-scale.sh: no $BIN (ninja -C $BUILD first)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/numastatctl-scale.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
. "$HERE/lib-cases.sh"

SIZES="1 64 256 1024"
for n in $SIZES; do
	gen_nodes "$TMP/nodes-$n" "$n"
	gen_effect "$TMP/nodes-$n" 10
done

# icount N ARGS...: instructions of numastatctl --sysroot nodes-N ARGS (callgrind).
icount() {
	local n=$1
	shift
	env -i PATH=/usr/bin:/bin LANG=C.UTF-8 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		--log-file="$TMP/cg.log" "$BIN" --sysroot "$TMP/nodes-$n" "$@" >/dev/null 2>&1 </dev/null
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/cg.log"
}

echo "| view (10 cgroups) | 1 node | 64 | 256 | 1024 | 1024 / 64 |"
echo "|---|---|---|---|---|---|"
set -f
for args in "stat" "stat -J" "stat -m" "stat --compat" "stat --compat=m" "stat --prometheus" \
	"stat 0.01 2" "stat --balancing" "stat --reclaim" "stat --tiers" "stat --tiers -J" \
	"stat --tiers --prometheus" "stat --cgroup svc1.service" "stat --cgroup *.service" \
	"stat --cgroup *.service -J" "stat --cgroup *.service --prometheus" \
	"stat --cgroup *.service 0.01 2"; do
	row="| \`$args\` |"
	for n in $SIZES; do
		# shellcheck disable=SC2086 # the arguments are words
		c[$n]=$(icount "$n" $args)
		row="$row $(awk -v c="${c[$n]}" 'BEGIN { printf "%.1fM", c / 1e6 }') |"
	done
	echo "$row $(awk -v a="${c[1024]}" -v b="${c[64]}" 'BEGIN { printf "%.1fx", a / b }') |"
done
set +f

# usage N ARGS...: CPU ms, minor faults (means of RUNS runs) and max RSS of a command on
# nodes-N mounted on /sys/devices/system/node.
usage() {
	local n=$1
	shift
	unshare -m --propagation private sh -c 'mount --bind "$1" /sys/devices/system/node && shift && exec "$@"' \
		sh "$TMP/nodes-$n/sys/devices/system/node" python3 -c '
import os, subprocess, sys
runs, cmd = int(sys.argv[1]), sys.argv[2:]
env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
cpu = faults = rss = 0
for _ in range(runs):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    r = os.wait4(p.pid, 0)[2]  # this child alone: RUSAGE_CHILDREN would count python too
    cpu, faults, rss = cpu + r.ru_utime + r.ru_stime, faults + r.ru_minflt, max(rss, r.ru_maxrss)
print("%.1f ms | %.0f | %d kB" % (cpu * 1000 / runs, faults / runs, rss))' \
		"$RUNS" "$@"
}

# scrape N: node_exporter's meminfo_numa collector on nodes-N, per scrape: CPU ms and minor
# faults of the daemon over RUNS scrapes, and its VmHWM.
scrape() {
	local n=$1 port=$((19200 + $1 % 1000)) pid i u0 s0 f0 u1 s1 f1
	prometheus-node-exporter --collector.disable-defaults --collector.meminfo_numa \
		--path.sysfs="$TMP/nodes-$n/sys" --path.procfs="$TMP/nodes-$n/proc" \
		--web.listen-address=127.0.0.1:$port >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 100); do curl -s -o /dev/null 127.0.0.1:$port/metrics && break; sleep 0.1; done
	read -r u0 s0 f0 < <(awk '{ print $14, $15, $10 }' /proc/$pid/stat)
	for i in $(seq "$RUNS"); do curl -s -o /dev/null 127.0.0.1:$port/metrics; done
	read -r u1 s1 f1 < <(awk '{ print $14, $15, $10 }' /proc/$pid/stat)
	awk -v t=$((u1 + s1 - u0 - s0)) -v f=$((f1 - f0)) -v hz="$(getconf CLK_TCK)" -v r="$RUNS" \
		-v rss="$(awk '/VmHWM/ { print $2 }' /proc/$pid/status)" \
		'BEGIN { printf "%.1f ms | %.0f | %d kB\n", t * 1000 / hz / r, f / r, rss }'
	kill "$pid"
	wait "$pid" 2>/dev/null
}

echo
echo "| at 1024 nodes ($RUNS runs) | CPU | page faults | max RSS |"
echo "|---|---|---|---|"
for n in 1 1024; do
	echo "| \`numastatctl stat --compat\`, $n node(s) | $(usage "$n" "$BIN" stat --compat) |"
	echo "| \`numastat\`, $n node(s) | $(usage "$n" numastat) |"
	echo "| \`numastatctl stat --compat=m\`, $n node(s) | $(usage "$n" "$BIN" stat --compat=m) |"
	echo "| \`numastat -m\`, $n node(s) | $(usage "$n" numastat -m) |"
	echo "| \`numastatctl stat --prometheus\` (a process), $n node(s) | $(usage "$n" "$BIN" stat --prometheus) |"
	echo "| node_exporter, meminfo_numa only (a scrape of the running daemon), $n node(s) | $(scrape "$n") |"
done
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
