#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# revert keeps its promise: it restores exactly what the kernel held (even a
# value outside the registry's range), refuses a revert file that is not
# one of ours or belongs to another system, never undoes an older change
# than the last one, and a change that cannot leave its revert point (full
# disk, immutable or read-only state dir) is not made unless
# --no-revert-point says so, which then forgets the older revert point.
. "$(dirname "$0")/lib.sh"

VM=proc/sys/vm

# Values the kernel accepts beyond the registry: zone_reclaim_mode takes any
# int (only 1|2|4 mean something), stat_interval any jiffies count.
fixture sparse3
echo 8 >"$ROOT/$VM/zone_reclaim_mode"
echo 7200 >"$ROOT/$VM/stat_interval"
run set vm.zone_reclaim_mode=1 vm.stat_interval=3
expect_rc 0 "set replaces values outside the registry's range"
run revert
expect_rc 0 "revert restores them"
expect_out_has "vm.zone_reclaim_mode: 1 -> 8" "zone_reclaim_mode goes back to 8"
expect_file "$ROOT/$VM/zone_reclaim_mode" 8 "exactly as the kernel held it"
expect_file "$ROOT/$VM/stat_interval" 7200 "and stat_interval to 7200"

# A value from a dump that would be more than one line: the kernel never
# prints one, so it is refused where it is read, and a revert file can
# never be forged with it.  A dump whose knob holds a second header line
# and an extra record, aimed at another system (B stands for the live one).
fixture sparse3
B=$ROOT
fixture sparse3
printf '0\n# for --sysroot %s\nvm.min_slab_ratio = 99\n' "$(realpath "$B")" >"$ROOT/$VM/zone_reclaim_mode"
run get vm.zone_reclaim_mode
expect_rc 1 "get: a knob value of two lines is refused"
expect_err "numastatctl: get: vm.zone_reclaim_mode: unexpected content (a NUL byte, or more than one line): not what a kernel writes" \
	"get: in one line naming the knob"
run set vm.zone_reclaim_mode=1
expect_rc 1 "set: a knob value of two lines is refused before anything is written"
check "set: no revert point is saved from it" test ! -e "$STATE/revert"
run_raw -S "$B" --state-dir "$STATE" revert
expect_rc 1 "the other system has nothing to revert"
expect_file "$B/$VM/min_slab_ratio" 37 "and the forged value was never written there"

# Values the kernel accepted that a line-based revert file could not hold:
# an empty value, control characters, quotes and backslashes; each comes
# back exactly.
for v in '' '1\e[31m' '"a\\b" =# for' '\t7'; do
	fixture sparse3
	printf "$v\n" >"$ROOT/$VM/zone_reclaim_mode"
	want=$(<"$ROOT/$VM/zone_reclaim_mode")
	run set vm.zone_reclaim_mode=1
	expect_rc 0 "set replaces '$v'"
	run revert
	expect_rc 0 "revert restores '$v'"
	expect_file "$ROOT/$VM/zone_reclaim_mode" "${want#$'\t'}" "exactly as the kernel held it ('$v')"
done

# A --sysroot whose path holds a quote, a newline and a backslash: the
# system the revert point is for is a field of its own, escaped like values.
odd=$TMP/$'odd"root\nx \\'
cp -a "$TMP/fixtures/sparse3" "$odd"
run_raw -S "$odd" --state-dir "$odd.state" set vm.min_slab_ratio=50
expect_rc 0 "set on a --sysroot with a newline in its path"
run_raw -S "$odd" --state-dir "$odd.state" revert
expect_rc 0 "revert takes the revert point saved for it"
expect_file "$odd/$VM/min_slab_ratio" 37 "and restores it"

