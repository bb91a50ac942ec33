#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/README.md quotes the figures of bench/results.md (the goals table,
# the own work beyond start-up, the peers at 1024 nodes) and the imports of
# the binary, README.md's "Measured here" the one-node instructions: each quoted figure is the one the latest run recorded, so a
# new run of bench/run that changes one fails here until README says it.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

readme=$SOURCE_ROOT/bench/README.md
results=$SOURCE_ROOT/bench/results.md

# The figures README must hold, one per line: "WHAT<TAB>TEXT", from results.md.
/usr/bin/python3 - "$results" >"$TMP/want" <<'EOF'
import re, sys

text = open(sys.argv[1], encoding="utf-8").read()
main = {}
for line in text.split("\n## ")[0].splitlines():
    cells = [c.strip() for c in line.strip("|").split("|")]
    if len(cells) >= 4 and line.startswith("| "):
        main[cells[0]] = cells[1:4]

def num(what, i):
    return float(main[what][i].split()[0])

def k(v):
    """Instructions as README writes them: 230k, 9.7M."""
    return f"{round(v / 1e3)}k" if v < 1e6 else f"{v / 1e6:.1f}M"

def pair(what):
    return f"{k(num(what, 0))} vs {k(num(what, 1))}"

GET = "instructions: get one knob"
GETC = "instructions: get one knob, LC_ALL=C (no locale to load)"
COMPAT = "instructions: `stat --compat` vs numastat"
APPLY = "instructions: apply 6 knobs vs sysctl -p"
APPLYC = "instructions: apply 6 knobs vs sysctl -p, LC_ALL=C"
FLOOR = "start-up floor: `/bin/true` / `numastatctl --version`"
want = {
    "get": f"{pair(GET)} (C.UTF-8); {k(num(GETC, 0))} vs {k(num(GETC, 1))} with no locale",
    "stat --compat, 1 node": f"1 node {pair(COMPAT)}",
    "stat --compat, 64 nodes": f"64 nodes {pair(COMPAT + ', 64 nodes')}",
    "stat --compat, 1024 nodes": f"1024 nodes {pair(COMPAT + ', 1024 nodes')}",
    "default stat": pair("instructions: default `stat` vs `stat --compat`, 1 node"),
    "syscalls of get and set": f"{main['syscalls: get one knob'][0]} vs "
    f"{main['syscalls: get one knob'][1]}, {main['syscalls: set one knob (same value)'][0]} vs "
    f"{main['syscalls: set one knob (same value)'][1]}",
    "linear 64 -> 1024": f"| {float(main['instructions, `stat` 1024 nodes / 64 nodes'][2].rstrip('x')):.1f} |",
    "apply": f"{pair(APPLY)} (C.UTF-8); vs {k(num(APPLYC, 1))} with no locale",
    "one-shot stat syscalls per node": f"| {main['syscalls per node, one-shot `stat`, 1024 nodes'][0]} ",
    "interval syscalls per node": f"| {main['syscalls per node per interval sample, 1024 nodes'][0]} |",
    "own work of get": f"`get` ~{k(num(GET, 0) - num(FLOOR, 0))}",
    "own work of stat --compat": f"`stat --compat` ~{k(num(COMPAT, 0) - num(FLOOR, 0))}",
    "numastat's own work": f"~{k(num(COMPAT, 1) - num(FLOOR, 1))} for `numastat`",
}
# The peers at 1024 nodes: the last row of each table of "Beside numastat".
peers = text[text.index("#### `stat --compat` against numastat"):]
rows = [l for l in peers.splitlines() if l.startswith("| 1024 |")]
compat = [c.strip() for c in rows[0].strip("|").split("|")]
prom = [c.strip() for c in rows[1].strip("|").split("|")]
want["compat at 1024 nodes"] = (f"compat {compat[2]} numastat's CPU, {compat[4]} its faults, "
                                f"{compat[6]} its peak RSS")
cpu, faults = prom[3].split(", ")
want["prometheus at 1024 nodes"] = f"prometheus {cpu} a scrape's CPU, {faults} its faults"
for what, s in want.items():
    print(f"{what}\t{s}")
EOF
check "results.md has every figure README quotes" test "$(wc -l <"$TMP/want")" -ge 15
# (README's lines joined: a figure may be folded.)
tr -s '\n' ' ' <"$readme" >"$TMP/readme"
while IFS=$'\t' read -r what want; do
	check "bench/README.md quotes results.md's $what: $want" grep -qF -- "$want" "$TMP/readme"
done <"$TMP/want"

# The top README's "Measured here" quotes the one-node figures too.
tr -s '\n' ' ' <"$SOURCE_ROOT/README.md" >"$TMP/top"
while IFS=$'\t' read -r what want; do
	case $what in get | "stat --compat, 1 node") ;; *) continue ;; esac
	# shellcheck disable=SC2086 # its words
	set -- $want
	[ "$what" = get ] && fig=("\`get\` ($1)" "without a locale ($7)") ||
		fig=("\`stat --compat\` ($3)" "\`numastat\` ($5)")
	for f in "${fig[@]}"; do
		check "README.md quotes results.md's $what: $f" grep -qF -- "$f" "$TMP/top"
	done
done <"$TMP/want"

# The imports the start-up findings count, of the binary as built (a
# sanitizer build imports its runtime too).
imports=$(nm -D --undefined-only "$NUMASTATCTL" | grep -c ' [Uw] ')
if nm -D --undefined-only "$NUMASTATCTL" | grep -q __asan; then
	ok "# SKIP the imports of a sanitizer build are not the product's"
else
	check "bench/README.md counts the binary's $imports imports" \
		grep -qF "imported libc symbols ($imports)" "$TMP/readme"
fi
done_testing
