// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat INTERVAL [COUNT] for every view (stat-view.h): one poll loop over
 * the sampling timer, Ctrl-C and SIGTERM, and (for a view that asks, on the
 * live system) the kernel's uevents, around the view's sample() and print().
 * A view keeps its files open and preads each once per sample.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "stat-timer.h"
#include "stat-view.h"
#include "sysfs.h"
#include "uevent.h"
#include "why.h"

struct loop {
	const struct stat_opts *o;
	const struct stat_view *v;
	void *ctx;
	struct timespec started;
	double run_secs;
	unsigned long sample;
	int stopped_by; /* the signal that ended the sampling, or 0 */
	int rc;
	bool textfile; /* --textfile, rewritten after each sample (STAT_VIEW_TEXTFILE_LOOP) */
};

static int which_signal(int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		return (int)si.ssi_signo;
	return SIGINT;
}

/*
 * The view's file after a sample.  A file that cannot be written ends the
 * run (an exporter whose file stays old would be read as a stalled
 * machine): -EIO after the message, as a failed stdout ends it.
 */
static int refresh_textfile(struct loop *l)
{
	if (!l->textfile)
		return 0;
	if (stat_view_textfile(l->v, l->ctx, l->o) != EXIT_OK) {
		l->rc = EXIT_FAIL;
		return -EIO;
	}
	return 0;
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
	if (l->v->sample(l->ctx, in.secs, STAT_SAMPLE_NEXT) != EXIT_OK)
		l->rc = EXIT_FAIL;
	if (l->v->print(l->ctx, &in) < 0)
		return -EIO;
	/* Each sample is news now, also into a pipe or a file. */
	if (fflush(stdout) != 0)
		return -EIO;
	return refresh_textfile(l) < 0 ? -EIO : 1;
}

/* Drain the uevent socket; true when the topology may have changed. */
static bool topology_changed(struct uevent_listener *ul)
{
	bool changed = false;
	struct uevent ev;
	int r;

	while ((r = uevent_receive(ul, &ev)) != -EAGAIN) {
		if (r == -ENOBUFS) {
			/* Events were lost: look again, which is what they would have asked for. */
			changed = true;
			continue;
		}
		if (r < 0 && r != -ENOMSG)
			break;
		if (r < 0)
			continue;
		if (ev.kind == UEVENT_NODE_ADD || ev.kind == UEVENT_NODE_REMOVE)
			log_warn("kernel uevent: node %u %s", ev.id, uevent_kind_name(ev.kind));
		else
			log_warn("kernel uevent: memory block %u %s", ev.id,
				 uevent_kind_name(ev.kind));
		changed = true;
	}
	return changed;
}

enum { FD_TIMER, FD_SIGNAL, FD_UEVENT, FD_COUNT };

