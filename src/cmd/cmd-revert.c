// SPDX-License-Identifier: GPL-2.0-or-later
/* revert: write back the values saved before the last apply or set changed them. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "interleave.h"
#include "lock.h"
#include "log.h"
#include "plan-execute.h"
#include "profiles.h"
#include "report.h"
#include "state.h"
#include "statedir.h"
#include "try.h"
#include "why.h"

enum { OPT_DRY_RUN = OPT_CMD_BASE, OPT_FORCE, OPT_NO_SNAPSHOT, OPT_TRIAL };

struct revert_opts {
	bool dry_run, force, no_snapshot;
	const char *trial; /* --trial: only that trial's revert point */
};

static const struct cmd_option options[] = {
	{ "dry-run", no_argument, OPT_DRY_RUN, NULL, "show what would be restored, write nothing" },
	{ "force", no_argument, OPT_FORCE, NULL, "also restore knobs someone else changed since" },
	CMD_OPTION_NO_SNAPSHOT(OPT_NO_SNAPSHOT),
	{ "trial", required_argument, OPT_TRIAL, "<id>",
	  "revert only while trial <id> runs on its own revert\n"
	  "point (what a trial's armed revert runs)" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl revert [options]\n"
	      "\nRestore the values saved before the last 'apply' or 'set' changed them\n"
	      "(exactly as the kernel held them; all or nothing, like set), then forget them.\n"
	      "A knob changed since by someone else is left alone and named (exit 1).\n"
	      "A trial that runs on that revert point ends here, reverted.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl revert --help | less\n",
	      out);
}

static int forget(int dirfd, const char *dir)
{
	int r = state_clear_prior(dirfd);

	if (r < 0)
		log_warn("%s/" STATE_REVERT_FILE ": cannot remove: %s", dir, strerror(-r));
	return r;
}

static bool all_unchanged(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].action != ACT_UNCHANGED)
			return false;
	return true;
}

/* A side effect kept back because a knob was left alone (plan_keep_changed_since()). */
static void side_effects_kept(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].side_effect && p->items[i].action == ACT_NOT_WRITTEN)
			log_err("%s: not restored: it would undo the knobs left alone "
				"(--force restores it too)",
				p->items[i].ref.name);
}

/* Exit status and revert point once the restorable knobs are back (or would be). */
static int done(const struct plan *p, int dirfd, const char *dir, size_t left_alone, bool dry_run)
{
	if (left_alone) {
		side_effects_kept(p);
		return EXIT_FAIL; /* the revert point stays, for --force */
	}
	return dry_run || forget(dirfd, dir) >= 0 ? EXIT_OK : EXIT_FAIL;
}

/* *back: the restorable values are back (or were already), whatever was left alone. */
static int restore(struct plan *p, int dirfd, const char *dir, const char *what,
		   const struct revert_opts *ro, bool *back)
{
	struct plan_opts o = { .run_fd = dirfd,
			       .run_dir = dir,
			       .what = "revert",
			       .keep_prior = true,
			       .no_snapshot = ro->no_snapshot,
			       .data_dir = profiles_effective_data_dir() };
	char why[WHY_MAX];
	size_t left_alone;
	int r;

	if (plan_read_live(p) < 0) {
		plan_abandon(p);
		report_plan(p, false);
		log_err("nothing was restored: the saved values stay in %s", dir);
		return EXIT_FAIL;
	}
	if (interleave_plan_side_effects(p) < 0) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	if (interleave_plan_drop_auto(p, why, sizeof(why)) > 0)
		log_warn("%s", why);
	left_alone = ro->force ? 0 : plan_keep_changed_since(p);
	if (!plan_has_writes(p)) {
		if (cmd_global.json || !all_unchanged(p))
			report_plan(p, false);
		else
			log_info("nothing to restore: the live values already equal those saved "
				 "before %s\n",
				 what);
		*back = true;
		return done(p, dirfd, dir, left_alone, ro->dry_run);
	}
	if (ro->dry_run) {
		if (!cmd_global.json)
			log_info("would restore the values saved before %s:\n", what);
		if (report_plan(p, true) < 0)
			return EXIT_FAIL;
		return done(p, dirfd, dir, left_alone, true);
	}
	r = plan_execute(p, &o);
	if (r == -ECANCELED) {
		report_refusal(&o);
		return EXIT_FAIL;
	}
	if (!cmd_global.json)
		log_info("restoring the values saved before %s:\n", what);
	report_plan(p, false);
	report_plan_notes(p, &o);
	if (r < 0) {
		log_err("nothing was restored: every value written before the failure was put "
			"back; the saved values stay in %s",
			dir);
		return EXIT_FAIL;
	}
	*back = true;
	return done(p, dirfd, dir, left_alone, false);
}

/* The runtime directory: locked to write, or just opened to look (--dry-run). */
static int open_dir(struct state_lock *l, const char *dir, bool dry_run, char *why, size_t whylen)
{
	int fd;

	if (!dry_run)
		return lock_acquire(l, dir, why, whylen);
	*l = (struct state_lock){ .fd = -1, .dirfd = -1, .dir = dir };
	fd = statedir_open(dir, false, why, whylen);
	if (fd >= 0)
		l->dirfd = fd;
	return fd < 0 ? fd : 0;
}