# More knobs than a 64 KiB revert file held: a revert point set wrote is
# one revert takes.
fixture sparse3
for ((i = 0; i < 400; i++)); do printf '%0200d\n' $i >"$ROOT/$VM/many_$i"; done
echo 'vm.many_* = 1' >"$TMP/many.conf"
run set -f "$TMP/many.conf"
expect_rc 0 "set -f of 400 knobs holding 200 characters each"
run revert
expect_rc 0 "revert takes the revert point of 400 knobs"
expect_file "$ROOT/$VM/many_399" "$(printf '%0200d' 399)" "and restores the last of them"

# A knob gone since the change (a module unloaded, a dump trimmed): the
# others are restored, it is said to be skipped.
fixture sparse3
run set vm.min_slab_ratio=50 vm.min_unmapped_ratio=5
rm "$ROOT/$VM/min_unmapped_ratio"
run revert
expect_rc 0 "revert with a knob gone since the change"
expect_out_has "vm.min_unmapped_ratio: (skipped: not on this kernel)" "says it is skipped"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "and restores the others"
check "the revert point is used up" test ! -e "$STATE/revert"

# Changed by someone else after the change: left alone and named, the
# others restored, exit 1, the revert point kept for --force.
fixture sparse3
run set vm.min_slab_ratio=50 vm.min_unmapped_ratio=5 vm.zone_reclaim_mode=1
echo 60 >"$ROOT/$VM/min_slab_ratio"
echo 13 >"$ROOT/$VM/min_unmapped_ratio"
run revert --dry-run
expect_rc 1 "revert --dry-run: a knob changed since would be left alone (exit 1)"
expect_err "numastatctl: revert: vm.min_slab_ratio: left at 60: changed since numastatctl wrote 50 (--force restores 37)" \
	"revert --dry-run: names it"
run -J revert --dry-run
check "revert -J --dry-run: its action is changed-since" \
	grep -qz '"name": "vm.min_slab_ratio",[^}]*"old": "60",[^}]*"new": "37",[^}]*"action": "changed-since"' "$TMP/out"
run revert
expect_rc 1 "revert: a knob changed since is left alone (exit 1)"
expect_err "numastatctl: revert: vm.min_slab_ratio: left at 60: changed since numastatctl wrote 50 (--force restores 37)" \
	"revert: in one line, with the way out"
expect_out_has "restoring the values saved before 'set' at " "revert: says what it restores"
expect_out_has "vm.min_unmapped_ratio: 13 (unchanged)" "a knob already back is unchanged"
expect_out_has "vm.zone_reclaim_mode: 1 -> 0" "the others are restored"
expect_file "$ROOT/$VM/min_slab_ratio" 60 "the knob changed since keeps its value"
expect_file "$ROOT/$VM/zone_reclaim_mode" 0 "zone_reclaim_mode is restored"
check "the revert point stays for --force" test -s "$STATE/revert"
run revert --force
expect_rc 0 "revert --force restores it"
expect_out_has "vm.min_slab_ratio: 60 -> 37" "revert --force: 60 -> 37"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "min_slab_ratio is 37 again"
check "and the revert point is used up" test ! -e "$STATE/revert"

