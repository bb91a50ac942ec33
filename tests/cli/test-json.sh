#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every -J output against its JSON Schema (schemas/*.json, draft 2020-12,
# read by tests/json-schema.py with python3-jsonschema), and the schemas'
# own examples against them.  lib.sh also checks every -J run of every
# script against the schema of its command when the script ends.  selftest
# and bench run on the live system: test-selftest-live and test-bench-live
# check theirs.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"
python3 -c 'import jsonschema' 2>/dev/null || missing_all "python3-jsonschema is not installed" python3-jsonschema

PAGE=$SOURCE_ROOT/man/numastatctl.8.scd
CHECKER=$SOURCE_ROOT/tests/json-schema.py

# schema PART [--lines] [--partial] DESC: $OUT matches PART's schema.
schema() {
	local part=$1 desc=${*: -1} why
	if why=$(python3 "$CHECKER" "$PAGE" "$part" "${@:2:$#-2}" <<<"$OUT" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc" "$why" "output:" "$OUT"
	fi
}

check "every schema is draft 2020-12 and its examples match it" python3 "$CHECKER" "$SOURCE_ROOT/schemas" --examples
# One place lists the schemas (installed, and the page's parts in order).
unlisted=$(cd "$SOURCE_ROOT/schemas" && for f in *.json; do
	grep -q "^  '$f',\$" meson.build || echo "$f"
done)
check "every schemas/*.json is listed in schemas/meson.build" test -z "$unlisted"
# The page's parts come from the schemas: a part written in the older
# shorthand (scripts/json-schema-from-page turns one into a schema file)
# would be a second, unchecked source.
check "numastatctl(8) has no JSON schema of its own (they are schemas/*.json)" \
	bash -c '! grep -q "^; json: " "$1"' _ "$PAGE"
# refuses PART DESC: the checker rejects $OUT for PART (it is no rubber stamp).
refuses() {
	if python3 "$CHECKER" "$PAGE" "$1" <<<"$OUT" >"$TMP/why" 2>&1; then
		not_ok "$2" "accepted: $OUT"
	else
		ok "$2"
	fi
}
OUT='{"knobs": [{"knob": "vm.numa_stat", "value": "1"}]}'
refuses get "the checker refuses an unknown key ('knob' for 'name')"
OUT='{"knobs": [{"name": "vm.numa_stat"}]}'
refuses status "the checker refuses a missing key"
OUT='{"knobs": [{"name": "vm.numa_stat", "value": 1}]}'
refuses get "the checker refuses a number where a string belongs"
OUT='{"checks": [{"result": "PASS", "check": "x", "node": null, "cpu_node": null, "counter": null, "delta": null, "want": null, "note": null}]}'
refuses selftest "the checker refuses a word outside an enumeration"
OUT='{"time": "T", "nodes": [{"node": 0}], "total": {}}'
refuses stat "the checker refuses an object without its keys"
OUT='{"knobs": [{"name": "vm.numa_stat", "value": "1", "colour": "red"}]}'
refuses get "the checker refuses a key the schema does not name (additionalProperties: false)"
# The runs lib.sh records: a broken document of a recorded run fails too.
mkdir -p "$TMP/broken-runs"
printf '%s\0' -J get vm.numa_stat >"$TMP/broken-runs/0.argv"
echo '{"knobs": [{"knob": "vm.numa_stat", "value": "1"}]}' >"$TMP/broken-runs/0.out"
if python3 "$CHECKER" "$SOURCE_ROOT/schemas" --runs "$TMP/broken-runs" >"$TMP/why" 2>&1; then
	not_ok "a recorded -J run with a broken document fails the check" "accepted"
else
	check "a recorded -J run with a broken document fails the check, naming the schema" \
		grep -q "matches none of get.json" "$TMP/why"
fi

fixture sparse3
CONF=$TMP/json.conf
cat >"$CONF" <<'CONF'
[numastatctl]
profile = tuned
[profile base]
summary = the base
vm.zone_reclaim_mode = 0
[profile tuned]
include = base
summary = tuned
vm.min_slab_ratio = 5
-vm.zone_distribute_mode = 1
CONF
chmod 0644 "$CONF"
echo 0 >"$ROOT/proc/sys/vm/numa_stat"
run --config "$CONF" -J status
schema status "status -J, with drift and a warning"
run --config "$TMP/none.conf" -J status
schema status "status -J, the configuration broken"

run --config "$CONF" -J advise
schema advise "advise -J"
run -J advise --rules
schema "advise --rules" "advise --rules -J"

SAVED_ROOT=$ROOT
ROOT=$TMP/placement-root
"$FIXTURES/gen-placement.sh" "$ROOT" procs
run -J placement --pid 100 --pid 300 --cgroup '*.service' --check
schema placement "placement -J: processes and cgroups, --check"
run -J placement --pid 500
schema placement "placement -J: without --check"
ROOT=$TMP/containers-root
"$FIXTURES/gen-containers.sh" "$ROOT" systemd
run -J placement --container '*' --check
schema placement "placement -J: containers and pods, with and without an assignment"
ROOT=$SAVED_ROOT
run -J get
schema get "get -J"
run -J set vm.min_slab_ratio=9 vm.zone_reclaim_mode=0
schema "set, apply, revert" "set -J"
run -J revert
schema "set, apply, revert" "revert -J"
run --config "$CONF" -J apply --dry-run
schema "set, apply, revert" "apply --dry-run -J, a skipped knob among them"
run --config "$CONF" -J apply --check
schema "set, apply, revert" "apply --check -J"

fixture sparse3
run -J stat
schema stat "stat -J"
run -J stat -o NODE,LOCAL%,MISS% -z
schema stat --partial "stat -J -o, fewer columns"
run -J stat -o "$(help_columns stat)"
schema stat --partial "stat -J -o, every column stat --help lists"
run -J stat -m
schema "stat -m" "stat -m -J"
run -J stat 0.01 2 --totals
schema "stat INTERVAL" --lines "stat INTERVAL -J --totals, each line"
run -J stat 0.01 1 --rate
schema "stat INTERVAL" --lines "stat INTERVAL -J --rate"
run -J stat 0.01 2 --totals -o "$(help_columns stat)"
schema "stat INTERVAL" --lines "stat INTERVAL -J --totals, every column stat --help lists"

run set vm.numa_stat=0
echo 1 >"$ROOT/proc/sys/vm/numa_stat"
run -J snapshots
schema snapshots "snapshots -J"
run -J stat --snapshot latest
schema stat "stat --snapshot -J"
run -J stat --since latest
schema stat "stat --since -J"

fixture pid-procs
run -J stat --pid 4242
schema "stat --pid" "stat --pid -J"

# The views of what the knobs do: one-shot, and a line per sample with the totals.
fixture effect-6.1
run -J status
schema status "status -J with NUMA balancing on and its counters"
run -J stat --cgroup nginx.service
schema "stat --cgroup" "stat --cgroup -J, one cgroup"
# Every view an option picks, from the build's list: its schema, and the
# interval schema whose heading names it.
view_arg() {
	case $1 in
	cgroup) echo '*.service' ;;
	*) echo "Bail out! view $1 takes an argument: give test-json one"; exit 1 ;;
	esac
}
while IFS=$'\t' read -r name opt arg; do
	args=("$opt")
	[ "$arg" = required ] && args+=("$(view_arg "$name")")
	run -J stat "${args[@]}"
	schema "stat $opt" "stat ${args[*]} -J"
	part=$(sed -n "s/^  \"title\": \"\(stat .*$opt[,]* .*INTERVAL\)\",$/\1/p" "$SOURCE_ROOT"/schemas/*.json)
	run -J stat "${args[@]}" --rate 0.01 2 --totals
	schema "${part:-stat $opt INTERVAL}" --lines "stat ${args[*]} INTERVAL --totals -J"
done < <(awk -F'\t' '$1 == "view" && $3 != "-" { print $2 "\t" $3 "\t" $4 }' "$OPTIONS_LIST")
fixture effect-5.10
run -J status
schema status "status -J with NUMA balancing off"

fixture sparse3
run --config "$CONF" -J profiles
schema profiles "profiles -J"
run --config "$CONF" -J profiles tuned
schema "profiles NAME" "profiles NAME -J"
run -J knobs
schema knobs "knobs -J, every knob"
run -J knobs -N
schema knobs --partial "knobs -N -J"
check "knobs -N -J: the names only" python3 -c '
import json, sys
assert all(list(k) == ["name"] for k in json.loads(sys.argv[1])["knobs"])' "$OUT"

# One word for one thing: the knob is "name" and its live value "value" in
# get, status and advise; a profile's value is "wants"; advise's "recommended".
run -J get
schema get "get -J"
run -J get -N
schema get "get -N -J"
check "get -N -J: objects with the name only" python3 -c '
import json, sys
d = json.loads(sys.argv[1])["knobs"]
assert d and all(list(k) == ["name"] for k in d), d' "$OUT"
run -J get -n vm.min_slab_ratio
schema get "get -n -J"
expect_out '{
   "knobs": [
      {
         "value": "37"
      }
   ]
}' "get -n -J: objects with the value only"
run --config "$CONF" -J profiles tuned
check "profiles NAME -J says name and wants, never key or value" python3 -c '
import json, sys
k = {e["name"]: e for e in json.loads(sys.argv[1])["keys"]}
assert k["vm.min_slab_ratio"]["wants"] == "5", k
assert all("key" not in e and "value" not in e for e in k.values()), k' "$OUT"
run --config "$CONF" -J advise
check "advise -J: value is the live value, recommended the advised one" python3 -c '
import json, sys
for a in json.loads(sys.argv[1])["advice"]:
	assert "current" not in a, a
	if a["rule"] == "knob-not-default" and a["name"] == "vm.min_unmapped_ratio":
		assert (a["value"], a["recommended"]) == ("13", "1"), a
		break
else:
	raise SystemExit("no knob-not-default advice on vm.min_unmapped_ratio")' "$OUT"
mkdir -p "$STATE/snapshots"
run -J snapshots -N
schema snapshots --partial "snapshots -N -J"

# Trials, with the fake systemd-run of tests/cli/fake-systemd.
PATH=$(cd "$(dirname "$0")/fake-systemd" && pwd):$PATH
export FAKE_SYSTEMD=$TMP/systemd
mkdir -p "$FAKE_SYSTEMD"
fixture sparse3
mkdir -p "$ROOT/run/systemd/system"
run -J status
schema status "status -J without a trial (trial null)"
run -J set --try 20s --baseline 3s vm.zone_reclaim_mode=1
schema "set, apply, revert" "set --try -J"
run -J status
schema status "status -J while a trial runs"
run -J trial
schema trial "trial -J while it runs"
run -J confirm
schema confirm "confirm -J"
run -J trial
schema trial "trial -J after the confirm"
run -J confirm
schema confirm "confirm -J of a trial confirmed already: the one document"
# revert -J of a running trial; the armed revert --trial -J, and once more.
run -J set --try 20s --baseline 0 vm.zone_reclaim_mode=2
run -J revert
schema "set, apply, revert" "revert -J that ends a trial: the one document"
run -J set --try 20s --baseline 0 vm.zone_reclaim_mode=2
mapfile -t armed <"$(ls -t "$FAKE_SYSTEMD"/*.cmd | head -n 1)"
for round in "reverts" "has nothing to do"; do
	OUT=$("${armed[0]}" -J "${armed[@]:1}" 2>"$TMP/err")
	schema "set, apply, revert" "revert --trial -J that $round: the one document"
done
OUT='{"trial": null, "knobs": []}'
refuses confirm "the checker refuses null where confirm's trial is an object"

done_testing
