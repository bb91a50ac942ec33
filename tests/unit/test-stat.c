// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat helpers: the column table and its one value function, -o parsing, node
 * selection, reading rows, numastat-compatible tables.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat-compat.h"
#include "stat.h"
#include "sysfs.h"
#include "tap.h"
#include "why.h"

static void test_columns(void)
{
	struct stat_opts o = { 0 };
	const char *bad = NULL;
	size_t len = 0;

	CHECK(stat_columns_parse(&o, "node,local%", &bad, &len) == 0 && o.n_cols == 2 &&
		      o.cols[0] == SCOL_NODE && o.cols[1] == SCOL_LOCAL_PCT,
	      "names are case-insensitive");
	CHECK(stat_columns_parse(&o, "+MISS%", &bad, &len) == 0 && o.n_cols == 3 &&
		      o.cols[2] == SCOL_MISS_PCT,
	      "+ appends to what is there");
	o.n_cols = 0;
	CHECK(stat_columns_parse(&o, "+MISS%", &bad, &len) == 0 && o.n_cols == 8 &&
		      o.cols[6] == SCOL_OTHER_NODE,
	      "+ on nothing appends to the defaults");
	CHECK(stat_columns_parse(&o, "NODE,BOGUS,MISS%", &bad, &len) == -EINVAL && len == 5 &&
		      strncmp(bad, "BOGUS", len) == 0,
	      "an unknown column is named");
	CHECK(stat_columns_parse(&o, "NODE,", &bad, &len) == -EINVAL && len == 0,
	      "an empty name is refused");
	CHECK(stat_column_lookup("NUMA_HIT", 8) == SCOL_NUMA_HIT, "lookup by name");
	CHECK(stat_column_lookup("NUMA_HI", 7) == -1, "no prefix matching");
}

/* What is wrong with entry i, or NULL: every column is fully described. */
static const char *entry_problem(int i)
{
	const struct stat_coldesc *d = &stat_columns[i];
	static char want[256], swapped[256];

	if (!d->name || !*d->name || !d->json || !*d->json || !d->help || !*d->help)
		return "a name, a JSON key and a help line";
	if (stat_column_lookup(d->name, strlen(d->name)) != i)
		return "a name of its own";
	for (int j = 0; j < i; j++)
		if (stat_columns[j].json && strcmp(stat_columns[j].json, d->json) == 0)
			return "a JSON key of its own";
	switch (d->kind) {
	case STAT_KIND_NODE:
		return i == SCOL_NODE ? NULL : "the node id in SCOL_NODE only";
	case STAT_KIND_COUNT:
		/* A forgotten .counter is 0, numa_hit: the key gives it away. */
		if ((unsigned)d->counter >= NS_STANDARD ||
		    strcmp(d->json, numastat_keys[d->counter]))
			return "a counter of nodeN/numastat, named as its JSON key";
		return NULL;
	case STAT_KIND_PCT:
		if ((unsigned)d->counter >= NS_STANDARD || (unsigned)d->other >= NS_STANDARD ||
		    d->counter == d->other)
			return "two different counters of nodeN/numastat";
		snprintf(want, sizeof(want), "%s / (%s + %s), percent", numastat_keys[d->counter],
			 numastat_keys[d->counter], numastat_keys[d->other]);
		snprintf(swapped, sizeof(swapped), "%s / (%s + %s), percent",
			 numastat_keys[d->counter], numastat_keys[d->other],
			 numastat_keys[d->counter]);
		return strcmp(d->help, want) == 0 || strcmp(d->help, swapped) == 0
			       ? NULL
			       : "help that spells its formula";
	default:
		return "a kind (how its value is computed)";
	}
}

static void test_table(void)
{
	for (int i = 0; i < SCOL_COUNT; i++) {
		const char *p = entry_problem(i);

		CHECK(!p, "column %d (%s) has %s", i,
		      stat_columns[i].name ? stat_columns[i].name : "?",
		      p ? p : "everything it needs");
	}
	CHECK(stat_columns[SCOL_NODE].kind == STAT_KIND_NODE && stat_columns[SCOL_NODE].by_default,
	      "NODE is the node id, shown by default");
}

/* Column col of r as text ("" for no value). */
static const char *text(int col, const struct stat_row *r, bool compact)
{
	static char buf[64];
	struct stat_value v = stat_value(col, r);

	stat_value_text(&v, compact, buf, sizeof(buf));
	return buf;
}