# What set writes: a header line, one record per knob, an end line.
fixture sparse3
printf '0\n' >"$ROOT/$VM/zone_reclaim_mode"
run set vm.min_slab_ratio=50 vm.zone_reclaim_mode=1
mapfile -t saved <"$STATE/revert"
if [[ ${saved[0]} =~ ^numastatctl-revert\ 2\ id=[0-9]+-[0-9a-f]{16}\ for=\"$(realpath "$ROOT")\"\ at=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z\ by=\"set\"$ ]]; then
	ok "the revert file starts with its header: format, id, system, time, command"
else
	not_ok "the revert file starts with its header: format, id, system, time, command" "${saved[0]}"
fi
check "one record per knob: name, the value before, the value written, no flags" \
	test "${saved[1]}|${saved[2]}|${saved[3]}|${#saved[@]}" = \
	'knob vm.min_slab_ratio "37" "50" -|knob vm.zone_reclaim_mode "0" "1" -|end 2|4'
id1=${saved[0]#* id=}
run set vm.min_slab_ratio=51
mapfile -t saved <"$STATE/revert"
check "every revert point has an id of its own" test "${id1%% *}" != "$(id=${saved[0]#* id=}; echo "${id%% *}")"

# A revert file that is not ours: one line naming it, nothing restored.
# crafted TEXT: $STATE/revert holds a header for $ROOT, then TEXT.
crafted() {
	mkdir -p "$STATE"
	printf 'numastatctl-revert 2 id=1-0123456789abcdef for="%s" at=2026-01-01T00:00:00Z by="set"\n%b' \
		"$(realpath "$ROOT")" "$1" >"$STATE/revert"
	chmod 0600 "$STATE/revert"
}
fixture sparse3
crafted 'knob vm.min_slab_ratio "50" "51" -\nend 1\n'
echo 51 >"$ROOT/$VM/min_slab_ratio"
run revert
expect_rc 0 "a well-formed revert file is taken"
expect_file "$ROOT/$VM/min_slab_ratio" 50 "and restored from"
long=$(head -c 300 /dev/zero | tr '\0' 1)
fixture sparse3
# Each case: the line at fault, the text after the header, the problem named.
for bad in '2:knob vm.min_slab_ratio "1\e[31m" "50" -\nend 1\n:a byte that must be escaped' \
	'2:knob vm.min_slab_ratio "1\\x41" "50" -\nend 1\n:an escape that is not the one spelling of its byte' \
	'2:knob vm.min_slab_ratio "1\\q" "50" -\nend 1\n:an unknown escape' \
	"2:knob vm.min_slab_ratio \"$long\" \"50\" -\\nend 1\\n:a value longer than 255 bytes" \
	'3:knob vm.min_slab_ratio "1" "50" -\nend 1:no newline at the end' \
	'2:knob vm.min_slab_ratio "1" "50" -\n:no end line (the file was cut short)' \
	'3:knob vm.min_slab_ratio "1" "50" -\nend 2\n:the record count does not match' \
	'4:knob vm.min_slab_ratio "1" "50" -\nend 1\nknob vm.swappiness "1" "2" -\n:a line after the end line' \
	'2:knob kernel.hostname "evil" "x" -\nend 1\n:unknown knob' \
	'2:knob vm.min_slab_ratio "1"\nend 1\n:a field is missing' \
	'2:knob vm.min_slab_ratio  "1" "50" -\nend 1\n:expected a quoted string' \
	'2:knob vm.min_slab_ratio "1" "50" - x\nend 1\n:unexpected text at the end of the line' \
	'2:knob vm.min_slab_ratio "1" "50" last\nend 1\n:flag '"'last'"' is not known to this numastatctl' \
	'3:knob vm.min_slab_ratio "1" "50" -\nknob vm.min_slab_ratio "2" "50" -\nend 2\n:a knob saved twice' \
	'2:knob vm.min_slab_ratio "1\n:a quoted string without its closing quote' \
	'2:vm.min_slab_ratio = 1\nend 1\n:not a knob record'; do
	line=${bad%%:*} rest=${bad#*:}
	crafted "${rest%:*}"
	run revert
	expect_rc 1 "a revert file with ${bad##*:}: exit 1"
	expect_err_has "revert:$line: ${bad##*:}" "names the line and the problem (${bad##*:})"
	expect_err_has "nothing was restored" "and says nothing was restored (${bad##*:})"
	expect_one_err_line "in one line (${bad##*:})"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "and restores nothing (${bad##*:})"
done
# The header is the first line, and only the first: a second one, as a
# value of a line-based file could have forged it, is no record.
crafted 'knob vm.min_slab_ratio "50" "51" -\nnumastatctl-revert 2 id=2-0123456789abcdef for=live at=2026-01-01T00:00:00Z by="set"\nknob vm.swappiness "0" "60" -\nend 2\n'
run revert
expect_rc 1 "a second header line is refused"
expect_err_has ":3: not a knob record" "as no record"
for hdr in 'numastatctl-revert 3 id=1-0123456789abcdef for=live at=2026-01-01T00:00:00Z by="set":revert file format 3, which this numastatctl does not read (it reads format 2)' \
	'numastatctl-revert 2 id=1-0123 for=live at=2026-01-01T00:00:00Z by="set":no valid id=' \
	'numastatctl-revert 2 id=1-0123456789abcdef for= at=2026-01-01T00:00:00Z by="set":expected a quoted string' \
	'numastatctl-revert 2 id=1-0123456789abcdef for=live at=yesterday by="set":no valid at=' \
	'# for the live system:the first line is not a numastatctl-revert header'; do
	printf '%s\nend 0\n' "${hdr%:*}" >"$STATE/revert"
	run revert
	expect_rc 1 "a header with ${hdr##*:}: exit 1"
	expect_err_has "${hdr##*:}" "names the problem (${hdr##*:})"
done

# Saved for one system, never written to another: the system is a field of
# the header, compared whole.
fixture sparse3
run set vm.min_slab_ratio=50
A=$ROOT
fixture sparse3
echo 50 >"$ROOT/$VM/min_slab_ratio"
run_raw -S "$ROOT" --state-dir "${A}.state" revert
expect_rc 1 "a revert point of another --sysroot is refused"
expect_err "numastatctl: revert: ${A}.state/revert: saved for --sysroot $(realpath "$A"), not for --sysroot $(realpath "$ROOT"): nothing was restored" \
	"naming both systems"
expect_file "$ROOT/$VM/min_slab_ratio" 50 "nothing was written to the other tree"
sed -i "1s|for=\"[^\"]*\"|for=live|" "${A}.state/revert"
run_raw -S "$A" --state-dir "${A}.state" revert
expect_rc 1 "a revert point for the live system is refused on a --sysroot"
expect_err "numastatctl: revert: ${A}.state/revert: saved for the live system, not for --sysroot $(realpath "$A"): nothing was restored" \
	"naming both"
sed -i "1s|for=live|for=\"$(realpath "$A")/.\"|" "${A}.state/revert"
run_raw -S "$A" --state-dir "${A}.state" revert
expect_rc 1 "another spelling of the same path is another system"

# The format of numastatctl 0.1.0, left in the runtime directory by an
# upgrade without a reboot: read as it was written, its header the first
# three lines and nothing else.
# crafted_v1 TEXT: a revert file as 0.1.0 wrote it for $ROOT, then TEXT.
crafted_v1() {
	mkdir -p "$STATE"
	printf "# numastatctl revert state: 'numastatctl revert' writes these back\n# values before 'apply fast' at 2026-01-01T00:00:00Z\n# for --sysroot %s\n%b" \
		"$(realpath "$ROOT")" "$1" >"$STATE/revert"
	chmod 0600 "$STATE/revert"
}
fixture sparse3
echo 50 >"$ROOT/$VM/min_slab_ratio"
crafted_v1 'vm.min_slab_ratio = 37\n'
run revert
expect_rc 0 "a revert file of the format before is restored from"
expect_out_has "restoring the values saved before 'apply fast' at 2026-01-01T00:00:00Z:" "saying what it restores"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "exactly"
for bad in 'vm.min_slab_ratio = 1\e[31m\n:a control character' \
	"vm.min_slab_ratio = $long\n:value too long" \
	'vm.min_slab_ratio = 1:no newline at the end' \
	'kernel.hostname = evil\n:unknown knob' \
	'vm.min_slab_ratio\n:expected' \
	'vm.min_slab_ratio = \n:no value' \
	"vm.min_slab_ratio = 1\n# for --sysroot $(realpath "$ROOT")\n:expected 'knob = value'"; do
	crafted_v1 "${bad%:*}"
	run revert
	expect_rc 1 "a revert file of the format before with ${bad##*:}: exit 1"
	expect_err_has "${bad##*:}" "names the problem (format before: ${bad##*:})"
	expect_err_has "nothing was restored" "and says nothing was restored (format before: ${bad##*:})"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "and restores nothing (format before: ${bad##*:})"
done
sed -i '3d' "$STATE/revert"
run revert
expect_rc 1 "a revert file of the format before without its '# for' line is refused"
expect_err_has ":3: expected '# for ...'" "naming the line"

# revert --no-snapshot: restoring numa_stat 1 -> 0 zeroes the counters too.
fixture sparse3
echo 0 >"$ROOT/$VM/numa_stat"
run set vm.numa_stat=1 vm.min_slab_ratio=50
: >"$STATE/snapshots"
run revert
expect_rc 1 "revert refuses numa_stat 1 -> 0 when the counters cannot be saved"
expect_err "numastatctl: revert: vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters: $STATE/snapshots: Not a directory (use --no-snapshot to go ahead without a snapshot)" \
	"in one line, with the way out"
expect_out "" "and prints no 'restoring' line before it refuses"
expect_file "$ROOT/$VM/numa_stat" 1 "numa_stat stays 1"
run revert --no-snapshot
expect_rc 0 "revert --no-snapshot goes ahead"
expect_file "$ROOT/$VM/numa_stat" 0 "numa_stat is back to 0"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "and min_slab_ratio to 37"

# A full disk: the revert point cannot be written, so nothing changes.
full_disk() {
	FULL="$TMP/full.$RANDOM"
	mkdir "$FULL" && mount -t tmpfs -o size=64k,mode=0700 none "$FULL" 2>/dev/null || return 1
	at_exit "umount '$FULL'"
}
if [ "$(id -u)" = 0 ] && full_disk; then
	fixture sparse3
	run --state-dir "$FULL/state" set vm.min_slab_ratio=50
	expect_rc 0 "a first change leaves its revert point"
	dd if=/dev/zero of="$FULL/fill" bs=4k >/dev/null 2>&1
	saved=$(cat "$FULL/state/revert")
	run --state-dir "$FULL/state" set vm.min_unmapped_ratio=5
	expect_rc 1 "full disk: a change without a revert point is refused"
	expect_err "numastatctl: set: cannot save the revert point in $FULL/state: No space left on device: nothing was changed (use --no-revert-point to go ahead without one)" \
		"full disk: one line, with the way out"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "full disk: nothing was changed"
	expect_file "$FULL/state/revert" "$saved" "full disk: the revert point of the first change is intact"
	run --state-dir "$FULL/state" set --no-revert-point vm.min_unmapped_ratio=5
	expect_rc 0 "--no-revert-point goes ahead"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 5 "and changes the value"
	expect_err "numastatctl: set: warning: no revert point was saved (--no-revert-point): 'numastatctl revert' cannot undo this change, nor the one before (its revert point was removed)" \
		"saying revert cannot undo it, nor the change before"
	run --state-dir "$FULL/state" revert
	expect_rc 1 "revert then has nothing to revert"
	expect_err_has "nothing to revert" "and says so"
	expect_file "$ROOT/$VM/min_slab_ratio" 50 "the older change is not undone behind the last one's back"
	check "no temporary file is left on the full disk" bash -c "! ls -A '$FULL/state' | grep -q '^\\.'"
	# Read-only: not even the lock can be taken.
	rm -f "$FULL/fill"
	mount -o remount,ro "$FULL" 2>/dev/null
	run --state-dir "$FULL/state" set vm.min_slab_ratio=44
	expect_rc 1 "a read-only state dir refuses the change"
	expect_err_has "$FULL/state/lock: Read-only file system" "naming the lock it cannot take"
	expect_file "$ROOT/$VM/min_slab_ratio" 50 "and changes nothing"
else
	ok "# SKIP needs root and a tmpfs mount for a full disk"
fi

# Room for the revert point but not for the snapshot: the change is refused
# and its revert point taken back, so revert cannot "undo" what never happened.
if [ "$(id -u)" = 0 ] && full_disk; then
	fixture sparse3
	mkdir -p "$FULL/state/snapshots"
	run --state-dir "$FULL/state" set vm.min_slab_ratio=50
	run --state-dir "$FULL/state" revert
	i=0
	while dd if=/dev/zero of="$FULL/fill.$i" bs=4k count=1 2>/dev/null; do i=$((i + 1)); done
	rm -f "$FULL/fill.$i" "$FULL/fill.0"
	run --state-dir "$FULL/state" set vm.numa_stat=0 vm.min_slab_ratio=50
	expect_rc 1 "no room for the snapshot: numa_stat 1 -> 0 is refused"
	expect_err_has "refusing 1 -> 0, which zeroes the NUMA counters: cannot write in $FULL/state/snapshots: No space left on device" \
		"no room for the snapshot: says so"
	expect_file "$ROOT/$VM/numa_stat" 1 "no room for the snapshot: numa_stat stays 1"
	check "and the revert point saved for it is taken back" test ! -e "$FULL/state/revert"
	check "no temporary file is left" bash -c "! ls -A '$FULL/state' '$FULL/state/snapshots' | grep -q '^\.'"
else
	ok "# SKIP needs root and a tmpfs mount for a full disk"
fi

# An immutable state dir (root is not exempt): nothing new can be written in it.
fixture sparse3
run set vm.min_slab_ratio=50
if ! have chattr e2fsprogs; then
	: # reported by have
elif chattr +i "$STATE" 2>/dev/null; then
	saved=$(cat "$STATE/revert")
	run set vm.min_unmapped_ratio=5
	expect_rc 1 "immutable: a change without a revert point is refused"
	expect_err_has "cannot save the revert point in $STATE: Operation not permitted" "immutable: says why"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "immutable: nothing was changed"
	run set --no-revert-point vm.min_unmapped_ratio=5
	expect_rc 1 "immutable: --no-revert-point is refused too, since the old revert point cannot be removed"
	expect_err "numastatctl: set: cannot remove the revert point of the last change ($STATE/revert): Operation not permitted: nothing was changed (use --no-revert-point to go ahead without one)" \
		"immutable: naming the revert point that would otherwise undo an older change"
	expect_file "$ROOT/$VM/min_unmapped_ratio" 13 "immutable: still nothing was changed"
	expect_file "$STATE/revert" "$saved" "immutable: the revert point is the first change's"
	chattr -i "$STATE"
	run revert
	expect_rc 0 "and revert undoes exactly the first change"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "min_slab_ratio is back"
else
	ok "# SKIP this file system has no immutable flag"
fi

# --no-revert-point with a working state dir: the old revert point goes.
fixture sparse3
run set vm.min_slab_ratio=50
run set --no-revert-point vm.min_unmapped_ratio=5
expect_rc 0 "--no-revert-point on a working state dir"
check "removes the revert point of the change before" test ! -e "$STATE/revert"
run revert
expect_rc 1 "so revert cannot undo an older change"
expect_file "$ROOT/$VM/min_slab_ratio" 50 "min_slab_ratio keeps the first change"
run set --no-revert-point vm.min_unmapped_ratio=5
expect_rc 0 "--no-revert-point with nothing to change"
check "writes nothing and says nothing" test -z "$ERR"

# A change rolled back after --no-revert-point removed the old revert
# point: nothing changed, so the old revert point is back.
fixture sparse3
run set vm.min_slab_ratio=50
saved=$(cat "$STATE/revert")
if ! have chattr e2fsprogs; then
	: # reported by have
elif chattr +i "$ROOT/$VM/zone_reclaim_mode" 2>/dev/null; then
	run set --no-revert-point vm.min_unmapped_ratio=5 vm.zone_reclaim_mode=1
	expect_rc 1 "a failed change with --no-revert-point is rolled back"
	expect_file "$STATE/revert" "$saved" "and the revert point of the change before is back"
	chattr -i "$ROOT/$VM/zone_reclaim_mode"
else
	ok "# SKIP this file system has no immutable flag"
fi

done_testing
