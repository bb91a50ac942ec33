#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed command lines for every command and every option: unknown
# options, missing option arguments, garbage and huge option arguments and
# operands.  Each ends with exit 2 (or 1 where the argument names something
# absent), a message that names the command and the culprit, at most the
# try-help line besides, no crash, and the sysroot untouched.  The option
# lists come from each command's --help, so a new option is covered at once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/options-lib.sh"
refusal_sweep
: "${OPTIONS_LIST:?run through meson test}"

mapfile -t COMMANDS < <(table_commands)
check "the dispatch table names a dozen commands" test "${#COMMANDS[@]}" -ge 12
# A command's usage error points at its own --help; a global one at --help.
TRY_RE="^Try 'numastatctl ([a-z]+ )?--help' for more information\.\$"
# As long as one argument may be (MAX_ARG_STRLEN is 128 KiB).
HUGE=$(head -c 131000 /dev/zero | tr '\0' 9)

tree_sum() { find "$ROOT" "$STATE" -type f -exec md5sum {} + 2>/dev/null | sort; }
fixture sparse3
BEFORE=$(tree_sum)

# expect_refused DESC RCS: exit in RCS ("2" or "1 2"), short clear stderr.
expect_refused() {
	local desc=$1 rcs=" $2 " lines n
	case "$rcs" in *" $RC "*) ok "$desc: exit $RC" ;;
	*) not_ok "$desc: exit $RC" "want one of:$rcs" "stderr: ${ERR:0:300}" ;; esac
	lines_of lines "$ERR"
	n=${#lines[@]}
	case "$ERR" in
	"numastatctl: "*)
		if [ "$n" -le 2 ] && { [ "$n" = 1 ] || [[ "${lines[-1]}" =~ $TRY_RE ]]; }; then
			ok "$desc: one message line (plus the try-help line)"
		else
			not_ok "$desc: one message line (plus the try-help line)" "${ERR:0:600}"
		fi ;;
	*) not_ok "$desc: says why, with the numastatctl: prefix" "stderr: ${ERR:0:300}" ;;
	esac
}

# expect_short DESC: a message quoting a huge operand cuts it.
expect_short() {
	if [ "${#ERR}" -lt 2000 ]; then ok "$1: the message stays short"
	else not_ok "$1: the message stays short" "${#ERR} bytes"; fi
}

# options CMD: "long-name takes-arg(0/1)" for each option in CMD --help.
options() {
	"$NUMASTATCTL" "$1" --help | sed -n -E 's/^ +(-[A-Za-z], )?--([a-z-]+)( <[^>]*>)?.*/\2 \3/p' |
		awk '{ print $1, ($2 != "") }' | sort -u
}

for cmd in "${COMMANDS[@]}"; do
	run "$cmd" --no-such-option
	expect_refused "$cmd --no-such-option" 2
	expect_err "numastatctl: $cmd: unrecognized option '--no-such-option'
Try 'numastatctl $cmd --help' for more information." "$cmd --no-such-option: names the option, and points at $cmd --help"
	run "$cmd" -Y
	expect_refused "$cmd -Y" 2
	run "$cmd" "--$HUGE"
	expect_refused "$cmd --<128 KiB>" 2
	while read -r opt arg; do
		case "$opt" in sysroot | config | state-dir | json | quiet | help) continue ;; esac
		if [ "$arg" = 1 ]; then
			run "$cmd" "--$opt"
			expect_refused "$cmd --$opt without its argument" 2
			expect_err_has "option '--$opt' requires an argument" "$cmd --$opt: says what is missing"
			bads=('' 'x,y;z' $'\x01\x7f' -1 99999999999999999999999 "$HUGE")
			# Free text: only a broken regular expression is wrong.
			[ "$opt" = pattern ] && bads=('(' '[z-a]' 'a{2,1}' "($HUGE")
			# '' is tested below, where a regression cannot write to /.
			[ "$opt" = textfile ] && bads=('x,y;z' $'\x01\x7f' -1 "$TMP/none/deeper" "$HUGE")
			# A profile name may be all digits.
			[ "$opt" = profile ] && bads=('' 'x,y;z' $'\x01\x7f' -1 "$HUGE")
			for bad in "${bads[@]}"; do
				run "$cmd" "--$opt" "$bad"
				expect_refused "$cmd --$opt '${bad:0:24}'" "1 2"
			done
		else
			run "$cmd" "--$opt=value"
			expect_refused "$cmd --$opt=value (takes no argument)" 2
		fi
	done < <(options "$cmd")
