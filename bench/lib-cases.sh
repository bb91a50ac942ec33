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

ci_check() {
	local c key cmd needs nodes base bad=0 checked=0
	[ -r "$BASELINE" ] || { echo "bench/run --ci: no $BASELINE; run bench/run first" >&2; return 1; }
	count_cases
	for c in "${CI_CASES[@]}"; do
		IFS='|' read -r key cmd needs nodes <<<"$c"
		base=$(awk -v k="$key" '$1 == k { print $2 }' "$BASELINE")
		if [ "${COUNT[$key]}" = fail ]; then
			echo "FAIL $key: the command failed: $(on_nodes "$cmd" "$nodes"): $(head -c 300 "$TMP/err")"
			bad=$((bad + 1))
		elif [ -z "$base" ] || [ "${COUNT[$key]}" = n/a ]; then
			echo "skip $key: ${COUNT[$key]} instructions (no recorded count to compare)"
		elif [ "${COUNT[$key]}" -gt $((2 * base)) ]; then
			echo "FAIL $key: ${COUNT[$key]} instructions, over 2x the recorded $base: $(on_nodes "$cmd" "$nodes")"
			bad=$((bad + 1))
		else
			echo "ok   $key: ${COUNT[$key]} instructions (recorded $base, ratio $(ratio "${COUNT[$key]}" "$base"))"
			checked=$((checked + 1))
		fi
	done
	echo "bench --ci: $checked counts within 2x of bench/baseline, $bad failing"
	[ "$bad" = 0 ]
}

write_baseline() {
	local c key
	{
		echo "# Instruction counts (callgrind, whole process) recorded by bench/run;"
		echo "# bench/run --ci fails when a count is over twice the one here."
		for c in "${CI_CASES[@]}"; do
			key=${c%%|*}
			case ${COUNT[$key]} in n/a | fail) continue ;; esac
			echo "$key ${COUNT[$key]}"
		done
	} >"$BASELINE"
}
