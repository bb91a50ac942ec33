#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tuned, the neighbour that starts after numastatctl.service: status and
# apply --check name each knob of the profile that tuned leaves otherwise,
# with the tuned profile and file:line, as tuned 2.20 (Debian 12) reads its
# configuration: /etc/tuned/active_profile, /etc/tuned over /usr/lib/tuned,
# include=, replace=, drop=, [variables], uname_regex= and cpuinfo_regex=,
# the > and < modifiers, and reapply_sysctl.  The files are read inside the
# sysroot.  tests/boot proves it with the real tuned on a real boot.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

# file PATH TEXT: PATH under the fixture root holds TEXT.
file() {
	mkdir -p "$(dirname "$ROOT/$1")"
	printf '%s\n' "$2" >"$ROOT/$1"
}

# tuned_here PROFILE: tuned installed with PROFILE active, enabled at boot.
tuned_here() {
	mkdir -p "$ROOT/usr/lib/tuned" "$ROOT/etc/systemd/system/multi-user.target.wants"
	file etc/tuned/active_profile "$1"
	ln -sf /lib/systemd/system/tuned.service "$ROOT/etc/systemd/system/multi-user.target.wants/tuned.service"
}

# A tree like sparse3, a profile p that matches its live values, and tuned
# profiles shaped like the stock ones: hpc includes base, as hpc-compute
# includes latency-performance.
setup() {
	fixture sparse3
	conf "[numastatctl]
profile = p
[profile p]
kernel.numa_balancing = 1
vm.zone_reclaim_mode = 0
vm.min_slab_ratio = 37"
	file usr/lib/tuned/base/tuned.conf "[main]
summary=a base profile
[cpu]
governor=performance
[sysctl]
vm.dirty_ratio=10
vm.min_slab_ratio=9"
	file usr/lib/tuned/hpc/tuned.conf "[main]
summary=Optimize for HPC compute workloads  # an inline comment
include=base
[vm]
transparent_hugepages=always
[sysctl]
vm.min_free_kbytes=135168
vm.zone_reclaim_mode=1
kernel.numa_balancing=0"
}

TW="numastatctl: status: warning:"
ENABLED="tuned.service starts after numastatctl.service and writes it at every boot (numastatctl(8), TUNED, says how to keep one)"

setup
run --config "$CONF" status
expect_rc 0 "status without tuned"
expect_err "" "says nothing of tuned"
run --config "$CONF" -J status
check "status -J: an empty tuned array" python3 -c '
import json, sys
assert json.loads(sys.argv[1])["tuned"] == []' "$OUT"

tuned_here hpc
run --config "$CONF" status
expect_rc 0 "status with tuned's hpc profile active"
expect_out_has "profile: p (live matches)" "the live system still matches: tuned has not run since"
expect_err "$TW vm.zone_reclaim_mode: tuned profile hpc sets 1 at /usr/lib/tuned/hpc/tuned.conf:8, profile p wants 0: $ENABLED
$TW vm.min_slab_ratio: tuned profile base sets 9 at /usr/lib/tuned/base/tuned.conf:7, profile p wants 37: $ENABLED
$TW kernel.numa_balancing: tuned profile hpc sets 0 at /usr/lib/tuned/hpc/tuned.conf:9, profile p wants 1: $ENABLED" \
	"names tuned's profile, the included one and file:line for each knob it fights"
run --config "$CONF" -J status
check "status -J: the tuned array carries the same" python3 -c '
import json, sys
t = {e["name"]: e for e in json.loads(sys.argv[1])["tuned"]}
assert sorted(t) == ["kernel.numa_balancing", "vm.min_slab_ratio", "vm.zone_reclaim_mode"], t
assert t["kernel.numa_balancing"] == {"name": "kernel.numa_balancing", "wants": "1",
	"tuned_profile": "hpc", "tuned": "/usr/lib/tuned/hpc/tuned.conf:9", "tuned_value": "0",
	"tuned_sysctl_d": None, "tuned_sysctl_d_value": None, "boot_value": "0"}, t
