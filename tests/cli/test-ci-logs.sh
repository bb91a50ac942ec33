#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# .ci/meson-logs.py, what .ci/test-all counts and prints from meson's test
# logs: "checks" counts each TAP check of a test (the boot stage's way), a
# test that died before its checks as one failure; "failures" prints each
# failed check with its comment lines, or a dead test's last lines.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"
LOGS=$SOURCE_ROOT/.ci/meson-logs.py

# log FILE JSON...: a meson log, one test a line.
log() {
	local f=$1
	shift
	printf '%s\n' "$@" >"$f"
}
logs() {
	OUT=$(/usr/bin/python3 "$LOGS" "$@" 2>&1)
	RC=$?
}

log "$TMP/pass.json" \
	'{"name": "numastatctl:boot / test-boot", "result": "OK", "stdout": "ok 1 - a\nok 2 - # SKIP no tuned\n# a comment\nok 3 - c\n1..3\n"}'
logs 0 checks "$TMP/pass.json"
expect_out "2 0 1" "checks: each TAP check of a passing test, its skip apart"
logs 0 count "$TMP/pass.json"
expect_out "1 0 0" "count: the test as one"

log "$TMP/fail.json" \
	'{"name": "numastatctl:boot / test-boot", "result": "FAIL", "stdout": "ok 1 - a\nnot ok 2 - the upgrade did not start the unit\n#   $ systemctl is-active numastatctl.service\n#   exit 0, want 3\nok 3 - c\n1..3\n"}' \
	'{"name": "numastatctl:boot / test-dead", "result": "ERROR", "stdout": "ok 1 - a root file system\nBail out! dpkg-buildpackage failed\n"}'
logs 0 checks "$TMP/fail.json"
expect_out "3 2 0" "checks: a failed check, and a test dead after its last check, one failure each"
logs 0 failures "$TMP/fail.json"
expect_out "test-boot: FAIL
  not ok 2 - the upgrade did not start the unit
  #   \$ systemctl is-active numastatctl.service
  #   exit 0, want 3
test-dead: ERROR, its last lines:
  ok 1 - a root file system
  Bail out! dpkg-buildpackage failed" "failures: the failed check with its lines, the dead test's last lines"
logs 0 failures "$TMP/pass.json"
expect_out "" "failures: nothing for a passing test"

touch -d '2020-01-01' "$TMP/pass.json"
logs "$(date +%s)" checks "$TMP/pass.json"
expect_rc 3 "checks: a log from before the run is not counted (exit 3)"

done_testing
