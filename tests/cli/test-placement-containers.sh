#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement --container and --pod: containers and pods found from what is
# on disk (every runtime's cgroup layout, both kubelet drivers, the QoS
# classes, names from /var/log and the runtimes' metadata), the kubelet's
# checkpoints (verified, without the Memory Manager, a bad checksum, an
# unknown layout), each form; hostile input: links in /var/log/containers
# pointing anywhere, names with control characters and bytes not UTF-8, a
# container gone between the scan and the read, a user's clones of container
# cgroups in its delegated tree, one id in two cgroups.
. "$(dirname "$0")/lib.sh"

# cfixture CASE: a fresh root built by gen-containers.sh.
cfixture() { gen_fixture gen-containers.sh "$@"; }

ID1=$(printf '01%.0s' {1..32})

cfixture systemd
run placement --pod prod/db-0
expect_rc 0 "a pod by NAMESPACE/NAME, with other links in /var/log/containers naming its id"
expect_out "container prod/db-0/postgres (containerd, id 010101010101)
  cgroup: /kubepods.slice/kubepods-pod0a1b2c3d_0000_4000_8000_000000000001.slice/cri-containerd-$ID1.scope
  pod uid 0a1b2c3d-0000-4000-8000-000000000001, QoS guaranteed
  kubelet: exclusive CPUs 2-3
  assigned node: 1 (Memory Manager)
  off the assigned nodes: anonymous 64M (actionable), file and shared 100M (expected)
  runs on: CPUs 2-3, node 1
  memory may go to: node 1 (cpuset.mems.effective)
 NODE WHERE  ANON FILE SHMEM HUGE TOTAL OFF-POLICY
    0 remote  64M 100M    0B   0B  164M        64M
    1 local  192M   8M    0B   0B  200M         0B
    2 remote   0B   0B    0B   0B    0B         0B
    3 remote   0B   0B    0B   0B    0B         0B
TOTAL        256M 108M    0B   0B  364M        64M
  local                     200M   54.9%
  remote anonymous            0B    0.0%
  remote file and shared    100M   27.5%  expected: where first read
  off-policy                 64M   17.6%  actionable
    on node 0: its cpuset does not allow it" \
	"systemd driver, guaranteed pod: the Memory Manager's node, its own anonymous memory off it actionable, page cache expected"
expect_err "" "both checkpoints verified: nothing on stderr"

run placement --pod prod/db-0 -J
expect_json "JSON: the pod, the assignment and the memory off it" '
want = {"target": "container", "namespace": "prod", "pod": "db-0", "container": "postgres",
        "container_id": "'"$ID1"'", "runtime": "containerd", "qos": "guaranteed",
        "assignment": "memory-manager", "assigned_cpus": [2, 3], "assigned_nodes": [1],
        "off_assigned_anon": 67108864, "off_assigned_file": 104857600,
        "cpu_manager_state": "verified", "memory_manager_state": "verified"}
for k, v in want.items():
    if t.get(k) != v: print(k, t.get(k), "want", v)'

run placement --pod default/web-1
expect_out_has "  pod uid 0a1b2c3d-0000-4000-8000-000000000002, QoS burstable
  kubelet: no exclusive assignment (the shared CPU pool, no Memory Manager nodes)" \
	"a burstable pod (CRI-O) without exclusive CPUs says so"
run placement --pod default/web-1 -J
expect_json "JSON: assignment none, no assigned nodes, no off-assigned bytes" '
if (t["assignment"], t["assigned_nodes"], t["off_assigned_anon"], t["runtime"]) != ("none", [], None, "cri-o"): print(t)'
run placement --pod 'kube-system/a.b-c.*'
expect_out_has "container kube-system/a.b-c.0/x-y-9 (containerd, id 030303030303)" \
	"every character a pod and container name may have; a pattern of pods"
expect_out_has "QoS besteffort" "best effort"
expect_out_lacks "crio-conmon" "CRI-O's monitor is not a container"

run placement --container registry
expect_out_has "container registry (docker, id 040404040404)" "docker: the name from config.v2.json"
run placement --container 0505
expect_out_has "container cache-bound (podman, id 050505050505)" "podman: an id prefix, the name from containers.json"
# Names podman refuses at create (a terminal's escape, a byte that is not
# UTF-8, U+202E, U+200B) were not written by podman: known by id only.
run placement --container 0606
expect_out_has "container 060606060606 (podman, id 060606060606)" \
	"a name with a terminal's escape is not podman's: the container by its id"
