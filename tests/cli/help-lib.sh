# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The golden --help texts, shared by test-help.sh and scripts/regen-help.
# tests/expected/help/numastatctl.out is `numastatctl --help`, each other
# NAME.out `numastatctl NAME --help`.

HELP_EXPECTED=$(cd "$(dirname "${BASH_SOURCE[0]}")/../expected" && pwd)/help

# help_text NAME FLAG: the help NAME prints for FLAG (--help or -h), with
# the configured directories as @SYSCONFDIR@, @RUNDIR@ and @STATEDIR@.
# Returns the binary's exit code.
help_text() {
	local rc
	if [ "$1" = numastatctl ]; then
		"$NUMASTATCTL" "$2" >"$TMP/help.raw" </dev/null
	else
		"$NUMASTATCTL" "$1" "$2" >"$TMP/help.raw" </dev/null
	fi
	rc=$?
	sed -e 's|(default .*/numastatctl\.conf$|(default @SYSCONFDIR@/numastatctl.conf|' \
		-e 's|^\( *\)and .*/numastatctl\.d/\*\.conf)$|\1and @SYSCONFDIR@/numastatctl.d/*.conf)|' \
		-e 's|<dir> (default .* and .*)$|<dir> (default @RUNDIR@ and @STATEDIR@)|' "$TMP/help.raw"
	return $rc
}
