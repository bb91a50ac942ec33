#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --balancing: the NUMA balancing and migration counters, machine-wide
# or per node as the fixture's kernel keeps them, in every output form.
. "$(dirname "$0")/lib.sh"

NODE_DIR=sys/devices/system/node

# vmstat FILE KEY VALUE...: rewrite counters in place, in one write and at
# the same length, as the kernel's file changes under a reader that keeps it open.
vmstat() {
	local file=$ROOT/$1 script=''

	shift
	while [ $# -ge 2 ]; do
		script="$script s/^$1 [0-9]+\$/$1 $2/;"
		shift 2
	done
	sed -E "$script" "$file" >"$TMP/vmstat.new"
	dd if="$TMP/vmstat.new" of="$file" conv=notrunc status=none
}

untimed() {
	sed -E 's/ at [0-9]{2}:[0-9]{2}:[0-9]{2}:/ at T:/; s/since [0-9]{2}:[0-9]{2}:[0-9]{2}:/since T:/
		s/ over [0-9.]+ s$/ over S s/; s/"seconds": ?[0-9.]+/"seconds":S/g
		s/"(time|since)": ?"[^"]*"/"\1":"T"/g'
}

fixture effect-6.1
run stat --balancing
expect_rc 0 "stat --balancing on a 6.1-style tree exits 0"
expect_out "NUMA balancing counters: machine-wide (/proc/vmstat, row all)
NODE NUMA_PTE_UPDATES NUMA_HUGE_PTE_UPDATES NUMA_HINT_FAULTS NUMA_HINT_FAULTS_LOCAL HINT_LOCAL% NUMA_PAGES_MIGRATED PGMIGRATE_SUCCESS PGMIGRATE_FAIL
 all             9216                    12             8200                   2050        25.0                6150              6404              3" \
	"one machine row: the kernel keeps these counters machine-wide; HINT_LOCAL% is local/all hint faults"
expect_err "" "nothing on stderr"

run -J stat --balancing
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out '{
   "time":"T",
   "balancing": [
      {
         "node": null,
         "scope": "all",
         "numa_pte_updates": 9216,
         "numa_huge_pte_updates": 12,
         "numa_hint_faults": 8200,
         "numa_hint_faults_local": 2050,
         "hint_local_pct": 25.0,
         "numa_pages_migrated": 6150,
         "pgmigrate_success": 6404,
         "pgmigrate_fail": 3
      }
   ]
}' "-J: when it was read; node null and scope all mark the machine-wide row"

run stat --balancing -o node,hint_local%,numa_pages_migrated -n -r
expect_out "all 25.0 6150" "-o picks columns by name, case-insensitive; -n -r"
run stat --balancing -o HINT_LOCAL%
expect_out "NUMA balancing counters: machine-wide (/proc/vmstat, row all)
NODE HINT_LOCAL%
 all        25.0" "NODE always comes first, so a row says what it is"
run stat --balancing -o +zzz
expect_rc 2 "an unknown -o column exits 2"
expect_err_has "-o: unknown column 'zzz' for --balancing: NODE, NUMA_PTE_UPDATES," \
	"naming the column and the view's columns"
run stat --balancing --sort bogus
expect_rc 2 "an unknown --sort column exits 2"
run stat --balancing -o NUMA_HINT_FALTS
expect_err "numastatctl: stat: -o: unknown column 'NUMA_HINT_FALTS' for --balancing: did you mean NUMA_HINT_FAULTS?
Try 'numastatctl stat --help' for more information." "a misspelt column gets a suggestion"
run stat --balancing --nodes 5
expect_rc 2 "--nodes naming an absent node exits 2"
expect_err "numastatctl: stat: --nodes: node 5: no such node here (nodes here: 0-3)" "saying which"

# A kernel without some counters: the column goes, and one line names it.
fixture effect-6.1
sed -i '/^numa_huge_pte_updates /d' "$ROOT/proc/vmstat"
run stat --balancing
expect_out "NUMA balancing counters: machine-wide (/proc/vmstat, row all); not on this kernel: numa_huge_pte_updates
NODE NUMA_PTE_UPDATES NUMA_HINT_FAULTS NUMA_HINT_FAULTS_LOCAL HINT_LOCAL% NUMA_PAGES_MIGRATED PGMIGRATE_SUCCESS PGMIGRATE_FAIL
 all             9216             8200                   2050        25.0                6150              6404              3" \
	"a counter the kernel lacks is named, not shown as 0"
