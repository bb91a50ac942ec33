# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Measuring one command line, for bench/run.  A command line is a string with
# placeholders (@BIN@, @R1@ ...) so results.md can show it without this
# machine's paths; expand() gives the real one, show() the printable one.

declare -A PH=()     # placeholder -> real path
declare -A PH_SHOW=() # placeholder -> what results.md prints

placeholder() {
	PH[$1]=$2
	PH_SHOW[$1]=$3
}

expand() {
	local s=$1 k
	for k in "${!PH[@]}"; do
		s=${s//$k/${PH[$k]}}
	done
	printf '%s' "$s"
}

show() {
	local s=$1 k
	for k in "${!PH_SHOW[@]}"; do
		s=${s//$k/${PH_SHOW[$k]}}
	done
	printf '%s' "$s"
}

# argv_of CMDLINE: the expanded words in ARGV (no word holds a space).
argv_of() {
	read -r -a ARGV <<<"$(expand "$1")"
}

# Every measured command runs in a private mount namespace where
# /proc/sys/vm and /proc/sys/kernel are bind-mounted copies (procsys/ in
# $TMP, made by fake_procsys): set, apply, sysctl -w/-p and tuned write
# regular files, never the kernel, so the benchmark cannot disturb (or be
# disturbed by) anything else that changes knobs while it runs.  With NODES
# the generated tree of that many nodes is mounted on /sys/devices/system/node
# too: the path measured is the live one users run, numastat (which has no
# --sysroot) reads the same tree, and callgrind needs no openat2(2).
NS_SCRIPT='[ -z "$1" ] || mount --bind "$1" /sys/devices/system/node || exit 125
mount --bind "$2" /proc/sys/vm && mount --bind "$3" /proc/sys/kernel || exit 125
shift 3
exec "$@"'

# ns [TREE]: the namespace wrapper in NS.  TREE is a count of nodes (the tree
# @R<count>@ of make_sysroots) or a placeholder's name without its @s (P256).
ns() {
	local key=${1:-}
	case $key in [0-9]*) key=R$key ;; esac
	NS=(unshare -m --propagation private sh -c "$NS_SCRIPT" sh
		"${key:+${PH[@$key@]}/sys/devices/system/node}" "$TMP/procsys/vm" "$TMP/procsys/kernel")
}

# icount CMDLINE [NODES [STATUS]]: instructions the whole process executed,
# dynamic loader included; "fail" when the command failed, that is exited
# other than STATUS (default 0: advise exits 3 when it advises; stderr in
# $TMP/err).
icount() {
	local log=$TMP/callgrind.log rc=0
	argv_of "$1"
	ns "${2:-}"
	"${CLEAN_ENV[@]}" "${NS[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		--log-file="$log" "${ARGV[@]}" >/dev/null 2>"$TMP/err" </dev/null || rc=$?
	[ "$rc" = "${3:-0}" ] || { echo fail; return; }
	sed -n 's/.*Collected : \([0-9][0-9]*\).*/\1/p' "$log"
}

# on_nodes CMDLINE NODES: CMDLINE as results.md shows it.
on_nodes() {
	if [ -n "${2:-}" ]; then
		printf '%s' "$(show "$1") (nodes-${2#P} mounted on /sys/devices/system/node)"
	else
		show "$1"
	fi
}

# scount CMDLINE [SYSCALL]: system calls of the process and its children
# (strace -c -f), or only those of SYSCALL.
scount() {
	argv_of "$1"
	ns
	"${CLEAN_ENV[@]}" "${NS[@]}" strace -f -c ${2:+-e trace="$2"} -o "$TMP/strace" "${ARGV[@]}" \
		>/dev/null 2>"$TMP/err" </dev/null ||
		{ echo fail; return; }
	awk '$NF == "total" { print $4 }' "$TMP/strace"
}

# wall RUNS CMDLINE_A CMDLINE_B: "MEAN_A MEAN_B MIN_A MIN_B" in seconds.  The
# runs are split into 4 hyperfine rounds of RUNS/4 each, the order swapped
# every round, so both commands see the same stretches of machine load
# (hyperfine runs all of one command before the next).  At nice -10, so
# background builds at the default priority disturb both less.
wall() {
	local runs=$(($1 / 4)) a b i
	a=$(expand "$2")
	b=$(expand "$3")
	: >"$TMP/wall.all"
	for i in 0 1 2 3; do
		if [ $((i % 2)) = 0 ]; then
			set -- -n a "$a" -n b "$b"
		else
			set -- -n b "$b" -n a "$a"
		fi
		ns
		"${CLEAN_ENV[@]}" "${NS[@]}" nice -n -10 hyperfine -N --style none --runs "$runs" --warmup 5 \
			--export-csv "$TMP/wall.csv" "$@" >/dev/null 2>"$TMP/err" </dev/null ||
			{ echo "fail fail fail fail"; return; }
		tail -n +2 "$TMP/wall.csv" >>"$TMP/wall.all"
	done
	# command,mean,stddev,median,user,system,min,max
	awk -F, '{ sum[$1] += $2; if (!($1 in min) || $7 < min[$1]) min[$1] = $7 }
		END { print sum["a"] / 4, sum["b"] / 4, min["a"], min["b"] }' "$TMP/wall.all"
}

# ratio X Y: X / Y with two decimals, or "n/a".
ratio() {
	case "$1$2" in
	*[!0-9.e-]* | "") echo n/a ;;
	*) awk -v x="$1" -v y="$2" 'BEGIN { if (y == 0) print "n/a"; else printf "%.2f\n", x / y }' ;;
	esac
}

# le X Y: "yes" when X <= Y (numbers), else "NO", "n/a" when either is not one.
le() {
	case "$1$2" in
	*[!0-9.e-]* | "") echo n/a ;;
	*) awk -v x="$1" -v y="$2" 'BEGIN { print (x <= y) ? "yes" : "NO" }' ;;
	esac
}

ms() {
	case "$1" in
	*[!0-9.e-]* | "") echo "$1" ;;
	*) awk -v s="$1" 'BEGIN { printf "%.3f ms\n", s * 1000 }' ;;
	esac
}

# built COMMAND: false while the command is still a placeholder ("not built
# yet"), so its rows say so instead of measuring an error message.
built() {
	"$BIN" "$1" --help >/dev/null 2>&1 </dev/null
}
