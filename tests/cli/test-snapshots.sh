#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Counter snapshots: every vm.numa_stat 1 -> 0 keeps its own, however close
# together or parallel the runs; `snapshots` lists them; `stat --snapshot`
# shows one in every view (table, --compat, -J, --prometheus) exactly as
# `stat` showed those counters before the reset; `stat --since` adds them to
# the live counters.
. "$(dirname "$0")/lib.sh"

VM=proc/sys/vm
NODE=sys/devices/system/node
count_snapshots() { find "$1/snapshots" -name 'numastat-*.json' 2>/dev/null | wc -l; }

# Four resets in quick succession (well within a second each): four snapshots.
fixture sparse3
for i in 1 2 3 4; do
	run set vm.numa_stat=0
	run set vm.numa_stat=1
done
check "four 1 -> 0 changes in quick succession keep four snapshots" test "$(count_snapshots "$STATE")" = 4
names=$(ls "$STATE/snapshots")
check "named by their time to the nanosecond" \
	test "$(grep -cE '^numastat-[0-9]{8}T[0-9]{6}\.[0-9]{9}Z\.json$' <<<"$names")" = 4

# Eight parallel runs on eight trees, one state dir: eight snapshots.
fixture sparse3
roots=()
for i in $(seq 1 8); do
	roots+=("$ROOT.$i")
	cp -a "$ROOT" "$ROOT.$i"
done
pids=()
for r in "${roots[@]}"; do
	"$NUMASTATCTL" -S "$r" --state-dir "$STATE" set vm.numa_stat=0 >/dev/null 2>&1 &
	pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
check "eight parallel 1 -> 0 changes all succeed" test "$failed" = 0
check "and keep eight snapshots" test "$(count_snapshots "$STATE")" = 8
check "no temporary file is left" bash -c "! ls -A '$STATE/snapshots' | grep -q '^\\.'"

# What stat showed before the reset is what --snapshot shows after it.
fixture sparse3
run stat; before=$OUT
run stat --compat; before_compat=$OUT
run stat -J; before_json=$OUT
run stat -o NODE,LOCAL%,MISS% --nodes 0,5; before_cols=$OUT
run stat --prometheus; before_prom=$(grep -E '^numastatctl_numa_[a-z_]+_total' <<<"$OUT")
run snapshots
expect_rc 0 "snapshots with none saved yet exits 0"
expect_out "no counter snapshots in $STATE/snapshots (one is saved before vm.numa_stat goes from 1 to 0)" \
	"and says there are none, and when there will be"
run -J snapshots
check "-J: an empty array" python3 -c 'import json, sys; assert json.loads(sys.argv[1]) == {"snapshots": []}' "$OUT"
run stat --snapshot latest
expect_rc 1 "stat --snapshot latest with none saved exits 1"
expect_err "numastatctl: stat: --snapshot: no counter snapshots in $STATE/snapshots" "and says so"

run set vm.numa_stat=0
snap=$(ls "$STATE/snapshots")
# The kernel zeroes the counters; numa_stat=1 counts again from zero.
for n in 0 2 5; do
	printf 'numa_hit 10\nnuma_miss 1\nnuma_foreign 2\ninterleave_hit 3\nlocal_node 4\nother_node 5\n' \
		>"$ROOT/$NODE/node$n/numastat"
done
echo 1 >"$ROOT/$VM/numa_stat"

run snapshots
expect_rc 0 "snapshots lists what was saved"
when=$(sed -E 's/numastat-(....)(..)(..)T(..)(..)(..)\.([0-9]{9})Z\.json/\1-\2-\3T\4:\5:\6.\7Z/' <<<"$snap")
expect_out "NAME                                     TIME                           NODES
$snap $when 0,2,5" "name, time to the nanosecond, and nodes"
run -J snapshots
check "snapshots -J: name, time, nodes as numbers" python3 -c '
import json, sys
s = json.loads(sys.argv[1])["snapshots"]
assert s == [{"name": sys.argv[2], "time": sys.argv[3], "nodes": [0, 2, 5]}], s
' "$OUT" "$snap" "$when"
run snapshots -N
expect_out "$snap" "snapshots -N: names only"
run snapshots -N -J
expect_rc 0 "snapshots -N -J: JSON, not refused"
check "with the names only" python3 -c '
import json, sys
assert json.loads(sys.argv[1]) == {"snapshots": [{"name": sys.argv[2]}]}' "$OUT" "$snap"

run stat --snapshot latest
expect_rc 0 "stat --snapshot latest"
expect_out "$before" "shows the table stat showed before the reset"
run stat --snapshot "$snap" --compat
expect_out "$before_compat" "--compat: numastat's output of the counters before the reset"
run stat --snapshot "${snap%.json}" -J
# The same document, read at the snapshot's time (to the second).
at=$(sed -E 's/\.[0-9]{9}Z$/Z/' <<<"$when")
expect_out "$(sed -E "s/^   \"time\": \"[^\"]*\",$/   \"time\": \"$at\",/" <<<"$before_json")" \
	"-J, with the name given without .json: the counters before the reset, at the snapshot's time"
