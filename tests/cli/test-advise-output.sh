#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# advise: -J, --rules, --profile (which apply takes as it is, after which
# advise has nothing more to say about those knobs), usage errors, exit
# codes, and hostile input.  The rules themselves are in test-advise.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"
. "$(dirname "$0")/advise-lib.sh"

# --- -J ---
afixture advise-single-node
prun -J advise
expect_rc 3 "-J keeps the exit status"
expect_json "-J: one array of advice objects with the evidence as an array" '
keys = ["rule", "kind", "priority", "name", "value", "recommended", "recommendation", "reason", "evidence", "source"]
a = doc["advice"]
if len(a) != 3: print("entries:", len(a))
for e in a:
    if list(e) != keys: print("keys:", list(e))
    if not isinstance(e["evidence"], list) or not all(isinstance(x, str) for x in e["evidence"]): print("evidence:", e["evidence"])
b = [e for e in a if e["rule"] == "single-node-balancing"][0]
if (b["kind"], b["priority"], b["name"], b["value"], b["recommended"]) != ("advice", "medium", "kernel.numa_balancing", "1", "0"): print(b)
if "/proc/sys/kernel/numa_balancing: 1" not in b["evidence"]: print(b["evidence"])
'

afixture advise-cpuless-dram-tier
prun -J advise
# Two notes: cpuless-dram-tier, and cpuless-no-perf (node 2 has no figures).
expect_json "-J: a note has null name, value and recommended" '
kinds = sorted(e["kind"] for e in doc["advice"])
if kinds != ["note", "note"]: print(kinds)
for n in doc["advice"]:
    if n["name"] is not None or n["value"] is not None or n["recommended"] is not None: print(n)
'

afixture advise-remote-allocations
echo "42.10 80.00" >"$ROOT/proc/uptime"
prun -J advise
expect_json "-J: insufficient data recommends nothing; why is its evidence" '
e = doc["advice"][0]
if (e["rule"], e["kind"], e["recommendation"], e["reason"]) != ("remote-allocations", "insufficient-data", None, None): print(e)
if len(e["evidence"]) != 1 or "42 s since boot" not in e["evidence"][0]: print(e)
'

afixture advise-quiet
prun -J advise
expect_json "-J on a quiet machine: an empty array" 'if doc != {"advice": []}: print(doc)'
expect_rc 0 "exit 0"

# --- --rules ---
run_raw advise --rules
expect_rc 0 "--rules exits 0"
expect_out_has "RULE                     PRIORITY KNOB" "--rules prints a table"
run_raw -J advise --rules
expect_json "--rules -J: every rule with every field" '
for r in doc["rules"]:
    if list(r) != ["rule", "priority", "name", "condition", "reads", "recommendation", "reason", "source"]: print("keys", list(r))
    if not all(r[k] for k in ["rule", "priority", "condition", "reads", "recommendation", "reason", "source"]): print("empty field", r)
'
rules=$(sed -n 's/^ *"rule": "\(.*\)",$/\1/p' <<<"$OUT")
missing=()
for c in $("$GEN" --list); do
	r=${c#advise-}
	r=${r%-not}
	case "$r" in quiet | single-node | tiering) continue ;; esac
	grep -qxF "$r" <<<"$rules" || missing+=("$r")
