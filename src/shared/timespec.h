/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A point in time as whole nanoseconds, so that the span between two
 * readings is one subtraction, done here once instead of field by field
 * with its borrow at each caller.  int64_t holds CLOCK_REALTIME's
 * nanoseconds until the year 2262.  Implemented by timespec.c.
 */
#pragma once

#include <stdint.h>
#include <time.h>

int64_t timespec_ns(const struct timespec *t);

/* The clock's time now, in nanoseconds. */
int64_t timespec_now_ns(clockid_t id);
