#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A newcomer in an 80x24 terminal (tmux) with README and the tour: after
# the Quick start (its build is the one under test, standing for build/ of
# a clone), the tour's setup block, typed at the top of the clone, and then
# every command of doc/tour.md, typed in the order the page shows them,
# exit as the page says ([exit status N], else 0).  Then the commands of
# numastatctl(8)'s EXAMPLES, README's way to keep a value across a reboot,
# a trial's report, a profile, a bad column and --help.  Nothing printed
# is wider than the terminal (which would fold it mid-word).  The outputs
# themselves are compared by test-docs (the page is regenerated there).
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"
need tmux tmux

README=$SOURCE_ROOT/README.md
TOUR=$SOURCE_ROOT/doc/tour.md
check "README's Quick start has the two commands" \
	grep -q '^./quickstart  ' <(sed -n '/^## Quick start$/,/^## /p' "$README")
check "README's Quick start leads to the tour" \
	grep -q '(doc/tour.md)' <(sed -n '/^## Quick start$/,/^## /p' "$README")

# The clone as the tour's setup sees it: the tree, with its build/.
src=$TMP/clone
mkdir -p "$src/build/src"
ln -s "$SOURCE_ROOT/tests" "$src/tests"
ln -s "$SOURCE_ROOT/numastatctl.conf" "$src/numastatctl.conf"
ln -s "$NUMASTATCTL" "$src/build/src/numastatctl"
mkdir "$TMP/scratch"

sock=$TMP/tmux.sock
t() { tmux -S "$sock" "$@"; }
at_exit "tmux -S '$sock' kill-server 2>/dev/null"
# (The prompt is "@@ ", so that the lines typed are told from the output.)
t new-session -d -x 80 -y 24 -c "$src" "env -i HOME=$TMP TMPDIR=$TMP/scratch PATH=/usr/bin:/bin TERM=xterm PS1='@@ ' bash --norc --noprofile" ||
	missing_all "tmux cannot start a session here" tmux
t set-option -g history-limit 50000 >/dev/null

# type LINE: type it into the terminal, then wait for its exit status line.
N=0
type_line() {
	local i
	N=$((N + 1))
	t send-keys -l "$1"
	t send-keys Enter
	# The exit status once the prompt is back: typed earlier, its echo
	# would land inside the command's output.
	sleep 0.1
	for i in $(seq 1 300); do
		[[ "$(t capture-pane -p | grep -v '^$' | tail -n 1)" =~ ^@@\ ?$ ]] && break
		sleep 0.1
	done
	t send-keys -l "echo \"@rc$N=\$?\""
	t send-keys Enter
	for i in $(seq 1 300); do
		t capture-pane -p -J -S - >"$TMP/pane"
		RC=$(sed -n "s/^@rc$N=\\([0-9]*\\)\$/\\1/p" "$TMP/pane" | tail -n 1)
		[ -n "$RC" ] && return 0
		sleep 0.1
	done
	return 1
}

type_line "true" || not_ok "the terminal answers"
# The setup block, typed at the top of the clone.
while IFS= read -r line; do
	if ! type_line "$line"; then
		not_ok "setup: $line: no answer" "$(tail -n 8 "$TMP/pane")"
	elif [ "$RC" != 0 ]; then
		not_ok "setup: $line" "exit $RC"
	fi
done < <(sed -n '/^## Setup$/,/^## Commands$/{/^```sh$/,/^```$/p}' "$TOUR" | sed '1d;$d')
type_line 'echo "$PWD" >"$HOME/where"'
work=$(<"$TMP/where")
check "the setup, from wherever the clone is, made the trees in a scratch directory" \
	test "${work#"$TMP/scratch/"}" != "$work" -a -d "$work/sparse3" -a -d "$work/placement"

