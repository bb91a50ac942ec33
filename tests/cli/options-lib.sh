# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The commands and their options as the tests see them: the listing
# tests/gen-options.c prints from the tables at build time (OPTIONS_LIST),
# never the C.

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
