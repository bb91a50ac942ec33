#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 80 columns: every --help, and what status, knobs and profiles print on a
# terminal of 80 columns, fits it; in a pipe status keeps one line per record.  (The
# stat views have their own width rules: test-stat and the views' tests.)
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

# wider_than N TEXT: the lines of TEXT longer than N columns (none: empty).
wider_than() {
	awk -v n="$1" 'length($0) > n { printf "%d: %s\n", length($0), $0 }' <<<"$2"
}

# fits DESC TEXT: every line of TEXT fits 80 columns.
fits() {
	local wide
	wide=$(wider_than 80 "$2")
	if [ -z "$wide" ]; then ok "$1"; else not_ok "$1" "lines over 80 columns:" "$wide"; fi
}

# Every --help golden file, and every real --help (with this build's paths).
for f in "$SOURCE_ROOT"/tests/expected/help/*.out; do
	fits "help/$(basename "$f") fits 80 columns" "$(<"$f")"
done
run_raw --help
fits "numastatctl --help fits 80 columns with this build's directories" "$OUT"
for c in $(help_commands); do
	run_raw "$c" --help
	fits "$c --help fits 80 columns with this build's directories" "$OUT"
done

# A long option help folds at spaces under its column, never past 80.
run_raw status --help
check "--state-dir's help continues under its own column" \
	grep -q '^                          <dir> (default ' <<<"$OUT"

need script bsdutils
# on_tty COLS ARGS...: stdout of the binary on a terminal COLS wide (stty),
# or with only COLUMNS=COLS set where COLS is "env80" (a terminal that
# reports no size), in $TMP; stderr goes to $TMP/tty.err.
on_tty() {
	local size="stty cols $1 rows 50;" env=()
	if [ "$1" = env80 ]; then size= env=(COLUMNS=80); fi
	shift
	OUT=$(cd "$TMP" && env "${env[@]}" script -qec "$size $(printf '%q ' "$NUMASTATCTL" "$@") 2>$TMP/tty.err" \
		/dev/null </dev/null | tr -d '\r')
}

fixture sparse3
CONF=$TMP/shipped.conf
install -m 0644 "$SOURCE_ROOT/numastatctl.conf" "$CONF"
# A tree with everything status can say: drift, sysctl.d, warnings.
mkdir -p "$ROOT/etc/sysctl.d"
echo 'vm.min_slab_ratio = 9' >"$ROOT/etc/sysctl.d/50-long-name-of-a-sysctl-file.conf"
echo 0 >"$ROOT/proc/sys/vm/numa_stat"
for tty in 80 env80; do
	on_tty $tty --sysroot "$ROOT" --state-dir "$STATE" --config "$CONF" status
	check "status on a terminal ($tty) prints its table" grep -q '^KNOB ' <<<"$OUT"
	fits "status on a terminal ($tty) fits 80 columns" "$OUT"
	check "the meaning folds at spaces, nothing is cut" \
		grep -qx ' *reclaimable slab before zone' <<<"$OUT"
	check "the profile's drift folds under it" grep -q '^  vm\.' <<<"$OUT"
	on_tty $tty --sysroot "$ROOT" knobs
	fits "knobs on a terminal ($tty) fits 80 columns" "$OUT"
	on_tty $tty --sysroot "$ROOT" knobs -o NAME,TYPE,VALUES,DEFAULT vm.numa_stat \
		vm.zone_reclaim_mode kernel.numa_balancing
	fits "README's knobs -o example on a terminal ($tty) fits 80 columns" "$OUT"
	on_tty $tty --sysroot "$ROOT" knobs -o NAME,TYPE,NOTE,DEFAULT
	fits "knobs -o with a folding column before others, on a terminal ($tty)" "$OUT"
	on_tty $tty --sysroot "$ROOT" knobs -o NAME,TYPE,NOTE,DEFAULT vm.numa_stat
	check "which gets the room the others leave, not just its longest word" \
		grep -q '^vm\.numa_stat  *bool  *setting 0 zeroes every NUMA counter' <<<"$OUT"
	# (ORIGIN is a file name: a short one, as /usr/lib/numastatctl.conf is.)
	on_tty $tty --sysroot "$ROOT" --config "${CONF#"$TMP/"}" profiles
	fits "profiles on a terminal ($tty) fits 80 columns" "$OUT"
	on_tty $tty --sysroot "$ROOT" knobs --output-all
	fits "knobs --output-all on a terminal ($tty) fits 80 columns" "$OUT"
	check "folded into sections, each led by NAME" \
		test "$(grep -c '^NAME ' <<<"$OUT")" -gt 1
	for col in $(help_columns knobs | tr , ' ' | sed 's/\<NAME\>//'); do
		on_tty $tty --sysroot "$ROOT" knobs -o "NAME,$col"
		fits "knobs -o NAME,$col on a terminal ($tty) fits 80 columns" "$OUT"
	done
done
# A trial's report on a narrow terminal: the verdict folds at its space,
# inside its column, and nothing passes the edge.
echo yes | run set --try 1m --baseline 3s --foreground vm.min_slab_ratio=8
on_tty 60 --sysroot "$ROOT" --state-dir "$STATE" trial
fits_in() { awk -v n="$1" 'length($0) > n' <<<"$2"; }
check "trial on a terminal of 60 columns: no line of its table wider" \
	test -z "$(fits_in 60 "$(sed -n '/^COUNTER/,$p' <<<"$OUT")")"
check "the verdict folds in its cell, at its space" grep -qE '^ {40,}noise$' <<<"$OUT"

# advise on a terminal: every line folds at spaces under its column; in a
# pipe each entry's line stays whole, for grep.
GEN=$FIXTURES/gen-advise.sh
for c in advise-single-node advise-remote-allocations advise-zone-reclaim-far; do
	"$GEN" "$TMP/$c" "$c"
	chmod go-w "$TMP/$c/etc" "$TMP/$c/etc/numastatctl.conf"
	run_raw --sysroot "$TMP/$c" --config "$TMP/$c/etc/numastatctl.conf" advise
	pipe=$OUT
	for tty in 80 env80; do
		on_tty $tty --sysroot "$TMP/$c" --config "$TMP/$c/etc/numastatctl.conf" advise
		fits "advise ($c) on a terminal ($tty) fits 80 columns" "$OUT"
		check "advise ($c) on a terminal ($tty): the words of the pipe's lines, none cut" \
			test "$(tr -s ' \n' '\n\n' <<<"$OUT")" = "$(tr -s ' \n' '\n\n' <<<"$pipe")"
	done
done
check "advise in a pipe: an evidence line is one line" \
	grep -q '^             numa_foreign (meant for that node, served by another): node 0 111112, node 1 0$' <<<"$pipe"

# The README's example fits in a pipe too, where it is generated.
run knobs -o NAME,TYPE,VALUES,DEFAULT vm.numa_stat vm.zone_reclaim_mode kernel.numa_balancing
fits "README's knobs -o example fits 80 columns in a pipe" "$OUT"

# In a pipe: one line per knob and one for the profile, whatever they hold.
run --config "$CONF" status
check "in a pipe each knob of status is one line: no continuation line in its table" \
	sh -c '! sed "/^profile:/,\$d" | grep -q "^     "' <<<"$OUT"
check "and every knob line has its meaning" \
	test "$(sed '/^profile:/,$d' <<<"$OUT" | grep -c '^[a-z][^ ]*  *[^ ]* [a-zA-Z0-9]')" = \
	"$(($(sed '/^profile:/,$d' <<<"$OUT" | wc -l) - 1))"
check "and the profile is one line" grep -q '^profile: default (live differs: .*vm\.min_slab_ratio is ' <<<"$OUT"
run knobs --output-all
check "knobs --output-all in a pipe: one table, one line per knob" \
	test "$(grep -c '^NAME ' <<<"$OUT")" = 1 -a "$(wc -l <<<"$OUT")" = "$(($("$NUMASTATCTL" knobs -N | wc -l) + 1))"

done_testing
