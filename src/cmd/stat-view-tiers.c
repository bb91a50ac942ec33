// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --tiers: memory tiering (stat-view.h).  Which nodes form which
 * tier (memory_tier<id>/nodelist, 6.1+; a lower id is a faster tier), which
 * nodes have CPUs and which only memory, the distances between them (as
 * numactl -H prints them), and the promotion and demotion counters: per
 * node where the kernel keeps them (promotion on the node promoted to,
 * demotion on the node demoted from: since which kernel, vmstat.h),
 * machine-wide otherwise.  A kernel without tiering, or with one tier, is
 * said in one line: nothing moves between tiers there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-stat.h"
#include "cmd.h"
#include "knobs.h"
#include "log.h"
#include "nodes.h"
#include "out.h"
#include "prom.h"
#include "stat-view.h"
#include "stat-vmstat.h"
#include "why.h"

#define NUM (OUT_COL_RIGHT | OUT_COL_NUMBER)

enum {
	TC_NODE,
	TC_TIER,
	TC_CPU,
	TC_MEMORY,
	TC_DISTANCE,
	TC_PROMOTE_SUCCESS,
	TC_PROMOTE_CANDIDATE,
	TC_PROMOTE_CANDIDATE_NRL,
	TC_DEMOTE_KSWAPD,
	TC_DEMOTE_DIRECT,
	TC_DEMOTE_KHUGEPAGED,
	TC_DEMOTE_PROACTIVE,
	TC_COUNT,
};

/* Its columns, as stat_view_col (one per enum value), ending with { 0 }. */
static const struct stat_view_col cols[TC_COUNT + 1] = {
	[TC_NODE] = { "NODE", "node", -1, NUM, "node id; all: the whole machine" },
	[TC_TIER] = { "TIER", "tier", -1, NUM,
		      "the node's memory tier id (memory_tierN): lower is faster; ids are abstract "
		      "distance classes, not ranks, and may be far apart" },
	[TC_CPU] = { "CPU", "has_cpu", -1, OUT_COL_BOOLEAN_OPT,
		     "the node has CPUs (has_cpu); one with memory and no CPU is typically CXL or "
		     "persistent memory; in JSON a boolean, null where the kernel lacks the mask" },
	[TC_MEMORY] = { "MEMORY", "has_memory", -1, OUT_COL_BOOLEAN_OPT,
			"the node has memory (has_memory); in JSON a boolean, null where the kernel "
			"lacks the mask" },
	[TC_DISTANCE] = { "DISTANCE", "distance", -1, OUT_COL_NUMBERS,
			  "the node's distances to the nodes shown, in node order, as numactl -H prints "
			  "them; in JSON an array, by default up to 64 nodes, empty on the all row" },
	[TC_PROMOTE_SUCCESS] = { "PGPROMOTE_SUCCESS", "pgpromote_success", VMS_PGPROMOTE_SUCCESS,
				 NUM, "pages promoted to a faster node (counted there)" },
	[TC_PROMOTE_CANDIDATE] = { "PGPROMOTE_CANDIDATE", "pgpromote_candidate",
				   VMS_PGPROMOTE_CANDIDATE, NUM,
				   "pages found hot enough to promote (counted on the target)" },
	[TC_PROMOTE_CANDIDATE_NRL] = { "PGPROMOTE_CANDIDATE_NRL", "pgpromote_candidate_nrl",
				       VMS_PGPROMOTE_CANDIDATE_NRL, NUM,
				       "candidates promoted without rate limit (fast node had room)" },
	[TC_DEMOTE_KSWAPD] = { "PGDEMOTE_KSWAPD", "pgdemote_kswapd", VMS_PGDEMOTE_KSWAPD, NUM,
			       "pages kswapd demoted to a slower node (counted where reclaimed)" },
	[TC_DEMOTE_DIRECT] = { "PGDEMOTE_DIRECT", "pgdemote_direct", VMS_PGDEMOTE_DIRECT, NUM,
			       "pages direct reclaim demoted to a slower node" },
	[TC_DEMOTE_KHUGEPAGED] = { "PGDEMOTE_KHUGEPAGED", "pgdemote_khugepaged",
				   VMS_PGDEMOTE_KHUGEPAGED, NUM, "pages khugepaged demoted" },
	[TC_DEMOTE_PROACTIVE] = { "PGDEMOTE_PROACTIVE", "pgdemote_proactive",
				  VMS_PGDEMOTE_PROACTIVE, NUM,
				  "pages proactive reclaim (memory.reclaim) demoted" },
};

