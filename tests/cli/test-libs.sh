#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The libraries loaded with dlopen() (src/shared/dl-libs.h) are declared where
# packagers' tools look, since they are not in the ELF NEEDED list: one
# .note.dlopen note each (FDO, type 0x407c0c0a, a JSON array), and README's
# runtime dependencies.  When one is missing at run time, the message names
# the Debian package and what works without it.  A missing library is
# simulated in a private mount namespace: an overlay on the library
# directory whites out its soname.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

LIBS_H=$SOURCE_ROOT/src/shared/dl-libs.h
# soname package priority, one line per library, from the one list there is.
libs=$(sed -n 's/.*X([a-z]*, "\([^"]*\)", "\([^"]*\)", "\([^"]*\)",.*/\1 \2 \3/p' "$LIBS_H")
check "dl-libs.h lists the dlopen()ed libraries" test "$(printf '%s\n' "$libs" | grep -c .)" -ge 3

need readelf binutils
need objcopy binutils
notes=$(readelf -n "$NUMASTATCTL")
n=$(printf '%s\n' "$notes" | grep -cE '^ *FDO +0x[0-9a-f]+\s+.*0x407c0c0a')
if [ "$n" = "$(printf '%s\n' "$libs" | grep -c .)" ]; then
	ok "readelf -n shows one FDO note of type 0x407c0c0a per library"
else
	not_ok "readelf -n shows one FDO note of type 0x407c0c0a per library" "found $n:" "$notes"
fi
check "they are in the .note.dlopen section" grep -q "notes found in: .note.dlopen" <<<"$notes"

# The payloads, decoded as packagers' tools do: each a NUL-terminated JSON array.
objcopy -O binary --only-section=.note.dlopen "$NUMASTATCTL" "$TMP/note.bin"
OUT=$(python3 - "$TMP/note.bin" <<'PY'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
o = 0
while o < len(b):
    namesz, descsz, ntype = struct.unpack_from("<III", b, o)
    o += 12
    name = b[o:o + namesz]
    o += (namesz + 3) & ~3
    desc = b[o:o + descsz]
    o += (descsz + 3) & ~3
    assert name == b"FDO\0" and ntype == 0x407c0c0a, (name, hex(ntype))
    assert desc.endswith(b"\0") and b"\0" not in desc[:-1], desc
    for entry in json.loads(desc[:-1].decode()):
        assert entry["feature"] and entry["description"], entry
        for soname in entry["soname"]:
            print(soname, entry["priority"])
PY
)
# The linker may order the notes differently (it does under ASan).
OUT=$(sort <<<"$OUT")
expect_out "$(printf '%s\n' "$libs" | awk '{ print $1, $3 }' | sort)" \
	"each note's JSON names its soname and priority as dl-libs.h does"

# README: the runtime dependencies name every package.
readme=$(sed -n '/^### Runtime dependencies/,/^##/p' "$SOURCE_ROOT/README.md")
missing=
for pkg in $(printf '%s\n' "$libs" | awk '{ print $2 }'); do
	case "$readme" in *"\`$pkg\`"*) ;; *) missing="$missing $pkg" ;; esac
done
if [ -z "$missing" ]; then ok "README's runtime dependencies name every package"; else not_ok "README's runtime dependencies name every package" "missing:$missing"; fi

# without SONAME CMD...: run the binary with SONAME hidden; sets OUT ERR RC.
LIBDIR=$(dirname "$(ldconfig -p | awk '/libc\.so\.6 .*x86-64|libc\.so\.6 \(libc6,/ { print $NF; exit }')")
without() {
	local soname=$1
	shift
	rm -rf "$TMP/ov" && mkdir -p "$TMP/ov/up" "$TMP/ov/work"
	mknod "$TMP/ov/up/$soname" c 0 0
	unshare -m sh -c 'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/up,workdir=$2/work" "$1" &&
		shift 2 && exec "$@"' sh "$LIBDIR" "$TMP/ov" "$NUMASTATCTL" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	OUT=$(<"$TMP/out")
	ERR=$(<"$TMP/err")
}
if ! have unshare util-linux; then
	done_testing
	exit
fi
if [ "$(id -u)" != 0 ] || [ ! -d "$LIBDIR" ] ||
	! unshare -m sh -c "mount -t tmpfs none '$TMP'" 2>/dev/null; then
	ok "# SKIP hiding a library needs root and mount namespaces"
	done_testing
	exit
fi
fixture sparse3
without libsmartcols.so.1 --sysroot "$ROOT" --state-dir "$STATE" knobs
expect_rc 1 "knobs without libsmartcols exits 1"
expect_err "numastatctl: knobs: cannot print the table: libsmartcols.so.1 is missing: install the Debian package libsmartcols1 (needed for tables, JSON output and counter snapshots; works without it: get, set and apply without a snapshot, stat --compat and stat --prometheus)" \
	"saying which package to install and what works without it, in one line"
without libsmartcols.so.1 --sysroot "$ROOT" --state-dir "$STATE" set vm.numa_stat=0
expect_rc 1 "set vm.numa_stat=0 without libsmartcols cannot save the counters: exits 1"
expect_err_has "install the Debian package libsmartcols1" "and names the package"
expect_one_err_line "in one line"
check "nothing was written" test "$(cat "$ROOT/proc/sys/vm/numa_stat")" = 1
without libsmartcols.so.1 --sysroot "$ROOT" --state-dir "$STATE" get vm.numa_stat
expect_out "vm.numa_stat = 1" "get works without libsmartcols, as the message says"
without libsmartcols.so.1 --sysroot "$ROOT" --state-dir "$STATE" stat --compat
expect_rc 0 "stat --compat works without libsmartcols"
without libsmartcols.so.1 --sysroot "$ROOT" --state-dir "$STATE" stat --prometheus
expect_rc 0 "stat --prometheus works without libsmartcols"
without libsmartcols.so.1 --sysroot "$ROOT" --state-dir "$STATE" set --no-snapshot vm.min_slab_ratio=9
expect_out "vm.min_slab_ratio: 37 -> 9" "set works without libsmartcols when no snapshot is needed"

# libnuma: selftest and bench refuse before touching anything.
without libnuma.so.1 selftest
expect_rc 1 "selftest without libnuma exits 1"
expect_err "numastatctl: selftest: libnuma.so.1 is missing: install the Debian package libnuma1 (needed for selftest and bench placing memory and threads on nodes; works without it: every command but selftest and bench)" \
	"naming libnuma1 and what works without it"
# libmnl: interval mode samples on, without hotplug notices (live, read-only).
if [ -d /sys/devices/system/node/node0 ]; then
	without libmnl.so.0 stat 0.01 1 -o NODE
	expect_rc 0 "stat INTERVAL without libmnl still samples"
	expect_err "numastatctl: stat: warning: node hotplug will go unnoticed: libmnl.so.0 is missing: install the Debian package libmnl0 (needed for stat INTERVAL noticing node hotplug; works without it: stat INTERVAL samples on without hotplug notices)" \
		"and says which package would add hotplug notices"
else
	ok "# SKIP this kernel has no NUMA node directories for a live stat"
fi
done_testing
