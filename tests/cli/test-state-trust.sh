#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The state directory is trusted like the configuration: a revert file in a
# directory another user owns or can write would make root write any vm.*
# sysctl.  So it must be root's and not writable by group or others, every
# directory on the way too (a root-owned sticky one such as /tmp excepted),
# and nothing inside is reached through a symlink.  Each refusal is one line
# with the path and the fix, and changes nothing.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to hand directories to another user"
NOBODY=65534
VM=proc/sys/vm

# revert_point DIR: a well-formed revert file in DIR that would set
# vm.mmap_min_addr to 0, the attacker's wish.
revert_point() {
	printf 'numastatctl-revert 2 id=1-0123456789abcdef for="%s" at=2026-01-01T00:00:00Z by="set"\nknob vm.mmap_min_addr "0" "65536" -\nend 1\n' \
		"$(realpath "$ROOT")" >"$1/revert"
}

# expect_refused DESC PATH FIX: exit 1, one line naming PATH and FIX, nothing written.
expect_refused() {
	expect_rc 1 "$1: exit 1"
	expect_err_has "$2" "$1: names $2"
	expect_err_has "$3" "$1: says how to fix it"
	expect_one_err_line "$1: in one line"
	expect_file "$ROOT/$VM/mmap_min_addr" 4096 "$1: vm.mmap_min_addr is untouched"
	expect_file "$ROOT/$VM/min_slab_ratio" 37 "$1: nothing else was written"
}

# The issue's attack: another user's 0777 state dir with a crafted revert file.
fixture sparse3
echo 4096 >"$ROOT/$VM/mmap_min_addr"
S="$TMP/evil"
mkdir -m 0777 "$S" && revert_point "$S" && chown -R "$NOBODY" "$S"
run --state-dir "$S" revert --dry-run
expect_refused "revert --dry-run from another user's state dir" "$S: owned by uid $NOBODY, not by root" "chown root $S"
expect_out_lacks "mmap_min_addr" "revert --dry-run shows nothing of the crafted file"
run --state-dir "$S" revert
expect_refused "revert from another user's state dir" "$S: owned by uid $NOBODY" "chown root $S"
run --state-dir "$S" set vm.min_slab_ratio=50
expect_refused "set with another user's state dir" "$S: owned by uid $NOBODY" "chown root $S"

# Root's, but writable by others or by the group.
for mode in 0777 0775 1777; do
	fixture sparse3
	echo 4096 >"$ROOT/$VM/mmap_min_addr"
	S="$TMP/open.$mode"
	mkdir -p "$S" && chmod "$mode" "$S" && revert_point "$S"
	run --state-dir "$S" revert
	expect_refused "a state dir of mode $mode" "$S: writable by group or others" "chmod go-w $S"
done

# The revert file itself: another user's, or writable by others.
fixture sparse3
echo 4096 >"$ROOT/$VM/mmap_min_addr"
mkdir "$STATE" && revert_point "$STATE"
chown "$NOBODY" "$STATE/revert"
run revert
expect_refused "a revert file another user owns" "$STATE/revert: owned by uid $NOBODY" "chown root $STATE/revert"
chown 0 "$STATE/revert" && chmod 0666 "$STATE/revert"
run revert
expect_refused "a revert file others can write" "$STATE/revert: writable by group or others" "chmod go-w $STATE/revert"

# Steps on the way: a parent another user owns, or that others can write.
fixture sparse3
echo 4096 >"$ROOT/$VM/mmap_min_addr"
P="$TMP/userhome"
mkdir -p "$P/state" && chown "$NOBODY" "$P" && revert_point "$P/state"
run --state-dir "$P/state" revert
expect_refused "a parent another user owns" "$P: owned by uid $NOBODY, not by root, on the way to $P/state" "choose a directory whose parents root owns"
chown 0 "$P" && chmod 0777 "$P"
run --state-dir "$P/state" revert
expect_refused "a parent others can write (not sticky)" "$P: writable by group or others and not sticky, on the way to $P/state" "chmod go-w $P"