/*
 * The distance matrix has a number for every pair of nodes shown: n² to
 * read (each nodeN/distance lists every online node), print and export.
 * Up to this many nodes it is shown by default, after the table (and as
 * JSON's DISTANCE, and as Prometheus series); with more, a line says how to
 * see it (-o +DISTANCE), and the files are not read.
 */
#define MATRIX_MAX 64

/* What a node row shows besides counters. */
struct node_kind {
	long tier;       /* -1: in no tier */
	int cpu, memory; /* 1, 0, or -1: the kernel lacks the mask */
	unsigned *dist;  /* to the nodes shown (n_dist), NULL: unreadable */
};

/* The context: the counter table's, then the tiers and the node kinds. */
struct tiers {
	struct vms_view_ctx v;  /* first: the counter view's operations take it */
	struct memtiers mt;     /* nodes.h: node_memtiers_read() */
	bool tiering;           /* the kernel has MEMTIER_DIR */
	struct node_kind *kind; /* t.n_nodes */
	size_t n_dist;
};

/* Whether node is in a NODE_DIR mask: 1, 0, -1 (no such file). */
static int in_mask(const unsigned *ids, int n, unsigned node)
{
	return n < 0 ? -1 : rangelist_has(ids, (size_t)n, node);
}

/*
 * nodeN/distance has one distance per online node, in id order; keep the
 * ones to the nodes shown (both lists are sorted).
 */
static int read_distances(struct tiers *ts, size_t i, const unsigned *online, int n_online)
{
	char buf[8192], why[WHY_MAX];
	unsigned *all = NULL, node = ts->v.t.rows[i].node, *d;
	size_t j = 0;
	int n;

	if (node_file_read(node, "distance", buf, sizeof(buf), why, sizeof(why)) < 0) {
		log_err(NODE_DIR "/node%u/distance: %s", node, why);
		return -1;
	}
	n = node_distance_parse(buf, &all);
	if (n < 0 || n != n_online) {
		log_err(NODE_DIR "/node%u/distance: %s", node,
			n < 0 ? "expected distances such as 10 21"
			      : "not one distance per online node");
		free(all);
		return -1;
	}
	d = calloc(ts->n_dist ? ts->n_dist : 1, sizeof(*d));
	for (size_t k = 0; d && k < (size_t)n && j < ts->n_dist; k++)
		if (online[k] == ts->v.t.rows[j].node)
			d[j++] = all[k];
	free(all);
	if (d && j < ts->n_dist) {
		log_err(NODE_DIR "/online: node %u is not listed", ts->v.t.rows[j].node);
		free(d);
		return -1;
	}
	ts->kind[i].dist = d;
	return d ? 0 : -1;
}

/* Is column col among those shown? */
static bool shown(const struct tiers *ts, int col)
{
	for (size_t i = 0; i < ts->v.show.n; i++)
		if (ts->v.shown[i] == col)
			return true;
	return false;
}

/* The whole matrix goes out: a small one after the table, or as series. */
static bool whole_matrix(const struct tiers *ts)
{
	const struct stat_opts *o = ts->v.o;

	return ts->v.t.n_nodes <= MATRIX_MAX &&
	       (o->prometheus || o->textfile || (!o->json && o->interval == 0));
}

static int read_kinds(struct tiers *ts)
{
	bool distances = shown(ts, TC_DISTANCE) || whole_matrix(ts);
	unsigned *cpu, *mem, *online = NULL;
	int ncpu = node_mask_read("has_cpu", &cpu), nmem = node_mask_read("has_memory", &mem);
	int non = node_mask_read("online", &online), rc = EXIT_OK;

	/* Without the online mask (an old dump), the node directories say it. */
	if (non == -ENOENT)
		non = nodes_enumerate(&online);

	ts->n_dist = ts->v.t.n_nodes;
	ts->kind = calloc(ts->v.t.n_nodes ? ts->v.t.n_nodes : 1, sizeof(*ts->kind));
	if (!ts->kind)
		rc = EXIT_FAIL;
	if (ncpu == -EBADMSG || nmem == -EBADMSG || non == -EBADMSG) {
		log_err(NODE_DIR
			": has_cpu, has_memory or online: expected a node list such as 0-3");
		rc = EXIT_FAIL;
	}
	for (size_t i = 0; ts->kind && i < ts->v.t.n_nodes; i++) {
		unsigned node = ts->v.t.rows[i].node;

		int t = node_memtiers_of(&ts->mt, node);

		ts->kind[i].tier = t < 0 ? -1 : (long)ts->mt.v[t].id;
		ts->kind[i].cpu = in_mask(cpu, ncpu, node);
		ts->kind[i].memory = in_mask(mem, nmem, node);
		if (distances && read_distances(ts, i, online, non) < 0)
			rc = EXIT_FAIL;
	}
	free(cpu);
	free(mem);
	free(online);
	return rc;
}