static int loop(struct loop *l, struct pollfd *pfd, struct uevent_listener *ul)
{
	nfds_t nfds = ul ? FD_COUNT : FD_UEVENT;

	while (l->o->count == 0 || l->sample < (unsigned long)l->o->count) {
		if (poll(pfd, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pfd[FD_SIGNAL].revents) {
			l->stopped_by = which_signal(pfd[FD_SIGNAL].fd);
			return 0;
		}
		if (ul && pfd[FD_UEVENT].revents && topology_changed(ul) &&
		    l->v->sample(l->ctx, 0, STAT_SAMPLE_TOPOLOGY) != EXIT_OK)
			l->rc = EXIT_FAIL;
		if (pfd[FD_TIMER].revents && on_timer(l, pfd[FD_TIMER].fd) < 0)
			return -EIO;
	}
	return 0;
}

static int print_total(struct loop *l)
{
	struct stat_loop_info in = { .secs = l->run_secs, .when = l->started, .total = true };

	return l->v->print(l->ctx, &in) < 0 || fflush(stdout) != 0 ? -EIO : 0;
}

/*
 * The one line when Ctrl-C or SIGTERM ended the sampling: how many samples
 * over how long, and, without --totals, how to get the totals.
 */
static void stopped(const struct stat_opts *o, int sig, unsigned long samples, double secs)
{
	log_err("stopped by %s after %lu sample%s over %.2f s%s",
		sig == SIGTERM ? "SIGTERM" : "SIGINT", samples, samples == 1 ? "" : "s", secs,
		o->totals ? "" : " (--totals prints the totals since the start)");
}

/*
 * After the summary and the view's free() (which may have a trace
 * instance to remove), end by the signal that stopped the sampling, as vmstat
 * does: a shell sees an interrupted command (status 128 + sig) and stops a
 * loop around it, which an exit 0 would let go on.  It was blocked and
 * read from the signalfd; raised again with its default action, it
 * terminates the process when unblocked.
 */
void stat_loop_end_by(int sig)
{
	sigset_t set;

	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* The uevent listener on the live system; NULL (and why) elsewhere. */
static struct uevent_listener *watch_topology(void)
{
	struct uevent_listener *ul = NULL;
	char why[WHY_MAX];

	/* A sysroot is a dump: nothing there will ever hot-plug. */
	if (!sysfs_is_live())
		return NULL;
	if (uevent_open(&ul, why, sizeof(why)) < 0) {
		log_warn("node hotplug will go unnoticed: %s", why);
		return NULL;
	}
	return ul;
}

/*
 * A many-node sample is tens of kB of text: one buffer that holds it lets
 * it leave in one write(2) per sample, not one per 4 kB.
 */
static char stdout_buf[1 << 18];

int stat_loop_run(const struct stat_view *v, void *ctx, const struct stat_opts *o, int *stopped_by)
{
	struct loop l = { .o = o,
			  .v = v,
			  .ctx = ctx,
			  .rc = EXIT_OK,
			  .textfile = o->textfile && (v->flags & STAT_VIEW_TEXTFILE_LOOP) };
	struct uevent_listener *ul = NULL;
	struct pollfd pfd[FD_COUNT] = {
		[FD_TIMER] = { .fd = -1, .events = POLLIN },
		[FD_SIGNAL] = { .fd = -1, .events = POLLIN },
		[FD_UEVENT] = { .fd = -1, .events = POLLIN },
	};
	int r;

	/* Before any output (a view's baseline may print a header): one write(2) per sample. */
	setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
	clock_gettime(CLOCK_REALTIME, &l.started);
	if (v->sample(ctx, 0, STAT_SAMPLE_FIRST) != EXIT_OK)
		l.rc = EXIT_FAIL;
	/* The baseline's file: every series from the start, each at 0. */
	r = refresh_textfile(&l);
	if (v->flags & STAT_VIEW_HOTPLUG)
		ul = watch_topology();
	pfd[FD_TIMER].fd = stat_timer_open(o->interval);
	pfd[FD_SIGNAL].fd = stat_timer_signals_open();
	pfd[FD_UEVENT].fd = ul ? uevent_fd(ul) : -1;
	if (r == 0)
		r = pfd[FD_TIMER].fd < 0 ? pfd[FD_TIMER].fd : pfd[FD_SIGNAL].fd;
	if (r < 0 && r != -EIO)
		log_err("cannot set up the sampling timer: %s", strerror(-r));
	else if (r >= 0 && (r = loop(&l, pfd, ul)) == 0) {
		/* Ctrl-C is how `stat 1` ends: one line says so, not a block of totals. */
		if (l.stopped_by)
			stopped(o, l.stopped_by, l.sample, l.run_secs);
		if (o->totals)
			r = print_total(&l);
	}
	if (r < 0 && r != -EIO)
		log_err("sampling stopped: %s", strerror(-r));
	for (int i = 0; i < FD_UEVENT; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	uevent_close(ul);
	/* However the run ended but SIGKILL: no frozen counters left for a scraper. */
	if (l.textfile)
		stat_view_textfile_remove(v, o);
	*stopped_by = l.stopped_by;
	return r < 0 ? EXIT_FAIL : l.rc;
}
