// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "stat-timer.h"

/* The timer: a first expiry and a period of o->interval seconds. */
int stat_timer_open(double interval)
{
	struct itimerspec its;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	long long ns = (long long)(interval * 1e9 + 0.5); /* no libm for llround */

	if (fd < 0)
		return -errno;
	its.it_interval.tv_sec = (time_t)(ns / 1000000000);
	its.it_interval.tv_nsec = (long)(ns % 1000000000);
	its.it_value = its.it_interval;
	if (timerfd_settime(fd, 0, &its, NULL) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/*
 * SIGINT and SIGTERM become readable events, so Ctrl-C ends the loop
 * between samples and the totals still print.  Blocked signals are queued
 * even where the shell set them to be ignored (background jobs).
 */
int stat_timer_signals_open(void)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? -errno : fd;
}
