// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench-guard.h"
#include "lock.h"
#include "snapshot.h"
#include "sysfs.h"

volatile sig_atomic_t bench_guard_stop;

static const int stop_signals[3] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop(int sig)
{
	bench_guard_stop = sig;
}

static void catch_signals(struct knob_guard *g)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(stop_signals[i], &sa, &g->old[i]);
}

static void release_signals(struct knob_guard *g)
{
	for (int i = 0; i < 3; i++)
		sigaction(stop_signals[i], &g->old[i], NULL);
}

int bench_guard_begin(struct knob_guard *g, const struct knob_ref *ref, const char *run_dir,
		      const char *data_dir, bool no_snapshot, char *why, size_t whylen)
{
	int r;

	memset(g, 0, sizeof(*g));
	g->ref = *ref;
	g->data_dir = data_dir;
	g->no_snapshot = no_snapshot;
	/* Catch signals first: from here on an interrupt must not skip a restore. */
	bench_guard_stop = 0;
	catch_signals(g);
	r = lock_acquire(&g->lock, run_dir, why, whylen);
	if (r < 0) {
		release_signals(g);
		return r;
	}
	r = knob_read(ref, &g->orig);
	if (r < 0) {
		snprintf(why, whylen, "%s: cannot read %s: %s", ref->name, ref->path,
			 sysfs_strerror(-r));
		lock_release(&g->lock);
		release_signals(g);
		return r;
	}
	g->expect = g->orig;
	return 0;
}

static int write_blocked(struct knob_guard *g, const struct kval *v, char *why, size_t whylen)
{
	sigset_t block, old;
	struct kval back;
	int r;

	sigemptyset(&block);
	for (int i = 0; i < 3; i++)
		sigaddset(&block, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	g->changed = true;
	r = knob_write(&g->ref, v, &back);
	if (r == 0)
		g->expect = *v;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (r == -EAGAIN)
		snprintf(why, whylen, "%s: wrote '%s', read back '%s'", g->ref.name, v->text,
			 back.text);
	else if (r < 0)
		snprintf(why, whylen, "%s: cannot write %s: %s", g->ref.name, g->ref.path,
			 sysfs_strerror(-r));
	return r;
}

int bench_guard_set(struct knob_guard *g, const struct kval *v, char *why, size_t whylen)
{
	struct kval live;
	int r = knob_read(&g->ref, &live);

	if (r < 0) {
		snprintf(why, whylen, "%s: cannot read %s: %s", g->ref.name, g->ref.path,
			 sysfs_strerror(-r));
		return r;
	}
	if (strcmp(live.text, g->expect.text) != 0) {
		snprintf(why, whylen,
			 "%s: changed by another writer during the run "
			 "(now '%.32s', expected '%.32s')",
			 g->ref.name, live.text, g->expect.text);
		return -EBUSY;
	}
	if (strcmp(live.text, v->text) == 0)
		return 0;
	if (knob_change_zeroes_counters(&g->ref, &live, v) && !g->no_snapshot &&
	    !g->snapshot_path[0]) {
		r = snapshot_save(g->data_dir, g->snapshot_path, sizeof(g->snapshot_path), why,
				  whylen);
		if (r < 0) {
			g->snapshot_path[0] = '\0';
			return -ECANCELED;
		}
	}
	return write_blocked(g, v, why, whylen);
}

int bench_guard_end(struct knob_guard *g, char *why, size_t whylen)
{
	int r = 0;

	if (g->changed) {
		/* Not through bench_guard_set: restoring never needs a snapshot. */
		r = write_blocked(g, &g->orig, why, whylen);
		if (r == 0)
			g->changed = false;
	}
	lock_release(&g->lock);
	release_signals(g);
	return r;
}
