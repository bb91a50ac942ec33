# SPDX-License-Identifier: GPL-2.0-or-later
# fish completion for numastatctl(8).
#
# Knob names, their values and the -o columns come from the numastatctl being
# completed (`knobs --names`, `knobs --choices KNOB`, `CMD --help`), so they
# always match the installed registry; profile names from `profiles`,
# snapshot names from `snapshots --names`.

set -l __numastatctl_commands status advise get set stat map placement apply profiles revert confirm trial snapshots knobs selftest bench

# The binary being completed, with the line's --sysroot, --config and --state-dir.
function __numastatctl_run
    set -l tokens (commandline -opc)
    set -l ctx
    set -l i 2
    while test $i -le (count $tokens)
        switch $tokens[$i]
            case -S --sysroot -c --config --state-dir
                set -l next (math $i + 1)
                if test $next -le (count $tokens)
                    set -a ctx $tokens[$i] $tokens[$next]
                end
            case '--sysroot=*' '--config=*' '--state-dir=*'
                set -a ctx $tokens[$i]
        end
        set i (math $i + 1)
    end
    command -q $tokens[1]; or return
    command $tokens[1] $ctx $argv 2>/dev/null
end

function __numastatctl_sysroot
    set -l tokens (commandline -opc)
    set -l i (contains -i -- --sysroot $tokens; or contains -i -- -S $tokens)
    and echo $tokens[(math $i + 1)]
end

function __numastatctl_knob_names
    __numastatctl_run knobs --names
    # A per-node knob (nodeN): each node's name this machine has.
    __numastatctl_run get -N -e 'mm.*.node[0-9]*'
end

# set KNOB=VALUE: the name, then the values its type allows.
function __numastatctl_assignments
    set -l cur (commandline -ct)
    if string match -q -- '*=*' $cur
        set -l knob (string replace -r '=.*' '' -- $cur)
        for v in (__numastatctl_run knobs --choices (string replace -r '^-' '' -- $knob))
            echo $knob=$v
        end
    else
        for k in (__numastatctl_knob_names)
            echo $k=
        end
    end
end

function __numastatctl_snapshots
    echo latest
    __numastatctl_run snapshots --names
end

function __numastatctl_profiles
    # The first column of the list, below its header.
    __numastatctl_run profiles | awk 'NR > 1 { print $1 }'
end

# Column names from the "Available output columns" part of CMD --help.
function __numastatctl_columns
    __numastatctl_run $argv[1] --help |
        sed -n '/^Available output columns/,/^$/{s/^ *\([A-Z_%]*[A-Z_%]\) .*/\1/p}'
end

# A comma-separated list: complete its last element.
function __numastatctl_list
    set -l cur (commandline -ct)
    set -l prefix (string replace -r '[^,]*$' '' -- $cur)
    for w in $argv
        echo $prefix$w
    end
end

function __numastatctl_node_ids
    set -l root (__numastatctl_sysroot)
    for d in $root/sys/devices/system/node/node*
        string match -qr '/node[0-9]+$' -- $d; and string replace -r '.*/node' '' -- $d
    end
end

# The units that have a cgroup: slices and scopes at the top, services,
# scopes and slices one level down.
function __numastatctl_cgroups
    set -l d (__numastatctl_sysroot)/sys/fs/cgroup
    test -e $d/cgroup.controllers; or not test -d $d/unified; or set d $d/unified
    for u in $d/*.slice $d/*.scope $d/*/*.service $d/*/*.scope $d/*/*.slice
        test -d $u; and string replace -r '.*/' '' -- $u
    end
end

function __numastatctl_nodes
    set -l ids (__numastatctl_node_ids)
    string match -q -- '*,*' (commandline -ct); or set -a ids all
    __numastatctl_list $ids
end

complete -c numastatctl -f

# Global options, valid before and after the command.
complete -c numastatctl -s S -l sysroot -x -a '(__fish_complete_directories)' -d 'Use DIR/proc and DIR/sys instead of the live system'
complete -c numastatctl -s c -l config -r -F -d 'Profile file'
complete -c numastatctl -l state-dir -x -a '(__fish_complete_directories)' -d 'Revert point, lock and snapshots'
complete -c numastatctl -s J -l json -d 'JSON output'
complete -c numastatctl -s q -l quiet -d 'Print only errors'
complete -c numastatctl -s h -l help -d 'Display help'
complete -c numastatctl -s V -l version -n "not __fish_seen_subcommand_from $__numastatctl_commands" -d 'Display version'

