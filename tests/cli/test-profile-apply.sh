#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# apply: the default profile, --dry-run, --check, '-' knobs, config errors
# (nothing written), missing knobs, snapshots, revert, rollback, trust.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

pfixture profile-basic
prun apply --dry-run
expect_rc 0 "--dry-run succeeds"
expect_out "vm.numa_stat: 1 -> 0 (dry run)
vm.zone_reclaim_mode: 0 (unchanged)
vm.min_unmapped_ratio: 13 (unchanged)
vm.min_slab_ratio: 37 -> 9 (dry run)
vm.zone_distribute_mode: (skipped: not on this kernel)" \
	"without a name apply uses [numastatctl] profile, includes resolved, in registry order"
expect_knobs "--dry-run writes nothing" vm/numa_stat=1 vm/min_slab_ratio=37
check "--dry-run saves nothing" test ! -e "$STATE/revert"
expect_err "numastatctl: apply: warning: vm.numa_stat 1 -> 0 zeroes every NUMA counter: the real run saves them to a snapshot in $STATE/snapshots first" \
	"--dry-run of a profile setting vm.numa_stat=0 says the real run zeroes the counters, saving them first"

prun apply --check
expect_rc 3 "--check exits 3 on drift"
expect_out "vm.numa_stat is 1, profile fast wants 0 ($CONF:16)
vm.min_slab_ratio is 37, profile fast wants 9 ($CONF:18)
profile fast: 2 knobs differ" "--check lists every difference with the line that wants it"
expect_knobs "--check writes nothing" vm/numa_stat=1 vm/min_slab_ratio=37

prun -q apply --check base
expect_rc 0 "--check exits 0 without drift"
expect_out "" "-q --check prints nothing (for changed_when / unless)"

prun apply --check -J
expect_out_has '"name": "vm.numa_stat",
         "old": "1",
         "new": "0",
         "action": "would-change"' "--check -J reports drift as would-change"
expect_out_has '"action": "skipped"' "and a missing optional knob as skipped"

prun apply
expect_rc 0 "apply succeeds"
expect_out "vm.numa_stat: 1 -> 0
vm.zone_reclaim_mode: 0 (unchanged)
vm.min_unmapped_ratio: 13 (unchanged)
vm.min_slab_ratio: 37 -> 9
vm.zone_distribute_mode: (skipped: not on this kernel)" "apply prints one line per knob"
expect_knobs "apply wrote the profile" vm/numa_stat=0 vm/min_slab_ratio=9 vm/zone_reclaim_mode=0
expect_err_has "warning: vm.numa_stat 1 -> 0 zeroed the NUMA counters; they were saved to $STATE/snapshots/numastat-" \
	"apply says where the counters went"
snap=$(ls "$STATE"/snapshots/numastat-*.json 2>/dev/null | head -1)
expect_file "$snap" '{
   "nodes": [
      {
         "node": 0,
         "numa_hit": 7300011,
         "numa_miss": 120,
         "numa_foreign": 3300,
         "interleave_hit": 2211,
         "local_node": 7299001,
         "other_node": 1130
      },{
         "node": 3,
         "numa_hit": 5100022,
         "numa_miss": 3300,
         "numa_foreign": 120,
         "interleave_hit": 2210,
         "local_node": 5099002,
         "other_node": 4320
      }
   ]
}' "the snapshot holds every node's counters from before numa_stat 1 -> 0"
check "the prior values were saved for revert" grep -q '^knob vm.min_slab_ratio "37" ' "$STATE/revert"

prun apply --check
expect_rc 0 "after apply, --check finds no drift"
expect_out "profile fast: the live system matches" "and says so"

prun apply
expect_rc 0 "a second apply succeeds"
expect_out_lacks "->" "and changes nothing"

prun revert
expect_rc 0 "revert succeeds"
expect_out_has "restoring the values saved before 'apply fast' at " "revert says what it restores"
expect_out_has "vm.numa_stat: 0 -> 1
vm.min_slab_ratio: 9 -> 37" "revert prints each knob"
expect_knobs "revert restored the fixture" vm/numa_stat=1 vm/min_slab_ratio=37
check "revert forgets the saved values" test ! -e "$STATE/revert"
prun revert
expect_rc 1 "revert with nothing saved exits 1"
expect_err "numastatctl: revert: nothing to revert: no saved values in $STATE (apply and set save them before they change anything)" \
	"and says why in one line"

prun apply local -J
expect_rc 0 "apply NAME -J succeeds"
expect_out_has '"name": "kernel.numa_balancing",
         "old": "1",
         "new": "0",
         "action": "changed"' "-J reports changed knobs"
