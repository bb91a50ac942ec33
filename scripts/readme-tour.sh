#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# readme-tour.sh [--no-live] BINARY [TOUR]: write the tour of every command,
# doc/tour.md (or TOUR), with the real output of BINARY.  It runs exactly
# the commands the page shows, in the order it shows them, after the setup
# it shows (copies of tests/fixtures/sparse3 and effect-6.1, a tree of
# tests/fixtures/gen-placement.sh, gen-containers.sh and gen-map.sh, the
# shipped
# numastatctl.conf, and a shell
# function numastatctl that adds --sysroot, --config and --state-dir): a
# reader who types them gets the same output, but for times and ids
# (test-docs compares a fresh run with the page, those masked).  As root
# and without --no-live, selftest and a short bench also run on the live
# system (bench flips vm.numa_stat for a fraction of a second and restores
# it); the page in the tree is written with --no-live.
set -euo pipefail
live=true
[ "${1:-}" = --no-live ] && live=false && shift
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
page=${2:-$src/doc/tour.md}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# The setup, as the page shows it and as it runs here: $src is the tree this
# script is in, and the binary where ./quickstart puts it (BINARY here).
SETUP='cp -r "$src/tests/fixtures/sparse3" sparse3
cp -r "$src/tests/fixtures/effect-6.1" effect
"$src/tests/fixtures/gen-placement.sh" placement procs
"$src/tests/fixtures/gen-containers.sh" containers systemd
"$src/tests/fixtures/gen-map.sh" map cxl
find sparse3 effect -name .gitkeep -delete
install -m 0644 "$src/numastatctl.conf" numastatctl.conf
numastatctl() { "$src/build/src/numastatctl" --sysroot sparse3 --config numastatctl.conf --state-dir state "$@"; }'
eval "${SETUP%numastatctl() *}" >/dev/null
GLOBAL=(--sysroot sparse3 --config numastatctl.conf --state-dir state)

# show_sh LINE: one console block with a shell line that uses the function
# numastatctl (a pipe, a write to the tree), run as it is shown.
show_sh() {
	local rc=0
	echo '```console'
	echo "\$ $1"
	bash -c "numastatctl() { $(printf '%q ' "$bin" "${GLOBAL[@]}") \"\$@\"; }; $1" 2>&1 || rc=$?
	[ "$rc" = 0 ] || echo "[exit status $rc]"
	echo '```'
}

# quote ARGS...: the arguments as one would type them, each after a space.
quote() {
	local a
	for a in "$@"; do
		case $a in
		*[!A-Za-z0-9_.,=/%:+-]*) printf " '%s'" "$a" ;;
		*) printf ' %s' "$a" ;;
		esac
	done
}

# show [live|tty] ARGS...: one console block with the command and its output
# (stdout and stderr as a terminal shows them), and the exit status when it
# is not 0.  tty: on a real terminal of 80 columns (script(1)), where the
# output folds what a pipe gets on one line.
show() {
	local rc=0 live=false tty=false
	[ "${1:-}" = live ] && live=true && shift
	[ "${1:-}" = tty ] && tty=true && shift
	echo '```console'
	echo "\$ numastatctl$(quote "$@")"
	if $live; then
		"$bin" --state-dir state "$@" 2>&1 || rc=$?
	elif $tty; then
		script -qec "stty cols 80 rows 60; $(printf '%q ' "$bin" "${GLOBAL[@]}" "$@") 2>&1" \
			/dev/null </dev/null | tr -d '\r' || rc=$?
	else
		"$bin" "${GLOBAL[@]}" "$@" 2>&1 || rc=$?
	fi
	[ "$rc" = 0 ] || echo "[exit status $rc]"
	echo '```'
}