# Commands.
set -l nocmd "not __fish_seen_subcommand_from $__numastatctl_commands"
complete -c numastatctl -n $nocmd -a status -d 'Knobs in words, profile drift, warnings (default)'
complete -c numastatctl -n $nocmd -a advise -d 'Recommendations from topology and counters'
complete -c numastatctl -n $nocmd -a get -d 'Print knobs, sysctl style'
complete -c numastatctl -n $nocmd -a set -d 'Set knobs (validated, all or nothing)'
complete -c numastatctl -n $nocmd -a stat -d 'Per-node NUMA statistics'
complete -c numastatctl -n $nocmd -a map -d 'Which node is what: CPUs, memory source, zones, tier, weight'
complete -c numastatctl -n $nocmd -a placement -d "Is a workload's memory on its CPUs' nodes?"
complete -c numastatctl -n $nocmd -a apply -d 'Apply a profile'
complete -c numastatctl -n $nocmd -a profiles -d 'List profiles or show one resolved'
complete -c numastatctl -n $nocmd -a revert -d 'Restore the values saved before the last change'
complete -c numastatctl -n $nocmd -a confirm -d 'Keep the change of the running trial (--try)'
complete -c numastatctl -n $nocmd -a trial -d 'Report the running or last trial against its baseline'
complete -c numastatctl -n $nocmd -a snapshots -d 'List the counter snapshots saved before a reset'
complete -c numastatctl -n $nocmd -a knobs -d 'The knob registry: types, values, defaults, effects'
complete -c numastatctl -n $nocmd -a selftest -d 'Prove the NUMA counters move on this machine'
complete -c numastatctl -n $nocmd -a bench -d 'A/B page-fault benchmark of a knob'

# advise
set -l c '__fish_seen_subcommand_from advise'
complete -c numastatctl -n $c -l interval -x -d 'Sample the counters twice, SECONDS apart'
complete -c numastatctl -n $c -l profile -x -d 'Print the advice as a [profile NAME] section'
complete -c numastatctl -n $c -l rules -d 'List the rules'

# get
set -l c '__fish_seen_subcommand_from get'
complete -c numastatctl -n $c -s n -l values -d 'Print values only'
complete -c numastatctl -n $c -s N -l names -d 'Print names only'
complete -c numastatctl -n $c -s a -l all -d 'Also every other vm.* and kernel.numa_* sysctl'
complete -c numastatctl -n $c -s e -l ignore -d 'Say nothing about knobs missing here'
complete -c numastatctl -n $c -l pattern -x -d 'Only names matching the extended regex'
complete -c numastatctl -n $c -a '(__numastatctl_knob_names)' -d Knob

# set
set -l c '__fish_seen_subcommand_from set'
complete -c numastatctl -n $c -l dry-run -d 'Show what would change, write nothing'
complete -c numastatctl -n $c -s f -l file -r -F -d 'Read assignments in sysctl.d syntax'
complete -c numastatctl -n $c -l managed-only -d 'With -f: skip keys numastatctl does not manage'
complete -c numastatctl -n $c -l no-snapshot -d 'Let vm.numa_stat go 1 -> 0 without saving the counters'
complete -c numastatctl -n $c -l no-revert-point -d 'Change even when no revert point can be saved'
complete -c numastatctl -n $c -l try -x -a '20s 1m 5m 15m 1h' -d 'A trial: revert after this time unless confirmed'
complete -c numastatctl -n $c -l baseline -x -a '0 10s 30s 1m' -d 'With --try: measure the counters this long first'
complete -c numastatctl -n $c -l foreground -d 'With --try: wait in this terminal, not with a systemd timer'
complete -c numastatctl -n $c -a '(__numastatctl_assignments)'

