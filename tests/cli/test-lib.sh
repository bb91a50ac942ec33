#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh itself: a failing check prints only TAP, however many lines its
# description or its diagnostics hold (a traceback, a command's whole
# output), so one failure is reported as that failure and not as "unknown
# TAP output" that hides the rest.
. "$(dirname "$0")/lib.sh"
LIB=$(dirname "$0")/lib.sh

# child SCRIPT: SCRIPT run after lib.sh in a shell of its own; sets OUT, RC.
child() {
	OUT=$(bash -c ". '$LIB'; $1" 2>"$TMP/child.err")
	RC=$?
	ERR=$(<"$TMP/child.err")
}

# expect_tap DESC: every line of OUT is a TAP line.
expect_tap() {
	local bad
	bad=$(grep -vE '^(ok [0-9]+ - |not ok [0-9]+ - |#|1\.\.[0-9]+( # SKIP .*)?$)' <<<"$OUT")
	if [ -z "$bad" ]; then ok "$1"; else not_ok "$1" "lines that are not TAP:" "$bad"; fi
}

child '
trace=$(printf "Traceback (most recent call last):\n  File \"<string>\", line 3\nValueError: x")
not_ok "stats: $trace" "stderr:" "$trace" "two$(printf "\r")lines" ""
OUT=$(printf "first\nsecond") expect_out "want" "a multi-line stdout"
ERR=$(printf "e1\ne2") expect_err_has "missing" "a multi-line stderr"
check "output of a passing command" printf "raw\\nlines\\n"
check "output of a failing command" sh -c "echo raw out; echo raw err >&2; exit 1"
ok "a passing check
with a line break"
diag "what a test prints itself,
on two lines"
done_testing'
expect_tap "multi-line descriptions and diagnostics stay TAP"
check "a failing script exits non-zero" test "$RC" != 0
check "the failures are counted" grep -qx '1\.\.6' <<<"$OUT"
check "a description stays on its line" \
	grep -qxF 'not ok 1 - stats: Traceback (most recent call last):\n  File "<string>", line 3\nValueError: x' <<<"$OUT"
check "each diagnostic line is kept as a comment" grep -qxF '#   ValueError: x' <<<"$OUT"
check "a carriage return starts a new diagnostic line" grep -qxF '#   lines' <<<"$OUT"
check "the checks' own diagnostics too" grep -qxF '#   second' <<<"$OUT"
check "and diag's" grep -qxF '#   on two lines' <<<"$OUT"
check "a command's output shows only when it fails" \
	test "$(grep -c '^#   raw \(out\|err\)$' <<<"$OUT")" = 2 -a "$(grep -cx 'raw\|lines' <<<"$OUT")" = 0
check "lib.sh prints nothing on stderr" test -z "$ERR"

child 'skip_all "no such tool
here"'
expect_tap "a multi-line skip reason stays TAP"
check "and skips the script" grep -qx '1\.\.0 # SKIP no such tool here' <<<"$OUT"
check "with exit 0" test "$RC" = 0

child 'ok "fine"; done_testing'
expect_tap "a passing script is TAP"
check "and exits 0" test "$RC" = 0

# A tool missing: a skip, except in CI for a package .ci/packages installs.
nothing=no-such-tool-$$
child "CI= have $nothing valgrind || echo '# have: false'; done_testing"
expect_tap "a missing tool outside CI is TAP"
check "and a skip" grep -qx "ok 1 - # SKIP $nothing is not installed (package valgrind)" <<<"$OUT"
check "that leaves the script passing" test "$RC" = 0
check "have answers false" grep -qx '# have: false' <<<"$OUT"
child "CI=true have $nothing valgrind; done_testing"
expect_tap "in CI, a package .ci/packages installs missing is TAP"
check "and a failure" grep -qx "not ok 1 - $nothing is not installed (package valgrind)" <<<"$OUT"
check "that fails the script" test "$RC" != 0
child "CI=true have $nothing meson; done_testing"
check "in CI, a package of .ci/packages-run missing is a failure too" \
	grep -qx "not ok 1 - $nothing is not installed (package meson)" <<<"$OUT"
child "CI=true have $nothing tuned; CI=false have $nothing valgrind; done_testing"
check "in CI, a package .ci/packages leaves out is still a skip" \
	grep -qx "ok 1 - # SKIP $nothing is not installed (package tuned)" <<<"$OUT"
