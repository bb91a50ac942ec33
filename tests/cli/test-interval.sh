#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat INTERVAL [COUNT] against fixture trees: vmstat's layout, samples,
# deltas, rates, resets, -J one line per sample, --totals, Ctrl-C, errors.  A fixture file is rewritten
# between samples by this script after it has seen a sample on stdout, so no
# assertion depends on timing: the waits below only bound a hung run.
. "$(dirname "$0")/lib.sh"

NODE_DIR=sys/devices/system/node

# numastat NODE HIT LOCAL: rewrite a node's counters in place, in one write
# and at the same length, as the kernel's file would change under a reader.
numastat() {
	printf 'numa_hit %s\nnuma_miss 17\nnuma_foreign 3\ninterleave_hit 211\nlocal_node %s\nother_node 1018\n' \
		"$2" "$3" | dd of="$ROOT/$NODE_DIR/node$1/numastat" conv=notrunc status=none
}

# Times change from run to run, and a loaded machine may wake us a period
# late (the sample then covers two); everything else must not change.
untimed() {
	sed -E 's/ at [0-9]{2}:[0-9]{2}:[0-9]{2}:/ at T:/; s/since [0-9]{2}:[0-9]{2}:[0-9]{2}:/since T:/
		s/^[0-9]{2}:[0-9]{2}:[0-9]{2}/T       /; s/ over [0-9.]+ s$/ over S s/
		s/"seconds":[0-9.]+/"seconds":S/g; s/"(time|since)":"[^"]*"/"\1":"T"/g'
}

# vmstat's layout: one header, one line per node per sample, no totals.
fixture interval-two
run stat 0.01 2
expect_rc 0 "COUNT samples end with exit 0"
expect_out "NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN INTERLEAVE_HIT LOCAL_NODE OTHER_NODE
   1        0         0            0              0          0          0
   4        0         0            0              0          0          0
   1        0         0            0              0          0          0
   4        0         0            0              0          0          0" \
	"stat 0.01 2: a header and one line per node per sample, like vmstat 1 2"
expect_err "" "and nothing on stderr"

run stat 0.01 2 --totals -t
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out "TIME     NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN INTERLEAVE_HIT LOCAL_NODE OTHER_NODE
T           1        0         0            0              0          0          0
T           4        0         0            0              0          0          0
T           1        0         0            0              0          0          0
T           4        0         0            0              0          0          0

total since T: changes over S s
TIME     NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN INTERLEAVE_HIT LOCAL_NODE OTHER_NODE
T           1        0         0            0              0          0          0
T           4        0         0            0              0          0          0" \
	"-t adds a TIME column, --totals the totals since the start"
run stat 0.01 1 -t
check "the TIME column is the local clock, HH:MM:SS" grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2}    1 ' <<<"$OUT"
# 80 columns: the TIME column would make the line 82 wide, so the time
# titles each sample on a line of its own (never a folded table per sample).
run stat 0.01 2 -t -w 80
OUT=$(printf '%s\n' "$OUT" | sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}$/T/')
expect_out "NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN INTERLEAVE_HIT LOCAL_NODE OTHER_NODE
T
   1        0         0            0              0          0          0
   4        0         0            0              0          0          0
T
   1        0         0            0              0          0          0
   4        0         0            0              0          0          0" \
	"-t at 80 columns: the time on a line of its own before each sample, the header within 80"
run stat 0.01 1 -n -r -o NODE,LOCAL%
expect_out "1 -
4 -" "-n drops the header, -r the alignment; a percentage of nothing is -"
run stat 0.01 1 -w 40 -o NODE,NUMA_HIT,NUMA_MISS,NUMA_FOREIGN,INTERLEAVE_HIT,LOCAL_NODE
OUT=$(printf '%s\n' "$OUT" | untimed)
expect_out "sample 1 at T: changes over S s
 NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN
    1        0         0            0
    4        0         0            0
TOTAL        0         0            0

 NODE INTERLEAVE_HIT LOCAL_NODE
    1              0          0
    4              0          0
TOTAL              0          0" "where a line does not fit the width, a folded table per sample"

run stat -J 0.01 3
expect_rc 0 "-J with a count succeeds"
lines=$(printf '%s\n' "$OUT" | grep -c '')
check "-J prints one line per sample ($lines)" test "$lines" = 3
check "every -J line is a JSON document on its own" \
	python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin]' <<<"$OUT"