/* DISTANCE: "10 21" in a table, one per line for a JSON array. */
static void distance_cell(const struct tiers *ts, const struct node_kind *k, struct grid *g,
			  size_t gr, size_t gc)
{
	char *buf = k && k->dist ? malloc(ts->n_dist * 4 + 1) : NULL;
	size_t j = 0;

	/* At most "255 " per node. */
	for (size_t i = 0; buf && i < ts->n_dist; i++)
		j += (size_t)sprintf(buf + j, "%s%u",
				     i == 0          ? ""
				     : ts->v.o->json ? "\n"
						     : " ",
				     k->dist[i]);
	if (buf)
		buf[j] = '\0';
	grid_set_long(g, gr, gc, buf, 0, true);
	free(buf);
}

static void flag_cell(const struct tiers *ts, int v, struct grid *g, size_t gr, size_t gc)
{
	if (v < 0)
		grid_set(g, gr, gc, NULL, 0, false);
	else if (ts->v.o->json)
		grid_set(g, gr, gc, v ? "1" : "0", v, v); /* libsmartcols: "0" is false */
	else
		grid_set(g, gr, gc, v ? "yes" : "no", v, v);
}

static void own_cell(struct vms_view_ctx *c, struct grid *g, size_t gr, size_t gc, size_t r,
		     int col, const struct stat_loop_info *in)
{
	const struct tiers *ts = (const struct tiers *)c;
	const struct node_kind *k = r < ts->v.t.n_nodes ? &ts->kind[r] : NULL;
	char buf[24];

	if (col == TC_TIER && k && k->tier >= 0) {
		snprintf(buf, sizeof(buf), "%ld", k->tier);
		grid_set(g, gr, gc, buf, (double)k->tier, true);
	} else if (col == TC_CPU || col == TC_MEMORY)
		flag_cell(ts, k ? (col == TC_CPU ? k->cpu : k->memory) : -1, g, gr, gc);
	else if (col == TC_DISTANCE)
		distance_cell(ts, k, g, gr, gc);
	else
		grid_set(g, gr, gc, NULL, -1, false);
}

/* Without -o: TIER, CPU, MEMORY, and DISTANCE in one-shot JSON (besides the counters). */
static bool by_default(const struct vms_view_ctx *c, int col)
{
	return col != TC_DISTANCE ||
	       (c->o->json && c->o->interval == 0 && c->t.n_nodes <= MATRIX_MAX);
}

/* "0-2,5", whole (rangelist_format()); NULL when out of memory. */
static char *range_text(const unsigned *ids, size_t n)
{
	size_t len = rangelist_format(ids, n, NULL, 0);
	char *s = malloc(len + 1);

	if (s)
		rangelist_format(ids, n, s, len + 1);
	return s;
}

/* The one line on the tiers: none, one, or several fastest first. */
static void tiers_line(const struct tiers *ts)
{
	char *text = NULL, *nodes;
	size_t size = 0;
	FILE *f;

	if (!ts->tiering) {
		stat_view_line(ts->v.o, "memory tiers: not on this kernel (no " MEMTIER_DIR
					"): nothing is promoted or demoted between tiers");
		return;
	}
	if (ts->mt.n <= 1) {
		nodes = range_text(ts->mt.n ? ts->mt.v[0].nodes : NULL,
				   ts->mt.n ? ts->mt.v[0].n : 0);
		stat_view_line(
			ts->v.o,
			"memory tiers: one (memory_tier%u: node%s %s): nothing is promoted or "
			"demoted between tiers",
			ts->mt.n ? ts->mt.v[0].id : 0, ts->mt.n && ts->mt.v[0].n == 1 ? "" : "s",
			nodes ? nodes : "?");
		free(nodes);
		return;
	}
	if (!(f = open_memstream(&text, &size)))
		return;
	fprintf(f, "memory tiers: %zu, fastest first:", ts->mt.n);
	for (size_t i = 0; i < ts->mt.n; i++) {
		nodes = range_text(ts->mt.v[i].nodes, ts->mt.v[i].n);
		fprintf(f, "%s memory_tier%u (node%s %s)", i ? "," : "", ts->mt.v[i].id,
			ts->mt.v[i].n == 1 ? "" : "s", nodes ? nodes : "?");
		free(nodes);
	}
	if (fclose(f) == 0)
		stat_view_line(ts->v.o, "%s", text);
	free(text);
}

