// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench-stats.h"

/* The 97.5% quantile of the standard normal distribution, squared. */
#define Z975_SQUARED (1.959963984540054 * 1.959963984540054)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_stats_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Exact integers: the Gaussian-binomial product has negative intermediate
 * coefficients, and in floating point their cancellation ruins the tails
 * from about 120 values per sample on.  Counts stay below COUNT_LIMIT, so
 * that 40 times a count (the 2.5% test) cannot overflow either.
 */
#ifdef __SIZEOF_INT128__
typedef __int128 count_t;
#define COUNT_LIMIT ((count_t)1 << 120)
#else
typedef int64_t count_t;
#define COUNT_LIMIT ((count_t)1 << 56)
#endif

/* True when C(n+m, n), the number of arrangements, stays below COUNT_LIMIT. */
static bool exact_fits(size_t n, size_t m)
{
	count_t c = 1;

	/* c * (m + i) may pass COUNT_LIMIT on the way, but stays below 64 times it. */
	for (size_t i = 1; i <= n; i++) {
		if (c > COUNT_LIMIT / (count_t)(m + i) * 64)
			return false;
		c = c * (count_t)(m + i) / (count_t)i;
		if (c > COUNT_LIMIT)
			return false;
	}
	return true;
}

/*
 * The number of arrangements with U = u is the coefficient of q^u in the
 * Gaussian binomial [n+m choose n]_q = prod_{i=1..n} (1 - q^(m+i)) / (1 - q^i),
 * built one factor at a time: after step i the array holds [m+i choose i]_q,
 * whose coefficients sum to C(m+i, i).  Returns the counts (n*m + 1 of them;
 * caller frees) or NULL.
 */
static count_t *u_counts(size_t n, size_t m)
{
	count_t *a = calloc(n * m + m + n + 1, sizeof(*a));
	size_t deg = 0;

	if (!a)
		return NULL;
	a[0] = 1;
	for (size_t i = 1; i <= n; i++) {
		size_t k = m + i;

		for (size_t u = deg + k; u >= k; u--) /* times (1 - q^k) */
			a[u] -= a[u - k];
		for (size_t u = i; u <= deg + k; u++) /* divided by (1 - q^i) */
			a[u] += a[u - i];
		deg += m;
	}
	return a;
}

static long exact_rank(size_t n, size_t m, double *coverage)
{
	count_t *a = u_counts(n, m), total = 0, below = 0;
	long c = 0;

	if (!a)
		return -ENOMEM;
	for (size_t u = 0; u <= n * m; u++)
		total += a[u];
	/* c - 1 is the largest u whose cumulative count stays within 2.5%: 40 * below <= total. */
	for (size_t u = 0; u <= n * m / 2; u++) {
		if ((below + a[u]) * 40 > total)
			break;
		below += a[u];
		c = (long)u + 1;
	}
	if (coverage)
		*coverage = 1 - 2 * (double)below / (double)total;
	free(a);
	return c;
}

/*
 * With continuity correction: the largest c with
 * nm/2 + 1/2 - c >= z * sigma, sigma^2 = nm(n+m+1)/12.  Squares are
 * compared (both sides are positive), so no sqrt() is needed.
 */
static long normal_rank(size_t n, size_t m, double *coverage)
{
	double nm = (double)n * (double)m, var = nm * (double)(n + m + 1) / 12;
	long lo = 0, hi = (long)(n * m / 2);

	while (lo < hi) {
		long mid = lo + (hi - lo + 1) / 2;
		double gap = nm / 2 + 0.5 - (double)mid;

		if (gap >= 0 && gap * gap >= Z975_SQUARED * var)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (coverage)
		*coverage = 0.95;
	return lo;
}

long bench_stats_mw_rank(size_t n, size_t m, double *coverage)
{
	if (coverage)
		*coverage = 0;
	if (n == 0 || m == 0)
		return 0;
	if (exact_fits(n, m))
		return exact_rank(n, m, coverage);
	return normal_rank(n, m, coverage);
}

int bench_stats_shift_ci95(const double *x, size_t n, const double *y, size_t m,
			   struct shift_ci *out)
{
	double *d;
	long c;

	if (n < STATS_MIN_SAMPLE || m < STATS_MIN_SAMPLE)
		return -EDOM;
	c = bench_stats_mw_rank(n, m, &out->coverage);
	if (c <= 0)
		return c < 0 ? (int)c : -EDOM;
	d = malloc(n * m * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			/* n, m >= 1 (c > 0 pairs): NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
			d[i * m + j] = y[j] - x[i];
	out->estimate = bench_stats_median(d, n * m);
	out->lo = d[c - 1];
	out->hi = d[n * m - (size_t)c];
	free(d);
	return 0;
}
