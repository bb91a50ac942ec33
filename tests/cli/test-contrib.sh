#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/: the node_exporter textfile timer passes systemd-analyze verify and
# its command works, writing our own metric names; the Ansible playbook runs against localhost on a fixture
# tree (check mode changes nothing and reports the drift, a real run applies
# the profile, a second run changes nothing, a bad profile fails the play);
# the Salt state renders to the cmd.run/unless pair.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}" "${BUILD_ROOT:?run through meson test}"
CONTRIB=$SOURCE_ROOT/contrib

# --- the textfile timer ---------------------------------------------------
mkdir -p "$TMP/units" "$TMP/man/man8" "$TMP/textfile"
# The unit names the installed binary; verify needs one that exists.
sed "s|/usr/sbin/numastatctl|$NUMASTATCTL|" "$CONTRIB/systemd/numastatctl-textfile.service" \
	>"$TMP/units/numastatctl-textfile.service"
cp "$CONTRIB/systemd/numastatctl-textfile.timer" "$TMP/units/"
if ! have systemd-analyze systemd; then
	: # reported by have
else
	man_opt=--man=no
	# Documentation=man:numastatctl(8) is checked when the page is built.
	if [ -f "$BUILD_ROOT/man/numastatctl.8" ]; then
		cp "$BUILD_ROOT/man/numastatctl.8" "$TMP/man/man8/"
		man_opt=--man=yes
	fi
	out=$(cd "$TMP/units" && MANPATH=$TMP/man systemd-analyze verify "$man_opt" \
		./numastatctl-textfile.timer ./numastatctl-textfile.service 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ -z "$out" ]; then
		ok "systemd-analyze verify accepts the textfile timer and service"
	else
		not_ok "systemd-analyze verify accepts the textfile timer and service" "exit $rc" "$out"
	fi
fi
check "the timer fires every 15 seconds" grep -qx 'OnUnitActiveSec=15s' "$CONTRIB/systemd/numastatctl-textfile.timer"

# The service's own command line, run against a fixture.
fixture sparse3
exec_line=$(sed -n 's/^ExecStart=//p' "$CONTRIB/systemd/numastatctl-textfile.service")
read -ra cmd <<<"$exec_line"
dir=${cmd[-1]}
check "the service writes into the directory it may write" \
	grep -qx "ReadWritePaths=$dir" "$CONTRIB/systemd/numastatctl-textfile.service"
cmd[0]=$NUMASTATCTL cmd[-1]=$TMP/textfile
"${cmd[@]:0:1}" --sysroot "$ROOT" "${cmd[@]:1}" >"$TMP/out" 2>"$TMP/err"
RC=$? ERR=$(<"$TMP/err") OUT=$(<"$TMP/out")
expect_rc 0 "the service's command succeeds on a fixture"
expect_out "" "and prints nothing for the journal"
check "it writes numastatctl.prom with our own names" \
	grep -q '^numastatctl_numa_hit_total{node="5"} ' "$TMP/textfile/numastatctl.prom"
check "and none of node_exporter's, which its meminfo_numa collector would clash with" \
	test "$(grep -c '^node_memory_numa_' "$TMP/textfile/numastatctl.prom")" = 0
check "the service is skipped on a host without that directory" \
	grep -qx "ConditionPathIsDirectory=$dir" "$CONTRIB/systemd/numastatctl-textfile.service"

# --- Ansible --------------------------------------------------------------
# Only what ansible-core has: the default stdout callback, whose PLAY RECAP
# line gives the counts, and whose task results carry the debug messages and
# a failed command's stderr.
PLAYBOOK=$CONTRIB/ansible/numastatctl.yml
if ! have ansible-playbook ansible-core; then
	done_testing
	exit
fi
# An empty configuration: no ansible.cfg of the machine or the user counts.
: >"$TMP/ansible.cfg"
export ANSIBLE_CONFIG=$TMP/ansible.cfg ANSIBLE_STDOUT_CALLBACK=ansible.builtin.default
export ANSIBLE_CALLBACK_RESULT_FORMAT=json
export ANSIBLE_LOCAL_TEMP=$TMP/ansible-local ANSIBLE_REMOTE_TEMP=$TMP/ansible-remote
export ANSIBLE_HOME=$TMP/ansible-home ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
export ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
export ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3

if ansible-playbook --syntax-check -i localhost, "$PLAYBOOK" >"$TMP/syntax" 2>&1; then
	ok "ansible-playbook --syntax-check accepts the playbook"
else
	not_ok "ansible-playbook --syntax-check accepts the playbook" "$(<"$TMP/syntax")"
