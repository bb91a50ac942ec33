// SPDX-License-Identifier: GPL-2.0-or-later
/* status (the default command): the knobs in words, and what needs attention. */
#include <errno.h>
#include <string.h>

#include "cmd.h"
#include "cmd-profiles.h"
#include "knob-list.h"
#include "log.h"
#include "output.h"
#include "stat.h"
#include "sysfs.h"

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl status [options]\n"
	      " numastatctl [options]\n"
	      "\nShow the NUMA knobs with their meaning and warn about what needs attention.\n", out);
	usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n", out);
}

struct live_knob {
	struct knob_ref ref;
	struct kval v;
	bool present;
};

static bool live_is(const struct live_knob *lk, size_t n, const char *name, const char *value)
{
	for (size_t i = 0; i < n; i++)
		if (lk[i].present && strcmp(lk[i].ref.name, name) == 0)
			return strcmp(lk[i].v.text, value) == 0;
	return false;
}

static void warnings(const struct live_knob *lk, size_t n)
{
	if (live_is(lk, n, "vm.numa_stat", "0"))
		log_warn("vm.numa_stat is 0: NUMA counters are frozen at zero");
	if (live_is(lk, n, "kernel.numa_balancing", "2") ||
	    live_is(lk, n, "kernel.numa_balancing", "3"))
		if (live_is(lk, n, "mm.numa.demotion_enabled", "0"))
			log_warn("kernel.numa_balancing tiering mode promotes pages, but "
				 "mm.numa.demotion_enabled is off: nothing demotes them again");
	for (size_t i = 0; i < n; i++) {
		char allowed[200], why[320];
		struct kval tmp;

		if (!lk[i].present || !lk[i].ref.knob)
			continue;
		if (knob_parse(&lk[i].ref, lk[i].v.text, &tmp, why, sizeof(why)) < 0) {
			knob_allowed(lk[i].ref.knob, allowed, sizeof(allowed));
			log_warn("%s is %s, outside what numastatctl sets (%s)", lk[i].ref.name,
				 lk[i].v.text, allowed);
		}
	}
}

static int knob_table_print(const struct live_knob *lk, size_t n)
{
	char why[256], vbuf[KVAL_MAX], meaning[256];
	struct out_table *t;
	int r = out_table_new(&t, "knobs", G.json ? OUT_JSON : 0, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return r;
	}
	out_table_add_column(t, "KNOB", 0, 0);
	out_table_add_column(t, "VALUE", 0, OUT_COL_RIGHT);
	out_table_add_column(t, "MEANING", 0, OUT_COL_TRUNC);
	for (size_t i = 0; i < n; i++) {
		struct out_row *row;

		if (!lk[i].present)
			continue;
		row = out_table_add_row(t);
		if (!row)
			break;
		knob_describe(&lk[i].ref, &lk[i].v, meaning, sizeof(meaning));
		out_row_set(row, 0, lk[i].ref.name);
		out_row_set(row, 1, knob_display(&lk[i].ref, &lk[i].v, vbuf, sizeof(vbuf)));
		out_row_set(row, 2, meaning[0] ? meaning : lk[i].ref.knob->help);
	}
	r = out_table_print(t, stdout);
	out_table_free(t);
	return r;
}

static int run(int argc, char *argv[])
{
	struct live_knob lk[32];
	struct knob_list all = { 0 };
	size_t n = 0;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, "", NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		return EXIT_USAGE;
	}
	if (optind < argc) {
		log_usage_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	if (knob_list_build(&all, false) < 0)
		return EXIT_FAIL;
	for (size_t i = 0; i < all.n && n < sizeof(lk) / sizeof(lk[0]); i++, n++) {
		lk[n].ref = all.refs[i];
		lk[n].present = knob_read(&lk[n].ref, &lk[n].v) == 0;
	}
	knob_list_free(&all);
	rc = knob_table_print(lk, n) < 0 ? EXIT_FAIL : EXIT_OK;
	profiles_status();
	if (stat_status_summary() != EXIT_OK)
		rc = EXIT_FAIL;
	warnings(lk, n);
	return rc;
}

const struct cmd cmd_status = { "status", run, "knobs in words, profile drift, warnings (default)", usage };