/* A knob's value as `get` prints it, or NULL when this kernel lacks it. */
static const char *knob_value(const char *name, char *buf, size_t size)
{
	struct knob_ref ref;
	struct kval v;

	if (knob_resolve(name, &ref, NULL, 0) < 0 || knob_read(&ref, &v) < 0)
		return NULL;
	return knob_display(&ref, &v, buf, size);
}

/*
 * What the knobs let move: promotion needs kernel.numa_balancing's tiering
 * bit (2), demotion mm.numa.demotion_enabled.
 */
static void knobs_line(const struct tiers *ts)
{
	char nb[KVAL_MAX], de[KVAL_MAX];
	const char *b = knob_value("kernel.numa_balancing", nb, sizeof(nb));
	const char *d = knob_value("mm.numa.demotion_enabled", de, sizeof(de));
	long mode = b ? strtol(b, NULL, 10) : 0;

	stat_view_line(ts->v.o,
		       "promotion: %s (kernel.numa_balancing %s%s); demotion: %s "
		       "(mm.numa.demotion_enabled %s%s)",
		       mode & 2 ? "on" : "off", b ? "= " : "not on this kernel", b ? b : "",
		       d && strcmp(d, "true") == 0 ? "on" : "off", d ? "= " : "not on this kernel",
		       d ? d : "");
}

/* Above the scope line: the tiers and what the knobs let move. */
static void lines(struct vms_view_ctx *c)
{
	tiers_line((const struct tiers *)c);
	knobs_line((const struct tiers *)c);
}

/* numactl -H's matrix of the nodes shown (tables only: JSON has DISTANCE). */
static int print_distances(struct vms_view_ctx *c, char *why, size_t whylen)
{
	const struct tiers *ts = (const struct tiers *)c;
	size_t n = ts->v.t.n_nodes;
	/* clang-format off */
	char (*names)[12] = n ? calloc(n, sizeof(*names)) : NULL, buf[16];
	/* clang-format on */
	struct grid g;
	int r = -ENOMEM;

	if (!ts->v.o->json && n > MATRIX_MAX) {
		free(names);
		if (!ts->v.o->noheadings) {
			putchar('\n');
			stat_view_line(
				ts->v.o,
				"node distances: left out, %zu nodes (a number for each pair of "
				"them); -o +DISTANCE lists each node's, numactl -H prints the "
				"matrix",
				n);
		}
		return 0;
	}
	if (ts->v.o->json || n == 0 || !names || grid_init(&g, n, n + 1) < 0) {
		free(names);
		if (ts->v.o->json || n == 0)
			return 0;
		snprintf(why, whylen, "out of memory");
		return r;
	}
	g.cols[0] = (struct grid_col){ "NODE", "node", NUM };
	for (size_t j = 0; j < n; j++) {
		snprintf(names[j], sizeof(names[j]), "%u", ts->v.t.rows[j].node);
		g.cols[j + 1] = (struct grid_col){ names[j], names[j], NUM };
	}
	for (size_t i = 0; i < n; i++) {
		grid_set(&g, i, 0, names[i], ts->v.t.rows[i].node, true);
		for (size_t j = 0; j < n; j++) {
			unsigned d = ts->kind[i].dist ? ts->kind[i].dist[j] : 0;

			snprintf(buf, sizeof(buf), "%u", d);
			grid_set(&g, i, j + 1, ts->kind[i].dist ? buf : NULL, d, true);
		}
	}
	printf(ts->v.o->noheadings ? "\n" : "\nnode distances:\n");
	r = grid_print(&g, ts->v.o, 0, "distances", why, whylen);
	grid_free(&g);
	free(names);
	return r;
}

