#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# set: validation before writing, compare-before-write, rollback, snapshots,
# revert state, dry run and JSON.
. "$(dirname "$0")/lib.sh"

VM=proc/sys/vm

fixture sparse3
run set vm.min_slab_ratio=50 zone_reclaim_mode='reclaim|unmap'
expect_rc 0 "a valid set succeeds"
expect_out "vm.min_slab_ratio: 37 -> 50
vm.zone_reclaim_mode: 0 -> 5" "and prints old -> new per knob"
expect_file "$ROOT/$VM/min_slab_ratio" 50 "the value is written in decimal"
expect_file "$ROOT/$VM/zone_reclaim_mode" 5 "flag names are written as their number"
read -r _ _ id _ at _ <"$STATE/revert"
expect_file "$STATE/revert" "numastatctl-revert 2 $id for=\"$(realpath "$ROOT")\" $at by=\"set\"
knob vm.min_slab_ratio \"37\" \"50\" -
knob vm.zone_reclaim_mode \"0\" \"5\" -
end 2" "the prior values are saved for revert, with what was written and the system they belong to"

fixture sparse3
run set vm.min_slab_ratio=37
expect_rc 0 "setting the current value succeeds"
expect_out "vm.min_slab_ratio: 37 (unchanged)" "and says unchanged"
check "an unchanged set saves no revert state" test ! -e "$STATE/revert"

fixture sparse3
run set vm.numa_stat=2
expect_rc 2 "an invalid value exits 2"
expect_err "numastatctl: set: vm.numa_stat: invalid value '2': must be 0 or 1 (or on/off)" \
	"naming the knob and what is allowed"
expect_file "$ROOT/$VM/numa_stat" 1 "and changes nothing"

fixture sparse3
run set vm.min_slab_ratio=50 vm.zone_reclaim_mode=99 vm.min_unmapped_ratio=5
expect_rc 2 "one invalid value among several exits 2"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "the valid ones before it are not written"
expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "nor the ones after it"

fixture sparse3
run set kernel.hostname=evil vm.numa_stat=x
expect_rc 2 "a refused name exits 2"
expect_err "numastatctl: set: unknown knob 'kernel.hostname': only vm.*, kernel.numa_* and the knobs listed by 'numastatctl knobs' are managed
numastatctl: set: vm.numa_stat: invalid value 'x': must be 0 or 1 (or on/off)" "every bad assignment is reported, one line each"
expect_file "$ROOT/proc/sys/kernel/hostname" fixture-host "the foreign knob is untouched"

fixture sparse3
run set vm.numa_stat
expect_rc 2 "an assignment without '=' exits 2"
expect_err "numastatctl: set: 'vm.numa_stat': expected <knob>=<value>" "and says what was expected"

run set
expect_rc 2 "set without assignments exits 2"

fixture sparse3
run set --dry-run vm.min_slab_ratio=50 vm.min_unmapped_ratio=13
expect_rc 0 "--dry-run succeeds"
expect_out "vm.min_slab_ratio: 37 -> 50 (dry run)
vm.min_unmapped_ratio: 13 (unchanged)" "--dry-run shows the plan"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "--dry-run writes nothing"

# The real run of vm.numa_stat 1 -> 0 zeroes every counter: the dry run says
# so, and where the snapshot would go (or that --no-snapshot saves none).
fixture sparse3
run set --dry-run vm.numa_stat=0
expect_rc 0 "--dry-run of vm.numa_stat=0 succeeds"
expect_err "numastatctl: set: warning: vm.numa_stat 1 -> 0 zeroes every NUMA counter: the real run saves them to a snapshot in $STATE/snapshots first" \
	"--dry-run of vm.numa_stat=0 says the real run zeroes the counters, saving them first"
check "and saves nothing" test ! -e "$STATE/snapshots"
run set --dry-run --no-snapshot vm.numa_stat=0
expect_err "numastatctl: set: warning: vm.numa_stat 1 -> 0 zeroes every NUMA counter: the real run does not save them first (--no-snapshot)" \
	"--dry-run --no-snapshot says the counters would not be saved"
