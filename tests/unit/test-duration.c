// SPDX-License-Identifier: GPL-2.0-or-later
/* Time spans: every spelling duration_parse() takes, and one line for the rest. */
#include <errno.h>
#include <string.h>

#include "duration.h"
#include "tap.h"
#include "why.h"

#define MIN 5
#define MAX (24 * 3600)

static void takes(const char *s, uint64_t want)
{
	char why[WHY_MAX] = "";
	uint64_t got = 0;
	int r = duration_parse(s, MIN, MAX, &got, why, sizeof(why));

	CHECK(r == 0 && got == want, "'%s' is %llu s (got %d, %llu: %s)", s,
	      (unsigned long long)want, r, (unsigned long long)got, why);
}

static void refuses(const char *s, int err, const char *want)
{
	char why[WHY_MAX] = "";
	uint64_t got = 77;
	int r = duration_parse(s, MIN, MAX, &got, why, sizeof(why));

	CHECK(r == err && got == 77, "'%s' refused with %d (got %d)", s, err, r);
	CHECK_STR(why, want, "'%s': the reason", s);
}

static void format(uint64_t secs, const char *want)
{
	char buf[DURATION_TEXT_MAX];

	duration_format(secs, buf, sizeof(buf));
	CHECK_STR(buf, want, "%llu s reads %s", (unsigned long long)secs, want);
}

int main(void)
{
	const char *syntax = "not a duration: expected whole seconds or a number with a unit s, "
			     "m or h, as in 20s, 5m, 1h30m (5s to 24h)";
	char want[WHY_MAX];

	takes("20s", 20);
	takes("20", 20);
	takes("5m", 300);
	takes("1h", 3600);
	takes("1h30m", 5400);
	takes("1h30m15s", 5415);
	takes("90sec", 90);
	takes("2min", 120);
	takes("1hour", 3600);
	takes("2hours", 7200);
	takes("10minutes", 600);
	takes("24h", MAX);
	takes("5s", MIN);
	takes("1m1m", 120);

	for (size_t i = 0; i < 13; i++) {
		static const char *const bad[] = { "",     "-1",   "1e9",  "20S",  " 20",
						   "20 ",  "1.5h", "+20s", "20ms", "1h30",
						   "0x10", "020s", "s" };

		snprintf(want, sizeof(want), "'%s': %s", bad[i], syntax);
		refuses(bad[i], -EINVAL, want);
	}
	refuses("0", -ERANGE, "'0': less than 5s (a duration from 5s to 24h)");
	refuses("4s", -ERANGE, "'4s': less than 5s (a duration from 5s to 24h)");
	refuses("24h1s", -ERANGE, "'24h1s': more than 24h (a duration from 5s to 24h)");
	refuses("1000000000", -ERANGE, "'1000000000': more than 24h (a duration from 5s to 24h)");
	refuses("99999999999999999999999s", -ERANGE,
		"'99999999999999999999999s': more than 24h (a duration from 5s to 24h)");

	format(0, "0s");
	format(20, "20s");
	format(300, "5m");
	format(5415, "1h30m15s");
	format(MAX, "24h");
	format(3601, "1h1s");
	return tap_done();
}
