#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement on the running kernel: a process's verdict against its own
# /proc/PID/numa_maps and status read here, --move with nothing to move (as
# root and as nobody), and a process that exits while it is read.  Moves no
# page: the machine this runs on has one node (the guests of tests/vm move).
. "$(dirname "$0")/lib.sh"

[ -d /sys/devices/system/node/node0 ] || skip_all "no NUMA nodes in sysfs"
[ -r /proc/self/numa_maps ] || skip_all "no /proc/PID/numa_maps (a kernel without CONFIG_NUMA)"

sleep 60 &
SLEEPER=$!
at_exit "kill $SLEEPER 2>/dev/null"

# numa_maps summed here: bytes, and bytes per node (N<id>= pages * kernelpagesize_kB).
sums() {
	awk '{ p = 0; k = 4; delete n
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^N[0-9]+=/) { split($i, a, "="); n[substr(a[1], 2)] += a[2] }
			if ($i ~ /^kernelpagesize_kB=/) { split($i, b, "="); k = b[2] }
		}
		for (x in n) { t += n[x] * k * 1024; node[x] += n[x] * k * 1024 }
	} END { printf "%d", t; for (x in node) printf " %s:%d", x, node[x]; print "" }' "/proc/$SLEEPER/numa_maps"
}
# The sleeper settled: sleep exec'd and its libraries mapped (a busy machine
# can still be in the fork or the dynamic loader here).
for _ in $(seq 1 100); do
	want=$(sums)
	[ "$(cat "/proc/$SLEEPER/comm" 2>/dev/null)" = sleep ] && sleep 0.1 && [ "$(sums)" = "$want" ] && break
	sleep 0.1
done
run_raw placement --pid "$SLEEPER" -J
expect_rc 0 "placement of a live process"
got=$(python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
t = d["targets"][0]
print(t["total"], " ".join("%d:%d" % (n["node"], n["total"]) for n in d["nodes"] if n["total"]))' <<<"$OUT")
check "its total and its bytes per node are numa_maps'\''s ($want / $got)" \
	test "$(tr ' ' '\n' <<<"$want" | sort)" = "$(tr ' ' '\n' <<<"$got" | sort)"
cpus=$(sed -n 's/^Cpus_allowed_list:\t//p' "/proc/$SLEEPER/status")
check "its CPUs are Cpus_allowed_list ($cpus)" python3 -c '
import json, sys
d = json.loads(sys.argv[1]); want = []
for part in sys.argv[2].split(","):
    lo, _, hi = part.partition("-")
    want += range(int(lo), int(hi or lo) + 1)
sys.exit(d["targets"][0]["cpus"] != want)' "$OUT" "$cpus"

# --move on the running kernel: the plan of a process on its own node moves
# nothing, and says so; not as another user.
if [ "$(cat /sys/devices/system/node/online 2>/dev/null)" = 0 ]; then
	run_raw placement --pid "$SLEEPER" --move
	expect_rc 0 "--move of a process with nothing remote, on one node"
	expect_out "plan: 0 pages (0B) to move" "an empty plan, said"
fi
if have setpriv util-linux; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$NUMASTATCTL" placement --pid "$SLEEPER" --move \
		>"$TMP/out" 2>"$TMP/err" </dev/null
	check "--move as nobody exits 1" test $? = 1
	check "saying it needs root" grep -qx "numastatctl: placement: must be run as root" "$TMP/err"
fi

kill "$SLEEPER"
wait "$SLEEPER" 2>/dev/null
run_raw placement --pid "$SLEEPER"
expect_rc 1 "a process that has exited"
expect_err "numastatctl: placement: process $SLEEPER: gone (no /proc/$SLEEPER)" "is gone, in one line"

done_testing
