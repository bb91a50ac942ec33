// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trial: the report of the running or last trial (set --try, apply
 * --try).  Its window, from the change to the revert or the confirm (or to
 * now while it runs), against the baseline measured just before the change:
 * allocation locality per node, hinting faults, migration by cause,
 * demotion and reclaim, each with the baseline's spread and a verdict.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "duration.h"
#include "log.h"
#include "out.h"
#include "prom.h"
#include "statedir.h"
#include "try.h"
#include "value.h"
#include "why.h"

enum { OPT_PROMETHEUS = OPT_CMD_BASE };

static const struct cmd_option options[] = {
	{ "prometheus", no_argument, OPT_PROMETHEUS, NULL,
	  "print the report as Prometheus text (gauges)" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl trial [options]\n"
	      "\nReport the running or last trial (set --try, apply --try): the counters of\n"
	      "its window (from the change to the revert or the confirm, or to now) against\n"
	      "the baseline measured just before the change, per node and for the machine,\n"
	      "with the baseline's spread.  Counters move with the workload too: a change\n"
	      "inside the spread is shown as within noise.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl trial --help | less\n",
	      out);
}

/* Everything the report shows, read once. */
struct report {
	struct trial t;
	bool runs;                 /* the trial runs on the revert point in force */
	struct trial_counters now; /* the end of a running trial's window */
	const struct trial_counters *b0, *b1, *t0, *t1;
	struct trial_row *rows;
	size_t n;
};

static double window(const struct trial_counters *a, const struct trial_counters *b)
{
	return a && b ? (double)(b->mono_ns - a->mono_ns) / 1e9 : 0;
}

static const char *scope_text(int node, char *buf, size_t len)
{
	if (node == TRIAL_ALL)
		return "all";
	snprintf(buf, len, "%d", node);
	return buf;
}

/* How many one-second values the baseline took (the most any metric has). */
static uint64_t samples(const struct trial_spreads *sp)
{
	uint64_t n = 0;

	for (size_t i = 0; i < sp->n; i++)
		n = sp->v[i].n > n ? sp->v[i].n : n;
	return n;
}

/* ---- text ---- */

static void header(const struct report *rp)
{
	const struct trial *t = &rp->t;
	char knobs[1024], at[32], end[32], span[DURATION_TEXT_MAX];

	try_knobs_text(t, knobs, sizeof(knobs));
	try_time(t->start_ns, at, sizeof(at));
	try_time(rp->runs ? trial_deadline_ns(t) : t->ended_ns, end, sizeof(end));
	duration_format(t->seconds, span, sizeof(span));
	log_line("trial %s: '%s' (%s)", t->point.id, t->point.by, knobs);
	log_info("started:  %s, for %s\n", at, span);
	if (rp->runs)
		log_info("reverts:  %s unless confirmed\nwindow:   %.1fs so far\n", end,
			 window(rp->t0, rp->t1));
	else if (t->state == TRIAL_RUNNING)
		log_info("ended:    no longer runs (its revert point is gone)\n"
			 "window:   %.1fs to now\n",
			 window(rp->t0, rp->t1));
	else
		log_info("ended:    %s at %s\nwindow:   %.1fs\n", trial_state_name(t->state), end,
			 window(rp->t0, rp->t1));
	if (rp->b0)
		log_info("baseline: %.1fs just before the change, %" PRIu64 " one-second values\n",
			 window(rp->b0, rp->b1), samples(&rp->t.spreads));
	else
		log_info("baseline: none was measured (--baseline 0): no verdicts\n");
	/* Every floor the verdicts use, so that each row reads against this rule. */
	log_info("Counters move with the workload as much as with the knobs: a change counts\n"
		 "only beyond the baseline's spread (2 sd of its one-second values, at least\n"
		 "1 a second or 1 point, and %.0f events in the window, %.0f for numa_hit and\n"
		 "numa_miss); the cause may still be the workload.\n\n",
		 TRIAL_OWN_EVENTS, TRIAL_OWN_ALLOC_EVENTS);
}

static void cell(struct out_row *row, size_t col, bool have, double v)
{
	if (have)
		out_row_setf(row, col, "%.1f", v);
}

