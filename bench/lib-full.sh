# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The full run of bench/run: numastatctl against its peers, results.md.

ROWS=()  # markdown table rows
CMDS=()  # "label: command" lines for the reproduction list

row() {
	local s="|" c
	for c; do
		s+=" $c |"
	done
	ROWS+=("$s")
}

# compare_icount LABEL OURS PEER [NODES]: instructions, goal ours < peer.
compare_icount() {
	local a b
	a=$(icount "$2" "${4:-}")
	b=$(icount "$3" "${4:-}")
	row "$1" "$a" "$b" "$(ratio "$b" "$a")x" "fewer than the peer" "$(le "$a" "$b")"
	CMDS+=("$1: \`$(on_nodes "$2" "${4:-}")\` vs \`$(on_nodes "$3" "${4:-}")\`")
}

# compare_scount LABEL OURS PEER: syscalls, goal ours <= peer.
compare_scount() {
	local a b
	a=$(scount "$2")
	b=$(scount "$3")
	row "$1" "$a" "$b" "$(ratio "$b" "$a")x" "at most the peer's" "$(le "$a" "$b")"
	CMDS+=("$1: \`strace -f -c $(show "$2")\` vs \`strace -f -c $(show "$3")\`")
}

# compare_wall LABEL RUNS OURS PEER MIN_RATIO: mean wall time (min in
# brackets), goal: peer/ours of the means >= MIN_RATIO.
compare_wall() {
	local a b amin bmin r load
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	read -r a b amin bmin <<<"$(wall "$2" "$3" "$4")"
	LAST_WALL=$a
	r=$(ratio "$b" "$a")
	row "$1 (load $load)" "$(ms "$a") ($(ms "$amin"))" "$(ms "$b") ($(ms "$bmin"))" \
		"${r}x ($(ratio "$bmin" "$amin")x)" "peer/ours >= $5" "$(le "$5" "$r")"
	CMDS+=("$1: \`hyperfine -N --runs $(($2 / 4)) '$(show "$3")' '$(show "$4")'\`, 4 rounds, order swapped each round")
}

# cpu_ms CMDLINE: mean CPU time (task-clock) of RUNS runs, in ms: what the
# process itself costs, much less disturbed by load than wall time.
cpu_ms() {
	argv_of "$1"
	ns
	"${CLEAN_ENV[@]}" "${NS[@]}" nice -n -10 perf stat -x, -e task-clock -r "$RUNS" -o "$TMP/perf" \
		"${ARGV[@]}" >/dev/null 2>"$TMP/err" </dev/null || { echo fail; return; }
	awk -F, '$3 == "task-clock" { printf "%.3f\n", $1 }' "$TMP/perf"
}

# compare_cpu LABEL OURS PEER: CPU time, goal ours <= peer.
compare_cpu() {
	local a b
	command -v perf >/dev/null || return 0
	a=$(cpu_ms "$2")
	b=$(cpu_ms "$3")
	row "$1" "$a ms" "$b ms" "$(ratio "$b" "$a")x" "at most the peer's" "$(le "$a" "$b")"
	CMDS+=("$1: \`perf stat -e task-clock -r $RUNS $(show "$2")\` vs the same for \`$(show "$3")\`")
}

startup_rows() {
	local t v
	t=$(icount "/bin/true")
	v=$(icount "@BIN@ --version")
	row "start-up floor: \`/bin/true\` / \`numastatctl --version\`" "$v" "$t" "$(ratio "$t" "$v")x" "(reference)" "-"
	CMDS+=("start-up floor: \`/bin/true\`, \`numastatctl --version\`")
}

# One-shot stat on 1024 nodes: syscalls per node.
stat_syscall_rows() {
	local s
	s=$(scount "@BIN@ --sysroot @R1024@ stat")
	row "syscalls per node, one-shot \`stat\`, 1024 nodes" "$(ratio "$s" 1024)" "-" "-" "<= 4" "$(le "$(ratio "$s" 1024)" 4)"
	CMDS+=("stat syscalls: \`strace -f -c $(show "@BIN@ --sysroot @R1024@ stat")\` (total / 1024)")
}

