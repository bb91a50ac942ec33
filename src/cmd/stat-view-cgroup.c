// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --cgroup PATH|UNIT|PATTERN: the per-node memory of cgroups, from
 * cgroup v2's memory.numa_stat (stat-effect.h).  One cgroup: a row per
 * node and TOTAL, columns the kinds of memory (as stat --pid does for a
 * process).  Several, or a pattern: a row per cgroup with its memory on
 * each node, the node that has most of it (MAIN) and the share that is
 * elsewhere (OFF%), largest share first: the services whose memory is on
 * the wrong node come first.  The values are hierarchical (a slice holds
 * its services).  memory.numa_stat flushes the kernel's per-CPU statistics
 * under a global lock when they are far behind, so the interval floor is
 * the counter table's and a pattern over thousands of cgroups is not for
 * fast polling.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "cg-events.h"
#include "cg-find.h"
#include "cg-numa.h"
#include "cgroup-root.h"
#include "cmd-stat.h"
#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "nodes.h"
#include "out.h"
#include "placement-containers.h"
#include "prom.h"
#include "stat-cell.h"
#include "stat-view.h"
#include "sysfs.h"
#include "why.h"

#define NUM (OUT_COL_RIGHT | OUT_COL_NUMBER)

/* One cgroup being shown. */
struct cg {
	char *path;                      /* "/system.slice/nginx.service" */
	bool ok;                         /* cur is this sample's reading */
	bool failed;                     /* said once per failure streak */
	struct cg_numa cur, prev, first; /* interval: the previous and the first reading */
	bool have_prev, have_first;
	bool matched; /* found by a pattern: no memory.numa_stat is no error */
	/* memory.stat's NUMA events (cg-events.h), read with each reading. */
	bool ev_ok, ev_failed;
	struct cg_events ev, ev_prev, ev_first;
};

/*
 * What a column shows: an item of memory.numa_stat (by name), or one of
 * these.  The item columns (NODE, the items, SLAB, TOTAL) make the table of
 * one cgroup and every JSON row; the spread columns (CGROUP, N<id>, TOTAL,
 * MAIN, OFF%) the table of several.
 */
enum {
	COL_ITEM,
	COL_NODE,
	COL_SLAB,
	COL_TOTAL,
	COL_CGROUP,
	COL_ON_NODE,
	COL_MAIN,
	COL_OFF,
	COL_EVENT, /* a memory.stat event of the whole cgroup (item[0]: its enum cg_event) */
};

struct col {
	char name[CG_ITEM_NAME_MAX]; /* header and -o name: "KERNEL_STACK", "N1", "OFF%" */
	char json[CG_ITEM_NAME_MAX]; /* JSON key, or the item's name: "kernel_stack" */
	int what;                    /* COL_* */
	unsigned node;               /* COL_ON_NODE */
	bool count;                  /* an event count, not bytes */
	/* Where the items are in the first reading: every cgroup's file lists the same. */
	int item[2];
};

struct colset {
	struct col *c;
	size_t n, cap;
	int *shown; /* indexes into c, the first column first */
	size_t n_shown;
	int sort; /* index into c, or -1 */
};

struct cgview {
	const struct stat_opts *o;
	char root[CG_ROOT_MAX];
	struct cg *cg;
	size_t n;
	bool multi;      /* several cgroups, or a pattern */
	unsigned *nodes; /* the nodes shown */
	size_t n_nodes;
	struct colset items, spread;
	char *buf;                 /* CG_NUMA_STAT_BUF */
	bool have_ev[CG_EV_COUNT]; /* the events memory.stat has on this kernel */
};

/*
 * An argument for a message, cut to size with "..." (log.c escapes what a
 * message holds, so only the length is this function's business).
 */
static const char *cut(const char *s, char *out, size_t size)
{
	size_t len = strlen(s);

	if (len < size) {
		memcpy(out, s, len + 1);
		return out;
	}
	memcpy(out, s, size - 4);
	memcpy(out + size - 4, "...", 4);
	return out;
}

/*
 * memory.stat's events into c->ev (v->buf is free again: numa_stat is
 * parsed).  A dump without the file has no events, quietly; another failure
 * is said once per streak.
 */
static void ev_read(struct cgview *v, struct cg *c)
{
	char path[CG_PATH_MAX + CG_ROOT_MAX + 32], why[WHY_MAX];
	ssize_t n;
	int r;

	cg_file_path(v->root, c->path, "memory.stat", path, sizeof(path));
	c->ev_ok = false;
	if ((n = sysfs_read_file(path, v->buf, CG_NUMA_STAT_BUF)) < 0) {
		r = (int)n;
		snprintf(why, sizeof(why), "%s",
			 r == -EFBIG ? "file too large" : sysfs_strerror(r));
	} else
		r = cg_events_parse(v->buf, (size_t)n, &c->ev, why, sizeof(why));
	if (r < 0 && r != -ENOENT && !c->ev_failed)
		log_err("%s: %s", path, why);
	c->ev_failed = r < 0;
	c->ev_ok = r == 0;
}

/*
 * A cgroup's memory.numa_stat into cur.  Each file is opened, read and
 * closed here, interval samples too: an fd kept per cgroup ran a host's
 * thousand scopes into RLIMIT_NOFILE (1024 in a root shell), and opening
 * by path again costs little beside the kernel's statistics flush.
 */
static int cg_read(struct cgview *v, struct cg *c)
{
	char path[CG_PATH_MAX + CG_ROOT_MAX + 32], why[WHY_MAX];
	/* Filled by cg_numa_parse() alone; gcc's analyzer misses that r < 0 otherwise. */
	struct cg_numa s = { 0 };
	ssize_t n;
	int r;

	cg_file_path(v->root, c->path, "memory.numa_stat", path, sizeof(path));
	c->ok = c->ev_ok = false;
	if ((n = sysfs_read_file(path, v->buf, CG_NUMA_STAT_BUF)) < 0) {
		r = (int)n;
		snprintf(why, sizeof(why), "%s",
			 r == -ENOENT  ? "not present: the memory controller is not enabled for "
					 "this cgroup (its parent's cgroup.subtree_control lacks "
					 "memory)"
			 : r == -EFBIG ? "file too large"
				       : sysfs_strerror(r));
	} else
		r = cg_numa_parse(v->buf, (size_t)n, &s, why, sizeof(why));
	/* A pattern names the cgroups that have memory accounting; the others are no news. */
	if (r == -ENOENT && c->matched)
		return r;
	if (r < 0) {
		if (!c->failed)
			log_err("%s: %s", path, why);
		c->failed = true;
		return r;
	}
	cg_numa_free(&c->cur);
	c->cur = s;
	c->failed = false;
	c->ok = true;
	ev_read(v, c);
	return 0;
}

