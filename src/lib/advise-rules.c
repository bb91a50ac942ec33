// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The advice rules: one const table (advise_rules[] at the end), each entry
 * with its condition, what it reads, what it recommends, why, the kernel
 * source it rests on, and the function that judges this machine.  The
 * functions only look at struct advise_facts; the order of the table is the
 * order of evaluation (knob-not-default comes last: it speaks only about
 * knobs no other rule has judged).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "interleave.h"
#include "value.h"
#include "why.h"

/* ---- small helpers ---- */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *disp(const struct af_knob *k, const struct kval *v, char *buf, size_t len)
{
	return knob_display(&k->ref, v, buf, len);
}

/* The live value of a numeric knob, or false (unreadable, or not a number). */
static bool knob_int(const struct af_knob *k, int64_t *v)
{
	return k->err == 0 && parse_i64(k->v.text, 0, INT32_MAX, v) == 0;
}

static int add_no_data(struct advice_list *out, const struct advise_rule *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Missing data for r; it stands for r's knob, which no later rule then judges. */
static int add_no_data(struct advice_list *out, const struct advise_rule *r, const char *fmt, ...)
{
	struct advice *a = advice_new(out, r, ADV_NO_DATA);
	va_list ap;

	if (!a)
		return -ENOMEM;
	if (r->knob)
		str_copy(a->knob, r->knob, sizeof(a->knob));
	va_start(ap, fmt);
	vsnprintf(a->text, sizeof(a->text), fmt, ap);
	va_end(ap);
	return 0;
}

/* "kernel.numa_balancing: cannot read /proc/sys/...: Permission denied". */
static int knob_no_data(struct advice_list *out, const struct advise_rule *r,
			const struct af_knob *k)
{
	struct advice *a = advice_new(out, r, ADV_NO_DATA);

	if (!a)
		return -ENOMEM;
	str_copy(a->knob, k->ref.name, sizeof(a->knob));
	if (k->err == -ENOENT)
		advice_text(a, "%s is not on this kernel", k->ref.name);
	else if (k->err == 0)
		advice_text(a, "%s is '%s', a value this rule does not know", k->ref.name,
			    k->v.text);
	else
		advice_text(a, "%s: cannot read %s: %s", k->ref.name, k->ref.path,
			    strerror(-k->err));
	return 0;
}

/* The knob's value fits: an entry that is never printed, so no later rule judges it again. */
static int judged_ok(struct advice_list *out, const struct advise_rule *r, const struct af_knob *k)
{
	struct advice *a = advice_new(out, r, ADV_OK);

	if (!a)
		return -ENOMEM;
	advice_set_knob(a, k, NULL);
	return 0;
}

static struct advice *new_advice(struct advice_list *out, const struct advise_rule *r,
				 const struct af_knob *k, const char *value)
{
	struct advice *a = advice_new(out, r, ADV_ADVICE);

	if (a && k)
		advice_set_knob(a, k, value);
	return a;
}

static void knob_evidence(struct advice *a, const struct af_knob *k)
{
	char v[KVAL_MAX];

	advice_evidence(a, "%s: %s", k->ref.path, disp(k, &k->v, v, sizeof(v)));
}

/* "0-2,5" for a list of node ids (rangelist_format(): "0-3,..." when cut), "none" for none. */
static void id_list(const unsigned *ids, size_t n, char *buf, size_t len)
{
	if (n)
		rangelist_format(ids, n, buf, len);
	else
		snprintf(buf, len, "none");
}

/* The ids of the nodes that pass keep(), as a list (",..." where buf is too short). */
static size_t node_list(const struct advise_facts *f, bool (*keep)(const struct af_node *),
			char *buf, size_t len)
{
	unsigned *ids = calloc(f->n ? f->n : 1, sizeof(*ids));
	size_t n = 0;

	for (size_t i = 0; ids && i < f->n; i++)
		if (!keep || keep(&f->nodes[i]))
			ids[n++] = f->nodes[i].id;
	if (ids)
		id_list(ids, n, buf, len);
	else
		snprintf(buf, len, "(out of memory)");
	free(ids);
	return n;
}

static bool is_cpuless(const struct af_node *nd)
{
	return nd->memory && !nd->cpu;
}

static bool has_cpu_and_memory(const struct af_node *nd)
{
	return nd->memory && nd->cpu;
}

/* ---- one node ---- */

/* A knob that does nothing useful on one node: advise 0 unless it is 0. */
static int single_node_zero(const struct advise_facts *f, const struct advise_rule *r,
			    struct advice_list *out, const char *why)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	struct advice *a;
	int64_t v;

	if (f->n != 1 || k->err == -ENOENT)
		return 0;
	if (!knob_int(k, &v))
		return knob_no_data(out, r, k);
	if (v == 0)
		return judged_ok(out, r, k);
	if (!(a = new_advice(out, r, k, "0")))
		return -ENOMEM;
	advice_text(a, "set %s = 0: this machine has one NUMA node, so %s", k->ref.name, why);
	advice_evidence(a, NODE_DIR ": node%u is the only node", f->nodes[0].id);
	knob_evidence(a, k);
	return 0;
}

static int eval_single_balancing(const struct advise_facts *f, const struct advise_rule *r,
				 struct advice_list *out)
{
	return single_node_zero(f, r, out, "there is no other node to move pages or tasks to");
}

static int eval_single_zone_reclaim(const struct advise_facts *f, const struct advise_rule *r,
				    struct advice_list *out)
{
	return single_node_zero(f, r, out, "there is no remote memory to avoid");
}

static void readers_evidence(struct advice *a, const struct advise_facts *f)
{
	for (size_t i = 0; i < f->nreaders; i++)
		advice_evidence(a, "reader: %s", f->readers[i]);
	if (!f->nreaders)
		advice_evidence(a, "no reader found; looked for %s", f->readers_looked);
	advice_evidence(
		a, "numastat(8) and scripts run by hand cannot be seen: with 0 they read zeros");
}

static int eval_single_numa_stat(const struct advise_facts *f, const struct advise_rule *r,
				 struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	struct advice *a;
	bool on;

	if (f->n != 1 || k->err == -ENOENT)
		return 0;
	if (k->err || (strcmp(k->v.text, "0") != 0 && strcmp(k->v.text, "1") != 0))
		return knob_no_data(out, r, k);
	on = k->v.text[0] == '1';
	if (f->nreaders && !on)
		return 0; /* numa-stat-frozen speaks */
	if (!f->nreaders && !on)
		return judged_ok(out, r, k);
	/*
	 * A note either way: vm.rst suggests 0 only where page allocation is
	 * the bottleneck, and nothing here can see that.
	 */
	if (!(a = advice_new(out, r, ADV_NOTE)))
		return -ENOMEM;
	advice_set_knob(a, k, NULL);
	if (f->nreaders)
		advice_text(a, "keep vm.numa_stat = 1: on one node the counters only repeat "
			       "numa_hit, but something here reads them");
	else
		advice_text(a, "vm.numa_stat = 0 would skip the NUMA counter update on every page "
			       "allocation (on one node every allocation is local): worth it only "
			       "where allocation speed is the bottleneck and nothing reads the "
			       "counters");
	advice_evidence(a, NODE_DIR ": node%u is the only node", f->nodes[0].id);
	knob_evidence(a, k);
	readers_evidence(a, f);
	return 0;
}

/* ---- counters frozen ---- */

static void explained_evidence(struct advice *a, const struct advise_facts *f,
			       const struct af_knob *k)
{
	char buf[KVAL_MAX];
	const char *v = disp(k, &k->v, buf, sizeof(buf));

	if (k->explained[0])
		advice_evidence(a, "%s = %s comes from %s", k->ref.name, v, k->explained);
	else if (f->cfg_ok)
		advice_evidence(a,
				"no profile of the configuration and no sysctl.d file sets "
				"%s = %s",
				k->ref.name, v);
	else
		advice_evidence(a, "the configuration has problems, so its profiles were not "
				   "consulted");
}

static int eval_numa_stat_frozen(const struct advise_facts *f, const struct advise_rule *r,
				 struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	struct advice *a;

	if (k->err == -ENOENT || (k->err == 0 && !knob_freezes_counters(&k->ref, &k->v)))
		return 0;
	if (k->err)
		return knob_no_data(out, r, k);
	if (f->n == 1 && !f->nreaders)
		return 0; /* single-node-numa-stat judges */
	if (!(a = advice_new(out, r, k->explained[0] ? ADV_NOTE : ADV_ADVICE)))
		return -ENOMEM;
	advice_set_knob(a, k, k->explained[0] ? NULL : "1");
	if (k->explained[0])
		advice_text(a, "the NUMA counters stay frozen at zero as configured; the rules "
			       "that need them cannot judge");
	else
		advice_text(a, "set vm.numa_stat = 1: the NUMA counters are frozen at zero");
	knob_evidence(a, k);
	advice_evidence(a, "%zu NUMA node%s", f->n, f->n == 1 ? "" : "s");
	for (size_t i = 0; i < f->nreaders; i++)
		advice_evidence(a, "reader: %s (it sees zeros)", f->readers[i]);
	explained_evidence(a, f, k);
	return 0;
}

/* ---- the configured profile against sysctl.d ---- */

static void sysctld_evidence(struct advice *a, const struct advise_facts *f,
			     const struct sysctld_conflict *c)
{
	char v[KVAL_MAX];

	if (c->boot_differs)
		advice_evidence(a,
				"at boot systemd-sysctl writes %s (%s:%u); numastatctl.service "
				"%s",
				c->boot.value, c->boot.file, c->boot.line,
				f->unit_enabled ? "runs after it, so the profile wins at boot"
						: "is not enabled, so that value holds");
	if (c->system_differs)
		advice_evidence(a, "'sysctl --system' writes %s (%s:%u) until the next apply",
				c->system.value, c->system.file, c->system.line);
	if (c->item->have_old)
		advice_evidence(a, "%s: %s", c->item->ref.path,
				knob_display(&c->item->ref, &c->item->old, v, sizeof(v)));
	advice_evidence(a, "profile %s sets it at %s", f->profile, c->item->origin);
}

