# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# TAP helpers for the CLI tests.  Each case copies a fixture tree into a fresh
# temporary directory, runs the built binary with --sysroot on it, and checks
# stdout, stderr, the exit code and the files the run left behind.

set -u
: "${NUMASTATCTL:?run through meson test}"
: "${FIXTURES:?run through meson test}"
# apply run by a systemd unit (INVOCATION_ID) words itself for the journal;
# the tests run as from a terminal, whatever runs them.
unset INVOCATION_ID

TAP_N=0
TAP_FAILED=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/numastatctl-test.XXXXXX")
# Every path below is "$TMP/..."; an empty TMP would put trees under /.
[ -n "$TMP" ] && [ -d "$TMP" ] || { echo "Bail out! cannot create a temporary directory"; exit 1; }
AT_EXIT=() BG_PID=
# at_exit CMD: run CMD when the script ends, however it ends; the last
# registered runs first (stop a background run before restoring what it flips).
at_exit() {
	AT_EXIT=("$1" "${AT_EXIT[@]}")
}
on_exit() {
	local cmd
	# A background run stops before anything it might touch is restored.
	[ -n "$BG_PID" ] && kill -TERM "$BG_PID" 2>/dev/null
	for cmd in "${AT_EXIT[@]}"; do eval "$cmd"; done
	# chattr -i first: tests make files immutable to make writes fail.
	chattr -R -i "$TMP" 2>/dev/null
	rm -rf "$TMP"
}
trap on_exit EXIT

# A script that touches the live kernel (its name says `live`) holds a
# host-wide lock: meson runs them one at a time, but two checkouts or two
# meson runs on one host would otherwise flip the same knobs at once.
# /run/lock comes from systemd-tmpfiles; a bare /run (a chroot's tmpfs)
# lacks it, so it is made here.
LIVE_LOCK=/run/lock/numastatctl-live-tests.lock
case "$(basename "$0")" in
*live*)
	{ mkdir -p "${LIVE_LOCK%/*}" && exec 9>>"$LIVE_LOCK"; } 2>/dev/null ||
		{ echo "Bail out! cannot open $LIVE_LOCK"; exit 1; }
	flock -w 900 9 || { echo "Bail out! another run's live tests held $LIVE_LOCK for 15 minutes"; exit 1; }
	;;
esac
# python3: Debian's, the one .ci/packages installs.  A version manager's
# shim first on PATH (pyenv's is a shell script that runs a dozen more)
# would cost half a second a call, and its Python may lack Debian's modules.
if [ -x /usr/bin/python3 ]; then
	python3() { /usr/bin/python3 "$@"; }
fi
OUT= ERR= RC=
ROOT= STATE=

# fixture NAME: fresh copy of tests/fixtures/NAME in $ROOT, empty $STATE.
# Forks cost milliseconds each here and a script makes hundreds of roots,
# so the tree is cleaned of .gitkeep once per script ($TMP/fixtures/NAME)
# and each root is then one cp.
FIXTURE_N=0
fixture() {
	local clean=$TMP/fixtures/$1
	if [ ! -d "$clean" ]; then
		mkdir -p "$TMP/fixtures" && cp -a "$FIXTURES/$1" "$clean" &&
			find "$clean" -name .gitkeep -delete ||
			{ echo "Bail out! cannot copy fixture $1 under $TMP"; exit 1; }
	fi
	FIXTURE_N=$((FIXTURE_N + 1))
	ROOT=$TMP/root.$FIXTURE_N
	STATE="$ROOT.state"
	# Never go on without a fresh root: a copy into an existing directory
	# would nest, and an empty ROOT would copy the fixture over the live
	# /proc/sys as root ($TMP is checked above).
	[ ! -e "$ROOT" ] && cp -a "$clean" "$ROOT" ||
		{ echo "Bail out! cannot create a fixture root $ROOT"; exit 1; }
}

# gen_fixture GENERATOR ARGS...: a fresh $ROOT built by
# tests/fixtures/GENERATOR ARGS, empty $STATE.
gen_fixture() {
	local gen=$1
	shift
	FIXTURE_N=$((FIXTURE_N + 1))
	ROOT=$TMP/root.$FIXTURE_N
	STATE="$ROOT.state"
	"$FIXTURES/$gen" "$ROOT" "$@" || { echo "Bail out! $gen $* failed"; exit 1; }
}

