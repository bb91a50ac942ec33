// SPDX-License-Identifier: GPL-2.0-or-later
/* numastat and range-list parsers against well-formed and hostile input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nodes.h"
#include "tap.h"

static char why[256];

static int ns(const char *text, struct numastat *out)
{
	return numastat_parse(text, strlen(text), out, why, sizeof(why));
}

#define GOOD \
	"numa_hit 10\nnuma_miss 1\nnuma_foreign 2\ninterleave_hit 3\nlocal_node 9\nother_node 1\n"

static void test_numastat(void)
{
	struct numastat s;
	uint64_t v;

	CHECK(ns(GOOD, &s) == 0 && s.n == 6, "the kernel's six lines parse");
	CHECK(numastat_get(&s, "local_node", &v) && v == 9, "values are found by key");
	CHECK(ns(GOOD "numa_future 5\n", &s) == 0 && s.n == 7, "an unknown future key is kept");
	CHECK(numastat_get(&s, "numa_future", &v) && v == 5, "and readable");
	CHECK(ns("numa_hit 18446744073709551615\nnuma_miss 1\nnuma_foreign 2\ninterleave_hit 3\n"
		 "local_node 9\nother_node 1\n",
		 &s) == 0,
	      "u64 maximum parses");
	CHECK(ns("numa_hit 18446744073709551616\n", &s) == -EBADMSG, "u64 overflow is refused");
	CHECK_STR(why, "line 1: value does not fit in 64 bits", "naming the line");
	CHECK(ns("", &s) == -EBADMSG, "empty file is refused");
	CHECK(ns("numa_hit 10\r\n", &s) == -EBADMSG, "CRLF is refused");
	CHECK(ns("numa_hit x\n", &s) == -EBADMSG, "non-numeric is refused");
	CHECK(ns("numa_hit 10", &s) == -EBADMSG, "a missing final newline is refused");
	CHECK(numastat_parse("numa_hit 1\0\n", 12, &s, why, sizeof(why)) == -EBADMSG,
	      "NUL is refused");
	CHECK(ns("numa_hit 10\nnuma_hit 11\n", &s) == -EBADMSG, "duplicate keys are refused");
	CHECK(ns("numa_hit  10\n", &s) == -EBADMSG, "two spaces are refused");
	CHECK(ns("numa_hit 10\nnuma_miss 1\n", &s) == -EBADMSG,
	      "missing standard keys are refused");
	CHECK_STR(why, "counter numa_foreign is missing", "naming the first missing key");
	CHECK(ns("NUMA_HIT 1\n", &s) == -EBADMSG, "upper-case names are refused");
}

static int rl(const char *s, unsigned **ids)
{
	return rangelist_parse(s, ids);
}

static void test_rangelist(void)
{
	unsigned *ids = NULL;
	int n;

	n = rl("0-3,8,10-11\n", &ids);
	CHECK(n == 7 && ids[0] == 0 && ids[3] == 3 && ids[4] == 8 && ids[6] == 11,
	      "kernel range list");
	free(ids);
	CHECK(rl("\n", &ids) == 0 && ids == NULL, "an empty mask is just a newline");
	CHECK(rl("", &ids) == 0, "empty string");
	n = rl("5,2,2,0", &ids);
	CHECK(n == 3 && ids[0] == 0 && ids[1] == 2 && ids[2] == 5, "sorted and unique");
	free(ids);
	CHECK(rl("3-1", &ids) == -EINVAL, "reversed range is refused");
	CHECK(rl("1,", &ids) == -EINVAL, "trailing comma is refused");
	CHECK(rl(",1", &ids) == -EINVAL, "leading comma is refused");
	CHECK(rl("1--2", &ids) == -EINVAL, "double dash is refused");
	CHECK(rl("a", &ids) == -EINVAL, "junk is refused");
	CHECK(rl("65536", &ids) == -ERANGE, "ids above the limit are refused");
	n = rl("0-65535", &ids);
	CHECK(n == 65536, "the widest range is accepted");
	free(ids);
}

/* libnuma's node-string rules against the nodes 0, 2, 5 and 6. */
static void test_nodelist_select(void)
{
	static const unsigned here[] = { 0, 2, 5, 6 };
	struct node_miss miss = { 0 };
	unsigned *ids = NULL;
	char buf[64];
	int n;

	n = rangelist_select("0-5", here, 4, &ids, &miss);
	CHECK(n == 3 && ids[0] == 0 && ids[1] == 2 && ids[2] == 5,
	      "absent ids inside a range are skipped");
	free(ids);
	n = rangelist_select("6,0-2,2", here, 4, &ids, &miss);
	CHECK(n == 3 && ids[0] == 0 && ids[1] == 2 && ids[2] == 6, "sorted and unique");
	free(ids);
	CHECK(rangelist_select("0-3", here, 4, &ids, &miss) == -ENOENT && miss.id == 3 &&
		      miss.range_end && !ids,
	      "a range's end point must exist");
	CHECK(rangelist_select("1-2", here, 4, &ids, &miss) == -ENOENT && miss.id == 1 &&
		      miss.range_end,
	      "its start too");
	CHECK(rangelist_select("0,1", here, 4, &ids, &miss) == -ENOENT && miss.id == 1 &&
		      !miss.range_end,
	      "a single absent id is an error");
	CHECK(rangelist_select("0", here, 0, &ids, &miss) == -ENOENT && miss.id == 0,
	      "nothing is present on a machine without nodes");
	CHECK(rangelist_select("0-", here, 4, &ids, &miss) == -EINVAL,
	      "syntax errors stay syntax errors");
	rangelist_format(here, 4, buf, sizeof(buf));
	CHECK_STR(buf, "0,2,5-6", "ids format back into a range list");
	rangelist_format(here, 0, buf, sizeof(buf));
	CHECK_STR(buf, "", "no ids: an empty list");
	CHECK(rangelist_format(here, 4, buf, 7) == 7, "the length of the whole list is returned");
	CHECK_STR(buf, "0,...", "a short buffer keeps whole ranges and says the rest is left out");
	rangelist_format((const unsigned[]){ 0, 1, 2, 3, 8, 9, 10 }, 7, buf, 8);
	CHECK_STR(buf, "0-3,...", "never a range cut in two (8-10 is not 8-1)");
	CHECK(rangelist_format(here, 4, buf, 8) == 7, "what fits exactly");
	CHECK_STR(buf, "0,2,5-6", "is not marked as cut");
	rangelist_format(here, 4, buf, 3);
	CHECK_STR(buf, "..", "a buffer too small for any range: dots only");
}

int main(void)
{
	test_numastat();
	test_rangelist();
	test_nodelist_select();
	return tap_done();
}