' "$OUT"
run --config "$CONF" apply --check
expect_rc 0 "apply --check: no drift now (tuned's conflicts are not drift yet)"
expect_err_has "numastatctl: apply: warning: kernel.numa_balancing: tuned profile hpc sets 0 at /usr/lib/tuned/hpc/tuned.conf:9" \
	"but apply --check names tuned's settings too"

# The boot unit (apply of the configured profile, run by systemd): its
# journal names the profile and the line that chose it, and, once applied,
# each knob tuned will undo, worded as status words it.
INVOCATION_ID=0123456789abcdef0123456789abcdef run --config "$CONF" apply --no-snapshot
expect_rc 0 "the boot unit's apply with tuned's hpc active"
expect_out_has "profile p, as $CONF:2 names it" "names the profile and the file:line that chose it"
expect_err_has "numastatctl: apply: warning: kernel.numa_balancing: tuned profile hpc sets 0 at /usr/lib/tuned/hpc/tuned.conf:9, profile p wants 1: $ENABLED" \
	"and warns that tuned undoes it, as status says it"
run --config "$CONF" revert
run --config "$CONF" apply
expect_out_lacks "names it" "an apply in a terminal says neither"
expect_err "" "nor warns"
run --config "$CONF" revert

# /etc/tuned overrides /usr/lib/tuned by name; including the same name gets
# the shipped one; drop= takes a key out of what is included.
file etc/tuned/hpc/tuned.conf "[main]
include=hpc
[sysctl]
drop=kernel.numa_balancing,vm.min_slab_ratio"
run --config "$CONF" status
expect_err "$TW vm.zone_reclaim_mode: tuned profile hpc sets 1 at /usr/lib/tuned/hpc/tuned.conf:8, profile p wants 0: $ENABLED" \
	"an /etc/tuned profile of the same name that includes the shipped one and drops two keys"
file etc/tuned/hpc/tuned.conf "[main]
include=hpc
[sysctl]
replace=1
vm.zone_reclaim_mode=0"
run --config "$CONF" status
expect_err "" "replace=1: the shipped [sysctl] is gone, and what is left agrees"
file etc/tuned/hpc/tuned.conf "[main]
include=hpc
[sysctl]
enabled=false"
run --config "$CONF" status
expect_err "" "enabled=false: tuned applies no [sysctl] at all"
rm -r "$ROOT/etc/tuned/hpc"

# Several active profiles merge, the later one winning; a name tuned's
# loader refuses is dropped; a missing profile makes tuned load none.
file usr/lib/tuned/mild/tuned.conf "[sysctl]
kernel.numa_balancing = 1"
file etc/tuned/active_profile "hpc mild ../evil"
run --config "$CONF" status
expect_err_lacks() { case "$ERR" in *"$1"*) not_ok "$2" "stderr has: $1" "$ERR" ;; *) ok "$2" ;; esac; }
expect_err_lacks "kernel.numa_balancing" "two active profiles: the later one's kernel.numa_balancing = 1 wins"
expect_err_has "vm.zone_reclaim_mode: tuned profile hpc sets 1" "and the earlier one's other keys stay"
file etc/tuned/active_profile "hpc nosuch"
run --config "$CONF" status
expect_err "$TW tuned: tuned cannot find its profile 'nosuch', so it loads none" \
	"a profile tuned cannot find: tuned applies nothing, and status says why"
file etc/tuned/active_profile "hpc -nosuch"
run --config "$CONF" status
expect_err_has "tuned profile hpc sets 1" "a '-' name that is missing is passed over, as tuned does"

# Conditions: uname_regex and cpuinfo_regex (with a variable) against the
# sysroot's /proc/sys/kernel and /proc/cpuinfo.
setup
tuned_here arm
file usr/lib/tuned/arm/tuned.conf '[variables]
thunderx=CPU part\s+:\s+(0x0?516)|(0x0?af)\b
[sysctl.thunderx]
type=sysctl
uname_regex=aarch64
cpuinfo_regex=${thunderx}
kernel.numa_balancing=0'
for f in ostype:Linux hostname:box osrelease:6.1.0 version:'#1 SMP' arch:x86_64; do
	file "proc/sys/kernel/${f%%:*}" "${f#*:}"
