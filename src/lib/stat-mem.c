// SPDX-License-Identifier: GPL-2.0-or-later
/* stat -m: per-node memory from nodeN/meminfo and nodeN/hugepages. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grid.h"
#include "out.h"
#include "stat-views.h"
#include "suggest.h"
#include "value.h"

static const char *const default_fields[] = {
	"MemTotal", "MemFree", "MemUsed",         "FilePages",      "AnonPages",
	"Shmem",    "Slab",    "HugePages_Total", "HugePages_Free",
};

/* The field's canonical spelling in the nodes' meminfo, or NULL. */
static const char *find_field(const struct stat_nodes *t, const char *name, size_t len)
{
	for (size_t i = 0; i < t->n_fields; i++)
		if (strlen(t->field[i].name) == len &&
		    strncasecmp(t->field[i].name, name, len) == 0)
			return t->field[i].name;
	return NULL;
}

/* ": did you mean MemTotal?" for name among the nodes' meminfo fields, or "". */
static const char *field_hint(const struct stat_nodes *t, const char *name, size_t len, char *buf,
			      size_t buflen)
{
	struct suggest s;

	suggest_init_n(&s, name, len);
	for (size_t i = 0; i < t->n_fields; i++)
		suggest_add(&s, t->field[i].name);
	buf[0] = '\0';
	if (suggest_result(&s))
		snprintf(buf, buflen, ": did you mean %s?", suggest_result(&s));
	return buf;
}

static int add_col(struct stat_mem_cols *c, const struct stat_nodes *t, const char *name,
		   size_t len, char *why, size_t whylen)
{
	const char *canon = find_field(t, name, len);
	char hint[MEMINFO_NAME_MAX + 32];

	if (!canon) {
		snprintf(why, whylen, "-o: unknown meminfo field '%.*s'%s", (int)len, name,
			 field_hint(t, name, len, hint, sizeof(hint)));
		return -EINVAL;
	}
	if (c->n == STAT_MEM_MAX_COLS) {
		snprintf(why, whylen, "-o: at most %d columns", STAT_MEM_MAX_COLS);
		return -EINVAL;
	}
	snprintf(c->name[c->n++], MEMINFO_NAME_MAX, "%s", canon);
	return 0;
}

static void add_defaults(struct stat_mem_cols *c, const struct stat_nodes *t)
{
	for (size_t i = 0; i < sizeof(default_fields) / sizeof(default_fields[0]); i++)
		if (find_field(t, default_fields[i], strlen(default_fields[i])))
			snprintf(c->name[c->n++], MEMINFO_NAME_MAX, "%s", default_fields[i]);
}

static int resolve_sort(const struct stat_opts *o, struct stat_mem_cols *c, char *why,
			size_t whylen)
{
	char hint[MEMINFO_NAME_MAX + 32] = "";
	struct suggest s;

	c->sort = -1;
	if (!o->sort_arg || strcasecmp(o->sort_arg, "NODE") == 0)
		return 0;
	for (size_t i = 0; i < c->n; i++)
		if (strcasecmp(c->name[i], o->sort_arg) == 0) {
			c->sort = (int)i;
			return 0;
		}
	suggest_init(&s, o->sort_arg);
	for (size_t i = 0; i < c->n; i++)
		suggest_add(&s, c->name[i]);
	if (suggest_result(&s))
		snprintf(hint, sizeof(hint), ": did you mean %s?", suggest_result(&s));
	snprintf(why, whylen, "--sort: '%s' is not a column shown%s", o->sort_arg, hint);
	return -EINVAL;
}

int stat_mem_columns(const struct stat_opts *o, const struct stat_nodes *t, struct stat_mem_cols *c,
		     char *why, size_t whylen)
{
	const char *p = o->cols_arg;

	c->n = 0;
	if (!p || *p == '+')
		add_defaults(c, t);
	if (p && *p == '+')
		p++;
	while (p) {
		size_t len = strcspn(p, ",");
		int r;

		/* NODE is always the first column. */
		if (!(len == 4 && strncasecmp(p, "NODE", 4) == 0) &&
		    (r = add_col(c, t, p, len, why, whylen)) < 0)
			return r;
		p = p[len] ? p + len + 1 : NULL;
	}
	return resolve_sort(o, c, why, whylen);
}

