#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --migration-reasons: the kernel's count of migrations by reason, from
# a histogram trigger in a trace instance of our own, on fixture trees of
# tracefs (tests/fixtures/tracefs: a format file with a reason no kernel
# has yet; tracefs-instance: what tracefs puts in a new instance).  The
# preload tests/fault/tracefs.c gives the fixture's instances directory
# tracefs's mkdir and rmdir.  The fixture also has DAMON's sysfs tree (two
# kdamonds: migrate_cold and pageout schemes, a stopped one's migrate_hot)
# and DAMON_STAT enabled, its kdamond a thread in proc/.  Also the fallbacks, and the cleanup on every
# way out: Ctrl-C, SIGTERM, a failed read, and a killed run's leftover.
. "$(dirname "$0")/lib.sh"

PRELOAD="${BUILD_ROOT:?run through meson test}/tests/fault/tracefs.so"
[ -f "$PRELOAD" ] || skip_all "the tracefs preload was not built"
if ldd "$NUMASTATCTL" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fi
TEMPLATE=$FIXTURES/tracefs-instance
TR=sys/kernel/tracing
EV=events/migrate/mm_migrate_pages
DAMON=sys/kernel/mm/damon/admin/kdamonds
FLOG=$TMP/tracefs.log

# tracefs_fixture: effect-6.1 (the counters) with tracefs.
tracefs_fixture() {
	fixture effect-6.1
	cp -R "$FIXTURES/tracefs/." "$ROOT/"
	find "$ROOT" -name .gitkeep -delete
	: >"$FLOG"
}

# rewrite FILE SED: change a file in place, as the kernel's file changes
# under a reader that keeps it open (sed -i would make a new file).
rewrite() {
	sed -E "$2" "$1" >"$TMP/rewrite.new"
	dd if="$TMP/rewrite.new" of="$1" conv=notrunc status=none
}

# frun/fstart ARGS...: run/start with the preload.
frun() {
	FAKE_TRACEFS=$TEMPLATE FAKE_TRACEFS_LOG=$FLOG LD_PRELOAD=$PRELOAD run "$@"
}
fstart() {
	FAKE_TRACEFS=$TEMPLATE FAKE_TRACEFS_LOG=$FLOG LD_PRELOAD=$PRELOAD start "$@"
}

# totals_have LINE: the totals after a stopped run hold LINE.
totals_have() {
	sed -n '/^total since/,$p' <<<"$OUT" | grep -qxF "$1"
}

instance() {
	compgen -G "$ROOT/$TR/instances/numastatctl-*"
}

# Fallbacks: the split by counters, one line why, exit as --migration does.
fixture effect-6.1
run stat --migration-reasons 0.05 1
expect_rc 0 "no tracefs: exit 0, as stat --migration"
expect_err "numastatctl: stat: warning: --migration-reasons: tracefs is not mounted at /sys/kernel/tracing: the split by counters (--migration) instead" \
	"no tracefs: one line says why"
expect_out_has "NODE MIGRATED BALANCING PROMOTED" "and the split by counters follows"

run stat --migration-reasons
expect_rc 0 "one-shot: exit 0"
expect_err_has "one-shot: reasons are counted over an INTERVAL: the split by counters" \
	"one-shot: no window to count in, said"

tracefs_fixture
rm "$ROOT/$TR/$EV/hist"
frun stat --migration-reasons 0.05 1
expect_rc 0 "no hist file: exit 0"
expect_err_has "this kernel has no histogram triggers (CONFIG_HIST_TRIGGERS)" \
	"a kernel without histogram triggers, said"
check "nothing was made" test -z "$(instance)"

tracefs_fixture
chmod 0500 "$ROOT/$TR/instances"
if [ "$(id -u)" != 0 ]; then
	frun stat --migration-reasons 0.05 1
	expect_err_has "cannot make a trace instance: permission denied (root only)" \
		"not allowed to make an instance: said"
	expect_rc 0 "and exit 0 with the split"
else
	ok "not allowed to make an instance # SKIP root makes it anyway"
	ok "and exit 0 with the split # SKIP root"
fi
chmod 0755 "$ROOT/$TR/instances"