# expect_json DESC PYTHON: PYTHON, run with the parsed stdout as `doc` and
# its first target (if it has targets) as `t`, prints nothing (it prints
# what is wrong); a Python error (a missing key) fails too.
expect_json() {
	local why
	why=$(python3 2>&1 -c '
import json, sys
try:
    doc = json.loads(sys.stdin.read())
except ValueError as e:
    print("not JSON:", e); sys.exit()
t = doc["targets"][0] if isinstance(doc, dict) and doc.get("targets") else {}
'"$2" <<<"$OUT") || why="python3 failed: $why"
	if [ -z "$why" ]; then ok "$1"; else not_ok "$1" "$why" "$OUT"; fi
}

# run ARGS...: the binary on $ROOT with $STATE; sets OUT, ERR, RC.
run() {
	run_raw --sysroot "$ROOT" --state-dir "$STATE" "$@"
}

# run_raw ARGS...: the binary with exactly these arguments.  .ci/valgrind
# sets NUMASTATCTL_WRAPPER to run it under memcheck (split into words).
run_raw() {
	# shellcheck disable=SC2086
	${NUMASTATCTL_WRAPPER:-} "$NUMASTATCTL" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	OUT=$(<"$TMP/out")
	ERR=$(<"$TMP/err")
	json_record "$@"
}

# json_record ARGS...: keep a -J run's arguments and output, which
# done_testing checks against the schema of its command (schemas/,
# tests/json-schema.py --runs).  Usage errors (exit 2) print no document.
JSON_RUNS=0
json_record() {
	local a
	[ "$RC" != 2 ] && [ -s "$TMP/out" ] || return 0
	for a in "$@"; do
		[ "$a" = -- ] && return 0
		case $a in
		-J | --json | -[a-zA-Z]*J*) ;;
		*) continue ;;
		esac
		[ "$a" != "${a#--}" ] && [ "$a" != --json ] && continue
		mkdir -p "$TMP/json-runs"
		printf '%s\0' "$@" >"$TMP/json-runs/$JSON_RUNS.argv"
		cp "$TMP/out" "$TMP/json-runs/$JSON_RUNS.out"
		JSON_RUNS=$((JSON_RUNS + 1))
		return 0
	done
}

# start_raw ARGS...: the binary in the background with exactly these
# arguments, output into $TMP/bg.out and $TMP/bg.err; start ARGS... does the
# same on $ROOT with $STATE.  Files are emptied here, not by the child's
# redirection, so a wait cannot see the previous run's output.
start_raw() {
	: >"$TMP/bg.out"
	: >"$TMP/bg.err"
	# shellcheck disable=SC2086
	${NUMASTATCTL_WRAPPER:-} "$NUMASTATCTL" "$@" >"$TMP/bg.out" 2>"$TMP/bg.err" </dev/null &
	BG_PID=$!
}

start() {
	start_raw --sysroot "$ROOT" --state-dir "$STATE" "$@"
}

# wait_for FILE TEXT / wait_for_re FILE REGEX: until FILE holds it (false if
# the background run ended without it); the bound only stops a hung run.
wait_grep() {
	local i
	for i in $(seq 1 1200); do
		grep -q "$1" -- "$3" "$2" && return 0
		kill -0 "$BG_PID" 2>/dev/null || break
		sleep 0.05
	done
	grep -q "$1" -- "$3" "$2"
}

wait_for() {
	wait_grep -F "$1" "$2"
}

wait_for_re() {
	wait_grep -E "$1" "$2"
}

# stop: Ctrl-C the background run and collect OUT, ERR, RC.
stop() {
	kill -INT "$BG_PID" 2>/dev/null
	wait "$BG_PID"
	RC=$?
	BG_PID=
	OUT=$(<"$TMP/bg.out")
	ERR=$(<"$TMP/bg.err")
}

# TAP reads stdout line by line: a line that is not TAP makes the whole
# script an error, whatever it says.  So descriptions are kept on one line
# and everything else a test prints goes through diag.

# diag TEXT...: each line of each argument as a TAP comment ("#   ...").
diag() {
	local arg
	for arg in "$@"; do
		# A carriage return ends a line for some readers too.
		printf '%s\n' "${arg//$'\r'/$'\n'}" | sed 's/^/#   /'
	done
}

