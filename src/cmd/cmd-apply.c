// SPDX-License-Identifier: GPL-2.0-or-later
/* apply [PROFILE]: check the whole configuration, then write what differs, all or nothing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "interleave.h"
#include "lock.h"
#include "log.h"
#include "out.h"
#include "plan-execute.h"
#include "profiles.h"
#include "report.h"
#include "sysctld.h"
#include "try.h"
#include "tuned.h"
#include "why.h"

enum {
	OPT_DRY_RUN = OPT_CMD_BASE,
	OPT_CHECK,
	OPT_NO_SNAPSHOT,
	OPT_NO_REVERT_POINT,
	OPT_TRY,
	OPT_BASELINE,
	OPT_FOREGROUND,
};

struct apply_opts {
	bool dry_run, check, no_snapshot, no_revert_point;
	const char *name;
	struct try_opts to;
	struct try_run tr;
};

static const struct cmd_option options[] = {
	{ "dry-run", no_argument, OPT_DRY_RUN, NULL, "show what would change, write nothing" },
	{ "check", no_argument, OPT_CHECK, NULL,
	  "write nothing; exit 3 when the live system differs" },
	CMD_OPTION_NO_SNAPSHOT(OPT_NO_SNAPSHOT),
	CMD_OPTION_NO_REVERT_POINT(OPT_NO_REVERT_POINT),
	TRY_OPTIONS(OPT_TRY, OPT_BASELINE, OPT_FOREGROUND),
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl apply [options] [<profile>]\n"
	      "\nApply a profile of numastatctl.conf (by default the one named by 'profile ='\n"
	      "under [numastatctl]).  The whole configuration is checked before anything is\n"
	      "written, only values that differ are written, and a failed write restores the\n"
	      "rest.  'numastatctl revert' restores the values from before.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nExit status: 0 done (or no drift), 1 failed and rolled back, 2 usage or\n"
	      "configuration error (nothing written), 3 drift found by --check.\n"
	      "\nFor more details see numastatctl(8) and numastatctl.conf(5).\n"
	      "This help from its top, a page at a time: numastatctl apply --help | less\n",
	      out);
}

/*
 * "vm.numa_stat is 1, profile wants 0 (FILE:LINE)" for every drifting knob,
 * and a warning for every knob sysctl.d or tuned sets otherwise: it is no
 * drift yet, but `sysctl --system`, a boot without the unit or tuned's start
 * makes one.
 */
static int check(const struct plan *p, const char *name)
{
	struct sysctld_conflicts conflicts = { 0 };
	struct tuned_conflicts tunedc = { 0 };
	struct tuned_state tuned;
	char a[KVAL_MAX], b[KVAL_MAX], problem[128];
	size_t n = 0;
	int r;

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action != ACT_WRITE)
			continue;
		n++;
		if (!cmd_global.json)
			log_info("%s is %s, profile %s wants %s (%s)\n", it->ref.name,
				 knob_display(&it->ref, &it->old, a, sizeof(a)), name,
				 knob_display(&it->ref, &it->want, b, sizeof(b)), it->origin);
	}
	profiles_neighbours(p, &conflicts, &tuned, &tunedc, problem, sizeof(problem));
	if (problem[0])
		log_warn("%s", problem);
	report_sysctld_conflicts(&conflicts, name, sysctld_boot_unit_enabled());
	report_tuned_conflicts(&tunedc, &tuned, name);
	r = cmd_global.json ? report_plan_with(p, true, &conflicts) : 0;
	tuned_conflicts_free(&tunedc);
	sysctld_conflicts_free(&conflicts);
	if (r < 0)
		return EXIT_FAIL;
	if (!cmd_global.json && n)
		log_info("profile %s: %zu knob%s differ%s\n", name, n, n == 1 ? "" : "s",
			 n == 1 ? "s" : "");
	else if (!cmd_global.json)
		log_info("profile %s: the live system matches\n", name);
	return n ? EXIT_DRIFT : EXIT_OK;
}

