/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics for bench: medians, and a distribution-free 95% confidence
 * interval for the shift between two samples — the Hodges-Lehmann estimate
 * (median of all pairwise differences y_j - x_i) with the Mann-Whitney
 * interval (order statistics of those differences; the exact distribution
 * of U while C(n+m, n) fits in 120 bits — up to 61 values per sample, the
 * usual case — and the normal approximation above, which can be one rank
 * wider than exact, never narrower in the cases tested).  Page-fault
 * timings are skewed and have outliers (a timer tick, a migration), so no
 * normality is assumed.  Nothing here needs libm, which every command
 * would otherwise load at start-up.  Implemented by bench-stats.c.
 */
#pragma once

#include <stddef.h>

/* Each sample needs at least this many values for a 95% interval (C(8,4) = 70 > 40). */
#define STATS_MIN_SAMPLE 4

/* Median of v[0..n), n >= 1; v is sorted in place. */
double bench_stats_median(double *v, size_t n);

/*
 * The 1-based rank c of the interval's lower end among the n*m sorted
 * differences (the upper end is n*m + 1 - c): the largest c with
 * P(U <= c - 1) <= 2.5% when both samples come from one distribution.
 * 0 when no c qualifies (samples too small); -ENOMEM.  *coverage (if not
 * NULL) receives the interval's actual confidence, 1 - 2 P(U <= c - 1).
 */
long bench_stats_mw_rank(size_t n, size_t m, double *coverage);

struct shift_ci {
	double estimate; /* Hodges-Lehmann: median of the differences */
	double lo, hi;   /* 95% interval */
	double coverage; /* confidence of [lo, hi]: exact (>= 0.95), or 0.95 when approximated */
};

/* Shift of y against x.  0, -EDOM (too few values) or -ENOMEM. */
int bench_stats_shift_ci95(const double *x, size_t n, const double *y, size_t m,
			   struct shift_ci *out);