first=$(printf '%s\n' "$OUT" | head -n 1 | untimed)
if [ "$first" = '{"sample":1,"time":"T","seconds":S,"nodes":[{"node":1,"numa_hit":0,"numa_miss":0,"numa_foreign":0,"interleave_hit":0,"local_node":0,"other_node":0,"reset":false},{"node":4,"numa_hit":0,"numa_miss":0,"numa_foreign":0,"interleave_hit":0,"local_node":0,"other_node":0,"reset":false}],"total":{"numa_hit":0,"numa_miss":0,"numa_foreign":0,"interleave_hit":0,"local_node":0,"other_node":0}}' ]; then
	ok "a -J sample: its number, time and length, each node's deltas, their total"
else not_ok "a -J sample: its number, time and length, each node's deltas, their total" "got: $first"; fi
check "the -J time is ISO 8601 UTC" \
	grep -qE '"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"' <<<"$OUT"
run stat -J --totals 0.01 2
last=$(printf '%s\n' "$OUT" | tail -n 1 | untimed)
case "$last" in '{"since":"T","seconds":S,"nodes":[{"node":1,"numa_hit":0,'*'"total":{"numa_hit":0,'*) ok "-J --totals ends with the totals since the start" ;;
*) not_ok "-J --totals ends with the totals since the start" "$last" ;; esac

# Deltas: the counters move between samples; Ctrl-C says so in one line.
fixture interval-two
start stat -r 0.2
wait_for_re "$TMP/bg.out" '^4 0 '
numastat 1 5000101 4999100
check "a counter increase shows up as a delta in a later sample" \
	wait_for "$TMP/bg.out" "1 100 0 0 0 100 0"
stop
expect_rc 130 "Ctrl-C ends interval mode by SIGINT (128 + 2)"
case "$ERR" in "numastatctl: stat: stopped by SIGINT after "[0-9]*" samples over "[0-9.]*" s (--totals prints the totals since the start)")
	ok "Ctrl-C is said in one line on stderr" ;;
*) not_ok "Ctrl-C is said in one line on stderr" "$ERR" ;; esac
expect_out_lacks "total" "and no totals were asked for"

fixture interval-two
start stat -r --totals 0.2
wait_for_re "$TMP/bg.out" '^4 0 '
numastat 1 5000101 4999100
wait_for "$TMP/bg.out" "1 100 0 0 0 100 0"
stop
total=$(printf '%s\n' "$OUT" | sed -n '/^total since/,$p')
case "$total" in *"NODE NUMA_HIT NUMA_MISS NUMA_FOREIGN INTERLEAVE_HIT LOCAL_NODE OTHER_NODE
1 100 0 0 0 100 0
4 0 0 0 0 0 0") ok "with --totals, Ctrl-C prints the totals since the start" ;;
*) not_ok "with --totals, Ctrl-C prints the totals since the start" "$OUT" ;; esac
case "$ERR" in "numastatctl: stat: stopped by SIGINT after "*" s") ok "and says it stopped, in one line" ;;
*) not_ok "and says it stopped, in one line" "$ERR" ;; esac

# A reset: counters go down (vm.numa_stat toggled zeroes them).
fixture interval-two
start -J stat --totals 0.2
wait_for "$TMP/bg.out" '"sample":1,'
numastat 1 5000051 4999050
wait_for "$TMP/bg.out" '"node":1,"numa_hit":50,'
numastat 1 1000001 1000000
check "a counter going down is reported on stderr" wait_for "$TMP/bg.err" "counters went down"
numastat 1 1000031 1000030
check "counting restarts from the new baseline" wait_for "$TMP/bg.out" '"node":1,"numa_hit":30,'
stop
expect_rc 130 "a reset is not a failure: it ends by SIGINT"
check "the reset sample marks the node and prints no delta for it" \
	grep -qF '"node":1,"numa_hit":null,"numa_miss":null,"numa_foreign":null,"interleave_hit":null,"local_node":null,"other_node":null,"reset":true}' <<<"$OUT"
check "the other node is not marked" \
	grep -qF '"node":4,"numa_hit":0,"numa_miss":0,"numa_foreign":0,"interleave_hit":0,"local_node":0,"other_node":0,"reset":false}' <<<"$OUT"
check "no delta is ever negative" test -z "$(grep -oE '":-[0-9]' <<<"$OUT")"
check "the totals add the deltas before and after the reset (50 + 30)" \
	grep -qE '^\{"since":"[^"]*","seconds":[0-9.]+,"nodes":\[\{"node":1,"numa_hit":80,' <<<"$OUT"
