// SPDX-License-Identifier: GPL-2.0-or-later
/* The counters of a trial, their metrics, the baseline's spread and the verdict (trial-counters.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "nodes.h"
#include "timespec.h"
#include "trial-counters.h"
#include "why.h"

static const char *const numastat_names[TK_VMS] = {
	[TK_NUMA_HIT] = "numa_hit",
	[TK_NUMA_MISS] = "numa_miss",
	[TK_LOCAL_NODE] = "local_node",
	[TK_OTHER_NODE] = "other_node",
};

const char *trial_key_name(int k)
{
	return k < TK_VMS ? numastat_names[k] : vmstat_names[k - TK_VMS];
}

int trial_key_of(const char *name, size_t len)
{
	for (int k = 0; k < TK_COUNT; k++)
		if (strlen(trial_key_name(k)) == len && memcmp(trial_key_name(k), name, len) == 0)
			return k;
	return -1;
}

#define VB(k) TK_BIT(TK_VMS + (k))

const struct trial_metric trial_metrics[TM_COUNT] = {
	[TM_NUMA_HIT] = { "numa_hit", "numa_hit/s", TRIAL_RATE, TK_BIT(TK_NUMA_HIT), 0,
			  "pages allocated on the node they were meant for" },
	[TM_NUMA_MISS] = { "numa_miss", "numa_miss/s", TRIAL_RATE, TK_BIT(TK_NUMA_MISS), 0,
			   "pages allocated on the node although meant for another" },
	[TM_LOCAL_PCT] = { "local_pct", "LOCAL%", TRIAL_PCT, TK_BIT(TK_LOCAL_NODE),
			   TK_BIT(TK_LOCAL_NODE) | TK_BIT(TK_OTHER_NODE),
			   "local_node / (local_node + other_node), percent" },
	[TM_MISS_PCT] = { "miss_pct", "MISS%", TRIAL_PCT, TK_BIT(TK_NUMA_MISS),
			  TK_BIT(TK_NUMA_MISS) | TK_BIT(TK_NUMA_HIT),
			  "numa_miss / (numa_hit + numa_miss), percent" },
	[TM_HINT_FAULTS] = { "numa_hint_faults", "numa_hint_faults/s", TRIAL_RATE,
			     VB(VMS_NUMA_HINT_FAULTS), 0, "NUMA balancing's hinting faults" },
	[TM_HINT_LOCAL_PCT] = { "hint_local_pct", "HINT_LOCAL%", TRIAL_PCT,
				VB(VMS_NUMA_HINT_FAULTS_LOCAL), VB(VMS_NUMA_HINT_FAULTS),
				"numa_hint_faults_local / numa_hint_faults, percent" },
	[TM_BALANCING_MIGRATED] = { "numa_pages_migrated", "numa_pages_migrated/s", TRIAL_RATE,
				    VB(VMS_NUMA_PAGES_MIGRATED), 0,
				    "pages NUMA balancing migrated" },
	[TM_PROMOTED] = { "pgpromote_success", "pgpromote_success/s", TRIAL_RATE,
			  VB(VMS_PGPROMOTE_SUCCESS), 0, "pages promoted to a faster tier" },
	[TM_DEMOTED] = { "pgdemote", "pgdemote/s", TRIAL_RATE,
			 VB(VMS_PGDEMOTE_KSWAPD) | VB(VMS_PGDEMOTE_DIRECT) |
				 VB(VMS_PGDEMOTE_KHUGEPAGED) | VB(VMS_PGDEMOTE_PROACTIVE),
			 0, "pages demoted to a slower tier (every pgdemote_* counter)" },
	[TM_MIGRATED] = { "pgmigrate_success", "pgmigrate_success/s", TRIAL_RATE,
			  VB(VMS_PGMIGRATE_SUCCESS), 0,
			  "pages migrated for any cause (balancing, tiering, compaction)" },
	[TM_MIGRATE_FAILED] = { "pgmigrate_fail", "pgmigrate_fail/s", TRIAL_RATE,
				VB(VMS_PGMIGRATE_FAIL), 0, "pages that failed to migrate" },
	[TM_SCANNED] = { "pgscan", "pgscan/s", TRIAL_RATE,
			 VB(VMS_PGSCAN_KSWAPD) | VB(VMS_PGSCAN_DIRECT) | VB(VMS_PGSCAN_KHUGEPAGED) |
				 VB(VMS_PGSCAN_PROACTIVE),
			 0, "pages reclaim scanned (kswapd, direct, khugepaged, proactive)" },
	[TM_RECLAIMED] = { "pgsteal", "pgsteal/s", TRIAL_RATE,
			   VB(VMS_PGSTEAL_KSWAPD) | VB(VMS_PGSTEAL_DIRECT) |
				   VB(VMS_PGSTEAL_KHUGEPAGED) | VB(VMS_PGSTEAL_PROACTIVE),
			   0, "pages reclaim freed (kswapd, direct, khugepaged, proactive)" },
};

int trial_metric_of(const char *name)
{
	for (int m = 0; m < TM_COUNT; m++)
		if (strcmp(trial_metrics[m].name, name) == 0)
			return m;
	return -1;
}

/* ---- readings ---- */

