#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The textfile against the real prometheus-node-exporter, with its textfile
# and meminfo_numa collectors both on (the rest off, so that a scrape does
# not depend on the rest of the machine): our names are served next to its
# own with no "collected before" error and node_textfile_scrape_error 0;
# the opt-in node_exporter names collide, as numastatctl(8) says.  The
# exporter listens on 127.0.0.1 only, on a port it picks itself (port 0),
# and is started and stopped by PID under a time bound.  Reads this machine's node files (no
# --sysroot: meminfo_numa reads them too), writes nothing to the kernel.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

# node_exporter: the name of upstream's own binary.
EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	missing_all "prometheus-node-exporter is not installed (package prometheus-node-exporter)" \
		prometheus-node-exporter
# python3 finds a port and scrapes.
need python3 python3
[ -d /sys/devices/system/node/node0 ] || [ -n "$(ls -d /sys/devices/system/node/node* 2>/dev/null)" ] ||
	skip_all "no NUMA node directories here: meminfo_numa has nothing to collect"

NE_PID=
stop_exporter() {
	[ -n "$NE_PID" ] || return 0
	kill -TERM "$NE_PID" 2>/dev/null
	wait "$NE_PID" 2>/dev/null
	NE_PID=
}
at_exit stop_exporter

# scrape PORT OUT: GET /metrics from 127.0.0.1:PORT twice (each scrape logs
# its own errors), bypassing any proxy the environment names; the second
# answer goes to OUT.
scrape() {
	python3 - "$1" "$2" <<'PY'
import sys, urllib.request
url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
try:
    for _ in range(2):
        body = opener.open(url, timeout=5).read()
except OSError as e:
    sys.exit("cannot scrape %s: %s" % (url, e))
open(sys.argv[2], "wb").write(body)
PY
}

# exporter_run DIR TAG: start the exporter on DIR with a port of its own
# choosing (no race with other processes), scrape it, stop it;
# $TMP/TAG.metrics and $TMP/TAG.log.
exporter_run() {
	local i port=
	# The bound is for a hung exporter; stop_exporter ends it at once.
	timeout 20 "$EXPORTER" --web.listen-address=127.0.0.1:0 \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$1" --collector.meminfo_numa \
		>"$TMP/$2.log" 2>&1 &
	NE_PID=$!
	for i in $(seq 1 100); do
		port=$(sed -n 's/.*msg="Listening on".*address=127\.0\.0\.1:\([0-9]*\).*/\1/p' "$TMP/$2.log")
		[ -n "$port" ] && break
		kill -0 "$NE_PID" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$port" ]; then
		echo "no 'Listening on' line from the exporter" >"$TMP/$2.scrape-err"
		stop_exporter
		return 1
	fi
	scrape "$port" "$TMP/$2.metrics" 2>"$TMP/$2.scrape-err"
	i=$?
	stop_exporter
	return $i
}

mkdir "$TMP/textfile" "$TMP/textfile-ne"
conf '[numastatctl]
profile = here
[profile here]
vm.numa_stat = 1'
run_raw --config "$CONF" --state-dir "$TMP/state" stat --textfile "$TMP/textfile"
expect_rc 0 "stat --textfile on this machine succeeds"
if have promtool prometheus; then
	lint=$(promtool check metrics <"$TMP/textfile/numastatctl.prom" 2>&1)
	if [ -z "$lint" ]; then ok "promtool finds nothing in this machine's textfile"
	else not_ok "promtool finds nothing in this machine's textfile" "$lint"; fi
fi

if exporter_run "$TMP/textfile" ours; then
	ok "node_exporter on 127.0.0.1 serves a scrape"
else
	not_ok "node_exporter on 127.0.0.1 serves a scrape" "$(cat "$TMP/ours.scrape-err" "$TMP/ours.log")"
	done_testing
	exit
fi
check "its meminfo_numa collector is on" grep -q '^node_memory_numa_numa_hit_total{node="' "$TMP/ours.metrics"
check "our counters are served" grep -q '^numastatctl_numa_hit_total{node="' "$TMP/ours.metrics"
check "our memory series are served" grep -q '^numastatctl_node_memory_mem_total_bytes{node="' "$TMP/ours.metrics"
check "the knobs and the profile drift are served" \
	grep -q '^numastatctl_profile_drift{profile="here"} ' "$TMP/ours.metrics"
check "node_textfile_scrape_error is 0" grep -qx 'node_textfile_scrape_error 0' "$TMP/ours.metrics"
if grep -q 'was collected before with the same name' "$TMP/ours.log"; then
	not_ok "no collision error in node_exporter's log" "$(grep -m3 'collected before' "$TMP/ours.log" | cut -c1-400)"
else
	ok "no collision error in node_exporter's log"
fi
check "no error at all in its log" test "$(grep -c 'level=error' "$TMP/ours.log")" = 0

# stat --migration-reasons INTERVAL --textfile in the same directory, on a
# fixture's tracefs through test-stat-reasons.sh's preload: its file is
# served beside the table's, without a clash, and goes with the run.
PRELOAD=${BUILD_ROOT:-}/tests/fault/tracefs.so
if [ -f "$PRELOAD" ]; then
	if ldd "$NUMASTATCTL" 2>/dev/null | grep -q libasan; then
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	fi
	fixture effect-6.1
	cp -R "$FIXTURES/tracefs/." "$ROOT/"
	find "$ROOT" -name .gitkeep -delete
	FAKE_TRACEFS=$FIXTURES/tracefs-instance FAKE_TRACEFS_LOG=$TMP/tracefs.log LD_PRELOAD=$PRELOAD \
		start stat --migration-reasons 0.3 --textfile "$TMP/textfile"
	wait_for "$TMP/bg.out" "sample 1 at"
	if exporter_run "$TMP/textfile" reasons; then
		check "--migration-reasons' counters are served" grep -qx \
			'numastatctl_migration_reason_pages_total{id="9",reason="damon"} 0' "$TMP/reasons.metrics"
		check "beside the table's, from the same directory" \
			grep -q '^numastatctl_numa_hit_total{node="' "$TMP/reasons.metrics"
		check "node_textfile_scrape_error stays 0 with both files" \
			grep -qx 'node_textfile_scrape_error 0' "$TMP/reasons.metrics"
		check "no error in its log with both files" test "$(grep -c 'level=error' "$TMP/reasons.log")" = 0
	else
		not_ok "node_exporter serves --migration-reasons' textfile" \
			"$(cat "$TMP/reasons.scrape-err" "$TMP/reasons.log")"
	fi
	stop
	check "the run's file goes with it" test ! -e "$TMP/textfile/numastatctl-migration-reasons.prom"
else
	ok "--migration-reasons' textfile served # SKIP the tracefs preload was not built"
fi

# The opt-in: node_exporter's own names collide with meminfo_numa.
run_raw --config "$CONF" --state-dir "$TMP/state" stat --textfile "$TMP/textfile-ne" --prometheus-names=node_exporter
expect_rc 0 "stat --textfile --prometheus-names=node_exporter succeeds"
if exporter_run "$TMP/textfile-ne" theirs; then
	check "with node_exporter's names, its log reports the collision (documented)" \
		grep -q 'was collected before with the same name and label values' "$TMP/theirs.log"
	check "while node_textfile_scrape_error stays 0" grep -qx 'node_textfile_scrape_error 0' "$TMP/theirs.metrics"
else
	not_ok "node_exporter serves the opt-in textfile" "$(cat "$TMP/theirs.scrape-err" "$TMP/theirs.log")"
fi

done_testing
