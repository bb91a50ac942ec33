#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# set --try and apply --try: a change that reverts itself unless confirmed.
# The timer plumbing runs against the fake systemd-run and systemctl of
# tests/cli/fake-systemd (first on PATH): a test "fires" the timer by
# running the command systemd-run was given.  A fixture without
# run/systemd/system is a machine systemd does not run: --try is refused
# there, and --foreground waits in the terminal.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

PATH=$(cd "$(dirname "$0")/fake-systemd" && pwd):$PATH
export FAKE_SYSTEMD=$TMP/systemd
VM=proc/sys/vm

# sfixture: sparse3 on a machine systemd runs, with a fresh fake systemd.
sfixture() {
	fixture sparse3
	mkdir -p "$ROOT/run/systemd/system"
	rm -rf "$FAKE_SYSTEMD"
	mkdir -p "$FAKE_SYSTEMD"
	: >"$FAKE_SYSTEMD/log"
}

# armed: the command the one armed timer runs, one argument a line, in ARMED.
armed() {
	local f
	ARMED=()
	for f in "$FAKE_SYSTEMD"/*.cmd; do
		[ -e "$f" ] && mapfile -t ARMED <"$f"
	done
}

# fire [SAVED]: run the armed revert as the timer would (or a saved copy).
fire() {
	[ $# -gt 0 ] || { armed; set -- "${ARMED[@]}"; }
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	OUT=$(<"$TMP/out")
	ERR=$(<"$TMP/err")
}

trial_id() {
	[[ $OUT =~ trial\ ([0-9]+-[0-9a-f]{16}) ]] && echo "${BASH_REMATCH[1]}"
}

# ---- usage errors: exit 2, nothing changed ----
sfixture
for bad in 0 4s 25h 1d2h abc 10x ''; do
	run set --try "$bad" vm.zone_reclaim_mode=1
	expect_rc 2 "--try '$bad' is a usage error"
	expect_err_has "numastatctl: set: --try: '$bad': " "--try '$bad' is refused naming it"
done
run set --try 20s --baseline 2h vm.zone_reclaim_mode=1
expect_rc 2 "--baseline beyond an hour is a usage error"
run set --try 20s --baseline 2s vm.zone_reclaim_mode=1
expect_rc 2 "--baseline under 3s is a usage error"
expect_err "numastatctl: set: --baseline: '2s': less than 3s (0 for none, or a duration from 3s to 1h: the spread needs 3 one-second readings)
Try 'numastatctl set --help' for more information." "naming the allowed range and why"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "and nothing was changed"
run_raw set --help
expect_out_has "0: not at all; else at least 3s" "set --help says 3s is the least baseline"
run set --baseline 5s vm.zone_reclaim_mode=1
expect_rc 2 "--baseline without --try"
expect_err_has "numastatctl: set: --baseline goes with --try <time>" "says what it goes with"
run set --foreground vm.zone_reclaim_mode=1
expect_rc 2 "--foreground without --try"
run set --try 20s --dry-run vm.zone_reclaim_mode=1
expect_rc 2 "--try with --dry-run"
expect_err_has "numastatctl: set: --try and --dry-run exclude each other" "names both"
run set --try 20s --no-revert-point vm.zone_reclaim_mode=1
expect_rc 2 "--try with --no-revert-point: a trial is its revert point"
run -J set --try 20s --foreground vm.zone_reclaim_mode=1
expect_rc 2 "--foreground with -J"
run revert --trial 12
expect_rc 2 "revert --trial with no trial id"
run confirm 'x;y'
expect_rc 2 "confirm with no trial id"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "no usage error wrote anything"
check "and none saved a revert point" test ! -e "$STATE/revert"
check "or called systemd-run" test ! -s "$FAKE_SYSTEMD/log"

# ---- no trial yet ----
run confirm
expect_rc 1 "confirm without a trial"
expect_err_has "no trial to confirm" "says there is none"
run trial
expect_rc 1 "trial without a trial"
expect_err_has "no trial in" "says there is none"

# ---- systemd does not run the machine ----
fixture sparse3
run set --try 20s vm.zone_reclaim_mode=1
expect_rc 1 "--try where systemd does not run: refused"
expect_one_err_line "in one line"
expect_err_has "no /run/systemd/system" "naming what is missing"
expect_err_has "add --foreground" "and the way out"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "nothing was changed"
check "no revert point" test ! -e "$STATE/revert"
check "no trial file" test ! -e "$STATE/trial"

# ---- a change that changes nothing: no trial ----
sfixture
run set --try 20s vm.zone_reclaim_mode=0
expect_rc 0 "set --try of the live value"
expect_out "vm.zone_reclaim_mode: 0 (unchanged)
no trial: nothing was changed, so there is nothing to revert" "says there is no trial"
check "no timer is armed" test ! -s "$FAKE_SYSTEMD/log"
check "no trial file" test ! -e "$STATE/trial"

# ---- the timer: armed, status, a second change refused, fired ----
sfixture
run set --try 20s --baseline 3s vm.zone_reclaim_mode=1 vm.min_slab_ratio=5
expect_rc 0 "set --try 20s"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "the change is made"
expect_out_has "measuring the counters for 3s before the change" "after a baseline of 3s"
expect_out_has "unless it is confirmed" "says it reverts unless confirmed"
ID=$(trial_id)
check "the trial has the revert point's id" grep -q "id=$ID" "$STATE/revert"
armed
[[ $OUT =~ reverts\ at\ ([0-9-]+)T([0-9:]+)Z ]] && AT="${BASH_REMATCH[1]} ${BASH_REMATCH[2]} UTC"
check "systemd-run armed a transient timer at the time it said (absolute: a daemon-reload keeps it)" \
	grep -q -- "--collect --unit=numastatctl-trial-$ID .*--on-calendar=$AT --timer-property=AccuracySec=1s" "$FAKE_SYSTEMD/log"
want=("$(realpath "$NUMASTATCTL")" --sysroot "$(realpath "$ROOT")" --state-dir "$(realpath "$STATE")" revert --trial "$ID")
check "which runs this binary's revert --trial ID on the same root and state" \
	test "${ARMED[*]}" = "${want[*]}"
SAVED=("${ARMED[@]}")
read -r _ _ start_ns _ < <(grep '^reading start ' "$STATE/trial")
check "the window starts after the timer was armed (systemd-run's pages are the trial's own)" \
	test "$start_ns" -gt "$(cat "$FAKE_SYSTEMD/armed-at")"

run status
expect_out_has "trial $ID: 'set' (vm.zone_reclaim_mode 0 -> 1, vm.min_slab_ratio 37 -> 5) reverts at" \
	"status: the trial runs, what it changed, when it reverts"
# status asks systemd when the timer runs: a timer that elapses later than
# the trial's time (its clock stepped back) is pending, never "overdue".
NEXT=$FAKE_SYSTEMD/numastatctl-trial-$ID.next
cp "$NEXT" "$TMP/next"
echo $(($(date +%s) + 630)) >"$NEXT"
run status
expect_out_has "reverts at $(date -u -d @"$(cat "$NEXT")" +%Y-%m-%dT%H:%M:%SZ) (in 10m" "status: the time systemd will run the revert"
expect_out_lacks "overdue" "a pending revert is not overdue"
echo $(($(date +%s) - 60)) >"$NEXT"
run status
expect_out_lacks "overdue" "a revert systemd runs now is not overdue"
# A systemctl that writes the time in its own format, not --timestamp=unix's.
echo $(($(date +%s) + 630)) >"$NEXT"
: >"$FAKE_SYSTEMD/human"
run status
expect_out_has "reverts at $(date -u -d @"$(cat "$NEXT")" +%Y-%m-%dT%H:%M:%SZ) (in 10m" \
	"status reads systemd's time in systemctl's own format too"
rm "$FAKE_SYSTEMD/human"
cp "$TMP/next" "$NEXT"
run -J status
expect_out_has '"state": "running"' "status -J: the trial runs"
expect_out_has '"trial_knobs": [' "status -J: with what it changed"
expect_out_has '"seconds": 20,' "status -J: and for how long"

run set vm.zone_reclaim_mode=2
expect_rc 1 "a second set during the trial is refused"
expect_one_err_line "in one line"
expect_err_has "'numastatctl confirm' keeps its change, 'numastatctl revert' undoes it now" \
	"naming confirm and revert"
run set --try 30s vm.zone_reclaim_mode=2
expect_rc 1 "a second trial too"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "the trial's value stays"
check "the trial's revert point stays" grep -q "id=$ID" "$STATE/revert"

run trial
expect_rc 0 "trial reports the running trial"
expect_out_has "Counters move with the workload" "saying counters move with the workload too"
# Each floor a row's verdict uses is in the rule the header states.
expect_out_has "and 64 events in the window, 1024 for numa_hit and" \
	"naming the allocation counters' floor beside the others'"
expect_out_has "baseline: 3.0s just before the change" "with its baseline"
run trial -J
expect_rc 0 "trial -J"
expect_out_has '"running": true' "trial -J: it runs"
run trial --prometheus
expect_rc 0 "trial --prometheus"
expect_out_has 'numastatctl_trial_info{id="'"$ID"'",by="set",armed="timer",state="running"} 1' \
	"trial --prometheus: the trial's info"
if have promtool prometheus; then
	check "promtool check metrics accepts it" promtool check metrics <"$TMP/out"
fi

# A knob changed by hand during the trial is left alone, the others restored.
echo 9 >"$ROOT/$VM/min_slab_ratio"
fire
expect_rc 1 "the armed revert with a knob changed by hand: exit 1"
expect_out_has "trial $ID was not confirmed: reverting its change" "says why it reverts"
expect_out_has "vm.zone_reclaim_mode: 1 -> 0" "one line per knob restored"
expect_err "numastatctl: revert: vm.min_slab_ratio: left at 9: changed since numastatctl wrote 5 (--force restores 37)" \
	"and one line naming the knob it left alone"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "the trial's value is undone"
expect_file "$ROOT/$VM/min_slab_ratio" 9 "the hand's value stays"
run status
expect_out_has "last trial $ID: 'set' (vm.zone_reclaim_mode 0 -> 1, vm.min_slab_ratio 37 -> 5) reverted at" \
	"status: how the trial ended"
run trial -J
expect_out_has '"running": false' "trial -J: it no longer runs"
expect_out_has '"state": "reverted"' "trial -J: it was reverted"
fire "${SAVED[@]}"
expect_rc 0 "the timer once more: nothing to do"
expect_out "trial $ID was reverted at ${OUT##* at }" "says so"
run confirm
expect_rc 1 "confirm after the revert: too late"
expect_err_has "too late: trial $ID was reverted" "says so"
run set vm.zone_reclaim_mode=2
expect_rc 0 "set after the trial ended"

# ---- confirm keeps it; the timer that fires anyway does nothing ----
sfixture
run set --try 1m --baseline 0 vm.zone_reclaim_mode=1
ID=$(trial_id)
armed
SAVED=("${ARMED[@]}")
run confirm
expect_rc 0 "confirm"
expect_out "trial $ID confirmed: the change stays (vm.zone_reclaim_mode 0 -> 1); 'numastatctl revert' still undoes it" \
	"says what was kept"
check "the timer was stopped" grep -q "systemctl stop --quiet numastatctl-trial-$ID.timer" "$FAKE_SYSTEMD/log"
armed
check "nothing is armed any more" test ${#ARMED[@]} = 0
fire "${SAVED[@]}"
expect_rc 0 "a timer that fires after the confirm"
expect_out_has "was confirmed at" "does nothing, and says why"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "the change stays"
run confirm "$ID"
expect_rc 0 "confirm twice"
expect_out_has "was confirmed already" "says so"
run -J confirm
expect_out_has '"state": "confirmed"' "confirm -J"
run -J confirm
check "confirm -J of a trial confirmed already prints the document alone" python3 -c 'import json, sys; json.loads(sys.argv[1])' "$OUT"
run set vm.zone_reclaim_mode=2
expect_rc 0 "after the confirm, set works again"
run revert
expect_rc 0 "revert undoes the later set"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "back to the confirmed value"

# ---- the boot unit failed during the trial: started again when it ends ----
# (a restart of systemd-sysctl restarts it, and it refuses during a trial)
for end in revert confirm; do
	sfixture
	run set --try 1m --baseline 0 vm.zone_reclaim_mode=1
	: >"$FAKE_SYSTEMD/numastatctl.service.failed"
	run $end
	expect_rc 0 "$end of a trial while numastatctl.service failed"
	check "$end starts numastatctl.service again" \
		grep -qx "systemctl restart --no-block numastatctl.service" "$FAKE_SYSTEMD/log"
	expect_out_has "numastatctl.service failed during the trial: started again" "and says so"
done
sfixture
run set --try 1m --baseline 0 vm.zone_reclaim_mode=1
run confirm
check "a boot unit that did not fail is left alone" \
	sh -c "! grep -q 'systemctl restart' '$FAKE_SYSTEMD/log'"

# ---- confirm while the boot unit failed, its profile setting the knob otherwise ----
# Starting it again would apply the profile over the confirmed change:
# confirm says exactly what it would write, and confirms nothing without
# --force.  A profile that agrees with the trial confirms as before.
sfixture
conf '[numastatctl]
profile = keep

[profile keep]
vm.zone_reclaim_mode = 0
vm.numa_stat = 1'
prun set --try 1m --baseline 0 vm.zone_reclaim_mode=1
ID=$(trial_id)
: >"$FAKE_SYSTEMD/numastatctl.service.failed"
: >"$FAKE_SYSTEMD/log"
prun confirm
expect_rc 1 "confirm when the failed boot unit's restart would undo the change"
expect_one_err_line "in one line"
expect_err_has "its apply of profile 'keep' writes vm.zone_reclaim_mode 1 -> 0 over trial $ID's change: nothing was confirmed; 'numastatctl confirm --force' confirms" \
	"naming the profile, the knob and the value the restart would write, and --force"
check "the boot unit is not started" sh -c "! grep -q 'systemctl restart' '$FAKE_SYSTEMD/log'"
check "the timer still runs" sh -c "! grep -q 'systemctl stop' '$FAKE_SYSTEMD/log'"
prun trial -J
expect_out_has '"state": "running"' "the trial still runs"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "with its value"
prun confirm --force
expect_rc 0 "confirm --force"
expect_out_has "trial $ID confirmed (--force): numastatctl.service runs again and writes vm.zone_reclaim_mode 1 -> 0 over the change" \
	"saying what the restart writes"
check "--force starts the boot unit again" \
	grep -qx "systemctl restart --no-block numastatctl.service" "$FAKE_SYSTEMD/log"
sfixture
conf '[numastatctl]
profile = agree

[profile agree]
vm.zone_reclaim_mode = 1'
prun set --try 1m --baseline 0 vm.zone_reclaim_mode=1
: >"$FAKE_SYSTEMD/numastatctl.service.failed"
prun confirm
expect_rc 0 "confirm when the failed boot unit's profile agrees with the trial"
expect_out_has "confirmed: the change stays" "the change stays"

# ---- confirm of another trial's id ----
sfixture
run set --try 1m --baseline 0 vm.zone_reclaim_mode=1
run confirm 1-0123456789abcdef
expect_rc 1 "confirm of another id"
expect_err_has "is not the last trial" "says so"

# ---- revert during a trial ends it ----
sfixture
run set --try 1m --baseline 0 vm.zone_reclaim_mode=1
ID=$(trial_id)
armed
SAVED=("${ARMED[@]}")
run revert
expect_rc 0 "revert during a trial"
expect_out_has "trial $ID ends here: reverted" "ends the trial"
check "and stops its timer" grep -q "systemctl stop --quiet numastatctl-trial-$ID.timer" "$FAKE_SYSTEMD/log"
run set vm.zone_reclaim_mode=2
expect_rc 0 "a later set"
fire "${SAVED[@]}"
expect_rc 0 "the old trial's timer, fired late"
expect_file "$ROOT/$VM/zone_reclaim_mode" 2 "never undoes the later change"

# ---- a trial whose revert point is replaced cannot undo the later change ----
sfixture
run set --try 1m --baseline 0 vm.zone_reclaim_mode=1
ID=$(trial_id)
armed
SAVED=("${ARMED[@]}")
# Another tool (or a broken state) replaced the revert point behind our back.
sed -i "s/id=$ID/id=1-0123456789abcdef/" "$STATE/revert"
fire "${SAVED[@]}"
expect_rc 1 "a revert point that is not the trial's"
expect_err_has "is another's, not the trial's: nothing was restored" "is left alone, and said"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "nothing written"

# ---- systemd-run fails: nothing changed ----
sfixture
echo "Failed to connect to bus: No such file or directory" >"$FAKE_SYSTEMD/fail"
run set --try 20s --baseline 0 vm.zone_reclaim_mode=1
expect_rc 1 "a timer that cannot be armed"
expect_one_err_line "in one line"
expect_err_has "systemd-run exited 1: Failed to connect to bus" "with systemd-run's words"
expect_err_has "nothing was changed" "saying nothing was changed"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "nothing was written"
check "no revert point is left" test ! -e "$STATE/revert"
check "no trial file is left" test ! -e "$STATE/trial"
rm "$FAKE_SYSTEMD/fail"
run set --try 20s --baseline 0 vm.zone_reclaim_mode=1
expect_rc 0 "the next try arms"

# ---- paths systemd would read otherwise: the revert acts on the same directories ----
# systemd-run hands the command to PID 1 as ExecStart=, which expands $NAME
# and ${NAME}, and systemd 252 reads $ and \ back mangled from the transient
# unit's file at a daemon-reload: a path holding one is refused (fail
# closed); %, spaces and quotes are handed on as they are.
sfixture
STATE_PLAIN=$STATE
for odd in "\$HOME" "\${PATH}x" "back\\slash"; do
	STATE="$TMP/st $odd"
	mkdir -p "$STATE"
	run set --try 20s --baseline 0 vm.zone_reclaim_mode=1
	expect_rc 1 "set --try with a --state-dir holding '$odd': refused"
	expect_one_err_line "'$odd': in one line"
	expect_err_has "use a path without them, or --foreground" "'$odd': naming the way out"
	expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "'$odd': nothing was changed"
	check "'$odd': no trial is left" test ! -e "$STATE/trial"
done
STATE="$TMP/st %n %% \"q\" 'a'"
mkdir -p "$STATE"
run set --try 20s --baseline 0 vm.zone_reclaim_mode=1
expect_rc 0 "set --try with a --state-dir holding %, spaces and quotes"
ID=$(trial_id)
armed
want=("$(realpath "$NUMASTATCTL")" --sysroot "$(realpath "$ROOT")" --state-dir "$(realpath "$STATE")" revert --trial "$ID")
check "the armed revert names the same --state-dir, as PID 1 reads it" \
	test "$(printf '%s|' "${ARMED[@]}")" = "$(printf '%s|' "${want[@]}")"
fire
expect_rc 0 "the armed revert runs on that directory"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "and reverts the change"
STATE=$STATE_PLAIN

# ---- a report that cannot be written: the change stands, and it is a trial ----
sfixture
"$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" set --try 20s --baseline 0 \
	vm.zone_reclaim_mode=1 >/dev/full 2>"$TMP/err"
RC=$? ERR=$(<"$TMP/err")
expect_rc 1 "set --try with a full stdout: exit 1"
expect_err_has "the change was made all the same: vm.zone_reclaim_mode 0 -> 1 (trial " \
	"says the change was made"
expect_err_has "it reverts at " "and that it is a trial that reverts"
armed
check "its revert is armed all the same" test ${#ARMED[@]} -gt 0

# ---- two trials at once: one is made, the other refused ----
sfixture
start set --try 20s --baseline 0 vm.zone_reclaim_mode=1
run set --try 20s --baseline 0 vm.zone_reclaim_mode=2
wait "$BG_PID"
bg_rc=$?
BG_PID=
check "of two trials at once, exactly one is made (exits $bg_rc and $RC)" \
	test "$((bg_rc + RC))" = 1
check "the loser changed nothing: one timer armed" test "$(grep -c '^systemd-run' "$FAKE_SYSTEMD/log")" = 1

# ---- a trial file that is not one: said, the change refused (fail closed) ----
sfixture
run set --try 20s --baseline 0 vm.zone_reclaim_mode=1
armed
SAVED=("${ARMED[@]}")
cp "$STATE/trial" "$TMP/good-trial"
echo garbage >"$STATE/trial"
run status
expect_err_has "trial:1: the first line is not a numastatctl-trial header" "status warns, naming the file and line"
run set vm.min_slab_ratio=3
expect_rc 1 "set refuses while the trial file cannot be read: its revert would be defeated"
expect_one_err_line "in one line"
expect_err_has "trial:1: the first line is not a numastatctl-trial header" "naming the file and line"
expect_err_has "nothing was changed" "saying nothing was changed"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "nothing was written"
prun_set_refused() {
	run set vm.min_slab_ratio=3
	expect_rc 1 "set refuses a trial file that is $1"
	expect_one_err_line "$1: in one line"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "$1: nothing was written"
}
sed 's/^numastatctl-trial 1 /numastatctl-trial 2 /' "$TMP/good-trial" >"$STATE/trial"
prun_set_refused "of another format version"
cp "$TMP/good-trial" "$STATE/trial" && chmod 0666 "$STATE/trial"
prun_set_refused "writable by others"
chmod 0600 "$STATE/trial"
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$STATE/trial"
	prun_set_refused "another user's"
	chown 0 "$STATE/trial"
fi
rm "$STATE/trial" && ln -s "$TMP/good-trial" "$STATE/trial"
prun_set_refused "a symlink"
rm "$STATE/trial" && head -c 100 "$TMP/good-trial" >"$STATE/trial"
prun_set_refused "cut short"
cp "$TMP/good-trial" "$STATE/trial"
fire "${SAVED[@]}"
expect_rc 0 "with its file back, the armed revert reverts"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "the trial's change is undone"
echo garbage >"$STATE/trial"
run confirm
expect_rc 1 "confirm of an unreadable trial"

# ---- a trial file planted or loosened: refused as the revert file is ----
sfixture
run set --try 20s --baseline 0 vm.zone_reclaim_mode=1
armed
SAVED=("${ARMED[@]}")
cp "$STATE/trial" "$TMP/planted"
ln -sf "$TMP/planted" "$STATE/trial"
run confirm
expect_rc 1 "confirm refuses a trial file that is a symlink"
expect_err_has "a symlink inside the state directory" "and says why"
fire "${SAVED[@]}"
expect_rc 1 "so does the armed revert"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "which restores nothing"
rm "$STATE/trial"
cp "$TMP/planted" "$STATE/trial"
chmod 0666 "$STATE/trial"
run confirm
expect_rc 1 "confirm refuses a trial file others can write"
expect_err_has "writable by group or others" "naming the fix"

# ---- apply --try ----
pfixture profile-basic
mkdir -p "$ROOT/run/systemd/system"
rm -rf "$FAKE_SYSTEMD" && mkdir -p "$FAKE_SYSTEMD"
prun apply --try 20s --baseline 0 fast
expect_rc 0 "apply --try"
ID=$(trial_id)
expect_out_has "trial $ID: the change reverts at" "says it is a trial"
prun -J status
expect_out_has '"by": "apply fast"' "status -J: the trial of apply fast"
prun apply fast
expect_rc 1 "a second apply during the trial is refused"
fire
expect_rc 0 "its armed revert"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "restores the profile's knobs"
prun apply --try 20s --check fast
expect_rc 2 "apply --try --check"

# -J: the trial object beside the knobs.
sfixture
run -J set --try 20s --baseline 0 vm.zone_reclaim_mode=1
expect_rc 0 "set -J --try"
expect_out_has '"trial": {' "its JSON has the trial"
expect_out_has '"armed": "timer"' "armed by a timer"

# fstart ARGS: start in the background with SIGINT, SIGHUP and SIGTERM as
# a terminal's job has them (a script's background job ignores SIGINT, and
# an ignored signal is one --foreground leaves ignored, as nohup asks).
fstart() {
	: >"$TMP/bg.out"
	: >"$TMP/bg.err"
	# shellcheck disable=SC2086
	env --default-signal=HUP,INT,TERM,QUIT ${NUMASTATCTL_WRAPPER:-} "$NUMASTATCTL" \
		--sysroot "$ROOT" --state-dir "$STATE" "$@" >"$TMP/bg.out" 2>"$TMP/bg.err" </dev/null &
	BG_PID=$!
}

# ---- --foreground: no systemd needed ----
fixture sparse3
printf 'yes\n' >"$TMP/in"
"$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" set --try 1m --baseline 0 --foreground \
	vm.zone_reclaim_mode=1 <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
expect_rc 0 "--foreground, answered yes"
expect_out_has "confirmed: the change stays" "keeps the change"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "the value stays"

fixture sparse3
printf 'maybe\nno\n' >"$TMP/in"
"$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" set --try 1m --baseline 0 --foreground \
	vm.zone_reclaim_mode=1 <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
expect_rc 0 "--foreground, answered no (after an answer that is none)"
expect_out_has "answer 'yes' to keep the change or 'no' to revert it now" "asks again"
expect_out_has "vm.zone_reclaim_mode: 1 -> 0" "reverts"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "the value is back"

# No input (a closed pipe) and no answer: the time decides.
fixture sparse3
run set --try 5s --baseline 0 --foreground vm.zone_reclaim_mode=1
expect_rc 0 "--foreground with no input, when the time is up"
expect_out_has "vm.zone_reclaim_mode: 1 -> 0" "reverts"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "the value is back"

# The terminal goes (SIGHUP), or Ctrl-C, or SIGTERM: reverted, then the signal ends it.
# Every signal that ends a process and another sends: QUIT, USR1, USR2,
# ALRM, an external PIPE, a real-time one (no core file: ulimit -c 0).
ulimit -c 0
for sig in HUP INT TERM QUIT USR1 USR2 ALRM PIPE VTALRM XCPU RTMIN+3; do
	fixture sparse3
	fstart set --try 1m --baseline 0 --foreground vm.zone_reclaim_mode=1
	wait_for "$TMP/bg.out" "type 'yes'"
	expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "--foreground: the change is made ($sig)"
	kill -"$sig" "$BG_PID"
	wait "$BG_PID"
	RC=$?
	BG_PID=
	OUT=$(<"$TMP/bg.out")
	check "SIG$sig ends it as the signal does (exit $RC)" test "$RC" -gt 128
	expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "SIG$sig reverts the change first"
done

# Another terminal's confirm ends the wait.
fixture sparse3
fstart set --try 1m --baseline 0 --foreground vm.zone_reclaim_mode=1
wait_for "$TMP/bg.out" "type 'yes'"
run status
expect_out_has "reverts at" "status in another terminal sees the foreground trial"
run confirm
expect_rc 0 "confirm from another terminal"
wait "$BG_PID"
RC=$?
BG_PID=
OUT=$(<"$TMP/bg.out")
expect_rc 0 "the waiting run ends"
expect_out_has "was confirmed elsewhere" "and says why"
expect_file "$ROOT/$VM/zone_reclaim_mode" 1 "the change stays"

# The trial file removed during the wait: saved again, the trial goes on and reverts.
fixture sparse3
fstart set --try 6s --baseline 0 --foreground vm.zone_reclaim_mode=1
wait_for "$TMP/bg.out" "type 'yes'"
rm "$STATE/trial"
wait_for "$TMP/bg.err" "saved again"
run set vm.zone_reclaim_mode=2
expect_rc 1 "a set while the foreground trial runs, its file removed: refused"
wait "$BG_PID"
RC=$?
BG_PID=
OUT=$(<"$TMP/bg.out")
expect_rc 0 "the waiting run ends when the time is up"
expect_out_has "vm.zone_reclaim_mode: 1 -> 0" "and reverts"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "the value is back"

# kill -9 of the waiting process: nothing reverts it, and status says so.
fixture sparse3
fstart set --try 1m --baseline 0 --foreground vm.zone_reclaim_mode=1
wait_for "$TMP/bg.out" "type 'yes'"
kill -KILL "$BG_PID"
wait "$BG_PID" 2>/dev/null
BG_PID=
run status
expect_out_has "its terminal is gone: nothing will revert it" "status: a foreground trial whose process was killed"
run set vm.zone_reclaim_mode=2
expect_rc 1 "still a trial: set is refused"
expect_err_has "(its terminal is gone: nothing will revert it)" "saying nothing will revert it"
run revert
expect_rc 0 "revert ends it"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "the value is back"

# --foreground on a 60-column terminal: its sentences fold to it.
if have script bsdutils; then
	sfixture
	script -qec "stty cols 60 rows 24; printf 'yes\\n' | $(printf '%q ' "$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE") set --try 1m --baseline 0 --foreground vm.zone_reclaim_mode=1" \
		/dev/null </dev/null >"$TMP/tty.out" 2>&1
	wide=$(tr -d '\r' <"$TMP/tty.out" | awk 'length > 60')
	check "--foreground's prompt and messages fold to a 60-column terminal" test -z "$wide"
	check "and it was confirmed" grep -q "confirmed" "$TMP/tty.out"
	sfixture
fi

done_testing
