#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The global command line: help, version, dispatch, global options anywhere,
# usage errors, stdout write errors.
. "$(dirname "$0")/lib.sh"

run_raw --help
expect_rc 0 "--help exits 0"
expect_out_has "Usage:" "--help prints usage on stdout"
for c in status get set stat apply profiles revert knobs selftest bench; do
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

for c in status get set stat apply profiles revert knobs selftest bench; do
	run_raw "$c" --help
	expect_rc 0 "$c --help exits 0"
	expect_out_has "numastatctl $c" "$c --help shows its usage"
done

# util-linux's close_stdout: a failed write to stdout is a failure.
if [ -w /dev/full ]; then
	"$NUMASTATCTL" -S "$ROOT" get >/dev/full 2>"$TMP/err"
	RC=$? ERR=$(cat "$TMP/err")
	expect_rc 1 "a write error on stdout exits 1"
	expect_err "numastatctl: write error: No space left on device" "and is reported"
fi

done_testing
