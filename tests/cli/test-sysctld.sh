#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sysctl.d, the neighbour that sets the same knobs: status and apply --check
# name each assignment that differs from the profile with its file:line, and
# say which value holds at boot (systemd-sysctl, then numastatctl.service)
# and after `sysctl --system` (procps: also /lib/sysctl.d and /etc/sysctl.conf).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

# sysctld FILE TEXT: FILE (under the fixture root) holds TEXT.
sysctld() {
	mkdir -p "$(dirname "$ROOT/$1")"
	printf '%s\n' "$2" >"$ROOT/$1"
}

enable_unit() {
	mkdir -p "$ROOT/etc/systemd/system/sysinit.target.wants"
	ln -s /usr/lib/systemd/system/numastatctl.service \
		"$ROOT/etc/systemd/system/sysinit.target.wants/numastatctl.service"
}

W="numastatctl: apply: warning: vm.zone_reclaim_mode: sysctl.d sets"

pfixture profile-basic
prun apply --check local
expect_rc 3 "--check without sysctl.d files: the drift alone"
expect_err "" "and no sysctl.d warning"

sysctld etc/sysctl.d/50-numa.conf '# local tuning
vm.zone_reclaim_mode = 0'
prun apply --check local
expect_rc 3 "a sysctl.d conflict does not change --check's exit code"
expect_err "$W 0 at /etc/sysctl.d/50-numa.conf:2, profile local wants 1: at boot 0 holds (numastatctl.service is not enabled); 'sysctl --system' writes 0 (/etc/sysctl.d/50-numa.conf:2) until the next apply" \
	"--check names the assignment, and 0 holds at boot while the unit is not enabled"

enable_unit
prun apply --check local
expect_err "$W 0 at /etc/sysctl.d/50-numa.conf:2, profile local wants 1: at boot the profile wins (numastatctl.service runs after systemd-sysctl); 'sysctl --system' writes 0 (/etc/sysctl.d/50-numa.conf:2) until the next apply" \
	"with the unit enabled the profile wins at boot"

prun apply --check base
expect_rc 0 "a profile that agrees with sysctl.d: no drift"
expect_err "" "and no warning"

# Precedence: /etc masks the same name in /usr/lib; later names win.
pfixture profile-basic
sysctld usr/lib/sysctl.d/50-numa.conf 'vm.zone_reclaim_mode = 4'
sysctld etc/sysctl.d/50-numa.conf 'vm.zone_reclaim_mode = 1'
prun apply --check local
expect_err "" "/etc/sysctl.d masks a file of the same name in /usr/lib/sysctl.d"
sysctld run/sysctl.d/60-later.conf 'vm/zone_reclaim_mode=2'
prun apply --check local
expect_err "$W 2 at /run/sysctl.d/60-later.conf:1, profile local wants 1: at boot 2 holds (numastatctl.service is not enabled); 'sysctl --system' writes 2 (/run/sysctl.d/60-later.conf:1) until the next apply" \
	"a later file name wins across directories, slash keys included"

# /etc/sysctl.conf and /lib/sysctl.d: read by sysctl --system only.
pfixture profile-basic
sysctld etc/sysctl.conf 'vm.zone_reclaim_mode = 0'
prun apply --check local
expect_err "$W 0 at /etc/sysctl.conf:1, profile local wants 1: systemd-sysctl agrees with the profile at boot; 'sysctl --system' writes 0 (/etc/sysctl.conf:1) until the next apply" \
	"/etc/sysctl.conf counts for sysctl --system, not for systemd-sysctl"
pfixture profile-basic
sysctld lib/sysctl.d/10-vendor.conf 'vm.zone_reclaim_mode = 0'
prun apply --check local
expect_err_has "'sysctl --system' writes 0 (/lib/sysctl.d/10-vendor.conf:1)" "/lib/sysctl.d counts for sysctl --system"
expect_err_has "systemd-sysctl agrees" "and not for systemd-sysctl"