run placement --container 0b0b
expect_out_has "container 0b0b0b0b0b0b (podman, id 0b0b0b0b0b0b)" "nor one with U+202E"
run placement --container '*'
expect_out_lacks "evil\|bad\|elif" "no name podman would refuse is shown"
check "no U+202E, U+200B or byte that is not UTF-8 reaches stdout" python3 -c '
import sys; t = sys.stdin.buffer.read().decode("utf-8"); sys.exit("\u202e" in t or "\u200b" in t)' <<<"$OUT"
run placement --container 'cache*'
check "U+200B in a name: not a second cache-bound" test "$(grep -c '^container' <<<"$OUT")" = 1
run placement --container cache-bound
expect_out_has "  remote anonymous            4M   33.3%  actionable
    keep it local: podman update --cpuset-mems=2 050505050505
      (cgroup v2 moves its memory onto the new cpuset.mems)" \
	"a podman container outside a pod: podman update with its CPUs' node, by id"
run placement --container bound-off
expect_out_has "  local                       0B    0.0%
  as its cpuset asks         16M   76.2%  bound away from its CPUs
  remote anonymous            0B    0.0%" \
	"podman's --cpuset-mems=1 on node 0's CPUs: its memory on node 1 as its cpuset asks, not actionable"
expect_out_lacks "cpuset.mems\|migratepages" "nothing printed that would undo the binding"
run placement --container bound-off --check
expect_rc 3 "--check counts the 4M on node 0, which its cpuset forbids: off-policy is actionable"
run placement --container bound-off --max-remote-anon 20
expect_rc 0 "and not the 16M on node 1, as its cpuset asks: 19% is within 20%"
run placement --container bound-off -J
expect_json "JSON: as_policy, no remote anonymous" '
if (t["as_policy"], t["remote_anon"]) != (16777216, 0): print(t["as_policy"], t["remote_anon"])'
run placement --pod prod/db-0
expect_out_lacks "as its cpuset asks" "silent where the cpuset allows its CPUs' node (db-0: CPUs and cpuset.mems on node 1)"
run placement --container nosuch
expect_rc 1 "an unknown container"
expect_err "numastatctl: placement: --container 'nosuch': no container of that name or id here" "said, naming it"
run placement --container 0
expect_rc 1 "an id prefix of several containers"
expect_err_has "an id prefix of more than one container" "said"
run placement --pod web-1
expect_rc 2 "a pod without its namespace is a usage error"
expect_err_has "--pod 'web-1': expected NAMESPACE/NAME" "said"
run placement --pod 'nosuch/*'
expect_rc 1 "a pattern of pods matching nothing"
run placement --pod prod/x
expect_rc 1 "a link naming the id of another pod's container does not rename it"
run placement --container x
expect_rc 1 "nor does it name the container"
run placement --pod prod/db-0 --container postgres
check "a container named twice is one target" test "$(grep -c '^container' <<<"$OUT")" = 1

# /var/log/containers: only the names are read, never the links' targets.
check "the fixture has links to /etc/shadow, .. and a loop" test -L "$ROOT/var/log/containers/loop.log"
run placement --container '*'
expect_rc 0 "every container, with hostile links and names in /var/log/containers"
expect_out_lacks "shadow" "a link to /etc/shadow names nothing"
check "six containers: three pods' containers, docker's, podman's two named" test "$(grep -c '^container' <<<"$OUT")" = 6
if have strace; then
	strace -f -e trace=openat,openat2,open -o "$TMP/trace" "$NUMASTATCTL" --sysroot "$ROOT" placement --container '*' >/dev/null 2>&1
	check "no log link is opened or followed" sh -c "! grep -E 'var/log/containers/.|shadow' '$TMP/trace'"
fi

run placement --pod prod/db-0 --prometheus
expect_out_has 'numastatctl_placement_bytes{cgroup="/kubepods.slice/kubepods-pod0a1b2c3d_0000_4000_8000_000000000001.slice/cri-containerd-'"$ID1"'.scope",namespace="prod",pod="db-0",container="postgres",class="off_policy"} 67108864' \
	"Prometheus: namespace, pod and container labels"
expect_out_has 'numastatctl_placement_assigned_off_bytes{cgroup="/kubepods.slice/kubepods-pod0a1b2c3d_0000_4000_8000_000000000001.slice/cri-containerd-'"$ID1"'.scope",namespace="prod",pod="db-0",container="postgres",class="anon"} 67108864' \
	"Prometheus: the memory off the assigned nodes"
expect_out_has 'numastatctl_placement_kubelet_checkpoint{file="cpu_manager_state",state="verified"} 1' "Prometheus: the checkpoints' state"
if have promtool; then
	run placement --container '*' --prometheus
	check "promtool accepts every container's text" promtool check metrics <<<"$OUT"
fi

