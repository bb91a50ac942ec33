#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# knobs: the registry as a table, JSON, column selection, names and choices.
. "$(dirname "$0")/lib.sh"

# A tree with one knob only, one the running kernel cannot have: PRESENT
# must come from the sysroot, not from the host.
# knobs -o NAME,PRESENT on knobs-few (tests/expected/knobs-command/present.out).
golden_run knobs-command/present.out
expect_rc 0 "knobs succeeds"
expect_golden knobs-command/present.out "every registry knob, in registry order; PRESENT reads the sysroot"

run knobs -J vm.numa_stat zone_distribute_mode
expect_out '{
   "knobs": [
      {
         "name": "vm.numa_stat",
         "type": "bool",
         "values": [
            "0",
            "1"
         ],
         "min": null,
         "max": null,
         "default": "1",
         "present": false,
         "since": "4.15",
         "description": "count NUMA allocation events (numa_hit, numa_miss, local_node, ...)",
         "note": "setting 0 zeroes every NUMA counter on every node; counting restarts from 0 at 1",
         "nodes": null
      },{
         "name": "vm.zone_distribute_mode",
         "type": "int",
         "values": [],
         "min": 0,
         "max": 2147483647,
         "default": "1",
         "present": true,
         "since": "never merged (2013 RFC)",
         "description": "fair zone allocator policy: OR of 1 local zones, 2 remote nodes, 4 slab (v1 bits)",
         "note": "only on kernels that carry the 2013 zone allocator policy patches",
         "nodes": null
      }
   ]
}' "-J prints the named knobs with every column: values an array, min and max numbers, present a boolean"
run knobs -J -o name,values zone_reclaim_mode
expect_out '{
   "knobs": [
      {
         "name": "vm.zone_reclaim_mode",
         "values": [
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "7",
            "reclaim",
            "write",
            "unmap"
         ]
      }
   ]
}' "-J values: what --choices prints, as an array"

# Lines for shells have no JSON form: refused, not printed as text.
run -J knobs --choices vm.numa_stat
expect_rc 2 "knobs --choices -J is a usage error"
expect_out "" "knobs --choices -J prints nothing on stdout"
expect_err "numastatctl: knobs: --choices has no JSON form: it prints plain lines for shells ('knobs -J' gives each knob's \"values\")
Try 'numastatctl knobs --help' for more information." "knobs --choices -J says where the JSON is"
run -J knobs -N vm.numa_stat mm.numa.demotion_enabled
expect_out '{
   "knobs": [
      {
         "name": "vm.numa_stat"
      },{
         "name": "mm.numa.demotion_enabled"
      }
   ]
}' "knobs -N -J gives the names as JSON"

# Without -o: a line per knob, its description, values and note under it.
run knobs vm.numa_stat
expect_out "NAME         TYPE DEFAULT PRESENT
vm.numa_stat bool 1       no
    count NUMA allocation events (numa_hit, numa_miss, local_node, ...)
    values: 0, 1 (off, on)
    since: 4.15
    note: setting 0 zeroes every NUMA counter on every node; counting restarts
          from 0 at 1" "knobs NAME: short fields, then the long ones wrapped to 80 columns"
run knobs --output-all -r -n vm.stat_interval
expect_out "vm.stat_interval int 1..2147483 1 2147483 1 no 2.6.22 seconds\x20between\x20folds\x20of\x20per-CPU\x20vm\x20statistics\x20into\x20the\x20global\x20counters NUMA\x20event\x20counters\x20are\x20folded\x20on\x20every\x20read\x20since\x205.14\x20and\x20do\x20not\x20depend\x20on\x20it " \
	"--output-all is the table of every column"

fixture sparse3
run knobs -r -n -o NAME,TYPE,VALUES,DEFAULT vm.zone_reclaim_mode vm.numa_zonelist_order vm.stat_interval
expect_out 'vm.zone_reclaim_mode bitmask 0..7:\x201\x20reclaim,\x202\x20write,\x204\x20unmap 0
vm.numa_zonelist_order enum Node,\x20Default Node
vm.stat_interval int 1..2147483 1' "-r -n -o: raw rows without headings, values of each type"

run knobs -o NAME -o +DEFAULT mm.numa.demotion_enabled
expect_out "NAME                     DEFAULT
mm.numa.demotion_enabled false" "-o +COL appends to the columns chosen so far"

run knobs -o name,since kernel.numa_balancing
expect_out "NAME                  SINCE
kernel.numa_balancing 3.13" "column names are case-insensitive"

