// SPDX-License-Identifier: GPL-2.0-or-later
/* Points in time as nanoseconds (timespec.h). */
#include "timespec.h"

int64_t timespec_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

int64_t timespec_now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return timespec_ns(&ts);
}
