#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/container-scale.sh [--build DIR] [--plain N] [--no-callgrind] [N...]:
# the cgroup views at a fleet's scale, with `ulimit -n 256`.
#
# Trees: N burstable pods of one container each (default 2500 10000 20000;
# tests/fixtures/gen-containers.sh many N: systemd driver, containerd,
# /var/log/containers and /var/log/pods, a verified cpu_manager_state with
# an entry for every other pod, every container named app), and --plain N
# services in system.slice (default 10000; gen-effect.sh on four nodes).
# Commands: stat --cgroup '*', stat --container '*', placement --pod '*/*'
# (and --cgroup '*.service' on the plain tree), then the Prometheus text of
# every selector form (a pattern, a plain name matching every container,
# a pod pattern), whose series must stay within the bound of 20000.
#
# For each: the exit status, CPU time and max RSS (/usr/bin/time, best of
# three) and both per target, which stay flat when the cost is linear;
# then instructions (callgrind) at the two smallest sizes and at a quarter
# of --plain and --plain, whose ratio is the cost's growth for 4x the
# targets, unmoved by the other work on the machine.  Markdown on standard
# output, for bench/results.md.  Building the trees takes about a minute
# per 10,000 containers; callgrind about ten minutes in all.
# Backquotes in printf's formats are Markdown's, not the shell's.
# shellcheck disable=SC2016
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
BUILD=$SRC/build PLAIN=10000 CALLGRIND=1
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=${2:?}; shift 2 ;;
	--plain) PLAIN=${2:?}; shift 2 ;;
	--no-callgrind) CALLGRIND=; shift ;;
	*) break ;;
	esac
