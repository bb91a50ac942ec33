#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --sysroot confinement against hostile dumps: symlinks (absolute, relative,
# to files and to directories, chained, looping) never lead a read or a
# write outside the root.  Every case runs twice: with openat2(2)
# RESOLVE_IN_ROOT, and with the user-space walk numastatctl falls back to
# where openat2 is missing (forced here with the fault-injection preload).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fault-lib.sh"

OUT_DIR="$TMP/outside"
mkdir -p "$OUT_DIR/vm" "$OUT_DIR/node0"
echo 99 >"$OUT_DIR/secret"
echo 98 >"$OUT_DIR/vm/min_slab_ratio"
echo 3 >"$OUT_DIR/kernel_numa_balancing"
printf 'numa_hit 777777\nnuma_miss 0\nnuma_foreign 0\ninterleave_hit 0\nlocal_node 777777\nother_node 0\n' \
	>"$OUT_DIR/node0/numastat"
outside_sum() { find "$OUT_DIR" -type f -exec md5sum {} + | sort; }
BEFORE=$(outside_sum)

# runm ARGS...: run in the current mode ($MODE: openat2 or fallback).
runm() {
	if [ "$MODE" = fallback ]; then
		FAULT_INJECT="nosys:openat2" FAULT_LOG="$TMP/nosys.log" LD_PRELOAD="$SHIM" run "$@"
	else
		run "$@"
	fi
}

# up_to_root: enough "../" to climb from $ROOT/proc/sys/vm past /.
up_to_root() { printf '../%.0s' $(seq 1 $(($(echo "$ROOT" | tr -cd / | wc -c) + 4))); }