static int execute(struct plan *p, struct apply_opts *o, const struct state_lock *l,
		   const char *data_dir)
{
	struct out_table *trial;
	char what[128];
	struct plan_opts po = { .run_fd = l->dirfd,
				.run_dir = l->dir,
				.data_dir = data_dir,
				.no_snapshot = o->no_snapshot,
				.no_revert_point = o->no_revert_point,
				.what = what };
	int r;

	snprintf(what, sizeof(what), "apply %s", o->name);
	try_arm(&o->tr, &po);
	r = plan_execute(p, &po);
	if (r == -ECANCELED) {
		report_refusal(&po);
		return EXIT_FAIL;
	}
	try_made(&o->tr, r);
	trial = cmd_global.json ? try_json(&o->tr) : NULL;
	report_plan_trial(p, trial);
	out_table_free(trial);
	report_plan_notes(p, &po);
	try_say(&o->tr);
	if (r < 0) {
		log_err("profile %s was not applied: every value written before the failure "
			"was restored",
			o->name);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Under the lock (unless nothing is written): read, plan, write. */
static int transact(struct plan *p, struct apply_opts *o, const char *data_dir)
{
	struct state_lock l = { .fd = -1, .dirfd = -1 };
	bool writes = !o->dry_run && !o->check;
	char why[WHY_MAX];
	int rc;

	if (writes && lock_acquire(&l, cmd_run_dir(), why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	if (writes && try_refuse_running(l.dirfd, l.dir) != EXIT_OK)
		rc = EXIT_FAIL;
	else if (plan_read_live(p) < 0) {
		/* Only --dry-run and --check may word the plan as what would happen. */
		if (!o->dry_run && !o->check)
			plan_abandon(p);
		report_plan(p, o->dry_run || o->check);
		report_missing_hint(p);
		log_err("profile %s was not applied: nothing was changed", o->name);
		rc = EXIT_FAIL;
	} else if (o->check)
		rc = check(p, o->name);
	else if (interleave_plan_check_live(p, why, sizeof(why)) < 0) {
		log_err("profile %s: %s: nothing was changed", o->name, why);
		rc = EXIT_USAGE;
	} else if (interleave_plan_side_effects(p) < 0 || interleave_plan_save_weights(p) < 0) {
		log_err("out of memory");
		rc = EXIT_FAIL;
	} else if (o->dry_run) {
		rc = report_plan(p, true) < 0 ? EXIT_FAIL : EXIT_OK;
		report_dry_run_notes(p, data_dir, o->no_snapshot);
	} else
		rc = execute(p, o, &l, data_dir);
	lock_release(&l);
	return rc;
}

/* Run by systemd as a unit (the boot unit): its journal is where an admin looks. */
static bool in_unit(void)
{
	const char *id = getenv("INVOCATION_ID");

	return id && id[0] && !cmd_global.json;
}

/* After the boot apply: tuned undoes the profile when it starts, said as status says it. */
static void tuned_after(const struct plan *p, const char *name)
{
	struct sysctld_conflicts conflicts = { 0 };
	struct tuned_conflicts tunedc = { 0 };
	struct tuned_state tuned;
	char problem[128];

	profiles_neighbours(p, &conflicts, &tuned, &tunedc, problem, sizeof(problem));
	if (problem[0])
		log_warn("%s", problem);
	report_tuned_conflicts(&tunedc, &tuned, name);
	tuned_conflicts_free(&tunedc);
	sysctld_conflicts_free(&conflicts);
}

static int apply(const struct profile_config *c, struct apply_opts *o)
{
	bool configured = !o->name;
	struct profile_resolved r;
	struct plan p = { 0 };
	char why[WHY_MAX];
	int rc;

	if (!o->name && !c->default_at.line) {
		log_err("no profile given, and none is configured: name one, or set 'profile =' "
			"under [numastatctl] in the configuration");
		return EXIT_USAGE;
	}
	if (!o->name)
		o->name = c->default_profile;
	if (configured && in_unit()) {
		char at[4200];

		profile_origin(c, c->default_at, at, sizeof(at));
		log_info("profile %s, as %s names it\n", o->name, at);
	}
	if (profile_resolve(c, o->name, &r, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_USAGE;
	}
	if (profile_plan(c, &r, &p) < 0) {
		log_err("%s", strerror(ENOMEM));
		rc = EXIT_FAIL;
	} else if (interleave_plan_check(&p, why, sizeof(why)) < 0) {
		log_err("profile %s: %s: nothing was changed", o->name, why);
		rc = EXIT_USAGE;
	} else if (!p.n && !cmd_global.json) {
		log_info("profile %s sets no knobs\n", o->name);
		rc = EXIT_OK;
	} else if ((rc = try_begin(&o->tr, &o->to, &p)) == EXIT_OK) {
		rc = try_wait(&o->tr, transact(&p, o, profiles_data_dir(c)));
		if (rc == EXIT_OK && configured && !o->dry_run && !o->check && in_unit())
			tuned_after(&p, o->name);
	}
	plan_free(&p);
	profile_resolved_free(&r);
	return rc;
}

static int parse_options(int argc, char *argv[], struct apply_opts *o)
{
	int c;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return -1;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case OPT_NO_SNAPSHOT:
			o->no_snapshot = true;
			break;
		case OPT_NO_REVERT_POINT:
			o->no_revert_point = true;
			break;
		case OPT_TRY:
		case OPT_BASELINE:
			if (try_parse(&o->to, c == OPT_BASELINE, optarg) != EXIT_OK)
				return EXIT_USAGE;
			break;
		case OPT_FOREGROUND:
			o->to.foreground = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (o->dry_run && o->check) {
		log_usage_err("--dry-run and --check exclude each other");
		return EXIT_USAGE;
	}
	if (try_check(&o->to, o->dry_run           ? "--dry-run"
			      : o->check           ? "--check"
			      : o->no_revert_point ? "--no-revert-point"
						   : NULL) != EXIT_OK)
		return EXIT_USAGE;
	if (argc - optind > 1) {
		log_usage_err("unexpected argument '%s': apply takes one profile",
			      argv[optind + 1]);
		return EXIT_USAGE;
	}
	o->name = optind < argc ? argv[optind] : NULL;
	return EXIT_OK;
}

static int run(int argc, char *argv[])
{
	struct apply_opts o = { 0 };
	struct profile_config c = { 0 };
	int rc = parse_options(argc, argv, &o);

	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	if (!o.dry_run && !o.check && (rc = cmd_require_root_to_write()) != EXIT_OK)
		return rc;
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	rc = profiles_load(&c, true);
	if (rc == EXIT_OK)
		rc = apply(&c, &o);
	else if (rc == EXIT_USAGE)
		log_err("nothing was changed: fix the configuration first");
	try_free(&o.tr);
	profile_config_free(&c);
	return rc;
}

const struct cmd cmd_apply = {
	.name = "apply",
	.run = run,
	.summary = "apply a profile (--dry-run, --check, all or nothing)",
	.usage = usage,
	.options = options,
};