struct trial_scope *trial_counters_scope(const struct trial_counters *c, int node)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->s[i].node == node)
			return &c->s[i];
	return NULL;
}

struct trial_scope *trial_counters_add(struct trial_counters *c, int node)
{
	if (array_grow(&c->s, &c->cap, c->n + 1, sizeof(*c->s)) < 0)
		return NULL;
	c->s[c->n] = (struct trial_scope){ .node = node };
	return &c->s[c->n++];
}

void trial_counters_free(struct trial_counters *c)
{
	free(c->s);
	*c = (struct trial_counters){ 0 };
}

static void take_vmstat(struct trial_scope *s, const struct vmstat_sel *sel)
{
	for (int k = 0; k < VMS_COUNT; k++)
		if (sel->have & VMS_BIT(k)) {
			s->have |= TK_BIT(TK_VMS + k);
			s->v[TK_VMS + k] = sel->v[k];
		}
}

/* A vmstat file into s; one the kernel does not have adds nothing. */
static int read_vmstat(const char *path, struct trial_scope *s, char *buf, char *why, size_t whylen)
{
	struct vmstat_sel sel;
	char msg[WHY_MAX];
	int r = vmstat_read(path, &sel, buf, VMSTAT_BUF, msg, sizeof(msg));

	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		snprintf(why, whylen, "%s: %s", path, msg);
		return r;
	}
	take_vmstat(s, &sel);
	return 0;
}

static int read_node(unsigned id, struct trial_scope *s, struct trial_scope *all, char *buf,
		     char *why, size_t whylen)
{
	static const enum numastat_key keys[TK_VMS] = {
		[TK_NUMA_HIT] = NS_NUMA_HIT,
		[TK_NUMA_MISS] = NS_NUMA_MISS,
		[TK_LOCAL_NODE] = NS_LOCAL_NODE,
		[TK_OTHER_NODE] = NS_OTHER_NODE,
	};
	char msg[WHY_MAX], path[96];
	struct numastat ns;
	int r = numastat_read(id, &ns, msg, sizeof(msg));

	if (r < 0) {
		snprintf(why, whylen, NODE_DIR "/node%u/numastat: %s", id, msg);
		return r;
	}
	for (int k = 0; k < TK_VMS; k++) {
		numastat_get(&ns, numastat_keys[keys[k]], &s->v[k]);
		s->have |= TK_BIT(k);
		all->v[k] += s->v[k];
	}
	vmstat_node_path(id, path, sizeof(path));
	return read_vmstat(path, s, buf, why, whylen);
}