cases() {
	local m="[$MODE]"

	fixture sparse3
	ln -sf "$OUT_DIR/secret" "$ROOT/proc/sys/vm/min_slab_ratio"
	runm get vm.min_slab_ratio
	expect_rc 1 "$m absolute symlink to a file outside: get fails"
	expect_out_lacks 99 "$m absolute symlink: the outside value is not read"
	expect_err "numastatctl: get: vm.min_slab_ratio: not present on this kernel" \
		"$m absolute symlink: resolved inside the root, where nothing is"
	runm set vm.min_slab_ratio=9
	expect_rc 1 "$m absolute symlink: set fails"

	# The same absolute target, present inside the root: that one is used.
	mkdir -p "$ROOT/$OUT_DIR"
	echo 42 >"$ROOT/$OUT_DIR/secret"
	runm set vm.min_slab_ratio=9
	expect_rc 0 "$m absolute symlink: the target inside the root is written"
	expect_file "$ROOT/$OUT_DIR/secret" 9 "$m absolute symlink: the in-root twin holds the new value"

	fixture sparse3
	ln -sf "$(up_to_root)${OUT_DIR#/}/secret" "$ROOT/proc/sys/vm/min_unmapped_ratio"
	runm get vm.min_unmapped_ratio
	expect_rc 1 "$m relative symlink climbing out: get fails"
	expect_out_lacks 99 "$m relative symlink: the outside value is not read"
	runm set vm.min_unmapped_ratio=9
	expect_rc 1 "$m relative symlink climbing out: set fails"

	fixture sparse3
	rm -r "$ROOT/proc/sys/vm"
	ln -s "$OUT_DIR/vm" "$ROOT/proc/sys/vm"
	runm set vm.min_slab_ratio=9
	expect_rc 1 "$m symlinked directory outside: set fails"
	runm get -n vm.min_slab_ratio
	expect_out_lacks 98 "$m symlinked directory outside: the outside value is not read"

	fixture sparse3
	rm -r "$ROOT/proc/sys/vm"
	ln -s "$(up_to_root)${OUT_DIR#/}/vm" "$ROOT/proc/sys/vm"
	runm set vm.min_slab_ratio=9
	expect_rc 1 "$m relative symlinked directory climbing out: set fails"

	# A chain: inside -> inside -> outside.
	fixture sparse3
	ln -s "$OUT_DIR/kernel_numa_balancing" "$ROOT/hop2"
	ln -s ../../../hop2 "$ROOT/hop1"
	ln -sf /hop1 "$ROOT/proc/sys/kernel/numa_balancing"
	runm set kernel.numa_balancing=0
	expect_rc 1 "$m a chain of symlinks ending outside: set fails"
	runm get kernel.numa_balancing
	expect_out_lacks "= 3" "$m a chain of symlinks: the outside value is not read"

	# A chain that stays inside resolves.
	fixture sparse3
	mv "$ROOT/proc/sys/vm/min_slab_ratio" "$ROOT/real_ratio"
	ln -s ../../../hop "$ROOT/proc/sys/vm/min_slab_ratio"
	ln -s real_ratio "$ROOT/hop"
	runm set vm.min_slab_ratio=9
	expect_rc 0 "$m a relative chain inside the root resolves"
	expect_file "$ROOT/real_ratio" 9 "$m and writes its in-root target"

	fixture sparse3
	ln -sf loop_b "$ROOT/proc/sys/vm/min_slab_ratio"
	ln -s min_slab_ratio "$ROOT/proc/sys/vm/loop_b"
	runm get vm.min_slab_ratio
	expect_rc 1 "$m a symlink loop fails instead of hanging"
	expect_one_err_line "$m a symlink loop gets one error line"

	# Node directories: the counter snapshot before numa_stat 1 -> 0 reads them.
	fixture sparse3
	rm -r "$ROOT/sys/devices/system/node/node0"
	ln -s "$OUT_DIR/node0" "$ROOT/sys/devices/system/node/node0"
	runm set vm.numa_stat=0
	expect_rc 1 "$m a node directory linked outside: no snapshot, so no 1 -> 0"
	expect_file "$ROOT/proc/sys/vm/numa_stat" 1 "$m numa_stat stays 1"
	check "$m no snapshot holds the outside counters" \
		bash -c "! grep -rqs 777777 '$STATE'"

	fixture sparse3
	rm -r "$ROOT/sys/devices/system/node"
	ln -s "$OUT_DIR" "$ROOT/sys/devices/system/node"
	runm set vm.numa_stat=0
	expect_rc 1 "$m the node directory linked outside: refused"
	check "$m no snapshot holds the outside counters" \
		bash -c "! grep -rqs 777777 '$STATE'"

	# An open with O_NOFOLLOW gets the last link itself: the boot unit is
	# enabled by a link whose target is not in the dump (nor may it be read).
	fixture sparse3
	mkdir -p "$ROOT/etc/sysctl.d" "$ROOT/etc/systemd/system/sysinit.target.wants"
	echo 'vm.zone_reclaim_mode = 0' >"$ROOT/etc/sysctl.d/50-numa.conf"
	ln -s /usr/lib/systemd/system/numastatctl.service \
		"$ROOT/etc/systemd/system/sysinit.target.wants/numastatctl.service"
	printf '[profile p]\nvm.zone_reclaim_mode = 1\n' >"$TMP/unit.conf"
	chmod 0644 "$TMP/unit.conf"
	runm --config "$TMP/unit.conf" apply --check p
	expect_err_has "at boot the profile wins (numastatctl.service runs after systemd-sysctl)" \
		"$m a link to a unit file the dump lacks still enables the unit"

	if [ "$(outside_sum)" = "$BEFORE" ]; then
		ok "$m every file outside the root is untouched"
	else
		not_ok "$m every file outside the root is untouched" "$(outside_sum)"
	fi
}

MODE=openat2 cases
MODE=fallback cases

# The fallback reads and writes an ordinary tree like openat2 does.
fixture sparse3
MODE=fallback runm get
expect_rc 0 "[fallback] get of a plain tree works"
expect_out_has "vm.min_slab_ratio = 37" "[fallback] with the fixture's values"
MODE=fallback runm set vm.min_slab_ratio=7 --dry-run
expect_rc 0 "[fallback] set --dry-run works"
check "[fallback] openat2 really was refused in those runs" grep -q 'openat2: ENOSYS' "$TMP/nosys.log"

done_testing