static int eval_sysctld_conflict(const struct advise_facts *f, const struct advise_rule *r,
				 struct advice_list *out)
{
	if (!f->cfg_ok)
		return add_no_data(out, r,
				   "the configuration has problems ('numastatctl profiles' "
				   "lists them)");
	if (!f->profile[0])
		return 0;
	if (f->profile_why[0])
		return add_no_data(out, r, "%s", f->profile_why);
	for (size_t i = 0; i < f->conflicts.n; i++) {
		const struct sysctld_conflict *c = &f->conflicts.v[i];
		const struct sysctld_setting *s = c->boot_differs ? &c->boot : &c->system;
		struct advice *a = new_advice(out, r, NULL, NULL);
		char want[KVAL_MAX];

		if (!a)
			return -ENOMEM;
		str_copy(a->knob, c->item->ref.name, sizeof(a->knob));
		if (c->item->have_old)
			a->current = c->item->old;
		advice_text(a,
			    "make sysctl.d and profile %s agree on %s: %s:%u sets %s, the "
			    "profile wants %s",
			    f->profile, c->item->ref.name, s->file, s->line, s->value,
			    knob_display(&c->item->ref, &c->item->want, want, sizeof(want)));
		sysctld_evidence(a, f, c);
	}
	return 0;
}

/* ---- memory tiers ---- */

static size_t tiers_with_nodes(const struct advise_facts *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->tiers.n; i++)
		n += f->tiers.v[i].n > 0;
	return n;
}

static void tiers_evidence(struct advice *a, const struct advise_facts *f)
{
	char list[256];

	if (f->tiers_err) {
		advice_evidence(a, "%s", f->tiers_why);
		return;
	}
	for (size_t i = 0; i < f->tiers.n; i++) {
		if (!f->tiers.v[i].n)
			continue;
		id_list(f->tiers.v[i].nodes, f->tiers.v[i].n, list, sizeof(list));
		advice_evidence(a, MEMTIER_DIR "/memory_tier%u/nodelist: %s", f->tiers.v[i].id,
				list);
	}
}

static void masks_evidence(struct advice *a, const struct advise_facts *f)
{
	char list[256];

	node_list(f, has_cpu_and_memory, list, sizeof(list));
	advice_evidence(a, "nodes with CPUs and memory: %s", list);
	node_list(f, is_cpuless, list, sizeof(list));
	advice_evidence(a, "nodes with memory and no CPU (has_memory, not has_cpu): %s", list);
}

/* kernel.numa_balancing as a number the registry knows (0..3), or a no-data entry. */
static int balancing_mode(const struct advise_facts *f, const struct advise_rule *r,
			  struct advice_list *out, int64_t *mode)
{
	const struct af_knob *k = advise_knob(f, "kernel.numa_balancing");

	if (!knob_int(k, mode) || *mode > 3)
		return knob_no_data(out, r, k) < 0 ? -ENOMEM : 1;
	return 0;
}

static int eval_tiering_enable(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	char value[24];
	struct advice *a;
	int64_t mode;
	int rc;

	if (f->tiers_err || tiers_with_nodes(f) < 2)
		return 0;
	if ((rc = balancing_mode(f, r, out, &mode)) != 0)
		return rc < 0 ? rc : 0;
	if (mode & 2)
		return judged_ok(out, r, k);
	snprintf(value, sizeof(value), "%" PRId64, mode | 2);
	if (!(a = new_advice(out, r, k, value)))
		return -ENOMEM;
	advice_text(a,
		    "set kernel.numa_balancing = %s (tiering mode%s): this machine has %zu "
		    "memory tiers",
		    value, mode ? " added to normal balancing" : "", tiers_with_nodes(f));
	tiers_evidence(a, f);
	knob_evidence(a, k);
	k = advise_knob(f, "kernel.numa_balancing_promote_rate_limit_MBps");
	if (k->err == 0)
		advice_evidence(a,
				"promotion is limited to %s MB/s per node (%s); kernel.rst "
				"advises less than a tenth of the slow memory's write bandwidth",
				k->v.text, k->ref.name);
	return 0;
}

static int eval_demotion_enable(const struct advise_facts *f, const struct advise_rule *r,
				struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	struct advice *a;

	if (f->tiers_err || tiers_with_nodes(f) < 2)
		return 0;
	if (k->err || (strcmp(k->v.text, "0") != 0 && strcmp(k->v.text, "1") != 0))
		return knob_no_data(out, r, k);
	if (k->v.text[0] == '1')
		return judged_ok(out, r, k);
	if (!(a = new_advice(out, r, k, "1")))
		return -ENOMEM;
	advice_text(a,
		    "set mm.numa.demotion_enabled = true: cold pages can move to the slower "
		    "of the %zu memory tiers instead of being reclaimed",
		    tiers_with_nodes(f));
	tiers_evidence(a, f);
	knob_evidence(a, k);
	advice_evidence(a, "demotion may move pages to a node outside a cpuset's nodes "
			   "(sysfs-kernel-mm-numa): leave it off where cpusets must hold");
	return 0;
}

static int eval_tiering_without_tiers(const struct advise_facts *f, const struct advise_rule *r,
				      struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	char value[24];
	struct advice *a;
	int64_t mode;

	if (!knob_int(k, &mode) || !(mode & 2) || mode > 3)
		return 0;
	if (f->tiers_err)
		return add_no_data(out, r,
				   "kernel.numa_balancing has tiering mode on, but the "
				   "memory tiers cannot be read: %s",
				   f->tiers_why);
	if (tiers_with_nodes(f) >= 2)
		return 0;
	snprintf(value, sizeof(value), "%" PRId64, mode & ~(int64_t)2);
	if (!(a = new_advice(out, r, k, value)))
		return -ENOMEM;
	advice_text(a,
		    "set kernel.numa_balancing = %s: tiering mode promotes pages from a "
		    "slower memory tier, and this machine has one tier",
		    value);
	tiers_evidence(a, f);
	knob_evidence(a, k);
	if (mode == 2)
		advice_evidence(a, "in mode 2 alone the scanner skips every page on a top-tier "
				   "node (mm/mprotect.c), so it scans nothing here");
	return 0;
}

static int eval_cpuless_dram_tier(const struct advise_facts *f, const struct advise_rule *r,
				  struct advice_list *out)
{
	char list[256];
	struct advice *a;

	if (f->masks_err || !node_list(f, is_cpuless, list, sizeof(list)))
		return 0;
	if (!f->tiers_err && tiers_with_nodes(f) >= 2)
		return 0; /* tiering-enable and demotion-enable speak */
	if (advise_map_one_tier(f))
		return 0; /* one-memory-tier speaks, naming the devices */
	if (!(a = advice_new(out, r, ADV_NOTE)))
		return -ENOMEM;
	if (f->tiers_err == -ENOENT)
		advice_text(a,
			    "node %s has memory and no CPU, but this kernel has no memory "
			    "tiers: tiering mode and demotion would do nothing, so none is advised",
			    list);
	else
		advice_text(a,
			    "node %s has memory and no CPU, yet the kernel keeps it in the same "
			    "tier as the CPU nodes: tiering mode and demotion would do nothing, so "
			    "none is advised",
			    list);
	masks_evidence(a, f);
	tiers_evidence(a, f);
	advice_evidence(a, "a CPU-less node goes to a lower tier only with HMAT or CXL "
			   "performance data (6.12+) or through dax/kmem (memory_tier22)");
	return 0;
}

/* ---- zone reclaim ---- */

/*
 * The largest distance between two nodes (the first pair, node by node);
 * -1 when some node's distances are unknown.
 */
static int max_distance(const struct advise_facts *f, size_t *from, size_t *to)
{
	int best = -1;

	for (size_t i = 0; i < f->n; i++) {
		if (f->nodes[i].dist_err)
			return -1;
		if (f->nodes[i].dist_far > best) {
			best = f->nodes[i].dist_far;
			*from = i;
			*to = f->nodes[i].dist_far_at;
		}
	}
	return best;
}

static void distance_evidence(struct advice *a, const struct advise_facts *f, size_t from,
			      size_t to, int d)
{
	advice_evidence(a,
			"largest distance: node %u to node %u is %d (nodeN/distance), %s "
			"RECLAIM_DISTANCE %u",
			f->nodes[from].id, f->nodes[to].id, d,
			(unsigned)d > f->reclaim_distance ? "beyond" : "within",
			f->reclaim_distance);
	advice_evidence(a, "%s", f->reclaim_why);
}

/* zone_reclaim_mode on a machine of several nodes; 1 when the rule has nothing to do. */
static int zone_reclaim_mode(const struct advise_facts *f, const struct advise_rule *r,
			     struct advice_list *out, int64_t *mode)
{
	const struct af_knob *k = advise_knob(f, "vm.zone_reclaim_mode");

	if (f->n < 2 || k->err == -ENOENT)
		return 1;
	if (!knob_int(k, mode))
		return knob_no_data(out, r, k) < 0 ? -ENOMEM : 1;
	return 0;
}

/* Page cache share of a node in percent; -1 when its meminfo is unknown. */
static double cache_pct(const struct af_node *nd)
{
	if (nd->mi_err || !nd->mem_total)
		return -1;
	return pct(nd->file_pages > nd->shmem ? nd->file_pages - nd->shmem : 0, nd->mem_total);
}

static void cache_evidence(struct advice *a, const struct af_node *nd)
{
	char cache[32], total[32];

	fmt_human(nd->file_pages > nd->shmem ? nd->file_pages - nd->shmem : 0, FMT_SIZE, cache,
		  sizeof(cache));
	fmt_human(nd->mem_total, FMT_SIZE, total, sizeof(total));
	advice_evidence(a, "node %u: page cache (FilePages - Shmem) %s of MemTotal %s (%.0f%%)",
			nd->id, cache, total, cache_pct(nd));
}

static int eval_zone_reclaim_file_cache(const struct advise_facts *f, const struct advise_rule *r,
					struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	struct advice *a = NULL;
	size_t known = 0;
	int64_t mode;
	int rc;

	if ((rc = zone_reclaim_mode(f, r, out, &mode)) != 0 || !(mode & 7))
		return rc < 0 ? rc : 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct af_node *nd = &f->nodes[i];

		known += cache_pct(nd) >= 0;
		if (cache_pct(nd) < ADVISE_FILE_CACHE_PCT)
			continue;
		if (!a && !(a = new_advice(out, r, k, "0")))
			return -ENOMEM;
		cache_evidence(a, nd);
	}
	if (!known)
		return add_no_data(out, r, "no node's meminfo can be read: %s", f->nodes[0].mi_why);
	if (!a)
		return 0;
	advice_text(a, "set vm.zone_reclaim_mode = 0: page cache fills much of some node, and "
		       "zone reclaim throws it away rather than allocate on another node");
	knob_evidence(a, k);
	return 0;
}