run stat --balancing -o NODE,NUMA_HUGE_PTE_UPDATES -r
expect_out "NUMA balancing counters: machine-wide (/proc/vmstat, row all); not on this kernel: numa_huge_pte_updates
NODE NUMA_HUGE_PTE_UPDATES
all " "asked for by -o, a missing counter is an empty cell"

# CONFIG_NUMA_BALANCING=n and CONFIG_MIGRATION=n: none of them.
fixture effect-6.1
sed -i -E '/^(numa_(pte|huge|hint|pages)|pgmigrate_)/d' "$ROOT/proc/vmstat"
run stat --balancing
expect_rc 0 "a kernel without NUMA balancing is not an error"
expect_out "NUMA balancing counters: none on this kernel" "it says so in one line, and has no table"
run -J stat --balancing
check "-J: an empty list" python3 -c 'import json, sys; assert json.load(sys.stdin)["balancing"] == []' <<<"$OUT"

# A kernel that kept them per node would get node rows and the machine row.
fixture effect-6.1
for n in 0 1 2 3; do
	printf 'numa_hint_faults %d\nnuma_hint_faults_local %d\n' $((1000 * (n + 1))) $((100 * n)) \
		>>"$ROOT/$NODE_DIR/node$n/vmstat"
done
run stat --balancing -o NODE,NUMA_HINT_FAULTS,NUMA_HINT_FAULTS_LOCAL,HINT_LOCAL%,NUMA_PAGES_MIGRATED
expect_out "NUMA balancing counters: per node (nodeN/vmstat): numa_hint_faults, numa_hint_faults_local; machine-wide only (/proc/vmstat, row all): numa_pte_updates, numa_huge_pte_updates, numa_pages_migrated, pgmigrate_success, pgmigrate_fail
NODE NUMA_HINT_FAULTS NUMA_HINT_FAULTS_LOCAL HINT_LOCAL% NUMA_PAGES_MIGRATED
   0             1000                      0         0.0 
   1             2000                    100         5.0 
   2             3000                    200         6.7 
   3             4000                    300         7.5 
 all             8200                   2050        25.0                6150" \
	"per-node counters get node rows; machine-wide ones only the all row"
run stat --balancing --nodes 1,3 -o NODE,NUMA_HINT_FAULTS -r -n
expect_out "1 2000
3 4000
all 8200" "--nodes selects the node rows; the all row stays machine-wide"
run stat --balancing --sort NUMA_HINT_FAULTS -o NODE,NUMA_HINT_FAULTS -r -n
expect_out "3 4000
2 3000
1 2000
0 1000
all 8200" "--sort orders node rows, largest first; the all row stays last"
run stat --balancing --prometheus
case "$OUT" in *'numastatctl_numa_hint_faults_total{node="2"} 3000'*'numastatctl_numa_pages_migrated_total 6150'*)
	ok "--prometheus: node labels where the kernel keeps a counter per node, none where not" ;;
*) not_ok "--prometheus: node labels where the kernel keeps a counter per node, none where not" "$OUT" ;;
esac

fixture effect-6.1
run stat --balancing --prometheus
expect_rc 0 "--prometheus exits 0"
case "$OUT" in *'# HELP numastatctl_numa_hint_faults_total NUMA hinting faults taken (machine-wide, /proc/vmstat numa_hint_faults).
# TYPE numastatctl_numa_hint_faults_total counter
numastatctl_numa_hint_faults_total 8200'*) ok "--prometheus: our namespace, counters _total" ;;
*) not_ok "--prometheus: our namespace, counters _total" "$OUT" ;;
esac
if have promtool prometheus; then
	printf '%s\n' "$OUT" >"$TMP/b.prom"
	check "promtool check metrics finds nothing" promtool check metrics <"$TMP/b.prom"
fi
mkdir "$TMP/tf"
run stat --balancing --textfile "$TMP/tf"
expect_rc 0 "--textfile exits 0"
expect_out "" "--textfile alone prints nothing"
check "--textfile writes numastatctl-balancing.prom, beside the table's numastatctl.prom" \
	grep -q '^numastatctl_numa_pages_migrated_total 6150$' "$TMP/tf/numastatctl-balancing.prom"
# One --textfile writer for every view: a file name where the directory
# belongs is the same usage error as the counter table's.
run stat --balancing --textfile "$TMP/tf/numastatctl-balancing.prom"
expect_rc 2 "--textfile naming the view's file is a usage error"
expect_err "numastatctl: stat: --textfile $TMP/tf/numastatctl-balancing.prom: not a directory (the option takes the directory to write numastatctl-balancing.prom in)" \
	"naming the file the view writes"