run set --dry-run vm.min_slab_ratio=50
expect_err "" "a dry run that leaves vm.numa_stat alone says nothing of counters"

fixture sparse3
run set vm.zone_distribute_mode=1
expect_rc 1 "a knob missing on this kernel exits 1"
expect_err_has "vm.zone_distribute_mode: cannot read /proc/sys/vm/zone_distribute_mode: not present on this kernel" \
	"and names the logical path"

fixture sparse3
run set -- -vm.zone_distribute_mode=1 vm.min_slab_ratio=40
expect_rc 0 "a '-' knob missing on this kernel is skipped"
expect_out "vm.zone_distribute_mode: (skipped: not on this kernel)
vm.min_slab_ratio: 37 -> 40" "and the rest is applied"

fixture sparse3
run set mm.numa.demotion_enabled=on
expect_out "mm.numa.demotion_enabled: false -> true" "sysfs knobs show the kernel's words"
expect_file "$ROOT/sys/kernel/mm/numa/demotion_enabled" 1 "and are written as 1"

fixture sparse3
run set vm.swappiness=10 vm.lowmem_reserve_ratio='128  128 16 0 0'
expect_rc 0 "pass-through sysctls can be set"
expect_file "$ROOT/$VM/lowmem_reserve_ratio" "128 128 16 0 0" "with blanks folded"

# numa_stat 1 -> 0 zeroes every counter: a snapshot comes first.
fixture sparse3
run set vm.numa_stat=0
expect_rc 0 "numa_stat 1 -> 0 succeeds"
snap=$(ls "$STATE"/snapshots/numastat-*.json 2>/dev/null | head -1)
check "a counter snapshot is saved" test -n "$snap"
expect_err "numastatctl: set: warning: vm.numa_stat 1 -> 0 zeroed the NUMA counters; they were saved to $snap" \
	"and its path is printed"
check "the snapshot holds every node's counters" python3 -c '
import json, sys
nodes = json.load(open(sys.argv[1]))["nodes"]
assert [n["node"] for n in nodes] == [0, 2, 5], nodes
assert nodes[0]["numa_hit"] == 7300011 and nodes[2]["other_node"] == 410003, nodes
' "$snap"

# Any spelling of 0 counts: the registry's word "off" zeroes them too.
fixture sparse3
run set numa_stat=off
expect_rc 0 "numa_stat=off succeeds"
snap=$(ls "$STATE"/snapshots/numastat-*.json 2>/dev/null | head -1)
check "numa_stat=off saves a counter snapshot" test -n "$snap"
expect_err "numastatctl: set: warning: vm.numa_stat 1 -> 0 zeroed the NUMA counters; they were saved to $snap" \
	"and says so"

# Only numa_stat going 1 -> 0 zeroes the counters: no other change saves them.
fixture sparse3
echo 1 >"$ROOT/sys/kernel/mm/numa/demotion_enabled"
echo 4 >"$ROOT/$VM/zone_reclaim_mode"
run set mm.numa.demotion_enabled=0 vm.zone_reclaim_mode=0 kernel.numa_balancing=0 vm.numa_stat=1
expect_rc 0 "other knobs going to 0, numa_stat staying 1"
expect_out "mm.numa.demotion_enabled: true -> false
vm.zone_reclaim_mode: 4 -> 0
kernel.numa_balancing: 1 -> 0
vm.numa_stat: 1 (unchanged)" "are written"
expect_err "" "without a word about the counters"
check "and save no counter snapshot" test ! -e "$STATE/snapshots"
echo 0 >"$ROOT/$VM/numa_stat"
run set vm.numa_stat=0
expect_rc 0 "numa_stat 0 -> 0 succeeds"
expect_out "vm.numa_stat: 0 (unchanged)" "writes nothing"
check "and saves no snapshot" test ! -e "$STATE/snapshots"
run set vm.numa_stat=1
expect_rc 0 "numa_stat 0 -> 1 succeeds"
expect_err "" "silently"
check "and saves no snapshot: counting restarts, nothing is lost" test ! -e "$STATE/snapshots"