static int eval_zone_reclaim_near(const struct advise_facts *f, const struct advise_rule *r,
				  struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	size_t from = 0, to = 0;
	struct advice *a;
	int64_t mode;
	int d, rc;

	if ((rc = zone_reclaim_mode(f, r, out, &mode)) != 0 || !(mode & 7))
		return rc < 0 ? rc : 0;
	if ((d = max_distance(f, &from, &to)) < 0)
		return add_no_data(out, r,
				   "the node distances cannot be read (" NODE_DIR
				   "/nodeN/distance)");
	if ((unsigned)d > f->reclaim_distance)
		return 0;
	if (!(a = new_advice(out, r, k, "0")))
		return -ENOMEM;
	advice_text(a,
		    "set vm.zone_reclaim_mode = 0: every node is within RECLAIM_DISTANCE %u "
		    "of every other, so a remote page costs little more than a local one",
		    f->reclaim_distance);
	knob_evidence(a, k);
	distance_evidence(a, f, from, to, d);
	return 0;
}

/* ---- counters ---- */

static bool interval_of(const struct advise_facts *f, const struct af_node *nd)
{
	return f->window > 0 && nd->have_delta;
}

/* The counters a ratio is taken over: the interval when there is one, else since boot. */
static const uint64_t *window_of(const struct advise_facts *f, const struct af_node *nd)
{
	return interval_of(f, nd) ? nd->delta : nd->boot;
}

static const char *window_name(const struct advise_facts *f, const struct af_node *nd, char *buf,
			       size_t len)
{
	if (interval_of(f, nd))
		snprintf(buf, len, "over the %.1f s interval", f->window);
	else
		snprintf(buf, len, "since boot or the last counter reset");
	return buf;
}

static uint64_t total_events(const struct advise_facts *f, bool delta)
{
	uint64_t t = 0;

	for (size_t i = 0; i < f->n; i++)
		if (!f->nodes[i].ns_err)
			t += (delta ? f->nodes[i].delta : f->nodes[i].boot)[NS_NUMA_HIT] +
			     (delta ? f->nodes[i].delta : f->nodes[i].boot)[NS_NUMA_MISS];
	return t;
}

/* Whether the counters can carry a judgement; if not, one no-data entry says why (1). */
static int counters_usable(const struct advise_facts *f, const struct advise_rule *r,
			   struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, "vm.numa_stat");
	size_t readable = 0;
	int rc;

	for (size_t i = 0; i < f->n; i++)
		readable += !f->nodes[i].ns_err;
	if (k->err == 0 && knob_freezes_counters(&k->ref, &k->v))
		rc = add_no_data(out, r, "vm.numa_stat is 0: the counters are frozen at zero");
	else if (!readable)
		rc = add_no_data(out, r, "no node's numastat can be read: %s",
				 f->n ? f->nodes[0].ns_why : "no NUMA node");
	else if (f->window > 0 && f->window_err)
		rc = add_no_data(out, r,
				 "the counters went backwards during the %.1f s interval "
				 "(vm.numa_stat was switched off and on)",
				 f->window);
	else if (f->window > 0 && total_events(f, true) < ADVISE_MIN_WINDOW_EVENTS)
		rc = add_no_data(out, r,
				 "the %.1f s interval saw only %" PRIu64 " allocation events "
				 "(at least %d are needed; a longer --interval helps)",
				 f->window, total_events(f, true), ADVISE_MIN_WINDOW_EVENTS);
	else if (f->window > 0)
		return 0;
	else if (f->uptime_err)
		rc = add_no_data(out, r,
				 "/proc/uptime cannot be read (%s), so how long the counters "
				 "have run is unknown (--interval SECONDS measures instead)",
				 strerror(-f->uptime_err));
	else if (f->uptime < ADVISE_MIN_UPTIME)
		rc = add_no_data(out, r,
				 "the counters cover only %.0f s since boot (/proc/uptime; "
				 "at least %d s are needed, or --interval SECONDS)",
				 f->uptime, ADVISE_MIN_UPTIME);
	else if (total_events(f, false) < ADVISE_MIN_EVENTS)
		rc = add_no_data(
			out, r,
			"the counters hold only %" PRIu64 " allocation events "
			"(numa_hit + numa_miss of all nodes; at least %d are needed): they "
			"were reset, or the machine has barely run (--interval SECONDS "
			"measures instead)",
			total_events(f, false), ADVISE_MIN_EVENTS);
	else
		return 0;
	return rc < 0 ? rc : 1;
}

static void counters_evidence(struct advice *a, const struct advise_facts *f,
			      const struct af_node *nd)
{
	const uint64_t *w = window_of(f, nd);
	char when[64];

	advice_evidence(a,
			"node %u %s: numa_hit %" PRIu64 ", numa_miss %" PRIu64
			", numa_foreign %" PRIu64 ", local_node %" PRIu64 ", other_node %" PRIu64,
			nd->id, window_name(f, nd, when, sizeof(when)), w[NS_NUMA_HIT],
			w[NS_NUMA_MISS], w[NS_NUMA_FOREIGN], w[NS_LOCAL_NODE], w[NS_OTHER_NODE]);
}

static bool enough_events(const struct advise_facts *f, const struct af_node *nd, uint64_t n)
{
	return n >= (interval_of(f, nd) ? ADVISE_MIN_WINDOW_EVENTS : ADVISE_MIN_NODE_EVENTS);
}

/* ---- zone reclaim where remote nodes are far ---- */

/* Share of the allocations meant for nd that went to another node; -1: too few. */
static double spill_pct(const struct advise_facts *f, const struct af_node *nd)
{
	const uint64_t *w = window_of(f, nd);
	uint64_t meant = w[NS_NUMA_HIT] + w[NS_NUMA_FOREIGN];

	if (nd->ns_err || !nd->memory || !enough_events(f, nd, meant))
		return -1;
	return pct(w[NS_NUMA_FOREIGN], meant);
}

/*
 * Where node i's spill went: the nearest other node with memory that took
 * allocations meant for another (numa_miss), in *to; false when none did.
 * With several nodes spilling the counters cannot pair them, so the
 * nearest such node stands for all: the kernel falls back nearest first.
 */
static bool took_others(const struct advise_facts *f, size_t j)
{
	const struct af_node *l = &f->nodes[j];

	return l->memory && !l->ns_err && window_of(f, l)[NS_NUMA_MISS];
}

static bool spill_landing(const struct advise_facts *f, size_t i, const unsigned *row, size_t *to)
{
	bool found = false;

	for (size_t j = 0; j < f->n; j++) {
		if (j == i || !took_others(f, j))
			continue;
		if (!found || row[j] < row[*to])
			*to = j;
		found = true;
	}
	return found;
}

/*
 * The distances from node i to every node of the facts, read again for a
 * node that spills (the facts keep only each node's farthest: memory
 * linear in nodes); NULL when they cannot be read.
 */
static unsigned *row_of(const struct advise_facts *f, size_t i)
{
	unsigned *row = calloc(f->n ? f->n : 1, sizeof(*row));

	if (row && (!f->distance_row || f->distance_row(f, i, row) < 0)) {
		free(row);
		row = NULL;
	}
	return row;
}

/* The nodes that took others' allocations, with their distance from node i. */
static void landing_evidence(struct advice *a, const struct advise_facts *f, size_t i,
			     const unsigned *row)
{
	char buf[ADVICE_LINE_MAX] = "";
	size_t o = 0, shown = 0, more = 0;

	for (size_t j = 0; j < f->n; j++) {
		const struct af_node *l = &f->nodes[j];

		if (j == i || !took_others(f, j))
			continue;
		if (shown == 6 || o >= sizeof(buf)) {
			more++;
			continue;
		}
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%snode %u %" PRIu64 " at %u",
				      shown++ ? ", " : "", l->id, window_of(f, l)[NS_NUMA_MISS],
				      row[j]);
	}
	advice_evidence(a,
			"taken by (numa_miss, then distance from node %u in nodeN/distance): "
			"%s%s; RECLAIM_DISTANCE is %u",
			f->nodes[i].id, buf, more ? ", and more" : "", f->reclaim_distance);
}

/*
 * Page cache that zone reclaim (mode 1) can drop on nd, as mm/vmscan.c
 * node_pagecache_reclaimable() counts it: the file LRU less what is mapped
 * (mode 1 does not unmap) and what is dirty (it does not write).  Shmem and
 * tmpfs pages sit on the anon LRU: zone reclaim never drops them.
 */
static uint64_t droppable(const struct af_node *nd)
{
	uint64_t unmapped = nd->file_lru > nd->mapped ? nd->file_lru - nd->mapped : 0;

	return unmapped > nd->dirty ? unmapped - nd->dirty : 0;
}

/*
 * What zone reclaim leaves on nd: vm.min_unmapped_ratio percent of its pages
 * (pgdat->min_unmapped_pages); with no more than that node_reclaim() does
 * not scan at all.
 */
static uint64_t reclaim_floor(const struct advise_facts *f, const struct af_node *nd,
			      int64_t *ratio)
{
	if (!knob_int(advise_knob(f, "vm.min_unmapped_ratio"), ratio))
		*ratio = 1; /* the kernel's default */
	return nd->mem_total / 100 * (uint64_t)*ratio;
}

static void droppable_evidence(struct advice *a, const struct advise_facts *f,
			       const struct af_node *nd)
{
	char cache[32], floor[32], total[32];
	int64_t ratio;

	fmt_human(reclaim_floor(f, nd, &ratio), FMT_SIZE, floor, sizeof(floor));
	fmt_human(droppable(nd), FMT_SIZE, cache, sizeof(cache));
	fmt_human(nd->mem_total, FMT_SIZE, total, sizeof(total));
	advice_evidence(a,
			"node %u: page cache zone reclaim can drop (Active(file) + "
			"Inactive(file) - Mapped - Dirty, nodeN/meminfo): %s; it leaves %s "
			"(vm.min_unmapped_ratio %" PRId64 "%% of MemTotal %s)",
			nd->id, cache, floor, ratio, total);
}

static void spill_evidence(struct advice *a, const struct advise_facts *f, size_t i,
			   const unsigned *row)
{
	const struct af_node *nd = &f->nodes[i];
	const uint64_t *w = window_of(f, nd);
	char when[64];

	advice_evidence(a,
			"node %u %s: numa_foreign %" PRIu64 " of %" PRIu64 " allocations meant "
			"for it (%.1f%%) went to another node",
			nd->id, window_name(f, nd, when, sizeof(when)), w[NS_NUMA_FOREIGN],
			w[NS_NUMA_HIT] + w[NS_NUMA_FOREIGN], spill_pct(f, nd));
	landing_evidence(a, f, i, row);
	droppable_evidence(a, f, nd);
}