# Interval mode: one more sample costs about one read per node.
interval_rows() {
	local iv=0.01 a b per
	a=$(scount "@BIN@ --sysroot @R1024@ stat $iv 2")
	[ "$a" = fail ] && iv=1 && a=$(scount "@BIN@ --sysroot @R1024@ stat $iv 2")
	b=$(scount "@BIN@ --sysroot @R1024@ stat $iv 3")
	per=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) printf "%.2f\n", (b - a) / 1024; else print "n/a" }')
	row "syscalls per node per interval sample, 1024 nodes" "$per" "-" "-" "about 1 (<= 1.5)" "$(le "$per" 1.5)"
	CMDS+=("interval syscalls: (\`strace -f -c $(show "@BIN@ --sysroot @R1024@ stat $iv 3")\` - the same with count 2) / 1024")
	a=$(icount "@BIN@ stat $iv 2" 1024)
	b=$(icount "@BIN@ stat $iv 3" 1024)
	per=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) printf "%.0f\n", (b - a) / 1024; else print "n/a" }')
	row "instructions per node per interval sample, 1024 nodes" "$per" "-" "-" "(reference)" "-"
	CMDS+=("interval instructions: (\`$(on_nodes "@BIN@ stat $iv 3" 1024)\` - the same with count 2) / 1024")
}

# per_sample CMDLINE FILES [SYSCALL]: the syscalls (or only SYSCALL) of one
# more interval sample per file read: (count 3 - count 2) / FILES, or n/a.
per_sample() {
	local a b
	a=$(scount "$1 0.01 2" "${3:-}")
	b=$(scount "$1 0.01 3" "${3:-}")
	awk -v a="$a" -v b="$b" -v n="$2" 'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) printf "%.2f\n", (b - a) / n; else print "n/a" }'
}

