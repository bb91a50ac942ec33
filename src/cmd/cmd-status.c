// SPDX-License-Identifier: GPL-2.0-or-later
/* status (the default command): the knobs in words, and what needs attention. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-stat.h"
#include "cmd.h"
#include "counters.h"
#include "knob-list.h"
#include "log.h"
#include "out.h"
#include "profiles.h"
#include "report.h"
#include "stat-balance.h"
#include "stat-counters.h"
#include "statedir.h"
#include "status-interact.h"
#include "status-tiers.h"
#include "try.h"
#include "tuned.h"
#include "why.h"

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl status [options]\n"
	      " numastatctl [options]\n"
	      "\nShow the NUMA knobs with their meaning and warn about what needs attention.\n"
	      "With -J: one JSON document with the knobs, the profile and its drift,\n"
	      "the per-node locality and the warnings.\n",
	      out);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n", out);
}

struct live_knob {
	struct knob_ref ref;
	struct kval v;
	bool present;
};

#define STATUS_MAX_WARNINGS 32

/* Everything status shows, read once; printed as text or as one JSON document. */
struct status {
	struct live_knob lk[32];
	size_t n;
	struct profile_state prof;
	bool unit_enabled; /* numastatctl.service runs after systemd-sysctl */
	struct stat_balance_status bal;
	struct stat_summary sum;
	struct status_tiers tiers;
	struct status_interact interact;
	struct trial trial; /* the running or last trial, when have_trial */
	bool have_trial, trial_runs;
	char *warnings[STATUS_MAX_WARNINGS];
	size_t n_warnings;
};

/* A warning: said on stderr after the output, and in the JSON "warnings" array. */
static void warn(struct status *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct status *st, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text)
		return;
	if (st->n_warnings < STATUS_MAX_WARNINGS)
		st->warnings[st->n_warnings++] = text;
	else
		free(text);
}

static bool live_is(const struct status *st, const char *name, const char *value)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->lk[i].present && strcmp(st->lk[i].ref.name, name) == 0)
			return strcmp(st->lk[i].v.text, value) == 0;
	return false;
}

static bool counters_frozen(const struct status *st)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->lk[i].present && knob_freezes_counters(&st->lk[i].ref, &st->lk[i].v))
			return true;
	return false;
}

static void knob_warnings(struct status *st)
{
	if (counters_frozen(st))
		warn(st, "%s", counters_frozen_text());
	if (live_is(st, "kernel.numa_balancing", "2") || live_is(st, "kernel.numa_balancing", "3"))
		if (live_is(st, "mm.numa.demotion_enabled", "0"))
			warn(st, "kernel.numa_balancing tiering mode promotes pages, but "
				 "mm.numa.demotion_enabled is off: nothing demotes them again");
	for (size_t i = 0; i < st->n; i++) {
		const struct live_knob *lk = &st->lk[i];
		char allowed[200], why[WHY_MAX];
		struct kval tmp;

		if (!lk->present || !lk->ref.knob)
			continue;
		if (knob_parse(&lk->ref, lk->v.text, &tmp, why, sizeof(why)) < 0) {
			knob_allowed(lk->ref.knob, allowed, sizeof(allowed));
			warn(st, "%s is %s, outside what numastatctl sets (%s)", lk->ref.name,
			     lk->v.text, allowed);
		}
	}
}

/* The knob table: KNOB for people, "name" in JSON (the key every command uses). */
static int knobs_out(const struct status *st, unsigned flags, struct out_table **tp)
{
	char why[WHY_MAX], vbuf[KVAL_MAX], meaning[256];
	struct out_table *t;
	int r = out_table_new(&t, "knobs", flags, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return r;
	}
	out_table_add_column(t, (flags & OUT_JSON) ? "NAME" : "KNOB", 0, 0);
	out_table_add_column(t, "VALUE", 0, OUT_COL_RIGHT);
	out_table_add_column(t, "MEANING", 0, OUT_COL_WRAP);
	for (size_t i = 0; i < st->n; i++) {
		const struct live_knob *lk = &st->lk[i];
		struct out_row *row;

		if (!lk->present)
			continue;
		if (!(row = out_table_add_row(t)))
			break;
		knob_describe(&lk->ref, &lk->v, meaning, sizeof(meaning));
		out_row_set(row, 0, lk->ref.name);
		out_row_set(row, 1, knob_display(&lk->ref, &lk->v, vbuf, sizeof(vbuf)));
		out_row_set(row, 2, meaning[0] ? meaning : lk->ref.knob->help);
	}
	*tp = t;
	return 0;
}