# stat
set -l c '__fish_seen_subcommand_from stat'
complete -c numastatctl -n $c -l nodes -x -a '(__numastatctl_nodes)' -d 'Only these nodes'
complete -c numastatctl -n $c -s o -l output -x -a '(__numastatctl_list (__numastatctl_columns stat))' -d 'Columns to print'
complete -c numastatctl -n $c -s n -l noheadings -d 'Do not print headings'
complete -c numastatctl -n $c -s r -l raw -d 'Raw output'
complete -c numastatctl -n $c -s m -l meminfo -d 'Per-node memory'
complete -c numastatctl -n $c -s b -l bytes -d 'Sizes in bytes'
complete -c numastatctl -n $c -s z -l skip-zero -d 'Drop all-zero rows and columns'
complete -c numastatctl -n $c -l sort -x -a '(__numastatctl_columns stat)' -d 'Sort rows by a column'
complete -c numastatctl -n $c -l compact -d 'Narrowest columns'
complete -c numastatctl -n $c -s w -l width -x -d 'Fold the table to this width'
complete -c numastatctl -n $c -l compat -d 'The output of numastat, byte for byte'
complete -c numastatctl -n $c -l rate -d 'Per-second rates in interval mode'
complete -c numastatctl -n $c -s t -l timestamp -d 'A TIME column in interval mode'
complete -c numastatctl -n $c -l totals -d 'The totals since the start, at the end of interval mode'
complete -c numastatctl -n $c -s p -l pid -x -a '(__fish_complete_pids)' -d 'Per-process memory per node'
complete -c numastatctl -n $c -l interleave -d 'With --pid: weighted interleave mappings against the weights'
complete -c numastatctl -n $c -l prometheus -d 'Prometheus text format'
complete -c numastatctl -n $c -l textfile -x -a '(__fish_complete_directories)' -d 'Write DIR/numastatctl.prom for node_exporter'
complete -c numastatctl -n $c -l prometheus-names -x -a 'numastatctl node_exporter' -d 'Metric names of the per-node series'
complete -c numastatctl -n $c -l snapshot -x -a '(__numastatctl_snapshots)' -d 'The counters saved in a snapshot'
complete -c numastatctl -n $c -l since -x -a '(__numastatctl_snapshots)' -d 'Live counters plus those saved in a snapshot'
complete -c numastatctl -n $c -l balancing -d 'NUMA balancing and page migration counters'
complete -c numastatctl -n $c -l tiers -d 'Memory tiers, node kinds, distances, promotion and demotion'
complete -c numastatctl -n $c -l reclaim -d 'Pages reclaim scanned and freed (pgscan, pgsteal)'
complete -c numastatctl -n $c -l migration -d 'The migration ledger: pages migrated, by cause'
complete -c numastatctl -n $c -l migration-reasons -d 'Migrations by the kernel\'s own reason over each interval'
complete -c numastatctl -n $c -l cgroup -x -a '(__numastatctl_cgroups)' -d 'Per-node memory of cgroups'
complete -c numastatctl -n $c -l container -x -d 'Per-node memory of a container'
complete -c numastatctl -n $c -l pod -x -d 'Per-node memory of a pod\'s containers'

# placement
set -l c '__fish_seen_subcommand_from placement'
complete -c numastatctl -n $c -l pid -x -a '(__fish_complete_pids)' -d 'A process, or every process matching a pattern'
complete -c numastatctl -n $c -l cgroup -x -a '(__numastatctl_cgroups)' -d 'A cgroup, unit or pattern'
complete -c numastatctl -n $c -l container -x -d 'A container by name, id or pattern'
complete -c numastatctl -n $c -l pod -x -d 'The containers of a pod: NAMESPACE/NAME'
complete -c numastatctl -n $c -l check -d 'Exit 3 when actionable memory is above the limit'
complete -c numastatctl -n $c -l max-remote-anon -x -d 'The share --check allows'
complete -c numastatctl -n $c -l max-near -x -d 'Near memory above this share is actionable'
complete -c numastatctl -n $c -l move -d 'Move the pages the plan names'
complete -c numastatctl -n $c -l dry-run -d 'With --move: show the moves, move nothing'
complete -c numastatctl -n $c -l prometheus -d 'Prometheus text format'
complete -c numastatctl -n $c -l textfile -x -a '(__fish_complete_directories)' -d 'Write DIR/numastatctl-placement.prom for node_exporter'

