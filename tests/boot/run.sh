#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The boot test: a real Debian 12 system with systemd, booted under QEMU with
# four NUMA nodes, numastatctl installed into it by `apt install` of its
# package (upgraded, removed and purged at the end by check.sh),
# numastatctl.service enabled, and a sysctl.d file that sets the profile's
# knobs differently.  check.sh runs in the guest after multi-user.target and
# reports TAP, which becomes ours.  The root file system comes from
# mkrootfs.sh (mmdebstrap; built once, then cached).
#
#   tests/boot/run.sh            or   meson test -C build --suite boot
#
# Needs root, mmdebstrap, qemu-system-x86, e2fsprogs and the apt sources to
# reach Debian the first time.  Environment: NUMASTATCTL_BOOT_CACHE (where
# the root file system tarball is kept, default
# ${XDG_CACHE_HOME:-/var/cache}/numastatctl-boot), BOOT_TIMEOUT (seconds the
# guest may run, default 2400), BOOT_LOG_DIR (where the guest's journal and
# console are kept after the run: meson's build/tests/boot, by hand the
# current directory).
BOOT_DIR=$(cd "$(dirname "$0")" && pwd)
SOURCE_ROOT=${SOURCE_ROOT:-$(cd "$BOOT_DIR/../.." && pwd)}
# lib.sh wants these for the CLI tests; this test builds and installs its
# own copy of numastatctl, the Debian package.
export NUMASTATCTL=${NUMASTATCTL:-/usr/sbin/numastatctl} FIXTURES=${FIXTURES:-$SOURCE_ROOT/tests/fixtures}
# shellcheck source=tests/cli/lib.sh
. "$BOOT_DIR/../cli/lib.sh"
# shellcheck source=tests/vm/qemu-lib.sh
. "$BOOT_DIR/../vm/qemu-lib.sh"
# shellcheck source=tests/cli/deb-lib.sh
. "$BOOT_DIR/../cli/deb-lib.sh"

BOOT_TIMEOUT=${BOOT_TIMEOUT:-2400}
BOOT_LOG_DIR=${BOOT_LOG_DIR:-$PWD}
# The check unit's own limit, short of the host's: a check that hangs is
# stopped in the guest, which still writes its journal out and powers off.
# A quarter of the host's limit is left for the boot before the checks
# (100 s at a load of 7, more on a busier host) and the journal after.
CHECK_TIMEOUT=$((BOOT_TIMEOUT * 3 / 4))
CACHE=${NUMASTATCTL_BOOT_CACHE:-${XDG_CACHE_HOME:-/var/cache}/numastatctl-boot}
GUEST_LIB=/usr/local/lib/numastatctl-boot

# The size of the disk the guest writes its journal to.
JOURNAL_MB=64

bail_out() {
	echo "Bail out! $*"
	exit 1
}

[ "$(uname -m)" = x86_64 ] || skip_all "the guest is x86_64, this host is $(uname -m)"
# mmdebstrap's root mode and mkfs.ext4 -d keep file owners only as root.
[ "$(id -u)" = 0 ] || skip_all "builds a root file system: run as root"
need $QEMU qemu-system-x86
need mmdebstrap mmdebstrap
need mkfs.ext4 e2fsprogs
need dpkg-buildpackage dpkg-dev
need dh debhelper
need git git
need numactl numactl

# took STEP: the seconds since the last step (or the start) as a comment,
# "time: STEP: N s", so that CI's log shows where the minutes go.
step_start=$SECONDS
took() {
	diag "time: $1: $((SECONDS - step_start)) s"
	step_start=$SECONDS
}

start=$(date +%s)
tarball=$("$BOOT_DIR/mkrootfs.sh" "$CACHE" 2>"$TMP/mkrootfs.err") ||
	bail_out "$(tail -n 5 "$TMP/mkrootfs.err")"
ok "a Debian 12 root file system with systemd: $tarball"
if grep -q 'mkrootfs: building' "$TMP/mkrootfs.err"; then took "the root file system built"; else
	took "the root file system, cached"; fi

R=$TMP/root
if ! mkdir "$R" || ! tar -xpf "$tarball" -C "$R" --numeric-owner; then
	bail_out "cannot unpack $tarball"
fi
took "the root file system unpacked"

# The project as an administrator installs it: the Debian package, built
# from a copy of the tree (git's files) and installed with apt into the
# guest's root; a newer build of it (the same files, a higher version) for
# the guest to upgrade to.  test-deb's build of this very tree, when it
# left one (deb-lib.sh; CI runs test-deb first), is that package.
mkdir -p "$TMP/deb"
if deb_cache_get "$TMP/deb"; then
	ok "the package of this tree, as test-deb built it with dpkg-buildpackage"
	took "the package, test-deb's build"