# tap_line STATUS DESC: one result line; line breaks in DESC become "\n".
tap_line() {
	local desc=${2//$'\r'/\\r}
	printf '%s %d - %s\n' "$1" "$TAP_N" "${desc//$'\n'/\\n}"
}

ok() {
	TAP_N=$((TAP_N + 1))
	tap_line ok "$1"
}

# not_ok DESC [DIAG...]: a failed check, with diagnostics (diag).
not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	tap_line "not ok" "$1"
	shift
	diag "$@"
}

# check DESC CMD...: passes when CMD succeeds.
# What CMD prints never reaches TAP raw (compgen -G, a chatty python3):
# it is kept, and shown as diagnostics when the check fails.
check() {
	local desc=$1 said
	shift
	if said=$("$@" 2>&1); then ok "$desc"; else not_ok "$desc" "command failed: $*" "$said"; fi
}

expect_rc() {
	if [ "$RC" = "$1" ]; then ok "$2"; else not_ok "$2" "exit $RC, want $1" "stderr: $ERR"; fi
}

expect_out() {
	if [ "$OUT" = "$1" ]; then ok "$2"; else not_ok "$2" "stdout:" "$OUT" "want:" "$1"; fi
}

expect_err() {
	if [ "$ERR" = "$1" ]; then ok "$2"; else not_ok "$2" "stderr:" "$ERR" "want:" "$1"; fi
}

expect_out_has() {
	case "$OUT" in *"$1"*) ok "$2" ;; *) not_ok "$2" "stdout lacks: $1" "stdout:" "$OUT" ;; esac
}

expect_err_has() {
	case "$ERR" in *"$1"*) ok "$2" ;; *) not_ok "$2" "stderr lacks: $1" "stderr:" "$ERR" ;; esac
}

expect_out_lacks() {
	case "$OUT" in *"$1"*) not_ok "$2" "stdout has: $1" ;; *) ok "$2" ;; esac
}

# expect_file PATH CONTENT DESC: the file holds exactly CONTENT (plus newline).
expect_file() {
	local got="(cannot read $1)"
	[ -r "$1" ] && got=$(<"$1")
	if [ "$got" = "$2" ]; then ok "$3"; else not_ok "$3" "$1 holds: $got" "want: $2"; fi
}

# Golden files.  An output that lists a whole registry (every knob, every
# column) is kept in tests/expected/DIR/NAME.out (stdout) or .err (stderr),
# where DIR is the script's name without test-, so that adding a knob or a
# column regenerates files (scripts/regen-expected) and edits no test.
# tests/expected/cases defines each case once, for the tests and for that
# script: the fixture and the arguments, and a filter for what changes from
# run to run.
EXPECTED=$FIXTURES/../expected
declare -A GOLDEN_FIXTURE=() GOLDEN_ARGS=() GOLDEN_FILTER=() GOLDEN_RAN=()
GOLDEN_FILES=() GOLDEN_GOT=

# golden_case FILE FIXTURE [--filter FUNC] ARG...: the one verb of
# tests/expected/cases.
golden_case() {
	local file=$1 fixture=$2 filter=cat
	shift 2
	[ "${1:-}" = --filter ] && filter=$2 && shift 2
	case $file in */*.out | */*.err) ;; *) echo "Bail out! golden case $file: want DIR/NAME.out or .err"; exit 1 ;; esac
	GOLDEN_FILES+=("$file")
	GOLDEN_FIXTURE[$file]=$fixture
	GOLDEN_FILTER[$file]=$filter
	GOLDEN_ARGS[$file]=$(printf '%q ' "$@")
}

# golden_cases: read tests/expected/cases (once).
golden_cases() {
	[ ${#GOLDEN_FILES[@]} -gt 0 ] && return
	# shellcheck source=../expected/cases
	. "$EXPECTED/cases"
}

# help_commands: the commands "numastatctl --help" lists, one a line.
help_commands() {
	"$NUMASTATCTL" --help | sed -n '/^Commands/,/^$/{s/^ \([a-z][a-z-]*\) .*/\1/p}'
}

# help_columns ARGS...: the column names that "numastatctl ARGS... --help"
# lists under "Available output columns:", comma-separated.
help_columns() {
	"$NUMASTATCTL" "$@" --help | sed -n '/^Available output columns:/,/^$/{s/^ *\([^ ]*\)  .*/\1/p}' | paste -sd,
}

# golden_run FILE: a fresh copy of the case's fixture (ROOT stays on it, as
# after fixture), the binary run on it (OUT, ERR, RC) and, in GOLDEN_GOT,
# the output the case compares, through its filter.
golden_run() {
	local file=$1
	golden_cases
	[ -n "${GOLDEN_FIXTURE[$file]:-}" ] || { echo "Bail out! no golden case $file in tests/expected/cases"; exit 1; }
	# A fixture a generator builds: "gen-map.sh:cxl" is gen_fixture gen-map.sh cxl.
	case ${GOLDEN_FIXTURE[$file]} in
	gen-*:*) gen_fixture "${GOLDEN_FIXTURE[$file]%%:*}" "${GOLDEN_FIXTURE[$file]#*:}" ;;
	*) fixture "${GOLDEN_FIXTURE[$file]}" ;;
	esac
	eval "set -- ${GOLDEN_ARGS[$file]}"
	run "$@"
	case $file in
	*.out) GOLDEN_GOT=$(printf '%s\n' "$OUT" | "${GOLDEN_FILTER[$file]}") ;;
	*.err) GOLDEN_GOT=$(printf '%s\n' "$ERR" | "${GOLDEN_FILTER[$file]}") ;;
	esac
	GOLDEN_RAN[$file]=1
}

