#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Corrupt sysfs and /proc/sys content, as a damaged dump or an odd kernel may
# show it: non-numbers, u64 overflow, NUL bytes, CRLF, empty files, 1 MiB
# files, missing keys, unknown extra keys (accepted).  Each read that fails
# exits 1 with one line naming the file (and line); no write happens on the
# strength of a corrupt read; every other file keeps its value.
. "$(dirname "$0")/lib.sh"

NODE0=sys/devices/system/node/node0
GOOD_NS='numa_hit 1\nnuma_miss 2\nnuma_foreign 3\ninterleave_hit 4\nlocal_node 5\nother_node 6\n'
tree_sum() { find "$ROOT" -type f -exec md5sum {} + | sort; }

# corrupt FILE PRINTF-FORMAT: a fresh sparse3 tree with FILE replaced.
corrupt() {
	fixture sparse3
	if [ "$2" = BIG ]; then
		head -c 1048576 /dev/zero | tr '\0' 7 >"$ROOT/$1"
	else
		# shellcheck disable=SC2059
		printf "$2" >"$ROOT/$1"
	fi
	BEFORE=$(tree_sum)
}
unchanged() {
	if [ "$(tree_sum)" = "$BEFORE" ]; then ok "$1: nothing was written"
	else not_ok "$1: nothing was written"; fi
}

# nodeN/numastat: stat and the snapshot before numa_stat 1 -> 0 refuse it.
while IFS='|' read -r desc content want; do
	corrupt "$NODE0/numastat" "$content"
	run stat
	expect_rc 1 "numastat $desc: stat exits 1"
	expect_err "numastatctl: stat: /$NODE0/numastat: $want" "numastat $desc: one line names the file and the problem"
	expect_out_has "    5   410003" "numastat $desc: the other nodes are still shown"
	run set vm.numa_stat=0
	expect_rc 1 "numastat $desc: numa_stat 1 -> 0 is refused (no snapshot)"
	expect_err_has "/$NODE0/numastat: $want" "numastat $desc: the refusal says which file"
	expect_one_err_line "numastat $desc: in one line"
	unchanged "numastat $desc"
done <<EOF2
not a number|numa_hit abc\nnuma_miss 0\n|line 1: value is not a decimal number
u64 overflow|numa_hit 18446744073709551616\n|line 1: value does not fit in 64 bits
a NUL byte|numa_hit 1\0\nnuma_miss 0\n|line 1: file contains a NUL byte
CRLF line ends|numa_hit 1\r\nnuma_miss 2\r\n|line 1: value is not a decimal number
an empty file||line 1: file is empty
missing keys|numa_hit 1\nnuma_miss 2\n|counter numa_foreign is missing
a duplicate key|${GOOD_NS}numa_hit 1\n|line 7: counter appears twice
no final newline|numa_hit 1|line 1: missing newline at end of file
1 MiB|BIG|file too large
EOF2

# The largest value that fits is fine, and a counter a later kernel adds is kept.
corrupt "$NODE0/numastat" "${GOOD_NS}numa_future 7\n"
run stat
expect_rc 0 "an unknown extra numastat key is accepted"
expect_out_has "    0        1         2            3              4          5          6" \
	"and the known counters are read"
run set vm.numa_stat=0
expect_rc 0 "an unknown extra key does not block the snapshot"
check "the snapshot keeps the extra counter" grep -rqs '"numa_future": 7' "$STATE/snapshots"
corrupt "$NODE0/numastat" 'numa_hit 18446744073709551615\nnuma_miss 0\nnuma_foreign 0\ninterleave_hit 0\nlocal_node 0\nother_node 0\n'
run -J stat
expect_rc 0 "numa_hit = 2^64-1 is read"
expect_out_has '"numa_hit": 18446744073709551615' "and printed exactly"

# nodeN/meminfo through stat -m.
while IFS='|' read -r desc content want; do
	corrupt sys/devices/system/node/node2/meminfo "$content"
	run stat -m
	expect_rc 1 "meminfo $desc: stat -m exits 1"
	expect_err "numastatctl: stat: /sys/devices/system/node/node2/meminfo: $want" \
		"meminfo $desc: one line names the file and the problem"
	unchanged "meminfo $desc"