# Debian's /etc/sysctl.d/99-sysctl.conf -> ../sysctl.conf, followed inside the root.
pfixture profile-basic
sysctld etc/sysctl.conf 'vm.zone_reclaim_mode = 0'
mkdir -p "$ROOT/etc/sysctl.d"
ln -s ../sysctl.conf "$ROOT/etc/sysctl.d/99-sysctl.conf"
prun apply --check local
expect_err_has "sets 0 at /etc/sysctl.d/99-sysctl.conf:1" "Debian's 99-sysctl.conf link is read at boot"
# An absolute link stays inside the root as well.
rm "$ROOT/etc/sysctl.d/99-sysctl.conf" "$ROOT/etc/sysctl.conf"
ln -s /etc/host-only.conf "$ROOT/etc/sysctl.d/99-sysctl.conf"
sysctld etc/host-only.conf 'vm.zone_reclaim_mode = 3'
prun apply --check local
expect_err_has "sets 3 at /etc/sysctl.d/99-sysctl.conf:1" "an absolute link is resolved inside the root"

# Globs: systemd-sysctl lets an explicit key beat a glob; procps writes in order.
pfixture profile-basic
sysctld etc/sysctl.d/10-explicit.conf 'vm.zone_reclaim_mode = 1'
sysctld etc/sysctl.d/20-glob.conf 'vm.zone_reclaim_* = 0'
prun apply --check local
expect_err "$W 0 at /etc/sysctl.d/20-glob.conf:1, profile local wants 1: systemd-sysctl agrees with the profile at boot; 'sysctl --system' writes 0 (/etc/sysctl.d/20-glob.conf:1) until the next apply" \
	"an explicit key beats a later glob at boot, not for sysctl --system"
sysctld etc/sysctl.d/30-exclude.conf '-vm.zone_reclaim_mode'
sysctld etc/sysctl.d/20-glob.conf 'vm.min_*_ratio = 50'
prun apply --check local
expect_err_has "vm.min_unmapped_ratio: sysctl.d sets 50 at /etc/sysctl.d/20-glob.conf:1, profile local wants 21" \
	"a glob reaches every knob it matches"
expect_err_has "vm.min_slab_ratio: sysctl.d sets 50" "vm.min_slab_ratio too"

# Values: compared as the kernel reads them (base 0); one it refuses sets nothing.
pfixture profile-basic
sysctld etc/sysctl.d/50-numa.conf '-vm.min_slab_ratio = 045'
prun apply --check base
expect_err "" "045 is octal to the kernel, 37: no conflict ('-' prefix read too)"
sysctld etc/sysctl.d/50-numa.conf 'vm.min_slab_ratio = 046'
prun apply --check base
expect_err "numastatctl: apply: warning: vm.min_slab_ratio: sysctl.d sets 046 at /etc/sysctl.d/50-numa.conf:1, profile base wants 37: at boot 38 holds (numastatctl.service is not enabled); 'sysctl --system' writes 046 (/etc/sysctl.d/50-numa.conf:1) until the next apply" \
	"046 is 38 to the kernel: as written where it stands, as read where it holds"
sysctld etc/sysctl.d/50-numa.conf 'vm.min_slab_ratio = 0x25
vm.numa_stat = 1'
prun apply --check base
expect_err "" "0x25 is 37 to the kernel: no conflict"
sysctld etc/sysctl.d/50-numa.conf 'vm.numa_stat = off
vm.min_slab_ratio = 1000
malformed line'
prun apply --check base
expect_err "" "values the kernel refuses ('off', 1000 > 100) set nothing; a malformed line is passed over"
sysctld etc/sysctl.d/50-numa.conf 'vm.min_slab_ratio = 38 '
prun apply --check base
expect_err_has "vm.min_slab_ratio: sysctl.d sets 38 at" "trailing blanks are the kernel's too"

