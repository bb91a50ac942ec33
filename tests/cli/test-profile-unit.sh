#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The boot unit: systemd-analyze verify accepts it, it carries the ordering
# the boot apply needs, follows systemd-sysctl's restarts, runs sandboxed
# with a timeout, and its command line needs only the runtime directory
# (early boot, /var not yet writable).  tests/boot/ boots it for real.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"
: "${SOURCE_ROOT:?run through meson test}" "${BUILD_ROOT:?run through meson test}"

UNIT="$BUILD_ROOT/systemd/numastatctl.service"
check "the unit is generated" test -s "$UNIT"
for line in Type=oneshot RemainAfterExit=yes DefaultDependencies=no \
	'After=systemd-sysctl.service systemd-modules-load.service' \
	'Before=sysinit.target shutdown.target' ConditionPathExists=/sys/devices/system/node \
	WantedBy=sysinit.target PartOf=systemd-sysctl.service TimeoutSec=30s \
	ProtectSystem=strict RuntimeDirectory=numastatctl RuntimeDirectoryPreserve=yes \
	ReadOnlyPaths=/run ProtectHome=yes DevicePolicy=closed PrivateNetwork=yes \
	RestrictAddressFamilies=none NoNewPrivileges=yes CapabilityBoundingSet=CAP_SYS_ADMIN \
	SystemCallFilter=@system-service MemoryDenyWriteExecute=yes RestrictNamespaces=yes; do
	check "the unit has $line" grep -qxF "$line" "$UNIT"
done
# Settings that would stop the apply or move it past local-fs.target: a
# read-only /proc/sys and /sys, a /proc without /proc/sys, a user namespace
# (root in it does not own /proc/sys), a private /tmp (ordered after /var/tmp),
# a private /dev (made on the host's /tmp: fails while the root is read-only).
for bad in ProtectKernelTunables=yes ProcSubset=pid PrivateUsers=yes PrivateTmp=yes DynamicUser=yes \
	PrivateDevices=yes; do
	if grep -qxF "$bad" "$UNIT"; then not_ok "the unit has no $bad"; else ok "the unit has no $bad"; fi
done
exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT")
case "$exec_start" in
/*/numastatctl\ apply\ *) ok "ExecStart runs numastatctl apply by absolute path" ;;
*) not_ok "ExecStart runs numastatctl apply by absolute path" "got: $exec_start" ;;
esac
# A plain 'numastatctl revert' must find what the boot apply saved.
case "$exec_start" in
*--state-dir* | *--config* | *" -c "*) not_ok "ExecStart uses the default state and config" "got: $exec_start" ;;
*) ok "ExecStart uses the default state and config" ;;
esac

if have systemd-analyze systemd; then
	# Point ExecStart at the built binary: verify checks that it exists.
	# --man=no: the man pages are installed only by 'meson install'.
	sed "s|^ExecStart=[^ ]*/numastatctl |ExecStart=$NUMASTATCTL |" "$UNIT" >"$TMP/numastatctl.service"
	systemd-analyze verify --man=no "$TMP/numastatctl.service" >"$TMP/out" 2>"$TMP/err"
	RC=$? OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
	expect_rc 0 "systemd-analyze verify accepts the unit"
	expect_err "" "without a single complaint"
	# The same check refuses a broken copy, so it does look.
	sed 's|^Type=oneshot|Type=oneshot-ish|; s|^ExecStart=|ExecStart=relative/|' \
		"$TMP/numastatctl.service" >"$TMP/broken.service"
	systemd-analyze verify --man=no "$TMP/broken.service" >/dev/null 2>"$TMP/err"
	RC=$? ERR=$(<"$TMP/err")
	if [ "$RC" != 0 ] || [ -n "$ERR" ]; then ok "verify complains about a broken copy"; else
		not_ok "verify complains about a broken copy" "it passed"; fi
	# systemd's own rating of the sandbox (9.5 UNSAFE without one).
	systemd-analyze security --offline=true --no-pager "$TMP/numastatctl.service" >"$TMP/out" 2>&1
	OUT=$(<"$TMP/out")
	exposure=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' "$TMP/out")
	case "$exposure" in
	[01].*) ok "systemd-analyze security rates the unit's exposure below 2.0 (got $exposure)" ;;
	*) not_ok "systemd-analyze security rates the unit's exposure below 2.0" "$OUT" ;;
	esac
fi

# Early boot: /var may still be read-only or unmounted, but the unit needs
# only the runtime directory (on /run, a tmpfs PID 1 mounts first): its
# revert point goes there, so a plain revert undoes the boot apply.  With
# no usable runtime directory there is no lock and no revert point, so
# nothing is applied.
pfixture profile-basic
args=${exec_start#* }
# shellcheck disable=SC2086
run --config "$CONF" $args --state-dir "$ROOT.run"
expect_rc 0 "the boot command applies with a runtime directory"
expect_knobs "and writes the configured profile" vm/numa_stat=0 vm/min_slab_ratio=9
check "leaving its revert point there" grep -q '^knob vm.min_slab_ratio "37" ' "$ROOT.run/revert"
pfixture profile-basic
: >"$ROOT.file"
# shellcheck disable=SC2086
run --config "$CONF" $args --state-dir "$ROOT.file/state"
expect_rc 1 "without a usable runtime directory the boot command changes nothing"
expect_err "numastatctl: apply: $ROOT.file: not a directory" "and names what is in the way"
expect_knobs "nothing was written" vm/numa_stat=1 vm/min_slab_ratio=37

done_testing
