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

int plan_execute(struct plan *p, struct plan_opts *o)
{
	sigset_t block, old;
	int r;

	o->snapshot_path[0] = o->why[0] = o->revert_id[0] = '\0';
	o->refused = REFUSED_NONE;
	o->forgot_prior = false;
	if (!plan_has_writes(p))
		return 0;
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
	/* All-or-nothing must not be cut in half by Ctrl-C or a unit's stop. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	r = write_all(p);
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* Rolled back: nothing changed, so the values to revert to are the older ones. */
	if (!o->keep_prior)
		state_unstash_prior(o->run_fd, r < 0 && all_restored(p));
	return r;
}