golden_run knobs-command/names.out
expect_golden knobs-command/names.out "-N prints every registry name, present here or not"

# Every column of every knob: a new entry's range, default and notes show
# in the golden file's diff for review.
golden_run knobs-command/every-column.out
expect_rc 0 "knobs --output-all succeeds"
expect_golden knobs-command/every-column.out "--output-all: every column of every registry knob"

run knobs --choices vm.numa_stat
expect_out "0
1" "--choices of a bool"
run knobs --choices zone_reclaim_mode
expect_out "0
1
2
3
4
5
6
7
reclaim
write
unmap" "--choices of a bitmask: every number, then the flag names"
run knobs --choices vm/numa_zonelist_order
expect_out "Node
Default" "--choices of an enum: its words"
run knobs --choices vm.min_slab_ratio
expect_rc 0 "--choices of an integer succeeds"
expect_out "" "and offers nothing"
run knobs --choices vm.swappiness
expect_rc 0 "--choices of a pass-through sysctl succeeds with nothing to offer"

run knobs -o NAME,COLOUR
expect_rc 2 "an unknown column is a usage error"
expect_err "numastatctl: knobs: -o: unknown column 'COLOUR': one of NAME, TYPE, VALUES, MIN, MAX, DEFAULT, PRESENT, SINCE, DESCRIPTION, NOTE
Try 'numastatctl knobs --help' for more information." "naming the column and the allowed ones"

run knobs vm.numa_stat kernel.hostname
expect_rc 2 "a name outside the NUMA namespaces is refused"
expect_err_has "unknown knob 'kernel.hostname'" "naming it"
expect_out "" "and nothing is printed"

run knobs vm.swappiness
expect_rc 2 "a pass-through sysctl is not a registry knob"
expect_err "numastatctl: knobs: vm.swappiness: not a registry knob: passed to the kernel untyped, which validates it" "and says so"

run knobs --choices 'vm/../x'
expect_rc 2 "--choices refuses a malformed name"

run knobs -N --choices vm.numa_stat
expect_rc 2 "--names and --choices exclude each other"

run knobs --choices vm.numa_stat vm.min_slab_ratio
expect_rc 2 "--choices takes exactly one knob"

run knobs --help
expect_rc 0 "--help exits 0"
expect_out_has "Available output columns:" "--help lists the columns"

run_raw --sysroot /nonexistent-root knobs
expect_rc 2 "a sysroot that does not exist is a usage error"
run_raw --sysroot /nonexistent-root knobs -N
expect_rc 0 "but --names does not look at the system"

# At 80x24 in a real terminal: nothing wraps, every description reads whole.
if have tmux tmux; then
	fixture sparse3
	SOCK=numastatctl-test-$$
	at_exit 'tmux -L "$SOCK" kill-server 2>/dev/null'
	env -u TMUX TERM=xterm tmux -L "$SOCK" -f /dev/null new-session -d -x 80 -y 24 \
		"'$NUMASTATCTL' --sysroot '$ROOT' knobs >/dev/tty 2>'$TMP/tmux.err'; : >'$TMP/tmux.done'; exec sleep 600"
	for _ in $(seq 1 100); do [ -e "$TMP/tmux.done" ] && break; sleep 0.1; done
	# -J joins the lines the terminal wrapped: a joined line wider than 80 wrapped.
	tmux -L "$SOCK" capture-pane -p -J -S - >"$TMP/pane"
	tmux -L "$SOCK" kill-server
	check "the knobs ran in tmux at 80x24" test -e "$TMP/tmux.done"
	long=$(awk 'length($0) > 80' "$TMP/pane")
	if [ -z "$long" ] && [ -s "$TMP/pane" ]; then ok "no line is wider than the 80-column terminal"; else not_ok "no line is wider than the 80-column terminal" "$long"; fi
	run knobs -J -o name,description
	OUT=$(python3 - "$TMP/pane" <<PY
import json, sys
screen = " ".join(open(sys.argv[1]).read().split())
knobs = json.loads(sys.stdin.read())["knobs"]
for k in knobs:
    if " ".join(k["description"].split()) not in screen or k["name"] not in screen:
        print("broken:", k["name"])
lines = sum(1 for l in open(sys.argv[1]) if l.strip())
if lines > 6 * len(knobs):
    print("too long:", lines, "screen lines for", len(knobs), "knobs")
PY
<<<"$OUT")
	expect_out "" "every knob's name and whole description read on screen, at most 6 lines per knob"
fi

done_testing
