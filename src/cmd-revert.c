// SPDX-License-Identifier: GPL-2.0-or-later
/* revert: write back the values saved before the last apply or set changed them. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd-profiles.h"
#include "lock.h"
#include "log.h"
#include "plan.h"
#include "report.h"
#include "state.h"

enum { OPT_DRY_RUN = OPT_CMD_BASE };

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl revert [options]\n"
	      "\nRestore the values saved before the last 'apply' or 'set' changed them\n"
	      "(all or nothing, like set), then forget them.\n"
	      "\nOptions:\n"
	      "     --dry-run          show what would be restored, write nothing\n", out);
	usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n", out);
}

static int restore(struct plan *p, const char *dir, const char *what, bool dry_run)
{
	struct plan_opts o = { .state_dir = dir, .what = "revert", .keep_prior = true };
	int r;

	if (plan_read_live(p) < 0) {
		report_plan(p, true);
		log_err("nothing was restored: the saved values stay in %s", dir);
		return EXIT_FAIL;
	}
	if (!plan_has_writes(p)) {
		if (G.json)
			report_plan(p, false);
		else
			log_info("nothing to restore: the live values already equal those saved "
				 "before %s\n", what);
		return dry_run || state_clear_prior(dir) == 0 ? EXIT_OK : EXIT_FAIL;
	}
	if (!G.json)
		log_info("%s the values saved before %s:\n", dry_run ? "would restore" : "restoring",
			 what);
	if (dry_run)
		return report_plan(p, true) < 0 ? EXIT_FAIL : EXIT_OK;
	r = plan_execute(p, &o);
	if (r == -ECANCELED) {
		log_err("vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters: %s",
			o.state_warning);
		return EXIT_FAIL;
	}
	report_plan(p, false);
	report_plan_notes(&o);
	if (r < 0) {
		log_err("nothing was restored: every value written before the failure was put "
			"back; the saved values stay in %s", dir);
		return EXIT_FAIL;
	}
	if ((r = state_clear_prior(dir)) < 0)
		log_warn("%s/revert: cannot remove: %s", dir, strerror(-r));
	return EXIT_OK;
}

static int revert(const char *dir, bool dry_run)
{
	char what[256], why[1024];
	struct plan p = { 0 };
	int lock = -1, rc, r;

	if (!dry_run && (lock = lock_acquire(dir, why, sizeof(why))) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	r = state_load_prior(dir, &p, what, sizeof(what), why, sizeof(why));
	if (r == -ENOENT) {
		log_err("nothing to revert: no saved values in %s (apply and set save them "
			"before they change anything)", dir);
		rc = EXIT_FAIL;
	} else if (r < 0) {
		log_err("%s", why);
		rc = EXIT_FAIL;
	} else
		rc = restore(&p, dir, what, dry_run);
	if (lock >= 0)
		close(lock);
	plan_free(&p);
	return rc;
}

static int run(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ NULL, 0, NULL, 0 },
	};
	bool dry_run = false;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, "", opts)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (c != OPT_DRY_RUN)
			return EXIT_USAGE;
		dry_run = true;
	}
	if (optind < argc) {
		log_usage_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	return revert(profiles_effective_state_dir(), dry_run);
}

const struct cmd cmd_revert = {
	"revert", run, "restore the values saved before the last change", usage
};
