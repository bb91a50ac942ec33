#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Nothing drifts: every command of the dispatch table and every global option
# is in --help, in numastatctl(8) and in each shell completion; every option
# of a command's table is in its --help, its part of the man page and each
# completion; every registry knob has an entry in the built man page; both
# pages lint clean; the completion scripts parse.  The tables come from
# tests/gen-options.c, which prints them at build time, not from the C.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}" "${BUILD_ROOT:?run through meson test}"

# The completions run "numastatctl": let that be the binary under test.
PATH=$(dirname "$NUMASTATCTL"):$PATH
MAN8=$SOURCE_ROOT/man/numastatctl.8.scd
BASH_COMP=$SOURCE_ROOT/completions/bash/numastatctl
ZSH_COMP=$SOURCE_ROOT/completions/zsh/_numastatctl
FISH_COMP=$SOURCE_ROOT/completions/fish/numastatctl.fish

# The command table, the option tables and the exit codes, as the binary
# has them (tests/gen-options.c, at build time).
: "${OPTIONS_LIST:?run through meson test}"
. "$(dirname "$0")/options-lib.sh"
commands=$(table_commands)
# The global options: every command's, and numastatctl's own (-V).
global_opts=$(table_options global numastatctl)
exit_codes=$(table_exit_codes)

check "the dispatch table names every command" test "$(echo "$commands" | wc -l)" -ge 10
bad=$(awk -F'\t' '$1 == "command" && ($2 == "" || $3 == "" || seen[$2]++)' "$OPTIONS_LIST")
check "every command of the table has a name of its own and a summary" test -z "$bad"
check "the global option tables have the global options" test "$(echo "$global_opts" | wc -l)" -ge 10
case "$(tr '\n' ' ' <<<"$exit_codes")" in
"0 1 2 3"*) ok "the exit codes start 0 1 2 3" ;;
*) not_ok "the exit codes start 0 1 2 3" "$exit_codes" ;;
esac

# has_word TEXT WORD: WORD stands in TEXT as a whole option or command word
# (a quoted part of a [[ =~ ]] pattern matches literally; no fork per word).
has_word() {
	local before='(^|[^A-Za-z0-9_-])' after='([^A-Za-z0-9_-]|$)'
	[[ $1 =~ $before"$2"$after ]]
}

