// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat INTERVAL [COUNT] of the counter table (stat-sampler.h): per-interval
 * deltas (or --rate, per second) of every node's counters, as vmstat lines
 * or a folded table per sample, and the totals since the start.
 *
 * Cost per sample: the numastat files stay open and each is pread at offset
 * 0, one syscall per node, plus poll, the timerfd read and one write.
 * Nothing is re-enumerated unless the kernel reports a topology change on
 * its uevent socket.  The kernel side is not free: every read of
 * nodeN/numastat runs fold_vm_numa_events() (5.14+, mm/vmstat.c), which
 * walks every populated zone of the whole machine, not just node N's, and
 * xchg()es the 6 per-CPU NUMA counters of every online CPU.  One sample,
 * one read per node, so costs nodes x populated zones x online CPUs x 6
 * atomic exchanges on cache lines the allocating CPUs own: quadratic in
 * nodes.  A 2-socket, 128-CPU server (4 zones) pays about 6,000 per
 * sample; 8 nodes, 16 zones and 448 CPUs about 340,000.  Nothing at the
 * usual 1 s; at the 0.01 s floor on a big machine the sampling becomes
 * a load of its own, which is why the floor is not lower.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "counters.h"
#include "log.h"
#include "out.h"
#include "stat-counters.h"
#include "stat-sampler.h"
#include "stat-view.h"
#include "stat.h"
#include "sysfs.h"
#include "why.h"

/* One node being sampled. */
struct tracked {
	unsigned node;
	int fd;         /* nodeN/numastat, kept open */
	bool have_base; /* base holds the previous reading */
	bool failed;    /* the last read failed (said once) */
	bool moved;     /* rescan: taken over by the new list */
	uint64_t base[NS_STANDARD];
	uint64_t sum[NS_STANDARD]; /* deltas since the start */
	double secs;               /* seconds the sums cover */
};

struct stat_sampler {
	const struct stat_opts *o;
	struct stat_opts shown; /* o with the default columns filled in */
	struct tracked *t;
	size_t n;
	struct stat_row *rows; /* this sample, for the table */
	bool *reset;           /* this sample: counters went down */
	/* clang-format off */
	uint64_t (*delta)[NS_STANDARD]; /* this sample, unrounded (JSON rates) */
	/* clang-format on */
	bool rescan; /* a node vanished: re-scan before the next sample */
	bool lines;  /* vmstat-style lines; else a table per sample */
	struct stat_lines ln;
	int rc; /* of this sample */
};

static void tracked_close(struct tracked *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* Read a node's counters through its open fd: one pread(2). */
static int tracked_read(struct tracked *t, uint64_t *v, char *why, size_t whylen)
{
	char buf[4096];
	struct numastat s;
	ssize_t n;
	int r;

	if (t->fd < 0) {
		char path[64];

		snprintf(path, sizeof(path), NODE_DIR "/node%u/numastat", t->node);
		t->fd = sysfs_open(path, O_RDONLY);
		if (t->fd < 0) {
			r = t->fd;
			snprintf(why, whylen, "%s", sysfs_strerror(r));
			return r;
		}
	}
	n = sysfs_pread_fd(t->fd, buf, sizeof(buf));
	if (n < 0) {
		snprintf(why, whylen, "%s", sysfs_strerror((int)n));
		return (int)n;
	}
	r = numastat_parse(buf, (size_t)n, &s, why, whylen);
	if (r < 0)
		return r;
	for (int k = 0; k < NS_STANDARD; k++)
		numastat_get(&s, numastat_keys[k], &v[k]);
	return 0;
}

/* Whole-number rate for the table (allocation events per second). */
static uint64_t per_second(uint64_t d, double secs)
{
	double r = (double)d / secs;

	return r >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)(r + 0.5);
}

/* A reading went down: vm.numa_stat was toggled (zeroes all) or hotplug. */
static void say_reset(unsigned node)
{
	if (stat_counters_frozen())
		log_warn("node %u: counters went down: vm.numa_stat is 0, counting is off", node);
	else
		log_warn("node %u: counters went down (vm.numa_stat was toggled, or memory was "
			 "hot-plugged): counting again from here",
			 node);
}