# A long path, named three times in the reason: it reaches the user whole.
fixture sparse3
echo 4096 >"$ROOT/$VM/mmap_min_addr"
L="$TMP/long/$(printf '%0200d' 0)/$(printf '%0200d' 1)/$(printf '%0200d' 2)"
mkdir -p "$L/state" && chmod 0777 "$L" && revert_point "$L/state"
run --state-dir "$L/state" revert
expect_refused "a ${#L}-byte path" "$L: writable by group or others and not sticky, on the way to $L/state" \
	"(run 'chmod go-w $L', or choose another directory)"
# Root-owned and sticky, as /tmp: others cannot replace what root put there.
chmod 1777 "$P" && mkdir -p "$P/ok"
run --state-dir "$P/ok" set vm.min_slab_ratio=50
expect_rc 0 "a root-owned sticky parent, like /tmp, is a safe step"
chown "$NOBODY" "$P"
run --state-dir "$P/ok" set vm.min_slab_ratio=51
expect_rc 1 "a sticky parent another user owns is not"
expect_err_has "$P: owned by uid $NOBODY" "and is named"

# Symlinks on the way: root's are followed, another user's are not.
fixture sparse3
echo 4096 >"$ROOT/$VM/mmap_min_addr"
mkdir -p "$TMP/real/state" && ln -s "$TMP/real" "$TMP/link"
run --state-dir "$TMP/link/state" set vm.min_slab_ratio=50
expect_rc 0 "a root-owned symlink on the way is followed"
check "to the real directory" test -s "$TMP/real/state/revert"
ln -s "$TMP/real" "$TMP/userlink" && chown -h "$NOBODY" "$TMP/userlink"
run --state-dir "$TMP/userlink/state" revert
expect_rc 1 "another user's symlink on the way is refused"
expect_err_has "$TMP/userlink: a symlink owned by uid $NOBODY, not by root, on the way to $TMP/userlink/state" "naming it"
expect_file "$ROOT/$VM/min_slab_ratio" 50 "and nothing was restored through it"

# Nothing inside the state dir is reached through a symlink.
fixture sparse3
mkdir -p "$STATE" "$TMP/elsewhere"
ln -s "$TMP/elsewhere" "$STATE/snapshots"
run set vm.numa_stat=0
expect_rc 1 "a snapshots symlink planted in the state dir: numa_stat 1 -> 0 is refused"
expect_err_has "$STATE/snapshots: a symlink inside the state directory: refusing to follow it (remove it)" "naming the symlink and the fix"
check "nothing was written where it points" test -z "$(ls -A "$TMP/elsewhere")"
expect_file "$ROOT/$VM/numa_stat" 1 "numa_stat stays 1"
check "no revert point claims the refused change" test ! -e "$STATE/revert"
rm "$STATE/snapshots"

fixture sparse3
echo 4096 >"$ROOT/$VM/mmap_min_addr"
mkdir -p "$STATE" "$TMP/crafted"
revert_point "$TMP/crafted"
ln -s "$TMP/crafted/revert" "$STATE/revert"
run revert
expect_refused "a revert symlink" "$STATE/revert: a symlink inside the state directory" "remove it"

fixture sparse3
mkdir -p "$STATE"
ln -s "$TMP/lock-target" "$STATE/lock"
run set vm.min_slab_ratio=50
expect_rc 1 "a lock symlink is refused"
expect_err_has "$STATE/lock: a symlink inside the state directory" "naming it"
check "and nothing is created where it points" test ! -e "$TMP/lock-target"
expect_file "$ROOT/$VM/min_slab_ratio" 37 "nothing was written"

fixture sparse3
mkdir -p "$STATE/snapshots" && chown "$NOBODY" "$STATE/snapshots"
run set vm.numa_stat=0
expect_rc 1 "a snapshots directory another user owns is refused"
expect_err_has "$STATE/snapshots: owned by uid $NOBODY" "naming it"
expect_file "$ROOT/$VM/numa_stat" 1 "and numa_stat stays 1"

