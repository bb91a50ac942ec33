// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --pid PID|PATTERN...: per-process memory per node from
 * /proc/PID/numa_maps, in numastat -p's categories.  A PID is all digits;
 * anything else is a substring of the command name or command line, as in
 * numastat (which also leaves its own process out of pattern matches).
 * Processes that are gone or unreadable are reported and skipped; the exit
 * code is 1 then, after everything readable was printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd-stat.h"
#include "cmd.h"
#include "escape.h"
#include "grid.h"
#include "log.h"
#include "out.h"
#include "procmaps.h"
#include "stat-compat.h"
#include "stat-interleave.h"
#include "stat-view.h"
#include "stat.h"
#include "suggest.h"
#include "value.h"
#include "why.h"

/* One process that could be read. */
struct proc_mem {
	unsigned pid;
	char name[64];      /* "(null)" when status was unreadable, as numastat says */
	char shown[64 * 4]; /* name escaped for text output (escape.h); JSON takes name */
	bool failed;        /* numa_maps unreadable: said, only --compat shows it (zeros) */
	struct procmaps pm;
	struct pm_wi wi; /* --interleave */
};

/*
 * -o: one row per process.  Columns PID, COMMAND, HUGE, HEAP, STACK,
 * PRIVATE, TOTAL, or N<id> (the process's memory on node id); "+LIST"
 * appends to PID,COMMAND,TOTAL.
 */
enum { PCOL_PID = -1, PCOL_COMMAND = -2, PCOL_NODE_BASE = 1000 };

struct pcols {
	size_t n;
	int v[STAT_MAX_COLS]; /* PCOL_PID, PCOL_COMMAND, a pm_cat (PM_NCAT: TOTAL), or N<id> */
};

/* Everything the views print. */
struct pid_view {
	const struct stat_opts *o;
	struct proc_mem *p; /* every process resolved, readable or not */
	size_t n;
	size_t ok;       /* how many were readable */
	unsigned *nodes; /* the node columns */
	size_t n_nodes;
	struct interleave_weights iw; /* --interleave: the weights now */
	char autow[8];                /* and auto: "1", "0", "" (none) */
	struct proc_list l;           /* the processes as resolved */
	struct pcols *pc;             /* -o without --compat: one row per process */
};

/* The operands into sorted, unique PIDs.  EXIT_OK, or EXIT_FAIL after a message. */
static int resolve(const struct stat_opts *o, struct proc_list *l)
{
	unsigned *all = NULL, pid;
	int n_all = -1, rc = EXIT_OK, r;

	for (size_t i = 0; i < o->n_pids; i++) {
		const char *arg = o->pids[i];

		if (proc_pid_operand(arg, &pid)) {
			if (pid > PROC_PID_MAX) {
				log_err("'%s': not a process id (at most %d)", arg, PROC_PID_MAX);
				rc = EXIT_FAIL;
			} else if (proc_list_add(l, pid) < 0)
				goto oom;
			continue;
		}
		if (n_all < 0 && (n_all = proc_pids(&all)) < 0) {
			log_err("/proc: %s", strerror(-n_all));
			return EXIT_FAIL;
		}
		/* --compat is numastat -p: its pattern is also looked for in the command line. */
		r = (o->compat ? proc_list_match_numastat
			       : proc_list_match)(l, arg, all, (size_t)n_all, (unsigned)getpid());
		if (r < 0)
			goto oom;
		if (r == 0 && o->compat)
			log_err("no process matches '%s' (name or command line)", arg);
		else if (r == 0)
			log_err("no process matches '%s' (by name; '" PROC_CMDLINE_PREFIX
				"%s' looks in the command lines)",
				arg, arg);
		rc = r == 0 ? EXIT_FAIL : rc;
	}
	free(all);
	proc_list_sort_unique(l);
	return rc;
oom:
	free(all);
	log_err("out of memory");
	return EXIT_FAIL;
}

