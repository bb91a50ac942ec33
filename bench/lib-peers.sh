# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034 # EXPORTER_PID is read by bench/run's cleanup
# bench/run --peers: numastatctl beside numastat and node_exporter at 1, 64,
# 256 and 1024 nodes, in CPU time, page faults and peak resident memory as
# well as instructions, and every stat view and advise at those sizes.
# Markdown on standard output (results.md keeps a run of it).

PEER_SIZES=${PEER_SIZES:-1 64 256 1024}
# Runs per command and per size: the CPU time of one run is a mean of these.
peer_runs() {
	case $1 in 1 | 64) echo 40 ;; 256) echo 20 ;; *) echo 10 ;; esac
}
# Scrapes of the running node_exporter whose CPU time is averaged.
PEER_SCRAPES=40
PROM_CGROUPS=20

# The trees: gen-nodes.sh and gen-effect.sh with PROM_CGROUPS services, as
# placeholders @P<count>@ (ns P<count> mounts one on /sys/devices/system/node).
peer_trees() {
	local n
	for n in $PEER_SIZES; do
		gen_nodes "$TMP/peer-$n" "$n"
		gen_effect "$TMP/peer-$n" "$PROM_CGROUPS"
		placeholder "@P$n@" "$TMP/peer-$n" "nodes-$n"
	done
}

# usage_of RUNS CMDLINE [TREE]: "CPU_US MINFLT MAJFLT MAXRSS_KB STATUS" of
# RUNS runs (bench/rusage.c), or "fail".
usage_of() {
	argv_of "$2"
	ns "${3:-}"
	"${CLEAN_ENV[@]}" "${NS[@]}" "$TMP/rusage" "$1" "${ARGV[@]}" 2>"$TMP/err" </dev/null || echo fail
}

# The CPU time (ns, every thread) and the minor faults of process PID so far.
proc_cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'
}
proc_minflt() {
	awk '{ sub(/^.*\) /, ""); print $8 }' /proc/"$1"/stat
}

scrape_once() {
	curl -s --noproxy '*' -o "$TMP/scrape" "http://127.0.0.1:$1/metrics"
}

# exporter_cost TREE: (in this shell, not in $(...), so that bench/run's
# cleanup sees EXPORTER_PID) node_exporter with only its meminfo_numa collector and
# no metrics of its own (--web.disable-exporter-metrics), on the tree TREE
# mounted as ours is, listening on 127.0.0.1 on a port of its choosing.
# Sets EXPORTER_COST to "START_US START_FLT SCRAPE_US SCRAPE_FLT HWM_KB BYTES": the CPU time
# and minor faults from its exec to the end of its first scrape, then per
# scrape over PEER_SCRAPES scrapes after 5 of warm-up (every thread, from
# /proc/PID/task/*/schedstat), its peak resident set (VmHWM) and the size of
# one scrape; "fail" when it does not answer.
exporter_cost() {
	local pid port='' i c0 f0 c1 f1 start_c start_f hwm
	# EXPORTER_PID: bench/run's cleanup stops it on Ctrl-C too.
	ns "$1"
	"${CLEAN_ENV[@]}" "${NS[@]}" "$EXPORTER" --web.listen-address=127.0.0.1:0 \
		--collector.disable-defaults --collector.meminfo_numa --web.disable-exporter-metrics \
		>"$TMP/exporter.log" 2>&1 </dev/null &
	pid=$! EXPORTER_PID=$!
	for i in $(seq 1 100); do
		port=$(sed -n 's/.*msg="Listening on".*address=127\.0\.0\.1:\([0-9]*\).*/\1/p' "$TMP/exporter.log")
		[ -n "$port" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if [ -z "$port" ] || ! scrape_once "$port" || ! grep -q '^node_memory_numa_' "$TMP/scrape"; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		EXPORTER_PID=
		EXPORTER_COST=fail
		return
	fi
	start_c=$(proc_cpu_ns "$pid") start_f=$(proc_minflt "$pid")
	for i in 1 2 3 4 5; do scrape_once "$port"; done
	c0=$(proc_cpu_ns "$pid") f0=$(proc_minflt "$pid")
	for i in $(seq 1 "$PEER_SCRAPES"); do scrape_once "$port"; done
	c1=$(proc_cpu_ns "$pid") f1=$(proc_minflt "$pid")
	hwm=$(awk '/^VmHWM:/ { print $2 }' /proc/"$pid"/status)
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	EXPORTER_PID=
	EXPORTER_COST=$(awk -v sc="$start_c" -v sf="$start_f" -v c0="$c0" -v c1="$c1" -v f0="$f0" \
		-v f1="$f1" -v k="$PEER_SCRAPES" -v hwm="$hwm" -v bytes="$(wc -c <"$TMP/scrape")" \
		'BEGIN { printf "%.0f %d %.0f %.1f %d %d\n", sc / 1000, sf, (c1 - c0) / k / 1000, (f1 - f0) / k, hwm, bytes }')
}

ms_of() { awk -v u="$1" 'BEGIN { printf "%.2f", u / 1000 }'; }

# x_of A B: "A/B" as a ratio with two decimals ("-" when either is missing).
x_of() {
	case "$1$2" in
	*[!0-9.]* | "") echo - ;;
	*) awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2fx\n", a / b }' ;;
	esac
}