done
file proc/cpuinfo "processor	: 0
CPU part	: 0x0af"
run --config "$CONF" status
expect_err "" "uname_regex=aarch64 on an x86_64 system: the section does not apply"
file proc/sys/kernel/arch aarch64
run --config "$CONF" status
expect_err_has "kernel.numa_balancing: tuned profile arm sets 0" "on aarch64 with a matching CPU part it does"
file proc/cpuinfo "processor	: 0
CPU part	: 0xd0c"
run --config "$CONF" status
expect_err "" "another CPU part: it does not"
rm "$ROOT/proc/sys/kernel/arch"
run --config "$CONF" status
expect_err "" "(the cpuinfo expression alone already says no)"
file proc/cpuinfo "CPU part	: 0xaf"
run --config "$CONF" status
expect_err_has "which numastatctl could not check: counted as applying" \
	"no kernel.arch to match uname_regex against: said, and counted as applying"

# Values: > and < apply only when they raise or lower what tuned finds (the
# profile's value at boot); variables expand; a function cannot be.
setup
tuned_here v
file usr/lib/tuned/v/tuned.conf '[variables]
slab=40
[sysctl]
vm.min_slab_ratio=${slab}
vm.zone_reclaim_mode=<1
kernel.numa_balancing=">0"'
run --config "$CONF" status
expect_err "$TW vm.min_slab_ratio: tuned profile v sets 40 at /usr/lib/tuned/v/tuned.conf:4, profile p wants 37: $ENABLED" \
	"a variable expands; <1 does not lower 0; >0 does not raise 1 (quotes taken off)"
file usr/lib/tuned/v/tuned.conf '[sysctl]
vm.min_slab_ratio=>50
vm.zone_reclaim_mode=${f:exec:/bin/echo:3}'
run --config "$CONF" status
expect_err "$TW vm.zone_reclaim_mode: tuned profile v sets \${f:exec:/bin/echo:3} at /usr/lib/tuned/v/tuned.conf:3, which numastatctl cannot expand, profile p wants 0: $ENABLED
$TW vm.min_slab_ratio: tuned profile v sets 50 at /usr/lib/tuned/v/tuned.conf:2, profile p wants 37: $ENABLED" \
	">50 raises 37; a function is named as it is written"

# reapply_sysctl (on by default): after its profile tuned writes
# /run/sysctl.d, /etc/sysctl.d and /etc/sysctl.conf again, so sysctl.d wins
# over numastatctl.service at boot after all.
setup
tuned_here hpc
file etc/sysctl.d/60-local.conf "vm.min_slab_ratio = 12
-vm.zone_reclaim_mode = 4"
file run/sysctl.d/60-local.conf "vm.min_slab_ratio = 13"
enable_unit() {
	mkdir -p "$ROOT/etc/systemd/system/sysinit.target.wants"
	ln -s /usr/lib/systemd/system/numastatctl.service \
		"$ROOT/etc/systemd/system/sysinit.target.wants/numastatctl.service"
}
enable_unit
run --config "$CONF" status
expect_err_has "$TW vm.min_slab_ratio: sysctl.d sets 12 at /etc/sysctl.d/60-local.conf:1, profile p wants 37: at boot numastatctl.service writes the profile's value after systemd-sysctl, then tuned.service writes 13;" \
	"the sysctl.d warning (systemd-sysctl: /etc masks /run) says tuned writes last"
expect_err_has "$TW vm.min_slab_ratio: tuned (profile hpc) writes sysctl.d's 13 from /run/sysctl.d/60-local.conf:1 again after its profile (reapply_sysctl), profile p wants 37: $ENABLED" \
	"the tuned warning names the file tuned writes again (/run masks /etc by name, as tuned reads them)"
expect_err_has "vm.zone_reclaim_mode: tuned profile hpc sets 1" \
	"a '-key' sysctl.d line is one tuned does not write"
