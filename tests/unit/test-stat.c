// SPDX-License-Identifier: GPL-2.0-or-later
/* stat helpers: -o parsing, node selection, reading rows, numastat-compatible tables. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat-compat.h"
#include "stat.h"
#include "sysfs.h"
#include "tap.h"

static void test_columns(void)
{
	struct stat_opts o = { 0 };
	const char *bad = NULL;
	size_t len = 0;

	CHECK(stat_columns_parse(&o, "node,local%", &bad, &len) == 0 && o.n_cols == 2 &&
	      o.cols[0] == SCOL_NODE && o.cols[1] == SCOL_LOCAL_PCT, "names are case-insensitive");
	CHECK(stat_columns_parse(&o, "+MISS%", &bad, &len) == 0 && o.n_cols == 3 &&
	      o.cols[2] == SCOL_MISS_PCT, "+ appends to what is there");
	o.n_cols = 0;
	CHECK(stat_columns_parse(&o, "+MISS%", &bad, &len) == 0 && o.n_cols == 8 &&
	      o.cols[6] == SCOL_OTHER_NODE, "+ on nothing appends to the defaults");
	CHECK(stat_columns_parse(&o, "NODE,BOGUS,MISS%", &bad, &len) == -EINVAL &&
	      len == 5 && strncmp(bad, "BOGUS", len) == 0, "an unknown column is named");
	CHECK(stat_columns_parse(&o, "NODE,", &bad, &len) == -EINVAL && len == 0,
	      "an empty name is refused");
	CHECK(stat_column_lookup("NUMA_HIT", 8) == SCOL_NUMA_HIT, "lookup by name");
	CHECK(stat_column_lookup("NUMA_HI", 7) == -1, "no prefix matching");
}

static void test_nodes(void)
{
	char root[4096];
	struct stat_opts o = { 0 };
	struct stat_row rows[3];
	char whys[3][STAT_WHY_MAX];
	unsigned *ids = NULL, want[] = { 2, 5 }, bad[] = { 2, 3 }, range[] = { 0, 1, 2 };
	struct node_miss missing = { 0 };
	int n;

	snprintf(root, sizeof(root), "%s/sparse3", getenv("FIXTURES"));
	CHECK(sysfs_init(root) == 0, "the sparse3 fixture opens");
	n = stat_select_nodes(&o, &ids, &missing);
	CHECK(n == 3 && ids[0] == 0 && ids[1] == 2 && ids[2] == 5, "all nodes: sparse ids 0,2,5");
	CHECK(stat_read_rows(ids, 3, rows, whys) == 0, "every node reads");
	CHECK(rows[1].node == 2 && rows[1].v[NS_NUMA_MISS] == 3300 &&
	      rows[2].v[NS_OTHER_NODE] == 410003, "counters land by key");
	free(ids);
	o = (struct stat_opts){ .nodes_arg = "5,2", .nodes = want, .n_nodes = 2 };
	n = stat_select_nodes(&o, &ids, &missing);
	CHECK(n == 2 && ids[0] == 2 && ids[1] == 5, "--nodes picks existing ids");
	free(ids);
	o = (struct stat_opts){ .nodes_arg = "2,3", .nodes = bad, .n_nodes = 2 };
	CHECK(stat_select_nodes(&o, &ids, &missing) == -ENOENT && missing.id == 3 &&
	      !missing.range_end, "a single node that is not there is named");
	o = (struct stat_opts){ .nodes_arg = "0-2", .nodes = range, .n_nodes = 3 };
	n = stat_select_nodes(&o, &ids, &missing);
	CHECK(n == 2 && ids[0] == 0 && ids[1] == 2, "0-2 on nodes 0,2,5 skips the absent 1");
	free(ids);
	o.nodes_arg = "1-2";
	CHECK(stat_select_nodes(&o, &ids, &missing) == -ENOENT && missing.id == 1 &&
	      missing.range_end, "a range whose end point is absent is refused");
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

static char *render(const struct compat_opts *co, const struct compat_node *nodes, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	compat_print(co, nodes, n, f);
	fclose(f);
	return buf;
}

static void test_compat(void)
{
	struct numastat a = counters(256), b = counters(0);
	struct compat_node nodes[] = { { 0, &a, NULL }, { 7, &b, NULL } };
	struct compat_opts co = { .sort = COMPAT_SORT_NONE, .width = 10000000, .page_size = 4096 };
	char *out;

	CHECK(compat_is_plain(&co), "no letters: numastat's no-argument shape");
	out = render(&co, nodes, 2);
	CHECK_STR(out, "                           node0           node7\n"
		  "numa_hit                     256               0\n"
		  "numa_miss                    512               0\n"
		  "numa_foreign                 768               0\n"
		  "interleave_hit              1024               0\n"
		  "local_node                  1280               0\n"
		  "other_node                  1536               0\n", "plain shape, sparse ids");
	free(out);
	co.numastat = co.compress = co.skip_zero = true;
	out = render(&co, nodes, 2);
	CHECK_STR(out, "\nPer-node numastat info (in MBs):\n"
		  "                Node 0 Total\n"
		  "                ------ -----\n"
		  "Numa_Hit             1     1\n"
		  "Numa_Miss            2     2\n"
		  "Numa_Foreign         3     3\n"
		  "Interleave_Hit       4     4\n"
		  "Local_Node           5     5\n"
		  "Other_Node           6     6\n", "-n -c -z: MB, the all-zero node 7 left out");
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

int main(void)
{
	test_columns();
	test_nodes();
	test_compat();
	return tap_done();
}