check "and CI=false is not CI" grep -qx "ok 2 - # SKIP $nothing is not installed (package valgrind)" <<<"$OUT"
child "have bash bash && echo '# have: true'; done_testing"
check "an installed tool is no check at all" test "$OUT" = $'# have: true\n1..0'
child "CI= need $nothing valgrind; ok 'went on'; done_testing"
check "need skips the whole script" test "$OUT" = "1..0 # SKIP $nothing is not installed (package valgrind)"
child "CI=true need $nothing valgrind; ok 'went on'; done_testing"
expect_tap "need in CI is TAP"
check "and fails the whole script" test "$OUT" = $'not ok 1 - '"$nothing is not installed (package valgrind)"$'\n#   CI installs valgrind (.ci/packages), so this script must run\n1..1'
check "with a non-zero exit" test "$RC" != 0

# unsanitized: an address-space limit runs on a plain binary, skips under a
# sanitizer, and fails in a script outside the suite limits.
child "TEST_SUITES='cli limits' SANITIZE=none unsanitized 'a limit' && ok ran; done_testing"
check "unsanitized on a plain binary: the check runs" test "$OUT" = $'ok 1 - ran\n1..1'
child "TEST_SUITES='cli limits' SANITIZE=address,undefined unsanitized 'a limit' || echo '# no'; done_testing"
check "under a sanitizer: a skip that names it" \
	test "$OUT" = $'ok 1 - # SKIP a limit: the binary is built with -Db_sanitize=address,undefined\n# no\n1..1'
child "TEST_SUITES=cli SANITIZE=none unsanitized 'a limit' && ok ran; done_testing"
expect_tap "outside the suite limits: TAP"
check "and a failure that says where the script belongs" grep -qx 'not ok 1 - a limit: the script is in the suite limits' <<<"$OUT"
check "that fails the script" test "$RC" != 0

# A script named *live* holds the host-wide lock of live tests while it runs.
LOCK=$LIVE_LOCK
printf '. %q\nsleep 30\n' "$(cd "$(dirname "$LIB")" && pwd)/lib.sh" >"$TMP/x-live.sh"
# A group of its own: its sleep holds the lock too, and must end with it.
setsid bash "$TMP/x-live.sh" >"$TMP/x-live.out" 2>&1 &
live_pid=$!
held=
for _ in $(seq 100); do
	[ -e "$LOCK" ] && ! flock -n "$LOCK" true 2>/dev/null && { held=1; break; }
	sleep 0.1
done
check "a live script holds $LOCK while it runs" test -n "$held"
kill -- -"$live_pid" 2>/dev/null
wait "$live_pid" 2>/dev/null
check "and lets it go when it ends" flock -w 60 "$LOCK" true
# Without /run/lock (a chroot's bare /run): the directory is made.
if [ "$(id -u)" = 0 ] && have unshare util-linux; then
	printf '. %q\necho "# took the lock"\n' "$(cd "$(dirname "$LIB")" && pwd)/lib.sh" >"$TMP/y-live.sh"
	OUT=$(unshare -m sh -c 'mount -t tmpfs none /run && bash "$1" && test -e "$2" && echo "# lock file made"' \
		sh "$TMP/y-live.sh" "$LOCK" 2>&1)
	check "a live script on a /run without lock/ makes it and takes the lock" \
		test "$OUT" = $'# took the lock\n# lock file made'
else
	ok "# SKIP a live script on a bare /run: needs root for a mount namespace"
fi

# Golden files: a difference is a diff in the diagnostics, a missing file
# names the script that writes it, a case no check compares fails its script.
mkdir -p "$TMP/exp/demo"
cat >"$TMP/exp/cases" <<'CASES'
golden_case demo/names.out sparse3 knobs -N
golden_case demo/unused.err sparse3 get kernel.hostname
CASES
"$NUMASTATCTL" knobs -N | sed 's/^vm.numa_stat$/vm.numa_stats/' >"$TMP/exp/demo/names.out"
golden_child() {
	OUT=$(bash -c ". '$LIB'; EXPECTED='$TMP/exp'; $1" "$TMP/test-demo.sh" 2>"$TMP/child.err")
	RC=$?
	ERR=$(<"$TMP/child.err")
}
golden_child 'golden_run demo/names.out; expect_golden demo/names.out "names"; done_testing'
expect_tap "a golden file that differs is TAP"
check "and a failure" grep -qx 'not ok 1 - names' <<<"$OUT"
check "whose diagnostics show the diff, -want +got" \
	grep -qxF -e '#   -vm.numa_stats' <<<"$OUT"
check "line for line" grep -qxF -e '#   +vm.numa_stat' <<<"$OUT"
check "and name the script that rewrites it" grep -qF 'scripts/regen-expected rewrites it' <<<"$OUT"
check "a case the script never compares fails it" \
	grep -qx 'not ok 2 - every golden case of test-demo.sh is compared' <<<"$OUT"