static int print_text(struct status *st)
{
	struct out_table *t;
	int rc = EXIT_OK;

	if (knobs_out(st, 0, &t) < 0)
		rc = EXIT_FAIL;
	else {
		if (out_table_print(t, stdout) < 0)
			rc = EXIT_FAIL;
		out_table_free(t);
	}
	profiles_status(&st->prof);
	if (st->have_trial) {
		char line[2048];

		size_t cols, rows;

		/* Folded on a terminal, as the profile's line; one line in a pipe. */
		out_terminal_size(&cols, &rows);
		try_status_line(&st->trial, st->trial_runs, line, sizeof(line));
		log_info_wrapped(cols, 2, "%s", line);
	}
	{
		size_t cols, rows;

		/* Folded on a terminal, as the lines above; one line in a pipe. */
		out_terminal_size(&cols, &rows);
		stat_balance_status_print(&st->bal, cols);
	}
	status_tiers_print(&st->tiers);
	{
		size_t cols, rows;

		out_terminal_size(&cols, &rows);
		status_interact_print(&st->interact, cols);
	}
	if (cmd_stat_summary_print(&st->sum) != EXIT_OK)
		rc = EXIT_FAIL;
	return rc;
}

/* "profile": {"name", "state": none|broken|matches|differs, "problem"}. */
static int profile_json(const struct status *st, struct out_doc *d, char *why, size_t whylen)
{
	static const char *const states[] = { "none", "broken", "checked" };
	const struct profile_state *p = &st->prof;
	struct out_table *t;
	struct out_row *row;
	int r = out_table_new(&t, "profile", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	out_table_add_column(t, "NAME", 0, 0);
	out_table_add_column(t, "STATE", 0, 0);
	out_table_add_column(t, "PROBLEM", 0, 0);
	if (!(row = out_table_add_row(t)))
		r = -ENOMEM;
	else {
		out_row_set(row, 0, p->name[0] ? p->name : NULL);
		out_row_set(row, 1,
			    p->kind != PSTATE_CHECKED   ? states[p->kind]
			    : profiles_state_differs(p) ? "differs"
							: "matches");
		out_row_set(row, 2, p->kind == PSTATE_BROKEN ? p->problem : NULL);
		r = out_doc_add(d, t, OUT_PART_OBJECT);
	}
	out_table_free(t);
	return r;
}

/* "drift": the profile's knobs whose live value differs (value null: unreadable). */
static int drift_json(const struct status *st, struct out_doc *d, char *why, size_t whylen)
{
	const struct plan *p = &st->prof.plan;
	struct out_table *t;
	int r = out_table_new(&t, "drift", OUT_JSON, why, whylen);
	char a[KVAL_MAX], b[KVAL_MAX];

	if (r < 0)
		return r;
	out_table_add_column(t, "NAME", 0, 0);
	out_table_add_column(t, "VALUE", 0, 0);
	out_table_add_column(t, "WANTS", 0, 0);
	out_table_add_column(t, "ORIGIN", 0, 0);
	for (size_t i = 0; i < p->n && r == 0; i++) {
		const struct plan_item *it = &p->items[i];
		struct out_row *row;

		if (it->action != ACT_WRITE && it->action != ACT_FAILED)
			continue;
		if (!(row = out_table_add_row(t))) {
			r = -ENOMEM;
			break;
		}
		out_row_set(row, 0, it->ref.name);
		out_row_set(row, 1,
			    it->action == ACT_WRITE ? knob_display(&it->ref, &it->old, a, sizeof(a))
						    : NULL);
		out_row_set(row, 2, knob_display(&it->ref, &it->want, b, sizeof(b)));
		out_row_set(row, 3, it->origin[0] ? it->origin : NULL);
	}
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_ARRAY);
	out_table_free(t);
	return r;
}