/* Read each process; the ones that fail are said and left out. */
static int read_all(struct pid_view *v, const struct proc_list *l)
{
	int rc = EXIT_OK;

	v->p = calloc(l->n ? l->n : 1, sizeof(*v->p));
	if (!v->p) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct proc_mem *m = &v->p[v->n++];
		char why[WHY_MAX];
		int r;

		if (v->o->interleave) {
			m->wi = (struct pm_wi){ .wnodes = v->iw.nodes,
						.weights = v->iw.w,
						.nw = v->iw.n };
			m->pm.wi = &m->wi;
		}
		r = procmaps_read(l->v[i], &m->pm, why, sizeof(why));

		m->pid = l->v[i];
		if (proc_name(m->pid, m->name, sizeof(m->name)) < 0)
			snprintf(m->name, sizeof(m->name), "(null)");
		escape_text(m->name, m->shown, sizeof(m->shown), 0);
		if (r < 0) {
			if (r == -ENOENT)
				log_err("process %u: gone (no /proc/%u)", l->v[i], l->v[i]);
			else
				log_err("process %u: /proc/%u/numa_maps: %s", l->v[i], l->v[i],
					why);
			procmaps_free(&m->pm);
			m->failed = true;
			rc = EXIT_FAIL;
			continue;
		}
		v->ok++;
	}
	return rc;
}

/* The node columns: --nodes, or every node here plus any a process uses. */
static int node_columns(struct pid_view *v)
{
	unsigned *ids;
	struct node_miss missing = { 0 };
	int n = stat_select_nodes(v->o, &ids, &missing);
	size_t cap;

	if (n == -ENOENT) {
		stat_view_say_missing_node(&missing);
		return EXIT_USAGE;
	}
	if (n < 0) {
		/* No node directory: the processes still say where their memory is. */
		n = 0;
		ids = NULL;
	}
	cap = (size_t)n;
	for (size_t i = 0; i < v->n; i++)
		cap += v->p[i].pm.n;
	v->nodes = reallocarray(ids, cap ? cap : 1, sizeof(*ids));
	if (!v->nodes) {
		free(ids);
		log_err("out of memory");
		return EXIT_FAIL;
	}
	v->n_nodes = (size_t)n;
	for (size_t i = 0; i < v->n && !v->o->nodes; i++)
		for (size_t k = 0; k < v->p[i].pm.n; k++)
			v->nodes[v->n_nodes++] = v->p[i].pm.v[k].node;
	{
		struct proc_list l = { v->nodes, v->n_nodes, cap };

		proc_list_sort_unique(&l);
		v->n_nodes = l.n;
	}
	return EXIT_OK;
}

/* Bytes of category cat (PM_NCAT: all) a process has on node. */
static uint64_t mem_on(const struct proc_mem *m, unsigned node, int cat)
{
	for (size_t i = 0; i < m->pm.n; i++)
		if (m->pm.v[i].node == node)
			return cat == PM_NCAT ? procmaps_node_total(&m->pm.v[i])
					      : m->pm.v[i].bytes[cat];
	return 0;
}

/* Bytes over the shown nodes only (--nodes narrows the totals too). */
static uint64_t mem_total(const struct pid_view *v, const struct proc_mem *m, int cat)
{
	uint64_t t = 0;

	for (size_t i = 0; i < v->n_nodes; i++)
		t += mem_on(m, v->nodes[i], cat);
	return t;
}

/* Sizes in human units (fmt_human()); -b and -J: bytes (JSON numbers are bytes). */
static void fmt_size(const struct stat_opts *o, uint64_t v, char *buf, size_t len)
{
	if (o->bytes || o->json)
		snprintf(buf, len, "%" PRIu64, v);
	else
		fmt_human(v, FMT_SIZE, buf, len);
}

static void grid_size(struct grid *g, const struct stat_opts *o, size_t r, size_t c, uint64_t v)
{
	char buf[GRID_CELL_MAX];

	fmt_size(o, v, buf, sizeof(buf));
	grid_set(g, r, c, buf, (double)v, v != 0);
}

#define SIZE_COL (OUT_COL_RIGHT | OUT_COL_NUMBER)

static const struct grid_col cat_cols[] = {
	{ "NODE", "node", OUT_COL_RIGHT | OUT_COL_NUMBER },
	{ "HUGE", "huge", SIZE_COL },
	{ "HEAP", "heap", SIZE_COL },
	{ "STACK", "stack", SIZE_COL },
	{ "PRIVATE", "private", SIZE_COL },
	{ "TOTAL", "total", SIZE_COL },
};
#define N_CAT_COLS (sizeof(cat_cols) / sizeof(cat_cols[0]))

/* Row r of a process table: one node (or TOTAL, node == UINT32_MAX). */
static void fill_cat_row(struct grid *g, const struct pid_view *v, const struct proc_mem *m,
			 size_t r, unsigned node)
{
	char id[16];

	snprintf(id, sizeof(id), "%u", node);
	grid_set(g, r, 0, node == UINT32_MAX ? "TOTAL" : id, node, true);
	for (int c = 0; c <= PM_NCAT; c++)
		grid_size(g, v->o, r, (size_t)c + 1,
			  node == UINT32_MAX ? mem_total(v, m, c) : mem_on(m, node, c));
}