tour() {
	cat <<'EOF'
# A tour of numastatctl

Every command, on copies of test machines, so nothing here touches yours
and nothing needs root. The output below is real: `scripts/readme-tour.sh`
runs exactly these commands, in this order, and pastes what they print; CI
runs it again and compares (times and ids aside). The reference is
[numastatctl(8)](../man/numastatctl.8.scd) and
[numastatctl.conf(5)](../man/numastatctl.conf.5.scd) (`man numastatctl`
once installed).

## Setup

After `./quickstart` (the README's Quick start), in bash, starting at the
top of the clone wherever it is (`src` remembers it), in a scratch
directory: `sparse3` is a three-node machine with the sparse node ids 0, 2
and 5, `effect` a four-node one with a slower memory tier and a cgroup
tree, `placement` one with processes whose memory is on the wrong node,
`map` one with CXL memory. The function `numastatctl` points the
binary at them; on a real machine you leave those options out.

```sh
src=$PWD             # the top of the clone, after ./quickstart
cd "$(mktemp -d)"
EOF
	printf '%s\n' "$SETUP"
	cat <<'EOF'
```

## Commands

### status: what needs attention

Without a command, `numastatctl` shows each knob in words, whether the live
system matches the configured profile, and where allocations land. On a
terminal the long lines fold to its width (here 80 columns); in a pipe each
knob, and the profile, stays one line:

EOF
	show tty
	cat <<'EOF'

### advise: what to change, and why

`advise` judges this machine by the rules listed in numastatctl(8)
(`advise --rules`): topology, distances, memory tiers, counters, huge page
pools, knob values, the configured profile and sysctl.d. Each
recommendation comes with the numbers it read and the kernel source it
rests on; where the counters cover too little time it says so instead.
It exits 3 when it has advice. `--interval 10` measures the counters over
ten seconds (and whether remote allocations are rising); `--profile NAME`
prints the advised knobs as a profile that `apply` takes as it is:

EOF
	show advise
	cat <<'EOF'

### knobs: what can be tuned

The registry every other command validates against, with what this kernel
has (`PRESENT`) and what a change does (`note`). Each knob is a line of its
short fields with the long ones wrapped under it, which reads at 80 columns:

EOF
	show knobs vm.numa_stat kernel.numa_balancing
	cat <<'EOF'

`-o` makes a table of the columns you name (`--output-all`: every column).
On a terminal a table wider than it folds into sections, each led by the
first column:

EOF
	show knobs -o NAME,TYPE,VALUES,DEFAULT vm.numa_stat vm.zone_reclaim_mode kernel.numa_balancing
	cat <<'EOF'

### get: read knobs, sysctl style

EOF
	show get
	show get -n vm.min_slab_ratio
	show get -J 'vm.numa_*'
	cat <<'EOF'

### set: change knobs, validated, all or nothing

Every assignment is checked before anything is written; the old values are
kept for `revert`:

EOF
	show set 'vm.zone_reclaim_mode=reclaim|unmap' vm.min_slab_ratio=10
	show set vm.numa_stat=2 vm.min_slab_ratio=11
	cat <<'EOF'

### revert: undo the last change

The revert point holds each knob's value before the change and the value
written. A knob someone else changed since is left alone and named (exit
status 1, the revert point kept); `--force` restores it too:

EOF
	show_sh 'echo 12 >sparse3/proc/sys/vm/min_slab_ratio  # someone else writes the knob'
	show revert
	show revert --force
	cat <<'EOF'

`revert` undoes the last change until the next boot: where
`numastatctl.service` is enabled, it applies the configured profile
(`profile =`) again at every boot. To keep the values `revert` restored,
also `systemctl disable numastatctl.service`, or name another profile.

### set --try: try before you keep it

On a remote machine, make the change a trial: it reverts by itself when the
time is up unless `numastatctl confirm` keeps it, as `netplan try` does for
a network. The revert is a transient systemd timer, so it survives the
terminal closing and an SSH session that drops; a reboot drops it, and the
boot profile applies as usual. The timer is armed on the time the trial
says it reverts at, so a `systemctl daemon-reload` (every package install
runs one) does not push it back. While a trial runs, another `set` or `apply`
is refused: confirm or revert it first; so are they while the trial file
cannot be read.

```sh
numastatctl apply --try 5m latency  # a baseline, the change, the revert armed
numastatctl status                  # the trial runs: what it changed, when it reverts
numastatctl trial                   # the counters since the change against the baseline
numastatctl confirm                 # keep it; without this the values come back in 5m
```

Where systemd does not run the machine (this tour runs on a copy of a
machine's `/proc` and `/sys`), `--try` is refused unless `--foreground`
waits in the terminal, reverting when the time is up, on `no`, Ctrl-C or a
closed terminal:

EOF
	show set --try 20s vm.zone_reclaim_mode=1
	cat <<'EOF'

With `--foreground` the answer comes from the terminal (here from `echo`):
after the baseline, the change, and `yes` keeps it:

EOF
	show_sh 'echo yes | numastatctl set --try 1m --baseline 3s --foreground vm.zone_reclaim_mode=1'
	show status
	cat <<'EOF'

### confirm: keep a trial's change

From another terminal while a trial runs (or in the waiting one by
answering `yes`, as above: so here it was confirmed already):

EOF
	show confirm
	cat <<'EOF'

### trial: what the change did to the counters

The trial's window against a baseline of the same length measured just
before the change, one value a second: locality, hinting faults, migration
by cause, demotion and reclaim, for the machine and each node, with the
baseline's spread. A change inside the spread is "within noise" (a copy of
`/proc` does not move: here everything is). Also `-J` and `--prometheus`:

EOF
	show_sh 'numastatctl trial | head -n 15'
	cat <<'EOF'

### stat: per-node NUMA statistics

EOF
	show stat
	show stat -o NODE,LOCAL_NODE,OTHER_NODE,LOCAL%,MISS% --sort OTHER_NODE
	show stat -m --nodes 0,5
	show stat -J --nodes 5
	echo
	echo '`--compat` prints what `numastat` prints, byte for byte, for old scripts:'
	echo
	show stat --compat
	echo
	echo 'For Prometheus (names of our own, which no node_exporter collector uses; `--textfile DIR`'
	echo 'writes them for its textfile collector, and `profile_drift` is what an alert watches):'
	echo
	show_sh "numastatctl stat --prometheus | grep -E '^numastatctl_(numa_hit_total|knob_info|profile_drift|knob_drift)'"
	cat <<'EOF'

With an interval, `stat` prints the changes over each interval as `vmstat`
does: a header, then one line per node per sample (the header again once
per screenful), until Ctrl-C or COUNT samples; `-t` adds a time column (a
line of its own before each sample where the column would not fit),
`--rate` makes them per second, `--totals` adds the totals since the start.
A dump does not change, so every change here is 0:

EOF
	show stat 0.5 2
	cat <<'EOF'

EOF
	effect_tour
	map_tour
	placement_tour
	containers_tour
	cat <<'EOF'

### profiles: named sets of knob values

EOF
	show profiles
	show profiles throughput
	cat <<'EOF'

### apply: make a profile true

`--check` changes nothing and exits 3 on drift, which is what Ansible's
`changed_when` and Puppet's `unless` need (see `contrib/`):

EOF
	show apply --check throughput
	show apply throughput
	show apply --check throughput
	cat <<'EOF'

### snapshots: the counters saved before a reset

`vm.numa_stat` 1 -> 0 zeroes every NUMA counter; the apply above saved them
first, under a name of their own. `stat --snapshot` shows a snapshot in any
`stat` view, and `stat --since` adds it to the live counters:

EOF
	show snapshots
	show stat --snapshot latest -o NODE,NUMA_HIT,OTHER_NODE
	cat <<'EOF'

### selftest: prove the counters count

On the live system (root only), fault in pages on each node and check that
the counters move as the kernel documents; this machine has a single node:

EOF
	live_show selftest
	cat <<'EOF'

### bench: measure what a knob costs

An A/B page-fault benchmark, by default `vm.numa_stat` 1 against 0, in
alternating rounds on the live system; the knob is restored on every exit
path. A short run here (a longer recorded run, and what it means, is in
[bench/](bench/)):

EOF
	live_show bench --rounds 8 --size 16
}

# The views of what the knobs do, on a copy of tests/fixtures/effect-6.1.
effect_tour() {
	cat <<'EOF'
### stat --balancing, --tiers, --cgroup: what the knobs do

What NUMA balancing and memory tiering do, and which services have their
memory on which node. These run with `--sysroot effect`, a copy of
`tests/fixtures/effect-6.1`: four nodes, node 3 memory only and in a slower
tier, the counters a 6.1 kernel has, and a cgroup v2 tree. Every view takes
`-J`, `--prometheus`, `--textfile DIR`, `--nodes` and an interval.

EOF
	show --sysroot effect stat --balancing
	show --sysroot effect stat --tiers
	show --sysroot effect stat --cgroup nginx.service
	show --sysroot effect stat --cgroup '*.service'
	cat <<'EOF'

With an interval, `stat --balancing 5` answers "is balancing converging?":
NUMA_PAGES_MIGRATED per interval falls and HINT_LOCAL% rises. The line above
each table says which counters this kernel keeps per node, which only for the
whole machine (row `all`), and which it lacks.
EOF
}

# The memory map, on a tree of tests/fixtures/gen-map.sh.
map_tour() {
	cat <<'EOF'

### map: which node is what

One screen for "which device is node 2, is it Movable, which tier, where
do its figures come from". This runs with `--sysroot map`, a tree from
`tests/fixtures/gen-map.sh`: two packages of one node each and a CPU-less
node 2 whose memory is a CXL region of two memdevs, onlined by kmem into
ZONE_MOVABLE. A row per node: its CPUs and package, tier and the nodes it
demotes to, the source of its memory, how much is in the kernel's zones
(NORMAL: it can never be unplugged), in ZONE_MOVABLE and offline, where its
bandwidth and latency come from (HMAT, the CXL region's coordinates, none)
and its interleave weight; below, what the table has no room for. The
memdevs' `numa_node` is the node of their PCI device, not where their
memory went: that mismatch is what `cxl list` leaves to the reader.

EOF
	show tty --sysroot map map
	cat <<'EOF'

`-J` gives the same facts as arrays of nodes, sources, regions, memdevs and
dax devices; `--prometheus` as info series (`numastatctl_node_map_info`,
`numastatctl_node_memory_source_info`, `numastatctl_cxl_memdev_info`).
`advise` turns what the map shows into advice: a lower tier in ZONE_NORMAL,
one tier for every node, a CPU-less node without performance data, hot-added
blocks left offline.
EOF
}

placement_tour() {
	cat <<'EOF'

### placement: is the memory where the CPUs are?

For a process (by PID or name), a systemd unit or a cgroup: where it may
run and allocate, its memory per node by kind, and the verdict. Each page
is in one class by the intent behind it: local, as its policy asks
(interleave, bind, prefer), demoted to a slower tier, remote anonymous and
off-policy (the two actionable classes: the lines under them say how, first
with `placement --move`, which moves exactly the private pages of the plan
and never undoes a policy or a demotion), remote page cache (where whoever
first read the file ran), and unknown (estimates). These run with
`--sysroot placement`, a tree from `tests/fixtures/gen-placement.sh`: four
nodes, node 3 memory only in a slower tier, a process whose cpuset was
narrowed after it had filled another node, and a service that runs on
node 0 with its memory on node 1. `--check` exits 3 when the actionable
share is above `--max-remote-anon` (10% by default); `-J`, `--prometheus` and
`--textfile DIR` give the same facts.

EOF
	show --sysroot placement placement --pid narrowed
	show --sysroot placement placement --cgroup api.service --check
}

containers_tour() {
	cat <<'EOF'

### placement of containers and pods

`--container` (a name, an id or its prefix, a pattern) and `--pod
NAMESPACE/NAME` (either part a pattern) find containers with no runtime
API and no daemon: the cgroups containerd, CRI-O, docker and podman make
(both kubelet cgroup drivers, every QoS class), named by the kubelet's
`/var/log/containers` and `/var/log/pods` and by podman's and docker's own
metadata. For a pod's container the kubelet's checkpoints
(`/var/lib/kubelet/cpu_manager_state`, `memory_manager_state`; their
checksums checked as the kubelet checks them) say what it was assigned:
its exclusive CPUs and the Memory Manager's nodes. Its own anonymous
memory off those nodes is what to act on, through the pod's resources:
its cpuset belongs to the runtime and the kubelet, so none is suggested.
Page cache and shared libraries off them are expected. A pod without an
exclusive assignment says so. This runs with `--sysroot containers`, a
tree from `tests/fixtures/gen-containers.sh`:

EOF
	show --sysroot containers placement --pod prod/db-0
	cat <<'EOF'

`-J` adds the pod's names, the assignment and the checkpoints' state to
each target; `--prometheus` and `--textfile` add `namespace`, `pod` and
`container` labels (within the same bound of 20000 series) and
`numastatctl_placement_assigned_off_bytes`.
`contrib/kubernetes/numastatctl-daemonset.yaml` runs it on every node,
with the host's `/proc`, `/sys`, `/var/log/containers`, `/var/log/pods`
and `/var/lib/kubelet` read-only and no privilege, writing the textfile
for node_exporter; `contrib/prometheus/numastatctl-pods.rules.yml` alerts
on a pod whose own memory is off its assigned nodes (tested with `promtool
test rules numastatctl-pods.rules.test.yml`).
EOF
}

# live_show ARGS...: show on the live system when that is possible here.
live_show() {
	if $live && [ "$(id -u)" = 0 ] && [ -d /sys/devices/system/node/node0 ]; then
		show live "$@"
	else
		echo '```sh'
		echo "numastatctl $*    # as root, without the function: the live system"
		echo '```'
	fi
}

tour >"$work/tour.md"
cp "$work/tour.md" "$page"
