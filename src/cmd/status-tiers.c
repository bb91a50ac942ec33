// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "status-tiers.h"
#include "value.h"
#include "why.h"

#define LINE_MAX_COLS 80

static void read_knob(const char *name, char *buf, size_t len)
{
	struct knob_ref ref;
	struct kval v;

	buf[0] = '\0';
	if (knob_resolve(name, &ref, NULL, 0) == 0 && knob_read(&ref, &v) == 0)
		str_copy(buf, v.text, len);
}

void status_tiers_read(struct status_tiers *t)
{
	char why[WHY_MAX];
	int n;

	*t = (struct status_tiers){ 0 };
	if (node_memtiers_read(&t->tiers, why, sizeof(why)) < 0)
		t->tiers = (struct memtiers){ 0 };
	if (interleave_weights_read(&t->iw, why, sizeof(why)) < 0)
		t->iw = (struct interleave_weights){ 0 };
	n = node_mask_read("has_cpu", &t->cpu_nodes);
	t->n_cpu = n > 0 ? (size_t)n : 0;
	read_knob("mm.numa.demotion_enabled", t->demotion, sizeof(t->demotion));
	read_knob("kernel.numa_balancing", t->balancing, sizeof(t->balancing));
	read_knob(INTERLEAVE_AUTO, t->autow, sizeof(t->autow));
}

void status_tiers_free(struct status_tiers *t)
{
	node_memtiers_free(&t->tiers);
	interleave_weights_free(&t->iw);
	free(t->cpu_nodes);
	*t = (struct status_tiers){ 0 };
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* has_cpu is a sorted range list: a search, so 1024 nodes stay cheap. */
static bool has_cpu(const struct status_tiers *t, unsigned node)
{
	return t->n_cpu && bsearch(&node, t->cpu_nodes, t->n_cpu, sizeof(node), cmp_uint);
}

/* A tier's nodes with CPUs (cpu) or without (!cpu), as a range list; the count. */
static size_t tier_nodes(const struct status_tiers *t, const struct memtier *m, bool cpu, char *buf,
			 size_t len)
{
	unsigned *ids = malloc((m->n ? m->n : 1) * sizeof(*ids));
	size_t n = 0;

	buf[0] = '\0';
	if (!ids)
		return 0;
	for (size_t i = 0; i < m->n; i++)
		if (has_cpu(t, m->nodes[i]) == cpu)
			ids[n++] = m->nodes[i];
	if (n)
		rangelist_format(ids, n, buf, len);
	free(ids);
	return n;
}

/* "14 each", "3", "8,2,1" (node order): a tier's weights; "" when it has none. */
static void tier_weights(const struct status_tiers *t, const struct memtier *m, bool compact,
			 char *buf, size_t len)
{
	unsigned first = 0;
	bool same = true;
	size_t n = 0, used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->n; i++) {
		unsigned w = interleave_weight_of(&t->iw, m->nodes[i]);

		if (!w)
			continue;
		if (n++ == 0)
			first = w;
		same &= w == first;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%u", used ? "," : "",
						 w);
	}
	if (compact && n > 1 && same)
		snprintf(buf, len, "%u each", first);
}

/* A line of at most 80 columns: a longer one ends in "...". */
static void put_line(char *line)
{
	if (strlen(line) > LINE_MAX_COLS)
		strcpy(line + LINE_MAX_COLS - 3, "...");
	puts(line);
}

static const char *on_off(const char *v, bool on)
{
	return !*v ? "not on this kernel" : on ? "on" : "off";
}

static void print_tier(const struct status_tiers *t, size_t i, bool weights)
{
	const struct memtier *m = &t->tiers.v[i];
	char cpu[512], mem[512], w[1024], line[2048];
	size_t ncpu = tier_nodes(t, m, true, cpu, sizeof(cpu));
	size_t nmem = tier_nodes(t, m, false, mem, sizeof(mem));
	int n;

	n = snprintf(line, sizeof(line), "  tier %u%s:", m->id,
		     t->tiers.n == 1 ? ""
		     : i == 0        ? " (fast)"
				     : " (slow)");
	if (ncpu)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " node%s %s with CPUs%s",
			      ncpu == 1 ? "" : "s", cpu, nmem ? "," : "");
	if (nmem)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " node%s %s memory only",
			      nmem == 1 ? "" : "s", mem);
	tier_weights(t, m, true, w, sizeof(w));
	if (weights && w[0])
		snprintf(line + n, sizeof(line) - (size_t)n, "; weight%s %s",
			 strchr(w, ',') || strstr(w, "each") ? "s" : "", w);
	put_line(line);
}

