// SPDX-License-Identifier: GPL-2.0-or-later
/* Time spans (duration.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "duration.h"
#include "value.h"

static const struct unit {
	const char *name;
	uint64_t secs;
} units[] = {
	{ "s", 1 },    { "sec", 1 },   { "second", 1 },  { "seconds", 1 },
	{ "m", 60 },   { "min", 60 },  { "minute", 60 }, { "minutes", 60 },
	{ "h", 3600 }, { "hr", 3600 }, { "hour", 3600 }, { "hours", 3600 },
};

#define SYNTAX "expected whole seconds or a number with a unit s, m or h, as in 20s, 5m, 1h30m"

/* The unit spelt [s, s + len): its seconds, or 0. */
static uint64_t unit_secs(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == len && memcmp(units[i].name, s, len) == 0)
			return units[i].secs;
	return 0;
}

/* The sum of "<number><unit>" parts; a bare number is seconds.  -EINVAL / -ERANGE. */
static int sum_parts(const char *s, uint64_t *total)
{
	const char *p = s;

	*total = 0;
	while (*p) {
		size_t digits = strspn(p, "0123456789"), letters;
		uint64_t n, unit;

		letters = strspn(p + digits, "abcdefghijklmnopqrstuvwxyz");
		if (digits == 0 || digits > 9 || (letters == 0 && p[digits]))
			return digits > 9 ? -ERANGE : -EINVAL;
		/* Leading zeros are refused as in every number numastatctl reads. */
		if (parse_u64_n(p, digits, UINT64_MAX, &n) < 0)
			return -EINVAL;
		unit = letters ? unit_secs(p + digits, letters) : 1;
		if (!unit)
			return -EINVAL;
		if (!letters && p != s)
			return -EINVAL; /* "1h30": the unit of 30 would be a guess */
		*total += n * unit;
		p += digits + letters;
	}
	return p == s ? -EINVAL : 0;
}

int duration_parse(const char *s, uint64_t min, uint64_t max, uint64_t *secs, char *why,
		   size_t whylen)
{
	char lo[DURATION_TEXT_MAX], hi[DURATION_TEXT_MAX];
	uint64_t total;
	int r = sum_parts(s, &total);

	duration_format(min, lo, sizeof(lo));
	duration_format(max, hi, sizeof(hi));
	if (r == -EINVAL) {
		snprintf(why, whylen, "'%s': not a duration: " SYNTAX " (%s to %s)", s, lo, hi);
		return r;
	}
	if (r < 0 || total < min || total > max) {
		snprintf(why, whylen, "'%s': %s than %s (a duration from %s to %s)", s,
			 r == 0 && total < min ? "less" : "more", r == 0 && total < min ? lo : hi,
			 lo, hi);
		return -ERANGE;
	}
	*secs = total;
	return 0;
}

void duration_format(uint64_t secs, char *buf, size_t len)
{
	uint64_t h = secs / 3600, m = secs / 60 % 60, s = secs % 60;
	int n = 0;

	buf[0] = '\0';
	if (h && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%" PRIu64 "h", h);
	if (m && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%" PRIu64 "m", m);
	if ((s || secs == 0) && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%" PRIu64 "s", s);
}
