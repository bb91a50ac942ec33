// SPDX-License-Identifier: GPL-2.0-or-later
/* What the --balancing, --tiers and --cgroup views share (stat-effect.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "stat-effect.h"
#include "suggest.h"
#include "value.h"

const char *stat_view_option(int view)
{
	switch (view) {
	case STAT_VIEW_BALANCING:
		return "--balancing";
	case STAT_VIEW_TIERS:
		return "--tiers";
	case STAT_VIEW_CGROUP:
		return "--cgroup";
	}
	return "";
}

int stat_effect_run(const struct stat_opts *o)
{
	if (o->meminfo || o->compat || o->n_pids || o->snapshot_arg || o->prom_names_set) {
		log_usage_err("%s is a view of its own: it excludes -m, --compat, --pid, "
			      "--snapshot, --since and --prometheus-names",
			      stat_view_option(o->view));
		return EXIT_USAGE;
	}
	/* A view's sample is a table titled with its time: -t has no column to add. */
	if (o->timestamp) {
		log_usage_err("-t: %s prints each sample as a table titled with its time",
			      stat_view_option(o->view));
		return EXIT_USAGE;
	}
	if (o->interval > 0 && (o->prometheus || o->textfile)) {
		log_usage_err("interval mode: --prometheus and --textfile are one-shot");
		return EXIT_USAGE;
	}
	switch (o->view) {
	case STAT_VIEW_BALANCING:
		return stat_balance_run(o);
	case STAT_VIEW_TIERS:
		return stat_tiers_run(o);
	case STAT_VIEW_CGROUP:
		return stat_cgroup_run(o);
	}
	return EXIT_USAGE;
}

static int lookup(const char *const *names, size_t n, const char *p, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncasecmp(names[i], p, len) == 0)
			return (int)i;
	return -1;
}

/* "A, B, C" into buf: what -o and --sort take here. */
static const char *name_list(const char *const *names, size_t n, char *buf, size_t size)
{
	size_t j = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && j < size; i++)
		j += (size_t)snprintf(buf + j, size - j, "%s%s", i ? ", " : "", names[i]);
	return buf;
}

/* "'X' for --tiers: did you mean Y?", or the list of what there is. */
static void unknown(const struct stat_opts *o, const char *opt, const char *const *names, size_t n,
		    const char *bad, size_t len)
{
	char list[1024], hint[SUGGEST_MAX_LEN + 32];
	struct suggest s;

	suggest_init_n(&s, bad, len);
	for (size_t i = 0; i < n; i++)
		suggest_add(&s, names[i]);
	suggest_text(&s, hint, sizeof(hint));
	log_usage_err("%s: unknown column '%.*s' for %s: %s", opt, (int)len, bad,
		      stat_view_option(o->view),
		      hint[0] ? hint : name_list(names, n, list, sizeof(list)));
}

int stat_view_columns(const struct stat_opts *o, const char *const *names, size_t n,
		      const int *defaults, size_t nd, int *cols, size_t *ncols, int *sort)
{
	const char *p = o->cols_arg;

	*ncols = 0;
	*sort = -1;
	if (!p || *p == '+') {
		memcpy(cols, defaults, nd * sizeof(*cols));
		*ncols = nd;
		p = p ? p + 1 : NULL;
	}
	while (p) {
		size_t len = strcspn(p, ",");
		int c = lookup(names, n, p, len);

		if (c < 0) {
			unknown(o, "-o", names, n, p, len);
			return -EINVAL;
		}
		if (*ncols == STAT_MAX_COLS) {
			log_usage_err("-o: too many columns at '%.*s' for %s: at most %d", (int)len,
				      p, stat_view_option(o->view), STAT_MAX_COLS);
			return -EINVAL;
		}
		cols[(*ncols)++] = c;
		p = p[len] ? p + len + 1 : NULL;
	}
	if (o->sort_arg && (*sort = lookup(names, n, o->sort_arg, strlen(o->sort_arg))) < 0) {
		unknown(o, "--sort", names, n, o->sort_arg, strlen(o->sort_arg));
		return -EINVAL;
	}
	return 0;
}

void stat_cell_count(struct grid *g, size_t r, size_t c, uint64_t v, bool compact)
{
	char buf[GRID_CELL_MAX];

	if (compact)
		fmt_human(v, FMT_COUNT, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	grid_set(g, r, c, buf, (double)v, v != 0);
}

void stat_cell_pct(struct grid *g, size_t r, size_t c, double num, double den)
{
	char buf[GRID_CELL_MAX];
	double pct;

	if (den <= 0) {
		grid_set(g, r, c, NULL, -1, false);
		return;
	}
	pct = 100.0 * num / den;
	snprintf(buf, sizeof(buf), "%.1f", pct);
	grid_set(g, r, c, buf, pct, pct != 0);
}

void stat_cell_size(struct grid *g, size_t r, size_t c, int64_t v, bool is_signed,
		    const struct stat_opts *o)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	const char *sign = v < 0 ? "-" : is_signed && v > 0 ? "+" : "";
	char buf[GRID_CELL_MAX];

	/* JSON numbers are bytes: "4.1M" is not a number (and JSON has no '+'). */
	if (o->bytes || o->json)
		snprintf(buf, sizeof(buf), "%s%" PRIu64, v < 0 ? "-" : o->json ? "" : sign, mag);
	else {
		buf[0] = '\0';
		str_copy(buf, sign, sizeof(buf));
		fmt_human(mag, FMT_SIZE, buf + strlen(buf), sizeof(buf) - strlen(buf));
	}
	grid_set(g, r, c, buf, (double)v, v != 0);
}

bool stat_node_in(const unsigned *ids, size_t n, unsigned id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid] == id)
			return true;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

void stat_print_escaped(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	escape_fputs(buf, stdout, ESCAPE_KEEP_NEWLINE);
}
