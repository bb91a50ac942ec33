#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Names are checked when they are read: a name that is neither a registry
# knob nor a sysctl of this kernel (the sparse3 dump, which lacks
# vm.zone_distribute_mode) is a usage or configuration error with "did you
# mean", wherever it comes from; a registry knob the kernel lacks is exit 1
# with the '-' hint.  Commands, options, profiles and columns get
# suggestions too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

expect_err_lacks() {
	case "$ERR" in *"$1"*) not_ok "$2" "stderr has: $1" ;; *) ok "$2" ;; esac
}

TYPO="unknown knob 'vm.zone_reclam_mode': did you mean vm.zone_reclaim_mode?"

fixture sparse3
before=$(cat "$ROOT/proc/sys/vm/zone_reclaim_mode")
run get vm.zone_reclam_mode
expect_rc 2 "get: a misspelt knob is a usage error"
expect_err "numastatctl: get: $TYPO" "get: one line with the suggestion"
run get vm/zone_recalim_mode
expect_err "numastatctl: get: unknown knob 'vm.zone_recalim_mode': did you mean vm.zone_reclaim_mode?" \
	"get: slashes and a swap of two letters"
run get numa_stats
expect_err "numastatctl: get: unknown knob 'numa_stats': did you mean vm.numa_stat?" \
	"get: a short name is compared with short names"
run get kernal.numa_balancing
expect_err "numastatctl: get: unknown knob 'kernal.numa_balancing': did you mean kernel.numa_balancing?" \
	"get: a misspelt namespace"
run get vm.swapiness
expect_err "numastatctl: get: unknown knob 'vm.swapiness': did you mean vm.swappiness?" \
	"get: pass-through sysctls of this kernel are suggested too"
run get vm.no_such_sysctl_here
expect_rc 2 "get: a pass-through name this kernel lacks is a usage error"
expect_err "numastatctl: get: unknown knob 'vm.no_such_sysctl_here': no such sysctl on this kernel, and not a registry knob ('numastatctl knobs' lists them)" \
	"get: and says why when nothing is close"
run get vm.drop_cache
expect_rc 2 "get: close to an action sysctl"
expect_err_lacks "drop_caches" "get: an action sysctl is never suggested"
run get vm.zone_distribute_mode
expect_rc 1 "get: a registry knob this kernel lacks stays exit 1"
expect_err "numastatctl: get: vm.zone_distribute_mode: not present on this kernel" "get: not present"

run set vm.zone_reclam_mode=1
expect_rc 2 "set: a misspelt knob is a usage error"
expect_err "numastatctl: set: $TYPO" "set: one line, no '-' hint for a typo"
run set -- -vm.zone_reclam_mode=1
expect_rc 2 "set: '-' does not hide a typo"
expect_err "numastatctl: set: $TYPO" "set: '-' typo: the same line"
run set vm.zone_distribute_mode=1 vm.numa_stat=1
expect_rc 1 "set: a registry knob this kernel lacks is exit 1"
expect_err "numastatctl: set: vm.zone_distribute_mode: cannot read /proc/sys/vm/zone_distribute_mode: not present on this kernel
numastatctl: set: vm.zone_distribute_mode: give it as '-vm.zone_distribute_mode=1' (after '--') to skip it where the kernel lacks it
numastatctl: set: nothing was changed" "set: with the '-' hint"
run set -- -vm.zone_distribute_mode=1
expect_rc 0 "set: '-' skips it"

printf 'vm.numa_stat = 1\nvm.zone_reclam_mode = 1\n' >"$TMP/typo.conf"
run set -f "$TMP/typo.conf"
expect_rc 2 "set -f: a misspelt knob is a usage error"
expect_err "numastatctl: set: $TMP/typo.conf:2: $TYPO" "set -f: file:line and the suggestion"
printf 'vm.min_*ratio = 3\n-vm.min_slab_rato\n' >"$TMP/excl.conf"
run set -f "$TMP/excl.conf"
expect_rc 2 "set -f: a misspelt exclusion is refused (the glob would set the knob)"
expect_err "numastatctl: set: $TMP/excl.conf:2: unknown knob 'vm.min_slab_rato': did you mean vm.min_slab_ratio?" \
	"set -f: the exclusion's line"
printf 'vm.zone_distribute_mode = 1\n' >"$TMP/missing.conf"
run set -f "$TMP/missing.conf"
expect_rc 1 "set -f: a registry knob this kernel lacks is exit 1"
expect_err_has "numastatctl: set: $TMP/missing.conf:1: vm.zone_distribute_mode: write '-vm.zone_distribute_mode' to skip it where the kernel lacks it" \
	"set -f: with the '-' hint at its line"
expect_file "$ROOT/proc/sys/vm/zone_reclaim_mode" "$before" "nothing was written by any of it"

