#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# profiles: the list, one profile with provenance, --cat-config, the status line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

pfixture profile-basic
prun profiles
expect_rc 0 "profiles succeeds"
expect_out "NAME          APPLY_USES SUMMARY                                           ORIGIN
base          no         The fixture's starting values                     $CONF:6
fast          yes        numa_stat off; an optional knob this kernel lacks $CONF:13
local         no         Zone reclaim on, balancing off                    $CONF:20
needs-missing no         A knob this kernel lacks, without '-'             $CONF:27
a             no                                                           $CONF:33
b             no                                                           $CONF:39" \
	"profiles lists names, the one apply uses (APPLY_USES, never DEFAULT: that is the kernel default of knobs), summaries and where each is defined, in file order"

prun profiles -J
expect_out_has '{
   "profiles": [
      {
         "name": "base",
         "apply_uses": false,
         "summary": "The fixture'"'"'s starting values",
         "origin": "'"$CONF"':6"
      },{
         "name": "fast",
         "apply_uses": true,' "profiles -J gives a profiles array with a boolean apply_uses and the origin"

prun profiles local
expect_rc 0 "profiles NAME succeeds"
expect_out "[profile local]                          ; $CONF:20
summary = Zone reclaim on, balancing off ; $CONF:22
include = base                           ; $CONF:21
vm.numa_stat = 1                         ; $CONF:8 (profile base)
vm.zone_reclaim_mode = 1                 ; $CONF:23, overrides 0 at $CONF:9
vm.min_unmapped_ratio = 21               ; $CONF:25, overrides 13 at $CONF:10
vm.min_slab_ratio = 37                   ; $CONF:11 (profile base)
kernel.numa_balancing = 0                ; $CONF:24" \
	"profiles NAME shows each effective key with its file:line and what it overrode"

prun profiles fast -J
expect_out_has '"name": "vm.min_slab_ratio",
         "wants": "9",
         "optional": false,
         "profile": "fast",
         "origin": "'"$CONF"':18",
         "overrides": "37 at '"$CONF"':11"' "profiles NAME -J carries origin and overrides"
expect_out_has '"name": "vm.zone_distribute_mode",
         "wants": "1",
         "optional": true,' "and the '-' prefix as optional"

prun profiles nope
expect_rc 2 "an unknown profile exits 2"
expect_err "numastatctl: profiles: unknown profile 'nope' (profiles: base, fast, local, needs-missing, a, b)" \
	"naming the known ones"

# A drop-in given as --config shows where the later definition came from.
conf "[profile deep]
include = fast
vm.min_slab_ratio = 1"
cat "$ROOT/etc/numastatctl.conf" >"$ROOT.both.conf"
printf '%s\n' "[profile top]" "include = local fast" "vm.min_slab_ratio = 2" >>"$ROOT.both.conf"
trust "$ROOT.both.conf"
CONF="$ROOT.both.conf"
prun profiles top
expect_out "[profile top]                            ; $CONF:44
include = local fast                     ; $CONF:45
vm.numa_stat = 0                         ; $CONF:16 (profile fast), overrides 1 at $CONF:8
vm.zone_reclaim_mode = 1                 ; $CONF:23 (profile local), overrides 0 at $CONF:9
vm.min_unmapped_ratio = 21               ; $CONF:25 (profile local), overrides 13 at $CONF:10
vm.min_slab_ratio = 2                    ; $CONF:46, overrides 9 at $CONF:18, 37 at $CONF:11
kernel.numa_balancing = 0                ; $CONF:24 (profile local)
-vm.zone_distribute_mode = 1             ; $CONF:17 (profile fast)" \
	"two includes: each profile merged once where first reached (fast does not bring base back over local), later wins, overrides listed"

# Problems: the whole configuration is checked, every error printed.
conf "[profile a]
include = b
[profile b]
include = a
[profile c]
vm.numa_stat = 1
vm.numa_stat = 0"
prun profiles
expect_rc 2 "profiles exits 2 on a bad configuration"
expect_err "numastatctl: profiles: $CONF:2: [profile a]: include loop: a -> b -> a
numastatctl: profiles: $CONF:7: [profile c]: duplicate key 'vm.numa_stat' (first set at line 6)" \
	"and lists every problem (a configuration check for scripts)"

# --cat-config: every file with a header (one file here: --config replaces the defaults).
pfixture profile-basic
prun profiles --cat-config
expect_rc 0 "--cat-config succeeds"
expect_out "# $CONF
$(cat "$CONF")" "--cat-config prints the file under a header naming it"
run --config /nonexistent.conf profiles --cat-config
expect_rc 1 "--cat-config of a missing file exits 1"
expect_err "numastatctl: profiles: /nonexistent.conf: cannot read: No such file or directory" "naming it"
prun profiles --cat-config base
expect_rc 2 "--cat-config takes no profile"
prun profiles --cat-config -J
expect_rc 2 "--cat-config -J is refused: the files have no JSON form"
expect_out "" "and prints no text on stdout"
expect_err_has "numastatctl: profiles: --cat-config has no JSON form: it prints the configuration files as they are ('profiles -J NAME' gives a profile's keys)" \
	"saying where the JSON is"

# status names the configured profile and compares it with the live values.
pfixture profile-basic
prun status
expect_rc 0 "status succeeds with a configuration"
expect_out_has "profile: fast (live differs: vm.numa_stat is 1 (wants 0), vm.min_slab_ratio is 37 (wants 9))" \
	"status shows the drift from the configured profile"
prun apply -q --no-snapshot
prun status
expect_out_has "profile: fast (live matches)" "and that it matches after apply"
run --config /dev/null status
expect_rc 0 "status works without any configuration"
expect_out_has "profile: none configured" "and says none is configured"
conf "[profile p]
vm.numa_stat = 7"
prun status
expect_rc 0 "status still works with a broken configuration"
expect_err_has "warning: the configuration has a problem: $CONF:2: [profile p]: vm.numa_stat: invalid value '7': must be 0 or 1 (or on/off)" \
	"and warns, naming the file:line and the problem"
conf "[profile p]
vm.numa_stat = 7
vm.zone_reclaim_mode = x"
prun status
expect_err_has "warning: the configuration has problems: $CONF:2: [profile p]: vm.numa_stat: invalid value '7': must be 0 or 1 (or on/off) (and 1 more: 'numastatctl profiles' lists them)" \
	"with more than one problem: the first named, the others counted"
prun status -J
expect_out_lacks "profile:" "status -J stays one JSON document"

done_testing