/* Update node i from a fresh reading v; fill its row for this sample. */
static void account(struct stat_sampler *s, size_t i, const uint64_t *v, double secs)
{
	struct tracked *t = &s->t[i];
	struct stat_row *row = &s->rows[i];
	bool down = false;

	for (int k = 0; k < NS_STANDARD; k++)
		down |= v[k] < t->base[k];
	if (!t->have_base || down) {
		/* No delta this time: the row is left out (JSON: nulls). */
		row->err = -EAGAIN;
		s->reset[i] = t->have_base;
		if (down)
			say_reset(t->node);
	} else {
		for (int k = 0; k < NS_STANDARD; k++) {
			uint64_t d = v[k] - t->base[k];

			t->sum[k] = d > UINT64_MAX - t->sum[k] ? UINT64_MAX : t->sum[k] + d;
			s->delta[i][k] = d;
			row->v[k] = s->o->rate ? per_second(d, secs) : d;
		}
		t->secs += secs;
	}
	memcpy(t->base, v, sizeof(t->base));
	t->have_base = true;
}

/* After a failed read only: is the node's directory gone (hot-removed)? */
static bool node_gone(unsigned node)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), NODE_DIR "/node%u", node);
	fd = sysfs_open(path, O_RDONLY | O_DIRECTORY);
	if (fd >= 0)
		close(fd);
	return fd == -ENOENT;
}

/* Read every node once; secs is the time since the previous sample. */
static void take_sample(struct stat_sampler *s, double secs)
{
	for (size_t i = 0; i < s->n; i++) {
		struct tracked *t = &s->t[i];
		uint64_t v[NS_STANDARD];
		char why[WHY_MAX];
		int r;

		s->rows[i] = (struct stat_row){ .node = t->node };
		s->reset[i] = false;
		r = tracked_read(t, v, why, sizeof(why));
		if (r < 0) {
			t->have_base = false;
			s->rows[i].err = r;
			/* Hot-removed before its uevent came: news, not a failure. */
			if (node_gone(t->node)) {
				s->rescan = true;
				continue;
			}
			/* Said once per failure streak. */
			if (!t->failed)
				log_err("node %u: " NODE_DIR "/node%u/numastat: %s", t->node,
					t->node, why);
			t->failed = true;
			s->rc = EXIT_FAIL;
			continue;
		}
		t->failed = false;
		account(s, i, v, secs);
	}
}

