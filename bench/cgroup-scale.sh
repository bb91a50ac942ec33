#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/cgroup-scale.sh [--build DIR] [--cgroups N]: stat --cgroup over N
# services (default 1000) with the 27 items of a 6.1 kernel, on 72 and on
# 1152 generated nodes: CPU time, max RSS and output size of -J, the table,
# --prometheus (and its series) with /usr/bin/time; then instructions
# (callgrind) of -J over 9, 90 and 900 of the services on 72 nodes and over
# 9 on 1152, to show the cost grows with cgroups x nodes and no faster.
# Markdown on standard output, for bench/results.md.  Needs valgrind and
# about 1 GB in $TMPDIR for the 1152-node tree.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
BUILD=$SRC/build NCG=1000
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=${2:?}; shift ;;
	--cgroups) NCG=${2:?}; shift ;;
	*) echo "usage: bench/cgroup-scale.sh [--build DIR] [--cgroups N]" >&2; exit 2 ;;
	esac
	shift
done
BIN=$BUILD/src/numastatctl
[ -x "$BIN" ] || { echo "bench/cgroup-scale.sh: no $BIN (ninja -C $BUILD first)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/numastatctl-cgscale.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

for n in 72 1152; do
	"$SRC/tests/fixtures/gen-nodes.sh" "$TMP/n$n" "$n" >/dev/null
	"$SRC/tests/fixtures/gen-effect.sh" "$TMP/n$n" "$NCG" 6.1 >/dev/null
done

# measure N ARGS...: "CPU s | max RSS | stdout bytes" of stat --cgroup '*.service' ARGS.
measure() {
	local n=$1
	shift
	/usr/bin/time -f '%U %S %M' -o "$TMP/time" "$BIN" --sysroot "$TMP/n$n" stat \
		--cgroup '*.service' "$@" >"$TMP/out" 2>/dev/null
	read -r u s m <"$TMP/time"
	awk -v u="$u" -v s="$s" -v m="$m" -v b="$(wc -c <"$TMP/out")" \
		'BEGIN { printf "%.2f s | %.0f MB | %.1f MB", u + s, m / 1024, b / 1048576 }'
}

echo "| $NCG cgroups x 27 items | CPU (user+sys) | max RSS | output |"
echo "|---|---|---|---|"
for n in 72 1152; do
	for args in "-J" "-r" "--prometheus"; do
		# shellcheck disable=SC2086 # the arguments are words
		row=$(measure "$n" $args)
		what="\`stat --cgroup '*.service' $args\`, $n nodes"
		[ "$args" != --prometheus ] ||
			what="$what, $(grep -c '^numastatctl_cgroup_memory_' "$TMP/out") series, left out: $(
				sed -n 's/^numastatctl_cgroups_left_out //p' "$TMP/out")"
		echo "| $what | $row |"
	done
done

# icount N PATTERN: instructions of -J over the services PATTERN matches on nodes-N.
icount() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$TMP/cg.log" \
		"$BIN" --sysroot "$TMP/n$1" stat --cgroup "$2" -J >/dev/null 2>&1
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/cg.log"
}

echo
echo "| -J, instructions | cgroups x nodes | instructions | per cgroup and node |"
echo "|---|---|---|---|"
for c in "72 svc?.service 9" "72 svc??.service 90" "72 svc???.service 900" "1152 svc?.service 9"; do
	read -r n pat k <<<"$c"
	i=$(icount "$n" "$pat")
	awk -v n="$n" -v k="$k" -v i="$i" -v p="$pat" \
		'BEGIN { printf "| `%s`, %d nodes | %d | %.1fM | %.0f |\n", p, n, k * n, i / 1e6, i / (k * n) }'
done
