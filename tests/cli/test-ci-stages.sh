#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# .ci/stages.sh, the stages of .ci/test-all: a stage run in the background
# beside the others (the boot) keeps its output together, printed when it
# is collected, its exit status and its count; its CPU time is its own,
# not that of the stage during which it ended; and it ends with the run,
# however the run ends.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

# A driver as .ci/test-all is: the library sourced in a script of its own
# (it sets its own EXIT trap), a Ctrl-C or TERM ending the run.
cat >"$TMP/driver" <<'EOF'
set -uo pipefail
trap 'exit 130' INT TERM
started=$(date +%s)
. "$SOURCE_ROOT/.ci/stages.sh"
# until_bg_ends: a stage that lasts until the background stage has ended
# and this shell has counted its CPU, using next to none of its own (read
# from a FIFO that nothing writes: a wait without a fork).
until_bg_ends() {
	echo "fg-line"
	mkfifo "$TMP/fifo"
	while kill -0 "$bg_pid" 2>/dev/null; do read -rt 0.1 _ <>"$TMP/fifo" || :; done
}
case $1 in
counts)
	bg_start slow sh -c 'echo bg-first; "$0"; echo bg-last; exit 3' "$TMP/work"
	stage fast until_bg_ends
	stage pause sleep 2
	stage slow bg_wait
	printf '%s\n' "${times[@]}"
	echo "counts $passed $failed $status ${stage_failed[*]}"
	;;
kill)
	bg_start hang sh -c 'sleep 300 & echo $! >"$0"; wait' "$TMP/sleeper"
	stage fast sleep 300
	;;
guest)
	bg_start guest bash "$TMP/guest.sh"
	stage fast sleep 300
	;;
esac
EOF
# About 1.5 s of CPU, whatever the load.
cat >"$TMP/work" <<'EOF'
#!/bin/sh
i=0
while [ $i -lt 1500000 ]; do i=$((i + 1)); done
EOF
chmod +x "$TMP/work"

OUT=$(TMP=$TMP SOURCE_ROOT=$SOURCE_ROOT bash "$TMP/driver" counts 2>&1)
RC=$?
expect_rc 0 "the driver runs"
check "the background stage's output waits for its collection, whole, under its own name" \
	test "$(grep -E '^(==|fg-|bg-)' <<<"$OUT" | paste -sd' ')" = \
	"== slow: started in the background, its output at the end == fast fg-line == pause == slow bg-first bg-last"
check "its exit status fails it, the others pass: 2 passed, 1 failed, status 1" \
	grep -qx 'counts 2 1 1 slow' <<<"$OUT"
# The stage it ended in: its own CPU only (none; sleep's is under a second).
check "the stage during which it ended is not given its CPU" grep -qx 'fast [0-9]* s (cpu 0 s)' <<<"$OUT"
cpu=$(sed -n 's/^slow [0-9]* s (cpu \([0-9]*\) s)$/\1/p' <<<"$OUT")
check "its own stage has its CPU (at least 1 s): ${cpu:-none}" test "${cpu:-0}" -ge 1
# fast lasted until it ended; pause's 2 s came before its collection.
fast=$(sed -n 's/^fast \([0-9]*\) s .*/\1/p' <<<"$OUT") slow=$(sed -n 's/^slow \([0-9]*\) s .*/\1/p' <<<"$OUT")
check "its wall time runs to its end, not to its collection ($slow s, the stage beside it $fast s)" \
	test "${slow:-99}" -le $((${fast:-0} + 1))
[ "$TAP_FAILED" = 0 ] || diag "$OUT"

# A Ctrl-C at a terminal signals the run's process group: here TERM to a
# group of its own (a background job ignores SIGINT).  The background
# stage's processes, in their own group, end too.
# term_run MODE [VAR=VALUE...]: the driver in MODE, in a process group of
# its own, TERMed once the process it starts has written its PID to
# $TMP/sleeper; sets RC (the driver's exit) and SLEEPER (that PID, which
# is given 5 s to end).
term_run() {
	local mode=$1 driver
	shift
	rm -f "$TMP/sleeper"
	env "$@" TMP="$TMP" SOURCE_ROOT="$SOURCE_ROOT" setsid bash "$TMP/driver" "$mode" \
		>"$TMP/$mode.out" 2>&1 &
	driver=$!
	for _ in $(seq 1 100); do [ -s "$TMP/sleeper" ] && break; sleep 0.1; done
	SLEEPER=$(cat "$TMP/sleeper" 2>/dev/null)
	kill -TERM -- -"$driver"
	wait "$driver"
	# shellcheck disable=SC2034 # RC is expect_rc's
	RC=$?
	for _ in $(seq 1 50); do kill -0 "$SLEEPER" 2>/dev/null || break; sleep 0.1; done
}

term_run kill
check "the background stage started its process" test -n "$SLEEPER"
expect_rc 130 "the run ends on TERM as on a Ctrl-C"
check "and the background stage's process ended with it" sh -c "! kill -0 '$SLEEPER' 2>/dev/null"
[ -z "$SLEEPER" ] || kill "$SLEEPER" 2>/dev/null

# The same for a guest of tests/vm/qemu-lib.sh, as the background boot
# runs one: QEMU runs under timeout, in a process group of its own, which
# the run's signal to the stage's group does not reach; the test's TERM
# must end it.  A stand-in QEMU that says its PID and waits.
cat >"$TMP/fake-qemu" <<'EOF'
#!/bin/sh
echo $$ >"$FAKE_PID"
exec sleep 300
EOF
chmod +x "$TMP/fake-qemu"
cat >"$TMP/guest.sh" <<'EOF'
. "$SOURCE_ROOT/tests/cli/lib.sh"
. "$SOURCE_ROOT/tests/vm/qemu-lib.sh"
QEMU=$FAKE_QEMU
run_guest 300
EOF
term_run guest FAKE_PID="$TMP/sleeper" FAKE_QEMU="$TMP/fake-qemu"
check "the background stage started its guest" test -n "$SLEEPER"
check "and its QEMU, under timeout, ended with the run" sh -c "! kill -0 '$SLEEPER' 2>/dev/null"
[ -z "$SLEEPER" ] || kill "$SLEEPER" 2>/dev/null

done_testing