/* Does node i, with CPUs, send a share of its allocations to nodes that took them? */
static bool spills(const struct advise_facts *f, size_t i)
{
	const struct af_node *nd = &f->nodes[i];
	bool took = false;

	for (size_t j = 0; j < f->n && !took; j++)
		took = j != i && took_others(f, j);
	return nd->cpu && spill_pct(f, nd) >= ADVISE_SPILL_PCT && took;
}

enum far_verdict {
	FAR_HELPS,     /* far spill, page cache to drop: zone reclaim can keep it local */
	FAR_NEAR,      /* the spill lands within RECLAIM_DISTANCE: remote costs little */
	FAR_NO_CACHE,  /* nothing zone reclaim could drop (a tmpfs or anon spill) */
	FAR_BIG_CACHE, /* page cache fills the node: dropping it hurts (file-cache's case) */
	FAR_UNKNOWN,   /* the node's meminfo lacks a line zone reclaim's count needs */
};

/* Can zone reclaim help the spill of node i (which spills(): landing on *to)? */
static enum far_verdict far_spill(const struct advise_facts *f, size_t i, const unsigned *row,
				  size_t *to)
{
	const struct af_node *nd = &f->nodes[i];
	int64_t ratio;

	if (!spill_landing(f, i, row, to) || row[*to] <= f->reclaim_distance)
		return FAR_NEAR;
	if (!nd->lru_known || cache_pct(nd) < 0)
		return FAR_UNKNOWN;
	if (cache_pct(nd) >= ADVISE_FILE_CACHE_PCT)
		return FAR_BIG_CACHE;
	return droppable(nd) > reclaim_floor(f, nd, &ratio) ? FAR_HELPS : FAR_NO_CACHE;
}

static int no_row(struct advice_list *out, const struct advise_rule *r, const struct af_node *nd)
{
	return add_no_data(out, r, "node%u/distance cannot be read again", nd->id);
}

/* The note of far_and_on(): zone reclaim on, node i still spilling over the interval. */
static int still_spills(const struct advise_facts *f, const struct advise_rule *r,
			struct advice_list *out, struct advice **a, size_t i)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	const struct af_node *nd = &f->nodes[i];
	unsigned *row = row_of(f, i);
	int64_t ratio;

	if (!row)
		return no_row(out, r, nd);
	if (!*a && !(*a = advice_new(out, r, ADV_NOTE))) {
		free(row);
		return -ENOMEM;
	}
	if ((*a)->nevidence == 0) {
		advice_set_knob(*a, k, NULL);
		advice_text(
			*a,
			"zone reclaim is on, yet node %u sent %.1f%% of the allocations meant "
			"for it to other nodes over the interval: it does not keep them local%s",
			nd->id, spill_pct(f, nd),
			droppable(nd) <= reclaim_floor(f, nd, &ratio)
				? ", and the node has no page cache left for it to drop"
				: "");
		knob_evidence(*a, k);
	}
	spill_evidence(*a, f, i, row);
	free(row);
	return 0;
}

/*
 * Zone reclaim is on where some node is far.  It is never taken as settled
 * while a node with CPUs still spills: over an --interval that is a note
 * (it does not keep the allocations local), from since-boot counters alone
 * it is missing data (the spill may predate the change).
 */
static int far_and_on(const struct advise_facts *f, const struct advise_rule *r,
		      struct advice_list *out)
{
	struct advice *a = NULL;
	int rc;

	for (size_t i = 0; i < f->n; i++)
		if (cache_pct(&f->nodes[i]) >= ADVISE_FILE_CACHE_PCT)
			return 0; /* zone-reclaim-file-cache speaks */
	if ((rc = counters_usable(f, r, out)) != 0)
		return rc < 0 ? rc : 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct af_node *nd = &f->nodes[i];

		if (!spills(f, i))
			continue;
		if (!interval_of(f, nd))
			return add_no_data(
				out, r,
				"zone reclaim is on, and node %u's counters since boot "
				"show %.1f%% of the allocations meant for it sent to other "
				"nodes, which may predate it: --interval SECONDS shows "
				"whether it still happens",
				nd->id, spill_pct(f, nd));
		if ((rc = still_spills(f, r, out, &a, i)) < 0)
			return rc;
	}
	return a ? 0 : judged_ok(out, r, advise_knob(f, r->knob));
}

static int far_unknown(struct advice_list *out, const struct advise_rule *r,
		       const struct af_node *nd)
{
	if (nd->mi_err)
		return add_no_data(out, r, "%s", nd->mi_why);
	return add_no_data(out, r,
			   "node%u/meminfo lacks Active(file), Inactive(file), Mapped or Dirty: "
			   "how much page cache zone reclaim could drop is unknown",
			   nd->id);
}

/* What the advice says once its first node is known: node i, spilling onto node to. */
static void far_text(struct advice *a, const struct advise_facts *f, size_t i, size_t to,
		     unsigned d)
{
	char cache[32];

	fmt_human(droppable(&f->nodes[i]), FMT_SIZE, cache, sizeof(cache));
	advice_text(a,
		    "set vm.zone_reclaim_mode = 1 if each part of the workload fits in one "
		    "node: node %u sends %.1f%% of the allocations meant for it to node %u, %u "
		    "away, and holds %s of page cache zone reclaim would drop first",
		    f->nodes[i].id, spill_pct(f, &f->nodes[i]), f->nodes[to].id, d, cache);
}

/* Mode 0: advise 1 for each spilling node whose spill zone reclaim can keep local. */
static int far_and_off(const struct advise_facts *f, const struct advise_rule *r,
		       struct advice_list *out)
{
	const struct af_knob *k = advise_knob(f, r->knob);
	struct advice *a = NULL;
	enum far_verdict v;
	unsigned *row;
	size_t to = 0;

	for (size_t i = 0; i < f->n; i++) {
		if (!spills(f, i))
			continue;
		if (!(row = row_of(f, i)))
			return no_row(out, r, &f->nodes[i]);
		v = far_spill(f, i, row, &to);
		if (v == FAR_UNKNOWN) {
			free(row);
			return far_unknown(out, r, &f->nodes[i]);
		}
		if (v == FAR_HELPS && !a && (a = new_advice(out, r, k, "1")))
			far_text(a, f, i, to, row[to]);
		if (v == FAR_HELPS && a)
			spill_evidence(a, f, i, row);
		free(row);
		if (v == FAR_HELPS && !a)
			return -ENOMEM;
	}
	if (!a)
		return 0;
	knob_evidence(a, k);
	advice_evidence(a, "%s", f->reclaim_why);
	advice_evidence(a, "whether the workload is partitioned cannot be measured: vm.rst "
			   "advises zone reclaim only when each partition fits in a node");
	return 0;
}

static int eval_zone_reclaim_far(const struct advise_facts *f, const struct advise_rule *r,
				 struct advice_list *out)
{
	size_t from = 0, to = 0;
	int64_t mode;
	int d, rc;

	if ((rc = zone_reclaim_mode(f, r, out, &mode)) != 0)
		return rc < 0 ? rc : 0;
	if ((d = max_distance(f, &from, &to)) < 0)
		return add_no_data(out, r,
				   "the node distances cannot be read (" NODE_DIR
				   "/nodeN/distance)");
	/* No two nodes far apart: no spill can be far either. */
	if (d <= 0 || (unsigned)d <= f->reclaim_distance)
		return 0;
	if (mode & 7)
		return far_and_on(f, r, out);
	if ((rc = counters_usable(f, r, out)) != 0)
		return rc < 0 ? rc : 0;
	return far_and_off(f, r, out);
}

/* ---- remote allocations on a node ---- */

static void procs_evidence(struct advice *a, const struct advise_facts *f, unsigned node)
{
	struct af_proc p[ADVISE_TOP_PROCS];
	size_t unreadable = 0;
	char size[32];
	int n;

	if (!f->remote_procs)
		return;
	n = f->remote_procs(f, node, p, ADVISE_TOP_PROCS, &unreadable);
	if (n < 0)
		advice_evidence(a, "processes: /proc cannot be read: %s", strerror(-n));
	else if (n == 0)
		advice_evidence(a,
				"processes: none holds memory on node %u while running on "
				"another node (/proc/PID/numa_maps)",
				node);
	if (unreadable)
		advice_evidence(a,
				"processes: the numa_maps of %zu could not be read (as root "
				"they can)",
				unreadable);
	for (int i = 0; i < n; i++) {
		fmt_human(p[i].bytes, FMT_SIZE, size, sizeof(size));
		advice_evidence(a, "process %u (%s) holds %s on node %u and last ran on node %u",
				p[i].pid, p[i].name, size, node, p[i].run_node);
	}
}

/* "12.0% over the interval against 8.0% since boot: rising"; false when falling. */
static bool trend_evidence(struct advice *a, const struct advise_facts *f, const struct af_node *nd,
			   const char *what, double now, double boot)
{
	if (!interval_of(f, nd)) {
		advice_evidence(a,
				"trend of %s: not measured (one sample; --interval SECONDS "
				"takes a second)",
				what);
		return true;
	}
	advice_evidence(a, "trend of %s: %.1f%% over the interval against %.1f%% since boot: %s",
			what, now, boot,
			now > boot    ? "rising"
			: now == boot ? "steady"
				      : "falling");
	return now >= boot;
}

struct ratios {
	double miss, other, boot_miss, boot_other;
	bool high_miss, high_other;
};

/* False when the node has too few events to judge. */
static bool node_ratios(const struct advise_facts *f, const struct af_node *nd, struct ratios *q)
{
	const uint64_t *w = window_of(f, nd), *b = nd->boot;

	if (nd->ns_err || !enough_events(f, nd, w[NS_NUMA_HIT] + w[NS_NUMA_MISS]))
		return false;
	q->miss = pct(w[NS_NUMA_MISS], w[NS_NUMA_HIT] + w[NS_NUMA_MISS]);
	q->boot_miss = pct(b[NS_NUMA_MISS], b[NS_NUMA_HIT] + b[NS_NUMA_MISS]);
	/* On a node without CPUs every allocation is other_node: no signal there. */
	q->other = nd->cpu ? pct(w[NS_OTHER_NODE], w[NS_LOCAL_NODE] + w[NS_OTHER_NODE]) : 0;
	q->boot_other = nd->cpu ? pct(b[NS_OTHER_NODE], b[NS_LOCAL_NODE] + b[NS_OTHER_NODE]) : 0;
	q->high_miss = q->miss >= ADVISE_MISS_PCT;
	q->high_other = nd->cpu && q->other >= ADVISE_OTHER_PCT;
	return true;
}