# JSON: the same facts on each knob, null where sysctl.d agrees.
pfixture profile-basic
sysctld etc/sysctl.d/50-numa.conf 'vm.zone_reclaim_mode = 0'
enable_unit
prun apply --check -J local
expect_out_has '"name": "vm.zone_reclaim_mode",
         "old": "0",
         "new": "1",
         "action": "would-change",
         "sysctl_d_boot": "/etc/sysctl.d/50-numa.conf:1",
         "sysctl_d_boot_value": "0",
         "sysctl_d_system": "/etc/sysctl.d/50-numa.conf:1",
         "sysctl_d_system_value": "0",
         "boot_value": "1"' "--check -J carries the assignment and the value that holds at boot"
expect_out_has '"name": "vm.numa_stat",
         "old": "1",
         "new": "1",
         "action": "unchanged",
         "sysctl_d_boot": null' "and null where sysctl.d has nothing to say"
check "the JSON parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out"

# status names the conflicts of the configured profile.
pfixture profile-basic
sysctld etc/sysctl.d/50-numa.conf 'vm.min_slab_ratio = 37'
prun status
expect_rc 0 "status succeeds"
expect_err_has "numastatctl: status: warning: vm.min_slab_ratio: sysctl.d sets 37 at /etc/sysctl.d/50-numa.conf:1, profile fast wants 9" \
	"status warns about the configured profile's conflicts"
prun status -J
check "status -J lists the conflict in sysctl_d, and the warning" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["sysctl_d"] == [{"name": "vm.min_slab_ratio", "wants": "9",
	"sysctl_d_boot": "/etc/sysctl.d/50-numa.conf:1", "sysctl_d_boot_value": "37",
	"sysctl_d_system": "/etc/sysctl.d/50-numa.conf:1", "sysctl_d_system_value": "37",
	"boot_value": "37"}], d["sysctl_d"]
assert any(w.startswith("vm.min_slab_ratio: sysctl.d sets 37 at ") for w in d["warnings"]), d
' "$OUT"
check "and matches its schema in numastatctl(8)" \
	python3 "$SOURCE_ROOT/tests/json-schema.py" "$SOURCE_ROOT/man/numastatctl.8.scd" status <<<"$OUT"

# set: a value the next boot replaces is said, with the line that does it
# and the line that keeps the new value.
pfixture profile-basic
prun set vm.min_slab_ratio=20
expect_rc 0 "set with nothing to put it back at boot succeeds"
expect_err "" "and says nothing of the boot"
enable_unit
prun set vm.min_slab_ratio=21 vm.zone_reclaim_mode=0
expect_rc 0 "set of a knob the boot profile sets otherwise succeeds"
expect_err "numastatctl: set: warning: vm.min_slab_ratio: the next boot puts 9 back: numastatctl.service applies profile fast, which sets it at $CONF:18; to keep 21, add 'vm.min_slab_ratio = 21' under '[profile fast]' in $CONF (numastatctl.conf(5))" \
	"it names the boot profile's line and the line that keeps the value, not the knob it agrees on"
prun set --dry-run vm.min_slab_ratio=22
expect_err_has "the next boot puts 9 back" "--dry-run says it too"
prun set vm.min_slab_ratio=21
expect_err "" "a value already in force: nothing to say (nothing is read for it)"
sed -i 's/^vm.min_slab_ratio = 9$/vm.min_slab_ratio = 21/' "$CONF"
echo 30 >"$ROOT/proc/sys/vm/min_slab_ratio"
prun set vm.min_slab_ratio=21
expect_err "" "once the profile holds the value, nothing to say"
sysctld etc/sysctl.d/50-numa.conf 'vm.zone_reclaim_mode = 4'
echo 1 >"$ROOT/proc/sys/vm/zone_reclaim_mode"
prun set vm.zone_reclaim_mode=0
expect_err "" "the profile sets the knob to that value and has the last word at boot: sysctl.d's line is not said"
rm "$ROOT/etc/systemd/system/sysinit.target.wants/numastatctl.service"
prun set vm.zone_reclaim_mode=2
expect_err "numastatctl: set: warning: vm.zone_reclaim_mode: the next boot puts 4 back: systemd-sysctl writes it from /etc/sysctl.d/50-numa.conf:1; to keep 2, write 'vm.zone_reclaim_mode = 2' there" \
	"with the unit not enabled, sysctl.d's line is what the next boot writes"

done_testing
