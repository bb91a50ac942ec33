// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot names and the snapshot JSON reader against good and hostile input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"
#include "tap.h"

static char why[256];

static int parse(const char *text, struct snapshot *s)
{
	snapshot_free(s);
	return snapshot_parse(text, strlen(text), s, why, sizeof(why));
}

#define COUNTERS                                                                          \
	"\"numa_hit\": 7, \"numa_miss\": 0, \"numa_foreign\": 1, \"interleave_hit\": 2, " \
	"\"local_node\": 6, \"other_node\": 1"
#define NODE(id) "{\"node\": " #id ", " COUNTERS "}"

static void test_parse(void)
{
	struct snapshot s = { 0 };
	uint64_t v;

	CHECK(parse("{\"nodes\": [" NODE(0) ", " NODE(2) "]}\n", &s) == 0 && s.n == 2,
	      "two nodes parse");
	CHECK(s.ids[0] == 0 && s.ids[1] == 2 && numastat_get(&s.st[1], "local_node", &v) && v == 6,
	      "ids and counters are kept");
	CHECK(parse("{\n   \"nodes\": [\n      {\n         \"node\": 5,\n         \"numa_hit\": 18446744073709551615,"
		    " \"numa_miss\": 0, \"numa_foreign\": 1, \"interleave_hit\": 2, \"local_node\": 6,"
		    " \"other_node\": 1, \"numa_future\": 3\n      }\n   ]\n}\n",
		    &s) == 0,
	      "libsmartcols' layout, u64 maximum and a future counter parse");
	CHECK(numastat_get(&s.st[0], "numa_future", &v) && v == 3, "the future counter is kept");
	CHECK(parse("{\"nodes\": []}", &s) == -EBADMSG, "no nodes is refused");
	CHECK(parse("{\"nodes\": [" NODE(2) ", " NODE(0) "]}", &s) == -EBADMSG,
	      "nodes out of order are refused");
	CHECK(parse("{\"nodes\": [" NODE(2) ", " NODE(2) "]}", &s) == -EBADMSG,
	      "a node twice is refused");
	CHECK(parse("{\"nodes\": [{\"node\": 0, \"numa_hit\": 1}]}", &s) == -EBADMSG,
	      "a node without the standard counters is refused");
	CHECK(parse("{\"nodes\": [{\"node\": 65536, " COUNTERS "}]}", &s) == -EBADMSG,
	      "a node id out of range is refused");
	CHECK(parse("{\"nodes\": [{\"node\": 0, \"numa_hit\": 18446744073709551616, " COUNTERS
		    "}]}",
		    &s) == -EBADMSG,
	      "u64 overflow is refused");
	CHECK(parse("{\"nodes\": [{\"node\": 0, \"numa_hit\": -1}]}", &s) == -EBADMSG,
	      "a negative count is refused");
	CHECK_STR(why, "byte 35: expected a whole number up to 2^64-1", "naming the byte");
	CHECK(parse("{\"nodes\": [{\"node\": 0, " COUNTERS ", \"numa_hit\": 1}]}", &s) == -EBADMSG,
	      "a counter twice is refused");
	CHECK(parse("{\"nodes\": [" NODE(0) "]} trailing", &s) == -EBADMSG,
	      "junk after the end is refused");
	CHECK(parse("{\"nodes\": [" NODE(0) "]", &s) == -EBADMSG, "a cut file is refused");
	CHECK(parse("{\"nodez\": [" NODE(0) "]}", &s) == -EBADMSG,
	      "another top-level name is refused");
	CHECK(parse("{\"nodes\": [{\"node\": 0, \"Numa\\u0000\": 1}]}", &s) == -EBADMSG,
	      "escapes and capitals in names are refused");
	snapshot_free(&s);
}

static void test_names(void)
{
	struct timespec ts;
	char buf[64];

	CHECK(snapshot_name_time("numastat-20261130T113800.123456789Z.json", &ts) &&
		      ts.tv_sec == 1796038680 && ts.tv_nsec == 123456789,
	      "a nanosecond name gives its time");
	snapshot_format_time(&ts, buf, sizeof(buf));
	CHECK_STR(buf, "2026-11-30T11:38:00.123456789Z", "formatted back to the nanosecond");
	CHECK(snapshot_name_time("numastat-20261130T113800Z.json", &ts) && ts.tv_nsec == 0,
	      "an older one-second name is still a snapshot name");
	CHECK(snapshot_name_time("numastat-20261130T113800.123456789Z", &ts),
	      "so is a name without .json");
	CHECK(!snapshot_name_time("numastat-20260231T000000Z.json", &ts),
	      "31 February is not a date");
	CHECK(!snapshot_name_time("numastat-20261130T113800.12345Z.json", &ts),
	      "nanoseconds have 9 digits");
	CHECK(!snapshot_name_time("../numastat-20261130T113800Z.json", &ts),
	      "a path is not a name");
	CHECK(!snapshot_name_time("numastat-20261130T113800Z.json.bak", &ts), "nor another suffix");
	CHECK(!snapshot_name_time(".numastat.json.a1b2c3", &ts), "nor a temporary file");
}

int main(void)
{
	test_parse();
	test_names();
	return tap_done();
}
