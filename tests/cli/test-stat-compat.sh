#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --compat against numastat's real outputs (recorded by
# tests/fixtures/stat-compat/record.sh).  numastat 2.0.16 also prints
# "Token X not in hash table." on stdout for meminfo keys it does not know;
# --compat leaves those lines out on purpose, so they are filtered here.
. "$(dirname "$0")/lib.sh"

REC=$FIXTURES/stat-compat
unset NUMASTAT_WIDTH

# compare RECORDED DESC ARGS...: stat ARGS on $ROOT prints the recorded bytes.
compare() {
	local rec=$1 desc=$2
	shift 2
	run stat "$@"
	if [ "$RC" = 0 ] && cmp -s "$TMP/out" <(grep -v '^Token ' "$REC/$rec"); then
		ok "$desc"
	else
		not_ok "$desc" "exit $RC" "$(diff "$TMP/out" <(grep -v '^Token ' "$REC/$rec") | head -5)"
	fi
}

"$FIXTURES/gen-nodes.sh" "$TMP/many33" 33 sparse
for tree in sparse3 many33; do
	if [ $tree = sparse3 ]; then fixture sparse3; else ROOT=$TMP/many33; fi
	compare $tree.plain "$tree: --compat is numastat with no argument, byte for byte" --compat
	compare $tree.n "$tree: --compat=n is numastat -n" --compat=n
	compare $tree.m "$tree: --compat=m is numastat -m" --compat=m
	compare $tree.m "$tree: -m --compat is numastat -m too" -m --compat
	compare $tree.mncz "$tree: --compat=mncz is numastat -m -n -c -z" --compat=mncz
	compare $tree.mncz "$tree: -m -z --compact --compat=n is the same" -m -z --compact --compat=n
	compare $tree.ncz.w120 "$tree: -w 120 folds like NUMASTAT_WIDTH=120 numastat -n -c -z" \
		-w 120 --compat=ncz
	compare $tree.m.w200 "$tree: -w 200 --compat=m folds like numastat -m at 200" -w 200 --compat=m
	compare $tree.n.s.w80 "$tree: --sort total is numastat -n -s" -w 80 --sort total --compat=n
done

ROOT=$TMP/many33
NUMASTAT_WIDTH=120 run stat --compat
if cmp -s "$TMP/out" "$REC/many33.plain.w120"; then
	ok "NUMASTAT_WIDTH is honoured as numastat does"
else
	not_ok "NUMASTAT_WIDTH is honoured as numastat does" "$(diff "$TMP/out" "$REC/many33.plain.w120" | head -5)"
fi
check "the plain shape folds into sections at 120 columns" [ "$(grep -c '^numa_hit' "$TMP/out")" = 6 ]

fixture sparse3
run stat --compat --nodes 0,5
expect_out "                           node0           node5
numa_hit                 7300011          410003
numa_miss                    120               0
numa_foreign                3300               0
interleave_hit              2211               0
local_node               7290000               0
other_node                 10131          410003" "--nodes narrows the compat table"

LD_DEBUG=files "$NUMASTATCTL" --sysroot "$ROOT" stat --compat >/dev/null 2>"$TMP/lddebug"
check "--compat does not load libsmartcols" [ "$(grep -c 'file=libsmartcols' "$TMP/lddebug")" = 0 ]
LD_DEBUG=files "$NUMASTATCTL" --sysroot "$ROOT" stat >/dev/null 2>"$TMP/lddebug"
check "(while the table does: the check above can fail)" grep -q 'file=libsmartcols' "$TMP/lddebug"

run stat --compat=q
expect_rc 2 "an unknown numastat letter exits 2"
expect_err_has "--compat=q: 'q' is not a numastat option here (c, m, n, z; -p is --pid)" "naming it"
# Text formats other tools read have no JSON form: each is refused alike.
for opt in --compat --prometheus "--textfile $TMP"; do
	# shellcheck disable=SC2086
	run stat $opt -J
	expect_rc 2 "stat $opt -J exits 2"
	expect_out "" "stat $opt -J prints nothing on stdout"
	expect_err_has "numastatctl: stat: ${opt%% *} has no JSON form: it " "stat $opt -J says why, in the same words"
	expect_err_has "('stat -J' gives the counters)" "and where the JSON is"
done
check "--textfile -J wrote no file" test ! -e "$TMP/numastatctl.prom"
run stat --compat=n --sort nine
expect_rc 2 "--compat --sort takes a node id or total"

fixture stat-broken
run stat --compat
expect_rc 1 "a broken node file exits 1 in compat mode too"
expect_out "                           node0           node5
numa_hit                 7300011          410003
numa_miss                    120               0
numa_foreign                3300               0
interleave_hit              2211               0
local_node               7290000               0
other_node                 10131          410003" "but the other nodes are printed (numastat prints nothing)"
expect_err "numastatctl: stat: /sys/devices/system/node/node2/numastat: line 2: value is not a decimal number" \
	"naming the bad file"

done_testing