/* "sysctl_d": the profile's knobs that sysctl.d sets otherwise, as apply --check -J says. */
static int sysctld_json(const struct status *st, struct out_doc *d, char *why, size_t whylen)
{
	const struct sysctld_conflicts *c = &st->prof.sysctld;
	struct out_table *t;
	char buf[KVAL_MAX];
	int r = out_table_new(&t, "sysctl_d", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	out_table_add_column(t, "NAME", 0, 0);
	out_table_add_column(t, "WANTS", 0, 0);
	report_conflict_columns(t);
	for (size_t i = 0; i < c->n && r == 0; i++) {
		const struct plan_item *it = c->v[i].item;
		struct out_row *row = out_table_add_row(t);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		out_row_set(row, 0, it->ref.name);
		out_row_set(row, 1, knob_display(&it->ref, &it->want, buf, sizeof(buf)));
		report_conflict_cells(row, 2, &c->v[i], st->unit_enabled);
	}
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_ARRAY);
	out_table_free(t);
	return r;
}

/* "tuned": the profile's knobs that tuned leaves otherwise (numastatctl(8), TUNED). */
static int tuned_json(const struct status *st, struct out_doc *d, char *why, size_t whylen)
{
	const struct tuned_conflicts *c = &st->prof.tunedc;
	struct out_table *t;
	char buf[KVAL_MAX];
	int r = out_table_new(&t, "tuned", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	out_table_add_column(t, "NAME", 0, 0);
	out_table_add_column(t, "WANTS", 0, 0);
	report_tuned_columns(t);
	for (size_t i = 0; i < c->n && r == 0; i++) {
		const struct plan_item *it = c->v[i].item;
		struct out_row *row = out_table_add_row(t);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		out_row_set(row, 0, it->ref.name);
		out_row_set(row, 1, knob_display(&it->ref, &it->want, buf, sizeof(buf)));
		report_tuned_cells(row, 2, &c->v[i], &st->prof.tuned);
	}
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_ARRAY);
	out_table_free(t);
	return r;
}

/* "warnings": the lines status printed on stderr, as an array of strings. */
static int warnings_json(const struct status *st, struct out_doc *d, char *why, size_t whylen)
{
	return out_doc_add_strings(d, "WARNINGS", (const char *const *)st->warnings, st->n_warnings,
				   why, whylen);
}

/*
 * {"knobs":[...],"profile":{...},"drift":[...],"sysctl_d":[...],"tuned":[...],
 * "trial":{...},"trial_knobs":[...],"balancing":{...},"tiers":[...],
 * "interleave_weights":...,"interactions":[...],"nodes":[...],"total":{...},
 * "warnings":[...]}
 */