check "naming the case" grep -qx '#   demo/unused.err' <<<"$OUT"
"$NUMASTATCTL" knobs -N >"$TMP/exp/demo/names.out"
golden_child 'golden_run demo/names.out; expect_golden demo/names.out "names"
golden_run demo/unused.err; expect_rc 2 "refused"; expect_golden demo/unused.err "said"; done_testing'
check "the same output passes; a missing file fails" \
	test "$(grep -E '^(not )?ok' <<<"$OUT")" = $'ok 1 - names\nok 2 - refused\nnot ok 3 - said'
check "naming the script that writes it" grep -qxF '#   tests/expected/demo/unused.err is missing: scripts/regen-expected writes it' <<<"$OUT"
golden_child 'golden_run demo/nosuch.out'
check "an unknown case bails out" test "$OUT" = "Bail out! no golden case demo/nosuch.out in tests/expected/cases"

# The golden files of the tree: each one a case, each case's directory a
# test script, and scripts/regen-expected (on a copy) rewrites none of them.
golden_cases
unnamed=$(cd "$EXPECTED" && find . -mindepth 2 -type f | sed 's|^\./||' | sort |
	comm -23 - <(printf '%s\n' "${GOLDEN_FILES[@]}" | sort))
if [ -z "$unnamed" ]; then ok "every file under tests/expected/ is a case of tests/expected/cases"; else
	not_ok "every file under tests/expected/ is a case of tests/expected/cases" "no case names:" "$unnamed"; fi
orphans=$(for f in "${GOLDEN_FILES[@]}"; do [ -f "$(dirname "$0")/test-${f%%/*}.sh" ] || echo "$f"; done)
if [ -z "$orphans" ]; then ok "every case belongs to a test script"; else
	not_ok "every case belongs to a test script" "no tests/cli/test-DIR.sh for:" "$orphans"; fi
mkdir -p "$TMP/tree/tests"
cp -a "$SOURCE_ROOT/scripts" "$TMP/tree/"
cp -a "$SOURCE_ROOT/tests/cli" "$SOURCE_ROOT/tests/expected" "$SOURCE_ROOT/tests/fixtures" "$TMP/tree/tests/"
echo stale >"$TMP/tree/tests/expected/${GOLDEN_FILES[0]}"
echo old >"$TMP/tree/tests/expected/${GOLDEN_FILES[0]%%/*}/gone.out"
check "scripts/regen-expected runs on the build" "$TMP/tree/scripts/regen-expected" "$BUILD_ROOT"
check "rewriting a stale file, removing one no case names: the copy's golden files are the tree's" \
	diff -r "$SOURCE_ROOT/tests/expected" "$TMP/tree/tests/expected"
"$TMP/tree/scripts/regen-expected" "$BUILD_ROOT" >"$TMP/regen.out" 2>&1
check "a run with nothing to change says so for every case" \
	test "$(grep -c ': unchanged (exit [0-9]*)$' "$TMP/regen.out")" = "${#GOLDEN_FILES[@]}"
check "a directory that is no build is refused" sh -c "! '$TMP/tree/scripts/regen-expected' '$TMP' 2>/dev/null"

# The packages the tests name for their tools: each one is in .ci/packages,
# so CI runs every check (none is left out of .ci/packages on purpose yet).
here=$(dirname "$0")
# (continued lines joined first: a call may follow a "\" or a "||").
named=$(cat "$here"/test-*.sh "$here"/../vm/*.sh "$here"/../boot/*.sh |
	sed -e ':a' -e '/\(\\\|||\)$/{N; s/\\\?\n[[:space:]]*/ /; ba' -e '}' |
	grep -E '^\s*((el)?if (! )?)?(have|need|missing|missing_all) |\|\| (missing_all|need) ' |
	grep -oE '(have|need) [^ ;]+ [^ ;]+|missing(_all)? "[^"]*" +[^ ;]+' | awk '{ print $NF }' | sort -u)
unlisted=$(comm -23 <(echo "$named") <(listed_packages | sort -u))
check "the tests name packages ($(echo $named))" test -n "$named"
if [ -z "$unlisted" ]; then ok "each of them is in .ci/packages or .ci/packages-run"; else
	not_ok "each of them is in .ci/packages or .ci/packages-run" "not there:" "$unlisted"; fi
# Run mode installs only what building and running need: nothing that only
# the tests use, and no package twice.
twice=$(listed_packages | sort | uniq -d)
check "no package is in both lists" test -z "$twice"
for p in qemu-system-x86 linux-image-amd64 prometheus prometheus-node-exporter valgrind; do
	check "$p is a test package, not a run package" \
		sh -c "! sed 's/#.*//; s/[[:space:]]//g' '$PACKAGES_RUN' | grep -qxF '$p'"
done

done_testing
