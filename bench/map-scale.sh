#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/map-scale.sh [--build DIR]: `map`, `map -J` and `map --prometheus`
# at 8, 64, 256 and 1024 generated nodes: callgrind's instructions (does
# anything grow faster than the nodes?) and hyperfine's wall time.  Each
# tree is gen-nodes.sh's with what the map reads per node: two 128 MiB
# memory blocks (one Movable on every fourth node, CPU-less and in a slower
# tier), their zones in /proc/zoneinfo, the firmware map, and distances
# of an SNC-like machine (12 within a group of four nodes, 21 across), so
# each fast node demotes to its group's slow node.  Markdown on standard
# output, for bench/results.md.
# Needs valgrind and hyperfine.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
BUILD=$SRC/build
[ "${1:-}" = --build ] && BUILD=${2:?}
BIN=$BUILD/src/numastatctl
[ -x "$BIN" ] || { echo "bench/map-scale.sh: no $BIN (ninja -C $BUILD first)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/numastatctl-map.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# gen DIR N: the tree (awk writes every file: a shell loop takes seconds at 1024 nodes).
gen() {
	"$SRC/tests/fixtures/gen-nodes.sh" "$1" "$2" >/dev/null
	mkdir -p "$1/sys/devices/system/memory" "$1/sys/firmware/memmap/0" \
		"$1/sys/devices/virtual/memory_tiering/memory_tier4" \
		"$1/sys/devices/virtual/memory_tiering/memory_tier22"
	awk -v dir="$1" -v n="$2" '
	function put(path, text) { printf "%s", text > path; close(path) }
	function zone(k, name, pages) {
		return sprintf("Node %d, zone %8s\n  pages free     %d\n        present  %d\n" \
			"        managed  %d\n  pagesets\n    cpu: 0\n              count: 0\n", \
			k, name, pages / 2, pages, pages)
	}
	BEGIN {
		m = dir "/sys/devices/system/memory"
		put(m "/block_size_bytes", "8000000\n")
		put(m "/auto_online_blocks", "online_movable\n")
		put(dir "/sys/firmware/memmap/0/start", "0x0\n")
		put(dir "/sys/firmware/memmap/0/end", sprintf("0x%x\n", 2 * n * 134217728 - 1))
		put(dir "/sys/firmware/memmap/0/type", "System RAM\n")
		zi = ""; fast = ""; slow = ""
		for (k = 0; k < n; k++) {
			mov = k % 4 == 3
			zi = zi zone(k, "Normal", mov ? 0 : 65536) zone(k, "Movable", mov ? 65536 : 0)
			if (mov) slow = slow (slow == "" ? "" : ",") k
			else fast = fast (fast == "" ? "" : ",") k
			for (b = 2 * k; b < 2 * k + 2; b++) {
				d = m "/memory" b
				system("mkdir -p " d)
				put(d "/state", "online\n")
				put(d "/valid_zones", mov ? "Movable\n" : "Normal\n")
				system("ln -s ../../memory/memory" b " " dir "/sys/devices/system/node/node" k "/memory" b)
			}
			if (mov) put(dir "/sys/devices/system/node/node" k "/cpulist", "\n")
			row = ""
			for (j = 0; j < n; j++)
				row = row (j ? " " : "") (j == k ? 10 : int(j / 4) == int(k / 4) ? 12 : 21)
			put(dir "/sys/devices/system/node/node" k "/distance", row "\n")
		}
		put(dir "/proc/zoneinfo", zi)
		put(dir "/sys/devices/virtual/memory_tiering/memory_tier4/nodelist", fast "\n")
		put(dir "/sys/devices/virtual/memory_tiering/memory_tier22/nodelist", slow "\n")
	}'
}

icount() {
	local n=$1
	shift
	env -i PATH=/usr/bin:/bin LANG=C.UTF-8 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		--log-file="$TMP/cg.log" "$BIN" --sysroot "$TMP/nodes-$n" "$@" >/dev/null 2>&1 </dev/null
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/cg.log"
}

SIZES="8 64 256 1024"
for n in $SIZES; do gen "$TMP/nodes-$n" "$n"; done
echo "| command | 8 nodes | 64 | 256 | 1024 | 1024 / 256 | wall at 8 (hyperfine -N, mean ± sd) |"
echo "|---|---|---|---|---|---|---|"
for args in "map" "map -J" "map --prometheus"; do
	row="| \`$args\` |"
	for n in $SIZES; do
		# shellcheck disable=SC2086 # the arguments are words
		c[$n]=$(icount "$n" $args)
		row="$row $(awk -v c="${c[$n]}" 'BEGIN { printf "%.2fM", c / 1e6 }') |"
	done
	# shellcheck disable=SC2086
	wall=$(hyperfine -N -w 3 -r 30 --export-json "$TMP/h.json" \
		"$BIN --sysroot $TMP/nodes-8 $args" >/dev/null 2>&1 &&
		python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f ± %.1f ms" % (r["mean"]*1e3, r["stddev"]*1e3))' "$TMP/h.json")
	echo "$row $(awk -v a="${c[1024]}" -v b="${c[256]}" 'BEGIN { printf "%.1fx", a / b }') | $wall |"
done
