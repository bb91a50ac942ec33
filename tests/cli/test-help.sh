#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every --help text, byte for byte: numastatctl's own (help/numastatctl.out)
# and each command's (help/CMD.out) under tests/expected/.  The configured
# directories the global options name are compared as @SYSCONFDIR@,
# @RUNDIR@ and @STATEDIR@, so the files hold for any prefix.
# scripts/regen-help rewrites the files from a build.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/options-lib.sh"

: "${OPTIONS_LIST:?run through meson test}"
mapfile -t names < <(echo numastatctl; table_commands)
check "the dispatch table names a dozen commands" test "${#names[@]}" -ge 13
extra=()
for f in "$HELP_EXPECTED"/*; do
	case " ${names[*]} " in *" $(basename "$f" .out) "*) ;; *) extra+=("${f##*/}") ;; esac
done
if [ ${#extra[@]} -eq 0 ]; then ok "tests/expected/help/ holds no text of a command that is gone"
else not_ok "tests/expected/help/ holds no text of a command that is gone" "${extra[*]}"; fi

for name in "${names[@]}"; do
	for flag in --help -h; do
		help_text "$name" "$flag" >"$TMP/help.out" 2>"$TMP/help.err"
		RC=$? ERR=$(cat "$TMP/help.err")
		what="$name $flag"
		expect_rc 0 "$what exits 0"
		expect_err "" "$what prints nothing on stderr"
		if [ ! -f "$HELP_EXPECTED/$name.out" ]; then
			not_ok "$what prints tests/expected/help/$name.out" "no such file: scripts/regen-help writes it"
		elif cmp -s "$TMP/help.out" "$HELP_EXPECTED/$name.out"; then
			ok "$what prints tests/expected/help/$name.out"
		else
			not_ok "$what prints tests/expected/help/$name.out" \
				"$(diff -u "$HELP_EXPECTED/$name.out" "$TMP/help.out" | head -40)"
		fi
	done
done

done_testing