done <<EOF2
not a number|Node 2 MemTotal: abc kB\n|line 1: value is not a decimal number
u64 overflow|Node 2 MemTotal: 99999999999999999999 kB\n|line 1: value does not fit in 64 bits
another node's line|Node 3 MemTotal: 1 kB\n|line 1: expected 'Node <id> <key>: <value>' for this node
CRLF|Node 2 MemTotal: 1 kB\r\n|line 1: value is not a decimal number
an empty file||line 1: file is empty
1 MiB|BIG|file too large
EOF2
corrupt sys/devices/system/node/node2/meminfo 'Node 2 MemTotal: 1 kB\nNode 2 NewThing: 5 kB\n'
run stat -m
expect_rc 0 "an unknown meminfo key is accepted"

# Knob files.  A value the registry would not set is shown as the kernel
# says it (status warns); what no kernel writes is an error.
K=proc/sys/vm/min_slab_ratio
for v in 'abc' '99999999999999999999999' ''; do
	corrupt "$K" "$v\n"
	run get vm.min_slab_ratio
	expect_rc 0 "knob holding '$v': get shows it"
	expect_out "vm.min_slab_ratio = $v" "knob holding '$v': verbatim"
	run status
	expect_err_has "warning: vm.min_slab_ratio is $v, outside what numastatctl sets" \
		"knob holding '$v': status warns"
	run set vm.min_slab_ratio=5
	expect_rc 0 "knob holding '$v': set replaces it"
	expect_file "$ROOT/$K" 5 "knob holding '$v': with the new value"
done
corrupt "$K" '7\r\n'
run get -n vm.min_slab_ratio
expect_out 7 "a CRLF knob value reads as the number"
for v in NUL BIG; do
	if [ $v = NUL ]; then corrupt "$K" '3\0junk\n'; want="unexpected content (a NUL byte, or more than one line)"
	else corrupt "$K" BIG; want="file too large"; fi
	run get vm.min_slab_ratio
	expect_rc 1 "knob with $v: get exits 1"
	expect_err_has "numastatctl: get: vm.min_slab_ratio: $want" "knob with $v: says why"
	expect_one_err_line "knob with $v: in one line"
	run set vm.min_slab_ratio=5
	expect_rc 1 "knob with $v: set refuses to write over what it cannot read"
	unchanged "knob with $v"
done

# A FIFO or a device where a file should be: refused, never waited on.  (The
# timeout only stops a hang from stalling the suite; it is not a measure.)
special() {
	fixture sparse3
	rm -f "$ROOT/$2"
	if [ "$1" = fifo ]; then mkfifo "$ROOT/$2"; else mknod "$ROOT/$2" c 1 5; fi
}
for kind in fifo device; do
	if [ $kind = device ] && [ "$(id -u)" != 0 ]; then
		ok "# SKIP not root: mknod needs CAP_MKNOD"
		continue
	fi
	special $kind proc/sys/vm/min_slab_ratio
	timeout 60 "$NUMASTATCTL" -S "$ROOT" get vm.min_slab_ratio >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "a $kind as a knob file: get returns (rc $rc)" test "$rc" = 1
	check "a $kind as a knob file: says what it is" \
		grep -qx 'numastatctl: get: vm.min_slab_ratio: not a regular file (a FIFO or a device in the sysroot)' "$TMP/err"
	timeout 60 "$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set vm.min_slab_ratio=3 >/dev/null 2>&1
	rc=$?
	check "a $kind as a knob file: set refuses (rc $rc)" test "$rc" = 1
	special $kind "$NODE0/numastat"
	timeout 60 "$NUMASTATCTL" -S "$ROOT" stat >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "a $kind as nodeN/numastat: stat returns 1 (rc $rc)" test "$rc" = 1
	check "a $kind as nodeN/numastat: names the file" \
		grep -qx "numastatctl: stat: /$NODE0/numastat: not a regular file (a FIFO or a device in the sysroot)" "$TMP/err"
done

# A node directory with no nodes at all: nothing to snapshot.
fixture sparse3
rm -r "$ROOT/$NODE0" "$ROOT/sys/devices/system/node/node2" "$ROOT/sys/devices/system/node/node5"
run set vm.numa_stat=0
expect_rc 1 "no node directories: numa_stat 1 -> 0 is refused"
expect_err_has "cannot list NUMA nodes: none found" "and says there are no nodes"
expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "numa_stat stays 1"

done_testing