static int find_root(struct cgview *v)
{
	return cgroup_root_find(v->root, sizeof(v->root),
				cgroup_root_option(v->o->n_view_args, v->o->n_containers));
}

/* Every --cgroup argument into v->cg.  EXIT_OK, EXIT_FAIL (some named nothing) or EXIT_USAGE. */
static int resolve(struct cgview *v)
{
	struct cg_list l = { 0 };
	/* An argument is shown up to 256 bytes: enough to recognise it. */
	char why[WHY_MAX], shown[256];
	int rc = EXIT_OK;

	for (size_t i = 0; i < v->o->n_view_args; i++) {
		const char *arg = v->o->view_args[i];
		int r = *arg ? cg_resolve(v->root, arg, &l, why, sizeof(why)) : -EINVAL;

		if (!*arg)
			snprintf(why, sizeof(why), "expected a cgroup path, a unit or a pattern");
		cut(arg, shown, sizeof(shown));
		v->multi |= cg_is_pattern(arg);
		if (r == -EINVAL) {
			log_usage_err("--cgroup '%s': %s", shown, why);
			rc = EXIT_USAGE;
			break;
		}
		if (r == -ENOMEM) {
			log_err("out of memory");
			rc = EXIT_FAIL;
			break;
		}
		if (r == 0)
			log_err("--cgroup '%s': no cgroup matches", shown);
		else if (r < 0)
			log_err("--cgroup %s: %s", shown, why);
		if (r <= 0)
			rc = EXIT_FAIL;
	}
	if (rc != EXIT_USAGE && (v->o->n_containers || v->o->n_pods)) {
		int r = placement_containers_cgroups(v->root, (const char *const *)v->o->containers,
						     v->o->n_containers,
						     (const char *const *)v->o->pods, v->o->n_pods,
						     &l);

		rc = r == EXIT_OK ? rc : r;
		v->multi = true;
	}
	v->multi |= l.n > 1;
	v->cg = calloc(l.n ? l.n : 1, sizeof(*v->cg));
	for (size_t i = 0; v->cg && i < l.n; i++) {
		v->cg[v->n++] = (struct cg){ .path = l.path[i], .matched = l.matched[i] };
		l.path[i] = NULL;
	}
	if (!v->cg && rc == EXIT_OK) {
		log_err("out of memory");
		rc = EXIT_FAIL;
	}
	cg_list_free(&l);
	return rc;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* --nodes (each must exist), or every node a cgroup has memory on. */
static int node_set(struct cgview *v)
{
	unsigned *ids;
	size_t cap = 0, out = 0;
	int n;

	if (v->o->nodes) {
		n = stat_view_nodes(v->o, &ids);
		if (n < 0)
			return -n;
		v->nodes = ids;
		v->n_nodes = (size_t)n;
		return EXIT_OK;
	}
	for (size_t i = 0; i < v->n; i++)
		cap += v->cg[i].ok ? v->cg[i].cur.n_nodes : 0;
	v->nodes = calloc(cap ? cap : 1, sizeof(*v->nodes));
	if (!v->nodes)
		return EXIT_FAIL;
	for (size_t i = 0; i < v->n; i++)
		for (size_t k = 0; v->cg[i].ok && k < v->cg[i].cur.n_nodes; k++)
			v->nodes[v->n_nodes++] = v->cg[i].cur.node[k];
	if (v->n_nodes > 1)
		qsort(v->nodes, v->n_nodes, sizeof(*v->nodes), cmp_unsigned);
	for (size_t i = 0; i < v->n_nodes; i++)
		if (i == 0 || v->nodes[i] != v->nodes[out - 1])
			v->nodes[out++] = v->nodes[i];
	v->n_nodes = out;
	return EXIT_OK;
}

/* The value of an item column (COL_ITEM, COL_SLAB, COL_TOTAL) on node in reading s. */
/* The index of item name in s: at hint, as in the first reading, else looked for. */
static int item_at(const struct cg_numa *s, const char *name, int hint)
{
	if (hint >= 0 && (size_t)hint < s->n_items && strcmp(s->name[hint], name) == 0)
		return hint;
	return cg_numa_item(s, name);
}

static bool reading_value(const struct cg_numa *s, unsigned node, const struct col *col,
			  int64_t *out)
{
	int ni = cg_numa_node(s, node), a, b;

	*out = 0;
	if (col->what == COL_TOTAL) {
		*out = ni < 0 ? 0 : (int64_t)cg_numa_node_total(s, (size_t)ni);
		return true;
	}
	a = item_at(s, col->what == COL_SLAB ? "slab_reclaimable" : col->json, col->item[0]);
	b = col->what == COL_SLAB ? item_at(s, "slab_unreclaimable", col->item[1]) : -1;
	if (a < 0 && b < 0)
		return false;
	/* A node the file does not list has no memory (it lists N_MEMORY nodes only). */
	if (ni >= 0)
		*out = (int64_t)((a >= 0 ? CG_V(s, (size_t)a, (size_t)ni) : 0) +
				 (b >= 0 ? CG_V(s, (size_t)b, (size_t)ni) : 0));
	return true;
}

/* One-shot: the reading; a sample: its change; the totals: the change since the start. */
static bool value(const struct cg *c, unsigned node, const struct col *col,
		  const struct stat_loop_info *in, int64_t *out)
{
	int64_t now, then;

	if (!c->ok || (in && !(in->total ? c->have_first : c->have_prev)) ||
	    !reading_value(&c->cur, node, col, &now))
		return false;
	if (!in) {
		*out = now;
		return true;
	}
	if (!reading_value(in->total ? &c->first : &c->prev, node, col, &then))
		return false;
	*out = now - then;
	return true;
}

static const struct col total_col = { "TOTAL", "total", COL_TOTAL, 0, false };

/* A memory.stat event of the cgroup: the count, a sample's change or the change since the start. */
static bool event_value(const struct cg *c, enum cg_event e, const struct stat_loop_info *in,
			int64_t *out)
{
	const struct cg_events *then = in ? (in->total ? &c->ev_first : &c->ev_prev) : NULL;

	if (!c->ev_ok || !c->ev.have[e] || (then && !then->have[e]))
		return false;
	*out = (int64_t)(c->ev.v[e] - (then ? then->v[e] : 0));
	return true;
}

/* A cgroup's memory on the nodes shown: the sum, the node with most, the share elsewhere. */
struct spread {
	int64_t total, main_bytes;
	unsigned main;
	bool any;
};

static struct spread spread_of(const struct cgview *v, const struct cg *c,
			       const struct stat_loop_info *in)
{
	struct spread sp = { 0 };
	int64_t t;

	for (size_t i = 0; i < v->n_nodes; i++) {
		if (!value(c, v->nodes[i], &total_col, in, &t))
			continue;
		sp.total += t;
		if (!sp.any || t > sp.main_bytes) {
			sp.main_bytes = t;
			sp.main = v->nodes[i];
		}
		sp.any = true;
	}
	return sp;
}

static double off_share(const struct spread *sp)
{
	return sp->total > 0 ? 100.0 * (double)(sp->total - sp->main_bytes) / (double)sp->total
			     : -1;
}

static int add_col(struct colset *cs, const char *name, const char *json, int what, unsigned node,
		   bool count)
{
	struct col *c;

	if (array_grow(&cs->c, &cs->cap, cs->n + 1, sizeof(*cs->c)) < 0)
		return -ENOMEM;
	c = &cs->c[cs->n++];
	*c = (struct col){ .what = what, .node = node, .count = count, .item = { -1, -1 } };
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->json, sizeof(c->json), "%s", json);
	for (char *p = c->name; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return 0;
}

/* NODE, the items of the first reading, SLAB, TOTAL. */
static int item_columns(struct cgview *v, const struct cg_numa *s)
{
	int r = add_col(&v->items, "NODE", "node", COL_NODE, 0, false);

	for (size_t i = 0; r == 0 && i < s->n_items; i++) {
		r = add_col(&v->items, s->name[i], s->name[i], COL_ITEM, 0,
			    cg_item_is_count(s->name[i]));
		v->items.c[v->items.n - 1].item[0] = (int)i;
	}
	if (r == 0 && (r = add_col(&v->items, "SLAB", "slab", COL_SLAB, 0, false)) == 0) {
		v->items.c[v->items.n - 1].item[0] = cg_numa_item(s, "slab_reclaimable");
		v->items.c[v->items.n - 1].item[1] = cg_numa_item(s, "slab_unreclaimable");
	}
	return r == 0 ? add_col(&v->items, "TOTAL", "total", COL_TOTAL, 0, false) : r;
}

/* CGROUP, N<id> for each node shown, TOTAL, MAIN, OFF%. */
static int spread_columns(struct cgview *v)
{
	char name[16];
	int r = add_col(&v->spread, "CGROUP", "cgroup", COL_CGROUP, 0, false);

	for (size_t i = 0; r == 0 && i < v->n_nodes; i++) {
		snprintf(name, sizeof(name), "N%u", v->nodes[i]);
		r = add_col(&v->spread, name, name, COL_ON_NODE, v->nodes[i], false);
	}
	if (r == 0)
		r = add_col(&v->spread, "TOTAL", "total", COL_TOTAL, 0, false);
	if (r == 0)
		r = add_col(&v->spread, "MAIN", "main", COL_MAIN, 0, false);
	if (r == 0)
		r = add_col(&v->spread, "OFF%", "off_main_pct", COL_OFF, 0, false);
	/* The cgroup's NUMA events this kernel's memory.stat has: -o names them. */
	for (int e = 0; r == 0 && e < CG_EV_COUNT; e++)
		if (v->have_ev[e] && (r = add_col(&v->spread, cg_events_key[e], cg_events_key[e],
						  COL_EVENT, 0, true)) == 0)
			v->spread.c[v->spread.n - 1].item[0] = e;
	return r;
}

static int find_col(const struct colset *cs, const char *name)
{
	for (size_t i = 0; i < cs->n; i++)
		if (strcasecmp(cs->c[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* -o and --sort against a column set; defaults by name (the ones present). */
static int pick_columns(const struct cgview *v, struct colset *cs, const char *const *defaults,
			const char *sort_default)
{
	/* Every column once (a node each: no cap), and an -o list after them. */
	size_t nd = 0, cap = cs->n + STAT_MAX_COLS;
	const char **names = calloc(cs->n ? cs->n : 1, sizeof(*names));
	int *d = calloc(cs->n ? cs->n : 1, sizeof(*d)), r;

	cs->shown = calloc(cap + 1, sizeof(*cs->shown));
	if (!names || !d || !cs->shown) {
		free(names);
		free(d);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cs->n; i++)
		names[i] = cs->c[i].name;
	for (size_t i = 0; defaults[i] && nd < cs->n; i++) {
		int c = find_col(cs, defaults[i]);

		/* "N*": every node column. */
		for (size_t k = 0; strcmp(defaults[i], "N*") == 0 && k < cs->n; k++)
			if (cs->c[k].what == COL_ON_NODE)
				d[nd++] = (int)k;
		if (c >= 0 && nd < cs->n)
			d[nd++] = c;
	}
	r = stat_view_columns(&stat_view_cgroup, v->o, names, cs->n, d, nd, cs->shown, cap,
			      &cs->n_shown, &cs->sort);
	free(names);
	free(d);
	if (r < 0)
		return r;
	if (cs->sort < 0 && sort_default)
		cs->sort = find_col(cs, sort_default);
	/* The first column says what a row is. */
	if (cs->n_shown == 0 || cs->shown[0] != 0) {
		memmove(cs->shown + 1, cs->shown, cs->n_shown * sizeof(int));
		cs->shown[0] = 0;
		cs->n_shown++;
	}
	return 0;
}

/*
 * A size (human units; bytes with -b or -J) or a count; signed for changes;
 * per second with --rate.
 */
static void put_value(const struct cgview *v, struct grid *g, size_t r, size_t c,
		      const struct col *col, int64_t val, const struct stat_loop_info *in)
{
	char buf[GRID_CELL_MAX];

	if (in && v->o->rate) {
		double rate = in->secs > 0 ? (double)val / in->secs : 0;

		if (v->o->json) {
			snprintf(buf, sizeof(buf), "%.2f", rate);
			grid_set(g, r, c, buf, rate, rate != 0);
			return;
		}
		val = (int64_t)(rate < 0 ? rate - 0.5 : rate + 0.5);
	}
	if (!col->count) {
		stat_cell_size(g, r, c, val, in != NULL, v->o);
		return;
	}
	snprintf(buf, sizeof(buf), in && val > 0 && !v->o->json ? "+%" PRId64 : "%" PRId64, val);
	grid_set(g, r, c, buf, (double)val, val != 0);
}

/* The sort key of a cgroup (spread columns) or of a node (item columns). */
static double key_of(const struct cgview *v, const struct cg *c, unsigned node,
		     const struct col *col, const struct stat_loop_info *in)
{
	struct spread sp;
	int64_t x;

	switch (col->what) {
	case COL_CGROUP:
		return 0;
	case COL_NODE:
		return -(double)node; /* ascending node ids */
	case COL_MAIN:
		sp = spread_of(v, c, NULL);
		return sp.any ? -(double)sp.main : 1;
	case COL_OFF:
		sp = spread_of(v, c, NULL);
		return off_share(&sp);
	case COL_ON_NODE:
		return value(c, col->node, &total_col, in, &x) ? (double)x : -1e300;
	case COL_EVENT:
		return event_value(c, (enum cg_event)col->item[0], in, &x) ? (double)x : -1e300;
	}
	if (node == UINT32_MAX)
		return (double)spread_of(v, c, in).total;
	return value(c, node, col, in, &x) ? (double)x : -1e300;
}

struct order {
	size_t i;
	double key;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The readable cgroups, sorted by the spread sort column (largest first). */
static size_t cgroup_order(const struct cgview *v, const struct stat_loop_info *in,
			   struct order *ord)
{
	const struct colset *cs = &v->spread;
	size_t n = 0;

	for (size_t i = 0; i < v->n; i++)
		if (v->cg[i].ok)
			ord[n++] =
				(struct order){ i, cs->sort >= 0 ? key_of(v, &v->cg[i], UINT32_MAX,
									  &cs->c[cs->sort], in)
								 : 0 };
	if (n > 1)
		qsort(ord, n, sizeof(*ord), cmp_order);
	return n;
}

/* The nodes of one cgroup's table, sorted by the item sort column. */
static void node_order(const struct cgview *v, const struct cg *c, const struct stat_loop_info *in,
		       struct order *ord)
{
	const struct colset *cs = &v->items;

	for (size_t i = 0; i < v->n_nodes; i++)
		ord[i] = (struct order){
			i, cs->sort >= 0 ? key_of(v, c, v->nodes[i], &cs->c[cs->sort], in) : 0
		};
	if (v->n_nodes > 1 && cs->sort >= 0)
		qsort(ord, v->n_nodes, sizeof(*ord), cmp_order);
}

/* Row r of one cgroup's table: node (or UINT32_MAX: TOTAL over the nodes shown). */
/*
 * Row r of one cgroup's table, from column at: node (or UINT32_MAX: TOTAL
 * over the nodes shown, the only row that looks at every node).
 */
static void item_row(const struct cgview *v, const struct cg *c, struct grid *g, size_t r,
		     size_t at, unsigned node, const struct stat_loop_info *in)
{
	const struct colset *cs = &v->items;
	char id[16];

	snprintf(id, sizeof(id), "%u", node);
	grid_set(g, r, at, node == UINT32_MAX ? "TOTAL" : id, node, true);
	for (size_t k = 1; k < cs->n_shown; k++) {
		const struct col *col = &cs->c[cs->shown[k]];
		int64_t sum = 0, x;
		bool any = false;

		if (node != UINT32_MAX)
			any = value(c, node, col, in, &sum);
		for (size_t i = 0; node == UINT32_MAX && i < v->n_nodes; i++)
			if (value(c, v->nodes[i], col, in, &x)) {
				sum += x;
				any = true;
			}
		if (any)
			put_value(v, g, r, at + k, col, sum, in);
		else
			grid_set(g, r, at + k, NULL, -1, false);
	}
}

static int print_one(const struct cgview *v, const struct cg *c, const struct stat_loop_info *in,
		     char *why, size_t whylen)
{
	const struct colset *cs = &v->items;
	struct order *ord = calloc(v->n_nodes ? v->n_nodes : 1, sizeof(*ord));
	struct grid g;
	int r = ord ? grid_init(&g, v->n_nodes + 1, cs->n_shown) : -ENOMEM;

	if (r < 0) {
		free(ord);
		snprintf(why, whylen, "out of memory");
		return r;
	}
	for (size_t k = 0; k < cs->n_shown; k++) {
		const struct col *col = &cs->c[cs->shown[k]];

		g.cols[k] = (struct grid_col){ col->name, col->json, NUM };
	}
	g.has_total = true;
	node_order(v, c, in, ord);
	for (size_t i = 0; i < v->n_nodes; i++)
		item_row(v, c, &g, i, 0, v->nodes[ord[i].i], in);
	item_row(v, c, &g, v->n_nodes, 0, UINT32_MAX, in);
	r = grid_print(&g, v->o, 0, "cgroups", why, whylen);
	grid_free(&g);
	free(ord);
	return r;
}

/* Row r of the table of several cgroups. */
static void spread_row(const struct cgview *v, const struct cg *c, struct grid *g, size_t r,
		       const struct stat_loop_info *in)
{
	const struct colset *cs = &v->spread;
	struct spread now = spread_of(v, c, NULL), change = spread_of(v, c, in);
	char buf[24];
	int64_t x;

	for (size_t k = 0; k < cs->n_shown; k++) {
		const struct col *col = &cs->c[cs->shown[k]];

		if (col->what == COL_CGROUP)
			grid_set_long(g, r, k, c->path, 0, true);
		else if (col->what == COL_ON_NODE && value(c, col->node, &total_col, in, &x))
			put_value(v, g, r, k, col, x, in);
		else if (col->what == COL_TOTAL && change.any)
			put_value(v, g, r, k, col, change.total, in);
		else if (col->what == COL_MAIN && now.any) {
			snprintf(buf, sizeof(buf), "%u", now.main);
			grid_set(g, r, k, buf, now.main, true);
		} else if (col->what == COL_OFF)
			stat_cell_pct(g, r, k, (double)(now.total - now.main_bytes),
				      (double)now.total);
		else if (col->what == COL_EVENT &&
			 event_value(c, (enum cg_event)col->item[0], in, &x))
			put_value(v, g, r, k, col, x, in);
		else
			grid_set(g, r, k, NULL, -1, false);
	}
}

static int print_spread(const struct cgview *v, const struct stat_loop_info *in, char *why,
			size_t whylen)
{
	const struct colset *cs = &v->spread;
	struct order *ord = calloc(v->n ? v->n : 1, sizeof(*ord));
	struct grid g;
	size_t n = ord ? cgroup_order(v, in, ord) : 0;
	int r = ord ? grid_init(&g, n, cs->n_shown) : -ENOMEM;

	if (r < 0) {
		free(ord);
		snprintf(why, whylen, "out of memory");
		return r;
	}
	for (size_t k = 0; k < cs->n_shown; k++) {
		const struct col *col = &cs->c[cs->shown[k]];

		g.cols[k] = (struct grid_col){ col->name, col->json,
					       col->what == COL_CGROUP ? 0 : NUM };
	}
	for (size_t i = 0; i < n; i++)
		spread_row(v, &v->cg[ord[i].i], &g, i, in);
	r = grid_print(&g, v->o, 0, "cgroups", why, whylen);
	grid_free(&g);
	free(ord);
	return r;
}

/*
 * -J is printed in parts of whole cgroups of about this many rows (a row
 * per cgroup and node), so memory holds one part, not 1000 cgroups on 1152
 * nodes (2.5 GB when it was one grid).
 */
#define JSON_PART_ROWS 4096

/*
 * memory.stat's events are the whole cgroup's, not a node's: in -J they
 * are an "events" array of a row per cgroup (every event the table's line
 * shows), so that a sum over the node rows counts nothing twice.
 */
static int json_events(const struct cgview *v, const struct order *ord, size_t n,
		       const struct stat_loop_info *in, struct out_doc *d, char *why, size_t whylen)
{
	static const struct col ev_col = { "", "", COL_EVENT, 0, true, { -1, -1 } };
	struct grid g;
	size_t ncols = 1;
	int r;

	for (int e = 0; e < CG_EV_COUNT; e++)
		ncols += v->have_ev[e];
	if (ncols == 1)
		return 0;
	if ((r = grid_init(&g, n, ncols)) < 0)
		return r;
	g.cols[0] = (struct grid_col){ "CGROUP", "cgroup", 0 };
	g.ncols = 1;
	for (int e = 0; e < CG_EV_COUNT; e++)
		if (v->have_ev[e])
			g.cols[g.ncols++] =
				(struct grid_col){ cg_events_key[e], cg_events_key[e], NUM };
	for (size_t i = 0; i < n; i++) {
		const struct cg *c = &v->cg[ord[i].i];
		size_t at = 1;
		int64_t x;

		grid_set_long(&g, i, 0, c->path, 0, true);
		for (int e = 0; e < CG_EV_COUNT; e++) {
			if (!v->have_ev[e])
				continue;
			if (event_value(c, (enum cg_event)e, in, &x))
				put_value(v, &g, i, at, &ev_col, x, in);
			else
				grid_set(&g, i, at, NULL, -1, false);
			g.key[i * g.ncols + at] = 0;
			g.nonzero[i * g.ncols + at] = true;
			at++;
		}
	}
	g.nrows = n;
	r = grid_add_json_rows(&g, v->o, d, "events", why, whylen);
	grid_free(&g);
	return r;
}

/* The cgroups ord[from, to) as rows of g (grid_init()ed for them). */
static void json_part(const struct cgview *v, const struct order *ord, size_t from, size_t to,
		      bool off_any, const struct stat_loop_info *in, struct grid *g)
{
	const struct colset *cs = &v->items;
	size_t lead = 0, gr = 0;

	g->cols[lead] = (struct grid_col){ "CGROUP", "cgroup", 0 };
	for (size_t k = 0; k < cs->n_shown; k++)
		g->cols[lead + 1 + k] = (struct grid_col){ cs->c[cs->shown[k]].name,
							   cs->c[cs->shown[k]].json, NUM };
	g->ncols = lead + 1 + cs->n_shown;
	if (v->multi) {
		g->cols[g->ncols++] = (struct grid_col){ "MAIN", "main", OUT_COL_BOOLEAN };
		g->cols[g->ncols++] = (struct grid_col){ "OFF%", "off_main_pct", NUM };
	}
	for (size_t i = from; i < to; i++) {
		const struct cg *c = &v->cg[ord[i].i];
		struct spread sp = spread_of(v, c, NULL);

		for (size_t k = 0; k < v->n_nodes; k++, gr++) {
			/* item_row() fills NODE and the items; they go after CGROUP. */
			item_row(v, c, g, gr, lead + 1, v->nodes[k], in);
			/* A row of a cgroup on a node is never left out by -z, nor sorted here. */
			for (size_t j = 0; j < cs->n_shown; j++) {
				g->key[gr * g->ncols + lead + 1 + j] = 0;
				g->nonzero[gr * g->ncols + lead + 1 + j] = true;
			}
			grid_set_long(g, gr, lead, c->path, 0, true);
			if (v->multi) {
				grid_set(g, gr, lead + 1 + cs->n_shown,
					 sp.any && sp.main == v->nodes[k] ? "1" : "0", 0, true);
				stat_cell_pct(g, gr, lead + 2 + cs->n_shown,
					      (double)(sp.total - sp.main_bytes), (double)sp.total);
				/* -z keeps OFF% in every part if any cgroup is off its main node. */
				g->nonzero[gr * g->ncols + lead + 2 + cs->n_shown] = off_any;
			}
		}
	}
	g->nrows = gr;
}

/*
 * -J: a row per cgroup and node with the item columns; with several
 * cgroups also whether the node is the cgroup's main one and the cgroup's
 * share elsewhere, rows in the order of that share.
 */
static int print_json(const struct cgview *v, const struct stat_loop_info *in, char *why,
		      size_t whylen)
{
	size_t ncols = v->items.n_shown + 1 + 2;
	struct order *ord = calloc(v->n ? v->n : 1, sizeof(*ord));
	size_t n = ord ? cgroup_order(v, in, ord) : 0;
	/* Whole cgroups a part, at least one. */
	size_t per =
		v->n_nodes < JSON_PART_ROWS ? JSON_PART_ROWS / (v->n_nodes ? v->n_nodes : 1) : 1;
	struct out_doc *d = NULL;
	bool off_any = false;
	int r = ord ? 0 : -ENOMEM;

	for (size_t i = 0; i < n && !off_any; i++) {
		struct spread sp = spread_of(v, &v->cg[ord[i].i], NULL);

		off_any = sp.total > 0 && sp.total != sp.main_bytes;
	}
	if (r == 0 && (r = stat_view_json_begin(&d, in, why, whylen)) == 0)
		r = json_events(v, ord, n, in, d, why, whylen);
	for (size_t from = 0; r == 0 && (from < n || from == 0); from += per) {
		size_t to = n - from < per ? n : from + per;
		struct grid g;

		if ((r = grid_init(&g, (to - from) * v->n_nodes, ncols)) < 0)
			break;
		json_part(v, ord, from, to, off_any, in, &g);
		r = stat_view_json_part(&d, &g, v->o, in, "cgroups", why, whylen);
		grid_free(&g);
	}
	if (r == 0)
		r = stat_view_json_end(d, why, whylen);
	else
		out_doc_free(d);
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	free(ord);
	return r;
}

/* "cgroup /system.slice/nginx.service" over one cgroup's table (escaped: a name is anything). */
static void title(const struct cgview *v, const struct cg *c)
{
	if (v->o->noheadings || v->o->json)
		return;
	fputs("cgroup ", stdout);
	escape_fputs(c->path, stdout, 0);
	putchar('\n');
}

/*
 * "NUMA events of the cgroup (memory.stat): numa_pte_updates 9000, ..." over
 * one cgroup's table, where the kernel has them (6.12+): they have no node.
 */
static void events_line(const struct cgview *v, const struct cg *c, const struct stat_loop_info *in)
{
	char text[512];
	size_t o;
	int64_t x;
	bool any = false;

	if (!c || v->o->noheadings || v->o->json)
		return;
	o = (size_t)snprintf(text, sizeof(text), "NUMA events of the whole cgroup (memory.stat%s):",
			     in ? ", changes" : "");
	for (int e = 0; e < CG_EV_COUNT && o < sizeof(text); e++) {
		if (!v->have_ev[e])
			continue;
		if (event_value(c, (enum cg_event)e, in, &x))
			o += (size_t)snprintf(text + o, sizeof(text) - o,
					      in && x > 0 ? "%s %s +%" PRId64 : "%s %s %" PRId64,
					      any ? "," : "", cg_events_key[e], x);
		else
			o += (size_t)snprintf(text + o, sizeof(text) - o, "%s %s -", any ? "," : "",
					      cg_events_key[e]);
		any = true;
	}
	if (any)
		stat_view_line(v->o, "%s", text);
}

static int print(void *ctx, const struct stat_loop_info *in)
{
	const struct cgview *v = ctx;
	const struct cg *c = NULL;
	char why[WHY_MAX];
	int r;

	if (v->o->json)
		r = print_json(v, in, why, sizeof(why));
	else if (v->multi) {
		if (in)
			stat_view_title(v->o, in);
		r = print_spread(v, in, why, sizeof(why));
	} else {
		for (size_t i = 0; i < v->n && !c; i++)
			c = v->cg[i].ok ? &v->cg[i] : NULL;
		if (in)
			stat_view_title(v->o, in);
		else if (c)
			title(v, c);
		events_line(v, c, in);
		r = c ? print_one(v, c, in, why, sizeof(why)) : 0;
	}
	if (r < 0 && r != -EIO)
		log_err("%s", why);
	return r;
}

/*
 * Prometheus: at most CG_PROM_SERIES_MAX series of the two cgroup families,
 * so that a pattern over many cgroups on many nodes cannot flood a scrape
 * (1000 cgroups on 72 nodes with 27 kinds of memory would be 1.9 million).
 * The cgroups named by a path, a unit or a container's name come first,
 * in order, then the ones only a pattern matched, largest TOTAL first,
 * while they fit (prom.h's budget: a container's name can match
 * thousands, so the named are held to it too).  The rest are counted in
 * numastatctl_cgroups_left_out and said on stderr.
 */

/* A cgroup's series: its items on each node shown that its file lists. */
static size_t series_of(const struct cgview *v, const struct cg *c)
{
	size_t n = 0;

	for (size_t ni = 0; c->ok && ni < c->cur.n_nodes; ni++)
		n += rangelist_has(v->nodes, v->n_nodes, c->cur.node[ni]);
	return n * c->cur.n_items;
}

/* Cgroup i into the Prometheus text if the budget has room. */
static int prom_take(const struct cgview *v, struct prom_budget *b, bool *in, size_t i)
{
	int r = prom_budget_take(b, "cgroup", v->cg[i].path, series_of(v, &v->cg[i]));

	in[i] = r == PROM_TAKEN;
	return r < 0 ? r : 0;
}

/* Which cgroups have series (in[i]), the named first.  0 or -ENOMEM. */
static int prom_pick(const struct cgview *v, struct prom_budget *b, bool *in)
{
	struct order *ord = calloc(v->n ? v->n : 1, sizeof(*ord));
	size_t n = 0;
	int r = ord ? 0 : -ENOMEM;

	for (size_t i = 0; r == 0 && i < v->n; i++) {
		const struct cg *c = &v->cg[i];

		if (c->ok && !c->matched)
			r = prom_take(v, b, in, i);
		else if (c->ok)
			ord[n++] = (struct order){ i, (double)spread_of(v, c, NULL).total };
	}
	if (n > 1)
		qsort(ord, n, sizeof(*ord), cmp_order);
	for (size_t k = 0; r == 0 && k < n; k++)
		r = prom_take(v, b, in, ord[k].i);
	free(ord);
	return r;
}

/* Sizes as one gauge family, event counts as one counter family: the cgroups in[]. */
static void prom_series(FILE *f, const struct cgview *v, const bool *in, bool counts)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct cg *c = &v->cg[i];

		for (size_t k = 0; in[i] && k < c->cur.n_items; k++) {
			if (cg_item_is_count(c->cur.name[k]) != counts)
				continue;
			for (size_t ni = 0; ni < c->cur.n_nodes; ni++) {
				if (!rangelist_has(v->nodes, v->n_nodes, c->cur.node[ni]))
					continue;
				fputs(counts ? "numastatctl_cgroup_memory_events_total{cgroup=\""
					     : "numastatctl_cgroup_memory_bytes{cgroup=\"",
				      f);
				prom_label_value(f, c->path);
				fprintf(f, "\",node=\"%u\",%s=\"", c->cur.node[ni],
					counts ? "event" : "type");
				prom_label_value(f, c->cur.name[k]);
				fprintf(f, "\"} %" PRIu64 "\n", CG_V(&c->cur, k, ni));
			}
		}
	}
}

/*
 * memory.stat's NUMA events of the cgroups the other families show: one
 * counter family, no node (the kernel keeps none), at most 7 a cgroup.
 */
static void prom_events(FILE *f, const struct cgview *v, const bool *in)
{
	bool any = false;

	for (int e = 0; e < CG_EV_COUNT; e++)
		any |= v->have_ev[e];
	if (!any)
		return;
	prom_family(f, "numastatctl_cgroup_numa_events_total", "counter",
		    "NUMA balancing and tiering events of the cgroup and its descendants "
		    "(memory.stat, 6.12+).");
	for (size_t i = 0; i < v->n; i++)
		for (int e = 0; in[i] && v->cg[i].ev_ok && e < CG_EV_COUNT; e++) {
			if (!v->have_ev[e] || !v->cg[i].ev.have[e])
				continue;
			fputs("numastatctl_cgroup_numa_events_total{cgroup=\"", f);
			prom_label_value(f, v->cg[i].path);
			fprintf(f, "\",event=\"%s\"} %" PRIu64 "\n", cg_events_key[e],
				v->cg[i].ev.v[e]);
		}
}

/* What the budget left out, said on stderr; how many. */
static size_t say_left_out(const struct cgview *v, const struct prom_budget *b)
{
	size_t readable = 0;

	for (size_t i = 0; i < v->n; i++)
		readable += v->cg[i].ok;
	if (b->left_out)
		log_warn("--cgroup: Prometheus series for %zu of the %zu cgroups (the ones named, "
			 "then the largest, up to %zu series): %zu left out",
			 readable - b->left_out - b->clashes, readable, b->max, b->left_out);
	if (b->clashes)
		log_warn("--cgroup: %zu cgroup%s left out of the Prometheus text: %s path would be "
			 "written as another's is (a name holding a control character and one "
			 "holding its \\xNN text)",
			 b->clashes, b->clashes == 1 ? "" : "s", b->clashes == 1 ? "its" : "their");
	return b->left_out + b->clashes;
}

static int prom(void *ctx, FILE *f)
{
	const struct cgview *v = ctx;
	struct prom_budget b = { .max = CG_PROM_SERIES_MAX };
	bool *in = calloc(v->n ? v->n : 1, sizeof(*in));
	size_t left;
	char help[200];

	if (!in || prom_pick(v, &b, in) < 0) {
		free(in);
		prom_budget_free(&b);
		log_err("out of memory");
		return -ENOMEM;
	}
	left = say_left_out(v, &b);
	prom_family(f, "numastatctl_cgroup_memory_bytes", "gauge",
		    "Memory of the cgroup and its descendants on the node, by type "
		    "(cgroup v2 memory.numa_stat).");
	prom_series(f, v, in, false);
	prom_family(f, "numastatctl_cgroup_memory_events_total", "counter",
		    "Events of the cgroup and its descendants on the node (memory.numa_stat "
		    "workingset and promotion/demotion counts).");
	prom_series(f, v, in, true);
	prom_events(f, v, in);
	snprintf(help, sizeof(help),
		 "Cgroups whose series were left out: the two cgroup families hold at most %d "
		 "series, the named cgroups first, then the largest.",
		 CG_PROM_SERIES_MAX);
	prom_family(f, "numastatctl_cgroups_left_out", "gauge", help);
	fprintf(f, "numastatctl_cgroups_left_out %zu\n", left);
	prom_budget_free(&b);
	free(in);
	return ferror(f) ? -EIO : 0;
}

static int sample(void *ctx, double secs, enum stat_sample how)
{
	bool first = how == STAT_SAMPLE_FIRST;
	struct cgview *v = ctx;
	int rc = EXIT_OK;

	for (size_t i = 0; i < v->n; i++) {
		struct cg *c = &v->cg[i];

		if (first) {
			/* setup's reading is the start of every change. */
			c->have_first = c->ok && cg_numa_copy(&c->first, &c->cur) == 0;
			c->ev_first = c->ev_ok ? c->ev : (struct cg_events){ 0 };
			continue;
		}
		cg_numa_free(&c->prev);
		c->prev = c->cur;
		c->have_prev = c->ok;
		c->ev_prev = c->ev_ok ? c->ev : (struct cg_events){ 0 };
		c->cur = (struct cg_numa){ 0 };
		if (cg_read(v, c) < 0 && !c->matched)
			rc = EXIT_FAIL;
		/* A cgroup that could not be read at start has its first reading now. */
		if (c->ok && !c->have_first) {
			c->have_first = cg_numa_copy(&c->first, &c->cur) == 0;
			c->ev_first = c->ev_ok ? c->ev : (struct cg_events){ 0 };
		}
	}
	if (first && !v->multi && !v->o->json)
		for (size_t i = 0; i < v->n; i++)
			if (v->cg[i].ok) {
				title(v, &v->cg[i]);
				break;
			}
	(void)secs;
	return rc;
}

/* Read every cgroup once; the columns come from the first readable one. */
static int first_readings(struct cgview *v)
{
	const struct cg *first = NULL;
	int rc = EXIT_OK;

	v->buf = malloc(CG_NUMA_STAT_BUF);
	if (!v->buf) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < v->n; i++) {
		int r = cg_read(v, &v->cg[i]);

		if (r < 0 && !(r == -ENOENT && v->cg[i].matched))
			rc = EXIT_FAIL;
		else if (r == 0 && !first)
			first = &v->cg[i];
	}
	if (!first && rc == EXIT_OK) {
		log_err("--cgroup: no cgroup matched has memory.numa_stat (the memory controller is "
			"not enabled for them)");
		rc = EXIT_FAIL;
	}
	for (int e = 0; first && e < CG_EV_COUNT; e++)
		v->have_ev[e] = first->ev_ok && first->ev.have[e];
	if (first && item_columns(v, &first->cur) < 0) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	return rc;
}

/*
 * Find the hierarchy, resolve the arguments, read each cgroup once, pick the
 * columns.  EXIT_OK to go on (*rc EXIT_FAIL when some cgroup failed), or the
 * exit code.
 */
static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	static const char *const item_defaults[] = { "NODE",  "ANON",         "FILE",
						     "SHMEM", "KERNEL_STACK", "PAGETABLES",
						     "SLAB",  "TOTAL",        NULL };
	static const char *const spread_defaults[] = {
		"CGROUP", "N*", "TOTAL", "MAIN", "OFF%", NULL
	};
	static const char *const spread_changes[] = { "CGROUP", "N*", "TOTAL", NULL };
	struct cgview *v = ctx;
	int r;

	v->o = o;
	v->items.sort = v->spread.sort = -1;
	r = find_root(v);

	if (r == EXIT_OK && (r = resolve(v)) == EXIT_FAIL)
		*rc = EXIT_FAIL, r = EXIT_OK;
	if (r != EXIT_OK)
		return r;
	if (v->n == 0)
		return EXIT_FAIL; /* every argument named nothing: said */
	if (first_readings(v) != EXIT_OK)
		*rc = EXIT_FAIL;
	if (!v->items.c)
		return EXIT_FAIL; /* nothing readable: said */
	if ((r = node_set(v)) != EXIT_OK)
		return r;
	if (spread_columns(v) < 0) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	/* -o and --sort name the table's columns: the spread's for several cgroups. */
	if (v->multi && !v->o->json)
		r = pick_columns(v, &v->spread,
				 v->o->interval > 0 ? spread_changes : spread_defaults, "OFF%");
	else
		r = pick_columns(v, &v->items, item_defaults, NULL);
	/* JSON of several: cgroups by their share off the main node. */
	if (v->multi && v->o->json)
		v->spread.sort = find_col(&v->spread, "OFF%");
	return r == -EINVAL ? EXIT_USAGE : r < 0 ? EXIT_FAIL : EXIT_OK;
}

static void release(void *ctx)
{
	struct cgview *v = ctx;

	for (size_t i = 0; i < v->n; i++) {
		cg_numa_free(&v->cg[i].cur);
		cg_numa_free(&v->cg[i].prev);
		cg_numa_free(&v->cg[i].first);
		free(v->cg[i].path);
	}
	free(v->cg);
	free(v->nodes);
	free(v->items.c);
	free(v->spread.c);
	free(v->items.shown);
	free(v->spread.shown);
	free(v->buf);
}

/*
 * The columns for the man page: the kinds of memory are the file's, so
 * they are one entry (-o and --sort resolve names against the file).
 */
static const struct stat_view_col cols[] = {
	{ "NODE", "node", -1, NUM,
	  "one cgroup, and every JSON row: the node id (TOTAL on the sum row)" },
	{ "ANON, FILE, SHMEM, KERNEL_STACK, PAGETABLES, ...", "anon, file, ...", -1, NUM,
	  "one cgroup, and every JSON row: the kinds of memory memory.numa_stat lists on this "
	  "kernel, by their names there in capitals; the WORKINGSET_* and PG* ones are event "
	  "counts, not sizes" },
	{ "SLAB", "slab", -1, NUM, "SLAB_RECLAIMABLE + SLAB_UNRECLAIMABLE" },
	{ "TOTAL", "total", -1, NUM,
	  "ANON + FILE + KERNEL_STACK + PAGETABLES + SEC_PAGETABLES + SLAB: the memory the kernel "
	  "splits by node (below memory.current: per-CPU, socket and vmalloc memory are not "
	  "split); with several cgroups, the cgroup's TOTAL on the nodes shown" },
	{ "CGROUP", "cgroup", -1, 0, "several cgroups: the cgroup's path" },
	{ "N<node>", "N<node>", -1, NUM, "several cgroups: its TOTAL on that node" },
	{ "MAIN", "main", -1, NUM,
	  "several cgroups: the node with the most of its memory (in JSON: true on that node's "
	  "row)" },
	{ "OFF%", "off_main_pct", -1, NUM,
	  "several cgroups: the share of TOTAL on the other nodes" },
	{ "NUMA_PTE_UPDATES, NUMA_HINT_FAULTS, NUMA_PAGES_MIGRATED, PGPROMOTE_SUCCESS, "
	  "PGDEMOTE_KSWAPD, PGDEMOTE_DIRECT, PGDEMOTE_KHUGEPAGED",
	  "numa_pte_updates, numa_hint_faults, numa_pages_migrated", -1, NUM,
	  "several cgroups, with -o: the cgroup's NUMA balancing and tiering events from "
	  "memory.stat, the ones this kernel has (6.12+), for the whole cgroup (no node); one "
	  "cgroup shows them in a line above its table; in JSON the numa_* ones on every row of "
	  "the cgroup" },
	{ 0 },
};

const struct stat_view stat_view_cgroup = {
	.name = "cgroup",
	.option = { "cgroup", required_argument, 0, "<path|unit|pattern>",
		    "per-node memory of cgroups (cgroup v2)" },
	.cols = cols,
	.ctx_size = sizeof(struct cgview),
	.setup = setup,
	.sample = sample,
	.print = print,
	.prom = prom,
	.free = release,
};
