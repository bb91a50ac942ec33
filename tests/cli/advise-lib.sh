# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Helpers of test-advise*.sh (on top of lib.sh and profile-lib.sh).

GEN=$FIXTURES/gen-advise.sh

# afixture CASE: a fresh root built by gen-advise.sh, $CONF its configuration.
# shellcheck disable=SC2034 # STATE and CONF are for run and prun
afixture() {
	gen_fixture gen-advise.sh "$1"
	CONF="$ROOT/etc/numastatctl.conf"
	trust "$ROOT/etc"
}