/* One table per process: rows = nodes and TOTAL, columns = categories. */
static int print_process(const struct pid_view *v, const struct proc_mem *m, bool first)
{
	struct grid g;
	char why[WHY_MAX];
	int r = grid_init(&g, v->n_nodes + 1, N_CAT_COLS);

	if (r < 0)
		return r;
	memcpy(g.cols, cat_cols, sizeof(cat_cols));
	g.has_total = true;
	for (size_t i = 0; i < v->n_nodes; i++)
		fill_cat_row(&g, v, m, i, v->nodes[i]);
	fill_cat_row(&g, v, m, v->n_nodes, UINT32_MAX);
	if (!v->o->noheadings)
		printf("%sPID %u (%s)\n", first ? "" : "\n", m->pid, m->shown);
	r = grid_print(&g, v->o, 0, "nodes", why, sizeof(why));
	if (r < 0)
		log_err("%s", why);
	grid_free(&g);
	return r;
}

/* -J: one array, a row per process and node, sizes in bytes. */
static int print_json(const struct pid_view *v)
{
	struct out_table *t;
	char why[WHY_MAX];
	int r = out_table_new(&t, "processes", OUT_JSON, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print JSON: %s", why);
		return r;
	}
	out_table_add_column(t, "pid", 0, OUT_COL_NUMBER);
	out_table_add_column(t, "command", 0, 0);
	for (size_t c = 0; c < N_CAT_COLS; c++)
		out_table_add_column(t, cat_cols[c].json, 0, cat_cols[c].flags);
	for (size_t i = 0; i < v->n; i++)
		for (size_t k = 0; k < v->n_nodes && !v->p[i].failed; k++) {
			struct out_row *row = out_table_add_row(t);

			if (!row)
				break;
			out_row_setf(row, 0, "%u", v->p[i].pid);
			out_row_set(row, 1, v->p[i].name);
			out_row_setf(row, 2, "%u", v->nodes[k]);
			for (int c = 0; c <= PM_NCAT; c++)
				out_row_setf(row, (size_t)c + 3, "%" PRIu64,
					     mem_on(&v->p[i], v->nodes[k], c));
		}
	r = out_table_print(t, stdout);
	out_table_free(t);
	return r;
}

/*
 * --compat: numastat -p's tables, byte for byte, through numastat's table
 * (stat-compat.h).  One process (as resolved) gets the Huge/Heap/Stack/
 * Private table, several get one row each; values in MB with two decimals
 * ('c': none, narrow columns), 'z' drops all-zero rows and columns.  Like
 * numastat off a terminal, nothing is folded.
 */
struct compat {
	struct stat_compat_table *t;
	struct stat_compat_style style;
	/* Data columns (nodes, Total) and data rows (the last: Total). */
	size_t ncols, nrows;
	/* Headers; labels: "<pid> (<name>)" fits whole. */
	/* clang-format off */
	char (*head)[24];
	char (*label)[80];
	/* clang-format on */
};