run stat --snapshot latest -o NODE,LOCAL%,MISS% --nodes 0,5
expect_out "$before_cols" "-o and --nodes work on the saved counters"
run stat --snapshot latest --prometheus
samples=$(grep -v '^#' <<<"$OUT")
want="$before_prom
numastatctl_textfile_timestamp_seconds $(date -u -d "$when" +%s)"
if [ "$samples" = "$want" ]; then ok "--prometheus: the counter families as of the snapshot's time, and nothing live"
else not_ok "--prometheus: the counter families as of the snapshot's time, and nothing live" "samples:" "$samples" "want:" "$want"; fi

run stat --since latest -J --nodes 2
check "--since adds the saved counts to the live ones" python3 -c '
import json, sys
n = json.loads(sys.argv[1])["nodes"]
assert n == [{"node": 2, "numa_hit": 5100032, "numa_miss": 3301, "numa_foreign": 122,
              "interleave_hit": 2213, "local_node": 5080004, "other_node": 23347}], n
' "$OUT"
run stat --since latest --compat
expect_out_has "numa_hit                 7300021         5100032          410013" "--since in --compat"
run stat --since latest --textfile "$TMP"
expect_rc 0 "--since may feed a textfile: its counters never run backwards across the reset"
check "and writes it" grep -q 'numastatctl_numa_hit_total{node="5"} 410013' "$TMP/numastatctl.prom"
run stat --since latest --prometheus
expect_out_has 'numastatctl_numa_hit_total{node="5"} 410013' "--since in --prometheus"
expect_out_has 'numastatctl_knob_value{knob="vm.numa_stat"} 1' "with the live knobs"

# A node that is gone: its saved counts cannot be shown, and that is said.
rm -r "$ROOT/$NODE/node5"
run stat --since latest
expect_rc 0 "--since with a node gone since the snapshot"
expect_err "numastatctl: stat: warning: node 5 of snapshot $snap is not here: its saved counts are left out" \
	"warns about the node that is gone"
run stat --snapshot latest --nodes 5
expect_rc 0 "--snapshot still shows the node that is gone"
run stat --snapshot latest --nodes 7
expect_rc 2 "--nodes naming a node the snapshot lacks"
expect_err "numastatctl: stat: --nodes: node 7: not in snapshot $snap" "names it"

# Refusals: what a snapshot cannot answer, names that are not snapshots.
for args in "--snapshot latest -m" "--since latest 1 3" "--snapshot latest --pid 1" \
	"--snapshot latest --since latest" "--snapshot latest --compat=m" \
	"--snapshot latest --textfile $TMP"; do
	# shellcheck disable=SC2086
	run stat $args
	expect_rc 2 "stat $args is a usage error"
done
run stat --snapshot ../../etc/passwd
expect_rc 2 "a path is not a snapshot name"
expect_err "numastatctl: stat: --snapshot: '../../etc/passwd': not a snapshot name (see 'numastatctl snapshots')" \
	"and says where to find names"
run stat --snapshot numastat-20200101T000000.000000000Z
expect_rc 2 "a snapshot that does not exist is a usage error"
expect_err_has "numastat-20200101T000000.000000000Z.json: No such file or directory" "naming it"
run stat --snapshot numastat-20200231T000000Z
expect_rc 2 "a name with an impossible date is not a snapshot name"

# A damaged snapshot: named with what is wrong, never half shown.
fixture sparse3
run set vm.numa_stat=0
snap=$(ls "$STATE/snapshots")
sed -i 's/"numa_hit": 7300011/"numa_hit": -1/' "$STATE/snapshots/$snap"
run stat --snapshot latest
expect_rc 1 "a damaged snapshot exits 1"
expect_err_has "$STATE/snapshots/$snap: byte " "naming the file and where it breaks"
expect_out "" "and prints no table"
run snapshots
expect_rc 1 "snapshots lists a damaged one and exits 1"
expect_out_has "$snap" "still listing its name"
# Snapshots from before nanosecond names are still found.
printf '{"nodes": [{"node": 0, "numa_hit": 1, "numa_miss": 2, "numa_foreign": 3, "interleave_hit": 4, "local_node": 5, "other_node": 6}]}\n' \
	>"$STATE/snapshots/numastat-20200101T000000Z.json"
run stat --snapshot numastat-20200101T000000Z -J
check "a one-second name of an older version reads back" python3 -c '
import json, sys
assert json.loads(sys.argv[1])["nodes"][0]["local_node"] == 5
' "$OUT"
run snapshots -N
expect_out "numastat-20200101T000000Z.json
$snap" "and sorts by time with the others"

# More nodes and counters than a snapshot can hold (1 MiB; a dump says
# what it likes): the reset is refused before anything is written, never
# saved to a snapshot that stat --since would then refuse to read.
ROOT=$TMP/n2048 STATE=$TMP/n2048.state
"$FIXTURES/gen-nodes.sh" "$ROOT" 2048 >/dev/null
extra=
for c in a b c d e f g h i j; do extra+="extra_counter_$c 123456789012"$'\n'; done
for f in "$ROOT"/sys/devices/system/node/node*/numastat; do printf '%s' "$extra" >>"$f"; done
run set vm.numa_stat=0
expect_rc 1 "2048 nodes of 16 counters: numa_stat 1 -> 0 is refused"
expect_err "numastatctl: set: vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters: the counters of 2048 nodes make a snapshot larger than 1024 KiB, which stat --since could not read back (use --no-snapshot to go ahead without a snapshot)" \
	"in one line, with the way out"
expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "numa_stat stays 1"
check "no snapshot and no temporary file is left" test -z "$(ls -A "$STATE/snapshots")"

done_testing
