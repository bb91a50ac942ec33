#!/bin/zsh -f
# SPDX-License-Identifier: GPL-2.0-or-later
# zsh-complete.zsh FPATH_DIR OUT_DIR LINE...: type each LINE into an
# interactive zsh (on a pty) that loaded the completions in FPATH_DIR, ask
# for completion, and write every match offered to OUT_DIR/<n> (n = 1, 2,
# ...), one per line, as the full word it would insert.
zmodload zsh/zpty || exit 2
fdir=$1 outdir=$2
shift 2

zpty z zsh -f -i
# send CMD: run CMD in the pty's shell; returns once it has finished.  Keys
# are processed in order, so this also waits for a pending completion.
send() {
	local x
	zpty -w z "$1; print DONE\${(L):-MARK}"
	zpty -r -m z x '*DONEmark*'
}
send 'PS1= PROMPT= RPROMPT= LISTMAX=100000; setopt no_beep'
send "fpath=(${(q)fdir} \$fpath); autoload -Uz compinit; compinit -u -D"
# Record every match instead of only offering it.
send 'compadd() {
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
	local -a hits
	builtin compadd -A hits "$@"
	(( $#hits )) || return 1
	local -A apre hpre hsuf asuf
	zparseopts -E P:=apre p:=hpre S:=asuf s:=hsuf
	print -rl -- "${IPREFIX}${apre[-P]}${hpre[-p]}"${^hits}"${hsuf[-s]}${asuf[-S]}" >>$__out
	builtin compadd "$@"
}'
# ^T completes, then prints a marker: keys typed while a completion runs
# would make zsh cut it short, so the next key waits for the marker.
send 'zle-complete-marked() { zle complete-word; print -rn -- "<<COMP""DONE>>"; }'
send 'zle -N zle-complete-marked; bindkey "^T" zle-complete-marked'
n=0
for line in "$@"; do
	n=$((n + 1))
	: >"$outdir/$n"
	send "__out=${(q)outdir}/$n"
	zpty -w -n z "$line"$'\C-t'
	zpty -r -m z x '*<<COMPDONE>>*'
	# Kill the edited line.
	zpty -w -n z $'\C-u'
	send true
done
zpty -d z