static void foreign_evidence(struct advice *a, const struct advise_facts *f)
{
	char buf[ADVICE_LINE_MAX];
	size_t o = 0;

	for (size_t i = 0; i < f->n && o < sizeof(buf); i++)
		if (!f->nodes[i].ns_err)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%snode %u %" PRIu64,
					      o ? ", " : "", f->nodes[i].id,
					      window_of(f, &f->nodes[i])[NS_NUMA_FOREIGN]);
	advice_evidence(a, "numa_foreign (meant for that node, served by another): %s", buf);
}

static int remote_node(const struct advise_facts *f, const struct advise_rule *r,
		       struct advice_list *out, const struct af_node *nd)
{
	struct advice *a;
	struct ratios q;
	bool rising = true;

	if (!node_ratios(f, nd, &q) || (!q.high_miss && !q.high_other))
		return 0;
	if (!(a = advice_new(out, r, ADV_ADVICE)))
		return -ENOMEM;
	counters_evidence(a, f, nd);
	if (q.high_miss)
		rising &= trend_evidence(a, f, nd, "numa_miss", q.miss, q.boot_miss);
	if (q.high_other)
		rising &= trend_evidence(a, f, nd, "other_node", q.other, q.boot_other);
	if (q.high_miss)
		foreign_evidence(a, f);
	procs_evidence(a, f, nd->id);
	if (q.high_miss && q.high_other)
		advice_text(a,
			    "node %u: %.1f%% of its allocations were meant for a fuller node "
			    "(numa_miss) and %.1f%% came from other nodes' CPUs (other_node): bind "
			    "the processes below to one node, or make room where they run",
			    nd->id, q.miss, q.other);
	else if (q.high_miss)
		advice_text(a,
			    "node %u: %.1f%% of its allocations were meant for a fuller node "
			    "(numa_miss): make room on the nodes with numa_foreign, or bind the "
			    "processes below to one node",
			    nd->id, q.miss);
	else
		advice_text(
			a,
			"node %u: %.1f%% of its allocations came from other nodes' CPUs "
			"(other_node): bind the processes below to one node, or make room where "
			"they run",
			nd->id, q.other);
	if (!rising) {
		a->kind = ADV_NOTE;
		advice_text(a,
			    "node %u: the share of remote allocations was high but is falling: "
			    "no advice",
			    nd->id);
	}
	return 0;
}

static int eval_remote(const struct advise_facts *f, const struct advise_rule *r,
		       struct advice_list *out)
{
	int rc;

	if (f->n < 2)
		return 0;
	if ((rc = counters_usable(f, r, out)) != 0)
		return rc < 0 ? rc : 0;
	for (size_t i = 0; i < f->n; i++) {
		if (f->nodes[i].ns_err) {
			if (add_no_data(out, r, "node %u: numastat: %s", f->nodes[i].id,
					f->nodes[i].ns_why) < 0)
				return -ENOMEM;
		} else if ((rc = remote_node(f, r, out, &f->nodes[i])) < 0)
			return rc;
	}
	return 0;
}

/* ---- huge pages ---- */

/* Pages of size kb in node's pool (0 when the node has none of that size). */
static uint64_t pool_pages(const struct af_node *nd, uint64_t kb)
{
	for (size_t i = 0; i < nd->nhp; i++)
		if (nd->hp[i].kb == kb)
			return nd->hp[i].nr;
	return 0;
}

static bool pool_node(const struct advise_facts *f, const struct af_node *nd)
{
	return f->masks_err ? nd->memory : nd->memory && nd->cpu;
}

static int pool_advice(const struct advise_facts *f, const struct advise_rule *r,
		       struct advice_list *out, uint64_t kb)
{
	uint64_t lo = UINT64_MAX, hi = 0, total = 0;
	struct advice *a;

	for (size_t i = 0; i < f->n; i++) {
		uint64_t n = pool_pages(&f->nodes[i], kb);

		if (!pool_node(f, &f->nodes[i]))
			continue;
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
		total += n;
	}
	if (!total || lo * 2 >= hi)
		return 0;
	if (!(a = advice_new(out, r, ADV_ADVICE)))
		return -ENOMEM;
	advice_text(a,
		    "spread the %" PRIu64 " kB huge page pool over the nodes: write each "
		    "node's share to " NODE_DIR "/nodeN/hugepages/hugepages-%" PRIu64
		    "kB/nr_hugepages",
		    kb, kb);
	for (size_t i = 0; i < f->n; i++)
		if (pool_node(f, &f->nodes[i]))
			advice_evidence(a, "node %u: %" PRIu64 " pages of %" PRIu64 " kB",
					f->nodes[i].id, pool_pages(&f->nodes[i], kb), kb);
	advice_evidence(a, "smallest pool %" PRIu64 ", largest %" PRIu64 " (less than half)", lo,
			hi);
	return 0;
}

/* Every page size some node's pool has, each once; the count. */
static size_t pool_sizes(const struct advise_facts *f, uint64_t *kb, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		for (size_t s = 0; s < f->nodes[i].nhp; s++) {
			size_t k = 0;

			while (k < n && kb[k] != f->nodes[i].hp[s].kb)
				k++;
			if (k == n && n < max)
				kb[n++] = f->nodes[i].hp[s].kb;
		}
	return n;
}

static int eval_hugepages(const struct advise_facts *f, const struct advise_rule *r,
			  struct advice_list *out)
{
	uint64_t kb[2 * HUGEPAGE_SIZES_MAX];
	size_t pools = 0, n;

	for (size_t i = 0; i < f->n; i++) {
		if (!pool_node(f, &f->nodes[i]))
			continue;
		if (f->nodes[i].hp_err)
			return add_no_data(out, r, "%s", f->nodes[i].hp_why);
		pools++;
	}
	if (pools < 2)
		return 0;
	n = pool_sizes(f, kb, sizeof(kb) / sizeof(kb[0]));
	for (size_t s = 0; s < n; s++) {
		int rc = pool_advice(f, r, out, kb[s]);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- knobs away from their defaults ---- */

/* The configured profile's say on k: 'numastatctl apply' would set that. */
static void profile_wants_evidence(struct advice *a, const struct advise_facts *f,
				   const struct af_knob *k)
{
	char v[KVAL_MAX];

	for (size_t i = 0; i < f->plan.n; i++)
		if (f->plan.items[i].ref.knob == k->ref.knob)
			advice_evidence(a,
					"the configured profile %s wants %s (%s): "
					"'numastatctl apply' sets it",
					f->profile, disp(k, &f->plan.items[i].want, v, sizeof(v)),
					f->plan.items[i].origin);
}

static int not_default(const struct advise_facts *f, const struct advise_rule *r,
		       struct advice_list *out, const struct af_knob *k)
{
	char why[WHY_MAX], vbuf[KVAL_MAX], dvbuf[KVAL_MAX];
	const char *v, *dv;
	struct advice *a;
	struct kval def;

	const char *where = !k->ref.knob->default_multinode ? ""
			    : f->n > 1                      ? " with more than one node"
							    : " on one node";

	if (knob_parse(&k->ref, knob_default(k->ref.knob, f->n), &def, why, sizeof(why)) < 0 ||
	    strcmp(def.text, k->v.text) == 0 || k->explained[0])
		return 0;
	/* knob_display() may answer with its own text rather than the buffer's. */
	v = disp(k, &k->v, vbuf, sizeof(vbuf));
	dv = disp(k, &def, dvbuf, sizeof(dvbuf));
	if (!f->cfg_ok)
		return add_no_data(out, r,
				   "%s differs from the default, and the configuration has "
				   "problems: whether a profile sets it is unknown",
				   k->ref.name);
	if (!(a = new_advice(out, r, k, def.text)))
		return -ENOMEM;
	advice_text(a,
		    "set %s = %s (the default%s), or record %s in a profile if it is meant: "
		    "no profile and no sysctl.d file sets it",
		    k->ref.name, dv, where, v);
	knob_evidence(a, k);
	advice_evidence(a, "registry default%s: %s", where, dv);
	explained_evidence(a, f, k);
	profile_wants_evidence(a, f, k);
	return 0;
}

static int eval_not_default(const struct advise_facts *f, const struct advise_rule *r,
			    struct advice_list *out)
{
	for (size_t i = 0; i < knob_count; i++) {
		const struct af_knob *k = &f->knobs[i];
		int rc = 0;

		if (k->err == -ENOENT || advice_judged(out, k->ref.name))
			continue;
		rc = k->err ? knob_no_data(out, r, k) : not_default(f, r, out, k);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- weighted interleave ---- */

/* "0:14 2:14 5:3" for the nodes with memory: w (NULL: the live weights). */
static void weight_list(const struct advise_facts *f, const unsigned *w, char *buf, size_t len)
{
	size_t used = 0, k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < f->n && used < len; i++) {
		if (!f->nodes[i].memory)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%u:%u", used ? " " : "",
					 f->nodes[i].id, w ? w[k] : f->nodes[i].weight);
		k++;
	}
}

static void perf_evidence(struct advice *a, const struct advise_facts *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct af_node *nd = &f->nodes[i];

		if (nd->memory && nd->have_perf)
			advice_evidence(a,
					"node %u (%s): access%u/initiators: read %" PRIu64
					" MiB/s, write %" PRIu64 " MiB/s, latency %" PRIu64
					"/%" PRIu64 " ns",
					nd->id, nd->cpu ? "CPUs" : "no CPU", nd->perf_class,
					nd->read_bw, nd->write_bw, nd->read_lat, nd->write_lat);
	}
}

/* The rule's weights in w (one per node with memory), the live ones in the evidence. */
static void weights_evidence(struct advice *a, const struct advise_facts *f, const unsigned *w,
			     const struct af_knob *au)
{
	char list[512];

	perf_evidence(a, f);
	weight_list(f, w, list, sizeof(list));
	advice_evidence(a,
			"the kernel's auto rule (min of read and write bandwidth, x%d / sum, "
			"then / GCD): %s",
			INTERLEAVE_WEIGHTINESS, list);
	weight_list(f, NULL, list, sizeof(list));
	advice_evidence(a, "/sys/kernel/mm/mempolicy/weighted_interleave: %s, auto %s", list,
			au->err                        ? "not on this kernel (6.16+)"
			: strcmp(au->v.text, "1") == 0 ? "on"
						       : "off");
	tiers_evidence(a, f);
}

/* No usable numbers: only worth saying where some memory is unlike the rest. */
static int interleave_no_data(const struct advise_facts *f, const struct advise_rule *r,
			      struct advice_list *out, const char *missing)
{
	char list[256];
	struct advice *a;

