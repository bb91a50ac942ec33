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
if ! command -v systemd-analyze >/dev/null; then
	ok "# SKIP systemd-analyze is not installed"
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
RC=$? ERR=$(cat "$TMP/err") OUT=$(cat "$TMP/out")
expect_rc 0 "the service's command succeeds on a fixture"
expect_out "" "and prints nothing for the journal"
check "it writes numastatctl.prom with our own names" \
	grep -q '^numastatctl_numa_hit_total{node="5"} ' "$TMP/textfile/numastatctl.prom"
check "and none of node_exporter's, which its meminfo_numa collector would clash with" \
	test "$(grep -c '^node_memory_numa_' "$TMP/textfile/numastatctl.prom")" = 0
check "the service is skipped on a host without that directory" \
	grep -qx "ConditionPathIsDirectory=$dir" "$CONTRIB/systemd/numastatctl-textfile.service"

# --- Ansible --------------------------------------------------------------
PLAYBOOK=$CONTRIB/ansible/numastatctl.yml
if ! command -v ansible-playbook >/dev/null; then
	ok "# SKIP ansible-playbook is not installed"
	done_testing
	exit
fi
export ANSIBLE_LOCAL_TEMP=$TMP/ansible-local ANSIBLE_REMOTE_TEMP=$TMP/ansible-remote
export ANSIBLE_HOME=$TMP/ansible-home ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
export ANSIBLE_STDOUT_CALLBACK=json ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
export ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3

if ansible-playbook --syntax-check -i localhost, "$PLAYBOOK" >"$TMP/syntax" 2>&1; then
	ok "ansible-playbook --syntax-check accepts the playbook"
else
	not_ok "ansible-playbook --syntax-check accepts the playbook" "$(cat "$TMP/syntax")"
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

# play PROFILE [ARGS...]: run the playbook on localhost against $ROOT; sets
# RC and STATS ("ok changed failed skipped" for localhost).
play() {
	local profile=$1 conf=$TMP/numa.conf
	shift
	[ "$profile" = broken ] && conf=$TMP/broken.conf
	ansible-playbook -i localhost, -c local "$PLAYBOOK" "$@" -e "$(printf '%s' \
		"{\"numastatctl_hosts\": \"localhost\", \"numastatctl_become\": false,
		  \"numastatctl_bin\": \"$NUMASTATCTL\", \"numastatctl_profile\": \"$profile\",
		  \"numastatctl_options\": [\"--sysroot\", \"$ROOT\", \"--state-dir\", \"$STATE\",
		                            \"--config\", \"$conf\"]}")" >"$TMP/play.json" 2>"$TMP/play.err"
	RC=$?
	STATS=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["stats"]["localhost"]
print(s["ok"], s["changed"], s["failures"], s["skipped"])' "$TMP/play.json" 2>&1)
}

fixture sparse3
play lean --check
expect_rc 0 "check mode succeeds"
set -- $STATS
check "check mode reports the drift as a change (stats: $STATS)" test "$2" = 1
expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "check mode writes nothing"
check "check mode lists the knobs that differ" grep -q 'vm.min_slab_ratio: 37 -> 9' "$TMP/play.json"

play lean
expect_rc 0 "a real run succeeds"
set -- $STATS
check "and reports a change (stats: $STATS)" test "$2" = 1
expect_file "$ROOT/proc/sys/vm/numa_stat" 0 "the profile's vm.numa_stat is written"
expect_file "$ROOT/proc/sys/vm/min_slab_ratio" 9 "and its vm.min_slab_ratio"

play lean
expect_rc 0 "a second run succeeds"
set -- $STATS
check "and changes nothing (stats: $STATS)" test "$2" = 0
check "its apply task is skipped" test "$4" -ge 1

play broken
check "a profile with an invalid value fails the play" test "$RC" != 0
set -- $STATS
check "on the check task (stats: $STATS)" test "$3" = 1
check "with numastatctl's message" grep -q "invalid value '2'" "$TMP/play.json"
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

done_testing
