# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Helpers shared by the test-profile-*.sh scripts (on top of lib.sh).

# Configuration files must look like root's own when the tests run as root:
# numastatctl refuses files others can write, whatever the checkout's umask.
umask 022

# pfixture NAME: fixture NAME, with $CONF its etc/numastatctl.conf made trusted.
pfixture() {
	fixture "$1"
	CONF="$ROOT/etc/numastatctl.conf"
	trust "$ROOT/etc"
}

# trust PATH...: owned by root (when we are root) and not writable by others.
trust() {
	if [ "$(id -u)" = 0 ]; then chown -R 0:0 "$@"; fi
	chmod -R go-w "$@"
}

# conf TEXT: $CONF holds TEXT (a fresh file next to the fixture's).
conf() {
	CONF="$ROOT.conf"
	printf '%s\n' "$1" >"$CONF"
	trust "$CONF"
}

# prun ARGS...: run with --config $CONF.
prun() {
	run --config "$CONF" "$@"
}

# knob NAME: the value in the fixture tree, e.g. knob vm/numa_stat.
knob() {
	cat "$ROOT/proc/sys/$1"
}

# expect_knobs DESC NAME=VALUE...: the fixture files hold exactly these values.
expect_knobs() {
	local desc=$1 kv bad=
	shift
	for kv in "$@"; do
		[ "$(knob "${kv%%=*}")" = "${kv#*=}" ] || bad="$bad ${kv%%=*}=$(knob "${kv%%=*}")"
	done
	if [ -z "$bad" ]; then ok "$desc"; else not_ok "$desc" "differs:$bad"; fi
}