done

# Operands that are not what the command takes.
for args in "status extra" "advise extra" "revert extra" "profiles a b" "apply a b" "knobs extra" \
	"stat abc" "stat 0" "stat -- -1" "stat 1 abc" "stat 1 0" "stat 99999999999999999999" \
	"stat 1 2 3" "get vm..numa_stat" "get /etc/passwd" "set" "set vm.numa_stat" "set =1" \
	"set vm.numa_stat=" "set vm.numa_stat=2" "set vm.numa_stat=1=1" "set kernel.hostname=x" \
	"set vm.zone_reclaim_mode=8" "set vm.zone_reclaim_mode=reclaim|bogus" \
	"set vm.min_slab_ratio=0x10" "set vm.min_slab_ratio=1e3" "set vm.min_slab_ratio=-0" \
	"set vm.numa_zonelist_order=Zone" "set vm.drop_caches=3" "set vm.numa_stat=1 vm.numa_stat"; do
	# shellcheck disable=SC2086
	run $args
	case "$args" in stat*|profiles*|apply*|"get "*) want="1 2" ;; *) want=2 ;; esac
	expect_refused "'$args'" "$want"
done
run set "vm.min_slab_ratio=$HUGE"
expect_refused "set with a 128 KiB value" 2
expect_short "set with a 128 KiB value"
run advise --profile "$HUGE"
expect_refused "advise --profile with a 128 KiB name" 2
expect_short "advise --profile with a 128 KiB name"
run advise --interval "$HUGE"
expect_short "advise --interval with 128 KiB of digits"
run get "$HUGE"
expect_refused "get of a 128 KiB name" 2
expect_short "get of a 128 KiB name"
run set "$HUGE=1"
expect_refused "set of a 128 KiB name" 2
expect_short "set of a 128 KiB name"

# --textfile '' once meant /numastatctl.prom on the host.
if [ -e /numastatctl.prom ]; then
	ok "# SKIP /numastatctl.prom exists on this host"
else
	run stat --textfile ''
	expect_refused "stat --textfile ''" 2
	check "stat --textfile '' wrote nothing to /" test ! -e /numastatctl.prom
	rm -f /numastatctl.prom
fi

# --state-dir '' once meant /snapshots and /lock on the host.
if [ ! -e /snapshots ]; then
	run_raw --sysroot "$ROOT" --state-dir '' set vm.numa_stat=0
	expect_refused "--state-dir ''" 2
	expect_err_has "--state-dir: empty directory name" "--state-dir '': says why"
	run_raw --sysroot "$ROOT" set --state-dir '' vm.numa_stat=0
	expect_refused "set --state-dir ''" 2
	check "--state-dir '' wrote nothing to /" test ! -e /snapshots
	rm -rf /snapshots
fi

# Global options.
run_raw --sysroot
expect_refused "--sysroot without a directory" 2
run_raw --sysroot "$TMP/none" get
expect_refused "--sysroot to nothing" 2
expect_err_has "$TMP/none" "--sysroot to nothing: names it"
run_raw --sysroot /etc/passwd get
expect_refused "--sysroot to a file" 2
run_raw --sysroot "$ROOT" --state-dir
expect_refused "--state-dir without a directory" 2
run_raw --sysroot "$ROOT" --config
expect_refused "--config without a file" 2
run_raw --no-such-global
expect_refused "an unknown global option" 2
run_raw no-such-command
expect_refused "an unknown command" 2
expect_err "numastatctl: unknown command 'no-such-command'
Try 'numastatctl --help' for more information." "an unknown command: named"
run_raw "$HUGE"
expect_refused "a 128 KiB command name" 2

if [ "$(tree_sum)" = "$BEFORE" ]; then ok "no refused command line changed the sysroot or the state dir"
else not_ok "no refused command line changed the sysroot or the state dir"; fi

done_testing
