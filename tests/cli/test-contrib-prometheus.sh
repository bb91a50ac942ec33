#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/prometheus: the rules pass `promtool check rules`, their unit tests
# pass `promtool test rules` on synthetic series, and every numastatctl
# series the rules and their tests use is one that stat --prometheus exports.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"
: "${SOURCE_ROOT:?run through meson test}"
RULES=$SOURCE_ROOT/contrib/prometheus/numastatctl.rules.yml
RULES_TEST=$SOURCE_ROOT/contrib/prometheus/numastatctl.rules.test.yml
POD_RULES=$SOURCE_ROOT/contrib/prometheus/numastatctl-pods.rules.yml
POD_RULES_TEST=$SOURCE_ROOT/contrib/prometheus/numastatctl-pods.rules.test.yml
# What stat --migration-reasons INTERVAL --textfile exports; its series are
# checked against the file in test-stat-reasons.sh, which makes it.
REASON_RULES=$SOURCE_ROOT/contrib/prometheus/numastatctl-migration-reasons.rules.yml
REASON_RULES_TEST=$SOURCE_ROOT/contrib/prometheus/numastatctl-migration-reasons.rules.test.yml

need promtool prometheus

# promtool_ok DESC ARGS...: promtool ARGS succeeds.
promtool_ok() {
	local desc=$1 out
	shift
	if out=$(promtool "$@" 2>&1); then ok "$desc"; else not_ok "$desc" "$out"; fi
}

promtool_ok "promtool check rules accepts the rules" check rules "$RULES"
# rule_files is resolved against the test file's directory, whatever the cwd.
promtool_ok "promtool test rules passes the unit tests" test rules "$RULES_TEST"

# Every alert has a unit test.
for a in $(sed -n 's/^ *- alert: *//p' "$RULES"); do
	check "alert $a has a unit test" grep -q "alertname: $a\$" "$RULES_TEST"
done

# expect_exported FILE...: every numastatctl_ series each FILE uses is in
# $exported, the families the last run's text declared.
expect_exported() {
	local f used missing
	for f in "$@"; do
		used=$(grep -o 'numastatctl_[a-z_]*' "$f" | sort -u)
		missing=$(comm -23 <(echo "$used") <(echo "$exported" | sort -u))
		if [ -n "$used" ] && [ -z "$missing" ]; then
			ok "every series $(basename "$f") uses is exported"
		else
			not_ok "every series $(basename "$f") uses is exported" "not exported: $missing"
		fi
	done
}

# What numastatctl exports with a profile configured, one name per family.
fixture sparse3
conf '[numastatctl]
profile = p
[profile p]
vm.numa_stat = 1'
prun stat --prometheus
expect_rc 0 "stat --prometheus runs"
exported=$(sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$TMP/out")
expect_exported "$RULES" "$RULES_TEST"

# The pod rules: on what placement --pod exports (gen-containers.sh).
promtool_ok "promtool check rules accepts the pod rules" check rules "$POD_RULES"
promtool_ok "promtool test rules passes the pod rules' unit tests" test rules "$POD_RULES_TEST"
for a in $(sed -n 's/^ *- alert: *//p' "$POD_RULES"); do
	check "alert $a has a unit test" grep -q "alertname: $a\$" "$POD_RULES_TEST"
done

promtool_ok "promtool check rules accepts the migration-reasons rules" check rules "$REASON_RULES"
promtool_ok "promtool test rules passes the migration-reasons rules' unit tests" test rules "$REASON_RULES_TEST"
for a in $(sed -n 's/^ *- alert: *//p' "$REASON_RULES"); do
	check "alert $a has a unit test" grep -q "alertname: $a\$" "$REASON_RULES_TEST"
done

gen_fixture gen-containers.sh systemd
run placement --pod '*/*' --prometheus
expect_rc 0 "placement --pod --prometheus runs"
exported=$(sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' <<<"$OUT")
expect_exported "$POD_RULES" "$POD_RULES_TEST"
check "the labels the pod rules group by are exported" grep -q 'namespace="prod",pod="db-0",container="postgres"' <<<"$OUT"

done_testing
