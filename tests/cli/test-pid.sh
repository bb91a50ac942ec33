#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --pid against proc/<pid>/{numa_maps,status,cmdline} fixtures: tables,
# pattern matching, numastat -p's --compat shapes, -o, -J, failures.
. "$(dirname "$0")/lib.sh"

fixture pid-procs

run stat --pid 4242
expect_rc 0 "--pid PID succeeds"
expect_out "PID 4242 (postgres)
 NODE HUGE HEAP STACK PRIVATE TOTAL
    0   0B   4M  132K    5.9M   10M
    3  16M   0B    0B    4.3M 20.3M
TOTAL  16M   4M  132K   10.2M 30.3M" \
	"one table per process: nodes by Huge/Heap/Stack/Private/Total (huge pages at 2048 kB)"

run stat --pid 4242 -b
expect_out "PID 4242 (postgres)
 NODE     HUGE    HEAP  STACK  PRIVATE    TOTAL
    0        0 4194304 135168  6144000 10473472
    3 16777216       0      0  4505600 21282816
TOTAL 16777216 4194304 135168 10649600 31756288" "-b prints bytes"

run stat --pid postgres
expect_rc 0 "a pattern succeeds"
expect_out_has "PID 4242 (postgres)" "the pattern matches the command name"
expect_out_has "PID 4243 (postgres)" "and every process with that name"
expect_out_lacks "java" "and nothing else"

run stat --pid checkpointer -o PID,COMMAND,TOTAL
expect_rc 1 "a plain pattern matches names only: a word of a command line is no match"
expect_err "numastatctl: stat: no process matches 'checkpointer' (by name; 'cmdline:checkpointer' looks in the command lines)" \
	"and the message says how to look in the command lines"
run stat --pid cmdline:checkpointer -o PID,COMMAND,TOTAL
expect_out "  PID COMMAND  TOTAL
 4243 postgres  1.4M
TOTAL           1.4M" "cmdline:PATTERN matches the command line"
run stat --pid cmdline:kworker -o PID
expect_rc 1 "and only the command line: a kernel thread's name (no command line) is no match"
run stat --pid checkpointer --compat
expect_out_has "4243 (postgres)" "--compat is numastat -p: its pattern matches the command line too"

run stat --pid cmdline:Xmx8g -o PID,COMMAND,N0,N3,TOTAL
expect_out "  PID COMMAND  N0 N3 TOTAL
 5151 java    20K 1G    1G
TOTAL         20K 1G    1G" "-o gives one row per process, with per-node columns; page size from kernelpagesize_kB"
want=$OUT
run stat -o PID,COMMAND,N0,N3,TOTAL --pid cmdline:Xmx8g
expect_out "$want" "-o may come before --pid"

run stat --pid 4242 --pid 5151 -o +HUGE -J
expect_out '{
   "processes": [
      {
         "pid": 4242,
         "command": "postgres",
         "total": 31756288,
         "huge": 16777216
      },{
         "pid": 5151,
         "command": "java",
         "total": 1075859456,
         "huge": 0
      }
   ]
}' "-o +COL appends to PID,COMMAND,TOTAL; -J sizes are numbers in bytes"

run stat --pid 7000 -J
expect_rc 0 "a kernel thread (empty numa_maps) is not an error"
expect_out '{
   "processes": [
      {
         "pid": 7000,
         "command": "kworker/0:1",
         "node": 0,
         "huge": 0,
         "heap": 0,
         "stack": 0,
         "private": 0,
         "total": 0
      },{
         "pid": 7000,
         "command": "kworker/0:1",
         "node": 3,
         "huge": 0,
         "heap": 0,
         "stack": 0,
         "private": 0,
         "total": 0
      }
   ]
}' "-J: one object per process and node"

run stat --pid 4242 --nodes 3
expect_out "PID 4242 (postgres)
 NODE HUGE HEAP STACK PRIVATE TOTAL
    3  16M   0B    0B    4.3M 20.3M
TOTAL  16M   0B    0B    4.3M 20.3M" "--nodes narrows the columns and the totals"

run stat --pid 4242 --compat
expect_out "
Per-node process memory usage (in MBs) for PID 4242 (postgres)
                           Node 0          Node 3           Total
                  --------------- --------------- ---------------
Huge                         0.00           16.00           16.00
Heap                         4.00            0.00            4.00
Stack                        0.13            0.00            0.13
Private                      5.86            4.30           10.16
----------------  --------------- --------------- ---------------
Total                        9.99           20.30           30.29" "--compat: numastat -p PID"

run stat --pid postgres --compat
expect_out "
Per-node process memory usage (in MBs)
PID                        Node 0          Node 3           Total
----------------  --------------- --------------- ---------------
4242 (postgres)              9.99           20.30           30.29
4243 (postgres)              1.18            0.25            1.43
----------------  --------------- --------------- ---------------
Total                       11.17           20.55           31.72" "--compat: numastat -p PATTERN (several processes)"

run stat --pid 4243 --pid 7000 --compat=cz
expect_out "
Per-node process memory usage (in MBs)
PID              Node 0 Node 3 Total
---------------  ------ ------ -----
4243 (postgres)       1      0     1
---------------  ------ ------ -----
Total                 1      0     1" "--compat=cz: numastat -c -z drops the all-zero row, narrows columns"

run stat --pid 6000 --pid 4242 --pid 99999
expect_rc 1 "an unreadable or vanished process: exit 1"
expect_err "numastatctl: stat: process 6000: /proc/6000/numa_maps: Is a directory
numastatctl: stat: process 99999: gone (no /proc/99999)" "each is named on stderr"
expect_out_has "PID 4242 (postgres)" "the readable process is still shown"

run stat --pid 6000 --pid 4242 --compat
expect_out_has "6000 (locked)                0.00            0.00            0.00" \
	"--compat keeps numastat's zero row for a process it could not read"

run stat --pid nomatch
expect_rc 1 "a pattern that matches nothing: exit 1"
expect_err "numastatctl: stat: no process matches 'nomatch' (by name; 'cmdline:nomatch' looks in the command lines)" "and says so"

run stat --pid 4242 -o BOGUS
expect_rc 2 "an unknown -o column for --pid is a usage error"
expect_err_has "-o: unknown column 'BOGUS' for --pid" "naming the column"

run stat --pid 4242 --nodes 2
expect_rc 2 "--nodes with a node that does not exist"
run stat --pid 4242 -m
expect_rc 2 "--pid and -m exclude each other"
run stat --pid 99999999
expect_rc 1 "a number above the PID limit is not a process"
expect_err_has "'99999999': not a process id" "and is named"

done_testing