run stat --tiers --textfile "$TMP/tf/new.prom"
expect_rc 2 "--textfile DIR/new.prom is a usage error"
expect_err_has "expected a directory, not a file name (numastatctl-tiers.prom is written in the directory)" \
	"whichever view"

# Interval mode: deltas, HINT_LOCAL% of the interval, rates, JSON lines, totals.
fixture effect-6.1
run stat --balancing 0.01 2 -r --totals
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out "NUMA balancing counters: machine-wide (/proc/vmstat, row all)
sample 1 at T: changes over S s
NODE NUMA_PTE_UPDATES NUMA_HUGE_PTE_UPDATES NUMA_HINT_FAULTS NUMA_HINT_FAULTS_LOCAL HINT_LOCAL% NUMA_PAGES_MIGRATED PGMIGRATE_SUCCESS PGMIGRATE_FAIL
all 0 0 0 0  0 0 0

sample 2 at T: changes over S s
NODE NUMA_PTE_UPDATES NUMA_HUGE_PTE_UPDATES NUMA_HINT_FAULTS NUMA_HINT_FAULTS_LOCAL HINT_LOCAL% NUMA_PAGES_MIGRATED PGMIGRATE_SUCCESS PGMIGRATE_FAIL
all 0 0 0 0  0 0 0

total since T: changes over S s
NODE NUMA_PTE_UPDATES NUMA_HUGE_PTE_UPDATES NUMA_HINT_FAULTS NUMA_HINT_FAULTS_LOCAL HINT_LOCAL% NUMA_PAGES_MIGRATED PGMIGRATE_SUCCESS PGMIGRATE_FAIL
all 0 0 0 0  0 0 0" "unchanged counters: zero deltas and no locality (nothing faulted)"

fixture effect-6.1
start stat --balancing -r -o NODE,NUMA_HINT_FAULTS,HINT_LOCAL%,NUMA_PAGES_MIGRATED --totals 0.2
wait_for "$TMP/bg.out" "sample 1 at"
vmstat proc/vmstat numa_hint_faults 8300 numa_hint_faults_local 2140 numa_pages_migrated 6160
check "hint faults and migrations in an interval show as deltas, locality of that interval" \
	wait_for "$TMP/bg.out" "all 100 90.0 10"
vmstat proc/vmstat numa_hint_faults 8200
check "a counter going down is said, not shown as a huge delta" \
	wait_for "$TMP/bg.err" "/proc/vmstat: counters went down"
stop
expect_rc 130 "Ctrl-C ends it by SIGINT"
expect_err_has "numastatctl: stat: stopped by SIGINT after " "saying so in one line, as the counter table does"
check "in the counter table's words, with --totals no hint" \
	grep -qxE "numastatctl: stat: stopped by SIGINT after [0-9]+ samples? over [0-9.]+ s" <<<"$ERR"
total=$(printf '%s\n' "$OUT" | sed -n '/^total since/,$p')
expect_total="NODE NUMA_HINT_FAULTS HINT_LOCAL% NUMA_PAGES_MIGRATED
all 100 90.0 10"
case "$total" in *"$expect_total") ok "the totals sum the intervals before the reset" ;;
*) not_ok "the totals sum the intervals before the reset" "$total" ;; esac

fixture effect-6.1
start stat --balancing 0.2
wait_for "$TMP/bg.out" "sample 1 at"
stop
expect_rc 130 "Ctrl-C ends a run without --totals by SIGINT"
check "in one line that says how to get the totals" grep -qxE \
	"numastatctl: stat: stopped by SIGINT after [0-9]+ samples? over [0-9.]+ s \(--totals prints the totals since the start\)" <<<"$ERR"

fixture effect-6.1
run -J stat --balancing --rate -o NODE,NUMA_HINT_FAULTS 0.01 1 --totals
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out '{"sample":1,"time":"T","seconds":S,"balancing":[{"node":null,"scope":"all","numa_hint_faults":0.00,"reset":false}]}
{"since":"T","seconds":S,"balancing":[{"node":null,"scope":"all","numa_hint_faults":0.00}]}' \
	"-J --rate --totals: one JSON line per sample, rates with two decimals, then the totals"
run -J stat --balancing 0.01 1 -o NODE
check "without --totals, only the samples" test "$(printf '%s\n' "$OUT" | grep -c '')" = 1
run stat --balancing -t 0.01 1
expect_rc 2 "-t with a view exits 2: its samples are tables titled with their time"