static int print_text(const struct report *rp)
{
	static const char *const heads[] = { "COUNTER", "NODE",  "BASELINE", "SD",     "MIN",
					     "MAX",     "TRIAL", "CHANGE",   "VERDICT" };
	char why[WHY_MAX], node[16], verdict[32];
	struct out_table *t;
	int r;

	header(rp);
	if ((r = out_table_new(&t, "counters", 0, why, sizeof(why))) < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	/* On a narrow terminal the verdict folds at its space ("within noise"), in its cell. */
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		out_table_add_column(t, heads[i], 0,
				     i >= 2 && i <= 7 ? OUT_COL_RIGHT
				     : i == 8         ? OUT_COL_WRAP
						      : 0);
	for (size_t i = 0; i < rp->n; i++) {
		const struct trial_row *w = &rp->rows[i];
		const struct trial_spread *s = w->spread;
		struct out_row *row = out_table_add_row(t);

		if (!row)
			break;
		out_row_set(row, 0, trial_metrics[w->metric].text);
		out_row_set(row, 1, scope_text(w->node, node, sizeof(node)));
		cell(row, 2, w->base.state == TRIAL_OK, w->base.v);
		cell(row, 3, s, s ? s->sd : 0);
		cell(row, 4, s, s ? s->min : 0);
		cell(row, 5, s, s ? s->max : 0);
		cell(row, 6, w->trial.state == TRIAL_OK, w->trial.v);
		if (w->have_change)
			out_row_setf(row, 7, "%+.1f%%", w->change_pct);
		str_copy(verdict, trial_verdict_name(w->verdict), sizeof(verdict));
		for (char *c = verdict; *c; c++)
			*c = *c == '-' ? ' ' : *c;
		out_row_set(row, 8, verdict);
	}
	r = out_table_print(t, stdout);
	out_table_free(t);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/* ---- JSON ---- */

static void number(struct out_row *row, size_t col, bool have, double v)
{
	if (have)
		out_row_setf(row, col, "%.3f", v);
}

static int counters_json(const struct report *rp, struct out_doc *d, char *why, size_t whylen)
{
	static const char *const cols[] = { "counter",      "node",         "scope",
					    "unit",         "baseline",     "baseline_sd",
					    "baseline_min", "baseline_max", "baseline_samples",
					    "trial",        "change_pct",   "verdict" };
	struct out_table *t;
	int r = out_table_new(&t, "counters", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		out_table_add_column(t, cols[i], 0,
				     i == 1 || (i >= 4 && i <= 10) ? OUT_COL_NUMBER : 0);
	for (size_t i = 0; i < rp->n && r == 0; i++) {
		const struct trial_row *w = &rp->rows[i];
		const struct trial_spread *s = w->spread;
		struct out_row *row = out_table_add_row(t);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		out_row_set(row, 0, trial_metrics[w->metric].name);
		if (w->node != TRIAL_ALL)
			out_row_setf(row, 1, "%d", w->node);
		out_row_set(row, 2, w->node == TRIAL_ALL ? "all" : "node");
		out_row_set(row, 3,
			    trial_metrics[w->metric].kind == TRIAL_RATE ? "per_second" : "percent");
		number(row, 4, w->base.state == TRIAL_OK, w->base.v);
		number(row, 5, s, s ? s->sd : 0);
		number(row, 6, s, s ? s->min : 0);
		number(row, 7, s, s ? s->max : 0);
		out_row_setf(row, 8, "%" PRIu64, s ? s->n : 0);
		number(row, 9, w->trial.state == TRIAL_OK, w->trial.v);
		number(row, 10, w->have_change, w->change_pct);
		out_row_set(row, 11, trial_verdict_name(w->verdict));
	}
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_ARRAY);
	out_table_free(t);
	return r;
}

/* "windows": {"baseline_seconds", "trial_seconds", "running"}. */
static int windows_json(const struct report *rp, struct out_doc *d, char *why, size_t whylen)
{
	struct out_table *t;
	struct out_row *row;
	int r = out_table_new(&t, "windows", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	out_table_add_column(t, "baseline_seconds", 0, OUT_COL_NUMBER);
	out_table_add_column(t, "trial_seconds", 0, OUT_COL_NUMBER);
	out_table_add_column(t, "running", 0, OUT_COL_BOOLEAN);
	if (!(row = out_table_add_row(t)))
		r = -ENOMEM;
	else {
		if (rp->b0)
			out_row_setf(row, 0, "%.3f", window(rp->b0, rp->b1));
		out_row_setf(row, 1, "%.3f", window(rp->t0, rp->t1));
		out_row_set(row, 2, rp->runs ? "yes" : "no");
		r = out_doc_add(d, t, OUT_PART_OBJECT);
	}
	out_table_free(t);
	return r;
}

/* {"trial": {...}, "knobs": [...], "windows": {...}, "counters": [...]} */
static int print_json(const struct report *rp)
{
	char why[WHY_MAX] = "";
	struct out_doc *d = NULL;
	int r = out_doc_new(&d, 0);

	if (r == 0 && (r = try_trial_json(&rp->t, "knobs", d, why, sizeof(why))) == 0 &&
	    (r = windows_json(rp, d, why, sizeof(why))) == 0 &&
	    (r = counters_json(rp, d, why, sizeof(why))) == 0)
		r = out_doc_print(d, stdout);
	if (r < 0 && r != -EIO)
		log_err("cannot print JSON: %s", *why ? why : strerror(-r));
	out_doc_free(d);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/* ---- Prometheus ---- */

/* {counter="...",node="N"[,window="..."]} with the machine's row without node. */
static void labels(FILE *f, const char *key, const char *name, int node, const char *window)
{
	fprintf(f, "{%s=\"%s\"", key, name);
	if (node != TRIAL_ALL)
		fprintf(f, ",node=\"%d\"", node);
	if (window)
		fprintf(f, ",window=\"%s\"", window);
	fputc('}', f);
}

/* The percentage metrics as ratios: "local" for local_pct. */
static void ratio_name(int m, char *buf, size_t len)
{
	const char *name = trial_metrics[m].name;

	snprintf(buf, len, "%.*s", (int)(strlen(name) - strlen("_pct")), name);
}

static void prom_values(FILE *f, const struct report *rp, enum trial_kind kind)
{
	const char *family = kind == TRIAL_RATE ? "numastatctl_trial_rate_per_second"
						: "numastatctl_trial_ratio";
	const char *key = kind == TRIAL_RATE ? "counter" : "ratio";
	double scale = kind == TRIAL_RATE ? 1 : 0.01;
	char name[32];

	prom_family(
		f, family, "gauge",
		kind == TRIAL_RATE
			? "Events a second in the trial's window and in its baseline."
			: "Percentages of the trial's report as ratios, in the trial's window and "
			  "in its baseline.");
	for (size_t i = 0; i < rp->n; i++) {
		const struct trial_row *w = &rp->rows[i];

		if (trial_metrics[w->metric].kind != kind)
			continue;
		if (kind == TRIAL_RATE)
			str_copy(name, trial_metrics[w->metric].name, sizeof(name));
		else
			ratio_name(w->metric, name, sizeof(name));
		if (w->base.state == TRIAL_OK) {
			fputs(family, f);
			labels(f, key, name, w->node, "baseline");
			fprintf(f, " %.6g\n", w->base.v * scale);
		}
		if (w->trial.state == TRIAL_OK) {
			fputs(family, f);
			labels(f, key, name, w->node, "trial");
			fprintf(f, " %.6g\n", w->trial.v * scale);
		}
	}
}

static void prom_spread(FILE *f, const struct report *rp, enum trial_kind kind)
{
	const char *family = kind == TRIAL_RATE ? "numastatctl_trial_rate_stddev_per_second"
						: "numastatctl_trial_ratio_stddev";
	char name[32];

	prom_family(f, family, "gauge",
		    "The standard deviation of the baseline's one-second values.");
	for (size_t i = 0; i < rp->n; i++) {
		const struct trial_row *w = &rp->rows[i];

		if (trial_metrics[w->metric].kind != kind || !w->spread)
			continue;
		if (kind == TRIAL_RATE)
			str_copy(name, trial_metrics[w->metric].name, sizeof(name));
		else
			ratio_name(w->metric, name, sizeof(name));
		fputs(family, f);
		labels(f, kind == TRIAL_RATE ? "counter" : "ratio", name, w->node, NULL);
		fprintf(f, " %.6g\n", w->spread->sd * (kind == TRIAL_RATE ? 1 : 0.01));
	}
}

static void prom_verdicts(FILE *f, const struct report *rp)
{
	prom_family(f, "numastatctl_trial_change_ratio", "gauge",
		    "The trial's value against the baseline's, minus one (0.05: 5 % higher).");
	for (size_t i = 0; i < rp->n; i++)
		if (rp->rows[i].have_change) {
			fputs("numastatctl_trial_change_ratio", f);
			labels(f, "counter", trial_metrics[rp->rows[i].metric].name,
			       rp->rows[i].node, NULL);
			fprintf(f, " %.6g\n", rp->rows[i].change_pct / 100);
		}
	prom_family(f, "numastatctl_trial_effect", "gauge",
		    "1 when the trial's value lies beyond the baseline's spread, 0 within noise.");
	for (size_t i = 0; i < rp->n; i++) {
		enum trial_verdict v = rp->rows[i].verdict;

		if (v != TRIAL_HIGHER && v != TRIAL_LOWER && v != TRIAL_WITHIN_NOISE)
			continue;
		fputs("numastatctl_trial_effect", f);
		labels(f, "counter", trial_metrics[rp->rows[i].metric].name, rp->rows[i].node,
		       NULL);
		fprintf(f, " %d\n", v != TRIAL_WITHIN_NOISE);
	}
}

static int print_prometheus(const struct report *rp)
{
	FILE *f = stdout;

	prom_family(f, "numastatctl_trial_info", "gauge",
		    "The last trial (set --try, apply --try): its id, what made it, how its revert "
		    "is armed and its state.");
	fprintf(f, "numastatctl_trial_info{id=\"%s\",by=\"", rp->t.point.id);
	prom_label_value(f, rp->t.point.by);
	fprintf(f, "\",armed=\"%s\",state=\"%s\"} 1\n", trial_armed_name(rp->t.armed),
		rp->runs ? "running" : trial_state_name(rp->t.state));
	prom_family(
		f, "numastatctl_trial_window_seconds", "gauge",
		"The length of the baseline and of the trial's window (so far, while it runs).");
	if (rp->b0)
		fprintf(f, "numastatctl_trial_window_seconds{window=\"baseline\"} %.3f\n",
			window(rp->b0, rp->b1));
	fprintf(f, "numastatctl_trial_window_seconds{window=\"trial\"} %.3f\n",
		window(rp->t0, rp->t1));
	prom_values(f, rp, TRIAL_RATE);
	prom_spread(f, rp, TRIAL_RATE);
	prom_values(f, rp, TRIAL_PCT);
	prom_spread(f, rp, TRIAL_PCT);
	prom_verdicts(f, rp);
	return EXIT_OK;
}

/* ---- reading ---- */

static int load(struct report *rp)
{
	char why[WHY_MAX], id[STATE_ID_MAX];
	const char *dir = cmd_run_dir();
	int fd = statedir_open(dir, false, why, sizeof(why)), r = fd;

	if (fd >= 0) {
		r = trial_load(fd, dir, &rp->t, why, sizeof(why));
		try_revert_id(fd, dir, id, sizeof(id));
		close(fd);
	}
	if (r == -ENOENT) {
		log_err("no trial in %s: set --try and apply --try make one", dir);
		return EXIT_FAIL;
	}
	if (r < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	rp->runs = rp->t.state == TRIAL_RUNNING && strcmp(id, rp->t.point.id) == 0;
	rp->t0 = &rp->t.reading[TRIAL_START];
	rp->t1 = &rp->t.reading[TRIAL_END];
	if (rp->t.state == TRIAL_RUNNING) {
		if (trial_counters_read(&rp->now, why, sizeof(why)) < 0) {
			log_err("%s", why);
			return EXIT_FAIL;
		}
		rp->t1 = &rp->now;
	}
	if (rp->t.reading[TRIAL_BASE_END].n) {
		rp->b0 = &rp->t.reading[TRIAL_BASE_START];
		rp->b1 = &rp->t.reading[TRIAL_BASE_END];
	}
	r = trial_rows(rp->b0, rp->b1, &rp->t.spreads, rp->t0, rp->t1, &rp->rows);
	if (r < 0) {
		log_err("%s", strerror(-r));
		return EXIT_FAIL;
	}
	rp->n = (size_t)r;
	return EXIT_OK;
}

static int run(int argc, char *argv[])
{
	struct report rp = { 0 };
	bool prometheus = false;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (c != OPT_PROMETHEUS)
			return EXIT_USAGE;
		prometheus = true;
	}
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	if (prometheus && cmd_global.json) {
		log_usage_err("--prometheus and -J exclude each other");
		return EXIT_USAGE;
	}
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	rc = load(&rp);
	if (rc == EXIT_OK)
		rc = prometheus        ? print_prometheus(&rp)
		     : cmd_global.json ? print_json(&rp)
				       : print_text(&rp);
	free(rp.rows);
	trial_counters_free(&rp.now);
	trial_free(&rp.t);
	return rc;
}

const struct cmd cmd_trial = {
	.name = "trial",
	.run = run,
	.summary = "report the running or last trial against its baseline",
	.usage = usage,
	.options = options,
};