# The ledger: armed in an instance named by our PID, a row per reason of
# the format file (future_cause too), the counter and the difference.
tracefs_fixture
fstart stat --migration-reasons -r --totals 0.3
check "the instance is made" wait_for "$FLOG" "made numastatctl-$BG_PID"
check "the first sample" wait_for "$TMP/bg.out" "sample 1 at"
INST=$(instance)
expect_file "$INST/$EV/trigger" "hist:keys=reason:vals=succeeded,failed
hist:keys=reason:vals=thp_succeeded,thp_failed
hist:keys=reason:vals=thp_split" "three triggers keyed by reason, two count fields each (the kernel's limit)"
rewrite "$INST/$EV/hist" 's/succeeded:       1024  failed:          3/succeeded:       1124  failed:          5/;
	s/hitcount:          2/hitcount:          3/;
	s/\{ reason:         10 \} hitcount:          4  succeeded:         40/{ reason:         10 } hitcount:          5  succeeded:         48/'
rewrite "$ROOT/proc/vmstat" 's/^pgmigrate_success [0-9]+$/pgmigrate_success 6513/'
# DAMON: kdamond 0's migrate_cold scheme applied 100 pages more.
echo 417792 >"$ROOT/$DAMON/0/contexts/0/schemes/0/stats/sz_applied"
check "syscall_or_cpuset: 100 pages, 2 failed, 1 call" wait_for "$TMP/bg.out" "syscall_or_cpuset 100 2 0 1"
check "a reason only the format file names (future_cause): 8 pages" wait_for "$TMP/bg.out" "future_cause 8 0 0 1"
check "pgmigrate_success's change over the same window" wait_for "$TMP/bg.out" "pgmigrate_success 109 - - -"
check "DAMON: each scheme that migrates, with the pages it applied in the window" \
	wait_for "$TMP/bg.out" "0 0 0 paddr migrate_cold 1 100"
check "a stopped kdamond's migrate_hot scheme too, with nothing applied" \
	wait_for "$TMP/bg.out" "1 0 0 vaddr migrate_hot 0 0"
stop
expect_out_lacks "pageout" "a scheme that moves no pages is left out"
expect_out_has "DAMON_STAT runs: kdamond PID 77, 1.50 s of CPU since it started; it monitors, it moves no pages" \
	"DAMON_STAT's kdamond named, with its CPU time"
check "the totals: pgmigrate_success's change over the run" totals_have "pgmigrate_success 109 - - -"
check "the totals: 108 pages by reason, the difference (1) a row of its own" totals_have "difference 1 - - -"
check "Ctrl-C ends it as an interrupted command" test "$RC" = 130
check "Ctrl-C: the triggers were taken out, the first last, before the instance" \
	grep -qxF "trigger !hist:keys=reason:vals=succeeded,failed" "$FLOG"
check "Ctrl-C: the instance is removed" test -z "$(instance)"
check "the preload saw it made and removed" grep -qx "removed numastatctl-[0-9]*" "$FLOG"
expect_file "$ROOT/$TR/tracing_on" 1 "the global tracer's tracing_on untouched"
check "the global trace buffer untouched" test ! -s "$ROOT/$TR/trace"
check "the global event's trigger untouched" test ! -s "$ROOT/$TR/$EV/trigger"

# A reason the format lacks (a newer kernel's) is counted by its number.
tracefs_fixture
fstart stat --migration-reasons -r 0.3
check "armed" wait_for "$TMP/bg.out" "sample 1 at"
INST=$(instance)
# Into the first trigger's section only (GNU sed's 0,/re/: its first match).
rewrite "$INST/$EV/hist" '0,/^\{ reason:         10 \}.*$/s//&\n{ reason:         12 } hitcount:          1  succeeded:          9  failed:          0/'

check "reason 12, named by its number" wait_for "$TMP/bg.out" "reason_12 9 0 0 1"
kill -TERM "$BG_PID"
wait "$BG_PID"
RC=$?
BG_PID=
check "SIGTERM ends it by the signal" test "$RC" = 143
check "SIGTERM: the instance is removed" test -z "$(instance)"

# stat's own error: a hist file it cannot read ends the run, and cleans up.
tracefs_fixture
fstart stat --migration-reasons 0.3
check "armed" wait_for "$TMP/bg.out" "sample 1 at"
INST=$(instance)
rewrite "$INST/$EV/hist" 's/^\{ reason:          9 \} hitcount/{ pid:          9 } hitcount/'
check "the bad line is said" wait_for "$TMP/bg.err" "not a reason key"
stop
check "a failed read: the instance is removed all the same" test -z "$(instance)"

# JSON: one line per sample, the rows summing to pgmigrate_success but the difference.
tracefs_fixture
frun -J stat --migration-reasons 0.05 2 --totals
expect_rc 0 "-J with COUNT"
check "JSON: a reason row per format reason, the counter, the difference" python3 -c '
import json, sys
for line in sys.stdin.read().splitlines():
    d = json.loads(line)
    rows = d["reasons"]
    kinds = [r["kind"] for r in rows]
    assert kinds == ["reason"] * 11 + ["counter", "difference"], kinds
    assert rows[9]["reason"] == "damon" and rows[9]["id"] == 9
    s = sum(r["migrated"] for r in rows if r["kind"] == "reason")
    assert rows[11]["migrated"] - s == rows[12]["migrated"]
    assert rows[12]["id"] is None' <<<"$OUT"

# A killed run's instance: removed by the next run, which says so; one of a
# run that still goes on, and what is not ours, are left alone.
tracefs_fixture
cp -R "$TEMPLATE" "$ROOT/$TR/instances/numastatctl-4194302"
cp -R "$TEMPLATE" "$ROOT/$TR/instances/numastatctl-4242"
mkdir -p "$ROOT/proc/4242" "$ROOT/$TR/instances/numastatctl-x1" "$ROOT/$TR/instances/perf-1"
frun stat --migration-reasons 0.05 1
expect_rc 0 "a run after a killed one"
expect_err_has "/sys/kernel/tracing/instances/numastatctl-4194302: a trace instance a killed run left (its PID no longer runs): removed" \
	"the leftover is named and removed"
check "gone" test ! -e "$ROOT/$TR/instances/numastatctl-4194302"
check "a running PID's instance stays" test -d "$ROOT/$TR/instances/numastatctl-4242"
check "what is not ours stays" test -d "$ROOT/$TR/instances/numastatctl-x1" -a -d "$ROOT/$TR/instances/perf-1"
check "and the run's own is gone too" test "$(compgen -G "$ROOT/$TR/instances/*" | wc -l)" = 3

# A killed run's PID taken by a later process: the instance (made an hour
# ago by its mtime) is a leftover all the same; one whose process started
# before it was made may be its maker, and stays.  The process's name in
# /proc/PID/stat may hold ") " and spaces.
tracefs_fixture
echo "100000.00 90000.00" >"$ROOT/proc/uptime"
for pid in 4243 4245; do
	cp -R "$TEMPLATE" "$ROOT/$TR/instances/numastatctl-$pid"
	touch -d '-1 hour' "$ROOT/$TR/instances/numastatctl-$pid"
	mkdir -p "$ROOT/proc/$pid"
done
# Fields after the name: state, then 18 more up to starttime (clock ticks).
stat_line() {
	echo "$1 ($2) S 1 $1 $1 0 -1 4194560 10 0 0 0 1 1 0 0 20 0 1 0 $3 1000 100 0"
}
hz=$(getconf CLK_TCK)
stat_line 4243 "sh) 1 2 (x" $(((100000 - 60) * hz)) >"$ROOT/proc/4243/stat"
stat_line 4245 numastatctl $((5 * hz)) >"$ROOT/proc/4245/stat"
frun stat --migration-reasons 0.05 1
expect_rc 0 "a run after one whose PID was taken"
expect_err_has "/sys/kernel/tracing/instances/numastatctl-4243: a trace instance a killed run left (its PID now runs a process started after it): removed" \
	"a PID in use by a process started a minute ago, after the instance: a leftover, said"
check "gone" test ! -e "$ROOT/$TR/instances/numastatctl-4243"
check "a process that started before its instance may be its maker: it stays" \
	test -d "$ROOT/$TR/instances/numastatctl-4245"

# --textfile with an interval: the ledger since the run started, as
# counters, rewritten after each sample and removed when the run ends.
TF=$TMP/textfile
PF=$TF/numastatctl-migration-reasons.prom
SEEN=$TMP/seen.prom
mkdir -p "$TF"

# prom_series NAME LABELS: the value of one series in the file.
prom_series() {
	awk -v s="$1{$2}" '$1 == s { print $2 }' "$SEEN"
}

tracefs_fixture
frun stat --migration-reasons 0.05 1 --prometheus
expect_rc 2 "--prometheus with an interval: a usage error"
expect_err_has "numastatctl: stat: --migration-reasons: interval mode: --prometheus is one-shot; --textfile DIR keeps DIR/numastatctl-migration-reasons.prom up to date after each sample" \
	"one line names --textfile as the way"
check "nothing was made" test -z "$(instance)"
frun stat --migration 0.05 1 --textfile "$TF"
expect_rc 2 "another view's interval mode still refuses --textfile"
frun stat --migration-reasons 0.05 1 --textfile "$PF"
expect_rc 2 "--textfile naming a file, not a directory: refused"

# A killed run's file holds what no run exports now: the next run replaces it.
fstart stat --migration-reasons 0.3 --textfile "$TF"
check "a run to kill" wait_for "$TMP/bg.out" "sample 1 at"
kill -KILL "$BG_PID"
wait "$BG_PID" 2>/dev/null
BG_PID=
killed=$(sed -n 's/^numastatctl_migration_reasons_start_time_seconds //p' "$PF")
check "SIGKILL leaves the file" test -n "$killed"
echo 'numastatctl_migration_reason_pages_total{reason="stale",id="99"} 5' >>"$PF"
fstart stat --migration-reasons -r --totals 0.3 --textfile "$TF"
check "the first sample" wait_for "$TMP/bg.out" "sample 1 at"
cp "$PF" "$SEEN"
check "the file is there from the first sample, the killed run's replaced" \
	test -z "$(grep stale "$SEEN")" -a "$(sed -n 's/^numastatctl_migration_reasons_start_time_seconds //p' "$SEEN")" != "$killed"
check "the killed run's instance is removed by this one" grep -q "a trace instance a killed run left" "$TMP/bg.err"
check "every reason of the format file has its series, at 0" test "$(
	grep -c '^numastatctl_migration_reason_pages_total{.*} 0$' "$SEEN")" = 11
check "future_cause, the reason only the format file names, too" \
	test "$(prom_series numastatctl_migration_reason_pages_total 'reason="future_cause",id="10"')" = 0
check "the calls, failures and huge pages: a family each, at 0" test "$(
	grep -c '^numastatctl_migration_reason_\(failed_pages\|thp\|thp_failed\|thp_split\|calls\)_total{.*} 0$' "$SEEN")" = 55
check "pgmigrate_success's change: 0 at the start" \
	grep -qx 'numastatctl_migration_reasons_pgmigrate_success_pages_total 0' "$SEEN"
promtool_clean "promtool check metrics finds nothing in the file" "$SEEN"
INST=$(instance)
rewrite "$INST/$EV/hist" 's/succeeded:       1024  failed:          3/succeeded:       1124  failed:          5/;
	s/hitcount:          2/hitcount:          3/;
	s/\{ reason:         10 \} hitcount:          4  succeeded:         40/{ reason:         10 } hitcount:          5  succeeded:         48/'
rewrite "$ROOT/proc/vmstat" 's/^pgmigrate_success [0-9]+$/pgmigrate_success 6513/'
echo 417792 >"$ROOT/$DAMON/0/contexts/0/schemes/0/stats/sz_applied"
check "the file grows: syscall_or_cpuset's 100 pages since the start" \
	wait_for "$PF" 'numastatctl_migration_reason_pages_total{reason="syscall_or_cpuset",id="3"} 100'
# Two samples more, which see nothing new: the file and the totals then agree.
sleep 0.7
cp "$PF" "$SEEN"
stop
check "Ctrl-C ends it as before" test "$RC" = 130
check "Ctrl-C: the file is removed" test ! -e "$PF"
check "no temporary file is left" test -z "$(ls -A "$TF")"
check "the failed pages and the calls" test "$(
	prom_series numastatctl_migration_reason_failed_pages_total 'reason="syscall_or_cpuset",id="3"') $(
	prom_series numastatctl_migration_reason_calls_total 'reason="syscall_or_cpuset",id="3"')" = "2 1"
check "pgmigrate_success's change: 109" \
	grep -qx 'numastatctl_migration_reasons_pgmigrate_success_pages_total 109' "$SEEN"
check "the difference: 1, a gauge" grep -qx 'numastatctl_migration_reasons_difference_pages 1' "$SEEN"
# Every reason's pages in the file equal the totals' row, the counter and the difference too.
sed -n '/^total since/,$p' <<<"$OUT" | sed 1,2d | sed '/^$/,$d' >"$TMP/totals"
check "the file's pages per reason equal the table's totals" awk '
	NR == FNR { if ($1 ~ /^numastatctl_migration_reason_pages_total\{/) {
			r = $1; sub(/.*reason="/, "", r); sub(/".*/, "", r); file[r] = $2 }
		if ($1 == "numastatctl_migration_reasons_pgmigrate_success_pages_total") file["pgmigrate_success"] = $2
		if ($1 == "numastatctl_migration_reasons_difference_pages") file["difference"] = $2
		next }
	{ n++; if (!($1 in file) || file[$1] != $2) { print "differs: " $0 " against " file[$1]; bad = 1 } }
	END { exit bad || n != 13 }' "$SEEN" "$TMP/totals"