# Errors.
fixture effect-6.1
rm "$ROOT/proc/vmstat"
run stat --balancing
expect_rc 1 "no /proc/vmstat exits 1"
expect_err "numastatctl: stat: /proc/vmstat: file is missing" "naming the file"
fixture effect-6.1
printf 'numa_hint_faults 12x\n' >>"$ROOT/proc/vmstat"
run stat --balancing
expect_rc 1 "a malformed /proc/vmstat exits 1"
expect_err_has "/proc/vmstat: line " "with the line"
fixture effect-6.1
printf 'numa_hint_faults 1\n' >>"$ROOT/proc/vmstat"
run stat --balancing
expect_rc 1 "a counter twice exits 1"
expect_err_has "counter appears twice" "saying so"
rm "$ROOT/proc/vmstat"
mkdir "$ROOT/proc/vmstat"
run stat --balancing
expect_rc 1 "/proc/vmstat as a directory exits 1"
expect_err "numastatctl: stat: /proc/vmstat: Is a directory" "saying so"
rmdir "$ROOT/proc/vmstat"
mkfifo "$ROOT/proc/vmstat"
run stat --balancing
expect_rc 1 "/proc/vmstat as a FIFO in a dump exits 1, and does not hang"
expect_err_has "not a regular file" "saying so"
fixture effect-6.1
run stat --balancing -r -o "$(printf 'NUMA_PTE_UPDATES,%.0s' $(seq 31))PGMIGRATE_FAIL"
expect_rc 0 "-o with 32 columns, NODE put in front of them, exits 0"
check "and shows 33 columns" test "$(printf '%s\n' "$OUT" | sed -n 2p | wc -w)" = 33
run stat --balancing -o "$(printf 'NUMA_PTE_UPDATES,%.0s' $(seq 32))PGMIGRATE_FAIL"
expect_rc 2 "-o with 33 columns exits 2"
expect_err_has "-o: too many columns at 'PGMIGRATE_FAIL' for --balancing" "saying so"
run stat --balancing -m
expect_rc 2 "--balancing -m exits 2"
expect_err_has "--balancing is a view of its own: it excludes -m, --compat, --pid, --snapshot, --since and --prometheus-names" "saying why"
run stat --balancing --since latest
expect_rc 2 "--balancing --since exits 2: snapshots hold the counter table's counters"
run stat --balancing 1 --prometheus
expect_rc 2 "--balancing with an interval and --prometheus exits 2"

# status: one line on what balancing does.
fixture effect-6.1
run status
expect_out_has "NUMA balancing: on (normal|tiering); since boot 8200 hint faults, 25.0% local, 6150 pages migrated, 320 promoted" \
	"status says balancing is on, in which mode, and what it did"
if have script bsdutils; then
	script -qec "stty cols 80; '$NUMASTATCTL' --sysroot '$ROOT' status" /dev/null </dev/null >"$TMP/tty"
	long=$(tr -d '\r' <"$TMP/tty" | awk 'length($0) > 80')
	check "status on an 80-column terminal: the balancing line folds, no line is wider ($long)" test -z "$long"
	check "and its words are all there" grep -q "^  6150 pages migrated, 320 promoted" <(tr -d '\r' <"$TMP/tty")
fi
fixture effect-5.10
run status
expect_out_has "NUMA balancing: off
" "status: off, and nothing since boot to tell"
fixture effect-6.1
echo 0 >"$ROOT/proc/sys/kernel/numa_balancing"
run status
expect_out_has "NUMA balancing: off (since boot 8200 hint faults, 25.0% local, 6150 pages migrated, 320 promoted)" \
	"status: off now, with what it did while it was on"
rm "$ROOT/proc/sys/kernel/numa_balancing"
run status
expect_out_has "NUMA balancing: not on this kernel (no kernel.numa_balancing)" \
	"status: a kernel without NUMA balancing"
run -J status
expect_out_lacks "NUMA balancing" "status -J prints only its JSON"
fixture effect-6.1
printf '3\033[2J\n' >"$ROOT/proc/sys/kernel/numa_balancing"
run status
expect_out_has 'NUMA balancing: on (not a number); since boot' "a dump's junk knob value is described, not echoed"
case "$OUT" in *$'\033'*) not_ok "status: no raw ESC reaches the terminal" "$OUT" ;; *) ok "status: no raw ESC reaches the terminal" ;; esac
run stat --tiers
expect_out_has 'promotion: on (kernel.numa_balancing = 3\x1b[2J)' "in the --tiers line too"
case "$OUT" in *$'\033'*) not_ok "no raw ESC reaches the terminal" "$OUT" ;; *) ok "no raw ESC reaches the terminal" ;; esac

done_testing