fi

cat >"$TMP/numa.conf" <<'CONF'
[profile lean]
summary = counters off, a little slab reclaim
vm.numa_stat = 0
vm.min_slab_ratio = 9
CONF
# numastatctl checks the whole file, so the bad profile has one of its own.
printf '[profile broken]\nvm.numa_stat = 2\n' >"$TMP/broken.conf"
chmod 0644 "$TMP/numa.conf" "$TMP/broken.conf"

# play PROFILE [ARGS...]: run the playbook on localhost against $ROOT, its
# output (stdout and stderr) in $TMP/play.out; sets RC and STATS ("ok changed
# failed skipped" from localhost's PLAY RECAP line, empty without one).
play() {
	local profile=$1 conf=$TMP/numa.conf
	shift
	[ "$profile" = broken ] && conf=$TMP/broken.conf
	ansible-playbook -i localhost, -c local "$PLAYBOOK" "$@" -e "$(printf '%s' \
		"{\"numastatctl_hosts\": \"localhost\", \"numastatctl_become\": false,
		  \"numastatctl_bin\": \"$NUMASTATCTL\", \"numastatctl_profile\": \"$profile\",
		  \"numastatctl_options\": [\"--sysroot\", \"$ROOT\", \"--state-dir\", \"$STATE\",
		                            \"--config\", \"$conf\"],
		  \"numastatctl_dropin\": \"$ROOT/etc/numastatctl.d/50-ansible.conf\",
		  \"numastatctl_systemctl\": \"$TMP/systemctl\"}")" >"$TMP/play.out" 2>&1
	RC=$?
	# localhost : ok=2 changed=1 unreachable=0 failed=0 skipped=1 rescued=0 ignored=0
	STATS=$(sed -n '/^PLAY RECAP/,$s/^localhost *: .*ok=\([0-9]*\) .*changed=\([0-9]*\) .*failed=\([0-9]*\) .*skipped=\([0-9]*\) .*/\1 \2 \3 \4/p' \
		"$TMP/play.out")
	ERR=$(<"$TMP/play.out")
}

# expect_stat FIELD WANT DESC: one count of the recap (ok, changed, failed,
# skipped) compares with WANT ("= N" or "-ge N"); the play's output if not.
expect_stat() {
	local -A at=([ok]=1 [changed]=2 [failed]=3 [skipped]=4)
	local got
	got=$(cut -d' ' -f"${at[$1]}" <<<"$STATS")
	if [ -n "$got" ] && test "$got" $2 "$3"; then
		ok "$4 (stats: $STATS)"
	else
		not_ok "$4 (stats: ${STATS:-no PLAY RECAP})" "want $1 $2 $3; the play printed:" "$ERR"
	fi
}

# expect_play_has TEXT DESC: the play's output holds TEXT.
expect_play_has() {
	if grep -qF -- "$1" "$TMP/play.out"; then ok "$2"; else
		not_ok "$2" "the play's output lacks: $1" "$ERR"
	fi
}

# systemctl as the play calls it: is-enabled and enable of the boot unit,
# remembered in $TMP (the test never enables a unit of this machine).
cat >"$TMP/systemctl" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/systemctl.log"
case "\$1 \$2" in
"is-enabled numastatctl.service") if [ -e "$TMP/enabled" ]; then echo enabled; else echo disabled; exit 1; fi ;;
"enable numastatctl.service") touch "$TMP/enabled" ;;
*) exit 3 ;;
esac
EOF
chmod +x "$TMP/systemctl"

fixture sparse3
DROPIN=$ROOT/etc/numastatctl.d/50-ansible.conf
play lean --check
expect_rc 0 "check mode succeeds"
expect_stat changed -ge 1 "check mode reports the drift as a change"
expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "check mode writes nothing"
check "not even the drop-in" test ! -e "$DROPIN"
check "nor enables the unit" test ! -e "$TMP/enabled"
expect_play_has '"msg": "vm.min_slab_ratio: 37 -> 9"' "check mode lists the knobs that differ"

play lean
expect_rc 0 "a real run succeeds"
expect_stat changed -ge 1 "and reports a change"
expect_file "$ROOT/proc/sys/vm/numa_stat" 0 "the profile's vm.numa_stat is written"
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 9 "and its vm.min_slab_ratio"
check "the drop-in names the profile for the boot unit" grep -qx 'profile = lean' "$DROPIN"
check "as a file numastatctl trusts (0644)" test "$(stat -c %a "$DROPIN")" = 644
check "and the boot unit is enabled" grep -qx 'enable numastatctl.service' "$TMP/systemctl.log"
# What the boot unit would read: the profiles, then the drop-in.
cat "$TMP/numa.conf" "$DROPIN" >"$TMP/boot.conf"
chmod 0644 "$TMP/boot.conf"
run --config "$TMP/boot.conf" apply --check
expect_rc 0 "the drop-in makes lean the profile a plain 'apply' (the boot unit) applies"
expect_out "profile lean: the live system matches" "and it holds"

