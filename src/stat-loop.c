// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat INTERVAL [COUNT] for the --balancing, --tiers and --cgroup views
 * (stat-effect.h): the same timer, Ctrl-C handling and titles as the
 * counter table's loop (stat-interval.c), around a view's sample() and
 * print().  A view keeps its files open and preads each once per sample.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "output.h"
#include "stat-effect.h"

void stat_loop_title(const struct stat_opts *o, const struct stat_loop_info *in)
{
	char when[16];
	struct tm tm;

	if (o->noheadings)
		return;
	localtime_r(&in->when.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	if (in->sample > 1 || in->total)
		putchar('\n');
	if (in->total)
		printf("total since %s: %s over %.2f s\n", when, o->rate ? "per second" : "changes",
		       in->secs);
	else
		printf("sample %lu at %s: %s over %.2f s\n", in->sample, when,
		       o->rate ? "per second" : "changes", in->secs);
}

size_t stat_loop_json_columns(struct grid *g, const struct stat_loop_info *in)
{
	size_t c = 0;

	if (!in->total)
		g->cols[c++] = (struct grid_col){ "SAMPLE", "sample", OUT_COL_NUMBER };
	g->cols[c++] = (struct grid_col){ in->total ? "SINCE" : "TIME", in->total ? "since" : "time", 0 };
	g->cols[c++] = (struct grid_col){ "SECONDS", "seconds", OUT_COL_NUMBER };
	return c;
}

void stat_loop_json_cells(struct grid *g, size_t row, const struct stat_loop_info *in)
{
	char buf[32];
	struct tm tm;
	size_t c = 0;

	if (!in->total) {
		snprintf(buf, sizeof(buf), "%lu", in->sample);
		grid_set(g, row, c++, buf, 0, true);
	}
	/* ISO 8601 UTC: what a script can sort and parse anywhere. */
	gmtime_r(&in->when.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	grid_set(g, row, c++, buf, 0, true);
	snprintf(buf, sizeof(buf), "%.2f", in->secs);
	grid_set(g, row, c, buf, 0, true);
}

void stat_loop_count(struct grid *g, size_t r, size_t c, uint64_t d, const struct stat_opts *o,
		     double secs)
{
	char buf[GRID_CELL_MAX];
	double rate = secs > 0 ? (double)d / secs : 0;

	if (!o->rate) {
		stat_cell_count(g, r, c, d, o->compact);
		return;
	}
	if (o->json)
		snprintf(buf, sizeof(buf), "%.2f", rate);
	else if (rate >= 18446744073709551615.0)
		snprintf(buf, sizeof(buf), "%" PRIu64, UINT64_MAX);
	else {
		stat_cell_count(g, r, c, (uint64_t)(rate + 0.5), o->compact);
		return;
	}
	grid_set(g, r, c, buf, rate, rate != 0);
}

struct loop {
	const struct stat_opts *o;
	const struct stat_loop_ops *ops;
	void *ctx;
	struct timespec started;
	double run_secs;
	unsigned long sample;
	int rc;
};

/* One timer expiry (or several, if we were late): a sample. */
static int on_timer(struct loop *l, int tfd)
{
	struct stat_loop_info in = { 0 };
	uint64_t ticks;
	ssize_t n = read(tfd, &ticks, sizeof(ticks));

	if (n != sizeof(ticks))
		return n < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -EIO;
	/* The kernel timer's periods: late wake-ups count whole periods, not our latency. */
	in.secs = (double)ticks * l->o->interval;
	l->run_secs += in.secs;
	in.sample = ++l->sample;
	clock_gettime(CLOCK_REALTIME, &in.when);
	if (l->ops->sample(l->ctx, in.secs, false) != EXIT_OK)
		l->rc = EXIT_FAIL;
	if (l->ops->print(l->ctx, &in) < 0)
		return -EIO;
	/* Each sample is news now, also into a pipe or a file. */
	return fflush(stdout) == 0 ? 1 : -EIO;
}

enum { FD_TIMER, FD_SIGNAL, FD_COUNT };

static int loop(struct loop *l, struct pollfd *pfd)
{
	while (l->o->count == 0 || l->sample < (unsigned long)l->o->count) {
		if (poll(pfd, FD_COUNT, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pfd[FD_SIGNAL].revents)
			return 0;
		if (pfd[FD_TIMER].revents && on_timer(l, pfd[FD_TIMER].fd) < 0)
			return -EIO;
	}
	return 0;
}

static int print_total(struct loop *l)
{
	struct stat_loop_info in = { .secs = l->run_secs, .when = l->started, .total = true };

	return l->ops->print(l->ctx, &in) < 0 || fflush(stdout) != 0 ? -EIO : 0;
}

static char stdout_buf[1 << 18];

int stat_loop_run(const struct stat_opts *o, const struct stat_loop_ops *ops, void *ctx)
{
	struct loop l = { .o = o, .ops = ops, .ctx = ctx, .rc = EXIT_OK };
	struct pollfd pfd[FD_COUNT] = {
		[FD_TIMER] = { .fd = -1, .events = POLLIN },
		[FD_SIGNAL] = { .fd = -1, .events = POLLIN },
	};
	int r;

	if (o->count < 0) {
		log_usage_err("count '%ld': must be a positive number", o->count);
		return EXIT_USAGE;
	}
	/* Before any output (a view's baseline may print a header): one write(2) per sample. */
	setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
	clock_gettime(CLOCK_REALTIME, &l.started);
	if (ops->sample(ctx, 0, true) != EXIT_OK)
		l.rc = EXIT_FAIL;
	pfd[FD_TIMER].fd = stat_timer_open(o->interval);
	pfd[FD_SIGNAL].fd = stat_signals_open();
	r = pfd[FD_TIMER].fd < 0 ? pfd[FD_TIMER].fd : pfd[FD_SIGNAL].fd;
	if (r < 0)
		log_err("cannot set up the sampling timer: %s", strerror(-r));
	else if ((r = loop(&l, pfd)) == 0)
		r = print_total(&l);
	if (r < 0 && r != -EIO)
		log_err("sampling stopped: %s", strerror(-r));
	for (int i = 0; i < FD_COUNT; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	return r < 0 ? EXIT_FAIL : l.rc;
}