peer_compat_rows() {
	local n runs a b ia ib
	echo "### \`stat --compat\` against numastat"
	echo
	echo "| nodes | CPU ms (ours / numastat) | ours/peer | minor faults (ours / numastat) | ours/peer | max RSS KB (ours / numastat) | ours/peer | instructions (ours / numastat) |"
	echo "|---|---|---|---|---|---|---|---|"
	for n in $PEER_SIZES; do
		runs=$(peer_runs "$n")
		read -r -a a <<<"$(usage_of "$runs" "@BIN@ stat --compat" "P$n")"
		read -r -a b <<<"$(usage_of "$runs" numastat "P$n")"
		ia=$(icount "@BIN@ stat --compat" "P$n")
		ib=$(icount numastat "P$n")
		echo "| $n | $(ms_of "${a[0]}") / $(ms_of "${b[0]}") | $(x_of "${a[0]}" "${b[0]}") | ${a[1]} / ${b[1]} | $(x_of "${a[1]}" "${b[1]}") | ${a[3]} / ${b[3]} | $(x_of "${a[3]}" "${b[3]}") | $ia / $ib |"
	done
	echo
}

peer_prom_rows() {
	local n runs a e i
	echo "### \`stat --prometheus\` against node_exporter's meminfo_numa collector"
	echo
	if [ -z "${EXPORTER:-}" ]; then
		echo "prometheus-node-exporter is not installed: no comparison."
		echo
		return
	fi
	echo "| nodes | ours: CPU ms / minor faults / max RSS KB / bytes / instructions (one run) | node_exporter, running: CPU ms / minor faults per scrape, VmHWM KB, bytes | ours/peer CPU, faults | node_exporter from exec to its first scrape: CPU ms / minor faults |"
	echo "|---|---|---|---|---|"
	for n in $PEER_SIZES; do
		runs=$(peer_runs "$n")
		read -r -a a <<<"$(usage_of "$runs" "@BIN@ -c @CONF@ stat --prometheus" "P$n")"
		i=$(icount "@BIN@ -c @CONF@ stat --prometheus" "P$n")
		argv_of "@BIN@ -c @CONF@ stat --prometheus"
		ns "P$n"
		"${CLEAN_ENV[@]}" "${NS[@]}" "${ARGV[@]}" >"$TMP/ours.prom" 2>/dev/null </dev/null
		exporter_cost "P$n"
		read -r -a e <<<"$EXPORTER_COST"
		if [ "${e[0]}" = fail ]; then
			echo "| $n | $(ms_of "${a[0]}") / ${a[1]} / ${a[3]} / $(wc -c <"$TMP/ours.prom") / $i | did not answer: $(head -c 200 "$TMP/exporter.log" | tr '\n|' '  ') | - | - |"
			continue
		fi
		echo "| $n | $(ms_of "${a[0]}") / ${a[1]} / ${a[3]} / $(wc -c <"$TMP/ours.prom") / $i | $(ms_of "${e[2]}") / ${e[3]}, ${e[4]}, ${e[5]} | $(x_of "${a[0]}" "${e[2]}"), $(x_of "${a[1]}" "${e[3]}") | $(ms_of "${e[0]}") / ${e[1]} |"
	done
	echo
}

