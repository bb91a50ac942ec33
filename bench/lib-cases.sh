# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What bench/run measures: the sysroots, the cases, the CI check, the table.

# The six knobs of the apply profile (and of the equivalent sysctl.conf),
# with their kernel defaults.
PROFILE_KNOBS="vm.numa_stat=1 vm.zone_reclaim_mode=0 vm.min_unmapped_ratio=1 vm.min_slab_ratio=5 kernel.numa_balancing=0 vm.stat_interval=1"

# The fixture generator the stat tests use.
gen_nodes() {
	"$SRC/tests/fixtures/gen-nodes.sh" "$1" "$2" >/dev/null
}

# The knob tree the measured commands see (see ns in lib-measure.sh): the
# six knobs of the apply profile at their kernel defaults.  bench.conf and
# sysctl.conf assign the same values, so numastatctl compares and writes
# nothing, while sysctl -p writes every line as it always does.
fake_procsys() {
	local k v
	mkdir -p "$TMP/procsys/vm" "$TMP/procsys/kernel" "$TMP/conf"
	printf '[profile bench]\n' >"$TMP/conf/bench.conf"
	: >"$TMP/conf/sysctl.conf"
	for k in $PROFILE_KNOBS; do
		v=${k#*=} k=${k%=*}
		echo "$v" >"$TMP/procsys/${k%%.*}/${k#*.}"
		printf '%s = %s\n' "$k" "$v" | tee -a "$TMP/conf/sysctl.conf" >>"$TMP/conf/bench.conf"
	done
	chmod 600 "$TMP/conf/bench.conf" "$TMP/conf/sysctl.conf"
}

# The files of stat --balancing, --tiers and --cgroup on a generated tree:
# vmstat per node, two tiers, CGROUPS services with memory.numa_stat.
gen_effect() {
	"$SRC/tests/fixtures/gen-effect.sh" "$1" "$2" >/dev/null
}

make_sysroots() {
	local n
	for n in 1 64 1024; do
		gen_nodes "$TMP/nodes-$n" "$n"
		gen_effect "$TMP/nodes-$n" $((n == 64 ? 100 : 0))
		placeholder "@R$n@" "$TMP/nodes-$n" "nodes-$n"
	done
	fake_procsys
	placeholder @BIN@ "$BIN" numastatctl
	placeholder @STATE@ "$TMP/state" STATE
	placeholder @CONF@ "$TMP/conf/bench.conf" bench.conf
	placeholder @SYSCTLCONF@ "$TMP/conf/sysctl.conf" sysctl.conf
}

# key|command|needs|nodes: instruction counts that bench/baseline records
# and CI checks.  "nodes": run on that many generated nodes (see ns).
CI_CASES=(
	"version|@BIN@ --version||"
	"get|@BIN@ get vm.numa_stat|get|"
	"set|@BIN@ --state-dir @STATE@ set vm.zone_reclaim_mode=0|set|"
	"status|@BIN@ status|status|1"
	"stat-compat|@BIN@ stat --compat|stat|1"
	"stat-1|@BIN@ stat|stat|1"
	"stat-64|@BIN@ stat|stat|64"
	"stat-1024|@BIN@ stat|stat|1024"
	"apply|@BIN@ --state-dir @STATE@ -c @CONF@ apply bench|apply|"
	"stat-balancing|@BIN@ --sysroot @R64@ stat --balancing|stat|"
	"stat-tiers|@BIN@ --sysroot @R64@ stat --tiers|stat|"
	"stat-cgroup|@BIN@ --sysroot @R64@ stat --cgroup *.service|stat|"
)

declare -A COUNT=()

# Instruction counts of every CI case into COUNT[key] ("n/a" if not built).
count_cases() {
	local c key cmd needs nodes
	for c in "${CI_CASES[@]}"; do
		IFS='|' read -r key cmd needs nodes <<<"$c"
		if [ -n "$needs" ] && ! built "$needs"; then
			COUNT[$key]="n/a"
			continue
		fi
		COUNT[$key]=$(icount "$cmd" "$nodes")
	done
}

# How far (percent) a count may be from bench/baseline.  Counts repeat
# exactly for the same binary and input (three runs of every case differ by
# at most 0.01 %, status's clock digits); another CPU model moves start-up
# by up to ~2 % (the loader's cache detection).  Start-up is about 220k
# instructions of the small cases, so a 20 % slower start is 13-20 % on
# version, get, set, stat-compat, stat-1 and apply, and 10 % is 6-10 %.
TOLERANCE=5

# The baseline is the product build's (debugoptimized, no sanitizer); under
# ASan nothing runs in valgrind (its runtime must come first), and another
# buildtype compiles other code.
ci_build_matches() {
	local kind
	kind=$(meson introspect --buildoptions "$BUILD" 2>/dev/null | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o.get("buildtype"), o.get("b_sanitize"))') || kind="unknown"
	[ "$kind" = "debugoptimized none" ] && return 0
	echo "bench/run: $BUILD is not a product build (buildtype and b_sanitize: $kind; want debugoptimized none): bench/baseline is recorded from one" >&2
	return 1
}

ci_check() {
	local c key cmd needs nodes base bad=0 checked=0 pct
	[ -r "$BASELINE" ] || { echo "bench/run --ci: no $BASELINE; run bench/run --baseline first" >&2; return 1; }
	ci_build_matches || return 1
	count_cases
	for c in "${CI_CASES[@]}"; do
		IFS='|' read -r key cmd needs nodes <<<"$c"
		base=$(awk -v k="$key" '$1 == k { print $2 }' "$BASELINE")
		if [ "${COUNT[$key]}" = fail ]; then
			echo "FAIL $key: the command failed: $(on_nodes "$cmd" "$nodes"): $(head -c 300 "$TMP/err")"
			bad=$((bad + 1))
			continue
		elif [ -z "$base" ] || [ "${COUNT[$key]}" = n/a ]; then
			echo "skip $key: ${COUNT[$key]} instructions (no recorded count to compare)"
			continue
		fi
		pct=$(awk -v c="${COUNT[$key]}" -v b="$base" 'BEGIN { printf "%+.1f", (c - b) * 100 / b }')
		if [ $((COUNT[$key] * 100)) -gt $((base * (100 + TOLERANCE))) ]; then
			echo "FAIL $key: ${COUNT[$key]} instructions, $pct % from the recorded $base (more than $TOLERANCE % slower): $(on_nodes "$cmd" "$nodes")"
			bad=$((bad + 1))
		elif [ $((COUNT[$key] * 100)) -lt $((base * (100 - TOLERANCE))) ]; then
			echo "FAIL $key: ${COUNT[$key]} instructions, $pct % from the recorded $base (more than $TOLERANCE % faster: record the new counts with bench/run --baseline in the same change, so that the guard keeps its margin): $(on_nodes "$cmd" "$nodes")"
			bad=$((bad + 1))
		else
			echo "ok   $key: ${COUNT[$key]} instructions ($pct % from the recorded $base)"
			checked=$((checked + 1))
		fi
	done
	echo "bench --ci: $checked counts within $TOLERANCE % of bench/baseline, $bad failing"
	[ "$bad" = 0 ]
}

write_baseline() {
	local c key
	{
		echo "# Instruction counts (callgrind, whole process) recorded by bench/run"
		echo "# (--baseline: these alone) from the product build; bench/run --ci fails"
		echo "# when a count is more than $TOLERANCE % above or below the one here."
		for c in "${CI_CASES[@]}"; do
			key=${c%%|*}
			case ${COUNT[$key]} in n/a | fail) continue ;; esac
			echo "$key ${COUNT[$key]}"
		done
	} >"$BASELINE"
}
