// SPDX-License-Identifier: GPL-2.0-or-later
/* confirm [ID]: keep the change of the running trial; its armed revert is stopped. */
#include <errno.h>
#include <string.h>

#include "cmd.h"
#include "lock.h"
#include "log.h"
#include "out.h"
#include "profiles.h"
#include "trial-timer.h"
#include "try.h"
#include "why.h"

enum { OPT_FORCE = OPT_CMD_BASE };

static const struct cmd_option options[] = {
	{ "force", no_argument, OPT_FORCE, NULL,
	  "confirm though restarting the failed boot unit undoes it" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl confirm [options] [<id>]\n"
	      "\nKeep the change of the trial that runs (set --try, apply --try): its armed\n"
	      "revert is stopped, and 'numastatctl revert' still undoes the change.  With\n"
	      "<id>, only that trial.  When numastatctl.service failed during the trial,\n"
	      "confirming starts it again; when its profile sets a knob of the trial\n"
	      "otherwise, nothing is confirmed without --force.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nExit status: 0 confirmed (or confirmed already), 1 no trial runs, it was\n"
	      "reverted already or the boot unit's restart would undo it, 2 usage error.\n"
	      "\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl confirm --help | less\n",
	      out);
}

/* The trial in dir, when one runs and it is id's (NULL: any): EXIT_OK, else said. */
static int runs(struct state_lock *l, const char *id, struct trial *t, bool *done)
{
	char why[WHY_MAX], at[32];
	int r = trial_load(l->dirfd, l->dir, t, why, sizeof(why));

	*done = false;
	if (r == -ENOENT || r == -EXDEV) {
		log_err("no trial to confirm in %s (set --try and apply --try make one)", l->dir);
		return EXIT_FAIL;
	}
	if (r < 0) {
		log_err("%s: nothing was confirmed", why);
		return EXIT_FAIL;
	}
	if (id && strcmp(id, t->point.id) != 0) {
		log_err("trial %s is not the last trial in %s (that is %s): nothing was confirmed",
			id, l->dir, t->point.id);
		return EXIT_FAIL;
	}
	try_time(t->ended_ns, at, sizeof(at));
	if (t->state == TRIAL_CONFIRMED) {
		/* -J: the document alone on stdout, as for a first confirm. */
		if (!cmd_global.json)
			log_line("trial %s was confirmed already, at %s", t->point.id, at);
		*done = true;
		return EXIT_OK;
	}
	if (t->state == TRIAL_REVERTED) {
		log_err("too late: trial %s was reverted at %s: the values from before it are back",
			t->point.id, at);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * What starting the failed boot unit again does to the trial's change: its
 * apply of the configured profile writes the profile's value over each
 * knob of the trial the profile sets otherwise.  Those as "KNOB TRIAL ->
 * PROFILE, ..." into buf, and the profile's name into name; false when
 * there is none (no profile configured, or one that cannot be read: the
 * unit then fails again and writes nothing).
 */
static bool restart_undoes(const struct trial *t, char *buf, size_t len, char *name, size_t namelen)
{
	struct profile_config c = { 0 };
	struct profile_resolved r;
	struct plan p = { 0 };
	char why[WHY_MAX];
	size_t n = 0;

	*buf = '\0';
	if (profiles_load(&c, false) == EXIT_OK && c.default_at.line &&
	    profile_resolve(&c, c.default_profile, &r, why, sizeof(why)) == 0) {
		snprintf(name, namelen, "%s", c.default_profile);
		if (profile_plan(&c, &r, &p) == 0)
			for (size_t i = 0; i < p.n; i++)
				for (size_t k = 0; k < t->n_knobs; k++) {
					const struct trial_knob *tk = &t->knobs[k];

					if (strcmp(p.items[i].ref.name, tk->name) != 0 ||
					    strcmp(p.items[i].want.text, tk->written) == 0)
						continue;
					snprintf(buf + n, len - n, "%s%s %s -> %s", n ? ", " : "",
						 tk->name, tk->written, p.items[i].want.text);
					n += strlen(buf + n);
				}
		plan_free(&p);
		profile_resolved_free(&r);
	}
	profile_config_free(&c);
	return n > 0;
}

/*
 * Refuse (EXIT_FAIL, said) to confirm a trial whose change the boot unit's
 * restart would undo, unless forced; *undone says what the restart writes
 * ("" when nothing of the trial's).
 */
static int check_boot_unit(const struct trial *t, bool force, char *undone, size_t len)
{
	char why[WHY_MAX], name[PROFILE_NAME_MAX] = "";
	int r = trial_timer_boot_unit_failed(why, sizeof(why));

	*undone = '\0';
	if (r < 0)
		log_warn("cannot tell whether " TRIAL_BOOT_UNIT " failed (%s)", why);
	if (r <= 0 || !restart_undoes(t, undone, len, name, sizeof(name)) || force)
		return EXIT_OK;
	log_err(TRIAL_BOOT_UNIT
		" failed during the trial (a restart of systemd-sysctl restarts "
		"it, and it changes nothing while a trial runs); confirming starts it again, "
		"and its apply of profile '%s' writes %s over trial %s's change: nothing was "
		"confirmed; 'numastatctl confirm --force' confirms and starts it all the same, "
		"'numastatctl revert' undoes the trial now",
		name, undone, t->point.id);
	return EXIT_FAIL;
}

/* {"trial": {...}, "knobs": [...]}: the trial as it ended. */
static int print_json(const struct trial *t)
{
	char why[WHY_MAX] = "";
	struct out_doc *d = NULL;
	int r = out_doc_new(&d, 0);

	if (r == 0 && (r = try_trial_json(t, "knobs", d, why, sizeof(why))) == 0)
		r = out_doc_print(d, stdout);
	if (r < 0 && r != -EIO)
		log_err("cannot print JSON: %s", *why ? why : strerror(-r));
	out_doc_free(d);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

static int confirm(const char *id, bool force)
{
	char why[WHY_MAX], knobs[1024], revert_id[STATE_ID_MAX], undone[1024] = "";
	struct state_lock l;
	struct trial t = { 0 };
	bool done;
	int rc;

	if (lock_acquire(&l, cmd_run_dir(), why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	rc = runs(&l, id, &t, &done);
	if (rc == EXIT_OK && !done)
		try_revert_id(l.dirfd, l.dir, revert_id, sizeof(revert_id));
	if (rc == EXIT_OK && !done && strcmp(revert_id, t.point.id) != 0) {
		log_err("trial %s no longer runs on its revert point (a change without one came "
			"since): nothing was confirmed",
			t.point.id);
		rc = EXIT_FAIL;
	} else if (rc == EXIT_OK && !done &&
		   (rc = check_boot_unit(&t, force, undone, sizeof(undone))) != EXIT_OK) {
		/* said */
	} else if (rc == EXIT_OK && !done && try_end(l.dirfd, l.dir, &t, TRIAL_CONFIRMED) < 0) {
		log_err("trial %s was not confirmed: its revert still runs when its time is up",
			t.point.id);
		rc = EXIT_FAIL;
	} else if (rc == EXIT_OK && !done && !cmd_global.json) {
		try_knobs_text(&t, knobs, sizeof(knobs));
		size_t cols, rows;

		/* Folded on a terminal (the one a --foreground trial waits in too). */
		out_terminal_size(&cols, &rows);
		if (*undone)
			log_info_wrapped(cols, 2,
					 "trial %s confirmed (--force): " TRIAL_BOOT_UNIT
					 " runs again and writes %s over the change (%s)",
					 t.point.id, undone, knobs);
		else
			log_info_wrapped(cols, 2,
					 "trial %s confirmed: the change stays (%s); 'numastatctl "
					 "revert' still undoes it",
					 t.point.id, knobs);
	}
	if (rc == EXIT_OK && cmd_global.json)
		rc = print_json(&t);
	lock_release(&l);
	trial_free(&t);
	return rc;
}

static int run(int argc, char *argv[])
{
	const char *id = NULL;
	bool force = false;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (c != OPT_FORCE)
			return EXIT_USAGE;
		force = true;
	}
	if (optind < argc) {
		id = argv[optind++];
		if (!state_valid_id(id)) {
			log_usage_err("'%s': not a trial id (digits, '-', 16 hex digits)", id);
			return EXIT_USAGE;
		}
	}
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	if ((rc = cmd_require_root_to_write()) != EXIT_OK)
		return rc;
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	return confirm(id, force);
}

const struct cmd cmd_confirm = {
	.name = "confirm",
	.run = run,
	.summary = "keep the change of the running trial (--try)",
	.usage = usage,
	.options = options,
};
