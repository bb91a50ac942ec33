# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Helpers of test-advise*.sh (on top of lib.sh and profile-lib.sh).

GEN=$FIXTURES/gen-advise.sh

# afixture CASE: a fresh root built by gen-advise.sh, $CONF its configuration.
# shellcheck disable=SC2034 # STATE and CONF are for run and prun
afixture() {
	ROOT=$(mktemp -d "$TMP/root.XXXXXX")
	[ -n "$ROOT" ] && [ -d "$ROOT" ] || { echo "Bail out! cannot create a fixture root under $TMP"; exit 1; }
	STATE="$ROOT.state"
	"$GEN" "$ROOT" "$1" || { echo "Bail out! gen-advise.sh $1 failed"; exit 1; }
	CONF="$ROOT/etc/numastatctl.conf"
	trust "$ROOT/etc"
}

# expect_json DESC PYTHON: PYTHON, run with the parsed stdout as `doc`,
# prints nothing (it prints what is wrong).
expect_json() {
	local why
	why=$(python3 -c '
import json, sys
try:
    doc = json.loads(sys.stdin.read())
except ValueError as e:
    print("not JSON:", e); sys.exit()
'"$2" <<<"$OUT")
	if [ -z "$why" ]; then ok "$1"; else not_ok "$1" "$why" "$OUT"; fi
}