# golden_text TEXT: TEXT as a file holds it (a final newline unless empty).
golden_text() {
	[ -z "$1" ] || printf '%s\n' "$1"
}

# expect_golden FILE DESC: the output golden_run FILE kept equals
# tests/expected/FILE; a difference is shown as a unified diff.
expect_golden() {
	local want=$EXPECTED/$1
	if [ ! -f "$want" ]; then
		not_ok "$2" "tests/expected/$1 is missing: scripts/regen-expected writes it"
	elif [ "$GOLDEN_GOT" = "$(<"$want")" ]; then
		ok "$2"
	else
		not_ok "$2" "output differs from tests/expected/$1 (-want +got; scripts/regen-expected rewrites it):" \
			"$(diff -u "$want" <(golden_text "$GOLDEN_GOT") | tail -n +3)"
	fi
}

# golden_unused: the cases of this script's directory it never ran (a case
# that no check compares would pass forever).
golden_unused() {
	local dir file
	dir=$(basename "$0" .sh)
	dir=${dir#test-}
	[ -d "$EXPECTED/$dir" ] || return 0
	golden_cases
	for file in "${GOLDEN_FILES[@]}"; do
		[ "${file%%/*}" = "$dir" ] && [ -z "${GOLDEN_RAN[$file]:-}" ] && echo "$file"
	done
	return 0
}

# lines_of ARRAY TEXT: ARRAY = the lines of TEXT, as `grep -c ''` counts
# them (none for an empty TEXT; a last line without a newline counts),
# without a fork.  (Pattern substitutions are quadratic in bash: too slow
# for the 128 KiB arguments test-bad-args quotes.)
lines_of() {
	local -n lines_=$1
	lines_=()
	[ -n "$2" ] || return 0
	mapfile -t lines_ <<<"$2"
	# <<< adds a newline; a TEXT that had one gets an empty last line.
	[ "${2: -1}" != $'\n' ] || unset 'lines_[-1]'
}

# expect_one_line DESC: stderr is exactly one line.
expect_one_err_line() {
	local lines
	lines_of lines "$ERR"
	local n=${#lines[@]}
	if [ "$n" = 1 ]; then ok "$1"; else not_ok "$1" "stderr has $n lines:" "$ERR"; fi
}

# live_numa_stat: for tests that write the running kernel's vm.numa_stat.
# Skips the script unless root may write it; saves it in NUMA_STAT_ORIG and
# writes it back at exit, straight to /proc (not through the code under test).
NUMA_STAT=/proc/sys/vm/numa_stat
live_numa_stat() {
	[ "$(id -u)" = 0 ] || skip_all "needs root to write $NUMA_STAT"
	[ -w "$NUMA_STAT" ] || skip_all "$NUMA_STAT is not writable here (no CONFIG_NUMA or read-only /proc/sys)"
	NUMA_STAT_ORIG=$(cat "$NUMA_STAT")
	at_exit 'echo "$NUMA_STAT_ORIG" >"$NUMA_STAT"'
}

# Tools from packages.  `./quickstart test` installs every package
# .ci/packages-run and .ci/packages name, so in CI (CI set, not "false" or
# "0") such a tool missing is a failure: a skip would hide that a check
# never ran.  Elsewhere, and for packages both lists leave out on purpose,
# it skips with the reason.
PACKAGES=$FIXTURES/../../.ci/packages
PACKAGES_RUN=$FIXTURES/../../.ci/packages-run

# listed_packages: the packages of both lists, one a line.
listed_packages() {
	sed 's/#.*//; s/[[:space:]]//g' "$PACKAGES_RUN" "$PACKAGES" | grep .
}

# ci_requires PACKAGE: true in CI when a list names PACKAGE (or one cannot
# be read: in CI a check must not pass by skipping on a doubt).
ci_requires() {
	case "${CI:-}" in "" | false | 0) return 1 ;; esac
	[ -r "$PACKAGES" ] && [ -r "$PACKAGES_RUN" ] || return 0
	listed_packages | grep -qxF -- "$1"
}

# missing REASON PACKAGE: one check cannot run without PACKAGE: skipped, or
# failed where ci_requires it.
missing() {
	if ci_requires "$2"; then
		not_ok "$1" "CI installs $2 (.ci/packages), so this check must run"
	else
		ok "# SKIP $1"
	fi
}

# promtool_clean DESC FILE: `promtool check metrics` has no finding at all.
promtool_clean() {
	local out rc
	if ! command -v promtool >/dev/null; then
		missing "promtool is not installed (package prometheus): $1" prometheus
		return
	fi
	out=$(promtool check metrics <"$2" 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ -z "$out" ]; then ok "$1"; else not_ok "$1" "exit $rc" "$out"; fi
}

# missing_all REASON PACKAGE: the same for the whole script; ends it.
missing_all() {
	ci_requires "$2" || skip_all "$1"
	not_ok "$1" "CI installs $2 (.ci/packages), so this script must run"
	done_testing
	exit
}

# unsanitized WHAT: true unless the binary is built with a sanitizer (meson's
# b_sanitize, in SANITIZE); ASan reserves terabytes of shadow memory up
# front, so WHAT (an address-space limit) is skipped there.  .ci/test-all
# runs such a script on the product build only through the suite `limits`
# (TEST_SUITES), so a script outside it fails here instead of never
# running WHAT anywhere.
unsanitized() {
	case " ${TEST_SUITES:-limits} " in
	*" limits "*) ;;
	*)
		not_ok "$1: the script is in the suite limits" "add $(basename "$0" .sh) to limits_tests in tests/cli/meson.build"
		return 1
		;;
	esac
	case "${SANITIZE:-none}" in none | "") return 0 ;; esac
	ok "# SKIP $1: the binary is built with -Db_sanitize=$SANITIZE"
	return 1
}

