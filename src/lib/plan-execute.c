// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "plan-execute.h"
#include "snapshot.h"
#include "state.h"
#include "value.h"

static bool zeroes_counters(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action == ACT_WRITE &&
		    knob_change_zeroes_counters(&it->ref, &it->old, &it->want))
			return true;
	}
	return false;
}

/* Undo items [0, upto) that were changed, newest first. */
static void roll_back(struct plan *p, size_t upto)
{
	for (size_t i = upto; i-- > 0;) {
		struct plan_item *it = &p->items[i];
		struct kval back;
		int r;

		if (it->action != ACT_CHANGED)
			continue;
		r = knob_write(&it->ref, &it->old, &back);
		it->action = r == 0 ? ACT_ROLLED_BACK : ACT_NOT_RESTORED;
		if (r < 0)
			it->err = r;
	}
}

static int write_all(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct plan_item *it = &p->items[i];
		int r;

		if (it->action != ACT_WRITE)
			continue;
		if (it->derived) {
			/* What the kernel wrote when the item before changed. */
			if (knob_read(&it->ref, &it->now) == 0)
				it->want = it->now;
			it->action = ACT_CHANGED;
			continue;
		}
		r = knob_write(&it->ref, &it->want, &it->now);
		if (r == 0) {
			it->action = ACT_CHANGED;
			continue;
		}
		/* A clamped value did change something: restore it with the rest. */
		it->action = r == -EAGAIN ? ACT_CHANGED : ACT_FAILED;
		it->err = r;
		roll_back(p, i + 1);
		if (it->action == ACT_ROLLED_BACK)
			it->action = ACT_FAILED;
		for (size_t j = i + 1; j < p->n; j++)
			if (p->items[j].action == ACT_WRITE)
				p->items[j].action = ACT_NOT_WRITTEN;
		return r;
	}
	return 0;
}

static bool all_restored(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].action == ACT_NOT_RESTORED)
			return false;
	return true;
}

/* The revert point of this change, in place before anything is written. */
static int save_revert_point(const struct plan *p, struct plan_opts *o)
{
	struct state_point saved;
	int r;

	state_stash_prior(o->run_fd);
	if (!o->no_revert_point) {
		r = state_save_prior(o->run_fd, o->run_dir, p, o->what, &saved, o->why,
				     sizeof(o->why));
		if (r == 0)
			str_copy(o->revert_id, saved.id, sizeof(o->revert_id));
	} else if ((r = state_clear_prior(o->run_fd)) >= 0)
		o->forgot_prior = r > 0;
	else
		snprintf(o->why, sizeof(o->why),
			 "cannot remove the revert point of the last "
			 "change (%s/%s): %s",
			 o->run_dir, STATE_REVERT_FILE, strerror(-r));
	if (r < 0) {
		/* Nothing changes: the revert point of the last change stays as it was. */
		state_unstash_prior(o->run_fd, false);
		o->refused = REFUSED_REVERT_POINT;
		return -ECANCELED;
	}
	return 0;
}

/* What must be in place before the first write: the revert point, the counters. */
static int prepare(const struct plan *p, struct plan_opts *o)
{
	int r;

	if (!o->keep_prior && (r = save_revert_point(p, o)) < 0)
		return r;
	if (zeroes_counters(p) && !o->no_snapshot &&
	    snapshot_save(o->data_dir, o->snapshot_path, sizeof(o->snapshot_path), o->why,
			  sizeof(o->why)) < 0) {
		if (!o->keep_prior)
			state_unstash_prior(o->run_fd, true);
		o->refused = REFUSED_SNAPSHOT;
		return -ECANCELED;
	}
	return 0;
}

/* A snapshot of a reset that did not happen would be counted from by stat --since. */
static void drop_snapshot(struct plan_opts *o)
{
	const char *name = strrchr(o->snapshot_path, '/');

	if (o->snapshot_path[0] && name && snapshot_remove(o->data_dir, name + 1) == 0)
		o->snapshot_path[0] = '\0';
}

/* After the writes: the revert point and the snapshot that fit what happened. */
static void finish(const struct plan *p, struct plan_opts *o, int r)
{
	/* Rolled back: nothing changed, so the values to revert to are the older ones. */
	bool undone = r < 0 && all_restored(p);

	if (!o->keep_prior)
		state_unstash_prior(o->run_fd, undone);
	if (undone && o->not_made)
		o->not_made(o, o->ctx);
	if (!plan_zeroed_counters(p))
		drop_snapshot(o);
}

/* The caller's step before the first write; on failure everything saved goes. */
static int step(struct plan_opts *o)
{
	if (!o->before_write || o->before_write(o, o->ctx) == 0)
		return 0;
	if (!o->keep_prior)
		state_unstash_prior(o->run_fd, true);
	drop_snapshot(o);
	o->refused = REFUSED_STEP;
	return -ECANCELED;
}

static const int held[] = { SIGINT, SIGTERM, SIGHUP };

static void hold_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		sigaddset(&block, held[i]);
	sigprocmask(SIG_BLOCK, &block, old);
}

/* One of them came while they were held (and the caller had not blocked it itself). */
static bool interrupted(const sigset_t *old)
{
	sigset_t pending;

	if (sigpending(&pending) < 0)
		return false;
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (sigismember(&pending, held[i]) == 1 && sigismember(old, held[i]) != 1)
			return true;
	return false;
}

bool plan_zeroed_counters(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (knob_change_zeroes_counters(&it->ref, &it->old, &it->want))
			return it->action == ACT_CHANGED || it->action == ACT_ROLLED_BACK ||
			       it->action == ACT_NOT_RESTORED;
	}
	return false;
}

int plan_execute(struct plan *p, struct plan_opts *o)
{
	sigset_t old;
	int r;

	o->snapshot_path[0] = o->why[0] = o->revert_id[0] = '\0';
	o->refused = REFUSED_NONE;
	o->forgot_prior = false;
	if (!plan_has_writes(p))
		return 0;
	/*
	 * From the first file saved to the last one put right, Ctrl-C or a
	 * unit's stop waits: a signal between the revert point and the first
	 * write would leave the revert point of a change that never happened
	 * (and lose the one before), one in the middle would cut all-or-nothing
	 * in half.
	 */
	hold_signals(&old);
	r = prepare(p, o);
	if (r == 0)
		r = step(o);
	if (r == 0 && interrupted(&old)) {
		if (!o->keep_prior)
			state_unstash_prior(o->run_fd, true);
		drop_snapshot(o);
		if (o->not_made)
			o->not_made(o, o->ctx);
		o->refused = REFUSED_SIGNAL;
		snprintf(o->why, sizeof(o->why), "interrupted before the first write");
		r = -ECANCELED;
	} else if (r == 0) {
		r = write_all(p);
		finish(p, o, r);
	}
	/* A signal that came meanwhile ends the run here, with everything in place. */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}