# A container gone between the scan and the read.
rm "$ROOT/sys/fs/cgroup/machine.slice/libpod-$(printf '05%.0s' {1..32}).scope/memory.numa_stat"
run placement --container cache-bound
expect_rc 1 "a named container gone before its memory is read"
expect_err_has "memory.numa_stat: not present: gone" "said"
run placement --container '*'
expect_rc 0 "a pattern leaves a gone container out"

# stat --container, --pod: the cgroup view over the same containers.
run stat --pod prod/db-0 -b
expect_rc 0 "stat --pod: the cgroup view of a pod's container"
expect_out_has "/cri-containerd-$ID1.scope" "its cgroup, found as placement finds it"
run stat --container registry --container nginx -J
expect_json "stat --container: several containers, with JSON" '
names = {r["cgroup"].rsplit("/", 1)[-1][:7] for r in doc["cgroups"]}
if names != {"crio-02", "docker-"}: print(names)'
run stat --pod web-1
expect_rc 2 "stat --pod without a namespace: a usage error"
run stat --pod prod/db-0 --balancing
expect_rc 2 "stat --pod and another view: refused"

# docker's names are checked as podman's are.
printf '{"Name":"/regis\\u200btry"}' >"$ROOT/var/lib/docker/containers/$(printf '04%.0s' {1..32})/config.v2.json"
run placement --container 0404
expect_out_has "container 040404040404 (docker, id 040404040404)" "U+200B in docker's Name: known by its id"
# Runtime metadata is a regular file of a size a runtime writes, or nothing.
rm "$ROOT/var/lib/docker/containers/$(printf '04%.0s' {1..32})/config.v2.json"
mkfifo "$ROOT/var/lib/docker/containers/$(printf '04%.0s' {1..32})/config.v2.json"
run placement --container '*'
expect_rc 0 "a FIFO for config.v2.json: not opened for reading, nothing blocks"
head -c $((17 << 20)) /dev/zero >"$ROOT/var/lib/kubelet/cpu_manager_state"
run placement --pod prod/db-0
expect_err_has "cpu_manager_state: larger than 4 MiB, more than a kubelet writes" \
	"a checkpoint past the limit: said, and not read"

# Two /var/log/pods directories for one pod UID: neither is believed.
mkdir -p "$ROOT/var/log/pods/prod_db-1_0a1b2c3d-0000-4000-8000-000000000001/postgres"
mkdir -p "$ROOT/var/log/pods/prod_a-1_0a1b2c3d-0000-4000-8000-000000000001/postgres"
run placement --pod prod/db-1
expect_rc 1 "a second directory for db-0's UID does not rename the pod"
expect_err_has "pod uid 0a1b2c3d-0000-4000-8000-000000000001: more than one directory in /var/log/pods names it" \
	"said, naming the UID"
run placement --pod prod/a-1
expect_rc 1 "nor does a third, whatever readdir's order"

# One series budget for every selector: a plain name matching a thousand
# containers (27 series each) is held to it as a pattern is.
cfixture many 1000
run placement --container app --prometheus
expect_rc 0 "a name a thousand containers have, with --prometheus"
n=$(grep -c '^numastatctl_placement_[a-z_]*{cgroup=' <<<"$OUT")
check "at most 20000 series of containers ($n)" test "$n" -le 20000
expect_out_has "numastatctl_placement_cgroups_left_out 260" "the 260 past 740 (27 series each) counted"
expect_err_has "warning: --prometheus: 260 targets left out, to stay within 20000 series" "and said"
# The cgroup views hold no fd per cgroup (interval samples neither): a
# thousand containers at 64 open files.
if [ -z "${NUMASTATCTL_WRAPPER:-}" ] && have prlimit util-linux; then
	NUMASTATCTL_WRAPPER="prlimit --nofile=64 --"
	for args in "stat --container *" "stat --container * 0.01 2" "stat --cgroup * -J" \
		"stat --container app --prometheus" "placement --pod */*"; do
		set -f
		# shellcheck disable=SC2086 # the words are the arguments
		run $args
		set +f
		expect_rc 0 "$args: a thousand containers with at most 64 open files"
		expect_err "" "$args: nothing said"
	done
	NUMASTATCTL_WRAPPER=
fi

# A host with no container (UBSan: the empty list was handed to qsort() as NULL).
fixture effect-6.1
run placement --container '*'
expect_rc 1 "no container on the host: placement --container exits 1"
expect_err "numastatctl: placement: --container '*': no container matches" "and says only that"
run stat --pod '*/*'
expect_err "numastatctl: stat: --pod '*/*': no pod matches" "stat --pod the same"