/* Field name of node i: bytes for sizes (sized=true), else the count it is; k its index. */
static bool field_value(const struct stat_nodes *t, size_t i, const char *name, int k, uint64_t *v,
			bool *sized)
{
	const struct hugepages *hp = t->hp ? &t->hp[i] : NULL;

	if (hp && hp->present && strncmp(name, "HugePages_", 10) == 0) {
		*sized = true;
		*v = !strcmp(name + 10, "Total")  ? hp->total_bytes
		     : !strcmp(name + 10, "Free") ? hp->free_bytes
						  : hp->surp_bytes;
		return !strcmp(name + 10, "Total") || !strcmp(name + 10, "Free") ||
		       !strcmp(name + 10, "Surp");
	}
	if (k < 0 || !stat_nodes_field(t, i, (size_t)k, v))
		return false;
	*sized = t->field[k].kb;
	*v = t->field[k].kb ? *v * 1024 : *v;
	return true;
}

static void set_cell(struct grid *g, const struct stat_opts *o, size_t r, size_t c, uint64_t v,
		     bool sized, bool have)
{
	char buf[GRID_CELL_MAX];

	if (!have) {
		grid_set(g, r, c, NULL, -1, false);
		return;
	}
	if (sized && !o->bytes && !o->json)
		fmt_human(v, FMT_SIZE, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	grid_set(g, r, c, buf, (double)v, v != 0);
}

static void fill(struct grid *g, const struct stat_opts *o, const struct stat_nodes *t,
		 const struct stat_mem_cols *c)
{
	uint64_t total[STAT_MEM_MAX_COLS] = { 0 };
	bool sized[STAT_MEM_MAX_COLS] = { 0 }, seen[STAT_MEM_MAX_COLS] = { 0 };
	int idx[STAT_MEM_MAX_COLS];
	size_t r = 0;
	char id[16];

	for (size_t k = 0; k < c->n; k++)
		idx[k] = stat_nodes_field_index(t, c->name[k]);
	for (size_t i = 0; i < t->n; i++, r++) {
		if (t->mi_err[i]) {
			r--;
			continue;
		}
		snprintf(id, sizeof(id), "%u", t->id[i]);
		grid_set(g, r, 0, id, t->id[i], true);
		for (size_t k = 0; k < c->n; k++) {
			uint64_t v = 0;
			bool have = field_value(t, i, c->name[k], idx[k], &v, &sized[k]);

			set_cell(g, o, r, k + 1, v, sized[k], have);
			seen[k] |= have;
			total[k] = total[k] > UINT64_MAX - v ? UINT64_MAX : total[k] + v;
		}
	}
	grid_set(g, r, 0, "TOTAL", -1, true);
	for (size_t k = 0; k < c->n; k++)
		set_cell(g, o, r, k + 1, total[k], sized[k], seen[k]);
}

/* "Active(anon)" -> "active_anon" for JSON keys. */
static void json_key(const char *name, char *out, size_t len)
{
	size_t j = 0;

	for (size_t i = 0; name[i] && j + 1 < len; i++) {
		char ch = name[i];

		if (ch == ')')
			continue;
		out[j++] = ch == '(' ? '_' : (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
	}
	out[j] = '\0';
}

int stat_mem_print(const struct stat_opts *o, const struct stat_nodes *t,
		   const struct stat_mem_cols *c, char *why, size_t whylen)
{
	char keys[STAT_MEM_MAX_COLS][MEMINFO_NAME_MAX];
	struct grid g;
	size_t good = 0;
	int r;

	for (size_t i = 0; i < t->n; i++)
		good += t->mi_err[i] == 0;
	r = grid_init(&g, good + 1, c->n + 1);
	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		return r;
	}
	g.cols[0] = (struct grid_col){ "NODE", "node", OUT_COL_RIGHT | OUT_COL_NUMBER };
	for (size_t k = 0; k < c->n; k++) {
		json_key(c->name[k], keys[k], sizeof(keys[k]));
		g.cols[k + 1] =
			(struct grid_col){ c->name[k], keys[k], OUT_COL_RIGHT | OUT_COL_NUMBER };
	}
	g.has_total = true;
	g.json_doc = true;
	g.sort_col = c->sort >= 0 ? c->sort + 1 : -1;
	fill(&g, o, t, c);
	r = grid_print(&g, o, 0, "nodes", why, whylen);
	grid_free(&g);
	return r;
}