expect_err_has "numastatctl: stat: warning: node 1: counters went down (vm.numa_stat was toggled, or memory was hot-plugged): counting again from here" \
	"the reset message names the node and the likely causes"

# --rate: per second over the kernel timer's periods.  A loaded machine may
# wake us a period late, so the check is rate x seconds = the delta (100).
fixture interval-two
start -J stat --rate 0.5
wait_for "$TMP/bg.out" '"sample":1,'
numastat 1 5000101 4999100
check "a --rate sample shows the change" wait_for_re "$TMP/bg.out" '"node":1,"numa_hit":[1-9]'
stop
expect_rc 130 "--rate run ends by SIGINT"
check "--rate divides the delta by the sample's length (e.g. 200.00 over 0.50 s)" python3 -c '
import json, sys
rows = [(r, d["seconds"]) for l in sys.stdin for d in [json.loads(l)] for r in d["nodes"]]
hit = [(r, s) for r, s in rows if r["node"] == 1 and r["numa_hit"]]
assert len(hit) == 1, hit
r, secs = hit[0]
assert abs(r["numa_hit"] * secs - 100) < 0.01 and r["numa_miss"] == 0, r
assert secs != 0.5 or r["numa_hit"] == 200.0, r
' <<<"$OUT"

fixture interval-two
start stat -r --rate 0.5
wait_for_re "$TMP/bg.out" '^4 0 '
numastat 1 5000101 4999100
check "the --rate lines show the change" wait_for_re "$TMP/bg.out" '^1 [1-9]'
stop
check "the --rate lines print whole events per second (200 over 0.50 s)" python3 -c '
import sys
for line in sys.stdin:
    f = line.split()
    if f[:1] == ["1"] and f[1] != "0":
        # Woken k periods late, the sample covers 0.5 * (k + 1) s.
        assert f[1] == f[5] and int(f[1]) in [round(100 / (0.5 * k)) for k in range(1, 20)], f
        assert f[2:5] + f[6:] == ["0", "0", "0", "0"], f
        sys.exit(0)
sys.exit(1)
' <<<"$OUT"

fixture interval-two
echo 0 >"$ROOT/proc/sys/vm/numa_stat"
run stat 0.01 1
expect_rc 0 "frozen counters are not a failure"
expect_err "numastatctl: stat: warning: vm.numa_stat is 0: NUMA counters are frozen at zero, every change will read 0 ('numastatctl set vm.numa_stat=1' turns counting on)" \
	"but vm.numa_stat=0 is said once at the start"

fixture interval-two
run stat --nodes 4 -o NODE,NUMA_HIT,LOCAL% -J 0.01 1
check "--nodes and -o select what each sample shows" \
	grep -qE '^\{"sample":1,"time":"[^"]*","seconds":[0-9.]+,"nodes":\[\{"node":4,"numa_hit":0,"local_pct":null,"reset":false\}\],"total":\{"numa_hit":0,"local_pct":null\}\}$' <<<"$OUT"

fixture interval-broken
run stat 0.01 3
expect_rc 1 "a node whose numastat does not parse: exit 1"
expect_err "numastatctl: stat: node 4: /sys/devices/system/node/node4/numastat: line 2: value is not a decimal number" \
	"named once on stderr, not once per sample"
check "the other node is still sampled" test "$(grep -c '^   1        0 ' <<<"$OUT")" = 3
check "the broken node's lines have no values" test "$(grep -c '^   4        - ' <<<"$OUT")" = 3

fixture interval-two
rm "$ROOT/$NODE_DIR/node4/numastat"
run stat 0.01 1
expect_rc 1 "a node without numastat: exit 1"
expect_err_has "node 4: /sys/devices/system/node/node4/numastat:" "and it is named"

