#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Configuration files that are not configuration files: binary garbage,
# NUL bytes, huge files, 1 MiB lines, /proc files whose size lies, devices,
# directories, files others can write.  Each is exit 2 with the file named,
# no crash, and the sysroot untouched.  (The profile syntax errors are in
# test-profile-*.sh.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

tree_sum() { find "$ROOT" -type f -exec md5sum {} + | sort; }

# bad_conf DESC FILE WANT_ERR [one]: profiles and apply both refuse FILE
# (with "one": profiles says so in exactly one line).
bad_conf() {
	local desc=$1 file=$2 want=$3 before
	fixture sparse3
	before=$(tree_sum)
	run --config "$file" profiles
	expect_rc 2 "$desc: profiles exits 2"
	expect_err_has "$want" "$desc: the error names the file and the problem"
	[ "${4:-}" = one ] && expect_one_err_line "$desc: one error line"
	run --config "$file" apply
	expect_rc 2 "$desc: apply exits 2"
	if [ "$(tree_sum)" = "$before" ]; then ok "$desc: nothing was written"
	else not_ok "$desc: nothing was written"; fi
}

# Deterministic garbage: every byte value, shuffled by a fixed LCG.
garbage() {
	awk -v n="$1" 'BEGIN { x = 7; for (i = 0; i < n; i++) {
		x = (x * 1103515245 + 12345) % 2147483648; printf "%c", int(x / 65536) % 256 } }' \
		LC_ALL=C
}

G="$TMP/garbage.conf"
LC_ALL=C garbage 4096 >"$G"
trust "$G"
bad_conf "binary garbage" "$G" "$G:1:"

N="$TMP/nul.conf"
printf '[profile a]\nvm.numa_stat = 0\0 junk\n' >"$N"
trust "$N"
bad_conf "a NUL byte" "$N" "$N:2:"

H="$TMP/huge.conf"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' ';' >"$H"
trust "$H"
bad_conf "a file over 1 MiB" "$H" "$H: larger than 1048576 bytes" one

L="$TMP/longline.conf"
{ printf '[profile a]\nvm.numa_stat = '; head -c $((1024 * 1024 - 100)) /dev/zero | tr '\0' '1'; echo; } >"$L"
trust "$L"
bad_conf "a line of almost 1 MiB" "$L" "$L:2: [profile a]: line is 1048491 characters long: at most 199" one

# /proc files report size 0 and then deliver bytes: this once freed the
# buffer twice.
bad_conf "a /proc file whose size lies" /proc/self/status "/proc/self/status: changed while being read" one

bad_conf "a directory" "$TMP" "$TMP: not a regular file"
bad_conf "a character device" /dev/zero "/dev/zero: not a regular file"
bad_conf "a missing file" "$TMP/none.conf" "$TMP/none.conf: cannot read: No such file or directory"

if [ "$(id -u)" = 0 ]; then
	W="$TMP/writable.conf"
	printf '[profile a]\nvm.min_slab_ratio = 9\n' >"$W"
	chown 0:0 "$W"
	chmod 0666 "$W"
	bad_conf "a file others can write (as root)" "$W" "$W: writable by group or others: refusing it"
	O="$TMP/owned.conf"
	printf '[profile a]\nvm.min_slab_ratio = 9\n' >"$O"
	chown 65534:0 "$O"
	chmod 0644 "$O"
	bad_conf "a file not owned by root (as root)" "$O" "$O: owned by uid 65534, not by root"
fi

# No silent limit on sections: a section first seen after 280 others and
# repeated is refused as the second one is, never merged.
M="$TMP/many.conf"
for i in $(seq 0 299); do printf '[profile p%d]\nvm.numa_stat = 1\n' "$i"; done >"$M"
printf '[profile p280]\nvm.min_slab_ratio = 3\n' >>"$M"
trust "$M"
bad_conf "a repeated section after 280 others" "$M" \
	"$M:601: section [profile p280] appears twice in this file (first at line 561)" one

# Short of memory, a configuration is never half read: whatever could not be
# kept (an error, a key, a drop-in), apply fails, and says so in its own lines.
if unsanitized "an address-space limit" && have prlimit util-linux; then
	fixture sparse3
	T="$TMP/typo-elsewhere.conf"
	{ for i in $(seq 0 199); do printf '[profile p%d]\nsummary = x\nvm.numa_stat = 1\n' "$i"; done
	  printf '[profile bad]\nvm.zone_reclam_mode = 1\n'; } >"$T"
	trust "$T"
	limited() {
		prlimit --as=$(($1 * 1024)) "$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" \
			--config "$T" apply --dry-run p1 >"$TMP/out" 2>"$TMP/err" </dev/null
		RC=$?
	}
	lo=1024 hi=65536
	while [ $((hi - lo)) -gt 16 ]; do
		mid=$(((lo + hi) / 2))
		limited "$mid"
		if [ "$RC" = 127 ]; then lo=$mid; else hi=$mid; fi
	done
	wrong=
	for kb in $(seq "$lo" 8 $((lo + 512))) $(seq $((lo + 512)) 256 $((lo + 8192))); do
		limited "$kb"
		[ "$RC" = 127 ] && continue
		if [ "$RC" = 0 ] || grep -qv '^numastatctl: apply: ' "$TMP/err" || [ ! -s "$TMP/err" ]; then
			wrong="$wrong $kb KiB: exit $RC, stderr: $(<"$TMP/err")"
		fi
	done
	if [ -z "$wrong" ]; then ok "under a memory limit the typo in another profile still stops apply"
	else not_ok "under a memory limit the typo in another profile still stops apply" "$wrong"; fi
fi

# /dev/null is the documented empty configuration.
fixture sparse3
run --config /dev/null profiles
expect_rc 0 "--config /dev/null is an empty configuration"

done_testing
