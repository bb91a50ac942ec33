/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The clock of interval mode: the sampling timer and Ctrl-C as fds for one
 * poll loop (stat-interval.c, stat-loop.c).  Implemented by stat-timer.c.
 */
#pragma once

/* A timerfd that fires every interval seconds; the fd or -errno. */
int stat_timer_open(double interval);
/* SIGINT and SIGTERM as a signalfd (blocked from now on); the fd or -errno. */
int stat_timer_signals_open(void);
