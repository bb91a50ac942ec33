// SPDX-License-Identifier: GPL-2.0-or-later
/* set KNOB=VALUE...: validate all, then write what differs, all or nothing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-set-file.h"
#include "cmd.h"
#include "interleave.h"
#include "knob-list.h"
#include "lock.h"
#include "log.h"
#include "out.h"
#include "plan-execute.h"
#include "profiles.h"
#include "report.h"
#include "try.h"
#include "why.h"

enum {
	OPT_DRY_RUN = OPT_CMD_BASE,
	OPT_NO_SNAPSHOT,
	OPT_NO_REVERT_POINT,
	OPT_MANAGED_ONLY,
	OPT_TRY,
	OPT_BASELINE,
	OPT_FOREGROUND,
};

static const struct cmd_option options[] = {
	{ "dry-run", no_argument, OPT_DRY_RUN, NULL, "show what would change, write nothing" },
	{ "file", required_argument, 'f', "<file>",
	  "read assignments in sysctl.d(5) syntax ('-' = stdin);\n"
	  "only NUMA knobs, globs allowed, '-key' excludes;\n"
	  "at most 1 MiB" },
	{ "managed-only", no_argument, OPT_MANAGED_ONLY, NULL,
	  "with -f: take only the keys numastatctl manages and\n"
	  "list the others as skipped (a whole sysctl.d file)" },
	CMD_OPTION_NO_SNAPSHOT(OPT_NO_SNAPSHOT),
	CMD_OPTION_NO_REVERT_POINT(OPT_NO_REVERT_POINT),
	TRY_OPTIONS(OPT_TRY, OPT_BASELINE, OPT_FOREGROUND),
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl set [options] <knob>=<value>...\n"
	      " numastatctl set [options] -f <file>\n"
	      "\nSet NUMA knobs: every assignment is checked before anything is written,\n"
	      "only values that differ are written, and a failed write restores the rest.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nA '-' before a knob name (after '--') skips it quietly where the kernel\n"
	      "lacks it: numastatctl set -- -vm.zone_distribute_mode=1\n"
	      "\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl set --help | less\n",
	      out);
}

/* "[-]knob=value" into the plan; prints the problem and returns -EINVAL. */
static int add_assignment(struct plan *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	bool optional = arg[0] == '-';
	char name[KNOB_NAME_MAX + 2], why[WHY_MAX];
	struct knob_ref ref;
	struct kval v;
	size_t len;

	if (!eq) {
		log_err("'%s': expected <knob>=<value>", arg);
		return -EINVAL;
	}
	len = (size_t)(eq - arg) - optional;
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, arg + optional, len);
	name[len] = '\0';
	if ((optional ? knob_lookup_optional(name, &ref, why, sizeof(why))
		      : knob_lookup(name, &ref, why, sizeof(why))) < 0 ||
	    knob_parse(&ref, eq + 1, &v, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return -EINVAL;
	}
	if (plan_add(p, &ref, &v, optional, NULL) < 0) {
		log_err("out of memory");
		return -ENOMEM;
	}
	return 0;
}

static bool restore_failed(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].action == ACT_NOT_RESTORED)
			return true;
	return false;
}

struct set_opts {
	bool dry_run, no_snapshot, no_revert_point;
	struct try_opts to;
	struct try_run tr;
};