# apply
set -l c '__fish_seen_subcommand_from apply'
complete -c numastatctl -n $c -l dry-run -d 'Show the plan, write nothing'
complete -c numastatctl -n $c -l check -d 'Exit 3 when the live system differs'
complete -c numastatctl -n $c -l no-snapshot -d 'Let vm.numa_stat go 1 -> 0 without saving the counters'
complete -c numastatctl -n $c -l no-revert-point -d 'Change even when no revert point can be saved'
complete -c numastatctl -n $c -l try -x -a '20s 1m 5m 15m 1h' -d 'A trial: revert after this time unless confirmed'
complete -c numastatctl -n $c -l baseline -x -a '0 10s 30s 1m' -d 'With --try: measure the counters this long first'
complete -c numastatctl -n $c -l foreground -d 'With --try: wait in this terminal, not with a systemd timer'
complete -c numastatctl -n $c -a '(__numastatctl_profiles)' -d Profile

# profiles
set -l c '__fish_seen_subcommand_from profiles'
complete -c numastatctl -n $c -l cat-config -d 'Print every config file in precedence order'
complete -c numastatctl -n $c -a '(__numastatctl_profiles)' -d Profile

# revert
set -l c '__fish_seen_subcommand_from revert'
complete -c numastatctl -n $c -l dry-run -d 'Show what would be restored, write nothing'
complete -c numastatctl -n $c -l force -d 'Also restore knobs someone else changed since'
complete -c numastatctl -n $c -l no-snapshot -d 'Let vm.numa_stat go 1 -> 0 without saving the counters'
complete -c numastatctl -n $c -l trial -x -d 'Only while this trial runs on its revert point'

# confirm
set -l c '__fish_seen_subcommand_from confirm'
complete -c numastatctl -n $c -l force -d 'Confirm though restarting the failed boot unit undoes it'

# trial
set -l c '__fish_seen_subcommand_from trial'
complete -c numastatctl -n $c -l prometheus -d 'Prometheus text format'

# map
set -l c '__fish_seen_subcommand_from map'
complete -c numastatctl -n $c -l prometheus -d 'Prometheus text format'

# snapshots
set -l c '__fish_seen_subcommand_from snapshots'
complete -c numastatctl -n $c -s N -l names -d 'Print the names only'
complete -c numastatctl -n $c -s n -l noheadings -d 'Do not print headings'
complete -c numastatctl -n $c -s r -l raw -d 'Raw output'

# knobs
set -l c '__fish_seen_subcommand_from knobs'
complete -c numastatctl -n $c -s o -l output -x -a '(__numastatctl_list (__numastatctl_columns knobs))' -d 'Columns to print'
complete -c numastatctl -n $c -l output-all -d 'Print every column'
complete -c numastatctl -n $c -s n -l noheadings -d 'Do not print headings'
complete -c numastatctl -n $c -s r -l raw -d 'Raw output'
complete -c numastatctl -n $c -s N -l names -d 'Print knob names only'
complete -c numastatctl -n $c -l choices -x -a '(__numastatctl_knob_names)' -d 'Print the values a knob accepts'
complete -c numastatctl -n $c -a '(__numastatctl_knob_names)' -d Knob

# selftest
set -l c '__fish_seen_subcommand_from selftest'
complete -c numastatctl -n $c -l toggle -d 'Also check that vm.numa_stat=0 stops the counters'
complete -c numastatctl -n $c -l no-snapshot -d 'With --toggle: do not save the counters first'
complete -c numastatctl -n $c -l pages -x -d 'Pages per check'

# bench
set -l c '__fish_seen_subcommand_from bench'
complete -c numastatctl -n $c -l knob -x -a '(__numastatctl_knob_names)' -d 'The knob to compare'
complete -c numastatctl -n $c -l values -x -d 'The two values, a,b'
complete -c numastatctl -n $c -l threads -x -d 'Worker threads'
complete -c numastatctl -n $c -l node -x -a '(__numastatctl_node_ids)' -d "Run on this node's CPUs and memory"
complete -c numastatctl -n $c -l size -x -d 'MiB per worker and round'
complete -c numastatctl -n $c -l rounds -x -d 'Rounds per value'
complete -c numastatctl -n $c -l no-snapshot -d 'Let vm.numa_stat go 1 -> 0 without saving the counters'