done
if [ ${#missing[@]} -eq 0 ]; then ok "every fixture case is named after a rule --rules lists"; else not_ok "every fixture case is named after a rule --rules lists" "${missing[*]}"; fi
tested=$(grep -oE '^advise-[a-z-]+ [0-9] [a-z-]+' "$(dirname "$0")/test-advise.sh" | awk '{ print $3 }' | sort -u)
untested=()
for r in $rules; do grep -qxF "$r" <<<"$tested" || untested+=("$r"); done
if [ ${#untested[@]} -eq 0 ]; then ok "every rule of --rules has a fixture case that triggers it here"; else not_ok "every rule of --rules has a fixture case that triggers it here" "${untested[*]}"; fi

# --- --profile: apply takes it as it is ---
# profile_roundtrip CASE DESC: the section lists exactly the advised knobs as
# drift for apply --check; after apply, advise says nothing more about them.
profile_roundtrip() {
	local advised drift
	afixture "$1"
	prun advise
	advised=$(sed -n 's/^[0-9]*\. \[[a-z]*\] [a-z-]*: set \([a-z_.]*\) = .*/\1/p' <<<"$OUT" | sort)
	prun advise --profile adv
	expect_rc 3 "$1: --profile exits 3 like the list"
	printf '%s\n' "$OUT" >"$ROOT.adv.conf"
	trust "$ROOT.adv.conf"
	run --config "$ROOT.adv.conf" apply --check adv
	expect_rc 3 "$1: apply --check takes the section and finds drift"
	drift=$(sed -n 's/^\([a-z_.]*\) is .*, profile adv wants .*/\1/p' <<<"$OUT" | sort)
	if [ -n "$advised" ] && [ "$drift" = "$advised" ]; then
		ok "$1: exactly the advised knobs differ ($(tr '\n' ' ' <<<"$advised"))"
	else
		not_ok "$1: exactly the advised knobs differ" "advised: $advised" "drift: $drift"
	fi
	run --config "$ROOT.adv.conf" apply adv
	expect_rc 0 "$1: apply adv exits 0"
	run --config "$ROOT.adv.conf" advise
	left=$(for k in $advised; do grep -F " $k " <<<"$OUT"; done)
	if [ -z "$left" ]; then ok "$1: after apply, advise says nothing more about them"; else not_ok "$1: after apply, advise says nothing more about them" "$OUT"; fi
}
profile_roundtrip advise-single-node
profile_roundtrip advise-tiering
profile_roundtrip advise-zone-reclaim-far
# The counters since boot still hold the spill from before the change:
# zone reclaim is not counted as a fit until an interval shows the spill gone.
expect_out_has "insufficient data: zone-reclaim-far: zone reclaim is on, and node 0's counters since boot show 10.0%" \
	"advise-zone-reclaim-far: after apply, the knob is not counted as a fit on the old counters"
profile_roundtrip advise-knob-not-default

afixture advise-single-node
prun advise --profile adv
expect_out_has "[profile adv]
summary = Advised by numastatctl advise on advise-fixture" "--profile: the section header and a summary"
expect_out_has "; kernel.numa_balancing = 0: rule single-node-balancing (medium), now 1
; why: with one node there is nowhere to migrate pages or tasks to, so the
; hinting faults of NUMA balancing only cost time" "the reason as comments before the knob"
expect_out_has "; evidence: /proc/sys/kernel/numa_balancing: 1
; source: Documentation/admin-guide/sysctl/kernel.rst (numa_balancing)," "with the evidence and the source"
long=$(awk 'length($0) > 78' <<<"$OUT")
if [ -z "$long" ]; then ok "no line of the section is longer than 78 columns"; else not_ok "no line of the section is longer than 78 columns" "$long"; fi

afixture advise-remote-allocations
prun advise --profile adv
expect_out_has "; Also advised, beyond what a profile can set:
; remote-allocations: node 1: 33.3%" "advice without a knob follows as comments"
printf '%s\n' "$OUT" >"$ROOT.adv.conf"
trust "$ROOT.adv.conf"
run --config "$ROOT.adv.conf" apply --check adv
expect_rc 0 "a section without knobs is still one apply takes"

afixture advise-quiet
prun advise --profile base
expect_rc 0 "--profile on a quiet machine: exit 0"
expect_err "numastatctl: advise: warning: --profile base: the configuration already has a profile of that name; appending this section would add to it" \
	"a name the configuration already has: a warning"

# --- usage errors: one line, exit 2 ---
afixture advise-quiet
for bad in "--interval 0" "--interval -1" "--interval abc" "--interval 3601" "--interval nan" \
	"--rules --profile x" "--rules --interval 1" "--profile -bad" "--profile a/b" "extra"; do
	# shellcheck disable=SC2086
	prun advise $bad
	expect_rc 2 "advise $bad: exit 2"
done
prun advise --interval 0
expect_err "numastatctl: advise: --interval '0': expected seconds from 0.1 to 3600
Try 'numastatctl advise --help' for more information." "a bad interval says what is allowed"
prun -J advise --profile adv
expect_rc 2 "--profile with -J: exit 2"
expect_err_has "--profile prints a numastatctl.conf section, which has no JSON form" "saying why"
prun advise --profile "$(head -c 50 /dev/zero | tr '\0' p)"
expect_err_has "at most 41 characters" "a profile name too long for numastatctl.conf is refused"
prun advise --profile $'a\033[2Jb'
expect_err_has "--profile 'a\x1b[2Jb': invalid profile name" "a control character in a refused name is escaped"

# --- hostile and careless input ---
afixture advise-knob-not-default
printf '3\033[2J7\n' >"$ROOT/proc/sys/vm/min_slab_ratio"
prun advise
case "$OUT" in *$'\033'*) not_ok "an escape sequence in a knob file never reaches the terminal" "$OUT" ;; *) ok "an escape sequence in a knob file never reaches the terminal" ;; esac
expect_out_has '/proc/sys/vm/min_slab_ratio: 3\x1b[2J7' "it is escaped"

# A newline in what the evidence quotes (here a directory node_exporter
# names) must not forge a line of the --profile section.
afixture advise-single-node-not
echo 0 >"$ROOT/proc/sys/vm/numa_stat"
forged=$'x\nvm.zone_reclaim_mode=7'
mkdir -p "$ROOT/tmp/$forged"
touch "$ROOT/tmp/$forged/numastatctl.prom"
printf '/usr/bin/node_exporter\0--collector.textfile.directory=/tmp/%s\0' "$forged" >"$ROOT/proc/777/cmdline"
prun advise --profile adv
expect_out_has '; /tmp/x\x0avm.zone_reclaim_mode=7/numastatctl.prom (textfile collector)' \
	"the reader is named, its newline escaped"
if grep -q '^vm.zone_reclaim_mode' <<<"$OUT"; then not_ok "no line of the section is forged" "$OUT"; else ok "no line of the section is forged"; fi
printf '%s\n' "$OUT" >"$ROOT.adv.conf"
trust "$ROOT.adv.conf"
run --config "$ROOT.adv.conf" apply --check adv
line=$(grep -n '^vm.numa_stat = 1$' "$ROOT.adv.conf" | cut -d: -f1)
expect_out "vm.numa_stat is 0, profile adv wants 1 ($ROOT.adv.conf:$line)
profile adv: 1 knob differs" "apply --check sees the one advised knob and nothing forged"

# A hostname of control characters (sethostname(2) takes any 64 bytes):
# escaped, each is four columns; the section must still be one that
# numastatctl.conf reads back (lines of at most 199 characters).
afixture advise-single-node
head -c 64 /dev/zero | tr '\0' '\001' >"$ROOT/proc/sys/kernel/hostname"
echo >>"$ROOT/proc/sys/kernel/hostname"
prun advise --profile adv
expect_out_has 'summary = Advised by numastatctl advise on \x01\x01' "an odd hostname is escaped in the summary"
printf '%s\n' "$OUT" >"$ROOT.adv.conf"
trust "$ROOT.adv.conf"
run --config "$ROOT.adv.conf" apply --check adv
expect_rc 3 "and the section is still one apply takes"
expect_err "" "without a word about its lines"

afixture advise-quiet
printf '[profile broken\n' >"$CONF"
echo 37 >"$ROOT/proc/sys/vm/min_slab_ratio"
prun advise
expect_err "numastatctl: advise: warning: the configuration has problems ('numastatctl profiles' lists them): the rules that need it say so" \
	"a broken configuration: one warning"
expect_out_has "insufficient data: knob-not-default: vm.min_slab_ratio differs from the default, and the configuration has problems" \
	"and the rules that need it lack data rather than guess"

afixture advise-quiet
rm -r "$ROOT/sys/devices/system/node"
echo 0 >"$ROOT/proc/sys/kernel/numa_balancing"
prun advise
expect_err_has "no NUMA node (a kernel without CONFIG_NUMA?)" "no NUMA nodes: said on stderr"
expect_rc 0 "and the knobs alone judged (all at their defaults)"

afixture advise-single-node
prun -q advise
expect_rc 3 "-q: the exit status alone"
expect_out "" "and no output"

# advise changes nothing: every file of the tree is as before.
afixture advise-single-node
before=$(cd "$ROOT" && find . -type f -exec md5sum {} + | sort)
prun advise --interval 0.1
after=$(cd "$ROOT" && find . -type f -exec md5sum {} + | sort)
if [ "$before" = "$after" ]; then ok "advise writes nothing"; else not_ok "advise writes nothing" "$(diff <(echo "$before") <(echo "$after"))"; fi
check "and leaves no state directory" test ! -e "$STATE"

# A node list is never cut silently: 299 memory-only nodes are all named.
"$FIXTURES/gen-nodes.sh" "$TMP/cpuless300" 300 >/dev/null
ROOT=$TMP/cpuless300
echo 0 >"$ROOT/sys/devices/system/node/has_cpu"
run advise
expect_out_has "nodes with memory and no CPU (has_memory, not has_cpu): 1-299" \
	"300 nodes, 299 without CPUs: the list names every one"

done_testing