/*
 * revert --trial ID acts only while trial ID runs on its own revert point:
 * never on a later change, never after a confirm.  EXIT_OK with *go when it
 * may, else the exit code after saying why (0: nothing to do by design).
 */
static int trial_gate(int dirfd, const char *dir, const char *id, int loaded,
		      const struct state_point *h, struct trial *t, bool *go)
{
	char why[WHY_MAX], at[32];
	int r = trial_load(dirfd, dir, t, why, sizeof(why));

	*go = false;
	if (r < 0 && r != -ENOENT && r != -EXDEV) {
		log_err("%s: nothing was restored", why);
		return EXIT_FAIL;
	}
	if (r < 0 || strcmp(t->point.id, id) != 0) {
		if (!cmd_global.json)
			log_line("trial %s is not the trial in %s (%s): nothing to revert", id, dir,
				 r < 0 ? "there is none" : "a later one replaced it");
		return EXIT_OK;
	}
	if (t->state != TRIAL_RUNNING) {
		try_time(t->ended_ns, at, sizeof(at));
		if (!cmd_global.json)
			log_line("trial %s was %s at %s: nothing to revert", id,
				 trial_state_name(t->state), at);
		return EXIT_OK;
	}
	if (loaded < 0 || strcmp(h->id, id) != 0) {
		log_err("trial %s: the revert point in %s is %s, not the trial's: nothing was "
			"restored (a trial never undoes a later change)",
			id, dir,
			loaded == -ENOENT ? "gone"
			: loaded < 0      ? "unreadable"
					  : "another's");
		return EXIT_FAIL;
	}
	if (!cmd_global.json)
		log_line("trial %s was not confirmed: reverting its change", id);
	*go = true;
	return EXIT_OK;
}

/* The trial to end with this revert: --trial's, or the one running on this revert point. */
static int find_trial(const struct state_lock *l, const char *dir, const struct revert_opts *ro,
		      int loaded, const struct state_point *h, struct trial *t, bool *go)
{
	int rc;

	*go = false;
	if (ro->trial) {
		rc = trial_gate(l->dirfd, dir, ro->trial, loaded, h, t, go);
		if (!*go)
			trial_free(t);
		return rc;
	}
	if (loaded >= 0 && !ro->dry_run)
		*go = try_running(l->dirfd, dir, h->id, t) == 1;
	return EXIT_OK;
}

static int revert(const char *dir, const struct revert_opts *ro)
{
	struct state_point h = { 0 };
	char what[sizeof(h.by) + sizeof(h.at) + 8], why[WHY_MAX];
	struct state_lock l;
	struct plan p = { 0 };
	struct trial t = { 0 };
	bool trial = false, back = false;
	int rc, r = open_dir(&l, dir, ro->dry_run, why, sizeof(why));

	if (r == 0)
		r = state_load_prior(l.dirfd, dir, &p, &h, why, sizeof(why));
	snprintf(what, sizeof(what), "'%s' at %s", h.by, h.at);
	if (l.dirfd >= 0) {
		rc = find_trial(&l, dir, ro, r, &h, &t, &trial);
		if (rc == EXIT_OK && ro->trial && !trial && cmd_global.json) {
			/* Nothing to do by design: still the one document, with no knob. */
			struct plan none = { 0 };

			rc = report_plan(&none, false) < 0 ? EXIT_FAIL : EXIT_OK;
		}
		if (rc != EXIT_OK || (ro->trial && !trial))
			goto out;
	}
	trial &= !ro->dry_run;
	/* The trial's window ends before its change is undone. */
	if (trial && trial_counters_read(&t.reading[TRIAL_END], why, sizeof(why)) < 0)
		log_warn("the trial's report ends without counters: %s", why);
	if (r == -ENOENT) {
		log_err("nothing to revert: no saved values in %s (apply and set save them "
			"before they change anything)",
			dir);
		rc = EXIT_FAIL;
	} else if (r < 0) {
		log_err("%s%s", why, r == -EXDEV || r == -EBADMSG ? ": nothing was restored" : "");
		rc = EXIT_FAIL;
	} else
		rc = restore(&p, l.dirfd, dir, what, ro, &back);
	if (trial && back && try_end(l.dirfd, dir, &t, TRIAL_REVERTED) == 0 && !ro->trial &&
	    !cmd_global.json)
		log_line("trial %s ends here: reverted", t.point.id);
out:
	lock_release(&l);
	plan_free(&p);
	trial_free(&t);
	return rc;
}

static int run(int argc, char *argv[])
{
	struct revert_opts ro = { 0 };
	int c, rc;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (c == OPT_DRY_RUN)
			ro.dry_run = true;
		else if (c == OPT_FORCE)
			ro.force = true;
		else if (c == OPT_NO_SNAPSHOT)
			ro.no_snapshot = true;
		else if (c == OPT_TRIAL && state_valid_id(optarg))
			ro.trial = optarg;
		else if (c == OPT_TRIAL) {
			log_usage_err("--trial '%s': not a trial id (digits, '-', 16 hex digits)",
				      optarg);
			return EXIT_USAGE;
		} else
			return EXIT_USAGE;
	}
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	if (!ro.dry_run && (rc = cmd_require_root_to_write()) != EXIT_OK)
		return rc;
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	return revert(cmd_run_dir(), &ro);
}

const struct cmd cmd_revert = {
	.name = "revert",
	.run = run,
	.summary = "restore the values saved before the last change",
	.usage = usage,
	.options = options,
};