# expect_all DESC TEXT WORDS...: every word is in TEXT.
expect_all() {
	local desc=$1 text=$2 w missing=()
	shift 2
	for w in "$@"; do
		has_word "$text" "$w" || missing+=("$w")
	done
	if [ ${#missing[@]} -eq 0 ]; then ok "$desc"; else not_ok "$desc" "missing: ${missing[*]}"; fi
}

# expect_lines DESC TEXT PREFIX ITEMS...: TEXT is not empty and has the whole
# line PREFIX ITEM for every ITEM (a set of its lines; no fork per item).
expect_lines() {
	local desc=$1 text=$2 prefix=$3 line item missing=() lines=()
	local -A have=()
	shift 3
	mapfile -t lines <<<"$text"
	for line in "${lines[@]}"; do [ -z "$line" ] || have["$line"]=1; done
	for item in "$@"; do [ -n "${have["$prefix$item"]:-}" ] || missing+=("$item"); done
	if [ -n "$text" ] && [ ${#missing[@]} -eq 0 ]; then ok "$desc"; else not_ok "$desc" "missing: ${missing[*]}"; fi
}

# man_section CMD: the "## CMD" part of COMMANDS in numastatctl(8).
man_section() {
	awk -v c="$1" '/^# / { cmds = ($0 == "# COMMANDS") }
		/^#/ { on = cmds && ($0 ~ "^## " c "( |$)") } on' "$MAN8"
}
man_global=$(awk '/^#/ { on = ($0 == "# GLOBAL OPTIONS") } on' "$MAN8")

# help_options CMD: the options listed in CMD --help (the global ones too).
help_options() {
	"$NUMASTATCTL" "$1" --help 2>/dev/null |
		grep -oE '^ {1,6}(-[A-Za-z0-9], )?--[a-z][a-z0-9-]*' | grep -oE -- '--?[A-Za-z0-9][a-z0-9-]*'
}
# cmd_options CMD: CMD's options and the global ones, from the tables.
cmd_options() {
	table_options "$1" global
}

run_raw --help
expect_rc 0 "--help exits 0"
# shellcheck disable=SC2086
expect_all "--help names every command of the dispatch table" "$OUT" $commands
# shellcheck disable=SC2086
expect_all "--help names every global option" "$OUT" $global_opts
# shellcheck disable=SC2086
expect_all "numastatctl(8) GLOBAL OPTIONS has every global option" "$man_global" $global_opts

for c in $commands; do
	section=$(man_section "$c")
	check "numastatctl(8) has a COMMANDS entry for $c" test -n "$section"
	check "numastatctl(8) SYNOPSIS shows $c" grep -qE "^\*numastatctl\* \*$c\*" "$MAN8"
	check "$c --help lists the options of its table and the global ones" \
		cmp <(cmd_options "$c" | sort) <(help_options "$c" | sort)
	# The global options are documented once, under GLOBAL OPTIONS.
	own=$(table_options "$c")
	# shellcheck disable=SC2086
	expect_all "numastatctl(8) documents every option of $c" "$section" $own
done

# Completions: ask each shell what it completes, where the shell can say.
bash_complete() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		$(complete -p numastatctl | sed "s/.*-F \([^ ]*\) .*/\1/") 2>/dev/null
		printf "%s\n" "${COMPREPLY[@]}"' bash "$BASH_COMP" "$@"
}
fish_complete() {
	fish -c 'source $argv[1]; complete -C $argv[2]' "$FISH_COMP" "$1" | cut -f1
}

check "bash -n accepts the bash completion" bash -n "$BASH_COMP"
check "zsh -n accepts the zsh completion" zsh -n "$ZSH_COMP"
check "fish -n accepts the fish completion" fish -n "$FISH_COMP"

# shellcheck disable=SC2086
expect_all "bash completes every command" "$(bash_complete numastatctl '')" $commands
# shellcheck disable=SC2086
expect_all "fish completes every command" "$(fish_complete 'numastatctl ')" $commands
# shellcheck disable=SC2086
expect_all "zsh describes every command" "$(sed -n '/^_numastatctl_commands()/,/^}/p' "$ZSH_COMP")" $commands
for c in $commands; do
	all=$(cmd_options "$c")
	# shellcheck disable=SC2086
	expect_all "bash completes every option of $c" "$(bash_complete numastatctl "$c" -)" $all
	longs=$(grep -- '^--' <<<"$all")
	shorts=$(grep -v -- '^--' <<<"$all")
	# shellcheck disable=SC2086
	expect_all "fish completes every long option of $c" "$(fish_complete "numastatctl $c --")" $longs
	# shellcheck disable=SC2086
	expect_all "fish completes every short option of $c" "$(fish_complete "numastatctl $c -")" $shorts
	zsh_block=$(awk -v c="$c" '$1 == c")" { on = 1 } on; on && /;;/ { exit }' "$ZSH_COMP")
	check "zsh has a block for $c" test -n "$zsh_block"
	own=$(table_options "$c")
	# shellcheck disable=SC2086
	expect_all "zsh completes every option of $c" "$zsh_block" $own
done
zsh_globals=$(sed -n '/local -a global_opts=(/,/^\t)/p;/version}/p' "$ZSH_COMP")
# shellcheck disable=SC2086
expect_all "zsh completes every global option" "$zsh_globals" $global_opts

# numastatctl.conf(5): its examples are valid configurations, and what it
# says about comments and inih's limits is what the binary does.
CONF5=$SOURCE_ROOT/man/numastatctl.conf.5.scd
fixture sparse3
awk '/^# EXAMPLES/ { on = 1 } on && /^```/ { n++; next } on && n == 1' "$CONF5" >"$TMP/example.conf"
chmod 0644 "$TMP/example.conf"
run --config "$TMP/example.conf" profiles
expect_rc 0 "the EXAMPLES configuration of numastatctl.conf(5) is valid"
expect_all "and defines the profiles it describes" "$OUT" default throughput hpc tiering
awk '/^# SYNTAX/ { on = 1 } on && /^```/ { n++; next } on && n == 1' "$CONF5" >"$TMP/syntax.conf"
awk '/^# FILES AND PRECEDENCE/ { on = 1 } on && /^```/ { n++; next } on && n == 1' "$CONF5" >"$TMP/dropin.conf"
chmod 0644 "$TMP/syntax.conf" "$TMP/dropin.conf"
run --config "$TMP/syntax.conf" profiles default
expect_rc 0 "the SYNTAX example is valid"
run --config "$TMP/dropin.conf" profiles throughput
expect_rc 0 "so is the drop-in example"
check "the page says '#' is no comment after a value" grep -q '^- \*#\* is \*not\* a comment after a value' "$CONF5"
printf '[profile p]\nvm.numa_stat = 0 # off\n' >"$TMP/hash.conf"
chmod 0644 "$TMP/hash.conf"
run --config "$TMP/hash.conf" profiles
expect_rc 2 "and indeed 'vm.numa_stat = 0 # off' is refused"
expect_err_has "use ';'" "with the hint the page gives"
{ printf '[profile p]\nsummary = '; head -c 190 /dev/zero | tr '\0' x; echo; } >"$TMP/long.conf"
chmod 0644 "$TMP/long.conf"
run --config "$TMP/long.conf" profiles
expect_rc 2 "a line over 199 characters is refused, as the page says"
expect_err_has "long.conf:2:" "naming its line"
{ printf '[profile '; head -c 42 /dev/zero | tr '\0' p; echo ']'; } >"$TMP/section.conf"
chmod 0644 "$TMP/section.conf"
run --config "$TMP/section.conf" profiles
expect_rc 2 "a section name over 49 characters is refused, as the page says"

# The tour (doc/tour.md): generated by running exactly the commands it
# shows, in order; a fresh run gives the page in the tree, but for the times
# and ids of this run (a trial's window too: 0.0s, or 0.1s on a busy machine).
untimed_tour() {
	sed -E 's/[0-9]{19}-[0-9a-f]{16}/ID/g; s/[0-9]{8}T[0-9]{6}\.[0-9]{9}Z/STAMP/g
		s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/TIME/g
		s/^(window: +)[0-9]+\.[0-9]s$/\1SECONDS/' "$1"
}
if "$SOURCE_ROOT/scripts/readme-tour.sh" --no-live "$NUMASTATCTL" "$TMP/tour.md" 2>"$TMP/tour.err"; then
	ok "scripts/readme-tour.sh regenerates the tour"
else
	not_ok "scripts/readme-tour.sh regenerates the tour" "$(<"$TMP/tour.err")"
fi
if diff -u <(untimed_tour "$SOURCE_ROOT/doc/tour.md") <(untimed_tour "$TMP/tour.md") >"$TMP/tour.diff"; then
	ok "doc/tour.md is what its commands print now (scripts/readme-tour.sh --no-live BINARY rewrites it)"
else
	not_ok "doc/tour.md is what its commands print now (scripts/readme-tour.sh --no-live BINARY rewrites it)" "$(<"$TMP/tour.diff")"
fi
tour=$(<"$TMP/tour.md")
missing=()
for c in $commands; do
	grep -q "^### $c: " <<<"$tour" || missing+=("$c")
done
if [ ${#missing[@]} -eq 0 ]; then ok "the tour has a part for every command"; else not_ok "the tour has a part for every command" "missing: ${missing[*]}"; fi
# No hidden step: outside the setup, every command the tour runs is a
# console line of the page ("$ numastatctl ..." or a shell line using it).
check "every console block of the tour starts with the command it ran" \
	bash -c '! awk "/^\`\`\`console\$/ { getline l; if (l !~ /^\\$ /) { print l; bad = 1 } } END { exit !bad }" "$1"' _ "$TMP/tour.md"
check "README links the tour" grep -q '(doc/tour.md)' "$SOURCE_ROOT/README.md"
check "README links both man pages" grep -q 'man/numastatctl.conf.5.scd' "$SOURCE_ROOT/README.md"

# A page scdoc cannot read fails the build: the page would stop where scdoc
# stopped (a line starting "--x" ended numastatctl(8) halfway once).
if have scdoc scdoc; then
	printf 'X(8)\n\n# NAME\n\nx - y\n\n# A\n\ntext\n--broken\n' >"$TMP/broken.scd"
	: >"$TMP/empty.scd"
	if sh "$SOURCE_ROOT/man/build-man.sh" scdoc "$TMP/broken.scd" "$TMP/empty.scd" "$TMP/empty.scd" \
		"$TMP/empty.scd" /etc /var/lib/x /run/x /usr/sbin 0 /run /usr/lib >"$TMP/broken.8" 2>"$TMP/broken.err"; then
		not_ok "build-man.sh fails when scdoc fails" "exit 0, output:" "$(cat "$TMP/broken.8")"
	else
		ok "build-man.sh fails when scdoc fails"
	fi
fi

# scdoc reads a backslash as "take the next character literally" and drops
# it, everywhere, code blocks too: "\x1b" came out as "x1b".  A backslash
# meant to show is written "\\"; one before anything but \, * and _ is a
# mistake.
dropped=$(grep -nE '(^|[^\\])(\\\\)*\\[^\\*_]' "$SOURCE_ROOT"/man/*.scd)
if [ -z "$dropped" ]; then ok "no backslash in the pages' sources that scdoc would drop"; else
	not_ok "no backslash in the pages' sources that scdoc would drop" "$dropped"; fi

# The built pages (not there when configured with -Dmanpages=false).
page8=$BUILD_ROOT/man/numastatctl.8
page5=$BUILD_ROOT/man/numastatctl.conf.5
if ! [ -f "$page8" ] || ! [ -f "$page5" ]; then
	ok "# SKIP the man pages are not built (-Dmanpages=false)"
elif have mandoc mandoc; then
	rendered=$(mandoc -T ascii -O width=300 "$page8" | sed 's/.\x08//g')
	expect_all "the escapes render with their backslash (mandoc)" "$rendered" '\x1b),' '(\u001b).'
	# scdoc leaves _word_ as it is right after a bold part: no markup may show.
	for p in "$page8" "$page5"; do
		markup=$(mandoc -T ascii -O width=300 "$p" | sed 's/.\x08//g' |
			grep -nE '(^|[^A-Za-z0-9])_[A-Za-z]+_([^A-Za-z0-9]|$)')
		if [ -z "$markup" ]; then ok "no scdoc markup left in ${p##*/}"; else
			not_ok "no scdoc markup left in ${p##*/}" "$markup"; fi
	done
	if have man man-db; then
		by_man=$(MANWIDTH=300 man -l "$page8" 2>/dev/null | sed 's/.\x08//g')
		expect_all "and with man(1), through groff" "$by_man" '\x1b),' '(\u001b).'
		# At 80 columns no SYNOPSIS line ends inside a word: an option
		# copied from it is whole (groff hyphenates, and breaks at '-').
		cut=$(MANWIDTH=80 man -l "$page8" 2>/dev/null | sed 's/.\x08//g' |
			sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p' | grep -E -- '[-‐]$')
		if [ -z "$cut" ]; then ok "SYNOPSIS at 80 columns breaks no option name"; else
			not_ok "SYNOPSIS at 80 columns breaks no option name" "$cut"; fi
		# Each form starts at the margin, its continuation lines further in.
		flat=$(MANWIDTH=80 man -l "$page8" 2>/dev/null | sed 's/.\x08//g' |
			sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p' | sed -n '4,$p' | grep -vE '^(       numastatctl |           [^ ]|$|DESCRIPTION$)')
		if [ -z "$flat" ]; then ok "SYNOPSIS at 80 columns indents each form's continuation lines"; else
			not_ok "SYNOPSIS at 80 columns indents each form's continuation lines" "$flat"; fi
		# The examples (lines indented as the page's literal blocks are) fit
		# 80 columns; a JSON string longer than a line is the one exception.
		wide=$(MANWIDTH=80 man -l "$page8" 2>/dev/null | sed 's/.\x08//g' |
			grep -E '^            ' | grep -vE '"[^"]{40,}"' | LC_ALL=C.UTF-8 grep -E '^.{81,}')
		if [ -z "$wide" ]; then ok "numastatctl(8) at 80 columns: every example fits"; else
			not_ok "numastatctl(8) at 80 columns: every example fits" "$wide"; fi
	fi
	# shellcheck disable=SC2046 # one word a knob
	expect_lines "numastatctl(8) has a KNOBS entry for every registry knob" "$rendered" "       " \
		$("$NUMASTATCTL" knobs --names)
	columns_part=$(sed -n '/^   stat columns$/,/^   stat --[a-z]* columns$/p' <<<"$rendered")
	# shellcheck disable=SC2046 # one word a column
	expect_lines "numastatctl(8) lists every column of stat --help under stat columns" "$columns_part" "       " \
		$(help_columns stat | tr , ' ')
	# Each view's columns, from the build's list of views (generated into the page).
	while IFS=$'\t' read -r view opt; do
		[ "$opt" = - ] && opt=--$view
		part=$(sed -n "/^   stat $opt columns\$/,/^   [a-z]/{/^   stat $opt columns\$/d;/^   [a-z]/q;p}" <<<"$rendered")
		mapfile -t cols < <(awk -F'\t' -v v="$view" '$1 == "column" && $2 == v { print $3 }' "$OPTIONS_LIST")
		[ ${#cols[@]} -gt 0 ] || continue
		expect_lines "numastatctl(8) has a part stat $opt columns naming each column" "$part" "       " \
			"${cols[@]}"
	done < <(awk -F'\t' '$1 == "view" { print $2 "\t" $3 }' "$OPTIONS_LIST")
	rules_part=$(sed -n '/^ADVICE RULES/,/^OUTPUT/p' <<<"$rendered")
	missing=()
	for r in $("$NUMASTATCTL" -J advise --rules | sed -n 's/^ *"rule": "\(.*\)",$/\1/p'); do
		grep -q "^       $r (priority " <<<"$rules_part" || missing+=("$r")
	done
	if [ ${#missing[@]} -eq 0 ] && [ -n "$rules_part" ]; then
		ok "numastatctl(8) has an ADVICE RULES entry for every rule of advise --rules"
	else
		not_ok "numastatctl(8) has an ADVICE RULES entry for every rule of advise --rules" "missing: ${missing[*]}"
	fi
	expect_all "the ADVICE RULES entries carry their reason and source" "$rules_part" "Why:" "Source:"
	knobs_part=$(sed -n '/^KNOBS/,/^ADVICE RULES/p' <<<"$rendered")
	expect_all "the KNOBS entries carry the side effects" "$knobs_part" "zeroes" "Side"
	for p in "$page8" "$page5"; do
		lint=$(mandoc -T lint "$p" 2>&1)
		if [ -z "$lint" ]; then ok "mandoc -T lint: ${p##*/} is clean"; else not_ok "mandoc -T lint: ${p##*/} is clean" "$lint"; fi
	done
	expect_lines "numastatctl(8) has every section" "$rendered" "" NAME SYNOPSIS DESCRIPTION COMMANDS \
		"GLOBAL OPTIONS" KNOBS "ADVICE RULES" OUTPUT "EXIT STATUS" TUNED ENVIRONMENT FILES EXAMPLES \
		"SEE ALSO"
	# ENVIRONMENT names every variable the binary reads (getenv in the sources).
	env_part=$(sed -n '/^ENVIRONMENT/,/^FILES/p' <<<"$rendered")
	# shellcheck disable=SC2046 # one word a variable
	expect_all "ENVIRONMENT names every variable the sources read" "$env_part" \
		$(grep -rhoE 'getenv\("[A-Z_]+"\)' "$SOURCE_ROOT/src" | sed 's/getenv("\(.*\)")/\1/' | sort -u)
	see_also=$(sed -n '/^SEE ALSO/,$p' <<<"$rendered")
	expect_all "SEE ALSO names the peers" "$see_also" "numastat(8)" "numactl(8)" "sysctl(8)" "sysctl.d(5)" "tuned-adm(8)"
	exit_status=$(sed -n '/^EXIT STATUS/,/^FILES/p' <<<"$rendered")
	# shellcheck disable=SC2086 # one word a code
	expect_lines "EXIT STATUS has an entry for every exit code" "$exit_status" "       " $exit_codes
	rendered5=$(mandoc -T ascii -O width=300 "$page5" | sed 's/.\x08//g')
	expect_all "numastatctl.conf(5) states inih's limits" "$rendered5" 199 49 ";" "#"
fi

# What the page says of stat --tiers' DISTANCE on the all row is what -J gives.
run_raw --sysroot "$FIXTURES/effect-6.1" -J stat --tiers
all_distance=$(/usr/bin/python3 -c 'import json, sys
print(json.dumps([r["distance"] for r in json.load(sys.stdin)["tiers"] if r["scope"] == "all"]))' <<<"$OUT")
check "stat --tiers -J: the all row's distance is an empty array ($all_distance)" test "$all_distance" = "[[]]"
check "and the built page says so for DISTANCE" \
	grep -q "64 nodes, empty on the all row" "$BUILD_ROOT/man/views.scd"

# Per-node promotion counts came with the tiering mode (e39bb6be9f2b, one
# release): the page says the release the registry gives for the mode.
run_raw knobs kernel.numa_balancing
tiering=$(grep -o 'memory tiering ([0-9.]*+)' <<<"$OUT" | grep -o '[0-9][0-9.]*')
check "the man page gives per-node promotion the tiering mode's release ($tiering)" \
	grep -q "promoted to (per node since $tiering," "$MAN8"

done_testing
