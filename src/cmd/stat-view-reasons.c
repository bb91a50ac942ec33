// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --migration-reasons INTERVAL: migrations by the kernel's own reason
 * (stat-view.h).  A histogram trigger in a trace instance of ours
 * (mig-trace.h) sums each migrate_pages() call's pages by its reason; each
 * sample shows the change per reason, then pgmigrate_success's change over
 * the same window and the difference, a row of its own, never hidden (a
 * migration the kernel counts outside migrate_pages(), or one that fell
 * between the two reads).  The reasons are the kernel's format file's.
 * Where the kernel cannot count (no tracefs, not root, no histogram
 * triggers), and in a one-shot reading (no window), one line says why and
 * stat --migration's split by counters runs instead.  The instance is
 * removed however the run ends but by SIGKILL; the next run removes a
 * killed run's, and says so.  With --textfile, the ledger since the
 * baseline is rewritten after each sample (stat-reasons-prom.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-stat.h"
#include "damon.h"
#include "log.h"
#include "mig-trace.h"
#include "out.h"
#include "stat-cell.h"
#include "stat-reasons-prom.h"
#include "stat-view.h"
#include "timespec.h"
#include "vmstat.h"

#define NUM (OUT_COL_RIGHT | OUT_COL_NUMBER)

enum {
	RC_REASON,
	RC_ID,
	RC_KIND,
	RC_MIGRATED,
	RC_FAILED,
	RC_THP,
	RC_THP_FAILED,
	RC_THP_SPLIT,
	RC_CALLS,
	RC_COUNT
};

static const struct stat_view_col cols[RC_COUNT + 1] = {
	[RC_REASON] = { "REASON", "reason", -1, 0,
			"the kernel's reason (its format file's name), pgmigrate_success, or "
			"difference" },
	[RC_ID] = { "ID", "id", -1, NUM,
		    "the reason's number in the kernel (enum migrate_reason)" },
	[RC_KIND] = { "KIND", "kind", -1, 0,
		      "reason, counter (pgmigrate_success) or difference (the counter less the "
		      "reasons' sum)" },
	[RC_MIGRATED] = { "MIGRATED", "migrated", -1, NUM,
			  "pages migrated (the event's succeeded; on the counter row "
			  "pgmigrate_success; on the difference row, signed)" },
	[RC_FAILED] = { "FAILED", "failed", -1, NUM, "pages that failed to migrate" },
	[RC_THP] = { "THP", "thp_migrated", -1, NUM, "huge pages moved whole (within MIGRATED)" },
	[RC_THP_FAILED] = { "THP_FAILED", "thp_failed", -1, NUM, "huge pages that failed" },
	[RC_THP_SPLIT] = { "THP_SPLIT", "thp_split", -1, NUM, "huge pages split to be moved" },
	[RC_CALLS] = { "CALLS", "calls", -1, NUM, "calls of migrate_pages() for the reason" },
};

/* What the kernel had counted at one moment. */
struct reading {
	struct mig_hist h;
	uint64_t pgmigrate; /* pgmigrate_success */
	struct damon_state damon;
	bool ok;
};

struct rview {
	const struct stat_opts *o;
	struct mig_trace t;
	bool tracing;
	/* The fallback: stat --migration on its own context. */
	void *split;
	struct reading start, prev, cur;
	struct timespec started; /* the baseline's reading (CLOCK_REALTIME), for --textfile */
	struct timespec t0, now; /* the baseline's and the latest reading's (CLOCK_MONOTONIC) */
	uint64_t dropped_said;
	char *vmbuf;
	int cols[RC_COUNT];
	size_t ncols;
	int sort;
};

static int read_now(struct rview *v, struct reading *r)
{
	struct vmstat_sel m;
	char why[WHY_MAX];

	r->ok = false;
	if (vmstat_read(VMSTAT_GLOBAL, &m, v->vmbuf, VMSTAT_BUF, why, sizeof(why)) < 0) {
		log_err(VMSTAT_GLOBAL ": %s", why);
		return EXIT_FAIL;
	}
	if (!(m.have & VMS_BIT(VMS_PGMIGRATE_SUCCESS))) {
		log_err(VMSTAT_GLOBAL ": no pgmigrate_success (a kernel without migration)");
		return EXIT_FAIL;
	}
	/* The histogram right after the counter: the window is the same to a few µs. */
	if (mig_trace_read(&v->t, &r->h, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	r->pgmigrate = m.v[VMS_PGMIGRATE_SUCCESS];
	damon_free(&r->damon);
	/* DAMON's schemes read once per sample, beside the damon row. */
	if (damon_read(&r->damon, true, why, sizeof(why)) < 0)
		log_warn("DAMON: %s", why);
	r->ok = true;
	return EXIT_OK;
}

/* Say and remove what a killed run of ours left. */
static void clean_leftovers(void)
{
	struct mig_leftover found[16];
	size_t failed;
	int n = mig_trace_leftovers(getpid(), found, 16, &failed);

	for (int i = 0; i < n; i++)
		log_warn(MIG_TRACE_INSTANCES "/%s: a trace instance a killed run left (%s): "
					     "removed%s",
			 found[i].name,
			 found[i].reused ? "its PID now runs a process started after it"
					 : "its PID no longer runs",
			 failed ? " (not all of them could be)" : "");
	if (failed)
		log_err(MIG_TRACE_INSTANCES ": %zu trace instance%s of killed runs could not be "
					    "removed",
			failed, failed == 1 ? "" : "s");
}

/*
 * Ctrl-C and SIGTERM wait from here until the sampling loop reads them
 * (stat-loop.c): a signal between making the instance and the loop would
 * otherwise end the process with the instance left behind.
 */
static void hold_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static int fall_back(struct rview *v, const char *why, int *rc)
{
	log_warn("--migration-reasons: %s: the split by counters (--migration) instead%s", why,
		 v->o->interval > 0 && v->o->textfile ? ", in the textfile too" : "");
	v->split = calloc(1, stat_view_migration.ctx_size);
	if (!v->split) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	return stat_view_migration.setup(v->split, v->o, rc);
}

static int pick(struct rview *v)
{
	static const int defaults[] = { RC_REASON, RC_MIGRATED, RC_FAILED, RC_THP, RC_CALLS };
	const char *names[RC_COUNT];

	for (int i = 0; i < RC_COUNT; i++)
		names[i] = cols[i].name;
	if (v->o->json && !v->o->n_cols && !v->o->cols_arg) {
		/* JSON has every key: scripts need not ask. */
		for (int i = 0; i < RC_COUNT; i++)
			v->cols[i] = i;
		v->ncols = RC_COUNT;
		return 0;
	}
	return stat_view_columns(&stat_view_reasons, v->o, names, RC_COUNT, defaults,
				 sizeof(defaults) / sizeof(defaults[0]), v->cols, RC_COUNT,
				 &v->ncols, &v->sort);
}

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	struct rview *v = ctx;
	char why[WHY_MAX];
	int r;

	v->o = o;
	v->t.hist_fd = -1;
	v->sort = -1;
	if (o->nodes_arg) {
		log_usage_err("--migration-reasons: the reasons are machine-wide: --nodes does "
			      "not apply");
		return EXIT_USAGE;
	}
	if (pick(v) < 0)
		return EXIT_USAGE;
	/* A one-shot reading has no window: the kernel counts only while a trigger is armed. */
	if (o->interval <= 0)
		return fall_back(v, "one-shot: reasons are counted over an INTERVAL", rc);
	v->vmbuf = malloc(VMSTAT_BUF);
	if (!v->vmbuf) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	hold_signals();
	clean_leftovers();
	r = mig_trace_open(&v->t, getpid(), why, sizeof(why));
	if (r == MIG_TRACE_FAILED)
		*rc = EXIT_FAIL;
	if (r != 0) {
		char cwhy[WHY_MAX];

		if (mig_trace_close(&v->t, cwhy, sizeof(cwhy)) < 0)
			log_err("%s", cwhy);
		return fall_back(v, why, rc);
	}
	v->tracing = true;
	return EXIT_OK;
}

/* The totals compare with the first reading's schemes: a copy of them. */
static int keep_start_damon(struct rview *v)
{
	const struct damon_state *c = &v->cur.damon;
	struct damon_state *s = &v->start.damon;

	*s = *c;
	s->s = NULL;
	s->cap = 0;
	if (!c->n)
		return 0;
	s->s = malloc(c->n * sizeof(*c->s));
	if (!s->s) {
		s->n = 0;
		log_err("out of memory");
		return -ENOMEM;
	}
	memcpy(s->s, c->s, c->n * sizeof(*c->s));
	s->cap = c->n;
	return 0;
}

/* DAMON_STAT's kdamond, named once: Debian's 7.x kernels run it by default. */
static void say_damon_stat(const struct rview *v)
{
	const struct damon_state *d = &v->cur.damon;

	if (v->o->json || !d->stat_enabled)
		return;
	if (d->stat_pid < 0)
		stat_view_line(v->o, "DAMON_STAT is enabled (" DAMON_STAT_ENABLED
				     "); its kdamond was not found");
	else
		stat_view_line(
			v->o,
			"DAMON_STAT runs: kdamond PID %ld, %.2f s of CPU since it started; it "
			"monitors, it moves no pages",
			d->stat_pid, damon_stat_cpu_seconds(d));
}

static int sample(void *ctx, double secs, enum stat_sample how)
{
	struct rview *v = ctx;
	int r;

	if (v->split)
		return stat_view_migration.sample(v->split, secs, how);
	if (how == STAT_SAMPLE_TOPOLOGY)
		return EXIT_OK;
	/* The readings own their DAMON lists: prev's goes, cur's moves to prev. */
	damon_free(&v->prev.damon);
	v->prev = v->cur;
	v->cur.damon = (struct damon_state){ .stat_pid = -1 };
	r = read_now(v, &v->cur);
	clock_gettime(CLOCK_MONOTONIC, &v->now);
	if (how == STAT_SAMPLE_FIRST) {
		clock_gettime(CLOCK_REALTIME, &v->started);
		v->t0 = v->now;
		v->start = v->cur;
		v->start.damon = (struct damon_state){ .stat_pid = -1 };
		v->dropped_said = v->cur.h.dropped;
		say_damon_stat(v);
		r = keep_start_damon(v) < 0 ? EXIT_FAIL : r;
	}
	if (r == EXIT_OK && v->cur.h.dropped > v->dropped_said) {
		log_warn("the kernel's histogram dropped %" PRIu64 " events: the reasons are short "
			 "by them",
			 v->cur.h.dropped - v->dropped_said);
		v->dropped_said = v->cur.h.dropped;
	}
	return r;
}

/* The change of one hist row between two readings (a row absent is zero). */
static void row_change(const struct reading *a, const struct reading *b, unsigned id,
		       struct mig_hist_row *out)
{
	const struct mig_hist_row *x = mig_reason_hist_row(&a->h, id),
				  *y = mig_reason_hist_row(&b->h, id);

	*out = (struct mig_hist_row){ .id = id };
	if (!y)
		return;
	out->hits = y->hits - (x && x->hits <= y->hits ? x->hits : 0);
	for (int i = 0; i < MIG_VALS; i++)
		out->v[i] = y->v[i] - (x && x->v[i] <= y->v[i] ? x->v[i] : 0);
}

static void set_count(struct rview *v, struct grid *g, size_t r, size_t c, uint64_t n,
		      const struct stat_loop_info *in, bool have)
{
	if (have)
		stat_cell_rate(g, r, c, n, v->o, in->secs);
	else
		grid_set(g, r, c, v->o->json ? NULL : "-", -1, false);
}

static void fill(struct rview *v, struct grid *g, size_t r, const struct stat_reasons_line *l,
		 const struct stat_loop_info *in)
{
	char text[32];

	for (size_t i = 0; i < v->ncols; i++) {
		int c = v->cols[i];

		switch (c) {
		case RC_REASON:
			grid_set(g, r, i, l->name, (double)r, true);
			break;
		case RC_ID:
			snprintf(text, sizeof(text), "%ld", l->id);
			grid_set(g, r, i, l->id < 0 ? (v->o->json ? NULL : "-") : text,
				 (double)l->id, l->id > 0);
			break;
		case RC_KIND:
			grid_set(g, r, i, l->kind, 0, true);
			break;
		case RC_MIGRATED:
			if (l->no_count)
				set_count(v, g, r, i, 0, in, false);
			else if (l->is_signed) {
				snprintf(text, sizeof(text), "%" PRId64, l->signed_pages);
				grid_set(g, r, i, text, (double)l->signed_pages,
					 l->signed_pages != 0);
			} else
				set_count(v, g, r, i, l->ch.v[MIG_SUCCEEDED], in, true);
			break;
		case RC_CALLS:
			set_count(v, g, r, i, l->ch.hits, in, l->counts);
			break;
		default:
			/* RC_FAILED.. follow enum mig_val from MIG_FAILED on. */
			set_count(v, g, r, i, l->ch.v[c - RC_MIGRATED], in,
				  l->counts && (v->t.fmt.vals & 1u << (c - RC_MIGRATED)));
		}
	}
}

/* A reason the hist has and the format lacks (a newer kernel's): named by its number. */
static bool unnamed(const struct rview *v, const struct mig_hist_row *row)
{
	return !mig_reason_name(&v->t.fmt, row->id);
}

static size_t lines_of(struct rview *v, const struct reading *a, const struct reading *b,
		       struct stat_reasons_line *ls)
{
	size_t n = 0;
	uint64_t sum = 0;

	for (size_t i = 0; i < v->t.fmt.n; i++, n++) {
		ls[n] = (struct stat_reasons_line){ .name = v->t.fmt.reasons[i].name,
						    .kind = "reason",
						    .id = v->t.fmt.reasons[i].id,
						    .counts = true };
		row_change(a, b, v->t.fmt.reasons[i].id, &ls[n].ch);
	}
	for (size_t i = 0; i < b->h.n && n < MIG_REASONS_MAX; i++) {
		if (!unnamed(v, &b->h.rows[i]))
			continue;
		ls[n] = (struct stat_reasons_line){ .kind = "reason",
						    .id = b->h.rows[i].id,
						    .counts = true };
		snprintf(ls[n].own, sizeof(ls[n].own), "reason_%u", b->h.rows[i].id);
		ls[n].name = ls[n].own;
		row_change(a, b, b->h.rows[i].id, &ls[n].ch);
		n++;
	}
	for (size_t i = 0; i < n; i++)
		sum += ls[i].ch.v[MIG_SUCCEEDED];
	/* A counter that went down (a CPU went away): no change to compare with. */
	ls[n] = (struct stat_reasons_line){ .name = "pgmigrate_success",
					    .kind = "counter",
					    .id = -1,
					    .no_count = b->pgmigrate < a->pgmigrate };
	ls[n++].ch.v[MIG_SUCCEEDED] = b->pgmigrate - a->pgmigrate;
	ls[n] = (struct stat_reasons_line){ .name = "difference",
					    .kind = "difference",
					    .id = -1,
					    .is_signed = true,
					    .no_count = b->pgmigrate < a->pgmigrate };
	ls[n++].signed_pages = (int64_t)(b->pgmigrate - a->pgmigrate) - (int64_t)sum;
	return n;
}

enum { DC_KDAMOND, DC_CONTEXT, DC_SCHEME, DC_OPS, DC_ACTION, DC_NODE, DC_APPLIED, DC_COUNT };

static const struct grid_col damon_cols[DC_COUNT] = {
	[DC_KDAMOND] = { "KDAMOND", "kdamond", NUM, true },
	[DC_CONTEXT] = { "CONTEXT", "context", NUM, false },
	[DC_SCHEME] = { "SCHEME", "scheme", NUM, false },
	[DC_OPS] = { "OPS", "operations", 0, false },
	[DC_ACTION] = { "ACTION", "action", 0, false },
	[DC_NODE] = { "TARGET_NID", "target_nid", NUM, false },
	[DC_APPLIED] = { "APPLIED", "applied_pages", NUM, false },
};

/* The schemes that migrate, in cur and a, and the pages each applied between them. */
static void damon_row(struct rview *v, struct grid *g, size_t r, const struct damon_scheme *s,
		      const struct damon_scheme *was, const struct stat_loop_info *in)
{
	long page = sysconf(_SC_PAGESIZE);
	char text[24];

	snprintf(text, sizeof(text), "%u", s->kdamond);
	grid_set(g, r, DC_KDAMOND, text, s->kdamond, true);
	snprintf(text, sizeof(text), "%u", s->context);
	grid_set(g, r, DC_CONTEXT, text, s->context, true);
	snprintf(text, sizeof(text), "%u", s->scheme);
	grid_set(g, r, DC_SCHEME, text, s->scheme, true);
	grid_set(g, r, DC_OPS, s->ops, 0, true);
	grid_set(g, r, DC_ACTION, s->action, 0, true);
	snprintf(text, sizeof(text), "%d", s->target_nid);
	grid_set(g, r, DC_NODE, s->target_nid < 0 ? (v->o->json ? NULL : "-") : text, s->target_nid,
		 true);
	/* A scheme made since, or whose stats went down (remade): no change to give. */
	if (s->have_stats && was && was->have_stats && s->sz_applied >= was->sz_applied)
		stat_cell_rate(g, r, DC_APPLIED,
			       (s->sz_applied - was->sz_applied) /
				       (uint64_t)(page > 0 ? page : 4096),
			       v->o, in->secs);
	else
		grid_set(g, r, DC_APPLIED, v->o->json ? NULL : "-", -1, false);
}

static int damon_grid(struct rview *v, const struct reading *a, const struct stat_loop_info *in,
		      struct grid *g)
{
	const struct damon_state *d = &v->cur.damon;
	size_t n = 0;
	int r = grid_init(g, d->n ? d->n : 1, DC_COUNT);

	if (r < 0)
		return r;
	memcpy(g->cols, damon_cols, sizeof(damon_cols));
	g->ncols = DC_COUNT;
	g->sort_col = -1;
	for (size_t i = 0; i < d->n; i++)
		if (damon_scheme_migrates(&d->s[i]))
			damon_row(v, g, n++, &d->s[i], damon_find(&a->damon, &d->s[i]), in);
	g->nrows = n;
	return 0;
}

/* JSON: the reasons and the migrating schemes in one document per sample. */
static int print_json(struct rview *v, const struct grid *g, const struct grid *dg,
		      const struct stat_loop_info *in, char *why, size_t whylen)
{
	struct out_doc *d = NULL;
	int r = stat_view_json_begin(&d, in, why, whylen);

	if (r == 0)
		r = grid_add_json_rows(g, v->o, d, "reasons", why, whylen);
	if (r == 0)
		r = grid_add_json_rows(dg, v->o, d, "damon", why, whylen);
	if (r == 0)
		r = out_doc_print(d, stdout);
	if (r < 0 && !why[0])
		snprintf(why, whylen, "%s",
			 r == -EIO ? "cannot write to standard output" : "out of memory");
	out_doc_free(d);
	return r;
}

static int print_text(struct rview *v, const struct grid *g, const struct grid *dg, char *why,
		      size_t whylen)
{
	int r = grid_print(g, v->o, 0, "", why, whylen);

	if (r < 0 || !dg->nrows)
		return r;
	/* Beside the damon row: which scheme moved what. */
	putchar('\n');
	return grid_print(dg, v->o, 0, "", why, whylen);
}

static int print(void *ctx, const struct stat_loop_info *in)
{
	struct rview *v = ctx;
	struct stat_reasons_line ls[MIG_REASONS_MAX + 2];
	const struct reading *a = in && in->total ? &v->start : &v->prev;
	char why[WHY_MAX];
	struct grid g, dg;
	size_t n;
	int r;

	if (v->split)
		return stat_view_migration.print(v->split, in);
	if (!in)
		return 0; /* the baseline: nothing counted yet */
	if (!v->cur.ok || !a->ok)
		return 0; /* said by sample() */
	n = lines_of(v, a, &v->cur, ls);
	if ((r = grid_init(&g, n, v->ncols)) < 0) {
		log_err("out of memory");
		return r;
	}
	for (size_t i = 0; i < v->ncols; i++)
		g.cols[i] = (struct grid_col){ cols[v->cols[i]].name, cols[v->cols[i]].json,
					       cols[v->cols[i]].flags, v->cols[i] == RC_REASON };
	g.label_col = -1;
	for (size_t i = 0; i < v->ncols; i++)
		if (v->cols[i] == RC_REASON)
			g.label_col = (int)i;
	for (size_t i = 0; i < v->ncols && v->sort >= 0; i++)
		if (v->cols[i] == v->sort)
			g.sort_col = (int)i;
	for (size_t i = 0; i < n; i++)
		fill(v, &g, i, &ls[i], in);
	why[0] = '\0';
	if ((r = damon_grid(v, a, in, &dg)) < 0) {
		log_err("out of memory");
		grid_free(&g);
		return r;
	}
	if (!v->o->json)
		stat_view_title(v->o, in);
	r = v->o->json ? print_json(v, &g, &dg, in, why, sizeof(why))
		       : print_text(v, &g, &dg, why, sizeof(why));
	if (r < 0 && r != -EIO)
		log_err("%s", why);
	grid_free(&dg);
	grid_free(&g);
	return r;
}

/*
 * One-shot, and where the kernel cannot count: stat --migration's
 * (setup() fell back).  With an interval and the trigger armed: the ledger
 * since the baseline (stat-reasons-prom.h), for --textfile after each sample.
 */
static int prom(void *ctx, FILE *f)
{
	struct rview *v = ctx;
	struct stat_reasons_line ls[MIG_REASONS_MAX + 2];
	struct stat_reasons_prom p = { .vals = v->t.fmt.vals, .started = v->started };

	if (v->split)
		return stat_view_migration.prom(v->split, f);
	if (!v->tracing || !v->start.ok || !v->cur.ok)
		return -ENODATA; /* said by sample() */
	p.ls = ls;
	p.n = lines_of(v, &v->start, &v->cur, ls);
	p.dropped =
		v->cur.h.dropped >= v->start.h.dropped ? v->cur.h.dropped - v->start.h.dropped : 0;
	p.secs = (double)(timespec_ns(&v->now) - timespec_ns(&v->t0)) / 1e9;
	p.d = &v->cur.damon;
	return stat_reasons_prom_write(f, &p);
}

static void release(void *ctx)
{
	struct rview *v = ctx;
	char why[WHY_MAX];

	if (v->split) {
		stat_view_migration.free(v->split);
		free(v->split);
	}
	if (mig_trace_close(&v->t, why, sizeof(why)) < 0)
		log_err("%s", why);
	damon_free(&v->start.damon);
	damon_free(&v->prev.damon);
	damon_free(&v->cur.damon);
	free(v->vmbuf);
}

const struct stat_view stat_view_reasons = {
	.name = "migration-reasons",
	.option = { "migration-reasons", no_argument, 0, NULL,
		    "migrations by the kernel's own reason over each\n"
		    "INTERVAL (a histogram trigger: root, tracefs)" },
	.cols = cols,
	.ctx_size = sizeof(struct rview),
	.flags = STAT_VIEW_TEXTFILE_LOOP,
	.setup = setup,
	.sample = sample,
	.print = print,
	.prom = prom,
	.free = release,
};