run --config "$CONF" -J status
check "status -J: the sysctl.d file tuned writes again, and what is left after boot" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
t = {e["name"]: e for e in d["tuned"]}["vm.min_slab_ratio"]
assert (t["tuned_sysctl_d"], t["tuned_sysctl_d_value"], t["boot_value"]) == (
	"/run/sysctl.d/60-local.conf:1", "13", "13"), t
s = {e["name"]: e for e in d["sysctl_d"]}["vm.min_slab_ratio"]
assert s["boot_value"] == "13", s' "$OUT"
file etc/tuned/tuned-main.conf "# tuned-main.conf
reapply_sysctl = 0"
run --config "$CONF" status
expect_err_has "$TW vm.min_slab_ratio: tuned profile base sets 9" "reapply_sysctl = 0: tuned's own value is what stays"

# Only a tuned that runs or starts at boot writes; one that runs, not enabled.
setup
tuned_here hpc
rm "$ROOT/etc/systemd/system/multi-user.target.wants/tuned.service"
run --config "$CONF" status
expect_err "" "tuned installed, not enabled, not running: nothing to say"
file run/tuned/tuned.pid 1234
run --config "$CONF" status
expect_err_has "tuned.service runs (not enabled): it wrote it when it started and writes it again at a restart or a profile switch" \
	"a tuned that runs without being enabled"

# Hostile and broken trees: nothing is followed out of the root, nothing
# hangs, nothing breaks status.
setup
tuned_here hpc
ln -s /etc/passwd "$ROOT/usr/lib/tuned/base/tuned.conf.x"
rm "$ROOT/usr/lib/tuned/base/tuned.conf"
ln -s ../../../../../../../../etc/shadow "$ROOT/usr/lib/tuned/base/tuned.conf"
run --config "$CONF" status
expect_rc 0 "a tuned.conf linking out of the root"
expect_err_has "tuned cannot find its profile 'base'" "is looked up inside the root, where it does not exist"
rm "$ROOT/usr/lib/tuned/base/tuned.conf"
mkfifo "$ROOT/usr/lib/tuned/base/tuned.conf"
run --config "$CONF" status
expect_rc 0 "a FIFO as tuned.conf: no hang"
file usr/lib/tuned/loop/tuned.conf "[main]
include=loop2
[sysctl]
vm.min_slab_ratio=8"
file usr/lib/tuned/loop2/tuned.conf "[main]
include=loop"
file etc/tuned/active_profile loop
run --config "$CONF" status
expect_err "$TW vm.min_slab_ratio: tuned profile loop sets 8 at /usr/lib/tuned/loop/tuned.conf:4, profile p wants 37: $ENABLED" \
	"profiles that include each other: each loaded once, as tuned does"
file usr/lib/tuned/bad/tuned.conf "vm.min_slab_ratio=8"
file etc/tuned/active_profile bad
run --config "$CONF" status
expect_err_has "a key before the first section: tuned cannot parse it, so it loads no profile" \
	"a tuned.conf that tuned cannot parse: it loads nothing, and status says so"
mkdir -p "$ROOT/usr/lib/tuned/wide"
includes=
for i in $(seq 1 300); do
	mkdir -p "$ROOT/usr/lib/tuned/w$i"
	printf '[sysctl]\nvm.min_slab_ratio=%d\n' "$i" >"$ROOT/usr/lib/tuned/w$i/tuned.conf"
	includes=$includes${includes:+,}w$i
done
file usr/lib/tuned/wide/tuned.conf "[main]
include=$includes"
file etc/tuned/active_profile wide
run --config "$CONF" status
expect_rc 0 "a profile that includes 300 others"
expect_err "$TW tuned: more than 256 tuned profiles to load: numastatctl reads no more" \
	"is read up to a bound, and said"
file etc/tuned/active_profile bad
head -c 70000 /dev/zero | tr '\0' '#' >"$ROOT/usr/lib/tuned/bad/tuned.conf"
run --config "$CONF" status
expect_err_has "/usr/lib/tuned/bad/tuned.conf: cannot be read" "a tuned.conf over 64 KiB is not read in part"

done_testing