# Things that are not regular files where the revert file should be: refused
# at once (a FIFO would otherwise block the reader forever).
for kind in fifo dir huge; do
	fixture sparse3
	mkdir -p "$STATE"
	case $kind in
	fifo) mkfifo -m 0600 "$STATE/revert" ;;
	dir) mkdir "$STATE/revert" ;;
	huge) revert_point "$STATE" && head -c 1100000 /dev/zero | tr '\0' '#' >>"$STATE/revert" ;;
	esac
	timeout 20 "$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" revert >"$TMP/out" 2>"$TMP/err"
	RC=$? ERR=$(<"$TMP/err")
	expect_rc 1 "a revert $kind is refused, not waited on"
	case $kind in
	huge) expect_err_has "$STATE/revert: larger than a revert file can be" "a huge revert file: says so" ;;
	*) expect_err_has "$STATE/revert: not a regular file" "a revert $kind: says so" ;;
	esac
done

# The same for a snapshot: a FIFO with a snapshot's name is named, not read.
fixture sparse3
mkdir -p "$STATE/snapshots" && mkfifo -m 0644 "$STATE/snapshots/numastat-20260101T000000.000000000Z.json"
timeout 20 "$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" snapshots >"$TMP/out" 2>"$TMP/err"
RC=$? ERR=$(<"$TMP/err")
expect_rc 1 "a FIFO among the snapshots: listed, exit 1"
expect_err_has "numastat-20260101T000000.000000000Z.json: not a regular file" "and named"

# [numastatctl] state_dir moves the snapshots only from a file root trusts.
fixture sparse3
mkdir -p "$TMP/cfgstate/snapshots"
printf '{"nodes": [{"node": 0, "numa_hit": 1, "numa_miss": 2, "numa_foreign": 3, "interleave_hit": 4, "local_node": 5, "other_node": 6}]}\n' \
	>"$TMP/cfgstate/snapshots/numastat-20260101T000000.000000000Z.json"
printf '[numastatctl]\nstate_dir = %s\n' "$TMP/cfgstate" >"$TMP/trusted.conf"
chmod 0644 "$TMP/trusted.conf"
run_raw -S "$ROOT" -c "$TMP/trusted.conf" snapshots -N
expect_out "numastat-20260101T000000.000000000Z.json" "a trusted configuration's state_dir holds the snapshots"
cp "$TMP/trusted.conf" "$TMP/untrusted.conf" && chmod 0666 "$TMP/untrusted.conf"
run_raw -S "$ROOT" -c "$TMP/untrusted.conf" snapshots -N
expect_out_lacks "numastat-20260101T000000" "a configuration others can write moves nothing"
chmod 0644 "$TMP/untrusted.conf" && chown "$NOBODY" "$TMP/untrusted.conf"
run_raw -S "$ROOT" -c "$TMP/untrusted.conf" stat --snapshot numastat-20260101T000000.000000000Z
check "nor does one another user owns" test "$RC" != 0 -a -z "$OUT"
case "$ERR" in *cfgstate*) not_ok "and its state_dir is not even looked at" "$ERR" ;; *) ok "and its state_dir is not even looked at" ;; esac

# The state dir may be given relative to the working directory, never with '..'.
fixture sparse3
(cd "$TMP" && "$NUMASTATCTL" -S "$ROOT" --state-dir rel/state set vm.min_slab_ratio=50 >/dev/null 2>&1)
check "a relative --state-dir works from the working directory" test -s "$TMP/rel/state/revert"
run --state-dir "$TMP/rel/../rel/state" revert
expect_rc 1 "'..' in --state-dir is refused"
expect_err_has "'..' in the path of a state directory" "and says so"

# Reading snapshots: a user may read root's (root owns them, and they are 0644).
fixture sparse3
run set vm.numa_stat=0
if have setpriv util-linux; then
	chmod 0755 "$TMP"
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
		"$NUMASTATCTL" -S "$ROOT" --state-dir "$STATE" snapshots -N >"$TMP/out" 2>"$TMP/err"
	RC=$? OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
	chmod 0700 "$TMP"
	expect_rc 0 "another user may list root's snapshots"
	expect_out "$(ls "$STATE/snapshots")" "and sees them"
fi

# The built-in directories are the machine's, whatever the prefix: a
# /usr/local build on Debian once kept its snapshots under /var/local (group
# staff may write it), and every snapshot was refused.
run_raw snapshots
expect_rc 0 "the built-in snapshot directory passes the trust check here"

done_testing
