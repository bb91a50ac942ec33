#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A newcomer in an 80x24 terminal (tmux) with README and the tour: after
# the Quick start (its build is the one under test, standing for build/ of
# a clone), the tour's setup block and then every command of doc/tour.md,
# typed in the order the page shows them, exit as the page says ([exit
# status N], else 0), and print something.  The outputs themselves are
# compared by test-docs (the page is regenerated there).
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
t new-session -d -x 80 -y 24 -c "$TMP/scratch" "env -i HOME=$TMP PATH=/usr/bin:/bin TERM=xterm bash --norc --noprofile" ||
	missing_all "tmux cannot start a session here" tmux
t set-option -g history-limit 50000 >/dev/null

# type LINE: type it into the terminal, then wait for its exit status line.
N=0
type_line() {
	local i
	N=$((N + 1))
	t send-keys -l "$1"
	t send-keys Enter
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

type_line "src=$src" || not_ok "the terminal answers"
# The setup block, minus its first two lines (the scratch directory and
# src, given here).
while IFS= read -r line; do
	if ! type_line "$line"; then
		not_ok "setup: $line: no answer" "$(tail -n 8 "$TMP/pane")"
	elif [ "$RC" != 0 ]; then
		not_ok "setup: $line" "exit $RC"
	fi
done < <(sed -n '/^## Setup$/,/^## Commands$/{/^```sh$/,/^```$/p}' "$TOUR" | sed '1,3d;$d')
check "the setup made the trees" test -d "$TMP/scratch/sparse3" -a -d "$TMP/scratch/placement"

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
done_testing
