#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Signals and stdout errors.  SIGINT/SIGTERM caught in the middle of a set
# or an apply (held there by the fault-injection preload) wait until the
# transaction is whole, then end the run: no half-applied state, no stale
# lock.  A signal while waiting for the lock ends the run before it writes.
# Interval stat ends by the signal, after its summary.  A write
# error on stdout (/dev/full, a closed pipe) gives a non-zero exit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fault-lib.sh"
. "$(dirname "$0")/profile-lib.sh"

# Background jobs of a script start with SIGINT ignored: give it back (env
# execs the command, so $! is the command's pid).
BG=(env --default-signal=INT,TERM,HUP)

triple() { local f; for f in vm/min_slab_ratio vm/min_unmapped_ratio vm/zone_reclaim_mode; do
	printf '%s ' "$(cat "$ROOT/proc/sys/$f")"; done; }
wait_for() {
	local i
	for ((i = 0; i < 3000; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.01
	done
	return 1
}
CONF="$TMP/profiles.conf"
printf '[profile p]\nvm.min_slab_ratio = 21\nvm.min_unmapped_ratio = 51\nvm.zone_reclaim_mode = 5\n' >"$CONF"
trust "$CONF"

# in_the_middle SIG CMD...: stall CMD in its 2nd write, send SIG, let it go on.
in_the_middle() {
	local sig=$1 go="$TMP/go.$RANDOM" victim
	shift
	FAULT_INJECT="stall:2:$go" LD_PRELOAD="$SHIM" "${BG[@]}" "$NUMASTATCTL" -S "$ROOT" \
		--state-dir "$STATE" "$@" >/dev/null 2>"$TMP/victim.err" &
	victim=$!
	wait_for "$go.waiting" || return 1
	kill -s "$sig" "$victim"
	touch "$go"
	wait "$victim" 2>/dev/null
	VRC=$?
}

for sig in INT TERM HUP; do
	fixture sparse3
	in_the_middle $sig set vm.min_slab_ratio=22 vm.min_unmapped_ratio=52 vm.zone_reclaim_mode=6
	check "SIG$sig in the middle of set: the run still ends by the signal (rc $VRC)" \
		test "$VRC" -gt 128
	check "SIG$sig in the middle of set: every write happened, none is half done" \
		test "$(triple)" = "22 52 6 "
	check "SIG$sig in the middle of set: the lock is free" flock -n "$STATE/lock" true
	run revert
	check "SIG$sig in the middle of set: revert restores the old values" test "$(triple)" = "37 13 0 "

	fixture sparse3
	in_the_middle $sig -c "$CONF" apply p
	check "SIG$sig in the middle of apply: the run ends by the signal (rc $VRC)" test "$VRC" -gt 128
	check "SIG$sig in the middle of apply: the profile is applied whole" test "$(triple)" = "21 51 5 "
	check "SIG$sig in the middle of apply: the lock is free" flock -n "$STATE/lock" true
done

# A write fails after SIGTERM arrived: the rollback still completes.
fixture sparse3
go="$TMP/go.rb"
FAULT_INJECT="stall:2:$go;write:3:EINVAL" LD_PRELOAD="$SHIM" "${BG[@]}" "$NUMASTATCTL" -S "$ROOT" \
	--state-dir "$STATE" set vm.min_slab_ratio=22 vm.min_unmapped_ratio=52 vm.zone_reclaim_mode=6 \
	>/dev/null 2>&1 &
victim=$!
wait_for "$go.waiting"
kill -TERM "$victim"
touch "$go"
wait "$victim"
check "SIGTERM, then a refused write: everything is rolled back" test "$(triple)" = "37 13 0 "

# Between the revert point and the first write (held there by the preload
# right after the file got its name): a signal then cancels the change.
# Nothing is written, the revert point of the change before is back, a
# counter snapshot of a reset that never happened is gone, and the run ends
# by the signal.
# before_writing NAME SIG ARGS...: stall after NAME got its name, send SIG.
before_writing() {
	local name=$1 sig=$2 go="$TMP/go.$RANDOM" victim
	shift 2
	FAULT_INJECT="after:$name:$go" LD_PRELOAD="$SHIM" "${BG[@]}" "$NUMASTATCTL" -S "$ROOT" \
		--state-dir "$STATE" "$@" >"$TMP/victim.out" 2>"$TMP/victim.err" &
	victim=$!
	wait_for "$go.waiting" || return 1
	kill -s "$sig" "$victim"
	touch "$go"
	wait "$victim" 2>/dev/null
	VRC=$?
}
leftovers() { ls -A "$STATE" | grep -v -x -e lock -e revert -e snapshots; ls -A "$STATE/snapshots" 2>/dev/null; }
for point in revert numastat-; do
	for sig in INT TERM; do
		what="SIG$sig after '$point' was saved"
		fixture sparse3
		run set vm.min_slab_ratio=22
		mkdir -p "$STATE/snapshots"
		before=$(<"$STATE/revert")
		before_writing "$point" $sig set vm.numa_stat=0 vm.min_unmapped_ratio=52
		check "$what: the run ends by the signal (rc $VRC)" test "$VRC" -gt 128
		check "$what: nothing was written" test "$(triple)$(<"$ROOT/proc/sys/vm/numa_stat")" = "22 13 0 1"
		expect_file "$STATE/revert" "$before" "$what: the revert point of the change before is back"
		check "$what: no snapshot of a reset that never happened, no stash, no temporary file" \
			test -z "$(leftovers)"
		run revert
		check "$what: revert undoes the change before" test "$(triple)" = "37 13 0 "
	done
done
# The same between the revert point and the writes of apply.
fixture sparse3
run set vm.min_slab_ratio=22
before=$(<"$STATE/revert")
before_writing revert TERM -c "$CONF" apply p
check "SIGTERM before apply's first write: nothing was written" test "$(triple)" = "22 13 0 "
expect_file "$STATE/revert" "$before" "SIGTERM before apply's first write: the revert point of the change before is back"

# A signal in the middle, then a refused write: the change is rolled back
# whole, so the revert point is again the one of the change before.
fixture sparse3
run set vm.zone_reclaim_mode=4
before=$(<"$STATE/revert")
go="$TMP/go.rb2"
FAULT_INJECT="stall:2:$go;write:3:EINVAL" LD_PRELOAD="$SHIM" "${BG[@]}" "$NUMASTATCTL" -S "$ROOT" \
	--state-dir "$STATE" set vm.min_slab_ratio=22 vm.min_unmapped_ratio=52 vm.zone_reclaim_mode=6 \
	>/dev/null 2>&1 &
victim=$!
wait_for "$go.waiting"
kill -TERM "$victim"
touch "$go"
wait "$victim"
check "SIGTERM, then a refused write: rolled back" test "$(triple)" = "37 13 4 "
expect_file "$STATE/revert" "$before" "SIGTERM, then a refused write: the revert point of the change before is back"
check "SIGTERM, then a refused write: no stash is left" test -z "$(leftovers)"

# A signal while waiting for the lock: that run ends and writes nothing.
fixture sparse3
go="$TMP/go.lock"
FAULT_INJECT="stall:1:$go" LD_PRELOAD="$SHIM" "${BG[@]}" "$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" \
	set vm.min_slab_ratio=23 >/dev/null 2>&1 &
holder=$!
wait_for "$go.waiting"
"${BG[@]}" "$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set vm.min_unmapped_ratio=99 >/dev/null 2>&1 &
waiter=$!
# It is waiting once it holds the lock file open (and so has exec'd).
waiting() { ls -l "/proc/$waiter/fd" 2>/dev/null | grep -q "$STATE/lock"; }
for ((i = 0; i < 3000; i++)); do waiting && break; sleep 0.01; done
check "a second run waits for the lock" waiting
kill -INT "$waiter"
wait "$waiter"
rc=$?
touch "$go"
wait "$holder"
check "SIGINT while waiting for the lock ends that run (rc $rc)" test "$rc" -ne 0
check "it wrote nothing; the holder finished" test "$(triple)" = "23 13 0 "
check "the lock is free" flock -n "$STATE/lock" true

# Interval stat: SIGINT/SIGTERM end it between samples; after the line that
# says so (and the totals), it ends by that signal, as vmstat does, so the
# shell sees an interrupted command.
for sig in INT TERM; do
	for view in "" --balancing; do
		fixture effect-6.1
		# A fresh output file: the wait below must see this run's first sample
		# (a signal before the job's exec would hit a copy of this shell).
		sout="$TMP/stat.$sig.out" serr="$TMP/stat.$sig.err"
		rm -f "$sout"
		# shellcheck disable=SC2086 # no view is no word
		"${BG[@]}" "$NUMASTATCTL" -S "$ROOT" stat $view --totals 1 >"$sout" 2>"$serr" &
		st=$!
		for ((i = 0; i < 3000; i++)); do [ -s "$sout" ] && break; sleep 0.01; done
		kill -s $sig "$st"
		wait "$st"
		rc=$?
		want=$((128 + $(kill -l $sig)))
		check "stat $view INTERVAL: SIG$sig ends it by the signal (rc $rc, want $want)" test "$rc" = $want
		check "stat $view INTERVAL: SIG$sig: it printed its samples and the totals first" \
			grep -q "^total since" "$sout"
		check "stat $view INTERVAL: SIG$sig: one line on stderr says it stopped" \
			grep -qxE "numastatctl: stat: stopped by SIG$sig after [0-9]+ samples? over [0-9.]+ s" "$serr"
		check "stat $view INTERVAL: SIG$sig: and nothing else" test "$(grep -c '' "$serr")" = 1
	done
done
# Ctrl-C in a shell loop: the terminal sends SIGINT to the foreground group;
# the shell stops the loop only if the command died of it.
fixture sparse3
lout=$TMP/loop.out
: >"$lout"
"${BG[@]}" setsid bash -c 'while :; do "$1" -S "$2" stat 0.05 >>"$3"; done' loop \
	"$NUMASTATCTL" "$ROOT" "$lout" 2>/dev/null &
lp=$!
for ((i = 0; i < 3000; i++)); do [ -s "$lout" ] && break; sleep 0.01; done
kill -INT -- -"$lp"
for ((i = 0; i < 500; i++)); do kill -0 "$lp" 2>/dev/null || break; sleep 0.01; done
if kill -0 "$lp" 2>/dev/null; then
	not_ok "Ctrl-C stops a shell loop around stat INTERVAL" "the loop still runs 5 s later"
	kill -KILL -- -"$lp" 2>/dev/null
else
	ok "Ctrl-C stops a shell loop around stat INTERVAL"
fi
wait "$lp" 2>/dev/null

# stdout errors: a full disk is reported and fails the run.
fixture sparse3
for cmd in "get" "get -J" "status" "knobs" "stat" "stat -J" "set --dry-run vm.min_slab_ratio=1" "--help" "get --help"; do
	# shellcheck disable=SC2086
	"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" $cmd >/dev/full 2>"$TMP/full.err"
	rc=$?
	check "'$cmd' > /dev/full exits 1 (rc $rc)" test "$rc" = 1
	check "'$cmd' > /dev/full says why" grep -q '^numastatctl: .*write error: No space left on device$' "$TMP/full.err"
done
run set vm.min_slab_ratio=1 >/dev/full
"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set vm.min_slab_ratio=2 >/dev/full 2>/dev/null
check "a set whose report cannot be printed exits non-zero" test $? = 1
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 2 "(the value itself was written)"

# A closed pipe (| head -1 after head is gone): never a success.
closed_pipe() {
	python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE, restore_signals=False)
sys.stderr.buffer.write(p.stderr)
sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)' "$@"
}
if have python3 python3; then
	closed_pipe "$NUMASTATCTL" -S "$ROOT" get 2>"$TMP/pipe.err"
	rc=$?
	check "stdout to a closed pipe (SIGPIPE ignored) exits 1 (rc $rc)" test "$rc" = 1
	check "and says nothing: the reader went away on purpose" test ! -s "$TMP/pipe.err"
fi

done_testing
