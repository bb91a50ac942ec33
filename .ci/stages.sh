# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# .ci/test-all's stages, sourced by it (and by tests/cli/test-ci-stages.sh):
# each stage's results counted, its wall and CPU time kept for the closing
# line, and one stage at a time run in the background beside the others.
# The caller sets `started` (the epoch second the run began: a meson log
# older than that is not this run's) and prints `times`, the counts and
# `stage_failed` at the end.
STAGES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
status=0
stage_failed=()

# The summary line counts each test of the three meson runs (product,
# sanitizers, memcheck) and each stage that is no meson run.
# count_results LOG [MODE]: add the results of a meson run's log written
# since the start, each test (MODE count, the default) or each TAP check of
# each test (checks); false, counting nothing, when there is none.
passed=0 failed=0 skipped=0
count_results() {
	local counts rc
	counts=$(python3 "$STAGES_DIR/meson-logs.py" "$started" "${2:-count}" "$1")
	rc=$?
	[ $rc != 3 ] || return 1
	[ $rc = 0 ] || counts="0 1 0"
	read -r p f s <<<"$counts"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# Each stage's wall time and the CPU time of its processes, printed at the
# end: the budget is the sum.  CPU time holds on a busy machine; wall does not.
times=()
# (`times` must run in this shell: a pipe or $(...) would fork, and a
# forked shell has no children yet.)
times_file=$(mktemp) bg_out=$(mktemp) bg_times=$(mktemp) bg_end=$(mktemp)
bg_pid=
# At the end, however it comes (a Ctrl-C too), the background stage's
# process group (see bg_start) ends with this script.
trap '[ -z "$bg_pid" ] || kill -TERM -- -"$bg_pid" 2>/dev/null; rm -f "$times_file" "$bg_out" "$bg_times" "$bg_end"' EXIT
# cpu_of FILE: CPU_MS, the milliseconds of user and system time of every
# finished child in the output of `times` in FILE, and CPU, the seconds.
# (Differences are taken in milliseconds: whole seconds, each rounded,
# would leave a second to the wrong stage.)
cpu_of() {
	CPU_MS=$(awk 'NR == 2 { split($1 " " $2, t, /[ms ]+/); printf "%d", (t[1] * 60 + t[2] + t[3] * 60 + t[4]) * 1000 }' "$1")
	CPU_MS=${CPU_MS:-0}
	CPU=$(((CPU_MS + 500) / 1000))
}
# cpu_now: CPU_MS and CPU of every finished child.
cpu_now() {
	times >"$times_file"
	cpu_of "$times_file"
}

# One stage may run in the background beside the others (bg_start), in a
# process group of its own; its output waits in a file, printed whole when
# bg_wait collects it as a stage of its own.  It counts as any stage: its
# results, its wall time (its start to its end, not to its collection)
# and its CPU time (its processes':
# when it ends during another stage, this shell's count of its children
# takes its CPU then, so that stage's figure is given without it).
BG_NAME='' BG_START=0 BG_SEEN=''
# bg_start NAME CMD...: run CMD in the background.
bg_start() {
	BG_NAME=$1 BG_START=$SECONDS
	shift
	echo "== $BG_NAME: started in the background, its output at the end"
	set -m
	(
		"$@" >"$bg_out" 2>&1
		rc=$?
		times >"$bg_times"
		echo "$SECONDS" >"$bg_end"
		exit $rc
	) &
	bg_pid=$!
	set +m
}
# bg_cpu_taken: BG_TAKEN, the CPU_MS of the background stage if it ended
# and this shell counted it since the last call, else 0.
bg_cpu_taken() {
	BG_TAKEN=0
	if [ -n "$bg_pid" ] && [ -z "$BG_SEEN" ] && ! kill -0 "$bg_pid" 2>/dev/null; then
		BG_SEEN=1
		cpu_of "$bg_times"
		BG_TAKEN=$CPU_MS
	fi
}
# bg_wait: the background stage's exit status, after its output; its
# wall and CPU time in STAGE_WALL and STAGE_CPU for stage.
bg_wait() {
	local rc
	wait "$bg_pid"
	rc=$?
	STAGE_WALL=$(($(<"$bg_end") - BG_START))
	cpu_of "$bg_times"
	STAGE_CPU=$CPU BG_SEEN=1 bg_pid=
	cat "$bg_out"
	return "$rc"
}

# stage NAME [--log LOG [--checks]] CMD...: run a stage; with --log, a
# meson run whose tests count instead of the stage (the stage counts as
# failed when it failed without one failing test, a build, say); with
# --checks, each TAP check of its tests counts.  CMD may set STAGE_WALL
# and STAGE_CPU to times of its own (bg_wait).
stage() {
	local name=$1 t0=$SECONDS c0 log='' mode=count ok=1 f0=$failed
	cpu_now
	c0=$CPU_MS
	shift
	[ "$1" = --log ] && log=$2 && shift 2
	[ "$1" = --checks ] && mode=checks && shift
	echo "== $name"
	STAGE_WALL='' STAGE_CPU=''
	"$@" || ok=0
	if [ -z "$log" ] || ! count_results "$log" "$mode"; then
		if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	elif [ $ok = 0 ] && [ "$failed" = "$f0" ]; then
		failed=$((failed + 1))
	fi
	if [ $ok = 0 ]; then
		stage_failed+=("$name")
		status=1
	fi
	bg_cpu_taken
	cpu_now
	times+=("$name ${STAGE_WALL:-$((SECONDS - t0))} s (cpu ${STAGE_CPU:-$(((CPU_MS - c0 - BG_TAKEN + 500) / 1000))} s)")
}
