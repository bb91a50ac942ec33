#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every --help text, byte for byte: numastatctl's own (help/numastatctl.out)
# and each command's (help/CMD.out) under tests/expected/.  The configured
# directories the global options name are compared as @SYSCONFDIR@,
# @RUNDIR@ and @STATEDIR@, so the files hold for any prefix.
# scripts/regen-help rewrites the files from a build.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/help-lib.sh"

names=()
for f in "$HELP_EXPECTED"/*.out; do
	names+=("$(basename "$f" .out)")
done
check "there is a golden --help text for numastatctl" test -f "$HELP_EXPECTED/numastatctl.out"
check "and for a dozen commands" test "${#names[@]}" -ge 13

for name in "${names[@]}"; do
	for flag in --help -h; do
		help_text "$name" "$flag" >"$TMP/help.out" 2>"$TMP/help.err"
		RC=$? ERR=$(cat "$TMP/help.err")
		what="$name $flag"
		expect_rc 0 "$what exits 0"
		expect_err "" "$what prints nothing on stderr"
		if cmp -s "$TMP/help.out" "$HELP_EXPECTED/$name.out"; then
			ok "$what prints tests/expected/help/$name.out"
		else
			not_ok "$what prints tests/expected/help/$name.out" \
				"$(diff -u "$HELP_EXPECTED/$name.out" "$TMP/help.out" | head -40)"
		fi
	done
done

done_testing
