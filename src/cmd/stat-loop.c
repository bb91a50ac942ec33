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
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "out.h"
#include "stat-effect.h"
#include "stat-timer.h"

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

/* The leading members of a view's document: time; sample, time, seconds; since, seconds. */
static int lead_fields(struct out_doc *d, const struct stat_loop_info *in, char *why, size_t whylen)
{
	struct out_table *t;
	struct out_row *row;
	struct timespec now;
	char when[32];
	size_t c = 0;
	int r = out_table_new(&t, "", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	if (!in)
		clock_gettime(CLOCK_REALTIME, &now);
	stat_iso_time(in ? &in->when : &now, when, sizeof(when));
	if (in && !in->total)
		out_table_add_column(t, "sample", 0, OUT_COL_NUMBER);
	out_table_add_column(t, in && in->total ? "since" : "time", 0, 0);
	if (in)
		out_table_add_column(t, "seconds", 0, OUT_COL_NUMBER);
	if (!(row = out_table_add_row(t)))
		r = -ENOMEM;
	if (r == 0 && in && !in->total)
		r = out_row_setf(row, c++, "%lu", in->sample);
	if (r == 0)
		r = out_row_set(row, c++, when);
	if (r == 0 && in)
		r = out_row_setf(row, c, "%.2f", in->secs);
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_FIELDS);
	out_table_free(t);
	return r;
}

int stat_view_json(const struct grid *g, const struct stat_opts *o, const struct stat_loop_info *in,
		   const char *name, char *why, size_t whylen)
{
	struct out_doc *d = NULL;
	int r = out_doc_new(&d, in ? OUT_ONELINE : 0);

	why[0] = '\0';
	if (r == 0)
		r = lead_fields(d, in, why, whylen);
	if (r == 0)
		r = grid_add_json_rows(g, o, d, name, why, whylen);
	if (r == 0)
		r = out_doc_print(d, stdout);
	if (r < 0 && !why[0])
		snprintf(why, whylen,
			 r == -EIO ? "cannot write to standard output" : "out of memory");
	out_doc_free(d);
	return r;
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
	int stopped_by; /* the signal that ended the sampling, or 0 */
	int rc;
};

static int which_signal(int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		return (int)si.ssi_signo;
	return SIGINT;
}

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
		if (pfd[FD_SIGNAL].revents) {
			l->stopped_by = which_signal(pfd[FD_SIGNAL].fd);
			return 0;
		}
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

void stat_loop_stopped(const struct stat_opts *o, int sig, unsigned long samples, double secs)
{
	log_err("stopped by %s after %lu sample%s over %.2f s%s",
		sig == SIGTERM ? "SIGTERM" : "SIGINT", samples, samples == 1 ? "" : "s", secs,
		o->totals ? "" : " (--totals prints the totals since the start)");
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
	pfd[FD_SIGNAL].fd = stat_timer_signals_open();
	r = pfd[FD_TIMER].fd < 0 ? pfd[FD_TIMER].fd : pfd[FD_SIGNAL].fd;
	if (r < 0)
		log_err("cannot set up the sampling timer: %s", strerror(-r));
	else if ((r = loop(&l, pfd)) == 0) {
		if (l.stopped_by)
			stat_loop_stopped(o, l.stopped_by, l.sample, l.run_secs);
		if (o->totals)
			r = print_total(&l);
	}
	if (r < 0 && r != -EIO)
		log_err("sampling stopped: %s", strerror(-r));
	for (int i = 0; i < FD_COUNT; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	return r < 0 ? EXIT_FAIL : l.rc;
}