static double mb(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

/* Headers "Node N" and Total, the rules, the Total row: rows are 2 headers, nrows data, 1 rule. */
static int compat_alloc(struct compat *ct, const struct pid_view *v, size_t nrows, bool multi)
{
	int r;

	ct->ncols = v->n_nodes + 1;
	ct->nrows = nrows;
	ct->head = calloc(ct->ncols, sizeof(*ct->head));
	ct->label = calloc(nrows, sizeof(*ct->label));
	r = ct->head && ct->label ? stat_compat_table_new(&ct->t, 2, (int)nrows + 1, (int)ct->ncols)
				  : -ENOMEM;
	if (r < 0)
		return r;
	if (multi)
		stat_compat_table_text(ct->t, 0, 0, "PID");
	for (size_t c = 0; c < ct->ncols; c++) {
		if (c < v->n_nodes)
			snprintf(ct->head[c], sizeof(ct->head[c]), "Node %u", v->nodes[c]);
		else
			snprintf(ct->head[c], sizeof(ct->head[c]), "Total");
		stat_compat_table_text(ct->t, 0, (int)c + 1, ct->head[c]);
		stat_compat_table_rule(ct->t, 1, (int)c + 1);
	}
	/* The rule over Total runs under the labels too; the one under the headers with PID only. */
	for (size_t c = 0; c <= ct->ncols; c++)
		stat_compat_table_rule(ct->t, 2 + (int)nrows - 1, (int)c);
	if (multi)
		stat_compat_table_rule(ct->t, 1, 0);
	snprintf(ct->label[nrows - 1], sizeof(ct->label[0]), "Total");
	stat_compat_table_text(ct->t, 2 + (int)nrows, 0, ct->label[nrows - 1]);
	ct->style.label_max = 24;
	ct->style.places = ct->style.compress ? 0 : 2;
	ct->style.width = 10000000;
	return 0;
}

static void compat_free(struct compat *ct)
{
	stat_compat_table_free(ct->t);
	free(ct->head);
	free(ct->label);
}

/* Add MB to a cell and to its row's, column's and the grand total. */
static void compat_add(struct compat *ct, size_t r, size_t c, double v)
{
	int tr = 2 + (int)ct->nrows, tc = (int)ct->ncols;

	stat_compat_table_add(ct->t, 2 + (int)r, (int)c + 1, v);
	stat_compat_table_add(ct->t, 2 + (int)r, tc, v);
	stat_compat_table_add(ct->t, tr, (int)c + 1, v);
	stat_compat_table_add(ct->t, tr, tc, v);
}

/* One process: rows Huge, Heap, Stack, Private, then Total. */
static int compat_one(const struct pid_view *v, const struct proc_mem *m, const struct compat *opt)
{
	struct compat ct = *opt;
	int r = compat_alloc(&ct, v, PM_NCAT + 1, false);

	if (r == 0) {
		for (int cat = 0; cat < PM_NCAT; cat++) {
			snprintf(ct.label[cat], sizeof(ct.label[0]), "%s", procmaps_cat_names[cat]);
			stat_compat_table_text(ct.t, 2 + cat, 0, ct.label[cat]);
			for (size_t c = 0; c < v->n_nodes; c++)
				compat_add(&ct, (size_t)cat, c, mb(mem_on(m, v->nodes[c], cat)));
		}
		printf("\nPer-node process memory usage (in MBs) for PID %u (%s)\n", m->pid,
		       m->shown);
		r = stat_compat_table_print(ct.t, &ct.style, stdout);
	}
	compat_free(&ct);
	return r == -EIO ? 0 : r;
}

/* Several processes: a row each with its per-node totals. */
static int compat_many(const struct pid_view *v, const struct compat *opt)
{
	struct compat ct = *opt;
	int r = compat_alloc(&ct, v, v->n + 1, true);

	if (r == 0) {
		for (size_t i = 0; i < v->n; i++) {
			/* A long name is cut to the label's width. */
			char label[sizeof(v->p[i].shown) + 16];

			snprintf(label, sizeof(label), "%u (%s)", v->p[i].pid, v->p[i].shown);
			str_copy(ct.label[i], label, sizeof(ct.label[0]));
			stat_compat_table_text(ct.t, 2 + (int)i, 0, ct.label[i]);
			for (size_t c = 0; c < v->n_nodes; c++)
				compat_add(&ct, i, c, mb(mem_on(&v->p[i], v->nodes[c], PM_NCAT)));
		}
		printf("\nPer-node process memory usage (in MBs)\n");
		r = stat_compat_table_print(ct.t, &ct.style, stdout);
	}
	compat_free(&ct);
	return r == -EIO ? 0 : r;
}

/* numastat's option letters after --compat= that matter here: c and z. */
static int compat_view(const struct pid_view *v)
{
	struct compat opt = { .style = { .compress = v->o->compact,
					 .skip_zero = v->o->skip_zero } };
	int r = 0;

	for (const char *p = v->o->compat_arg; p && *p; p++) {
		opt.style.compress |= *p == 'c';
		opt.style.skip_zero |= *p == 'z';
	}
	if (v->n > 1)
		return compat_many(v, &opt);
	/* numastat prints the title, then fails to read; so do we. */
	if (v->n == 1 && v->p[0].failed)
		printf("\nPer-node process memory usage (in MBs) for PID %u (%s)\n", v->p[0].pid,
		       v->p[0].shown);
	else if (v->n == 1)
		r = compat_one(v, &v->p[0], &opt);
	return r;
}

static int pcol_lookup(const char *p, size_t len, int *col)
{
	static const char *const names[] = { "HUGE", "HEAP", "STACK", "PRIVATE", "TOTAL" };
	uint64_t id;

	if (len == 3 && strncasecmp(p, "PID", 3) == 0)
		*col = PCOL_PID;
	else if (len == 7 && strncasecmp(p, "COMMAND", 7) == 0)
		*col = PCOL_COMMAND;
	else if (len > 1 && (p[0] == 'N' || p[0] == 'n') &&
		 parse_u64_n(p + 1, len - 1, NODE_ID_MAX, &id) == 0)
		*col = PCOL_NODE_BASE + (int)id;
	else {
		for (int i = 0; i <= PM_NCAT; i++)
			if (strlen(names[i]) == len && strncasecmp(p, names[i], len) == 0) {
				*col = i;
				return 0;
			}
		return -EINVAL;
	}
	return 0;
}

static void unknown_pcol(const char *name, size_t len)
{
	static const char *const names[] = { "PID",   "COMMAND", "HUGE", "HEAP",
					     "STACK", "PRIVATE", "TOTAL" };
	char hint[64];
	struct suggest s;

	suggest_init_n(&s, name, len);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		suggest_add(&s, names[i]);
	suggest_text(&s, hint, sizeof(hint));
	log_usage_err("-o: unknown column '%.*s' for --pid: %s", (int)len, name,
		      hint[0] ? hint
			      : "one of PID, COMMAND, HUGE, HEAP, STACK, PRIVATE, TOTAL, "
				"N<node>");
}

static int pcols_parse(const char *list, struct pcols *pc)
{
	const char *p = list;

	pc->n = 0;
	if (*p == '+') {
		pc->v[pc->n++] = PCOL_PID;
		pc->v[pc->n++] = PCOL_COMMAND;
		pc->v[pc->n++] = PM_NCAT;
		p++;
	}
	for (;;) {
		size_t len = strcspn(p, ",");

		if (pc->n == STAT_MAX_COLS || pcol_lookup(p, len, &pc->v[pc->n]) < 0) {
			unknown_pcol(p, len);
			return -EINVAL;
		}
		pc->n++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static void pcol_desc(int col, struct grid_col *gc, char *name, size_t len)
{
	static const struct grid_col cats[] = {
		{ "HUGE", "huge", SIZE_COL },   { "HEAP", "heap", SIZE_COL },
		{ "STACK", "stack", SIZE_COL }, { "PRIVATE", "private", SIZE_COL },
		{ "TOTAL", "total", SIZE_COL },
	};

	if (col == PCOL_PID)
		*gc = (struct grid_col){ "PID", "pid", OUT_COL_RIGHT | OUT_COL_NUMBER };
	else if (col == PCOL_COMMAND)
		*gc = (struct grid_col){ "COMMAND", "command", OUT_COL_TRUNC };
	else if (col >= PCOL_NODE_BASE) {
		snprintf(name, len, "N%d", col - PCOL_NODE_BASE);
		*gc = (struct grid_col){ name, name, SIZE_COL };
	} else
		/* col is a pm_cat (cats[] has them all): node columns took the branch above */
		/* cppcheck-suppress arrayIndexOutOfBoundsCond */
		*gc = cats[col];
}

/* Cell (r, c) for process m; m == NULL: the TOTAL row. */
static void pcol_cell(struct grid *g, const struct pid_view *v, const struct proc_mem *m, size_t r,
		      size_t c, int col)
{
	uint64_t sum = 0;

	if (col == PCOL_PID || col == PCOL_COMMAND) {
		char id[16];

		snprintf(id, sizeof(id), "%u", m ? m->pid : 0);
		grid_set(g, r, c,
			 !m                ? (col == PCOL_PID ? "TOTAL" : "")
			 : col == PCOL_PID ? id
					   : m->name,
			 m ? m->pid : 0, true);
		return;
	}
	for (size_t i = 0; i < v->n; i++) {
		const struct proc_mem *p = m ? m : &v->p[i];

		sum += col >= PCOL_NODE_BASE ? mem_on(p, (unsigned)(col - PCOL_NODE_BASE), PM_NCAT)
					     : mem_total(v, p, col);
		if (m)
			break;
	}
	grid_size(g, v->o, r, c, sum);
}

static int rows_view(const struct pid_view *v)
{
	const struct pcols *pc = v->pc;
	struct grid g;
	char names[STAT_MAX_COLS][16], why[WHY_MAX];
	int r;

	r = grid_init(&g, v->ok + 1, v->pc->n);
	if (r < 0) {
		log_err("out of memory");
		return r;
	}
	for (size_t c = 0; c < pc->n; c++)
		pcol_desc(pc->v[c], &g.cols[c], names[c], sizeof(names[c]));
	g.has_total = true;
	for (size_t c = 0; c < pc->n; c++) {
		size_t row = 0;

		for (size_t i = 0; i < v->n; i++)
			if (!v->p[i].failed)
				pcol_cell(&g, v, &v->p[i], row++, c, pc->v[c]);
		pcol_cell(&g, v, NULL, row, c, pc->v[c]);
	}
	r = grid_print(&g, v->o, 0, "processes", why, sizeof(why));
	if (r < 0)
		log_err("%s", why);
	grid_free(&g);
	return r;
}

/* --interleave: the readable processes' weighted interleave mappings. */
static int interleave_view(const struct pid_view *v)
{
	struct stat_interleave_proc *p = calloc(v->n ? v->n : 1, sizeof(*p));
	size_t n = 0;
	int r;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < v->n; i++)
		if (!v->p[i].failed)
			p[n++] = (struct stat_interleave_proc){ v->p[i].pid, v->p[i].name,
								v->p[i].shown, &v->p[i].wi };
	r = stat_interleave_print(v->o, p, n, &v->iw, v->autow);
	free(p);
	return r;
}

static int print(void *ctx, const struct stat_loop_info *in)
{
	const struct pid_view *v = ctx;
	int r = 0;

	if (v->o->interleave)
		r = interleave_view(v);
	else if (v->o->compat)
		r = compat_view(v);
	else if (v->pc)
		return rows_view(v);
	else if (v->o->json)
		r = print_json(v);
	else
		for (size_t i = 0, shown = 0; i < v->n && r == 0; i++)
			if (!v->p[i].failed)
				r = print_process(v, &v->p[i], shown++ == 0);
	if (r == -ENOMEM)
		log_err("out of memory");
	return r;
}

/* The weights now and auto, what --interleave compares the pages with. */
static int read_weights(struct pid_view *v)
{
	struct knob_ref ref;
	struct kval a;
	char why[WHY_MAX];

	if (interleave_weights_read(&v->iw, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	if (knob_resolve(INTERLEAVE_AUTO, &ref, why, sizeof(why)) == 0 && knob_read(&ref, &a) == 0)
		str_copy(v->autow, a.text, sizeof(v->autow));
	return EXIT_OK;
}

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	struct pid_view *v = ctx;
	int r;

	v->o = o;
	if (o->interval > 0 || o->meminfo || o->prometheus || o->textfile) {
		log_usage_err("--pid takes no interval, -m, --prometheus or --textfile");
		return EXIT_USAGE;
	}
	*rc = resolve(o, &v->l);
	if (o->interleave && (r = read_weights(v)) != EXIT_OK)
		*rc = r;
	r = read_all(v, &v->l);
	*rc = r > *rc ? r : *rc;
	if ((r = node_columns(v)) != EXIT_OK)
		return r;
	/* -o names this view's columns; after reading, as ever, so errors come in that order. */
	if (!o->compat && o->cols_arg) {
		v->pc = malloc(sizeof(*v->pc));
		if (!v->pc) {
			log_err("out of memory");
			return EXIT_FAIL;
		}
		if (pcols_parse(o->cols_arg, v->pc) < 0)
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void release(void *ctx)
{
	struct pid_view *v = ctx;

	for (size_t i = 0; i < v->n; i++) {
		procmaps_free(&v->p[i].pm);
		procmaps_wi_free(&v->p[i].wi);
	}
	interleave_weights_free(&v->iw);
	free(v->p);
	free(v->nodes);
	proc_list_free(&v->l);
	free(v->pc);
}

/* The columns of -o (one row per process), for the man page. */
static const struct stat_view_col cols[] = {
	{ "PID", "pid", -1, OUT_COL_RIGHT | OUT_COL_NUMBER,
	  "the process id (TOTAL on the sum row)" },
	{ "COMMAND", "command", -1, OUT_COL_TRUNC, "its name" },
	{ "HUGE", "huge", -1, SIZE_COL, "its memory in huge pages" },
	{ "HEAP", "heap", -1, SIZE_COL, "its heap" },
	{ "STACK", "stack", -1, SIZE_COL, "its stack" },
	{ "PRIVATE", "private", -1, SIZE_COL, "its other private memory" },
	{ "TOTAL", "total", -1, SIZE_COL, "all of these" },
	{ "N<node>", "N<node>", -1, SIZE_COL, "its memory on that node" },
	{ 0 },
};

const struct stat_view stat_view_pid = {
	.name = "pid",
	.cols = cols,
	.ctx_size = sizeof(struct pid_view),
	.setup = setup,
	.print = print,
	.free = release,
};