# refusal_sweep: this script runs the binary hundreds of times on input it
# refuses (test-bad-args, test-confinement-names).  Under ASan, the exit
# scan of LeakSanitizer costs 50 ms a run here, more than the rest of ASan
# and the shell together, so the sweep leaves leaks to the other scripts,
# which take the same refusal paths a few times each with it on.
refusal_sweep() {
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

# have TOOL PACKAGE: true when TOOL is installed; reports missing if not.
have() {
	command -v "$1" >/dev/null && return 0
	missing "$1 is not installed (package $2)" "$2"
	return 1
}

# need TOOL PACKAGE: the whole script needs TOOL (missing_all without it).
need() {
	command -v "$1" >/dev/null || missing_all "$1 is not installed (package $2)" "$2"
}

# skip_all REASON: the whole script does not apply here.
skip_all() {
	local why=${1//$'\r'/ }
	echo "1..0 # SKIP ${why//$'\n'/ }"
	exit 0
}

done_testing() {
	local unused why
	unused=$(golden_unused)
	[ -z "$unused" ] || not_ok "every golden case of $(basename "$0") is compared" "never run:" "$unused"
	if [ "$JSON_RUNS" != 0 ] && [ -n "${SOURCE_ROOT:-}" ]; then
		if ! python3 -c 'import jsonschema' 2>/dev/null; then
			missing "the $JSON_RUNS -J outputs against their schemas: python3-jsonschema is not installed" python3-jsonschema
		elif why=$(python3 "$SOURCE_ROOT/tests/json-schema.py" "$SOURCE_ROOT/schemas" --runs "$TMP/json-runs" 2>&1); then
			ok "each of the $JSON_RUNS -J outputs of $(basename "$0") matches the schema of its command"
		else
			not_ok "each of the $JSON_RUNS -J outputs of $(basename "$0") matches the schema of its command" "$why"
		fi
	fi
	echo "1..$TAP_N"
	[ "$TAP_FAILED" = 0 ]
}