static double key(int col, const struct stat_row *r)
{
	struct stat_value v = stat_value(col, r);

	return stat_value_key(&v);
}

static bool nonzero(int col, const struct stat_row *r)
{
	struct stat_value v = stat_value(col, r);

	return stat_value_nonzero(&v);
}

/* Every column of a row of known counters is what its entry says. */
static void test_values_walk(const struct stat_row *r)
{
	char want[64];

	for (int i = 0; i < SCOL_COUNT; i++) {
		const struct stat_coldesc *d = &stat_columns[i];
		struct stat_value v = stat_value(i, r);
		double num, den;

		if (d->kind == STAT_KIND_NODE) {
			snprintf(want, sizeof(want), "%u", r->node);
			CHECK(v.kind == STAT_VAL_NODE && key(i, r) == r->node, "%s: the node id",
			      d->name);
		} else if (d->kind == STAT_KIND_COUNT && (unsigned)d->counter < NS_STANDARD) {
			snprintf(want, sizeof(want), "%" PRIu64, r->v[d->counter]);
			CHECK(v.kind == STAT_VAL_COUNT && key(i, r) == (double)r->v[d->counter],
			      "%s: counter %s, its sort key the count", d->name,
			      numastat_keys[d->counter]);
		} else if (d->kind == STAT_KIND_PCT &&
			   (unsigned)(d->counter | d->other) < NS_STANDARD) {
			num = (double)r->v[d->counter];
			den = num + (double)r->v[d->other];
			if (den == 0) {
				CHECK(v.kind == STAT_VAL_NONE && key(i, r) == -1,
				      "%s: a percentage of nothing has no value", d->name);
				continue;
			}
			snprintf(want, sizeof(want), "%.1f", 100.0 * num / den);
			CHECK(v.kind == STAT_VAL_PCT && key(i, r) == num / den,
			      "%s: a percentage, its sort key the fraction", d->name);
		} else {
			CHECK(v.kind == STAT_VAL_NONE, "%s: an unfilled entry has no value",
			      d->name);
			continue;
		}
		CHECK_STR(text(i, r, false), want, "%s: its text and JSON value", d->name);
	}
}

static void test_values(void)
{
	struct stat_row r = { .node = 2, .v = { 7300011, 120, 3300, 2211, 7290000, 10131 } };
	struct stat_row zero = { .node = 5 }, bad = r;

	test_values_walk(&r);
	CHECK_STR(text(SCOL_NODE, &r, false), "2", "NODE: the id");
	CHECK_STR(text(SCOL_NUMA_HIT, &r, false), "7300011", "NUMA_HIT: the count");
	CHECK_STR(text(SCOL_NUMA_HIT, &r, true), "7.3M", "NUMA_HIT --compact: powers of 1000");
	CHECK_STR(text(SCOL_OTHER_NODE, &r, false), "10131", "OTHER_NODE: the count");
	CHECK_STR(text(SCOL_LOCAL_PCT, &r, false), "99.9", "LOCAL%%: 7290000 / (7290000 + 10131)");
	CHECK_STR(text(SCOL_MISS_PCT, &r, false), "0.0", "MISS%%: 120 / (7300011 + 120)");
	CHECK(nonzero(SCOL_MISS_PCT, &r), "MISS%% 0.0 of a miss is not zero for -z");
	CHECK(key(SCOL_LOCAL_PCT, &r) > key(SCOL_MISS_PCT, &r), "--sort compares percentages");

	test_values_walk(&zero);
	CHECK_STR(text(SCOL_LOCAL_PCT, &zero, false), "",
		  "LOCAL%% of nothing: no value (JSON null)");
	CHECK(key(SCOL_LOCAL_PCT, &zero) == -1 && !nonzero(SCOL_LOCAL_PCT, &zero),
	      "no value: sorted last, zero for -z");
	CHECK(!nonzero(SCOL_NUMA_HIT, &zero) && nonzero(SCOL_NODE, &zero),
	      "a zero count is zero for -z, a node id never");

	bad.err = -EIO;
	for (int i = 0; i < SCOL_COUNT; i++)
		if (stat_columns[i].kind != STAT_KIND_NODE)
			CHECK_STR(text(i, &bad, false), "", "%s: a row that failed has no value",
				  stat_columns[i].name);
	CHECK_STR(text(SCOL_NODE, &bad, false), "2", "a row that failed still has its node");
	CHECK(stat_value(SCOL_COUNT, &r).kind == STAT_VAL_NONE &&
		      stat_value(-1, &r).kind == STAT_VAL_NONE,
	      "a column out of the table has no value");
}