int trial_counters_read(struct trial_counters *c, char *why, size_t whylen)
{
	unsigned *ids = NULL;
	char *buf = malloc(VMSTAT_BUF);
	int n = nodes_enumerate(&ids), r = 0;

	*c = (struct trial_counters){ .real_ns = timespec_now_ns(CLOCK_REALTIME),
				      .mono_ns = timespec_now_ns(CLOCK_MONOTONIC) };
	if (n < 0)
		snprintf(why, whylen, NODE_DIR ": %s", strerror(-n));
	else if (!buf || !trial_counters_add(c, TRIAL_ALL))
		n = -ENOMEM;
	for (int i = 0; i < n && r == 0; i++) {
		struct trial_scope *s = trial_counters_add(c, (int)ids[i]);

		r = s ? read_node(ids[i], s, &c->s[0], buf, why, whylen) : -ENOMEM;
	}
	if (n > 0 && r == 0)
		c->s[0].have |= TK_NUMASTAT_MASK;
	if (n >= 0 && r == 0)
		r = read_vmstat(VMSTAT_GLOBAL, &c->s[0], buf, why, whylen);
	if (n < 0 && r == 0)
		r = n;
	if (r == -ENOMEM)
		snprintf(why, whylen, "%s", strerror(ENOMEM));
	free(buf);
	free(ids);
	if (r < 0)
		trial_counters_free(c);
	return r;
}

/* ---- metrics ---- */

static uint64_t sum(const struct trial_scope *s, uint64_t keys)
{
	uint64_t total = 0;

	for (int k = 0; k < TK_COUNT; k++)
		if (keys & TK_BIT(k))
			total += s->v[k];
	return total;
}

void trial_value(const struct trial_counters *a, const struct trial_counters *b, int m, int node,
		 struct trial_value *out)
{
	const struct trial_metric *tm = &trial_metrics[m];
	const struct trial_scope *sa = trial_counters_scope(a, node),
				 *sb = trial_counters_scope(b, node);
	uint64_t keys;

	*out = (struct trial_value){ .state = TRIAL_ABSENT };
	if (!sa || !sb)
		return;
	keys = (tm->num | tm->den) & sa->have & sb->have;
	if (!(keys & tm->num) || (tm->kind == TRIAL_PCT && !(keys & tm->den)))
		return;
	for (int k = 0; k < TK_COUNT; k++)
		if ((keys & TK_BIT(k)) && sb->v[k] < sa->v[k]) {
			out->state = TRIAL_RESET;
			return;
		}
	out->num = sum(sb, keys & tm->num) - sum(sa, keys & tm->num);
	out->den = sum(sb, keys & tm->den) - sum(sa, keys & tm->den);
	out->secs = (double)(b->mono_ns - a->mono_ns) / 1e9;
	out->state = TRIAL_NONE;
	if (tm->kind == TRIAL_RATE && out->secs > 0)
		out->v = (double)out->num / out->secs;
	else if (tm->kind == TRIAL_PCT && out->den > 0)
		out->v = 100.0 * (double)out->num / (double)out->den;
	else
		return;
	out->state = TRIAL_OK;
}

/* ---- the baseline's spread ---- */

const struct trial_spread *trial_spreads_find(const struct trial_spreads *s, int m, int node)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].metric == m && s->v[i].node == node)
			return &s->v[i];
	return NULL;
}

struct trial_spread *trial_spreads_new(struct trial_spreads *s, int m, int node)
{
	if (array_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)) < 0)
		return NULL;
	s->v[s->n] = (struct trial_spread){ .metric = m, .node = node };
	return &s->v[s->n++];
}

void trial_spreads_free(struct trial_spreads *s)
{
	free(s->v);
	*s = (struct trial_spreads){ 0 };
}

/*
 * A square root by Newton's method: the only one numastatctl takes, and
 * not worth libm, which every run of the binary would then load.
 */
static double root(double x)
{
	double r = x > 1 ? x / 2 : 1;

	if (x <= 0)
		return 0;
	for (int i = 0; i < 200; i++) {
		double next = (r + x / r) / 2;

		if (next == r)
			break;
		r = next;
	}
	return r;
}

/* Welford: the mean and the sum of squared deviations, one value at a time. */
static void spread_add(struct trial_spread *sp, double x)
{
	double d = x - sp->mean_;

	sp->n++;
	sp->mean_ += d / (double)sp->n;
	sp->m2_ += d * (x - sp->mean_);
	sp->sd = sp->n > 1 ? root(sp->m2_ / (double)(sp->n - 1)) : 0;
	sp->min = sp->n == 1 || x < sp->min ? x : sp->min;
	sp->max = sp->n == 1 || x > sp->max ? x : sp->max;
}

