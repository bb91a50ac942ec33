#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# get: sysctl-style reading, names, globs, JSON, refusals.
. "$(dirname "$0")/lib.sh"

# get on sparse3: its files, never the host's (tests/expected/get/registry.out).
golden_run get/registry.out
expect_rc 0 "get with no knob succeeds"
expect_golden get/registry.out "get lists the registry knobs present in the sysroot, in registry order"

run get -n vm.min_slab_ratio
expect_out "37" "get -n prints the value only (a fixture value, not the host's)"

run get min_slab_ratio vm/min_unmapped_ratio
expect_out "vm.min_slab_ratio = 37
vm.min_unmapped_ratio = 13" "short names and slashes resolve"

run get -N 'vm.min_*'
expect_out "vm.min_unmapped_ratio
vm.min_slab_ratio" "a glob matches in registry order; -N prints names"

run get vm.swappiness
expect_out "vm.swappiness = 61" "other vm.* sysctls pass through"

run get vm.lowmem_reserve_ratio
expect_out "vm.lowmem_reserve_ratio = 256 256 32 0 0" "multi-value sysctls print with single spaces"

run get -J vm.numa_stat mm.numa.demotion_enabled
expect_out '{
   "knobs": [
      {
         "name": "vm.numa_stat",
         "value": "1"
      },{
         "name": "mm.numa.demotion_enabled",
         "value": "false"
      }
   ]
}' "get -J prints the knobs array with string values"

run get vm.zone_distribute_mode
expect_rc 1 "a registry knob missing on this kernel exits 1"
expect_err "numastatctl: get: vm.zone_distribute_mode: not present on this kernel" "and says so in one line"

run get -e vm.zone_distribute_mode vm.numa_stat
expect_rc 0 "-e ignores missing knobs"
expect_out "vm.numa_stat = 1" "-e still prints the present ones"

run get kernel.hostname
expect_rc 2 "a name outside the NUMA namespaces is refused with exit 2"
expect_err "numastatctl: get: unknown knob 'kernel.hostname': only vm.*, kernel.numa_* and the knobs listed by 'numastatctl knobs' are managed" "naming what is allowed"
expect_out "" "and prints nothing on stdout"

for bad in ../etc/passwd vm..numa_stat /proc/sys/vm/numa_stat 'vm.numa stat' vm/numa.stat ''; do
	run get "$bad"
	expect_rc 2 "name '$bad' is refused"
	expect_one_err_line "name '$bad' gets one error line"
done

run get vm.drop_caches
expect_rc 2 "action sysctls are refused"
expect_err_has "is an action, not a setting" "with the reason"

run get -a
expect_rc 0 "get -a succeeds"
expect_out_has "vm.swappiness = 61" "get -a includes pass-through sysctls"
expect_out_lacks "drop_caches" "get -a leaves out action sysctls"
expect_out_lacks "hostname" "get -a stays in the NUMA namespaces"

run get -a --pattern '^kernel\.'
expect_out "kernel.numa_balancing = 1
kernel.numa_balancing_promote_rate_limit_MBps = 65536" "--pattern filters by regular expression"

run get --pattern '('
expect_rc 2 "a bad --pattern is a usage error"

run get -n -N
expect_rc 2 "-n and -N exclude each other"
expect_err_has "Try 'numastatctl get --help' for more information." "usage errors point to the command's --help"

done_testing
