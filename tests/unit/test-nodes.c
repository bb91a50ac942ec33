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

#define GOOD "numa_hit 10\nnuma_miss 1\nnuma_foreign 2\ninterleave_hit 3\nlocal_node 9\nother_node 1\n"

static void test_numastat(void)
{
	struct numastat s;
	uint64_t v;

	CHECK(ns(GOOD, &s) == 0 && s.n == 6, "the kernel's six lines parse");
	CHECK(numastat_get(&s, "local_node", &v) && v == 9, "values are found by key");
	CHECK(ns(GOOD "numa_future 5\n", &s) == 0 && s.n == 7, "an unknown future key is kept");
	CHECK(numastat_get(&s, "numa_future", &v) && v == 5, "and readable");
	CHECK(ns("numa_hit 18446744073709551615\nnuma_miss 1\nnuma_foreign 2\ninterleave_hit 3\n"
		 "local_node 9\nother_node 1\n", &s) == 0, "u64 maximum parses");
	CHECK(ns("numa_hit 18446744073709551616\n", &s) == -EBADMSG, "u64 overflow is refused");
	CHECK_STR(why, "line 1: value does not fit in 64 bits", "naming the line");
	CHECK(ns("", &s) == -EBADMSG, "empty file is refused");
	CHECK(ns("numa_hit 10\r\n", &s) == -EBADMSG, "CRLF is refused");
	CHECK(ns("numa_hit x\n", &s) == -EBADMSG, "non-numeric is refused");
	CHECK(ns("numa_hit 10", &s) == -EBADMSG, "a missing final newline is refused");
	CHECK(numastat_parse("numa_hit 1\0\n", 12, &s, why, sizeof(why)) == -EBADMSG, "NUL is refused");
	CHECK(ns("numa_hit 10\nnuma_hit 11\n", &s) == -EBADMSG, "duplicate keys are refused");
	CHECK(ns("numa_hit  10\n", &s) == -EBADMSG, "two spaces are refused");
	CHECK(ns("numa_hit 10\nnuma_miss 1\n", &s) == -EBADMSG, "missing standard keys are refused");
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
	CHECK(n == 7 && ids[0] == 0 && ids[3] == 3 && ids[4] == 8 && ids[6] == 11, "kernel range list");
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

int main(void)
{
	test_numastat();
	test_rangelist();
	return tap_done();
}
