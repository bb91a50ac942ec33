#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the completions offer, asked of the shells themselves: bash through
# `complete -p` with COMP_WORDS, fish through `complete -C`, zsh by typing
# on a pty (zsh-complete.zsh).
# Knob names, values, columns, nodes and profiles come from the binary; the
# options of each command from its table (tests/gen-options.c).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/options-lib.sh"
: "${SOURCE_ROOT:?run through meson test}" "${OPTIONS_LIST:?run through meson test}"

# The completions run "numastatctl": let that be the binary under test.
PATH=$(dirname "$NUMASTATCTL"):$PATH
BASH_COMP=$SOURCE_ROOT/completions/bash/numastatctl
FISH_COMP=$SOURCE_ROOT/completions/fish/numastatctl.fish
fixture sparse3

# bash_line WORDBREAKS LINE WORD...: COMPREPLY for the command line LINE,
# which readline split into WORD... (the last one being completed).  Where
# bash-completion is installed, its loader finds the file the way it finds
# an installed one (and sources it from inside a function); otherwise the
# file is sourced directly.
mkdir -p "$TMP/bash-completion/completions"
cp "$BASH_COMP" "$TMP/bash-completion/completions/numastatctl"
bash_line() {
	BASH_COMPLETION_USER_DIR=$TMP/bash-completion bash -c '
		breaks=$1 comp=$2 line=$3; shift 3
		if [ -f /usr/share/bash-completion/bash_completion ]; then
			. /usr/share/bash-completion/bash_completion
			__load_completion numastatctl
		else
			. "$comp"
		fi
		COMP_WORDBREAKS=$breaks
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE=$line; COMP_POINT=${#COMP_LINE}
		$(complete -p numastatctl | sed "s/.*-F \([^ ]*\) .*/\1/") 2>/dev/null
		printf "%s\n" "${COMPREPLY[@]}" | sort' bash "$1" "$BASH_COMP" "$2" "${@:3}"
}
# bash_complete WORDBREAKS WORD...: the same for words separated by spaces.
bash_complete() {
	bash_line "$1" "${*:2}" "${@:2}"
}
WB=$' \t\n"\'><=;|&(:'   # bash's default COMP_WORDBREAKS
NOEQ=$' \t\n"\'><;|&(:'  # as some users set it, without '='

check "bash registers a completion function for numastatctl" \
	bash -c ". '$BASH_COMP'; complete -p numastatctl | grep -q -- '-F _numastatctl'"

OUT=$(bash_complete "$WB" numastatctl a)
expect_out "advise
apply" "bash: 'numastatctl a' offers advise and apply"
# Each command offers exactly the options of its table (tests/gen-options.c)
# and the global ones; bash also offers numastatctl's own (-V) everywhere.
OUT=$(bash_complete "$WB" numastatctl advise --)
expect_out "$(table_options advise global numastatctl | grep -- '^--' | sort)" \
	"bash: advise offers its options and the global ones"
OUT=$(bash_complete "$WB" numastatctl -)
expect_out "$(table_options global numastatctl | sort)" "bash: before a command, the global options"
for c in $(table_commands); do
	OUT=$(bash_complete "$WB" numastatctl "$c" -)
	expect_out "$(table_options "$c" global numastatctl | sort)" \
		"bash: $c offers exactly the options of its table and the global ones"
done
OUT=$(bash_complete "$WB" numastatctl s)
expect_out "selftest
set
snapshots
stat
status" "bash: 'numastatctl s' offers every command starting with s"
OUT=$(bash_complete "$WB" numastatctl set vm.numa_s)
expect_out "vm.numa_stat=" "bash: 'set vm.numa_s' completes to vm.numa_stat="
OUT=$(bash_complete "$WB" numastatctl set numa_bal)
expect_out "numa_balancing=
numa_balancing_promote_rate_limit_MBps=" "bash: short knob names complete too"
# With '=' in COMP_WORDBREAKS bash splits "vm.numa_stat=" into three words
# and readline replaces only what follows the '='.
OUT=$(bash_line "$WB" "numastatctl set vm.numa_stat=" numastatctl set vm.numa_stat = '')
expect_out "0
1" "bash: after 'vm.numa_stat=' the values of a bool"
OUT=$(bash_line "$WB" "numastatctl set kernel.numa_balancing=t" numastatctl set kernel.numa_balancing = t)
expect_out "tiering" "bash: bitmask flag names complete after '='"
OUT=$(bash_complete "$NOEQ" numastatctl set vm.numa_zonelist_order=)
expect_out "vm.numa_zonelist_order=Default
vm.numa_zonelist_order=Node" "bash: without '=' in COMP_WORDBREAKS the whole word is replaced"
OUT=$(bash_line "$WB" "numastatctl set vm.min_slab_ratio=" numastatctl set vm.min_slab_ratio = '')
expect_out "" "bash: an integer knob offers no values"
OUT=$(bash_complete "$WB" numastatctl get vm.stat)
expect_out "vm.stat_interval" "bash: get completes knob names without '='"
# Only the knobs this kernel (here: the --sysroot tree) has.
OUT=$(bash_complete "$WB" numastatctl --sysroot "$ROOT" set vm.zone_)
expect_out "vm.zone_reclaim_mode=" "bash: set offers only the knobs the --sysroot tree has (not vm.zone_distribute_mode)"
OUT=$(bash_complete "$WB" numastatctl --sysroot "$ROOT" stat --nodes '')
expect_out "0
2
5
all" "bash: --nodes offers the sysroot's node ids (sparse) and all"
OUT=$(bash_complete "$WB" numastatctl -S "$ROOT" stat --nodes 0,)
expect_out "0,0
0,2
0,5" "bash: --nodes completes the last element of a list, without all"
OUT=$(bash_complete "$WB" numastatctl stat -o LOCAL)
expect_out "LOCAL%
LOCAL_NODE" "bash: stat -o offers the columns of stat --help"
OUT=$(bash_complete "$WB" numastatctl knobs -o NAME,DE)
expect_out "NAME,DEFAULT
NAME,DESCRIPTION" "bash: knobs -o completes the last column of a list"
OUT=$(bash_complete "$WB" numastatctl knobs --choices vm.zone_r)
expect_out "vm.zone_reclaim_mode" "bash: --choices completes a knob name"
OUT=$(bash_complete "$WB" numastatctl apply --ch)
expect_out "--check" "bash: options of the command"
OUT=$(bash_complete "$WB" numastatctl --sysr)
expect_out "--sysroot" "bash: global options before the command"
mkdir -p "$TMP/dirs/sub-a" "$TMP/dirs/sub-b" && touch "$TMP/dirs/sub-file"
OUT=$(bash_complete "$WB" numastatctl stat --textfile "$TMP/dirs/sub")
expect_out "$TMP/dirs/sub-a
$TMP/dirs/sub-b" "bash: --textfile offers directories only"
OUT=$(bash_complete "$WB" numastatctl --config "$TMP/dirs/sub-f")
expect_out "$TMP/dirs/sub-file" "bash: --config offers files"

# Profile names come from `numastatctl profiles` with the line's --config.
cat >"$TMP/profiles.conf" <<'CONF'
[profile alpha]
summary = first
vm.numa_stat = 1
[profile albatross]
summary = second
vm.numa_stat = 0
CONF
chmod 0644 "$TMP/profiles.conf"
OUT=$(bash_complete "$WB" numastatctl --config "$TMP/profiles.conf" apply al)
expect_out "albatross
alpha" "bash: apply completes the profiles of --config"
OUT=$(bash_complete "$WB" numastatctl -c "$TMP/profiles.conf" profiles alb)
expect_out "albatross" "bash: profiles completes a profile name"

# Snapshot names come from `numastatctl snapshots --names` with the line's --state-dir.
"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set vm.numa_stat=0 >/dev/null 2>&1
echo 1 >"$ROOT/proc/sys/vm/numa_stat"
SNAP=$(ls "$STATE/snapshots")
OUT=$(bash_complete "$WB" numastatctl --state-dir "$STATE" stat --snapshot '')
expect_out "latest
$SNAP" "bash: stat --snapshot offers latest and the snapshots of --state-dir"
OUT=$(bash_complete "$WB" numastatctl stat --state-dir "$STATE" --since l)
expect_out "latest" "bash: and so does --since"

fish_complete() {
	fish -c 'source $argv[1]; complete -C $argv[2]' "$FISH_COMP" "$1" | cut -f1 | sort
}
OUT=$(fish_complete "numastatctl a")
expect_out "advise
apply" "fish: 'numastatctl a' offers advise and apply"
OUT=$(fish_complete "numastatctl -")
expect_out "$(table_options global numastatctl | sort)" "fish: before a command, the global options"
for c in $(table_commands); do
	OUT=$(fish_complete "numastatctl $c -")
	expect_out "$(table_options "$c" global | sort)" \
		"fish: $c offers exactly the options of its table and the global ones"
done
OUT=$(fish_complete "numastatctl set vm.numa_s")
expect_out "vm.numa_stat=" "fish: 'set vm.numa_s' completes to vm.numa_stat="
OUT=$(fish_complete "numastatctl set zone_reclaim_mode=")
expect_out "zone_reclaim_mode=0
zone_reclaim_mode=1
zone_reclaim_mode=2
zone_reclaim_mode=3
zone_reclaim_mode=4
zone_reclaim_mode=5
zone_reclaim_mode=6
zone_reclaim_mode=7
zone_reclaim_mode=reclaim
zone_reclaim_mode=unmap
zone_reclaim_mode=write" "fish: bitmask values after '='"
OUT=$(fish_complete "numastatctl -S $ROOT stat --nodes 2,")
expect_out "2,0
2,2
2,5" "fish: --nodes lists the sysroot's nodes"
OUT=$(fish_complete "numastatctl knobs -o NAME,PR")
expect_out "NAME,PRESENT" "fish: knobs -o completes columns"

OUT=$(fish_complete "numastatctl -c $TMP/profiles.conf apply al")
expect_out "albatross
alpha" "fish: apply completes the profiles of --config"
OUT=$(fish_complete "numastatctl --state-dir $STATE stat --snapshot ")
expect_out "latest
$SNAP" "fish: stat --snapshot offers latest and the snapshots of --state-dir"

# zsh: type each line into an interactive zsh on a pty and press TAB.
if ! have zsh zsh; then
	done_testing
	exit
fi
if ! zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
	missing "zsh cannot load its zpty module" zsh
	done_testing
	exit
fi
mkdir -p "$TMP/zsh"
zsh_lines=(
	"numastatctl a"
	"numastatctl set vm.numa_s"
	"numastatctl set vm.numa_stat="
	"numastatctl set kernel.numa_balancing=t"
	"numastatctl -S $ROOT stat --nodes="
	"numastatctl stat -o LOCAL"
	"numastatctl -c $TMP/profiles.conf apply al"
	"numastatctl get --i"
	"numastatctl --state-dir $STATE stat --snapshot "
)
timeout 120 zsh -f "$(dirname "$0")/zsh-complete.zsh" "$SOURCE_ROOT/completions/zsh" "$TMP/zsh" "${zsh_lines[@]}"
zsh_out() { sort -u "$TMP/zsh/$1" 2>/dev/null; }
OUT=$(zsh_out 1)
expect_out "advise
apply" "zsh: 'numastatctl a' offers advise and apply"
OUT=$(zsh_out 2)
expect_out "vm.numa_stat=" "zsh: 'set vm.numa_s' completes to vm.numa_stat="
OUT=$(zsh_out 3)
expect_out "vm.numa_stat=0
vm.numa_stat=1" "zsh: the values of a bool after '='"
OUT=$(zsh_out 4)
expect_out "kernel.numa_balancing=tiering" "zsh: bitmask flag names after '='"
# _sequence offers each node with a removable ',' to go on with the list.
OUT=$(zsh_out 5)
expect_out "--nodes=0,
--nodes=2,
--nodes=5,
--nodes=all," "zsh: --nodes offers the sysroot's node ids"
OUT=$(zsh_out 6)
expect_out "LOCAL%,
LOCAL_NODE," "zsh: stat -o offers the columns of stat --help"
OUT=$(zsh_out 7)
expect_out "albatross
alpha" "zsh: apply completes the profiles of --config"
OUT=$(zsh_out 8)
expect_out "--ignore" "zsh: options of the command"
OUT=$(zsh_out 9)
expect_out "latest
$SNAP" "zsh: stat --snapshot offers latest and the snapshots of --state-dir"

done_testing
