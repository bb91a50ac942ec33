#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The binary as it ships keeps its hardening while start-up gets cheaper
# (bench/README.md): a PIE, full RELRO (every imported function's GOT slot
# bound at start and read-only after it), a stack that does not execute,
# no text relocations, the stack protector, _FORTIFY_SOURCE's checked
# functions, and libc alone in NEEDED (the other libraries are dlopen()ed
# by the commands that need them, src/shared/dl.h).
. "$(dirname "$0")/lib.sh"
: "${BUILD_ROOT:?run through meson test}"

need readelf binutils

# option NAME: a build option's value, as meson recorded it.
option() {
	/usr/bin/python3 - "$BUILD_ROOT/meson-info/intro-buildoptions.json" "$1" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1])):
    if o["name"] == sys.argv[2]:
        v = o["value"]
        print(str(v).lower() if isinstance(v, bool) else v)
PY
}
bind_now=$(option bind_now)
optimization=$(option optimization)
sanitize=${SANITIZE:-none}

readelf -hW "$NUMASTATCTL" >"$TMP/h"
readelf -lW "$NUMASTATCTL" >"$TMP/l"
readelf -dW "$NUMASTATCTL" >"$TMP/d"
readelf -rW "$NUMASTATCTL" >"$TMP/r"
readelf --dyn-syms -W "$NUMASTATCTL" >"$TMP/s"

check "an ELF shared object (ET_DYN)" grep -qE '^ *Type: +DYN' "$TMP/h"
check "flagged PIE (DF_1_PIE)" grep -qE '\(FLAGS_1\) .*\bPIE\b' "$TMP/d"
check "a PT_GNU_RELRO segment" grep -qE '^ *GNU_RELRO ' "$TMP/l"
check "a non-executable stack (PT_GNU_STACK RW)" grep -qE '^ *GNU_STACK .* RW +0x' "$TMP/l"
if grep -qE '\(TEXTREL\)|\bTEXTREL\b' "$TMP/d"; then
	not_ok "no text relocations" "$(grep TEXTREL "$TMP/d")"
else
	ok "no text relocations"
fi

if [ "$bind_now" = false ]; then
	ok "# SKIP full RELRO: built with -Dbind_now=false (partial RELRO)"
else
	check "BIND_NOW (DT_FLAGS)" grep -qE '\(FLAGS\) .*\bBIND_NOW\b' "$TMP/d"
	check "NOW (DF_1_NOW)" grep -qE '\(FLAGS_1\) .*\bNOW\b' "$TMP/d"
	# Every slot the loader writes for a symbol (functions and data) lies in
	# the range PT_GNU_RELRO makes read-only once relocation is done.
	OUT=$(/usr/bin/python3 - "$TMP/l" "$TMP/r" <<'PY'
import re, sys
relro = None
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "GNU_RELRO":
        relro = (int(f[2], 16), int(f[2], 16) + int(f[5], 16))
if relro is None:
    sys.exit("no GNU_RELRO")
n, outside = 0, []
for line in open(sys.argv[2]):
    m = re.match(r"^([0-9a-f]+) +[0-9a-f]+ +(R_X86_64_JUMP_SLOT|R_X86_64_GLOB_DAT|R_AARCH64_JUMP_SLOT|R_AARCH64_GLOB_DAT) +\S+ +(\S+)", line)
    if not m:
        continue
    n += 1
    off = int(m.group(1), 16)
    if not relro[0] <= off < relro[1]:
        outside.append(f"{m.group(3)} ({m.group(2)}) at {off:#x}")
if outside:
    print(f"{len(outside)} of {n} slots outside GNU_RELRO {relro[0]:#x}-{relro[1]:#x}, such as:")
    print("\n".join(outside[:5]))
else:
    print(f"{n} slots")
PY
	)
	if [[ $OUT =~ ^[0-9]+\ slots$ ]] && [ "${OUT% slots}" -gt 0 ]; then
		ok "every imported symbol's GOT slot is in GNU_RELRO ($OUT)"
	else
		not_ok "every imported symbol's GOT slot is in GNU_RELRO" "$OUT"
	fi
fi

check "the stack protector (imports __stack_chk_fail)" grep -qE ' UND __stack_chk_fail\b' "$TMP/s"
case "$sanitize:$optimization" in
none:[123s])
	# The checked variants FORTIFY_SOURCE calls where a buffer's size is known.
	n=$(grep -cE ' UND __(snprintf|memcpy|read|fprintf|vsnprintf)_chk\b' "$TMP/s")
	if [ "$n" -ge 3 ]; then
		ok "_FORTIFY_SOURCE: $n checked libc functions imported"
	else
		not_ok "_FORTIFY_SOURCE: checked libc functions imported" "found $n" "$(grep _chk "$TMP/s")"
	fi
	needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$TMP/d")
	if [ "$needed" = libc.so.6 ]; then
		ok "libc.so.6 alone in NEEDED"
	else
		not_ok "libc.so.6 alone in NEEDED" "NEEDED:" "$needed"
	fi
	;;
*)
	ok "# SKIP _FORTIFY_SOURCE and NEEDED: built with -Db_sanitize=$sanitize -Doptimization=$optimization"
	;;
esac

done_testing
