#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every --help text, as the golden files tests/expected/help/numastatctl.out
# (numastatctl --help) and help/CMD.out (numastatctl CMD --help) hold it:
# the cases are in tests/expected/cases, scripts/regen-expected rewrites
# them.  -h prints the same bytes, and the commands --help lists (which
# name the cases) are those of the dispatch table.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/options-lib.sh"
: "${OPTIONS_LIST:?run through meson test}"

check "numastatctl --help lists the commands of the dispatch table, in order" \
	cmp <(help_commands) <(table_commands)

# one_final_newline FILE: FILE ends with a line break, and only one (the
# golden files cannot tell, being compared as text).
one_final_newline() {
	[ "$(tail -c 2 "$1" | od -An -c | tr -d ' ')" != '\n\n' ] &&
		[ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]
}

golden_cases
for file in "${GOLDEN_FILES[@]}"; do
	case $file in help/*.out) ;; *) continue ;; esac
	name=$(basename "$file" .out)
	args=()
	[ "$name" = numastatctl ] || args=("$name")
	golden_run "$file"
	expect_rc 0 "$name --help exits 0"
	expect_err "" "$name --help prints nothing on stderr"
	expect_golden "$file" "$name --help prints tests/expected/$file"
	"$NUMASTATCTL" "${args[@]}" --help >"$TMP/long" 2>&1
	"$NUMASTATCTL" "${args[@]}" -h >"$TMP/short" 2>&1
	check "$name -h prints the same bytes" cmp "$TMP/long" "$TMP/short"
	check "$name --help ends with one line break" one_final_newline "$TMP/long"
done

# On a 24-row terminal the screen keeps the last 23 lines (the prompt takes
# one): every command must be among them, not scrolled off above.
run_raw --help
screen=$(tail -n 23 <<<"$OUT")
lost=$(for c in $(sed -n 's/^ \([a-z]*\)  .*/\1/p' <<<"$(sed -n '/^Commands/,/^$/p' <<<"$OUT")"); do
	grep -q "^ $c " <<<"$screen" || echo "$c"
done)
check "--help on a 24-row terminal: every command on the last screen" test -z "$lost"
check "and the usage too: --help fits it" test "$(wc -l <<<"$OUT")" -le 23
# A command's help longer than a screen says how to read it from its top.
for c in $(help_commands); do
	run_raw "$c" --help
	if [ "$(wc -l <<<"$OUT")" -gt 23 ]; then
		check "$c --help, longer than 23 rows, ends saying how to page it" \
			grep -qx "This help from its top, a page at a time: numastatctl $c --help | less" <(tail -n 1 <<<"$OUT")
	fi
done

done_testing
