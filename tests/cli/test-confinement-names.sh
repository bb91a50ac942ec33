#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Knob names cannot reach outside /proc/sys/vm, /proc/sys/kernel/numa_* and
# the registry's sysfs files, however they arrive: on the command line (get,
# set), in a sysctl.d file (set -f) or in a profile (apply, profiles).  A
# decoy file planted where a name would lead if it escaped stays untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"
refusal_sweep

BAD=(
	kernel.hostname kernel.core_pattern net.ipv4.ip_forward fs.file-max
	vm.numa_stat/.. vm/../kernel/hostname ../etc/passwd vm/../../etc/passwd
	/proc/sys/vm/numa_stat vm..numa_stat vm.numa_stat. .vm.numa_stat vm//numa_stat
	vm.numa_stat.x kernel.numa_balancing/../../hostname 'vm.numa stat' 'vm.numa_stat;x'
	mm.numa.other mm.numa sys.kernel.mm.numa.demotion_enabled
	kernel.numa_balancing.x vm.drop_caches vm.compact_memory vm.stat_refresh
	"vm.$(printf 'x%.0s' $(seq 1 200))"
)

tree_sum() { find "$ROOT" -type f -exec md5sum {} + | sort; }
# Files a name would reach if it got out of the managed namespaces.
plant_decoys() {
	mkdir -p "$ROOT/etc" "$ROOT/proc/sys/fs" "$ROOT/proc/sys/net/ipv4"
	echo decoy >"$ROOT/etc/passwd"
	echo decoy >"$ROOT/proc/sys/fs/file-max"
	echo decoy >"$ROOT/proc/sys/net/ipv4/ip_forward"
	echo decoy >"$ROOT/proc/sys/kernel/core_pattern"
}

for name in "${BAD[@]}"; do
	fixture sparse3
	plant_decoys
	before=$(tree_sum)
	run get "$name"
	expect_rc 2 "get '$name' is refused"
	expect_one_err_line "get '$name': one line"
	expect_out_lacks decoy "get '$name': no decoy is read"
	run set "$name=1"
	expect_rc 2 "set '$name=1' is refused"
	printf '%s = 1\n' "$name" >"$TMP/sysctl.conf"
	run set -f "$TMP/sysctl.conf"
	expect_rc 2 "set -f with '$name' is refused"
	expect_err_has "$TMP/sysctl.conf:1" "set -f with '$name': names the file and line"
	printf '[profile p]\n%s = 1\n' "$name" >"$TMP/p.conf"
	trust "$TMP/p.conf"
	run --config "$TMP/p.conf" apply p
	expect_rc 2 "a profile with '$name' is refused by apply"
	expect_err_has "$TMP/p.conf:2" "a profile with '$name': names the file and line"
	if [ "$(tree_sum)" = "$before" ]; then ok "'$name': nothing in the tree changed"
	else not_ok "'$name': nothing in the tree changed"; fi
done

# Globs match only names numastatctl manages; one that matches nothing
# writes nothing (set -f ignores it, as systemd-sysctl does).
for glob in 'kernel.*' '*' '*.*' 'vm.*/../*' '../*' 'kernel/*name*'; do
	fixture sparse3
	plant_decoys
	before=$(tree_sum)
	run get "$glob"
	expect_out_lacks hostname "get '$glob' never lists kernel.hostname"
	expect_out_lacks decoy "get '$glob' reads no decoy"
	printf '%s = 1\n' "$glob" >"$TMP/sysctl.conf"
	run set --dry-run -f "$TMP/sysctl.conf"
	expect_out_lacks hostname "set -f with '$glob' would never touch kernel.hostname"
	if [ "$(tree_sum)" = "$before" ]; then ok "'$glob': nothing in the tree changed"
	else not_ok "'$glob': nothing in the tree changed"; fi
done

# The names that are allowed reach exactly their files.
fixture sparse3
run set vm.swappiness=7 kernel.numa_balancing=0 mm.numa.demotion_enabled=1
expect_rc 0 "pass-through vm.*, kernel.numa_* and a registry sysfs knob are set"
expect_file "$ROOT/proc/sys/vm/swappiness" 7 "vm.swappiness lands in /proc/sys/vm"
expect_file "$ROOT/sys/kernel/mm/numa/demotion_enabled" 1 "mm.numa.demotion_enabled lands in its sysfs file"

done_testing
