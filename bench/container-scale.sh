#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/container-scale.sh [--build DIR] [N...]: placement --pod '*/*' over
# N burstable pods of one container each (default 2500 5000 10000 20000;
# tests/fixtures/gen-containers.sh many N: systemd driver, containerd,
# /var/log/containers and /var/log/pods, a verified cpu_manager_state with
# an entry for every other pod), on four nodes: CPU time and max RSS of -J,
# the table and --prometheus (/usr/bin/time, best of three), and the time
# and memory per container, which stay flat when the cost is linear.
# Markdown on standard output, for bench/results.md.  Building the trees
# takes about a minute per 10,000 containers.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
BUILD=$SRC/build
if [ "${1:-}" = --build ]; then BUILD=${2:?}; shift 2; fi
SIZES=${*:-2500 5000 10000 20000}
BIN=$BUILD/src/numastatctl
[ -x "$BIN" ] || { echo "bench/container-scale.sh: no $BIN (ninja -C $BUILD first)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/numastatctl-ctrscale.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# best N ARGS...: "CPU s|max RSS kB" of the fastest of three runs.
best() {
	local n=$1 b="" u s m t
	shift
	for _ in 1 2 3; do
		/usr/bin/time -f '%U %S %M' -o "$TMP/time" "$BIN" --sysroot "$TMP/c$n" placement \
			--pod '*/*' "$@" >"$TMP/out" 2>/dev/null
		read -r u s m <"$TMP/time"
		t=$(echo "$u + $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < ${b%|*}" | bc)" = 1 ]; then b="$t|$m"; fi
	done
	echo "$b"
}

echo "| containers | form | CPU s | max RSS kB | µs per container | RSS kB per container |"
echo "|---|---|---|---|---|---|"
for n in $SIZES; do
	"$SRC/tests/fixtures/gen-containers.sh" "$TMP/c$n" many "$n"
	for form in -J table --prometheus; do
		if [ "$form" = table ]; then r=$(best "$n"); else r=$(best "$n" "$form"); fi
		t=${r%|*} m=${r#*|}
		printf '| %s | %s | %s | %s | %.1f | %.2f |\n' "$n" "$form" "$t" "$m" \
			"$(echo "$t * 1000000 / $n" | bc -l)" "$(echo "$m / $n" | bc -l)"
	done
	rm -rf "$TMP/c$n"
done