# cgroup v1: the container and pod options say what stat --cgroup says, by their own name.
fixture effect-5.10
V1="the memory controller is on cgroup v1 (/sys/fs/cgroup/memory): the per-node memory of cgroups is read from cgroup v2 only (a kernel booted with systemd.unified_cgroup_hierarchy=1 has it)"
run placement --container '*'
expect_rc 1 "cgroup v1 only: placement --container exits 1"
expect_err "numastatctl: placement: --container: $V1" "naming the option typed and what would give it"
run placement --pod 'prod/*'
expect_err "numastatctl: placement: --pod: $V1" "--pod the same"
run stat --container '*'
expect_err "numastatctl: stat: --container: $V1" "stat --container the same"

cfixture cgroupfs
run placement --pod prod/db-0 -J
expect_json "cgroupfs driver: a guaranteed pod directly under kubepods" '
if (t["cgroup"], t["qos"], t["assignment"]) != ("/kubepods/pod0a1b2c3d-0000-4000-8000-000000000001/'"$ID1"'", "guaranteed", "memory-manager"): print(t)'
run placement --pod default/web-1 -J
expect_json "cgroupfs driver: burstable" 'if t["qos"] != "burstable" or t["runtime"] is not None: print(t)'
run placement --container registry -J
expect_json "cgroupfs docker: /docker/<id>" 'if t["runtime"] != "docker" or not t["cgroup"].startswith("/docker/"): print(t)'

cfixture nomm
run placement --pod prod/db-0
expect_out_has "  assigned node: 1 (nodes of its CPUs)" "without the Memory Manager: the nodes of the exclusive CPUs"
expect_err "" "no memory_manager_state is no error"
run placement --pod prod/db-0 -J
expect_json "JSON: cpu-manager, memory_manager_state absent" '
if (t["assignment"], t["memory_manager_state"]) != ("cpu-manager", "absent"): print(t)'

cfixture badsum
run placement --pod prod/db-0 -J
expect_rc 0 "a bad checksum is said, not fatal"
expect_err_has "cpu_manager_state: checksum" "said on stderr"
expect_json "a bad checksum: the CPU Manager's file not used" '
if (t["cpu_manager_state"], t["assigned_cpus"], t["assignment"]) != ("mismatch", [], "memory-manager"): print(t)'

cfixture unknown
run placement --pod prod/db-0
expect_out_has "  kubelet: no assignment known (/var/lib/kubelet/cpu_manager_state not-verified, /var/lib/kubelet/memory_manager_state not-verified)" \
	"an unknown layout: no assignment is guessed"
expect_err_has "a layout with a data section" "said"

# Containers only where runtimes put them: a user's clones are not containers.
ID9=$(printf '09%.0s' {1..32}) ID14=$(printf '0e%.0s' {1..32})
cfixture spoof
run placement --container '*'
expect_rc 0 "a user's clones of container cgroups"
expect_out_lacks "/user.slice/" "none in a user's slice or a user manager's tree is a container"
run placement --container "$(printf '0d%.0s' {1..32})"
expect_rc 1 "nor is one inside a delegated service's own cgroup"
run placement --container "$ID1"
expect_rc 0 "the full id of a container a user cloned: not ambiguous"
expect_out_has "cgroup: /kubepods.slice/kubepods-pod0a1b2c3d_0000_4000_8000_000000000001.slice/cri-containerd-$ID1.scope" \
	"the kubelet's cgroup"
run placement --pod prod/db-0 --check --max-remote-anon 18
expect_rc 0 "--check counts the pod's container (17.6% off-policy), not a user's remote memory under its id"
check "the pod has its one container, not the clone in a pod slice of its UID" \
	test "$(grep -c "^container " <<<"$OUT")" = 1
run placement --pod prod/db-0 --prometheus
expect_out_lacks "$ID9" "no second series with the pod's labels"
run placement --container "$ID14"
expect_rc 0 "a libpod scope made by root in machine.slice is a container"
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$ROOT/sys/fs/cgroup/machine.slice/libpod-$ID14.scope"
	run placement --container "$ID14"
	expect_rc 1 "handed to another user: that user names it, not a container"
else
	ok "# SKIP needs root to hand a directory to another user"
fi

cfixture dupid
run placement --container '*'
expect_rc 1 "one id in two cgroups: bad data"
expect_one_err_line "one line"
expect_err "numastatctl: placement: containers: container id $ID1 is in two cgroups: /kubepods.slice/kubepods-pod0a1b2c3d_0000_4000_8000_000000000001.slice/cri-containerd-$ID1.scope and /system.slice/docker-$ID1.scope" \
	"naming both paths"
expect_out "" "and nothing on stdout"

done_testing