# Globs match only what this kernel has.
run get 'vm.*'
expect_rc 0 "get 'vm.*' succeeds on a kernel without vm.zone_distribute_mode"
expect_out_lacks zone_distribute_mode "and does not list it"
expect_out_has "vm.swappiness = 61" "but lists the pass-through sysctls"
run get '*distribute*'
expect_rc 1 "a glob that matches only an absent knob matches nothing"
printf 'vm.zone_* = 1\n' >"$TMP/glob.conf"
run set --dry-run -f "$TMP/glob.conf"
expect_rc 0 "set -f: a glob skips the registry knob this kernel lacks"
expect_out "vm.zone_reclaim_mode: 0 -> 1 (dry run)" "set -f: and sets the one it has"
fixture knobs-few
run get 'vm.zone_*'
expect_out "vm.zone_distribute_mode = $(cat "$ROOT/proc/sys/vm/zone_distribute_mode")" \
	"where the kernel has it, the glob finds it"

# Profiles: every profile is checked when the configuration is read.
fixture sparse3
conf "[numastatctl]
profile = used
[profile used]
vm.numa_stat = 1
[profile unused]
vm.zone_reclam_mode = 1"
prun profiles
expect_rc 2 "profiles: a typo in a profile nobody applies is found"
expect_err "numastatctl: profiles: $CONF:6: [profile unused]: $TYPO" "profiles: with file:line and the suggestion"
prun apply used
expect_rc 2 "apply of another profile refuses the configuration too"
expect_err_has "$CONF:6: [profile unused]: $TYPO" "apply: the same line"
expect_err_lacks "write '-" "apply: no '-' hint for a typo"
conf "[profile p]
vm.numa_stat = 1
vm.zone_distribute_mode = 2"
prun apply p
expect_rc 1 "apply: a registry knob the kernel lacks stays exit 1"
expect_err_has "$CONF:3: vm.zone_distribute_mode: write '-vm.zone_distribute_mode' to skip it where the kernel lacks it" \
	"apply: the '-' hint at its line"

# Commands, options, profiles, columns.
run stats
expect_rc 2 "an unknown command is a usage error"
expect_err "numastatctl: unknown command 'stats': did you mean stat?
Try 'numastatctl --help' for more information." "stats: did you mean stat"
run frobnicate
expect_err "numastatctl: unknown command 'frobnicate'
Try 'numastatctl --help' for more information." "nothing close: no suggestion"
run get --valuse
expect_rc 2 "an unknown long option is a usage error"
expect_err "numastatctl: get: unrecognized option '--valuse': did you mean --values?
Try 'numastatctl get --help' for more information." "--valuse: one line and the Try line"
run --jsno get
expect_err "numastatctl: unrecognized option '--jsno': did you mean --json?
Try 'numastatctl --help' for more information." "a global option before the command"
run stat --nodse=0
expect_err "numastatctl: stat: unrecognized option '--nodse=0': did you mean --nodes?
Try 'numastatctl stat --help' for more information." "--option=value"
run --config "$FIXTURES/../../numastatctl.conf" apply --dry-run thruput
expect_rc 2 "an unknown profile is a usage error"
expect_err "numastatctl: apply: unknown profile 'thruput': did you mean throughput?" \
	"apply thruput: did you mean throughput"
run --config "$FIXTURES/../../numastatctl.conf" profiles Latency
expect_err "numastatctl: profiles: unknown profile 'Latency': did you mean latency?" "profiles: case"
run stat -o NODE,LOCAL
expect_rc 2 "an unknown stat column is a usage error"
expect_err "numastatctl: stat: -o: unknown column 'LOCAL': did you mean LOCAL%?
Try 'numastatctl stat --help' for more information." "stat -o LOCAL: did you mean LOCAL%"
run stat --sort mis
expect_err_has "--sort: unknown column 'mis': did you mean MISS%?" "stat --sort"
run stat -m -o MemTotl
expect_err_has "-o: unknown meminfo field 'MemTotl': did you mean MemTotal?" "stat -m -o"
run knobs -o NAM
expect_err_has "-o: unknown column 'NAM': did you mean NAME?" "knobs -o"
run knobs vm.zone_reclam_mode
expect_err "numastatctl: knobs: vm.zone_reclam_mode: not a registry knob: did you mean vm.zone_reclaim_mode?" \
	"knobs NAME"
run knobs --choices vm.zone_reclam_mode
expect_rc 2 "knobs --choices: a typo is no pass-through sysctl with nothing to offer"
expect_err "numastatctl: knobs: $TYPO" "knobs --choices: the suggestion"
run knobs --choices vm.swappiness
expect_rc 0 "knobs --choices: a pass-through sysctl this kernel has still succeeds"

done_testing