/* Local wall-clock time, HH:MM:SS: the TIME column. */
static void clock_text(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;

	localtime_r(&ts->tv_sec, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/* One JSON cell: stat_value()'s text, or per second (unrounded) with --rate; none for no value. */
static void json_cell(struct out_row *r, size_t col, int scol, const struct stat_row *row,
		      double secs, bool rate)
{
	struct stat_value v = stat_value(scol, row);
	char buf[32];

	if (v.kind == STAT_VAL_COUNT && rate)
		out_row_setf(r, col, "%.2f", secs > 0 ? (double)v.n / secs : 0.0);
	else if (stat_value_text(&v, false, buf, sizeof(buf)))
		out_row_set(r, col, buf);
}

/* A row of unrounded deltas (or sums) for json_cell(): err when the node has no value. */
static struct stat_row json_row(unsigned node, bool valid, const uint64_t *d)
{
	struct stat_row row = { .node = node, .err = valid ? 0 : -EAGAIN };

	memcpy(row.v, d, sizeof(row.v));
	return row;
}

/* A one-row JSON table of the sample's own fields: sample, time, seconds (or since, seconds). */
static int json_fields(struct out_table *t, const struct stat_loop_info *in, const char *when)
{
	bool total = in->total;
	struct out_row *r;
	size_t col = 0;

	if (!total)
		out_table_add_column(t, "sample", 0, OUT_COL_NUMBER);
	out_table_add_column(t, total ? "since" : "time", 0, 0);
	out_table_add_column(t, "seconds", 0, OUT_COL_NUMBER);
	if (!(r = out_table_add_row(t)))
		return -ENOMEM;
	if (!total)
		out_row_setf(r, col++, "%lu", in->sample);
	out_row_set(r, col++, when);
	return out_row_setf(r, col, "%.2f", in->secs);
}

/* The nodes array: the shown columns, and whether the node's counters went down. */
static int json_nodes(struct out_table *t, const struct stat_sampler *s,
		      const struct stat_loop_info *in)
{
	bool total = in->total;
	for (size_t c = 0; c < s->shown.n_cols; c++)
		out_table_add_column(t, stat_columns[s->shown.cols[c]].json, 0,
				     stat_column_flags());
	if (!total)
		out_table_add_column(t, "reset", 0, OUT_COL_BOOLEAN);
	for (size_t i = 0; i < s->n; i++) {
		const struct tracked *tr = &s->t[i];
		struct out_row *r = out_table_add_row(t);
		bool valid = total ? tr->secs > 0 : s->rows[i].err == 0;
		struct stat_row row = json_row(tr->node, valid, total ? tr->sum : s->delta[i]);
		size_t col = 0;

		if (!r)
			return -ENOMEM;
		for (size_t c = 0; c < s->shown.n_cols; c++, col++)
			json_cell(r, col, s->shown.cols[c], &row, total ? tr->secs : in->secs,
				  s->o->rate);
		if (!total)
			out_row_set(r, col,
				    s->reset[i] ? "1" : "0"); /* libsmartcols: "0" is false */
	}
	return 0;
}

/* The total object: the shown columns but NODE, summed over the nodes with a value. */
static int json_total(struct out_table *t, const struct stat_sampler *s,
		      const struct stat_loop_info *in)
{
	bool total = in->total;
	uint64_t sum[NS_STANDARD] = { 0 };
	struct stat_row row;
	struct out_row *r;
	size_t col = 0;

	for (size_t i = 0; i < s->n; i++) {
		const uint64_t *d = total ? s->t[i].sum : s->delta[i];

		if (total ? s->t[i].secs <= 0 : s->rows[i].err != 0)
			continue;
		for (int k = 0; k < NS_STANDARD; k++)
			sum[k] = d[k] > UINT64_MAX - sum[k] ? UINT64_MAX : sum[k] + d[k];
	}
	row = json_row(UINT32_MAX, true, sum);
	for (size_t c = 0; c < s->shown.n_cols; c++)
		if (s->shown.cols[c] != SCOL_NODE)
			out_table_add_column(t, stat_columns[s->shown.cols[c]].json, 0,
					     stat_column_flags());
	if (!(r = out_table_add_row(t)))
		return -ENOMEM;
	for (size_t c = 0; c < s->shown.n_cols; c++)
		if (s->shown.cols[c] != SCOL_NODE)
			json_cell(r, col++, s->shown.cols[c], &row, in->secs, s->o->rate);
	return 0;
}

/*
 * One line of JSON per sample, {"sample":..,"time":..,"seconds":..,
 * "nodes":[...],"total":{...}}, and with --totals a last one with "since"
 * instead of "sample" and "time": the same shape as one-shot stat -J.
 */
static int print_json(const struct stat_sampler *s, const struct stat_loop_info *in)
{
	struct out_table *t[3] = { NULL, NULL, NULL };
	static const char *const names[3] = { "", "nodes", "total" };
	static const enum out_part parts[3] = { OUT_PART_FIELDS, OUT_PART_ARRAY, OUT_PART_OBJECT };
	struct out_doc *d = NULL;
	char why[WHY_MAX] = "", when[32];
	int r = 0;

	stat_iso_time(&in->when, when, sizeof(when));
	for (int i = 0; i < 3 && r == 0; i++)
		r = out_table_new(&t[i], names[i], OUT_JSON, why, sizeof(why));
	if (r == 0)
		r = json_fields(t[0], in, when);
	if (r == 0)
		r = json_nodes(t[1], s, in);
	if (r == 0)
		r = json_total(t[2], s, in);
	if (r == 0)
		r = out_doc_new(&d, OUT_ONELINE);
	for (int i = 0; i < 3 && r == 0; i++)
		r = out_doc_add(d, t[i], parts[i]);
	if (r == 0)
		r = out_doc_print(d, stdout);
	else
		log_err("cannot print JSON: %s", *why ? why : strerror(-r));
	out_doc_free(d);
	for (int i = 0; i < 3; i++)
		out_table_free(t[i]);
	return r;
}

/* A sample (or the totals) as a folded table; 0 or -errno after saying why. */
static int print_table(const struct stat_sampler *s)
{
	char why[WHY_MAX];
	int r = stat_print_counters(&s->shown, s->rows, s->n, 0, why, sizeof(why));

	if (r < 0 && r != -EIO)
		log_err("%s", why);
	return r;
}

/* --totals: the totals since the start, in the layout of the samples. */
static int print_total(struct stat_sampler *s, const struct stat_loop_info *in)
{
	char when[16];

	for (size_t i = 0; i < s->n; i++) {
		const struct tracked *t = &s->t[i];

		s->rows[i] = (struct stat_row){ .node = t->node, .err = t->secs > 0 ? 0 : -EAGAIN };
		for (int k = 0; k < NS_STANDARD; k++)
			s->rows[i].v[k] = s->o->rate && t->secs > 0 ? per_second(t->sum[k], t->secs)
								    : t->sum[k];
	}
	if (s->o->json)
		return print_json(s, in);
	stat_view_title(s->o, in);
	if (!s->lines)
		return print_table(s);
	clock_text(&in->when, when, sizeof(when));
	s->ln.header_due = !s->o->noheadings;
	stat_lines_print(&s->ln, s->rows, s->n, when);
	return ferror(stdout) ? -EIO : 0;
}

static int print_sample(struct stat_sampler *s, const struct stat_loop_info *in)
{
	char when[16];
	int r = 0;

	if (s->o->json)
		r = print_json(s, in);
	else if (s->lines) {
		clock_text(&in->when, when, sizeof(when));
		stat_lines_print(&s->ln, s->rows, s->n, when);
	} else {
		stat_view_title(s->o, in);
		r = print_table(s);
	}
	/* Each sample is news now, also into a pipe or a file. */
	if (fflush(stdout) != 0)
		r = -EIO;
	return r;
}

/* Size the per-sample arrays for n nodes.  0 or -ENOMEM. */
static int resize(struct stat_sampler *s, size_t n)
{
	size_t m = n ? n : 1;
	struct stat_row *rows = reallocarray(s->rows, m, sizeof(*rows));
	bool *reset;
	/* clang-format off */
	uint64_t (*delta)[NS_STANDARD];
	/* clang-format on */

	if (rows)
		s->rows = rows;
	reset = reallocarray(s->reset, m, sizeof(*reset));
	if (reset)
		s->reset = reset;
	delta = reallocarray(s->delta, m, sizeof(*delta));
	if (delta)
		s->delta = delta;
	return rows && reset && delta ? 0 : -ENOMEM;
}

static int cmp_node(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* The nodes to sample now: every node, or those of --nodes that exist. */
static int wanted_nodes(const struct stat_opts *o, unsigned **ids)
{
	int n = nodes_enumerate(ids);
	size_t k = 0;

	if (n <= 0 || !o->nodes)
		return n;
	for (size_t i = 0; i < (size_t)n; i++)
		if (bsearch(&(*ids)[i], o->nodes, o->n_nodes, sizeof(unsigned), cmp_node))
			(*ids)[k++] = (*ids)[i];
	return (int)k;
}

static struct tracked *find_tracked(struct stat_sampler *s, unsigned node)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->t[i].node == node)
			return &s->t[i];
	return NULL;
}

/*
 * Re-enumerate the nodes after a topology event: keep the fds and
 * baselines of the nodes still there, open the new ones and say which node
 * came or went.  Only uevents (and start-up) call this.
 */
static int rescan(struct stat_sampler *s, bool report)
{
	unsigned *ids;
	int n = wanted_nodes(s->o, &ids);
	struct tracked *t;

	if (n < 0)
		return n;
	t = calloc(n ? (size_t)n : 1, sizeof(*t));
	if (!t || resize(s, (size_t)n) < 0) {
		free(t);
		free(ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < (size_t)n; i++) {
		struct tracked *old = find_tracked(s, ids[i]);

		if (old) {
			t[i] = *old;
			old->moved = true;
			continue;
		}
		t[i] = (struct tracked){ .node = ids[i], .fd = -1 };
		if (report)
			log_warn("node %u appeared: sampling it from the next interval", ids[i]);
	}
	for (size_t i = 0; i < s->n; i++) {
		if (s->t[i].moved)
			continue;
		if (report)
			log_warn("node %u is gone", s->t[i].node);
		tracked_close(&s->t[i]);
	}
	free(s->t);
	free(ids);
	s->t = t;
	s->n = (size_t)n;
	return 0;
}

/* First readings of nodes that have none, so the next sample has deltas. */
static void take_baselines(struct stat_sampler *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct tracked *t = &s->t[i];
		char why[WHY_MAX];

		if (t->have_base)
			continue;
		if (tracked_read(t, t->base, why, sizeof(why)) == 0) {
			t->have_base = true;
			t->failed = false;
		} else if (!t->failed) {
			log_err("node %u: " NODE_DIR "/node%u/numastat: %s", t->node, t->node, why);
			t->failed = true;
			s->rc = EXIT_FAIL;
		}
	}
}

static int check_opts(const struct stat_opts *o)
{
	unsigned *ids;
	int n;

	if (o->meminfo || o->compat || o->prometheus || o->textfile) {
		log_usage_err("interval mode: -m, --compat, --prometheus and --textfile "
			      "are one-shot views");
		return EXIT_USAGE;
	}
	n = stat_view_nodes(o, &ids);
	if (n < 0)
		return -n;
	free(ids);
	return EXIT_OK;
}

/*
 * vmstat's layout, one line per node per sample, where a line fits the
 * width (-w, or the terminal's; unlimited into a pipe); else a folded
 * table per sample.
 */
static void choose_layout(struct stat_sampler *s)
{
	size_t cols, rows;

	out_terminal_size(&cols, &rows);
	stat_lines_init(&s->ln, &s->shown, s->o->timestamp, rows);
	s->lines =
		!s->o->json && (s->o->raw || !s->o->width || stat_lines_fit(&s->ln, s->o->width));
}

int stat_sampler_setup(struct stat_sampler **sp, const struct stat_opts *o)
{
	struct stat_sampler *s;
	int rc = check_opts(o);

	*sp = NULL;
	if (rc != EXIT_OK)
		return rc;
	if (!(s = calloc(1, sizeof(*s)))) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	*sp = s;
	s->o = o;
	s->shown = *o;
	if (s->shown.n_cols == 0)
		stat_default_columns(&s->shown);
	choose_layout(s);
	/* One read at start, as the one-shot table does: zeros would mislead. */
	if (stat_counters_frozen())
		counters_warn_frozen(", every change will read 0");
	if (rescan(s, false) < 0) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int stat_sampler_sample(struct stat_sampler *s, double secs, enum stat_sample how)
{
	s->rc = EXIT_OK;
	/* Nodes came or went (a uevent, or a node that vanished in the last sample). */
	if (how == STAT_SAMPLE_TOPOLOGY || (how == STAT_SAMPLE_NEXT && s->rescan)) {
		s->rescan = false;
		if (rescan(s, true) < 0) {
			log_err("out of memory");
			return EXIT_FAIL;
		}
		take_baselines(s);
	} else if (how == STAT_SAMPLE_FIRST)
		take_baselines(s);
	if (how == STAT_SAMPLE_NEXT)
		take_sample(s, secs);
	return s->rc;
}

int stat_sampler_print(struct stat_sampler *s, const struct stat_loop_info *in)
{
	return in->total ? print_total(s, in) : print_sample(s, in);
}

void stat_sampler_free(struct stat_sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		tracked_close(&s->t[i]);
	free(s->t);
	free(s->rows);
	free(s->reset);
	free(s->delta);
	free(s);
}