# No lock and no revert point without a usable state dir: nothing is written.
fixture sparse3
run --state-dir /dev/null/nowhere set vm.numa_stat=0
expect_rc 1 "an unusable state dir refuses the change"
expect_err "numastatctl: set: /dev/null: not a directory" "naming the path that is in the way"
expect_file "$ROOT/$VM/numa_stat" 1 "and nothing is written"
run --state-dir /dev/null/nowhere set --no-snapshot --no-revert-point vm.numa_stat=0
expect_rc 1 "not even with --no-snapshot --no-revert-point: there is no lock"
expect_file "$ROOT/$VM/numa_stat" 1 "still nothing is written"

# Rollback: the third write fails (an immutable file refuses even root).
fixture sparse3
if ! have chattr e2fsprogs; then
	: # reported by have
elif chattr +i "$ROOT/$VM/zone_reclaim_mode" 2>/dev/null; then
	run set vm.min_slab_ratio=50 vm.min_unmapped_ratio=5 vm.zone_reclaim_mode=1
	expect_rc 1 "a failing write exits 1"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "the first write is rolled back"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "the second write is rolled back"
	expect_out "vm.min_slab_ratio: 37 (rolled back)
vm.min_unmapped_ratio: 13 (rolled back)" "the rolled-back knobs are listed"
	expect_err "numastatctl: set: vm.zone_reclaim_mode: cannot write /proc/sys/vm/zone_reclaim_mode: permission denied (needs root; kernel.* NUMA knobs need CAP_SYS_ADMIN)
numastatctl: set: nothing was changed: every value written before the failure was restored" \
		"the failure is named, then the outcome"
	run -J set vm.min_slab_ratio=50 vm.zone_reclaim_mode=1 vm.min_unmapped_ratio=5
	check "set -J names each knob's fate after a failure" python3 -c '
import json, sys
k = {x["name"]: x["action"] for x in json.loads(sys.argv[1])["knobs"]}
assert k == {"vm.min_slab_ratio": "rolled-back", "vm.zone_reclaim_mode": "failed",
             "vm.min_unmapped_ratio": "not-written"}, k
' "$OUT"
	chattr -i "$ROOT/$VM/zone_reclaim_mode"
else
	ok "# SKIP rollback: this file system has no immutable flag"
fi

# A knob that is a directory in the dump cannot even be read: nothing is written.
fixture sparse3
rm "$ROOT/$VM/min_unmapped_ratio" && mkdir "$ROOT/$VM/min_unmapped_ratio"
run set vm.min_slab_ratio=50 vm.min_unmapped_ratio=5
expect_rc 1 "an unreadable knob exits 1"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "before any write"

fixture sparse3
run set -J vm.min_slab_ratio=50 vm.min_unmapped_ratio=13 -- -vm.zone_distribute_mode=3
expect_rc 0 "set -J succeeds"
check "set -J prints the documented shape" python3 -c '
import json, sys
k = json.loads(sys.argv[1])["knobs"]
assert k == [
  {"name": "vm.min_slab_ratio", "old": "37", "new": "50", "action": "changed"},
  {"name": "vm.min_unmapped_ratio", "old": "13", "new": "13", "action": "unchanged"},
  {"name": "vm.zone_distribute_mode", "old": None, "new": "3", "action": "skipped"},
], k
' "$OUT"

# --state-dir wins over [numastatctl] state_dir: the revert point, the lock
# and the snapshot all go to --state-dir.
fixture sparse3
printf '[numastatctl]\nstate_dir = %s\n' "$TMP/cfgstate" >"$TMP/cfg.conf"
run -c "$TMP/cfg.conf" set vm.min_slab_ratio=50 vm.numa_stat=0
expect_rc 0 "set with a configured state_dir and --state-dir succeeds"
check "the revert values go to --state-dir" grep -q '^knob vm.min_slab_ratio "37" ' "$STATE/revert"
check "and so does the snapshot" compgen -G "$STATE/snapshots/numastat-*.json"
check "nothing goes to the configured state_dir" test ! -e "$TMP/cfgstate"
run -c "$TMP/cfg.conf" revert
expect_file "$ROOT/$VM/min_slab_ratio" 37 "and revert finds them there"