done
SIZES=${*:-2500 10000 20000}
BIN=$BUILD/src/numastatctl
FDS=256
[ -x "$BIN" ] || { echo "bench/container-scale.sh: no $BIN (ninja -C $BUILD first)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/numastatctl-ctrscale.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# limited ROOT ARGS...: numastatctl in ROOT with at most $FDS open files.
limited() {
	local root=$1
	shift
	(ulimit -n "$FDS" && exec "$BIN" --sysroot "$root" "$@")
}

# best ROOT ARGS...: "exit|CPU s|max RSS kB" of the fastest of three runs.
best() {
	local root=$1 b="" u s m t rc
	shift
	for _ in 1 2 3; do
		/usr/bin/time -f '%U %S %M' -o "$TMP/time" bash -c \
			'ulimit -n "$1" && shift && exec "$@"' _ "$FDS" "$BIN" --sysroot "$root" "$@" \
			>"$TMP/out" 2>"$TMP/err"
		rc=$?
		read -r u s m < <(tail -1 "$TMP/time")
		t=$(echo "$u + $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $(cut -d'|' -f2 <<<"$b")" | bc)" = 1 ]; then
			b="$rc|$t|$m"
		fi
	done
	echo "$b"
}

# row TREE TARGETS ROOT ARGS...: one line of the time table.
row() {
	local tree=$1 n=$2 root=$3 r rc t m
	shift 3
	r=$(best "$root" "$@")
	IFS='|' read -r rc t m <<<"$r"
	printf '| %s | `%s` | %s | %s | %s | %.1f | %.2f |\n' "$tree" "$*" "$rc" "$t" "$m" \
		"$(echo "$t * 1000000 / $n" | bc -l)" "$(echo "$m / $n" | bc -l)"
}

# series ROOT ARGS...: "exit|series|left out" of the Prometheus text.
series() {
	local root=$1 rc n left
	shift
	limited "$root" "$@" >"$TMP/prom" 2>/dev/null
	rc=$?
	n=$(grep -c '^numastatctl_[a-z_]*{' "$TMP/prom")
	left=$(sed -n 's/^numastatctl_\(placement_\)\?cgroups_left_out //p' "$TMP/prom")
	echo "$rc|$n|${left:-?}"
}

# instructions ROOT ARGS...: callgrind's instruction count of one run.
instructions() {
	local root=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" "$BIN" --sysroot "$root" \
		"$@" >/dev/null 2>"$TMP/cg.err"
	sed -n 's/^summary: //p' "$TMP/cg.out"
	rm -f "$TMP/cg.out"
}

for n in $SIZES; do
	"$SRC/tests/fixtures/gen-containers.sh" "$TMP/c$n" many "$n"
done
"$SRC/tests/fixtures/gen-nodes.sh" "$TMP/p$PLAIN" 4 >/dev/null
"$SRC/tests/fixtures/gen-effect.sh" "$TMP/p$PLAIN" "$PLAIN" >/dev/null
Q=$((PLAIN / 4))
if [ -n "$CALLGRIND" ]; then
	"$SRC/tests/fixtures/gen-nodes.sh" "$TMP/p$Q" 4 >/dev/null
	"$SRC/tests/fixtures/gen-effect.sh" "$TMP/p$Q" "$Q" >/dev/null
fi

echo "| tree | command (ulimit -n $FDS) | exit | CPU s | max RSS kB | µs per target | RSS kB per target |"
echo "|---|---|---|---|---|---|---|"
for n in $SIZES; do
	row "$n containers" "$n" "$TMP/c$n" stat --cgroup '*'
	row "$n containers" "$n" "$TMP/c$n" stat --container '*'
	row "$n containers" "$n" "$TMP/c$n" placement --pod '*/*'
done
row "$PLAIN cgroups" "$PLAIN" "$TMP/p$PLAIN" stat --cgroup '*'
row "$PLAIN cgroups" "$PLAIN" "$TMP/p$PLAIN" placement --cgroup '*.service'

echo
echo "| tree | command (ulimit -n $FDS) | exit | series | left out |"
echo "|---|---|---|---|---|"
for n in $SIZES; do
	for args in "stat --container *" "stat --container app" "stat --cgroup *" \
		"placement --container *" "placement --container app" "placement --pod */*" \
		"placement --pod bench/pod-1 --pod bench/pod-1"; do
		# shellcheck disable=SC2086 # the words are the arguments; no file matches them
		set -f && IFS='|' read -r rc s left <<<"$(series "$TMP/c$n" $args --prometheus)" && set +f
		printf '| %s containers | `%s --prometheus` | %s | %s | %s |\n' "$n" "$args" "$rc" "$s" "$left"
	done
done
IFS='|' read -r rc s left <<<"$(series "$TMP/p$PLAIN" placement --cgroup '*.service' --prometheus)"
printf '| %s cgroups | `placement --cgroup *.service --prometheus` | %s | %s | %s |\n' "$PLAIN" "$rc" "$s" "$left"

[ -n "$CALLGRIND" ] || exit 0
read -r a b _ <<<"$SIZES"
echo
echo "| command | instructions, $a | instructions, $b | ratio ($((b / a))x the targets) |"
echo "|---|---|---|---|"
for args in "stat --cgroup *" "stat --container *" "placement --pod */*"; do
	set -f
	# shellcheck disable=SC2086
	i1=$(instructions "$TMP/c$a" $args) i2=$(instructions "$TMP/c$b" $args)
	set +f
	printf '| `%s`, containers | %s | %s | %.2f |\n' "$args" "$i1" "$i2" "$(echo "$i2 / $i1" | bc -l)"
done
for args in "stat --cgroup *" "placement --cgroup *.service"; do
	set -f
	# shellcheck disable=SC2086
	i1=$(instructions "$TMP/p$Q" $args) i2=$(instructions "$TMP/p$PLAIN" $args)
	set +f
	printf '| `%s`, %s and %s cgroups | %s | %s | %.2f |\n' "$args" "$Q" "$PLAIN" "$i1" "$i2" \
		"$(echo "$i2 / $i1" | bc -l)"
done