# A node hot-removed before any uevent says so (or under --sysroot, where
# none comes): its read fails and its directory is gone, which is news,
# not an error, and triggers a re-scan (which also finds a node added
# meanwhile).  The file is emptied through the open fd, as sysfs fails reads.
fixture interval-two
start stat -r --totals 0.2
wait_for_re "$TMP/bg.out" '^4 0 '
mkdir "$ROOT/$NODE_DIR/node7"
cp "$ROOT/$NODE_DIR/node1/numastat" "$ROOT/$NODE_DIR/node7/numastat"
python3 -c 'import os, shutil, sys
fd = os.open(sys.argv[1] + "/numastat", os.O_RDWR)
shutil.rmtree(sys.argv[1])
os.ftruncate(fd, 0)' "$ROOT/$NODE_DIR/node4"
check "a vanished node is reported" wait_for "$TMP/bg.err" "node 4 is gone"
# The new node's baseline is read right after that message: change it only
# once a sample with the node is out.
wait_for "$TMP/bg.out" "7 0 0 0 0 0 0"
numastat 7 5000006 4999005
check "the re-scan also found the new node, sampled from then on" \
	wait_for "$TMP/bg.out" "7 5 0 0 0 5 0"
stop
expect_rc 130 "a vanished node is not a failure: it ends by SIGINT"
expect_err_has "numastatctl: stat: warning: node 7 appeared: sampling it from the next interval
numastatctl: stat: warning: node 4 is gone" "the re-scan says which node came and which went"
total=$(printf '%s\n' "$OUT" | sed -n '/^total since/,$p')
check "the totals list the nodes there now" \
	test "$(printf '%s\n' "$total" | cut -d' ' -f1 | tr '\n' ' ')" = "total NODE 1 7 "

# On a terminal (tmux, 80x10): the header once per screenful, as vmstat does.
if have tmux tmux; then
	fixture interval-two
	SOCK=numastatctl-test-$$
	at_exit 'tmux -L "$SOCK" kill-server 2>/dev/null'
	env -u TMUX TERM=xterm tmux -L "$SOCK" -f /dev/null new-session -d -x 80 -y 10 \
		"'$NUMASTATCTL' --sysroot '$ROOT' stat 0.01 12 >/dev/tty 2>&1; : >'$TMP/tmux.done'; exec sleep 600"
	for _ in $(seq 1 100); do [ -e "$TMP/tmux.done" ] && break; sleep 0.1; done
	tmux -L "$SOCK" capture-pane -p -J -S - >"$TMP/pane"
	tmux -L "$SOCK" kill-server
	OUT=$(python3 - "$TMP/pane" <<'PY'
import sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if l.strip()]
heads = [i for i, l in enumerate(lines) if l.startswith("NODE ")]
data = [l for l in lines if not l.startswith("NODE ")]
gaps = [b - a for a, b in zip(heads, heads[1:] + [len(lines)])]
# Each header and the lines under it fit on the 10-line screen (the last
# screen line is the cursor's); 12 samples of 2 nodes take 3 screens.
print(len(data), len(heads), max(gaps) <= 9, heads[:1] == [0])
PY
)
	expect_out "24 3 True True" "on a 10-line terminal the header repeats once per screenful"
fi

fixture interval-two
run stat --nodes 2 0.1 1
expect_rc 2 "--nodes with a node that does not exist is a usage error"
expect_err_has "numastatctl: stat: --nodes: node 2: no such node here (nodes here: " "naming the node"
for bad in "-m 0.1 1" "--compat 0.1 1" "--prometheus 0.1 1"; do
	# shellcheck disable=SC2086
	run stat $bad
	expect_rc 2 "stat $bad: one-shot views have no interval mode"
done
for opt in -t --totals --rate; do
	run stat $opt
	expect_rc 2 "stat $opt without an interval is a usage error"
	expect_err_has "$opt needs an interval" "saying so"
done
run stat 0.001
expect_rc 2 "an interval below 0.01 s is refused"
run stat 1 0
expect_rc 2 "a count of 0 is refused"
expect_out "" "usage errors print nothing on stdout"

# Cost: the numastat files are opened once and read with one pread per sample.
if [ -n "${NUMASTATCTL_WRAPPER:-}" ]; then
	ok "# SKIP syscall counts are the wrapper's under NUMASTATCTL_WRAPPER"
elif have strace strace; then
	fixture interval-two
	strace -f -qq -y -e trace=openat,openat2,pread64 -o "$TMP/strace" \
		"$NUMASTATCTL" --sysroot "$ROOT" stat 0.01 5 >/dev/null 2>&1
	opens=$(grep -c 'numastat"' "$TMP/strace")
	preads=$(grep -c 'pread64([0-9]*<[^>]*/numastat>' "$TMP/strace")
	check "each numastat file is opened once ($opens opens for 2 nodes)" test "$opens" = 2
	check "one pread per node per sample, plus the baseline ($preads for 2 nodes x 6)" \
		test "$preads" = 12
fi

done_testing