# set -f: sysctl.d(5) syntax.
fixture sparse3
cat >"$TMP/numa.conf" <<'CONF'
# a comment
; another comment

vm.min_slab_ratio = 50
vm/zone_reclaim_mode=reclaim
-vm.zone_distribute_mode = 2
vm.min_* = 60
-vm.min_unmapped_ratio
CONF
run set -f "$TMP/numa.conf" vm.numa_zonelist_order=Default
expect_rc 0 "set -f applies a sysctl.d file"
expect_out "vm.min_slab_ratio: 37 -> 50
vm.zone_reclaim_mode: 0 -> 1
vm.zone_distribute_mode: (skipped: not on this kernel)
vm.numa_zonelist_order: Node (unchanged)" "explicit keys beat globs, '-key' excludes, '-key = v' may be missing"
expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "an excluded key is not touched by a glob"

fixture sparse3
printf 'vm.min_slab_ratio = 44\n' | "$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" set -f - >/dev/null 2>&1
expect_file "$ROOT/$VM/min_slab_ratio" 44 "set -f - reads standard input"

fixture sparse3
printf 'vm.min_slab_ratio = 50\nnet.ipv4.ip_forward = 1\nbroken line\nvm.numa_stat = 5\n = 3\n' >"$TMP/bad.conf"
run set -f "$TMP/bad.conf"
expect_rc 2 "a bad sysctl.d file exits 2"
expect_err "numastatctl: set: $TMP/bad.conf:3: expected 'key = value'
numastatctl: set: $TMP/bad.conf:5: missing key before '='
numastatctl: set: $TMP/bad.conf:2: unknown knob 'net.ipv4.ip_forward': only vm.*, kernel.numa_* and the knobs listed by 'numastatctl knobs' are managed
numastatctl: set: $TMP/bad.conf:4: vm.numa_stat: invalid value '5': must be 0 or 1 (or on/off)" "every error is reported with file:line: syntax first, then knobs"
printf 'vm.min_slab_ratio = 50\nnet.ipv4.ip_forward = 1\nvm.numa_stat = 5\n' >"$TMP/bad2.conf"
run set -f "$TMP/bad2.conf"
expect_rc 2 "refused keys and values exit 2"
expect_err "numastatctl: set: $TMP/bad2.conf:2: unknown knob 'net.ipv4.ip_forward': only vm.*, kernel.numa_* and the knobs listed by 'numastatctl knobs' are managed
numastatctl: set: $TMP/bad2.conf:3: vm.numa_stat: invalid value '5': must be 0 or 1 (or on/off)" \
	"every refused line is named with file:line"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "and nothing is written"

run set -f "$TMP/does-not-exist"
expect_rc 2 "a missing file exits 2"
expect_err "numastatctl: set: $TMP/does-not-exist: No such file or directory" "naming it"

# --managed-only: a real sysctl.d file mixes NUMA and other keys.
fixture sparse3
printf '# site tuning\nnet.ipv4.ip_forward = 1\nvm.min_slab_ratio = 50\nkernel.pid_max = 65536\nvm.zone_reclam_mode = 1\n' >"$TMP/mixed.conf"
run set --managed-only -f "$TMP/mixed.conf"
expect_rc 2 "--managed-only still refuses a misspelt NUMA knob"
expect_err_has "$TMP/mixed.conf:5: unknown knob 'vm.zone_reclam_mode'" "naming it"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "and writes nothing"
sed -i '$d' "$TMP/mixed.conf"
run set --managed-only -f "$TMP/mixed.conf"
expect_rc 0 "--managed-only takes the managed keys of a mixed file"
expect_out "vm.min_slab_ratio: 37 -> 50" "and sets them"
expect_err "numastatctl: set: warning: $TMP/mixed.conf:2: net.ipv4.ip_forward: skipped: not a knob numastatctl manages
numastatctl: set: warning: $TMP/mixed.conf:4: kernel.pid_max: skipped: not a knob numastatctl manages" \
	"listing each other key as skipped with file:line"
run set --managed-only vm.min_slab_ratio=3
expect_rc 2 "--managed-only without -f is a usage error"
expect_err_has "--managed-only goes with -f <file>" "saying so"

done_testing
