#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat --migration-reasons on the running kernel (root): its instance made
# and removed (or, without histogram triggers, none made and the fallback
# said), a killed run's leftover found by its name and removed, another
# run's instance and the global tracer left alone.  tracefs is mounted for
# the test if it was not, and unmounted after, however the script ends.
. "$(dirname "$0")/lib.sh"

TR=/sys/kernel/tracing
EV=$TR/events/migrate/mm_migrate_pages
[ "$(id -u)" = 0 ] || skip_all "making a trace instance needs root"
grep -qw tracefs /proc/filesystems || skip_all "no tracefs in this kernel"
if [ ! -d $TR/instances ]; then
	mount -t tracefs nodev $TR 2>/dev/null || skip_all "cannot mount tracefs at $TR"
	at_exit "umount $TR"
fi
[ -d $EV ] || skip_all "no migrate:mm_migrate_pages event in this kernel"
trap 'exit 1' INT TERM

# A PID no process has: past pid_max.
dead=$(($(cat /proc/sys/kernel/pid_max) + 1))
[ "$dead" -le 4194304 ] || dead=4194303
[ -d "/proc/$dead" ] && skip_all "PID $dead runs"
# A run that still goes on: our own shell's PID.
mkdir "$TR/instances/numastatctl-$dead" "$TR/instances/numastatctl-$$"
at_exit "rmdir $TR/instances/numastatctl-$dead $TR/instances/numastatctl-$$ 2>/dev/null"
on=$(<$TR/tracing_on)
lines=$(wc -l <$TR/trace)
events=$(<$TR/set_event)
trigger=$(grep -v '^#' $EV/trigger)

run_raw stat --migration-reasons -r 0.2 2
expect_rc 0 "exit 0 (the ledger, or the split by counters where the kernel cannot count)"
expect_err_has "$TR/instances/numastatctl-$dead: a trace instance a killed run left (its PID no longer runs): removed" \
	"a killed run's leftover is named and removed"
check "it is gone" test ! -e "$TR/instances/numastatctl-$dead"
check "a running PID's instance stays" test -d "$TR/instances/numastatctl-$$"
if [ -e $EV/hist ]; then
	expect_out_has "pgmigrate_success" "histogram triggers here: the ledger by reason"
else
	expect_err_has "this kernel has no histogram triggers (CONFIG_HIST_TRIGGERS): the split by counters (--migration) instead" \
		"no histogram triggers here: the fallback, said in one line"
fi
check "no instance of this run is left" \
	test "$(ls $TR/instances | grep -c '^numastatctl-')" = 1
check "tracing_on untouched" test "$(<$TR/tracing_on)" = "$on"
check "the global trace buffer untouched" test "$(wc -l <$TR/trace)" = "$lines"
check "the global event list untouched" test "$(<$TR/set_event)" = "$events"
check "the global event's triggers untouched" test "$(grep -v '^#' $EV/trigger)" = "$trigger"

# Killed mid-run: where the kernel counts, the instance stays for the next run.
if [ -e $EV/hist ]; then
	start_raw stat --migration-reasons 0.2
	check "armed" wait_for "$TMP/bg.out" "sample 1 at"
	kill -KILL "$BG_PID"
	wait "$BG_PID" 2>/dev/null
	check "SIGKILL leaves the instance" test -d "$TR/instances/numastatctl-$BG_PID"
	run_raw stat --migration-reasons 0.2 1
	expect_err_has "numastatctl-$BG_PID: a trace instance a killed run left" "the next run removes it"
	check "and none is left" test "$(ls $TR/instances | grep -c '^numastatctl-')" = 1
else
	ok "SIGKILL mid-run # SKIP no histogram triggers: nothing is armed to be left"
fi
done_testing