# Every console block: "$ LINE", its output, maybe "[exit status N]".
awk '/^```console$/ { getline l; cmd = substr(l, 3); want = 0; next }
	/^\[exit status [0-9]+\]$/ { want = $3 + 0; sub(/\]/, "", want) }
	/^```$/ && cmd != "" { print want "\t" cmd; cmd = "" }' "$TOUR" >"$TMP/steps"
check "the tour has its commands" test "$(wc -l <"$TMP/steps")" -ge 30
bad=()
while IFS=$'\t' read -r want line; do
	if ! type_line "$line"; then
		bad+=("$line: no answer")
	elif [ "$RC" != "$want" ]; then
		bad+=("$line: exit $RC, the tour says $want")
	fi
done <"$TMP/steps"
if [ ${#bad[@]} = 0 ]; then
	ok "every command of the tour, typed in order at 80x24, exits as the tour says"
else
	not_ok "every command of the tour, typed in order at 80x24, exits as the tour says" "${bad[@]}"
fi

# numastatctl(8)'s EXAMPLES: each numastatctl command (its continuation
# lines joined), on the tour's machine; what they need and cannot have
# there fails, only their width counts.  None that writes to /etc runs.
while IFS= read -r line; do
	type_line "$line" || not_ok "EXAMPLES: $line: no answer"
done < <(sed -n '/^# EXAMPLES$/,/^# SEE ALSO$/p' "$SOURCE_ROOT/man/numastatctl.8.scd" |
	sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep '^numastatctl ' | grep -v '/etc/')

# README: keep a value across a reboot while the boot unit applies hpc.  A
# copy of sparse3 with the unit enabled, the shipped file naming hpc.
type_line 'cp -r sparse3 boot && mkdir -p boot/etc/systemd/system/sysinit.target.wants'
type_line 'ln -s /lib/systemd/system/numastatctl.service boot/etc/systemd/system/sysinit.target.wants/'
type_line "sed 's/^profile = default/profile = hpc/' numastatctl.conf >boot.conf"
type_line 'numastatctl --sysroot boot --config boot.conf apply'
type_line 'numastatctl --sysroot boot --config boot.conf set vm.zone_reclaim_mode=0 2>"$HOME/set.err"'
set_err=$(<"$TMP/set.err")
check "set says that the boot profile puts 1 back, and where" \
	grep -q "the next boot puts 1 back: numastatctl.service applies profile hpc, which sets it at boot.conf:[0-9]" <<<"$set_err"
check "and the line that keeps 0" grep -q "to keep 0, add 'vm.zone_reclaim_mode = 0' under '\[profile hpc\]' in boot.conf" <<<"$set_err"
keep=$(sed -n '/^## Install$/,/^## /p' "$README" | grep -m1 "^printf '\[profile hpc\]")
check "README's Install says how to keep it in a drop-in" test -n "$keep"
type_line "${keep%%>*}>keep.conf"
type_line 'numastatctl --config keep.conf profiles hpc'
check "README's drop-in keeps vm.zone_reclaim_mode = 0 in profile hpc" \
	grep -q '^vm.zone_reclaim_mode = 0  *; keep.conf:' <(t capture-pane -p -J -S -)
type_line "sed -i '/^\[profile hpc\]$/a vm.zone_reclaim_mode = 0' boot.conf"
type_line 'echo 1 >boot/proc/sys/vm/zone_reclaim_mode'
type_line 'numastatctl --sysroot boot --config boot.conf set vm.zone_reclaim_mode=0 2>"$HOME/set.err"'
check "with the value in the profile, set has nothing more to say" test ! -s "$TMP/set.err"

# A trial and its report, a profile, a bad column, a non-root placement.
type_line 'echo yes | numastatctl set --try 1m --baseline 3s --foreground vm.min_slab_ratio=8'
check "the trial ran" test "$RC" = 0
type_line 'numastatctl trial'
type_line 'numastatctl profiles hpc'
type_line 'numastatctl profiles --cat-config'
type_line 'numastatctl stat -o NODE,HITS 2>"$HOME/col.err"'
check "a bad column: exit 2" test "$RC" = 2
check "one pointer to the help" test "$(grep -c 'numastatctl stat --help' "$TMP/col.err")" = 1
check "and the column it may be" grep -q 'did you mean NUMA_HIT' "$TMP/col.err"
type_line 'numastatctl snapshots'
if [ "$(id -u)" = 0 ] && have setpriv util-linux; then
	chmod go+rX "$TMP" "$TMP/scratch"
	type_line 'chmod -R go+rX . && chmod 0600 placement/proc/300/numa_maps'
	type_line 'setpriv --reuid=65534 --regid=65534 --clear-groups "$src/build/src/numastatctl" --sysroot placement placement --pid 300 2>"$HOME/pl.err"'
	check "a placement of another user's process says to run as root" \
		grep -q "numa_maps: Permission denied (another user's process: run as root)" "$TMP/pl.err"
fi

# The whole session: no line wider than 80 columns (tmux joins the lines it
# folded, so a longer one is one the terminal cut where it fell), but for a
# line holding a word no line could (a container's cgroup path of 157
# characters, an id): nothing can fold it at a space.
t capture-pane -p -J -S - >"$TMP/pane"
wide=$(grep -v '^@@ ' "$TMP/pane" | awk 'length($0) > 80 {
	for (i = 1; i <= NF; i++) if (length($i) > 72) next
	printf "%d: %s\n", length($0), $0 }')
if [ -z "$wide" ]; then
	ok "nothing the tour, the EXAMPLES and the tasks printed is wider than 80 columns"
else
	not_ok "nothing the tour, the EXAMPLES and the tasks printed is wider than 80 columns" "$wide"
fi

# --help: the first screen shows the usage and the commands.
t clear-history
t send-keys -l 'clear; "$src/build/src/numastatctl" --help'
t send-keys Enter
sleep 1
t capture-pane -p >"$TMP/screen"
check "the first 24 rows of --help show Usage" grep -q '^Usage:' "$TMP/screen"
check "and the commands down to the last" grep -q '^ *bench ' "$TMP/screen"
done_testing