/* "0:5 2:3 5:1": every node's weight. */
static void all_weights(const struct interleave_weights *iw, const char *sep, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < iw->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u:%u", i ? sep : "",
					 iw->nodes[i], iw->w[i]);
}

void status_tiers_print(const struct status_tiers *t)
{
	bool weights = t->iw.n > 1 && !interleave_weights_uniform(&t->iw);
	const char *mode = !t->autow[0]                 ? " set by hand"
			   : strcmp(t->autow, "1") == 0 ? " derived from bandwidth (auto on)"
							: " set by hand (auto off)";
	char line[4096];
	int64_t bal = 0;

	parse_i64(t->balancing, 0, INT64_MAX, &bal);
	if (t->tiers.n) {
		snprintf(line, sizeof(line),
			 "memory tiers, fastest first: demotion %s, tiering promotion %s",
			 on_off(t->demotion, strcmp(t->demotion, "1") == 0),
			 on_off(t->balancing, bal & 2));
		put_line(line);
		for (size_t i = 0; i < t->tiers.n; i++)
			print_tier(t, i, weights);
		if (weights) {
			snprintf(line, sizeof(line), "  interleave weights:%s", mode);
			put_line(line);
		}
	} else if (weights) {
		all_weights(&t->iw, " ", line, sizeof(line));
		/* Room for the words: cut the list, not the mode. */
		if (strlen(line) > 40)
			strcpy(line + 37, "...");
		printf("interleave weights,%s: %s\n", mode, line);
	}
}

static int tiers_json(const struct status_tiers *t, bool weights, struct out_doc *d, char *why,
		      size_t whylen)
{
	char cpu[4096], mem[4096], *w = NULL;
	struct out_table *tb;
	int r = out_table_new(&tb, "tiers", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	out_table_add_column(tb, "TIER", 0, OUT_COL_NUMBER);
	out_table_add_column(tb, "NODES", 0, 0);
	out_table_add_column(tb, "MEMORY_ONLY", 0, 0);
	out_table_add_column(tb, "WEIGHTS", 0, 0);
	for (size_t i = 0; i < t->tiers.n && r == 0; i++) {
		const struct memtier *m = &t->tiers.v[i];
		struct out_row *row = out_table_add_row(tb);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		/* "255," per node: never cut, however many nodes the tier has. */
		free(w);
		if (!(w = malloc(m->n * 4 + 1))) {
			r = -ENOMEM;
			break;
		}
		rangelist_format(m->nodes, m->n, cpu, sizeof(cpu));
		tier_nodes(t, m, false, mem, sizeof(mem));
		tier_weights(t, m, false, w, m->n * 4 + 1);
		out_row_setf(row, 0, "%u", m->id);
		out_row_set(row, 1, cpu);
		out_row_set(row, 2, mem);
		out_row_set(row, 3, weights && w[0] ? w : NULL);
	}
	free(w);
	if (r == 0)
		r = out_doc_add(d, tb, OUT_PART_ARRAY);
	out_table_free(tb);
	return r;
}

int status_tiers_json(const struct status_tiers *t, struct out_doc *d, char *why, size_t whylen)
{
	bool weights = t->iw.n > 1 && !interleave_weights_uniform(&t->iw);
	struct out_table *tb;
	struct out_row *row;
	char *list = NULL;
	int r = tiers_json(t, weights, d, why, whylen);

	if (r < 0 || (r = out_table_new(&tb, "", OUT_JSON, why, whylen)) < 0)
		return r;
	out_table_add_column(tb, "INTERLEAVE_WEIGHTS", 0, 0);
	/* Eleven characters at most per node: "65535:255,". */
	if (weights && !(list = malloc(t->iw.n * 11 + 1)))
		r = -ENOMEM;
	else if (!(row = out_table_add_row(tb)))
		r = -ENOMEM;
	else {
		if (list)
			all_weights(&t->iw, ",", list, t->iw.n * 11 + 1);
		out_row_set(row, 0, list);
		r = out_doc_add(d, tb, OUT_PART_FIELDS);
	}
	free(list);
	out_table_free(tb);
	return r;
}