	if (!node_list(f, is_cpuless, list, sizeof(list)) &&
	    (f->tiers_err || tiers_with_nodes(f) < 2))
		return 0;
	if (!(a = advice_new(out, r, ADV_NO_DATA)))
		return -ENOMEM;
	advice_text(a,
		    "no interleave weights can be derived: the firmware gave no bandwidth for "
		    "node %s (nodeN/access0 and access1/initiators are missing)",
		    missing);
	masks_evidence(a, f);
	tiers_evidence(a, f);
	return 0;
}

/* Advise the weights themselves (no auto here): one entry per node that differs. */
static int advise_weights(const struct advise_facts *f, const struct advise_rule *r,
			  struct advice_list *out, const unsigned *w, const struct af_knob *au)
{
	struct af_knob k = { 0 };
	char value[8], ratio[512];
	size_t j = 0;

	weight_list(f, w, ratio, sizeof(ratio));
	for (size_t i = 0; i < f->n; i++) {
		const struct af_node *nd = &f->nodes[i];
		struct advice *a;

		if (!nd->memory)
			continue;
		if (nd->weight == w[j++])
			continue;
		knob_member(&k.ref, knob_by_name(INTERLEAVE_WEIGHTS), nd->id);
		fmt_i64(k.v.text, sizeof(k.v.text), nd->weight);
		snprintf(value, sizeof(value), "%u", w[j - 1]);
		if (!(a = new_advice(out, r, &k, value)))
			return -ENOMEM;
		advice_text(
			a,
			"set %s = %s: weighted interleave then spreads pages %s (node:weight) as "
			"the firmware's bandwidth does",
			k.ref.name, value, ratio);
		weights_evidence(a, f, w, au);
	}
	return 0;
}

/*
 * Does something use weighted interleave: the configured profile sets a
 * weight, a unit asks for it, a process has a mapping with it?  1 (what
 * in user), 0, or 1 when it cannot be told (advice rather than silence).
 */
static int wi_used(const struct advise_facts *f, char *user, size_t len)
{
	int r;

	for (size_t i = 0; i < f->plan.n; i++)
		if (strncmp(f->plan.items[i].ref.name, "mm.mempolicy.weighted_interleave.", 33) ==
		    0) {
			snprintf(user, len, "profile %s sets %s", f->profile,
				 f->plan.items[i].ref.name);
			return 1;
		}
	if (!f->wi_user)
		return 1;
	r = f->wi_user(f, user, len);
	return r == 0 ? 0 : 1;
}

/* What the rule says once the weights w are known (one per node with memory). */
static int judge_interleave(const struct advise_facts *f, const struct advise_rule *r,
			    struct advice_list *out, const unsigned *w, bool class1)
{
	const struct af_knob *au = advise_knob(f, INTERLEAVE_AUTO);
	bool auto_on = au->err == 0 && strcmp(au->v.text, "1") == 0, same = true;
	char list[512], user[256];
	struct advice *a;
	int used;

	weight_list(f, w, list, sizeof(list));
	for (size_t i = 0, j = 0; i < f->n; i++)
		if (f->nodes[i].memory && f->nodes[i].weight != w[j++])
			same = false;
	if (same) {
		if (!(a = advice_new(out, r, auto_on ? ADV_NOTE : ADV_OK)))
			return -ENOMEM;
		if (au->err == 0)
			advice_set_knob(a, au, NULL);
		advice_text(a,
			    "the kernel's auto already gives the weights the firmware's bandwidth "
			    "asks for (%s): nothing to change",
			    list);
		weights_evidence(a, f, w, au);
		return 0;
	}
	if ((used = wi_used(f, user, sizeof(user))) == 0) {
		/* Weights steer only weighted interleave: with no one asking, one note. */
		if (!(a = advice_new(out, r, ADV_NOTE)))
			return -ENOMEM;
		/* The rule has judged auto: knob-not-default says nothing more of it. */
		if (au->err == 0)
			advice_set_knob(a, au, NULL);
		advice_text(a,
			    "nothing here uses weighted interleave (no mapping in a process's "
			    "numa_maps, no unit's NUMAPolicy=, no weight in the profile): its "
			    "weights matter once something does; the firmware's bandwidth gives %s "
			    "(node:weight)",
			    list);
		weights_evidence(a, f, w, au);
		advice_evidence(a, "looked at: /proc/PID/numa_maps, the unit files' NUMAPolicy=, "
				   "the configured profile");
		return 0;
	}
	/* The kernel's bandwidth table holds access class 1 only: auto needs it. */
	if (au->err == 0 && class1 && !auto_on) {
		if (!(a = new_advice(out, r, au, "1")))
			return -ENOMEM;
		advice_text(a,
			    "set %s = true: the kernel then derives %s (node:weight) from the "
			    "firmware's bandwidth, and again when memory is added",
			    INTERLEAVE_AUTO, list);
		weights_evidence(a, f, w, au);
		advice_evidence(a, "weighted interleave is used: %s", user);
		return 0;
	}
	if (!auto_on)
		return advise_weights(f, r, out, w, au);
	if (!(a = advice_new(out, r, ADV_NOTE)))
		return -ENOMEM;
	advice_set_knob(a, au, NULL);
	advice_text(a,
		    "auto is on, yet the weights differ from %s, what the firmware's numbers "
		    "give: the kernel had other bandwidth when it derived them",
		    list);
	weights_evidence(a, f, w, au);
	return 0;
}

static int eval_interleave(const struct advise_facts *f, const struct advise_rule *r,
			   struct advice_list *out)
{
	const struct af_knob *au = advise_knob(f, INTERLEAVE_AUTO);
	char missing[128] = "";
	bool weights = false, class1 = true;
	size_t n = 0, nmiss = 0, used = 0;
	uint64_t *bw;
	unsigned *w;
	int rc;

