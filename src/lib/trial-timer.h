/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The armed revert of a trial: a transient systemd timer, started with
 * systemd-run --on-calendar, whose service runs `numastatctl revert --trial
 * ID` when the trial's time is up, and its disarming (systemctl stop).  No
 * daemon of ours: the timer belongs to systemd, so it outlives the process
 * that armed it, its terminal and its SSH session; a reboot drops it with
 * /run.  Implemented by trial-timer.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* As PATH finds them (systemd's own PATH when the armed revert stops its timer). */
#define TRIAL_TIMER_RUN "systemd-run"
#define TRIAL_TIMER_CTL "systemctl"
#define TRIAL_TIMER_PREFIX "numastatctl-trial-"
/* The unit's name: the prefix, an id (state.h) and ".timer". */
#define TRIAL_TIMER_UNIT_MAX 80

/*
 * Whether systemd runs this machine: /run/systemd/system is a directory
 * (sd_booted(3)), in the root --sysroot names (sysfs.h).
 */
bool trial_timer_available(void);
/* "numastatctl-trial-<id>.timer" into buf. */
void trial_timer_unit(const char *id, char *buf, size_t len);
/*
 * Arm the timer of trial id: at at_ns (the wall clock, ns since the
 * epoch, to the second below) it runs argv[0] with argv (NULL-terminated)
 * as a transient service, its output in the journal.  An absolute time
 * (--on-calendar): a daemon-reload does not start it again, and a step of
 * the wall clock moves it (forward past it: it runs at once).  0, or
 * -errno with why (systemd-run's own words).
 */
int trial_timer_arm(const char *id, int64_t at_ns, char *const argv[], char *why, size_t whylen);
/*
 * When systemd will run the timer of trial id (its NextElapseUSecRealtime,
 * to the second): 1 with *next_ns while it waits, 2 when it waits but its
 * time cannot be read, 0 when it is not loaded or no longer waits
 * (elapsed, its revert running or done), -errno with why when systemctl
 * cannot say.
 */
int trial_timer_next(const char *id, int64_t *next_ns, char *why, size_t whylen);
/* Whether process pid is gone (a --foreground trial's, killed): kill(pid, 0) says ESRCH. */
bool trial_timer_pid_gone(uint64_t pid);
/* The unit that applies the profile at boot (systemd/numastatctl.service.in). */
#define TRIAL_BOOT_UNIT "numastatctl.service"
/*
 * Whether the boot unit failed (systemctl is-failed): 1 when it did, 0
 * when not (or systemd does not run this machine), -errno with why.
 */
int trial_timer_boot_unit_failed(char *why, size_t whylen);
/*
 * When a trial ends: the boot unit, failed (a restart of systemd-sysctl
 * during the trial restarts it, and it refuses to change anything while a
 * trial runs), is started again (systemctl restart --no-block: it waits
 * for the lock the ending trial holds), so the profile is in force again.
 * 1 when it was, 0 when nothing was to do, -errno with why.
 */
int trial_timer_boot_unit_again(char *why, size_t whylen);
/* Stop the timer of trial id; one that is gone already is no error.  0 or -errno with why. */
int trial_timer_disarm(const char *id, char *why, size_t whylen);
