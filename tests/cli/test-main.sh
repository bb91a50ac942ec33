#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The global command line: help, version, dispatch, global options anywhere,
# usage errors, stdout write errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/options-lib.sh"
: "${OPTIONS_LIST:?run through meson test}"
mapfile -t COMMANDS < <(table_commands)
check "the dispatch table names a dozen commands" test "${#COMMANDS[@]}" -ge 12

run_raw --help
expect_rc 0 "--help exits 0"
expect_out_has "Usage:" "--help prints usage on stdout"
for c in "${COMMANDS[@]}"; do
	expect_out_has " $c " "--help lists the $c command"
done

run_raw -V
expect_rc 0 "-V exits 0"
case "$OUT" in "numastatctl "[0-9]*) ok "-V prints 'numastatctl <version>'" ;; *) not_ok "-V output" "$OUT" ;; esac

run_raw frobnicate
expect_rc 2 "an unknown command exits 2"
expect_err "numastatctl: unknown command 'frobnicate'
Try 'numastatctl --help' for more information." "and points to --help"

run_raw --bogus
expect_rc 2 "an unknown long option exits 2"
expect_err "numastatctl: unrecognized option '--bogus'
Try 'numastatctl --help' for more information." "naming the option"

run_raw -x
expect_rc 2 "an unknown short option exits 2"
expect_err_has "invalid option -- 'x'" "naming the option"

run_raw get --sysroot
expect_rc 2 "a missing option argument exits 2"
expect_err_has "option '--sysroot' requires an argument" "naming the option"

run_raw --sysroot /nonexistent/dir get
expect_rc 2 "a sysroot that does not exist exits 2"
expect_err "numastatctl: get: --sysroot /nonexistent/dir: No such file or directory" "naming it"

fixture sparse3
run_raw get --sysroot "$ROOT" -n vm.min_slab_ratio
expect_out 37 "global options may follow the command"
run_raw -S "$ROOT" -J get vm.min_slab_ratio
expect_out_has '"value": "37"' "global options may precede the command"

run_raw -S "$ROOT"
expect_rc 0 "no command runs status"
expect_out_has "vm.min_slab_ratio" "status shows the knobs"

for c in "${COMMANDS[@]}"; do
	run_raw "$c" --help
	expect_rc 0 "$c --help exits 0"
	expect_out_has "numastatctl $c" "$c --help shows its usage"
done

# util-linux's close_stdout: a failed write to stdout is a failure.
if [ -w /dev/full ]; then
	"$NUMASTATCTL" -S "$ROOT" get >/dev/full 2>"$TMP/err"
	RC=$? ERR=$(<"$TMP/err")
	expect_rc 1 "a write error on stdout exits 1"
	expect_err "numastatctl: write error: No space left on device" "and is reported"
fi

# With a change made, a lost report must not read as "nothing changed".
if [ -w /dev/full ]; then
	fixture sparse3
	"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set vm.min_slab_ratio=50 vm.min_unmapped_ratio=13 \
		>/dev/full 2>"$TMP/err"
	RC=$? ERR=$(<"$TMP/err")
	expect_rc 1 "set >/dev/full: exit 1 (the report was lost)"
	expect_err "numastatctl: write error: No space left on device
numastatctl: set: the change was made all the same: vm.min_slab_ratio 37 -> 50" \
		"set >/dev/full: says on stderr that the change was made, and what"
	expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 50 "set >/dev/full: the change was made"
	run revert
	expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 37 "and revert undoes it"
	run set vm.min_slab_ratio=37 >/dev/null
	"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set vm.min_slab_ratio=37 >/dev/full 2>"$TMP/err"
	RC=$? ERR=$(<"$TMP/err")
	expect_err "numastatctl: write error: No space left on device" "an unchanged set >/dev/full claims no change"
fi

# Started with fds 0-2 closed: nothing of ours lands in the lock, revert or
# snapshot files, which would otherwise take those numbers.
fixture sparse3
"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set vm.numa_stat=0 vm.min_slab_ratio=50 <&- >&- 2>&-
RC=$?
expect_rc 0 "set with stdin, stdout and stderr closed succeeds"
check "the lock file stays empty" test ! -s "$STATE/lock"
check "the revert file holds only revert lines" \
	bash -c "! grep -v -e '^numastatctl-revert 2 ' -e '^knob vm.numa_stat \"1\" \"0\" -\$' -e '^knob vm.min_slab_ratio \"37\" \"50\" -\$' -e '^end 2\$' '$STATE/revert'"
check "the snapshot is clean JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
	"$(ls "$STATE"/snapshots/numastat-*.json)"
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 50 "and the change was made"
"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" revert >&- 2>&-
check "a revert with stdout and stderr closed leaves the lock empty" test ! -s "$STATE/lock"
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 37 "and restores"

done_testing