int trial_spreads_add(struct trial_spreads *s, const struct trial_counters *a,
		      const struct trial_counters *b)
{
	for (int m = 0; m < TM_COUNT; m++)
		for (size_t i = 0; i < b->n; i++) {
			struct trial_spread *sp;
			struct trial_value v;

			trial_value(a, b, m, b->s[i].node, &v);
			if (v.state != TRIAL_OK)
				continue;
			sp = (struct trial_spread *)trial_spreads_find(s, m, b->s[i].node);
			if (!sp && !(sp = trial_spreads_new(s, m, b->s[i].node)))
				return -ENOMEM;
			spread_add(sp, v.v);
		}
	return 0;
}

/* ---- the verdict ---- */

const char *trial_verdict_name(enum trial_verdict v)
{
	static const char *const names[] = {
		[TRIAL_HIGHER] = "higher",
		[TRIAL_LOWER] = "lower",
		[TRIAL_WITHIN_NOISE] = "within-noise",
		[TRIAL_NO_BASELINE] = "no-baseline",
		[TRIAL_NO_EVENTS] = "no-events",
		[TRIAL_COUNTERS_RESET] = "reset",
	};
	return names[v];
}

static enum trial_verdict judge(const struct trial_row *r)
{
	double noise, delta;

	if (r->trial.state == TRIAL_RESET)
		return TRIAL_COUNTERS_RESET;
	if (r->trial.state != TRIAL_OK)
		return TRIAL_NO_EVENTS;
	if (r->base.state != TRIAL_OK || !r->spread || r->spread->n < TRIAL_MIN_SAMPLES)
		return TRIAL_NO_BASELINE;
	/*
	 * The spread of single seconds, not of the window's mean: a window
	 * averages over many seconds, so this calls fewer changes effects than
	 * a test of means would, and a quiet counter moving by an event or two
	 * is not one.
	 */
	noise = 2 * r->spread->sd > 1.0 ? 2 * r->spread->sd : 1.0;
	/* A rate's change must also be more events than numastatctl's own. */
	if (trial_metrics[r->metric].kind == TRIAL_RATE && r->trial.secs > 0) {
		double own = trial_metrics[r->metric].num & TK_NUMASTAT_MASK
				     ? TRIAL_OWN_ALLOC_EVENTS
				     : TRIAL_OWN_EVENTS;

		if (own / r->trial.secs > noise)
			noise = own / r->trial.secs;
	}
	delta = r->trial.v - r->base.v;
	if (delta <= noise && -delta <= noise)
		return TRIAL_WITHIN_NOISE;
	return delta > 0 ? TRIAL_HIGHER : TRIAL_LOWER;
}

int trial_rows(const struct trial_counters *b0, const struct trial_counters *b1,
	       const struct trial_spreads *sp, const struct trial_counters *t0,
	       const struct trial_counters *t1, struct trial_row **rows)
{
	struct trial_row *v = NULL;
	size_t n = 0, cap = 0;

	*rows = NULL;
	for (int m = 0; m < TM_COUNT; m++)
		for (size_t i = 0; i < t0->n; i++) {
			struct trial_row r = { .metric = m, .node = t0->s[i].node };

			trial_value(t0, t1, m, r.node, &r.trial);
			if (r.trial.state == TRIAL_ABSENT)
				continue;
			if (b0 && b1)
				trial_value(b0, b1, m, r.node, &r.base);
			r.spread = sp ? trial_spreads_find(sp, m, r.node) : NULL;
			r.have_change = r.trial.state == TRIAL_OK && r.base.state == TRIAL_OK &&
					r.base.v != 0;
			if (r.have_change)
				r.change_pct = 100.0 * (r.trial.v - r.base.v) / r.base.v;
			r.verdict = judge(&r);
			if (array_grow(&v, &cap, n + 1, sizeof(*v)) < 0) {
				free(v);
				return -ENOMEM;
			}
			v[n++] = r;
		}
	*rows = v;
	return (int)n;
}
