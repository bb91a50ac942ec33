# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The commands and their options as the tests see them: the listing
# tests/gen-options.c prints from the tables at build time (OPTIONS_LIST),
# never the C, and the golden --help texts (test-help.sh, scripts/regen-help).

# table_commands: the names of the dispatch table, in order.
table_commands() {
	awk -F'\t' '$1 == "command" { print $2 }' "$OPTIONS_LIST"
}

# table_options SCOPE...: the options of these scopes (a command's name,
# "global" for every command's, "numastatctl" for those before a command)
# as "--long" and "-x" words, in table order.
table_options() {
	awk -F'\t' 'BEGIN { for (i = 1; i < ARGC; i++) want[ARGV[i]] = 1; ARGC = 1 }
		$1 == "option" && want[$2] { print $3; if ($4 != "-") print $4 }' "$@" <"$OPTIONS_LIST"
}

# table_exit_codes: the exit codes, one a line.
table_exit_codes() {
	awk -F'\t' '$1 == "exit" { print $2 }' "$OPTIONS_LIST"
}

# tests/expected/help/numastatctl.out is `numastatctl --help`, each other
# NAME.out `numastatctl NAME --help`.

HELP_EXPECTED=$(cd "$(dirname "${BASH_SOURCE[0]}")/../expected" && pwd)/help

# help_text NAME FLAG: the help NAME prints for FLAG (--help or -h), with
# the configured directories as @SYSCONFDIR@, @RUNDIR@ and @STATEDIR@.
# Returns the binary's exit code.
help_text() {
	local rc
	if [ "$1" = numastatctl ]; then
		"$NUMASTATCTL" "$2" >"$TMP/help.raw" </dev/null
	else
		"$NUMASTATCTL" "$1" "$2" >"$TMP/help.raw" </dev/null
	fi
	rc=$?
	sed -e 's|(default .*/numastatctl\.conf$|(default @SYSCONFDIR@/numastatctl.conf|' \
		-e 's|^\( *\)and .*/numastatctl\.d/\*\.conf)$|\1and @SYSCONFDIR@/numastatctl.d/*.conf)|' \
		-e 's|<dir> (default .* and .*)$|<dir> (default @RUNDIR@ and @STATEDIR@)|' "$TMP/help.raw"
	return $rc
}