static int print_json(const struct status *st)
{
	struct out_table *knobs = NULL;
	struct out_doc *d = NULL;
	char why[WHY_MAX] = "";
	int r = knobs_out(st, OUT_JSON, &knobs);

	if (r < 0)
		return EXIT_FAIL;
	if ((r = out_doc_new(&d, 0)) == 0 && (r = out_doc_add(d, knobs, OUT_PART_ARRAY)) == 0 &&
	    (r = profile_json(st, d, why, sizeof(why))) == 0 &&
	    (r = drift_json(st, d, why, sizeof(why))) == 0 &&
	    (r = sysctld_json(st, d, why, sizeof(why))) == 0 &&
	    (r = tuned_json(st, d, why, sizeof(why))) == 0 &&
	    (r = try_trial_json(st->have_trial ? &st->trial : NULL, "trial_knobs", d, why,
				sizeof(why))) == 0 &&
	    (r = stat_balance_status_json(&st->bal, d, why, sizeof(why))) == 0 &&
	    (r = status_tiers_json(&st->tiers, d, why, sizeof(why))) == 0 &&
	    (r = status_interact_json(&st->interact, d, why, sizeof(why))) == 0 &&
	    (r = stat_counters_json(&st->sum.o, st->sum.rows, st->sum.n, d, why, sizeof(why))) ==
		    0 &&
	    (r = warnings_json(st, d, why, sizeof(why))) == 0)
		r = out_doc_print(d, stdout);
	if (r < 0 && r != -EIO)
		log_err("cannot print JSON: %s", *why ? why : strerror(-r));
	out_doc_free(d);
	out_table_free(knobs);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/* One warning per knob sysctl.d or tuned sets otherwise than the profile. */
static void sysctld_warnings(struct status *st)
{
	const struct tuned_state *ts = &st->prof.tuned;
	char line[2048];

	if (st->prof.sysctld_problem[0])
		warn(st, "%s", st->prof.sysctld_problem);
	if (st->prof.sysctld.n)
		st->unit_enabled = sysctld_boot_unit_enabled();
	for (size_t i = 0; i < st->prof.sysctld.n; i++) {
		report_sysctld_conflict_text(&st->prof.sysctld.v[i], st->prof.name,
					     st->unit_enabled, line, sizeof(line));
		warn(st, "%s", line);
	}
	if (ts->problem[0] && tuned_active(ts))
		warn(st, "tuned: %s", ts->problem);
	for (size_t i = 0; i < st->prof.tunedc.n; i++) {
		report_tuned_conflict_text(&st->prof.tunedc.v[i], ts, st->prof.name, line,
					   sizeof(line));
		warn(st, "%s", line);
	}
}

/* The running or last trial (set --try, apply --try), when the runtime directory has one. */
static void read_trial(struct status *st)
{
	const char *dir = cmd_run_dir();
	char why[WHY_MAX], id[STATE_ID_MAX];
	int fd, r;

	/* Without a trial file, at the cost of one stat (the trust checks cost more). */
	if (!trial_present_in(dir))
		return;
	r = fd = statedir_open(dir, false, why, sizeof(why));
	if (fd >= 0) {
		r = trial_load(fd, dir, &st->trial, why, sizeof(why));
		if (r == 0)
			try_revert_id(fd, dir, id, sizeof(id));
		close(fd);
	}
	/* Nothing saved, another system's, or not root's to read: no trial to show. */
	if (r == -ENOENT || r == -EXDEV || r == -EACCES)
		return;
	if (r < 0) {
		warn(st, "%s", why);
		return;
	}
	st->have_trial = true;
	st->trial_runs = st->trial.state == TRIAL_RUNNING && strcmp(id, st->trial.point.id) == 0;
}

static int read_status(struct status *st)
{
	struct knob_list all = { 0 };

	if (knob_list_build(&all, false) < 0)
		return EXIT_FAIL;
	for (size_t i = 0; i < all.n && st->n < sizeof(st->lk) / sizeof(st->lk[0]); i++) {
		/* The weights are one line per tier below, not one knob per node. */
		if (interleave_is_weight(&all.refs[i]))
			continue;
		st->lk[st->n].ref = all.refs[i];
		st->lk[st->n].present = knob_read(&st->lk[st->n].ref, &st->lk[st->n].v) == 0;
		st->n++;
	}
	knob_list_free(&all);
	profiles_state(&st->prof);
	read_trial(st);
	if (st->prof.kind == PSTATE_BROKEN && st->prof.name[0])
		warn(st, "profile %s: %s", st->prof.name, st->prof.problem);
	else if (st->prof.kind == PSTATE_BROKEN)
		warn(st, "%s", st->prof.problem);
	sysctld_warnings(st);
	stat_balance_status_read(&st->bal);
	status_tiers_read(&st->tiers);
	status_interact_read(&st->interact);
	if (cmd_stat_summary_read(&st->sum) < 0) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < st->sum.n; i++)
		if (st->sum.rows[i].err)
			warn(st, NODE_DIR "/node%u/numastat: %s", st->sum.ids[i], st->sum.whys[i]);
	knob_warnings(st);
	return EXIT_OK;
}

static int run(int argc, char *argv[])
{
	struct status st = { 0 };
	int c, rc;

	while ((c = cmd_getopt(argc, argv, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		return EXIT_USAGE;
	}
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	rc = read_status(&st);
	if (rc == EXIT_OK)
		rc = cmd_global.json ? print_json(&st) : print_text(&st);
	/* What needs attention comes last, where the eye ends. */
	for (size_t i = 0; i < st.n_warnings; i++)
		log_warn("%s", st.warnings[i]);
	profiles_state_free(&st.prof);
	cmd_stat_summary_free(&st.sum);
	status_tiers_free(&st.tiers);
	trial_free(&st.trial);
	for (size_t i = 0; i < st.n_warnings; i++)
		free(st.warnings[i]);
	return rc;
}

const struct cmd cmd_status = {
	.name = "status",
	.run = run,
	.summary = "knobs in words, profile drift, warnings (default)",
	.usage = usage,
};