	for (size_t i = 0; i < f->n; i++)
		weights |= f->nodes[i].weight > 0;
	/* Without bandwidth auto cannot be turned on: false fits, whatever the default. */
	if (au->err == 0 && strcmp(au->v.text, "0") == 0 && !interleave_auto_can_return() &&
	    judged_ok(out, r, au) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		const struct af_node *nd = &f->nodes[i];

		n += nd->memory;
		class1 &= !nd->memory || nd->perf_class == 1;
		if (nd->memory && !nd->have_perf && nmiss++ < 8 && used < sizeof(missing))
			used += (size_t)snprintf(missing + used, sizeof(missing) - used, "%s%u",
						 nmiss > 1 ? "," : "", nd->id);
	}
	if (!weights || n < 2)
		return 0;
	if (nmiss)
		return interleave_no_data(f, r, out, missing);
	bw = calloc(n, sizeof(*bw));
	w = calloc(n, sizeof(*w));
	if (!bw || !w) {
		free(bw);
		free(w);
		return -ENOMEM;
	}
	for (size_t i = 0, j = 0; i < f->n; i++)
		if (f->nodes[i].memory)
			bw[j++] = f->nodes[i].read_bw < f->nodes[i].write_bw ? f->nodes[i].read_bw
									     : f->nodes[i].write_bw;
	interleave_auto_weights(bw, n, w);
	rc = judge_interleave(f, r, out, w, class1);
	free(bw);
	free(w);
	return rc;
}

/* ---- the table ---- */

const struct advise_rule advise_rules[] = {
	{
		.id = "numa-stat-frozen",
		.priority = PRIO_HIGH,
		.knob = "vm.numa_stat",
		.condition =
			"vm.numa_stat is 0 on a machine of several nodes, or on one node where "
			"something reads the counters, and no profile or sysctl.d file sets 0",
		.reads = "/proc/sys/vm/numa_stat, the node count, node_exporter's command line, "
			 "the textfile timer, the configuration and sysctl.d",
		.recommendation = "vm.numa_stat = 1",
		.reason = "with 0 the kernel zeroed every NUMA counter and stopped counting, so "
			  "numastat, node_exporter's meminfo_numa collector, numastatctl stat and "
			  "the rules here see zeros",
		.source =
			"commit 4518085e127d (Linux 4.15), mm/vmstat.c sysctl_vm_numa_stat_handler()",
		.eval = eval_numa_stat_frozen,
	},
	{
		.id = "sysctld-profile-conflict",
		.priority = PRIO_HIGH,
		.knob = NULL,
		.condition =
			"a sysctl.d file sets a knob of the configured profile to another value",
		.reads =
			"the configured profile, /etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d, "
			"/usr/lib/sysctl.d, /lib/sysctl.d, /etc/sysctl.conf, the live values",
		.recommendation = "change or remove the sysctl.d line, or change the profile",
		.reason = "systemd-sysctl at boot and 'sysctl --system' by hand write the other "
			  "value, so the knob depends on which ran last",
		.source = "sysctl.d(5), systemd-sysctl.service(8)",
		.eval = eval_sysctld_conflict,
	},
	{
		.id = "zone-reclaim-file-cache",
		.priority = PRIO_HIGH,
		.knob = "vm.zone_reclaim_mode",
		.condition = "vm.zone_reclaim_mode is on (bits 1, 2 or 4) on a machine of several "
			     "nodes and page cache (FilePages - Shmem) fills at least 50% of some "
			     "node's MemTotal",
		.reads =
			"/proc/sys/vm/zone_reclaim_mode, nodeN/meminfo (MemTotal, FilePages, Shmem)",
		.recommendation = "vm.zone_reclaim_mode = 0",
		.reason = "zone reclaim drops a node's page cache before it allocates on another "
			  "node, which hurts work that lives on its cached files",
		.source = "Documentation/admin-guide/sysctl/vm.rst (zone_reclaim_mode)",
		.eval = eval_zone_reclaim_file_cache,
	},
	{
		.id = "remote-allocations",
		.priority = PRIO_HIGH,
		.knob = NULL,
		.condition =
			"on a node, numa_miss is at least 5% of numa_hit + numa_miss, or (on a "
			"node with CPUs) other_node is at least 20% of local_node + other_node, "
			"and with --interval the share is not falling",
		.reads = "nodeN/numastat (twice with --interval), /proc/uptime, nodeN/cpulist, "
			 "/proc/PID/numa_maps and /proc/PID/stat of every process",
		.recommendation = "bind the processes that hold memory away from where they run to "
				  "one node, or make room on the node they prefer",
		.reason = "every access to a remote page crosses the interconnect, which costs "
			  "latency and bandwidth on every later use",
		.source = "Documentation/admin-guide/numastat.rst",
		.eval = eval_remote,
	},
	{
		.id = "tiering-enable",
		.priority = PRIO_MEDIUM,
		.knob = "kernel.numa_balancing",
		.condition = "at least two memory tiers hold nodes and kernel.numa_balancing lacks "
			     "the tiering bit (2)",
		.reads = "/sys/devices/virtual/memory_tiering/memory_tierN/nodelist, "
			 "/proc/sys/kernel/numa_balancing",
		.recommendation = "kernel.numa_balancing with bit 2 (tiering) added",
		.reason =
			"tiering mode promotes the pages that get hot on a slower tier (CXL, PMEM) "
			"to the fast tier",
		.source = "Documentation/admin-guide/sysctl/kernel.rst (numa_balancing), "
			  "mm/memory-tiers.c",
		.eval = eval_tiering_enable,
	},
	{
		.id = "demotion-enable",
		.priority = PRIO_MEDIUM,
		.knob = "mm.numa.demotion_enabled",
		.condition = "at least two memory tiers hold nodes and demotion is off",
		.reads = "/sys/devices/virtual/memory_tiering/memory_tierN/nodelist, "
			 "/sys/kernel/mm/numa/demotion_enabled",
		.recommendation = "mm.numa.demotion_enabled = true",
		.reason = "demotion moves cold pages to the slower tier under memory pressure "
			  "instead of reclaiming them: the other half of tiering",
		.source = "Documentation/ABI/testing/sysfs-kernel-mm-numa",
		.eval = eval_demotion_enable,
	},
	{
		.id = "tiering-without-tiers",
		.priority = PRIO_MEDIUM,
		.knob = "kernel.numa_balancing",
		.condition = "kernel.numa_balancing has the tiering bit (2) and at most one memory "
			     "tier holds nodes",
		.reads = "/proc/sys/kernel/numa_balancing, "
			 "/sys/devices/virtual/memory_tiering/memory_tierN/nodelist",
		.recommendation = "kernel.numa_balancing without bit 2",
		.reason = "tiering mode only promotes from a slower tier, and mode 2 alone skips "
			  "every page on a top-tier node, so with one tier it does nothing",
		.source = "Documentation/admin-guide/sysctl/kernel.rst (numa_balancing), "
			  "mm/mprotect.c change_pte_range()",
		.eval = eval_tiering_without_tiers,
	},
	{
		.id = "zone-reclaim-near",
		.priority = PRIO_MEDIUM,
		.knob = "vm.zone_reclaim_mode",
		.condition = "vm.zone_reclaim_mode is on and no two nodes are farther apart than "
			     "RECLAIM_DISTANCE (30; 32 on AMD Zen)",
		.reads = "/proc/sys/vm/zone_reclaim_mode, nodeN/distance, /proc/cpuinfo",
		.recommendation = "vm.zone_reclaim_mode = 0",
		.reason = "when every node is near, allocating on another node costs less than "
			  "reclaiming; even the kernels that turned zone reclaim on by themselves "
			  "(until 2014) did so only for nodes beyond RECLAIM_DISTANCE",
		.source = "Documentation/admin-guide/sysctl/vm.rst (zone_reclaim_mode), "
			  "include/linux/topology.h (RECLAIM_DISTANCE), arch/x86/kernel/cpu/amd.c, "
			  "commit 4f9b16a64753 \"mm: disable zone_reclaim_mode by default\" (3.16)",
		.eval = eval_zone_reclaim_near,
	},
	{
		.id = "zone-reclaim-far",
		.priority = PRIO_MEDIUM,
		.knob = "vm.zone_reclaim_mode",
		.condition =
			"vm.zone_reclaim_mode is 0 and a node with CPUs sends at least 5% of the "
			"allocations meant for it (numa_foreign) to other nodes, the nearest node "
			"that took them (numa_miss) lies beyond RECLAIM_DISTANCE from it, and it "
			"holds more page cache zone reclaim can drop (Active(file) + "
			"Inactive(file) - Mapped - Dirty) than vm.min_unmapped_ratio leaves, with "
			"page cache under half of it; with zone reclaim on, a spill that goes on is "
			"a note, never a fit",
		.reads = "/proc/sys/vm/zone_reclaim_mode, /proc/sys/vm/min_unmapped_ratio, "
			 "nodeN/distance, /proc/cpuinfo, nodeN/numastat (twice with --interval), "
			 "nodeN/meminfo, has_cpu, has_memory, /proc/uptime",
		.recommendation = "vm.zone_reclaim_mode = 1, if each part of the workload fits in "
				  "one node",
		.reason = "beyond RECLAIM_DISTANCE a remote page costs more on every access than "
			  "dropping clean page cache on the node once; zone reclaim drops only "
			  "unmapped, clean file pages (never tmpfs, shmem or anonymous memory) and "
			  "none below vm.min_unmapped_ratio",
		.source =
			"Documentation/admin-guide/sysctl/vm.rst (zone_reclaim_mode, "
			"min_unmapped_ratio), mm/vmscan.c node_reclaim() and "
			"node_pagecache_reclaimable(), include/linux/topology.h (RECLAIM_DISTANCE), "
			"arch/x86/kernel/cpu/amd.c, commit 4f9b16a64753 \"mm: disable "
			"zone_reclaim_mode by default\" (3.16)",
		.eval = eval_zone_reclaim_far,
	},
	{
		.id = "single-node-balancing",
		.priority = PRIO_MEDIUM,
		.knob = "kernel.numa_balancing",
		.condition = "the machine has one NUMA node and kernel.numa_balancing is not 0",
		.reads = "/sys/devices/system/node, /proc/sys/kernel/numa_balancing",
		.recommendation = "kernel.numa_balancing = 0",
		.reason = "with one node there is nowhere to migrate pages or tasks to, so the "
			  "hinting faults of NUMA balancing only cost time",
		.source = "Documentation/admin-guide/sysctl/kernel.rst (numa_balancing), "
			  "mm/mempolicy.c check_numabalancing_enable()",
		.eval = eval_single_balancing,
	},
	{
		.id = "single-node-zone-reclaim",
		.priority = PRIO_MEDIUM,
		.knob = "vm.zone_reclaim_mode",
		.condition = "the machine has one NUMA node and vm.zone_reclaim_mode is not 0",
		.reads = "/sys/devices/system/node, /proc/sys/vm/zone_reclaim_mode",
		.recommendation = "vm.zone_reclaim_mode = 0",
		.reason = "zone reclaim trades reclaim for a remote allocation, and with one node "
			  "there is no remote memory: it only drops page cache early",
		.source = "Documentation/admin-guide/sysctl/vm.rst (zone_reclaim_mode)",
		.eval = eval_single_zone_reclaim,
	},
	{
		.id = "hugepages-unbalanced",
		.priority = PRIO_MEDIUM,
		.knob = NULL,
		.condition = "for some huge page size, the smallest pool of a node with CPUs and "
			     "memory is less than half the largest",
		.reads = "nodeN/hugepages/hugepages-SIZEkB/nr_hugepages, has_cpu, has_memory",
		.recommendation = "write each node's share to its nr_hugepages",
		.reason = "a task takes huge pages from its own node's pool first, and from "
			  "another node's (remote) pool when its own runs short",
		.source = "Documentation/admin-guide/mm/hugetlbpage.rst",
		.eval = eval_hugepages,
	},
	{
		.id = "cpuless-dram-tier",
		.priority = PRIO_LOW,
		.knob = NULL,
		.condition =
			"a node has memory and no CPU, and at most one memory tier holds nodes",
		.reads = "/sys/devices/system/node/has_cpu, has_memory, "
			 "/sys/devices/virtual/memory_tiering/memory_tierN/nodelist",
		.recommendation = "nothing (a note): tiering mode and demotion would do nothing",
		.reason = "without HMAT or CXL performance data or dax/kmem the kernel puts a "
			  "CPU-less node in the DRAM tier, so there is no slower tier",
		.source = "mm/memory-tiers.c memory_tier_late_init(), drivers/dax/kmem.c",
		.eval = eval_cpuless_dram_tier,
	},
	{
		.id = "lower-tier-normal-zone",
		.priority = PRIO_MEDIUM,
		.knob = NULL,
		.condition = "a node in a memory tier slower than the fastest has memory in "
			     "ZONE_NORMAL (or another zone below ZONE_MOVABLE)",
		.reads =
			"/proc/zoneinfo, /sys/devices/virtual/memory_tiering/memory_tierN/nodelist, "
			"/sys/devices/system/memory/auto_online_blocks, /proc/cmdline",
		.recommendation = "online that memory as online_movable: auto_online_blocks = "
				  "online_movable or memhp_default_state=online_movable before it "
				  "is added, offline and online again what is online already",
		.reason =
			"the kernel's own allocations in ZONE_NORMAL land on the slow tier, where "
			"they can never be demoted, moved or unplugged: memory onlined there "
			"stays attached for good",
		.source = "Documentation/admin-guide/mm/memory-hotplug.rst (ZONE_MOVABLE), "
			  "Documentation/driver-api/cxl/ (onlining CXL memory)",
		.eval = advise_map_lower_tier_normal,
	},
	{
		.id = "one-memory-tier",
		.priority = PRIO_LOW,
		.knob = NULL,
		.condition = "two or more nodes have memory, all of it in one memory tier, and "
			     "some of it is a CXL region's or a dax device's",
		.reads = "/sys/devices/virtual/memory_tiering/memory_tierN/nodelist, "
			 "/sys/bus/cxl/devices/regionZ, /sys/bus/dax/devices/daxX.Y, "
			 "/sys/devices/system/node/nodeN/memoryM",
		.recommendation = "nothing (a note): tiering mode and demotion would do nothing",
		.reason = "promotion and demotion move pages between tiers only; a device in the "
			  "DRAM tier had no HMAT or CXL figures (6.12+) and was not onlined by "
			  "dax/kmem",
		.source = "mm/memory-tiers.c (memory_tier_late_init(), mt_perf_to_adistance()), "
			  "drivers/dax/kmem.c",
		.eval = advise_map_one_tier_eval,
	},
	{
		.id = "cpuless-no-perf",
		.priority = PRIO_LOW,
		.knob = NULL,
		.condition = "a node has memory and no CPU, and neither HMAT (nodeN/accessY/"
			     "initiators) nor a CXL region's access coordinates give its figures",
		.reads = "/sys/devices/system/node/nodeN/cpulist, has_memory, "
			 "nodeN/access0/initiators, nodeN/access1/initiators, "
			 "/sys/bus/cxl/devices/regionZ/accessY",
		.recommendation = "nothing (a note): set the interleave weights by hand if it is "
				  "slower than the nodes with CPUs",
		.reason = "weighted interleave's auto weights come from bandwidth: a node without "
			  "it gets weight 1, as much as a DRAM node per round",
		.source = "mm/mempolicy.c (reduce_interleave_weights()), the weighted "
			  "interleave ABI (Documentation/ABI/testing/sysfs-kernel-mm-mempolicy)",
		.eval = advise_map_cpuless_no_perf,
	},
	{
		.id = "cxl-memdev-node",
		.priority = PRIO_LOW,
		.knob = NULL,
		.condition = "a CXL memdev's numa_node differs from the node its region's memory "
			     "went to",
		.reads = "/sys/bus/cxl/devices/memX/numa_node, regionZ/targetN, "
			 "/sys/bus/dax/devices/daxX.Y/target_node",
		.recommendation = "nothing (a note): bind, interleave and watch the region's node",
		.reason = "a memdev's numa_node is the CPU node of its PCI device, while its "
			  "memory is a node of its own: tools that print the first mislead the "
			  "second",
		.source = "Documentation/ABI/testing/sysfs-bus-cxl (memX/numa_node), "
			  "drivers/dax/kmem.c",
		.eval = advise_map_cxl_memdev_node,
	},
	{
		.id = "hotplug-offline",
		.priority = PRIO_MEDIUM,
		.knob = NULL,
		.condition = "memory blocks of a CXL region, a dax device or an ACPI memory device "
			     "are offline",
		.reads = "/sys/devices/system/memory/memoryN/state, firmware_node, "
			 "/sys/devices/system/node/nodeN/memoryN, auto_online_blocks",
		.recommendation = "online them (echo online_movable > "
				  "/sys/devices/system/memory/memoryN/state, or daxctl "
				  "online-memory), or set auto_online_blocks before adding more",
		.reason = "offline memory was added and is not used: auto_online_blocks was "
			  "offline when it came",
		.source = "Documentation/admin-guide/mm/memory-hotplug.rst",
		.eval = advise_map_hotplug_offline,
	},
	{
		.id = "interleave-weights",
		.priority = PRIO_MEDIUM,
		.knob = INTERLEAVE_AUTO,
		.condition = "two or more nodes with memory have weighted interleave weights, "
			     "the weights differ from those the firmware's bandwidth gives, and "
			     "something uses weighted interleave (a process's mapping, a unit's "
			     "NUMAPolicy=, a weight in the configured profile)",
		.reads =
			"/sys/devices/system/node/nodeN/access1 (else access0)/initiators/"
			"{read,write}_{bandwidth,latency}, has_cpu, has_memory, memory tiers, "
			"/sys/kernel/mm/mempolicy/weighted_interleave/, /proc/PID/numa_maps, "
			"the unit files and drop-ins in /etc, /run, /usr/lib and /lib/systemd/system, "
			"the configured profile",
		.recommendation =
			"mm.mempolicy.weighted_interleave.auto = true where the kernel "
			"has auto, else each node's weight as the auto rule derives it; "
			"a note when auto already gives them, and one note for the machine "
			"when nothing uses weighted interleave",
		.reason = "interleaving pages evenly over memory of unequal bandwidth (DRAM and "
			  "CXL) leaves the faster memory idle; weights in proportion to bandwidth "
			  "use both",
		.source = "mm/mempolicy.c reduce_interleave_weights() (6.16+), "
			  "Documentation/ABI/testing/sysfs-kernel-mm-mempolicy-weighted-interleave",
		.eval = eval_interleave,
	},
	{
		.id = "single-node-numa-stat",
		.priority = PRIO_LOW,
		.knob = "vm.numa_stat",
		.condition = "the machine has one NUMA node and vm.numa_stat is 1 (a note: "
			     "whether allocation speed is the bottleneck cannot be seen)",
		.reads =
			"/sys/devices/system/node, /proc/sys/vm/numa_stat, node_exporter's command "
			"line, numastatctl-textfile.timer, the textfile numastatctl.prom",
		.recommendation =
			"nothing (a note): vm.numa_stat = 0 only where page allocation speed is "
			"the bottleneck and nothing reads the counters; keep 1 when something does",
		.reason =
			"on one node every allocation is local, and 0 skips the counter update on "
			"every page allocation (185 to 176 cycles single-threaded in the commit's "
			"measurement), "
			"but numastat, node_exporter's meminfo_numa collector and numastatctl's "
			"textfile then read zeros",
		.source = "Documentation/admin-guide/sysctl/vm.rst (numa_stat), commit "
			  "4518085e127d (Linux 4.15)",
		.eval = eval_single_numa_stat,
	},
	/* The kubelet's Topology Manager (advise-kubelet.c). */
	{
		.id = "kubelet-numa-nodes",
		.priority = PRIO_HIGH,
		.knob = NULL,
		.condition = "the kubelet's configuration sets a topologyManagerPolicy other than "
			     "none, and the machine has more NUMA nodes than 8 or than its "
			     "max-allowable-numa-nodes",
		.reads = KUBELET_CONFIG " (topologyManagerPolicy, topologyManagerPolicyOptions), "
					"the node directories",
		.recommendation = "topologyManagerPolicyOptions: max-allowable-numa-nodes: \"N\", "
				  "N the node count",
		.reason = "the Topology Manager refuses to start on more than 8 NUMA nodes (the "
			  "kubelet then fails) unless that option allows more",
		.source = "kubernetes.io/docs/tasks/administer-cluster/topology-manager/ (policy "
			  "options), KEP-4622 (beta in Kubernetes 1.31)",
		.eval = advise_kubelet_numa_nodes,
	},
	{
		.id = "kubelet-closest-numa",
		.priority = PRIO_MEDIUM,
		.knob = NULL,
		.condition = "the kubelet's configuration sets a topologyManagerPolicy other than "
			     "none, the distances between nodes differ (3 nodes or more), and "
			     "prefer-closest-numa-nodes is not \"true\"",
		.reads = KUBELET_CONFIG " (topologyManagerPolicy, topologyManagerPolicyOptions), "
					"nodeN/distance",
		.recommendation =
			"topologyManagerPolicyOptions: prefer-closest-numa-nodes: \"true\"",
		.reason = "without it the Topology Manager is not aware of NUMA distances: of two "
			  "sets of nodes as narrow, it may give a pod the farther one (two SNC "
			  "nodes of different packages rather than of one)",
		.source = "kubernetes.io/docs/tasks/administer-cluster/topology-manager/ (policy "
			  "options), KEP-3545 (GA in Kubernetes 1.32)",
		.eval = advise_kubelet_closest,
	},
	{
		.id = "damos-tiering-promoters",
		.priority = PRIO_MEDIUM,
		.knob = NULL,
		.condition = "a running kdamond has a scheme whose action migrates (migrate_hot, "
			     "migrate_cold) and kernel.numa_balancing has the tiering bit (2)",
		.reads = "each kdamond's state and pid under /sys/kernel/mm/damon/admin/kdamonds, "
			 "its schemes' action, target_nid and stats/sz_applied, "
			 "/proc/sys/kernel/numa_balancing",
		.recommendation = "nothing (a note): know that two mechanisms move pages between "
				  "tiers, and count DAMON's with stat --migration-reasons",
		.reason = "tiering balancing and the DAMOS scheme both promote (or demote), and "
			  "DAMON's migrations are in pgmigrate_success but not in pgpromote_* or "
			  "numa_pages_migrated",
		.source = "Documentation/admin-guide/mm/damon/usage.rst (migrate_hot, "
			  "migrate_cold), Documentation/admin-guide/sysctl/kernel.rst "
			  "(numa_balancing)",
		.eval = advise_interact_damos_tiering,
	},
	{
		.id = "damon-stat-running",
		.priority = PRIO_LOW,
		.knob = NULL,
		.condition = "DAMON_STAT is enabled (/sys/module/damon_stat/parameters/enabled)",
		.reads = "/sys/module/damon_stat/parameters/enabled, /proc/PID/comm and "
			 "/proc/PID/stat of the kdamond threads",
		.recommendation = "nothing (a note): its kdamond's PID and CPU time; "
				  "damon_stat.enabled = N before starting a DAMON sysfs kdamond",
		.reason = "DAMON_STAT's kdamond runs exclusively: while it runs, writing on to a "
			  "sysfs kdamond's state fails with EBUSY (measured on 7.2)",
		.source = "Documentation/admin-guide/mm/damon/stat.rst, mm/damon/core.c "
			  "damon_start()",
		.eval = advise_interact_damon_stat,
	},
	{
		.id = "sched-ext-balancing",
		.priority = PRIO_LOW,
		.knob = NULL,
		.condition = "a sched_ext scheduler is enabled and kernel.numa_balancing is not 0",
		.reads = "/sys/kernel/sched_ext/state, /sys/kernel/sched_ext/root/ops, "
			 "/proc/sys/kernel/numa_balancing, numa_pte_updates in /proc/vmstat (twice "
			 "with --interval)",
		.recommendation = "nothing (a note): whether balancing still scans, as "
				  "numa_pte_updates shows over --interval",
		.reason = "NUMA balancing's scanner is armed from the fair class's tick, which "
			  "tasks a BPF scheduler runs do not get (measured on 7.2: a full switch "
			  "stops it, SCX_OPS_SWITCH_PARTIAL does not): only the counter says "
			  "whether it scans here",
		.source = "kernel/sched/fair.c task_tick_numa(), "
			  "Documentation/scheduler/sched-ext.rst",
		.eval = advise_interact_sched_ext,
	},
	{
		.id = "knob-not-default",
		.priority = PRIO_LOW,
		.knob = NULL,
		.condition = "a registry knob differs from its default, no other rule judged it, "
			     "and no profile of the configuration or sysctl.d file sets that value",
		.reads = "every registry knob, the configuration, sysctl.d",
		.recommendation = "the registry default, or a profile that records the value",
		.reason = "a value that no profile or sysctl.d file records is lost at the next "
			  "boot (unless some other tool writes it) and explains itself to no one",
		.source =
			"the knob registry (numastatctl knobs), Documentation/admin-guide/sysctl/vm.rst",
		.eval = eval_not_default,
	},
};

const size_t advise_rule_count = sizeof(advise_rules) / sizeof(advise_rules[0]);