static int execute(struct plan *p, const struct state_lock *l, struct set_opts *so)
{
	struct plan_opts o = { .run_fd = l->dirfd,
			       .run_dir = l->dir,
			       .what = "set",
			       .data_dir = profiles_effective_data_dir(),
			       .no_snapshot = so->no_snapshot,
			       .no_revert_point = so->no_revert_point };
	struct out_table *trial;
	int r;

	try_arm(&so->tr, &o);
	r = plan_execute(p, &o);
	if (r == -ECANCELED) {
		report_refusal(&o);
		return EXIT_FAIL;
	}
	try_made(&so->tr, r);
	trial = cmd_global.json ? try_json(&so->tr) : NULL;
	report_plan_trial(p, trial);
	out_table_free(trial);
	report_plan_notes(p, &o);
	if (r >= 0)
		report_boot_values(p);
	try_say(&so->tr);
	if (r < 0) {
		if (restore_failed(p))
			log_err("not every value could be restored: see the knobs above");
		else
			log_err("nothing was changed: every value written before the failure was restored");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Under the lock (unless --dry-run): read, plan, write. */
static int transact(struct plan *p, struct set_opts *so)
{
	struct state_lock l = { .fd = -1, .dirfd = -1 };
	char why[WHY_MAX];
	int rc;

	if (!so->dry_run && lock_acquire(&l, cmd_run_dir(), why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	if (!so->dry_run && try_refuse_running(l.dirfd, l.dir) != EXIT_OK)
		rc = EXIT_FAIL;
	else if (plan_read_live(p) < 0) {
		plan_abandon(p);
		report_plan(p, false);
		report_missing_hint(p);
		log_err("nothing was changed");
		rc = EXIT_FAIL;
	} else if (interleave_plan_check_live(p, why, sizeof(why)) < 0) {
		log_err("%s", why);
		rc = EXIT_USAGE;
	} else if (interleave_plan_side_effects(p) < 0 || interleave_plan_save_weights(p) < 0) {
		log_err("out of memory");
		rc = EXIT_FAIL;
	} else if (so->dry_run) {
		rc = report_plan(p, true) < 0 ? EXIT_FAIL : EXIT_OK;
		report_dry_run_notes(p, profiles_effective_data_dir(), so->no_snapshot);
		report_boot_values(p);
	} else
		rc = execute(p, &l, so);
	lock_release(&l);
	return rc;
}

static int run(int argc, char *argv[])
{
	struct set_opts so = { 0 };
	bool bad = false, nomem = false, managed_only = false;
	const char *files[16];
	size_t nfiles = 0;
	struct plan p = { 0 };
	char why[WHY_MAX];
	int c, rc;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_DRY_RUN:
			so.dry_run = true;
			break;
		case OPT_NO_SNAPSHOT:
			so.no_snapshot = true;
			break;
		case OPT_NO_REVERT_POINT:
			so.no_revert_point = true;
			break;
		case OPT_MANAGED_ONLY:
			managed_only = true;
			break;
		case OPT_TRY:
		case OPT_BASELINE:
			if (try_parse(&so.to, c == OPT_BASELINE, optarg) != EXIT_OK)
				return EXIT_USAGE;
			break;
		case OPT_FOREGROUND:
			so.to.foreground = true;
			break;
		case 'f':
			if (nfiles == sizeof(files) / sizeof(files[0])) {
				log_usage_err("at most %zu --file options", nfiles);
				return EXIT_USAGE;
			}
			files[nfiles++] = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc && nfiles == 0) {
		log_usage_err("no assignment given: expected <knob>=<value>");
		return EXIT_USAGE;
	}
	if (managed_only && nfiles == 0) {
		log_usage_err("--managed-only goes with -f <file>");
		return EXIT_USAGE;
	}
	if (try_check(&so.to, so.dry_run           ? "--dry-run"
			      : so.no_revert_point ? "--no-revert-point"
						   : NULL) != EXIT_OK)
		return EXIT_USAGE;
	if (!so.dry_run && (rc = cmd_require_root_to_write()) != EXIT_OK)
		return rc;
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	/* Files first, so the command line has the last word. */
	for (size_t i = 0; i < nfiles && !nomem; i++) {
		int r = cmd_set_file_add(&p, files[i], managed_only);

		bad |= r < 0;
		nomem |= r == -ENOMEM;
	}
	for (int i = optind; i < argc && !nomem; i++) {
		int r = add_assignment(&p, argv[i]);

		bad |= r < 0;
		nomem |= r == -ENOMEM;
	}
	if (!bad && !nomem && interleave_plan_check(&p, why, sizeof(why)) < 0) {
		log_err("%s", why);
		bad = true;
	}
	/* Out of memory is no usage error: the same command may work later. */
	rc = nomem ? EXIT_FAIL : bad ? EXIT_USAGE : try_begin(&so.tr, &so.to, &p);
	if (rc == EXIT_OK)
		rc = try_wait(&so.tr, transact(&p, &so));
	try_free(&so.tr);
	plan_free(&p);
	return rc;
}

const struct cmd cmd_set = {
	.name = "set",
	.run = run,
	.summary = "set knobs (validated, all or nothing)",
	.usage = usage,
	.options = options,
};