play lean
expect_rc 0 "a second run succeeds"
expect_stat changed = 0 "and changes nothing: the drop-in is as it was, the unit enabled"
expect_stat skipped -ge 1 "its apply task is skipped"
check "enable ran once" test "$(grep -cx 'enable numastatctl.service' "$TMP/systemctl.log")" = 1

play broken
check "a profile with an invalid value fails the play" test "$RC" != 0
expect_stat failed = 1 "on the check task"
expect_play_has "\"stderr\": \"numastatctl: apply: $TMP/broken.conf:2: [profile broken]: vm.numa_stat: invalid value '2'" \
	"with numastatctl's message"
expect_file "$ROOT/proc/sys/vm/numa_stat" 0 "and nothing is written"

# --- Salt -----------------------------------------------------------------
# Salt is not packaged for Debian 12: render the state as Salt would (Jinja,
# then YAML) and check the cmd.run/unless pair it declares.
out=$(python3 - "$CONTRIB/salt/numastatctl.sls" <<'PY' 2>&1
import sys, jinja2, yaml
pillar = {"numastatctl:profile": "throughput"}
salt = {"pillar.get": lambda key, default=None: pillar.get(key, default)}
text = jinja2.Template(open(sys.argv[1]).read()).render(salt=salt)
state = yaml.safe_load(text)["numastatctl-apply"]["cmd.run"]
args = {k: v for d in state for k, v in d.items()}
print(args["name"])
print(args["unless"])
PY
)
OUT=$out
expect_out "numastatctl apply throughput
numastatctl apply --check throughput" "the Salt state applies the pillar's profile unless --check finds no drift"

# --- the Kubernetes DaemonSet -----------------------------------------------
DS=$CONTRIB/kubernetes/numastatctl-daemonset.yaml
why=$(python3 - "$DS" <<'PY'
import sys, yaml
ds = yaml.safe_load(open(sys.argv[1]))
spec = ds["spec"]["template"]["spec"]
c = spec["containers"][0]
sc = c["securityContext"]
problems = []
if ds["kind"] != "DaemonSet": problems.append("not a DaemonSet")
if spec.get("hostPID") or spec.get("hostNetwork"): problems.append("host namespaces")
if sc.get("privileged") or sc.get("allowPrivilegeEscalation") is not False: problems.append("privilege")
if sc.get("capabilities", {}).get("drop") != ["ALL"] or sc.get("capabilities", {}).get("add"): problems.append("capabilities")
if not sc.get("readOnlyRootFilesystem"): problems.append("writable root")
vols = {v["name"]: v["hostPath"]["path"] for v in spec["volumes"]}
mounts = {m["name"]: m for m in c["volumeMounts"]}
want = {"/proc", "/sys", "/var/log/containers", "/var/log/pods", "/var/lib/kubelet"}
for name, path in vols.items():
    m = mounts[name]
    if path in want:
        if not m.get("readOnly"): problems.append(path + " not read-only")
        if m["mountPath"] != "/host" + path: problems.append(path + " not under /host")
        want.discard(path)
    elif m["mountPath"] != "/textfile": problems.append("writable " + path)
if want: problems.append("missing " + " ".join(sorted(want)))
cmd = " ".join(c["command"])
if "--sysroot /host placement --pod '*/*' --textfile /textfile" not in cmd: problems.append("command: " + cmd)
print("; ".join(problems))
PY
)
if [ -z "$why" ]; then ok "the DaemonSet mounts the host read-only under /host, writes only the textfile, with no privilege"; else not_ok "the DaemonSet mounts the host read-only under /host, writes only the textfile, with no privilege" "$why"; fi
# Its command on a node laid out as it mounts it.
"$FIXTURES/gen-containers.sh" "$TMP/host" systemd
mkdir -p "$TMP/ds-textfile"
run_raw --sysroot "$TMP/host" placement --pod '*/*' --textfile "$TMP/ds-textfile"
expect_rc 0 "the DaemonSet's command runs"
check "it writes the textfile with the pods' series" grep -q 'numastatctl_placement_assigned_off_bytes{.*namespace="prod",pod="db-0"' "$TMP/ds-textfile/numastatctl-placement.prom"

done_testing