static void test_defaults(void)
{
	struct stat_opts o = { 0 };
	size_t n = 0;

	stat_default_columns(&o);
	for (int i = 0; i < SCOL_COUNT; i++)
		if (stat_columns[i].by_default)
			CHECK(n < o.n_cols && o.cols[n++] == i,
			      "%s is a default column, in table order", stat_columns[i].name);
	CHECK(n == o.n_cols && n == 7, "the defaults: NODE and the six counters");
}

static void test_nodes(void)
{
	char root[4096];
	struct stat_opts o = { 0 };
	struct stat_row rows[3];
	char whys[3][WHY_MAX];
	unsigned *ids = NULL, want[] = { 2, 5 }, bad[] = { 2, 3 }, range[] = { 0, 1, 2 };
	struct node_miss missing = { 0 };
	int n;

	snprintf(root, sizeof(root), "%s/sparse3", getenv("FIXTURES"));
	CHECK(sysfs_init(root) == 0, "the sparse3 fixture opens");
	n = stat_select_nodes(&o, &ids, &missing);
	CHECK(n == 3 && ids[0] == 0 && ids[1] == 2 && ids[2] == 5, "all nodes: sparse ids 0,2,5");
	CHECK(stat_read_rows(ids, 3, rows, whys) == 0, "every node reads");
	CHECK(rows[1].node == 2 && rows[1].v[NS_NUMA_MISS] == 3300 &&
		      rows[2].v[NS_OTHER_NODE] == 410003,
	      "counters land by key");
	free(ids);
	o = (struct stat_opts){ .nodes_arg = "5,2", .nodes = want, .n_nodes = 2 };
	n = stat_select_nodes(&o, &ids, &missing);
	CHECK(n == 2 && ids[0] == 2 && ids[1] == 5, "--nodes picks existing ids");
	free(ids);
	o = (struct stat_opts){ .nodes_arg = "2,3", .nodes = bad, .n_nodes = 2 };
	CHECK(stat_select_nodes(&o, &ids, &missing) == -ENOENT && missing.id == 3 &&
		      !missing.range_end,
	      "a single node that is not there is named");
	o = (struct stat_opts){ .nodes_arg = "0-2", .nodes = range, .n_nodes = 3 };
	n = stat_select_nodes(&o, &ids, &missing);
	CHECK(n == 2 && ids[0] == 0 && ids[1] == 2, "0-2 on nodes 0,2,5 skips the absent 1");
	free(ids);
	o.nodes_arg = "1-2";
	CHECK(stat_select_nodes(&o, &ids, &missing) == -ENOENT && missing.id == 1 &&
		      missing.range_end,
	      "a range whose end point is absent is refused");
	CHECK(!stat_counters_frozen(), "numa_stat 1 in the fixture: counters not frozen");
}

static struct numastat counters(uint64_t base)
{
	struct numastat s = { .n = NS_STANDARD };

	for (int k = 0; k < NS_STANDARD; k++) {
		strcpy(s.c[k].name, numastat_keys[k]);
		s.c[k].value = base * (uint64_t)(k + 1);
	}
	return s;
}

/* One node of the compat tests: its id and counters, NULL when unreadable. */
struct cnode {
	unsigned id;
	const struct numastat *ns;
};

static char *render(const struct compat_opts *co, const struct cnode *nodes, size_t n)
{
	unsigned ids[8];
	struct stat_nodes t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < n; i++)
		ids[i] = nodes[i].id;
	if (stat_nodes_init(&t, ids, n) == 0)
		for (size_t i = 0; i < n; i++)
			if (nodes[i].ns && stat_nodes_set_numastat(&t, i, nodes[i].ns) == 0)
				t.ns_err[i] = 0;
	stat_compat_print(co, &t, f);
	stat_nodes_free(&t);
	fclose(f);
	return buf;
}