else
	copy_source "$TMP/deb/src"
	if (cd "$TMP/deb/src" && dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1; then
		ok "dpkg-buildpackage builds the package"
	else
		bail_out "dpkg-buildpackage failed: $(tail -n 5 "$TMP/build.log")"
	fi
	took "dpkg-buildpackage"
fi
deb=$(ls "$TMP"/deb/numastatctl_*.deb)
version=$(dpkg-deb -f "$deb" Version)
mkdir -p "$R$GUEST_LIB"
dpkg-deb -R "$deb" "$TMP/deb/up"
# Two newer builds: one upgrade with the boot unit enabled but stopped,
# one with it active and a trial running.
for n in 1 2; do
	sed -i "s/^Version: .*/Version: $version+boot$n/" "$TMP/deb/up/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$TMP/deb/up" \
		"$R$GUEST_LIB/numastatctl_${version}+boot${n}_$(dpkg --print-architecture).deb" \
		>>"$TMP/build.log" 2>&1 ||
		bail_out "dpkg-deb -b of a newer build failed: $(tail -n 5 "$TMP/build.log")"
done
took "the two newer builds"
cp "$deb" "$R/tmp/"
# apt in the guest's root, in a mount namespace of its own (its /proc and
# /dev go with it); no systemd runs there, so the maintainer scripts only
# record the units' state, as on an image build.
if unshare -m sh -c 'mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" &&
	DEBIAN_FRONTEND=noninteractive chroot "$1" apt-get install -y -q "/tmp/$2"' sh "$R" "${deb##*/}" \
	>"$TMP/apt.log" 2>&1; then
	ok "apt-get install ./${deb##*/} into the guest's root"
else
	bail_out "apt-get install failed: $(tail -n 5 "$TMP/apt.log")"
fi
took "apt-get install into the guest's root"
rm -f "$R/tmp/${deb##*/}"
# The package enables no unit: the admin does, after choosing a profile.
OUT=$(systemctl --root="$R" is-enabled numastatctl.service numastatctl-textfile.timer 2>&1 | paste -sd' ')
expect_out "disabled disabled" "the package left numastatctl.service and the textfile timer disabled"

# The profile's vm.min_free_kbytes, which tuned's hpc-compute sets to 135168.
TUNED_FIGHT=67584

# knobs ARGS: the table's rows (see tests/boot/knobs).
knobs() {
	grep -v '^#' "$BOOT_DIR/knobs"
}

# The guest's configuration: sysctl.d sets some of the profile's knobs to
# other values, so the profile holds only when the unit runs after it.
guest_config() {
	local name by before profile
	{
		echo "# The boot test: values numastatctl.service must override."
		knobs | while read -r name by before profile; do
			[ "$by" = sysctl.d ] && echo "$name = $before"
		done
	} >"$R/etc/sysctl.d/50-numastatctl-boot.conf"
	{
		printf '[numastatctl]\nprofile = boot\n\n[profile boot]\n'
		echo "summary = The boot test: every knob differs from what boot sets before the unit"
		knobs | while read -r name by before profile; do echo "$name = $profile"; done
		# What tuned's stock hpc-compute sets otherwise (135168).
		echo "vm.min_free_kbytes = $TUNED_FIGHT"
		printf '\n[profile rawio]\ninclude = boot\n'
		echo "summary = The boot profile and a sysctl whose handler needs CAP_SYS_RAWIO"
		echo "vm.mmap_min_addr = 32768"
	} >"$R/etc/numastatctl.conf"

	# tuned with its stock hpc-compute profile, started at boot as Debian
	# enables it: it starts after numastatctl.service, writes its own value of
	# vm.min_free_kbytes and, with reapply_sysctl (on by default), the
	# sysctl.d file again.  Its log file needs a writable /var/log/tuned.
	echo hpc-compute >"$R/etc/tuned/active_profile"
	echo manual >"$R/etc/tuned/profile_mode"
	mkdir -p "$R/var/log/tuned"
	chmod 0644 "$R/etc/sysctl.d/50-numastatctl-boot.conf" "$R/etc/numastatctl.conf"

	mkdir -p "$R$GUEST_LIB"
	install -m 0755 "$BOOT_DIR/check.sh" "$R$GUEST_LIB/check.sh"
	install -m 0644 "$BOOT_DIR/knobs" "$R$GUEST_LIB/knobs"
	# numactl for a container's process to ask a policy (the guest has
	# libnuma1; the root file system stays the cached one).
	install -m 0755 "$(command -v numactl)" "$R$GUEST_LIB/numactl"
	cat >"$R/etc/systemd/system/numastatctl-boot-check.service" <<-EOF
		[Unit]
		Description=numastatctl boot test: check the boot profile, then power off
		After=multi-user.target
		SuccessAction=poweroff
		FailureAction=poweroff
		[Service]
		Type=oneshot
		ExecStart=$GUEST_LIB/check.sh
		# The boot's journal, however the checks ended, onto the second
		# disk (/dev/vdb, zeroed): run.sh keeps it as guest-journal.log.
		ExecStopPost=/bin/sh -c 'journalctl -b --no-pager -o short-monotonic | head -c $((JOURNAL_MB - 1))M >/dev/vdb; sync'
		StandardOutput=journal+console
		StandardError=journal+console
		TimeoutStartSec=$CHECK_TIMEOUT
		[Install]
		WantedBy=multi-user.target
	EOF
	systemctl --root="$R" enable numastatctl.service numastatctl-boot-check.service tuned.service \
		>"$TMP/enable.log" 2>&1 || bail_out "systemctl enable: $(cat "$TMP/enable.log")"

	# A booted, not a first-boot system: no firstboot prompts on the console.
	tr -d '-' </proc/sys/kernel/random/uuid >"$R/etc/machine-id"
	echo numastatctl-boot >"$R/etc/hostname"
	# The root stays read-only for the whole boot: the unit must need
	# nothing but /run, whenever /var is mounted or remounted writable.
	# Where the kubelet and podman write (check.sh's pods and containers):
	# tmpfs on the read-only root.
	mkdir -p "$R/var/log/containers" "$R/var/log/pods" "$R/var/lib/kubelet" "$R/var/lib/containers"
	printf '/dev/vda / ext4 ro 0 0\ntmpfs /var/log/tuned tmpfs mode=0755 0 0\n' >"$R/etc/fstab"
	printf 'tmpfs %s tmpfs mode=0755 0 0\n' /var/log/containers /var/log/pods /var/lib/kubelet \
		/var/lib/containers >>"$R/etc/fstab"
	# podman update writes its resources to a file in /var/tmp first.
	printf 'tmpfs /var/tmp tmpfs mode=1777 0 0\n' >>"$R/etc/fstab"
}
guest_config
ok "the guest enables numastatctl.service, with sysctl.d setting the profile's knobs otherwise, and tuned's hpc-compute"

# The guest's own kernel and initramfs, as its boot loader would take them.
# shellcheck disable=SC2012 # ls -v: the newest version last
KERNEL=$(ls -v "$R"/boot/vmlinuz-* 2>/dev/null | tail -n 1)
INITRD=$R/boot/initrd.img-${KERNEL##*/vmlinuz-}
if [ ! -f "$KERNEL" ] || [ ! -f "$INITRD" ]; then
	bail_out "no kernel and initramfs in the guest's /boot"
fi
cp "$KERNEL" "$INITRD" "$TMP/"

if ! mkfs.ext4 -q -F -L numastatctl-boot -d "$R" "$TMP/root.img" 2G >"$TMP/mkfs.log" 2>&1; then
	bail_out "mkfs.ext4 -d: $(tail -n 3 "$TMP/mkfs.log")"
fi
rm -rf "$R"
truncate -s ${JOURNAL_MB}M "$TMP/journal.img"
took "the guest's configuration and mkfs.ext4 -d"
prepared=$(($(date +%s) - start))

# keep_logs: the guest's journal (the NULs of the disk's unwritten rest
# dropped), console and TAP, kept where a failure can be read after the
# run (meson: build/tests/boot).
keep_logs() {
	mkdir -p "$BOOT_LOG_DIR" &&
		tr -d '\0' <"$TMP/journal.img" >"$BOOT_LOG_DIR/guest-journal.log" &&
		tr -d '\r' <"$TMP/console.log" >"$BOOT_LOG_DIR/guest-console.log" &&
		tr -d '\r' <"$TMP/tap.log" >"$BOOT_LOG_DIR/guest-tap.log"
}

# Four nodes of 512 MiB and one CPU each; the root read-only (see the fstab
# above).
# shellcheck disable=SC2046 # numa_args is a list of words on purpose
run_guest "$BOOT_TIMEOUT" -smp 4,sockets=4 -m 2G $(numa_args 512M 4) \
	-kernel "$TMP/${KERNEL##*/}" -initrd "$TMP/${INITRD##*/}" \
	-drive "file=$TMP/root.img,format=raw,if=virtio" \
	-drive "file=$TMP/journal.img,format=raw,if=virtio" \
	-append "root=/dev/vda ro console=ttyS0 panic=-1 systemd.firstboot=off"
relay_tap "$BOOT_TIMEOUT"
# The guest's own times (check.sh): power-on to the checks' start, the
# checks, their end to power-off (the journal written out).
up=$(tr -d '\r' <"$TMP/tap.log" | sed -n 's/^# .*checks start at \([0-9]*\)[.0-9]*s of uptime.*/\1/p')
down=$(tr -d '\r' <"$TMP/tap.log" | sed -n 's/^# checks end at \([0-9]*\)s of uptime.*/\1/p')
if [ -n "$up" ] && [ -n "$down" ]; then
	diag "time: power-on to multi-user.target and the checks: ${up} s" \
		"time: the checks: $((down - up)) s" \
		"time: the checks' end to power-off: $((ELAPSED - down)) s"
fi
diag "${KERNEL##*/} with systemd under TCG, 4 nodes: ${prepared}s to prepare, ${ELAPSED}s from power-on to power-off"
if keep_logs 2>/dev/null; then
	diag "the guest's journal, console and TAP: $BOOT_LOG_DIR/guest-{journal,console,tap}.log"
else
	diag "cannot keep the guest's logs in $BOOT_LOG_DIR"
fi
done_testing
