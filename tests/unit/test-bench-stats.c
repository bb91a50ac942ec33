// SPDX-License-Identifier: GPL-2.0-or-later
/* bench's statistics: medians and the Mann-Whitney interval of a shift. */
#include <errno.h>

#include "bench-stats.h"
#include "tap.h"

static void test_median(void)
{
	double odd[] = { 9, 1, 5, 3, 7 };
	double even[] = { 4, 1, 3, 2 };
	double one[] = { 42 };
	double ties[] = { 2, 2, 2, 1, 3, 2 };

	CHECK(bench_stats_median(odd, 5) == 5, "median of an odd count is the middle value");
	CHECK(odd[0] == 1 && odd[4] == 9, "the values are sorted in place");
	CHECK(bench_stats_median(even, 4) == 2.5,
	      "median of an even count is the mean of the middle two");
	CHECK(bench_stats_median(one, 1) == 42, "median of one value is that value");
	CHECK(bench_stats_median(ties, 6) == 2, "ties do not disturb the median");
}

/*
 * Ranks c (the interval is [d_(c), d_(nm+1-c)]) from an independent brute
 * force over the exact distribution of U; for n = m they are the two-sided
 * 5% critical values of the Mann-Whitney tables plus one (U <= 2, 5, 13,
 * 23, 127 for 5, 6, 8, 10, 20).
 */
static void test_exact_ranks(void)
{
	static const struct {
		size_t n, m;
		long c;
		double coverage;
	} t[] = {
		{ 4, 4, 1, 0.9714285714 },     { 5, 5, 3, 0.9682539683 },
		{ 6, 6, 6, 0.9588744589 },     { 8, 8, 14, 0.9501165501 },
		{ 10, 10, 24, 0.9567429475 },  { 20, 20, 128, 0.9509096748 },
		{ 5, 10, 9, 0.9600399600 },    { 4, 8, 5, 0.9515151515 },
		{ 4, 5, 2, 0.9682539683 },     { 60, 60, 1427, 0.9502930275 },
		{ 30, 50, 553, 0.9507369710 }, { 10, 400, 1278, 0.9500585580 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		double cov = 0;
		long c = bench_stats_mw_rank(t[i].n, t[i].m, &cov);

		CHECK(c == t[i].c, "n=%zu m=%zu: rank %ld, want %ld", t[i].n, t[i].m, c, t[i].c);
		CHECK(cov > t[i].coverage - 1e-9 && cov < t[i].coverage + 1e-9 && cov >= 0.95,
		      "n=%zu m=%zu: actual confidence %.10f", t[i].n, t[i].m, cov);
	}
	CHECK(bench_stats_mw_rank(10, 5, NULL) == bench_stats_mw_rank(5, 10, NULL),
	      "the rank does not depend on which sample is which");
	CHECK(bench_stats_mw_rank(3, 3, NULL) == 0,
	      "3 against 3 cannot reach 95%% (1/20 per tail)");
	CHECK(bench_stats_mw_rank(0, 7, NULL) == 0, "an empty sample has no interval");
}

/*
 * Beyond exact integers (C(n+m, n) >= 2^120):
 * floor(nm/2 + 1/2 - 1.96 sqrt(nm(n+m+1)/12)).
 */
static void test_normal_ranks(void)
{
	double cov = 0;

	CHECK(bench_stats_mw_rank(62, 62, &cov) == 1530,
	      "62 x 62 is approximated, and agrees with exact");
	CHECK(cov == 0.95, "whose confidence is the nominal 95%%");
	/* Exact big-integer counts give 17735: the approximation is one rank wider. */
	CHECK(bench_stats_mw_rank(200, 200, NULL) == 17734, "200 x 200");
	CHECK(bench_stats_mw_rank(300, 300, NULL) == 40839, "300 x 300");
}

static void test_shift(void)
{
	double x[10], y[10], same[10], slow[9] = { 10, 11, 12, 13, 14, 15, 16, 17, 1000 },
				       fast[9] = { 11, 12, 13, 14, 15, 16, 17, 18, 19 };
	struct shift_ci ci;

	for (int i = 0; i < 10; i++) {
		x[i] = i + 1;
		y[i] = i + 6;
		same[i] = i + 1;
	}
	CHECK(bench_stats_shift_ci95(x, 10, y, 10, &ci) == 0, "a shift of 10 against 10 values");
	CHECK(ci.estimate == 5, "Hodges-Lehmann estimate of y = x + 5 is 5 (got %g)", ci.estimate);
	CHECK(ci.lo == 2 && ci.hi == 8, "interval is [d(24), d(77)] = [2, 8] (got [%g, %g])", ci.lo,
	      ci.hi);
	CHECK(bench_stats_shift_ci95(x, 10, same, 10, &ci) == 0 && ci.estimate == 0 && ci.lo < 0 &&
		      ci.hi > 0,
	      "equal samples: the interval spans zero");
	CHECK(bench_stats_shift_ci95(slow, 9, fast, 9, &ci) == 0 && ci.estimate == 1,
	      "one outlier of 1000 does not drag the estimate (got %g)", ci.estimate);
	CHECK(bench_stats_shift_ci95(x, 3, y, 10, &ci) == -EDOM, "fewer than 4 values: -EDOM");
}

int main(void)
{
	test_median();
	test_exact_ranks();
	test_normal_ranks();
	test_shift();
	return tap_done();
}