check "DAMOS: the migrating scheme's sz_applied, the kernel's own count" grep -qx \
	'numastatctl_damos_applied_bytes_total{kdamond="0",context="0",scheme="0",action="migrate_cold",target_nid="1"} 417792' "$SEEN"
check "DAMOS: a stopped kdamond's migrating scheme too" grep -qx \
	'numastatctl_damos_applied_bytes_total{kdamond="1",context="0",scheme="0",action="migrate_hot",target_nid="0"} 0' "$SEEN"
check "DAMOS: a scheme that moves no pages is left out" test -z "$(grep pageout "$SEEN")"
check "DAMON_STAT's kdamond runs, with its CPU time" grep -qx \
	'numastatctl_damon_stat_kdamond_cpu_seconds_total 1.50' "$SEEN"
check "the window: its start and length" grep -qE \
	'^numastatctl_migration_reasons_window_seconds (0\.[3-9]|[1-9])[0-9.]*$' "$SEEN"
promtool_clean "promtool check metrics finds nothing after the counts grew" "$SEEN"
# contrib/prometheus's rules for this file (their own tests there) use no
# series the file lacks, and no reason the kernel's format file lacks.
RRULES=${SOURCE_ROOT:?run through meson test}/contrib/prometheus/numastatctl-migration-reasons.rules.yml
missing=$(comm -23 <(grep -o 'numastatctl_[a-z_]*' "$RRULES" | sort -u) \
	<(sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$SEEN" | sort -u))
check "every series the migration-reasons rules use is in the file" test -z "$missing"
for reason in $(grep -o 'reason="[a-z_]*"' "$RRULES" | sort -u | cut -d'"' -f2); do
	check "the rules' reason $reason is one the kernel names" \
		grep -q "\"$reason\"" "$ROOT/$TR/$EV/format"
done

tracefs_fixture
fstart stat --migration-reasons 0.3 --textfile "$TF"
check "armed, with its file" wait_for "$TMP/bg.out" "sample 1 at"
check "the file is there" test -s "$PF"
kill -TERM "$BG_PID"
wait "$BG_PID"
RC=$?
BG_PID=
check "SIGTERM: ends by the signal" test "$RC" = 143
check "SIGTERM: the file is removed" test ! -e "$PF"
check "SIGTERM: the instance too" test -z "$(instance)"

tracefs_fixture
frun stat --migration-reasons 0.05 2 --textfile "$TF"
expect_rc 0 "COUNT reached: exit 0"
expect_out_has "sample 2 at" "the table is printed as without --textfile"
check "COUNT reached: the file is removed" test ! -e "$PF"

# A sample that cannot be read leaves the file as it was; a file that
# cannot be written ends the run.
tracefs_fixture
fstart stat --migration-reasons 0.3 --textfile "$TF"
check "armed, with its file" wait_for "$TMP/bg.out" "sample 1 at"
INST=$(instance)
rewrite "$INST/$EV/hist" 's/^\{ reason:          9 \} hitcount/{ pid:          9 } hitcount/'
check "the bad hist is said" wait_for "$TMP/bg.err" "not a reason key"
cp "$PF" "$SEEN"
sleep 0.7
check "failed readings: the file is left as it was" cmp -s "$PF" "$SEEN"
promtool_clean "and whole" "$SEEN"
rm -r "$TF"
wait "$BG_PID"
RC=$?
BG_PID=
ERR=$(<"$TMP/bg.err")
check "a directory gone: the run ends with exit 1" test "$RC" = 1
expect_err_has "numastatctl: stat: --textfile $TF: No such file or directory" "and says why"
check "and the instance is removed" test -z "$(instance)"
mkdir -p "$TF"

# Where the kernel cannot count: --migration's series, as one-shot, each sample.
fixture effect-6.1
start stat --migration-reasons 0.3 --textfile "$TF"
check "the fallback: sampling" wait_for "$TMP/bg.out" "sample 1 at"
check "the fallback: --migration's series in the file" \
	grep -q '^numastatctl_migration_pages_total{cause="other"}' "$PF"
stop
expect_err_has "the split by counters (--migration) instead, in the textfile too" \
	"the fallback says the file holds the split too"
check "the fallback: the file is removed at the end too" test ! -e "$PF"

done_testing