expect_knobs "apply NAME applies that profile" vm/zone_reclaim_mode=1 vm/min_unmapped_ratio=21 kernel/numa_balancing=0

# Missing knobs: skipped with '-', a failure without.
pfixture profile-basic
prun apply needs-missing
expect_rc 1 "a knob this kernel lacks, without '-', fails"
expect_err "numastatctl: apply: vm.zone_distribute_mode: cannot read /proc/sys/vm/zone_distribute_mode: not present on this kernel
numastatctl: apply: $CONF:30: vm.zone_distribute_mode: write '-vm.zone_distribute_mode' to skip it where the kernel lacks it
numastatctl: apply: profile needs-missing was not applied: nothing was changed" \
	"it names the knob, the line and the '-' fix"
expect_knobs "and nothing was written" vm/min_slab_ratio=37
expect_out "vm.min_slab_ratio: 37 (not written)" "a failed real apply says what it did not write, not '(dry run)'"
prun -J apply needs-missing
expect_out_has '"action": "not-written"' "-J: not-written, not would-change"
prun apply --dry-run needs-missing
expect_out "vm.min_slab_ratio: 37 -> 11 (dry run)" "only --dry-run words the plan as a dry run"

# Usage and configuration errors: exit 2, nothing written.
prun apply nope
expect_rc 2 "an unknown profile exits 2"
expect_err "numastatctl: apply: unknown profile 'nope' (profiles: base, fast, local, needs-missing, a, b)" \
	"naming the profiles there are"
conf "[profile p]
vm.numa_stat = 0"
prun apply
expect_rc 2 "no name and none configured exits 2"
expect_err "numastatctl: apply: no profile given, and none is configured: name one, or set 'profile =' under [numastatctl] in the configuration" \
	"and says how to name one"
prun apply a b
expect_rc 2 "two profile names are a usage error"
expect_err_has "Try 'numastatctl apply --help' for more information." "pointing to apply --help"
prun apply --check --dry-run p
expect_rc 2 "--check and --dry-run exclude each other"

conf "[numastatctl]
profile = db
[profile db]
vm.numa_stat = 0
numa_stats = 1
vm.zone_reclaim_mode = 2 # write
kernel.hostname = db1
net.ipv4.ip_forward = 1
[profile other]
vm.min_slab_ratio = 101"
prun apply
expect_rc 2 "a configuration with errors exits 2"
expect_err "numastatctl: apply: $CONF:5: [profile db]: unknown knob 'numa_stats': did you mean vm.numa_stat?
numastatctl: apply: $CONF:6: [profile db]: vm.zone_reclaim_mode: invalid value '2 # write': '#' does not start a comment after a value: use ';' (after a space)
numastatctl: apply: $CONF:7: [profile db]: unknown knob 'kernel.hostname': only vm.*, kernel.numa_* and the knobs listed by 'numastatctl knobs' are managed
numastatctl: apply: $CONF:8: [profile db]: unknown knob 'net.ipv4.ip_forward': only vm.*, kernel.numa_* and the knobs listed by 'numastatctl knobs' are managed
numastatctl: apply: $CONF:10: [profile other]: vm.min_slab_ratio: invalid value '101': must be an integer from 0 to 100
numastatctl: apply: nothing was changed: fix the configuration first" \
	"every error is printed with file:line, also those in other profiles"
expect_knobs "nothing was written" vm/numa_stat=1
check "no state was saved" test ! -e "$STATE/revert"

conf "[profile empty]
summary = Sets nothing"
prun apply empty
expect_rc 0 "a profile without knobs applies"
expect_out "profile empty sets no knobs" "and says it sets nothing"
prun apply -J empty
expect_out '{
   "knobs": []
}' "-J gives an empty knobs array"

# The snapshot is a precondition of numa_stat 1 -> 0.
pfixture profile-basic
mkdir "$STATE" && : >"$STATE/snapshots"
prun apply
expect_rc 1 "apply refuses numa_stat 1 -> 0 when the counters cannot be saved"
expect_err_has "vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters" "and says why"
expect_knobs "nothing was written" vm/numa_stat=1 vm/min_slab_ratio=37
check "and no revert point claims a change" test ! -e "$STATE/revert"
prun apply --no-snapshot
expect_rc 0 "--no-snapshot goes ahead"
expect_knobs "and writes the profile" vm/numa_stat=0 vm/min_slab_ratio=9
check "with a revert point" grep -q '^knob vm.min_slab_ratio "37" ' "$STATE/revert"