static void prom(struct vms_view_ctx *c, FILE *f)
{
	const struct tiers *ts = (const struct tiers *)c;

	prom_family(f, "numastatctl_memory_tiers", "gauge",
		    "Memory tiers the kernel has (0: no memory tiering).");
	fprintf(f, "numastatctl_memory_tiers %zu\n", ts->mt.n);
	prom_family(f, "numastatctl_node_memory_tier", "gauge",
		    "The memory tier id of the node (lower: faster).");
	for (size_t i = 0; i < ts->v.t.n_nodes; i++)
		if (ts->kind[i].tier >= 0)
			fprintf(f, "numastatctl_node_memory_tier{node=\"%u\"} %ld\n",
				ts->v.t.rows[i].node, ts->kind[i].tier);
	prom_family(f, "numastatctl_node_has_cpu", "gauge", "1 if the node has CPUs.");
	for (size_t i = 0; i < ts->v.t.n_nodes; i++)
		if (ts->kind[i].cpu >= 0)
			fprintf(f, "numastatctl_node_has_cpu{node=\"%u\"} %d\n",
				ts->v.t.rows[i].node, ts->kind[i].cpu);
	prom_family(f, "numastatctl_node_has_memory", "gauge", "1 if the node has memory.");
	for (size_t i = 0; i < ts->v.t.n_nodes; i++)
		if (ts->kind[i].memory >= 0)
			fprintf(f, "numastatctl_node_has_memory{node=\"%u\"} %d\n",
				ts->v.t.rows[i].node, ts->kind[i].memory);
	if (ts->v.t.n_nodes > MATRIX_MAX) {
		fprintf(f,
			"# numastatctl_node_distance: left out, %zu nodes (a series for each pair); "
			"stat --tiers -o +DISTANCE lists them\n",
			ts->v.t.n_nodes);
		return;
	}
	prom_family(f, "numastatctl_node_distance", "gauge",
		    "The kernel's distance from node to node (10: local).");
	for (size_t i = 0; i < ts->v.t.n_nodes; i++)
		for (size_t j = 0; ts->kind[i].dist && j < ts->n_dist; j++)
			fprintf(f, "numastatctl_node_distance{node=\"%u\",to=\"%u\"} %u\n",
				ts->v.t.rows[i].node, ts->v.t.rows[j].node, ts->kind[i].dist[j]);
}

/* The kernel keeps each node in one tier; two would be a broken dump. */
static int check_disjoint(struct tiers *ts)
{
	const struct memtiers *t = &ts->mt;

	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->v[i].n; k++)
			for (size_t j = i + 1; j < t->n; j++)
				if (rangelist_has(t->v[j].nodes, t->v[j].n, t->v[i].nodes[k])) {
					log_err(MEMTIER_DIR ": node %u is in memory_tier%u and "
							    "memory_tier%u",
						t->v[i].nodes[k], t->v[i].id, t->v[j].id);
					node_memtiers_free(&ts->mt);
					return EXIT_FAIL;
				}
	return EXIT_OK;
}

static int read_tiers(struct tiers *ts)
{
	char why[WHY_MAX];

	int r = node_memtiers_read(&ts->mt, why, sizeof(why));

	ts->tiering = r != -ENOENT;
	if (r == -ENOENT)
		return EXIT_OK; /* a kernel before 6.1: said in the tiers line */
	if (r == 0)
		return check_disjoint(ts);
	log_err("%s", why);
	return EXIT_FAIL;
}

static void release(struct vms_view_ctx *c)
{
	struct tiers *ts = (struct tiers *)c;

	for (size_t i = 0; ts->kind && i < ts->v.t.n_nodes; i++)
		free(ts->kind[i].dist);
	free(ts->kind);
	node_memtiers_free(&ts->mt);
}

static const struct vms_view counters = {
	.view = &stat_view_tiers,
	.cols = cols,
	.ncols = TC_COUNT,
	.want = VMS_TIERING_MASK,
	.node_rows = true,
	.scope = "promotion and demotion counters",
	.json_name = "tiers",
	.own = own_cell,
	.by_default = by_default,
	.lines = lines,
	.after = print_distances,
	.prom = prom,
	.release = release,
};

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	struct tiers *ts = ctx;
	int r = stat_vms_view_setup(&ts->v, &counters, o, rc);

	if (r == EXIT_OK) {
		*rc = read_tiers(ts) > *rc ? EXIT_FAIL : *rc;
		*rc = read_kinds(ts) > *rc ? EXIT_FAIL : *rc;
	}
	return r;
}

const struct stat_view stat_view_tiers = {
	.name = "tiers",
	.option = { "tiers", no_argument, 0, NULL,
		    "memory tiers, node kinds, distances, promotion, demotion" },
	.cols = cols,
	.ctx_size = sizeof(struct tiers),
	.setup = setup,
	.sample = stat_vms_view_sample,
	.print = stat_vms_view_print,
	.prom = stat_vms_view_prom,
	.free = stat_vms_view_free,
};