# Every stat view and advise, on each tree through --sysroot (the views
# read /proc/vmstat, the memory tiers and the cgroups there too).
PEER_VIEWS=(
	"stat"
	"stat -m"
	"stat --compat"
	"stat --prometheus"
	"stat --balancing"
	"stat --tiers"
	"stat --cgroup *.service"
	"advise"
)

peer_view_rows() {
	local v n runs a i
	echo "### Every view, and advise (\`--sysroot\` on each tree, $PROM_CGROUPS services with a memory.numa_stat)"
	echo
	echo "| command | nodes | CPU ms | minor faults | max RSS KB | instructions | exit |"
	echo "|---|---|---|---|---|---|---|"
	for v in "${PEER_VIEWS[@]}"; do
		for n in $PEER_SIZES; do
			runs=$(peer_runs "$n")
			read -r -a a <<<"$(usage_of "$runs" "@BIN@ -c @CONF@ --sysroot @P$n@ $v")"
			i=$(icount "@BIN@ -c @CONF@ --sysroot @P$n@ $v" "" "${a[4]}")
			echo "| \`$v\` | $n | $(ms_of "${a[0]}") | ${a[1]} | ${a[3]} | $i | ${a[4]} |"
		done
	done
	echo
}

peers_run() {
	EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter || true)
	[ -z "$EXPORTER" ] || need curl
	cc -O2 -o "$TMP/rusage" "$HERE/rusage.c" || exit 1
	peer_trees
	echo "Written by \`bench/run --peers\` on $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg);"
	echo "kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs; numastat from numactl $(pkg_version numactl)${EXPORTER:+, node_exporter $(pkg_version prometheus-node-exporter)}."
	echo
	peer_compat_rows
	peer_prom_rows
	peer_view_rows
	cat <<EOF
- CPU ms, minor faults, max RSS: \`bench/rusage RUNS CMD\` (wait4(2) of each run: user + system
  time and faults averaged over $(peer_runs 1) runs at 1 and 64 nodes, $(peer_runs 256) at 256, $(peer_runs 1024) at 1024; the largest
  peak RSS), in \`${CLEAN_ENV[*]}\`; instructions: callgrind, one run.
- \`stat --compat\`, \`numastat\` and \`stat --prometheus\` run in a mount namespace with the
  tree of N nodes (\`tests/fixtures/gen-nodes.sh\`, \`gen-effect.sh\`) on /sys/devices/system/node,
  the path both programs read; the views run with \`--sysroot TREE\`; \`-c bench.conf\` (no
  configured profile) everywhere.
- node_exporter: \`$(basename "${EXPORTER:-prometheus-node-exporter}") --collector.disable-defaults --collector.meminfo_numa
  --web.disable-exporter-metrics --web.listen-address=127.0.0.1:0\` in the same namespace. A scrape
  of it is the unit compared with one run of \`stat --prometheus\` (a textfile timer runs it once
  per scrape interval): its CPU time per scrape is the sum over its threads of
  /proc/PID/task/*/schedstat across $PEER_SCRAPES scrapes (after 5 of warm-up), divided by $PEER_SCRAPES; faults
  from /proc/PID/stat; its memory is VmHWM, held for as long as it runs, where ours is freed
  when the run ends. The last column is what a node_exporter started for one scrape costs.
EOF
}
