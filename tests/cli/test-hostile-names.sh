#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Names an unprivileged user chooses (a process's name, a cgroup's) with
# bytes that are not UTF-8, control characters, quotes, backslashes and
# U+2028 planted in the fixtures: every -J output of every view (from the
# build's list of views, one-shot and each interval line) parses as JSON,
# every Prometheus text passes promtool, and the tables show the bytes as
# \xNN, never raw.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/options-lib.sh"

# Not UTF-8 (a lone 0xff, a cut sequence), SOH, ESC, a quote, a backslash, U+2028.
HOSTILE=$'h\xff\xc3(\x01\e"\\\xe2\x80\xa8x'

# plant: the hostile process and cgroup in a copy of effect-6.1 (cgroups)
# with pid-procs' processes.
plant() {
	fixture effect-6.1
	cp -a "$FIXTURES/pid-procs/proc/." "$ROOT/proc/"
	sed -i "s/^Name:.*/Name:\t$HOSTILE/" "$ROOT/proc/4242/status"
	local cg=$ROOT/sys/fs/cgroup/system.slice/$HOSTILE.service
	mkdir "$cg" && cp "$ROOT/sys/fs/cgroup/system.slice/nginx.service/memory.numa_stat" "$cg/"
}

# json_docs DESC: $OUT is JSON documents, one, or one a line (-l).
json_docs() {
	local desc=$1 why
	shift
	if why=$(python3 -c '
import json, sys
text = sys.stdin.buffer.read().decode("utf-8")  # strict: invalid UTF-8 fails
docs = text.rstrip("\n").split("\n") if sys.argv[1:] == ["-l"] else [text]
assert "\u2028" not in text, "a raw U+2028: a line break to a reader splitting lines the Unicode way"
assert docs and all(d.strip() for d in docs), "no output"
for d in docs:
    json.loads(d)' "$@" <"$TMP/out" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc" "$why" "output:" "$(head -c 2000 "$TMP/out" | cat -v)"
	fi
}

# The argument a view's option needs here; a new view that takes one adds it.
view_arg() {
	case $1 in
	cgroup) echo '*.service' ;;
	*) echo "Bail out! view $1 takes an argument: give test-hostile-names one"; exit 1 ;;
	esac
}

plant
names=$(awk -F'\t' '$1 == "view" { print $2 "\t" $3 "\t" $4 }' "$OPTIONS_LIST")
[ -n "$names" ] || { echo "Bail out! no views in $OPTIONS_LIST"; exit 1; }
while IFS=$'\t' read -r name opt arg; do
	case $name in
	counters) args=() ;;
	pid) args=(--pid 4242 --pid postgres) ;;
	*) args=("$opt") ;;
	esac
	[ "$arg" = required ] && args+=("$(view_arg "$name")")
	run -J stat "${args[@]}"
	json_docs "stat ${args[*]} -J parses"
	case $name in
	pid)
		run -J stat "${args[@]}" -o PID,COMMAND,TOTAL
		json_docs "stat ${args[*]} -o PID,COMMAND,TOTAL -J parses"
		run stat "${args[@]}" --compat
		check "stat ${args[*]} --compat is UTF-8, the name as \\xNN" \
			python3 -c 'import sys; t = sys.stdin.buffer.read().decode(); assert "h\\xff" in t, t' <"$TMP/out"
		continue
		;;
	esac
	run -J stat "${args[@]}" 0.01 2 --totals
	json_docs "stat ${args[*]} INTERVAL -J: each line parses" -l
	run stat "${args[@]}"
	check "stat ${args[*]}: the table is UTF-8" python3 -c 'import sys; sys.stdin.buffer.read().decode()' <"$TMP/out"
	if have promtool prometheus; then
		run stat "${args[@]}" --prometheus
		check "stat ${args[*]} --prometheus passes promtool check metrics" promtool check metrics <"$TMP/out"
	fi
done <<<"$names"

run -J status
json_docs "status -J parses"
run stat --cgroup "system.slice/h*"
expect_out_has '/system.slice/h\xff\xc3(\x01\x1b"\' "the table shows the bytes as \\xNN"
run -J stat --cgroup "system.slice/h*"
check "JSON carries the bytes that are not UTF-8 as \\xNN, the others escaped its way" \
	python3 -c '
import json, sys
name = json.load(sys.stdin)["cgroups"][0]["cgroup"]
assert name == "/system.slice/h\\xff\\xc3(\x01\x1b\"\\\u2028x.service", repr(name)' <"$TMP/out"
if have promtool prometheus; then
	run stat --cgroup "system.slice/h*" --prometheus
	expect_out_has 'cgroup="/system.slice/h\\xff\\xc3(\\x01\\x1b\"\\' \
		"a label value carries them as \\xNN, quote and backslash escaped"
fi

done_testing