# --state-dir wins over [numastatctl] state_dir (which moves only snapshots).
pfixture profile-basic
sed -i "s|^profile = fast\$|&\nstate_dir = $ROOT.cfgstate|" "$CONF"
prun apply
expect_rc 0 "apply with [numastatctl] state_dir and --state-dir succeeds"
check "--state-dir holds the revert point" test -s "$STATE/revert"
check "and the snapshot" compgen -G "$STATE/snapshots/numastat-*.json"
check "the configured state_dir is not used" test ! -e "$ROOT.cfgstate"

# A knob that cannot be read (a directory in the tree): nothing is written.
pfixture profile-dir-entry
prun apply p
expect_rc 1 "an unreadable knob fails the apply"
expect_err_has "vm.min_slab_ratio: cannot read /proc/sys/vm/min_slab_ratio: Is a directory" "naming it"
expect_knobs "the knob before it was not written" vm/zone_reclaim_mode=0

# Rollback: the last write fails after earlier ones succeeded.  The file is
# made read-only with a bind mount in a private mount namespace (root can
# write any mode bits, so chmod cannot do it).
pfixture profile-basic
if unshare -m true 2>/dev/null; then
	unshare -m bash -c 'mount --bind -o ro "$1" "$1" && shift && exec "$@"' _ \
		"$ROOT/proc/sys/vm/min_slab_ratio" "$NUMASTATCTL" --sysroot "$ROOT" \
		--state-dir "$STATE" --config "$CONF" apply --no-snapshot \
		>"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$? OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
	expect_rc 1 "a failed write exits 1"
	expect_out "vm.numa_stat: 1 (rolled back)
vm.zone_reclaim_mode: 0 (unchanged)
vm.min_unmapped_ratio: 13 (unchanged)
vm.zone_distribute_mode: (skipped: not on this kernel)" "the knob written before it is rolled back"
	expect_err "numastatctl: apply: vm.min_slab_ratio: cannot write /proc/sys/vm/min_slab_ratio: read-only file system (/proc/sys or /sys is mounted read-only, as in a container)
numastatctl: apply: profile fast was not applied: every value written before the failure was restored" \
		"the failure and the rollback are reported"
	expect_knobs "the tree is as before" vm/numa_stat=1 vm/min_slab_ratio=37
	# fast leaves min_slab_ratio at 9; local (through base) wants 37 back.
	prun apply --no-snapshot
	saved=$(cat "$STATE/revert")
	ro_run() {
		unshare -m bash -c 'mount --bind -o ro "$1" "$1" && shift && exec "$@"' _ \
			"$ROOT/proc/sys/vm/min_slab_ratio" "$NUMASTATCTL" --sysroot "$ROOT" \
			--state-dir "$STATE" --config "$CONF" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
		RC=$? OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
	}
	ro_run apply -J local
	expect_out_has '"action": "rolled-back"' "-J reports rolled-back"
	ro_run revert
	expect_rc 1 "a revert whose write fails exits 1"
	expect_out_has "vm.numa_stat: 0 (rolled back)" "and rolls back what it restored"
	expect_file "$STATE/revert" "$saved" "a failed revert keeps the saved values for the next try"
	prun revert --dry-run
	expect_rc 0 "revert --dry-run succeeds"
	expect_out_has "would restore the values saved before 'apply fast' at " "and says what it would restore"
	expect_file "$STATE/revert" "$saved" "without touching the saved values"
	prun revert
	expect_rc 0 "the next revert succeeds"
	expect_knobs "and restores the fixture" vm/numa_stat=1 vm/min_slab_ratio=37
else
	ok "# SKIP no mount namespaces here (unshare -m failed): rollback not exercised"
fi

# Running as root, files others can write are refused.
if [ "$(id -u)" = 0 ]; then
	pfixture profile-basic
	chmod g+w "$CONF"
	prun apply
	expect_rc 2 "a group-writable configuration is refused"
	expect_err "numastatctl: apply: $CONF: writable by group or others: refusing it (run 'chmod go-w $CONF')
numastatctl: apply: nothing was changed: fix the configuration first" "naming the file and the fix"
	expect_knobs "nothing was written" vm/numa_stat=1
	chmod go-w "$CONF"
	chown 65534 "$CONF"
	prun apply
	expect_rc 2 "a configuration not owned by root is refused"
	expect_err_has "$CONF: owned by uid 65534, not by root: refusing it (run 'chown root $CONF')" "naming the owner"
else
	ok "# SKIP not root: the ownership checks apply to root only"
fi

done_testing