# stat --balancing, --tiers, --cgroup on 64 generated nodes and 100 cgroups:
# each reads each of its files once; interval mode about one syscall per
# file per sample.  The files: --balancing /proc/vmstat (node0/vmstat once,
# to learn what is per node); --tiers /proc/vmstat and 64 nodeN/vmstat per
# sample (64 distance files once); --cgroup 100 memory.numa_stat.
effect_rows() {
	local view files label cmd s per
	for view in "--balancing|1" "--tiers|65" "--cgroup *.service|100"; do
		label=${view%|*} files=${view#*|}
		cmd="@BIN@ --sysroot @R64@ stat $label"
		s=$(scount "$cmd")
		row "syscalls, one-shot \`stat $label\`, 64 nodes, 100 cgroups" "$s" "-" "-" "(reference)" "-"
		per=$(per_sample "$cmd" "$files" pread64)
		row "reads (pread) per file per interval sample, \`stat $label\` ($files files)" "$per" "-" "-" \
			"1" "$(le "$per" 1)"
		per=$(per_sample "$cmd" 1)
		row "syscalls per interval sample, \`stat $label\` ($files files)" "$per" "-" "-" "(reference)" "-"
		CMDS+=("$label: \`strace -f -c $(show "$cmd")\`; per sample: (the same with \`0.01 3\` - with \`0.01 2\`), all syscalls, and pread64 alone (\`-e trace=pread64\`) / $files")
	done
	for view in "--balancing|1" "--tiers|65" "--cgroup *.service|100"; do
		label=${view%|*} files=${view#*|}
		cmd="@BIN@ --sysroot @R64@ stat $label"
		s=$(awk -v a="$(icount "$cmd 0.01 2")" -v b="$(icount "$cmd 0.01 3")" -v n="$files" \
			'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) printf "%.0f\n", (b - a) / n; else print "n/a" }')
		row "instructions per file per interval sample, \`stat $label\`" "$s" "-" "-" "(reference)" "-"
	done
	CMDS+=("instructions per sample: (callgrind of \`$(show "@BIN@ --sysroot @R64@ stat VIEW 0.01 3")\` - with count 2) / files")
}

# Default stat against stat --compat on one node (issue 22): the table may
# cost at most 1.5x the numastat-shaped output (the CI counts of both).
table_rows() {
	local a=${COUNT[stat-1]} b=${COUNT[stat-compat]} r
	r=$(ratio "$b" "$a")
	row "instructions: default \`stat\` vs \`stat --compat\`, 1 node" "$a" "$b" "${r}x" \
		"peer/ours >= 0.67 (within 1.5x)" "$(le 0.67 "$r")"
	CMDS+=("table: \`$(on_nodes "@BIN@ stat" 1)\` vs \`$(on_nodes "@BIN@ stat --compat" 1)\` (callgrind, the counts of bench/baseline)")
}

scaling_rows() {
	local a=${COUNT[stat-64]} b=${COUNT[stat-1024]} r
	r=$(ratio "$b" "$a")
	row "instructions, \`stat\` 1024 nodes / 64 nodes" "$b / $a" "-" "${r}x" "<= 20 (linear is 16)" "$(le "$r" 20)"
	CMDS+=("scaling: \`$(on_nodes "@BIN@ stat" 1024)\` vs \`$(on_nodes "@BIN@ stat" 64)\` (callgrind)")
}

peer_rows() {
	local get="@BIN@ get vm.numa_stat" sget="sysctl -n vm.numa_stat"
	local set="@BIN@ --state-dir @STATE@ set vm.zone_reclaim_mode=0"
	local sset="sysctl -w vm.zone_reclaim_mode=0"
	local apply="@BIN@ --state-dir @STATE@ -c @CONF@ apply bench" sapply="sysctl -p @SYSCTLCONF@"

	compare_icount "instructions: get one knob" "$get" "$sget"
	CLEAN_ENV=("${CLEAN_ENV[@]/LANG=*/LC_ALL=C}")
	compare_icount "instructions: get one knob, LC_ALL=C (no locale to load)" "$get" "$sget"
	built apply && compare_icount "instructions: apply 6 knobs vs sysctl -p, LC_ALL=C" "$apply" "$sapply"
	CLEAN_ENV=("${CLEAN_ENV[@]/LC_ALL=C/LANG=C.UTF-8}")
	compare_icount "instructions: set one knob (same value)" "$set" "$sset"
	if built stat; then
		compare_icount "instructions: \`stat --compat\` vs numastat" "@BIN@ stat --compat" numastat
		compare_icount "instructions: \`stat --compat\` vs numastat, 64 nodes" "@BIN@ stat --compat" numastat 64
		compare_icount "instructions: \`stat --compat\` vs numastat, 1024 nodes" "@BIN@ stat --compat" numastat 1024
	fi
	built apply && compare_icount "instructions: apply 6 knobs vs sysctl -p" "$apply" "$sapply"
	compare_scount "syscalls: get one knob" "$get" "$sget"
	compare_scount "syscalls: set one knob (same value)" "$set" "$sset"
	built stat && compare_scount "syscalls: \`stat --compat\` vs numastat" "@BIN@ stat --compat" numastat
	built apply && compare_scount "syscalls: apply 6 knobs vs sysctl -p" "$apply" "$sapply"
	compare_wall "wall: get one knob" "$RUNS" "$get" "$sget" 1
	compare_wall "wall: set one knob (same value)" "$RUNS" "$set" "$sset" 1
	built stat && compare_wall "wall: \`stat --compat\` vs numastat" "$RUNS" "@BIN@ stat --compat" numastat 1
	built apply && compare_wall "wall: apply 6 knobs vs sysctl -p" "$RUNS" "$apply" "$sapply" 1
	compare_cpu "cpu: get one knob" "$get" "$sget"
	compare_cpu "cpu: set one knob (same value)" "$set" "$sset"
	built stat && compare_cpu "cpu: \`stat --compat\` vs numastat" "@BIN@ stat --compat" numastat
	built apply && compare_cpu "cpu: apply 6 knobs vs sysctl -p" "$apply" "$sapply"
	return 0
}

# Kernel side: the wall time of one read of a node file on a kept fd.
kernel_rows() {
	local f n=/sys/devices/system/node/node0 t zones cpus
	cc -O2 -o "$TMP/read-cost" "$HERE/read-cost.c" || return
	zones=$(awk '/^Node/ { z = $0 } /^ +managed +[1-9]/ { n++ } END { print n + 0 }' /proc/zoneinfo)
	cpus=$(getconf _NPROCESSORS_ONLN)
	for f in $n/numastat $n/cpulist $n/meminfo $n/vmstat /proc/vmstat /proc/zoneinfo; do
		t=$("$TMP/read-cost" "$f" 20000)
		row "kernel: one pread of ${f#/sys/devices/system/node/} ($zones populated zones, $cpus online CPUs)" "$t ns" "-" "-" "(reference)" "-"
	done
	CMDS+=("kernel: \`bench/read-cost FILE 20000\` (mean of 20000 whole reads of FILE on a kept fd, as interval sampling reads)")
}

TUNED_DIR=/etc/tuned
TUNED_FILES="active_profile profile_mode post_loaded_profile tuned-main.conf"

# Keep tuned's state files for tuned_restore (its sysctl writes go to the
# knob tree of the namespace, see ns).
tuned_save() {
	local f
	mkdir -p "$TMP/tuned-save"
	: >"$TMP/tuned-save/absent"
	for f in $TUNED_FILES; do
		if [ -e "$TUNED_DIR/$f" ]; then
			cp -a "$TUNED_DIR/$f" "$TMP/tuned-save/"
		else
			echo "$f" >>"$TMP/tuned-save/absent"
		fi
	done
	TUNED_SAVED=1
}

tuned_restore() {
	local f
	for f in $TUNED_FILES; do
		[ -e "$TMP/tuned-save/$f" ] && cp -a "$TMP/tuned-save/$f" "$TUNED_DIR/"
	done
	while read -r f; do
		rm -f "$TUNED_DIR/$f"
	done <"$TMP/tuned-save/absent"
	rm -rf "$TUNED_DIR/numastatctl-bench"
	TUNED_SAVED=
}

# A throwaway tuned profile with the same six sysctls as the apply profile.
tuned_profile() {
	mkdir -p "$TUNED_DIR/numastatctl-bench"
	{
		printf '[main]\nsummary=numastatctl benchmark: the six knobs of bench.conf\n\n[sysctl]\n'
		tr -d ' ' <"$TMP/conf/sysctl.conf"
	} >"$TUNED_DIR/numastatctl-bench/tuned.conf"
	sed -i 's/^daemon *= *1/daemon = 0/' "$TUNED_DIR/tuned-main.conf"
}

tuned_rows() {
	local apply="@BIN@ --state-dir @STATE@ -c @CONF@ apply bench" r
	if [ "$TUNED" = 0 ] || ! command -v tuned-adm >/dev/null; then
		# tuned-adm profile with daemon = 0, as recorded in the peer study.
		r=$(ratio 0.287 "${LAST_WALL:-}")
		row "wall: apply 6 knobs vs tuned-adm profile (not installed: recorded figure)" \
			"$(ms "${LAST_WALL:-n/a}")" "287 ms" "${r}x" "peer/ours >= 100" "$(le 100 "$r")"
		return
	fi
	tuned_save
	tuned_profile
	# With daemon = 0, tuned-adm records the profile and fails to restart the
	# service; it writes no sysctl, so this is the least a switch costs.
	compare_wall "wall: apply 6 knobs vs \`tuned-adm profile\` (daemon = 0, writes no sysctl)" 40 \
		"$apply" "tuned-adm profile numastatctl-bench" 100
	tuned_restore
}

pkg_version() {
	dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "?"
}

versions() {
	echo "- kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) online CPUs, $(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l) NUMA node(s) live"
	echo "- glibc $(getconf GNU_LIBC_VERSION | cut -d' ' -f2); numastatctl built with buildtype=${BUILDTYPE:-?}"
	echo "- $(valgrind --version), $(hyperfine --version), $(strace -V | head -1)"
	echo "- peers: $(sysctl --version 2>&1 | head -1), numastat from numactl $(pkg_version numactl)$(command -v tuned-adm >/dev/null && echo ", tuned $(tuned-adm --version 2>&1 | grep -o '[0-9][0-9.]*' | head -1)")"
	echo "- load average when the run started: $LOAD0"
}

# write_results: results.md anew, keeping its "## Studies" section (the runs
# of bench/run --effect and --peers and the studies written by hand, each
# saying when and how it was measured) as it was.
write_results() {
	local r c kept=$TMP/studies
	: >"$kept"
	[ -r "$OUT" ] && sed -n '/^## Studies$/,$p' "$OUT" >"$kept"
	{
		echo "# numastatctl benchmark results"
		echo
		echo "Written by \`bench/run\` on $(date -u '+%Y-%m-%d %H:%M UTC'); see README.md for what the figures mean."
		echo
		versions
		echo
		echo "Instructions: callgrind, the whole process including the dynamic loader. Syscalls:"
		echo "\`strace -f -c\`. Wall: hyperfine, mean of every run of each command (the fastest"
		echo "run in brackets: the least disturbed by load), ratio of the means. CPU: \`perf stat"
		echo "-e task-clock\`, mean of every run. Every"
		echo "command runs in the environment \`${CLEAN_ENV[*]}\`, in a mount namespace where"
		echo "/proc/sys/vm and /proc/sys/kernel are copies holding the six knobs below: set,"
		echo "apply, sysctl and tuned write those files, never the kernel."
		echo
		echo "| what | numastatctl | peer | ratio (peer/ours) | goal | met |"
		echo "|---|---|---|---|---|---|"
		for r in "${ROWS[@]}"; do
			echo "$r"
		done
		echo
		echo "## Commands"
		echo
		for c in "${CMDS[@]}"; do
			echo "- $c"
		done
		echo
		echo "The apply profile \`bench.conf\` (the knobs already hold these values; \`sysctl.conf\`"
		echo "has the same assignments for \`sysctl -p\` and the tuned profile):"
		echo
		echo '```ini'
		cat "$TMP/conf/bench.conf"
		echo '```'
		echo
		echo "## Instruction counts checked by \`bench/run --ci\` (bench/baseline)"
		echo
		echo "| key | command | instructions |"
		echo "|---|---|---|"
		for c in "${CI_CASES[@]}"; do
			IFS='|' read -r r cmd _ nodes <<<"$c"
			echo "| $r | \`$(on_nodes "$cmd" "$nodes")\` | ${COUNT[$r]} |"
		done
		if [ -s "$kept" ]; then
			echo
			cat "$kept"
		fi
	} >"$OUT.new" && mv "$OUT.new" "$OUT"
}

# bench/run --effect: the rows of stat --balancing, --tiers and --cgroup
# alone, as markdown on standard output (results.md is left as it is).
effect_run() {
	local key c cmd
	effect_rows
	kernel_rows
	echo "| what | numastatctl | peer | ratio (peer/ours) | goal | met |"
	echo "|---|---|---|---|---|---|"
	printf '%s\n' "${ROWS[@]}"
	echo
	printf -- '- %s\n' "${CMDS[@]}"
	for key in stat-balancing stat-tiers stat-cgroup; do
		for c in "${CI_CASES[@]}"; do
			[ "${c%%|*}" = "$key" ] || continue
			IFS='|' read -r _ cmd _ _ <<<"$c"
			echo "$key $(icount "$cmd")"
		done
	done
}

full_run() {
	LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
	count_cases
	write_baseline
	startup_rows
	peer_rows
	if built stat; then
		stat_syscall_rows
		interval_rows
		table_rows
		scaling_rows
		effect_rows
	fi
	built apply && tuned_rows
	kernel_rows
	write_results
	cat "$OUT"
}