static void test_compat(void)
{
	struct numastat a = counters(256), b = counters(0);
	struct cnode nodes[] = { { 0, &a }, { 7, &b } };
	struct compat_opts co = { .sort = COMPAT_SORT_NONE, .width = 10000000, .page_size = 4096 };
	char *out;

	CHECK(stat_compat_is_plain(&co), "no letters: numastat's no-argument shape");
	out = render(&co, nodes, 2);
	CHECK_STR(out,
		  "                           node0           node7\n"
		  "numa_hit                     256               0\n"
		  "numa_miss                    512               0\n"
		  "numa_foreign                 768               0\n"
		  "interleave_hit              1024               0\n"
		  "local_node                  1280               0\n"
		  "other_node                  1536               0\n",
		  "plain shape, sparse ids");
	free(out);
	co.numastat = co.compress = co.skip_zero = true;
	out = render(&co, nodes, 2);
	CHECK_STR(out,
		  "\nPer-node numastat info (in MBs):\n"
		  "                Node 0 Total\n"
		  "                ------ -----\n"
		  "Numa_Hit             1     1\n"
		  "Numa_Miss            2     2\n"
		  "Numa_Foreign         3     3\n"
		  "Interleave_Hit       4     4\n"
		  "Local_Node           5     5\n"
		  "Other_Node           6     6\n",
		  "-n -c -z: MB, the all-zero node 7 left out");
	free(out);
	co.skip_zero = false;
	co.sort = 7;
	b = counters(1);
	b.c[NS_NUMA_MISS].value = 1 << 30;
	out = render(&co, nodes, 2);
	CHECK(out && strstr(out, "Node 7   Total\n                ------ ------- -------\n"
				 "Numa_Miss            2 4194304 4194306\n"),
	      "sort by node 7 uses node 7's column, not the 7th");
	free(out);
	b.c[NS_NUMA_MISS].value = 0;
	a = counters(0);
	b = counters(0);
	co.skip_zero = true;
	co.sort = COMPAT_SORT_NONE;
	out = render(&co, nodes, 2);
	CHECK_STR(out, "\nPer-node numastat info (in MBs):\nTable has no non-zero data.\n",
		  "-z on all zeros says so, as numastat does");
	free(out);
	co.skip_zero = false;
	co.numastat = false;
	nodes[0].ns = nodes[1].ns = NULL;
	co.compress = false;
	out = render(&co, nodes, 2);
	CHECK_STR(out, "Table has no data.\n", "no readable node: numastat's words for it");
	free(out);
}

/* The compact table of the nodes' files: the first node's names, values by name. */
static void test_stat_nodes(void)
{
	static const unsigned ids[] = { 0, 4, 9 };
	struct numastat a = counters(10), b = counters(20);
	struct meminfo m = { .n = 2 };
	struct stat_nodes t;
	uint64_t v;

	CHECK(stat_nodes_init(&t, ids, 3) == 0 && !t.hp, "three nodes, no hugepages asked for");
	/* Node 4 lists its counters in another order and lacks other_node. */
	b.c[0] = b.c[1];
	strcpy(b.c[1].name, "numa_hit");
	b.c[1].value = 77;
	b.n = NS_STANDARD - 1;
	t.ns_err[0] = stat_nodes_set_numastat(&t, 0, &a);
	t.ns_err[1] = stat_nodes_set_numastat(&t, 1, &b);
	CHECK(t.n_counters == NS_STANDARD && stat_nodes_counter_index(&t, "other_node") == 5,
	      "the names are the first node's, in its order");
	CHECK(stat_nodes_counter(&t, 1, 0, &v) && v == 77,
	      "a counter found by name in another order");
	CHECK(!stat_nodes_counter(&t, 1, 5, &v), "a counter a node lacks is absent, not 0");
	CHECK(!stat_nodes_counter(&t, 2, 0, &v), "a node not read has nothing");
	m.f[0] = (struct meminfo_field){ "MemTotal", 4096, true };
	m.f[1] = (struct meminfo_field){ "HugePages_Total", 3, false };
	t.mi_err[2] = stat_nodes_set_meminfo(&t, 2, &m);
	CHECK(stat_nodes_field_index(&t, "HugePages_Total") == 1 &&
		      stat_nodes_field(&t, 2, 0, &v) && v == 4096 && t.field[0].kb,
	      "meminfo: values as the file has them, the unit with the name");
	CHECK(stat_nodes_want_hugepages(&t) == 0 && t.hp && !t.hp[2].present,
	      "hugepages only when asked for");
	stat_nodes_free(&t);
}

int main(void)
{
	test_table();
	test_values();
	test_defaults();
	test_columns();
	test_nodes();
	test_compat();
	test_stat_nodes();
	return tap_done();
}
