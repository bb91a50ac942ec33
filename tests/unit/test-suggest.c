// SPDX-License-Identifier: GPL-2.0-or-later
/* "did you mean": the edit distance and which candidate is close enough. */
#include <string.h>

#include "suggest.h"
#include "tap.h"

static const char *best(const char *input, const char *const *cands)
{
	static struct suggest s;

	suggest_init(&s, input);
	for (; *cands; cands++)
		suggest_add(&s, *cands);
	return suggest_result(&s);
}

static void test_distance(void)
{
	char longer[SUGGEST_MAX_LEN + 2];

	CHECK(suggest_distance("", "") == 0, "empty strings");
	CHECK(suggest_distance("abc", "") == 3, "deleting everything");
	CHECK(suggest_distance("stat", "stats") == 1, "one insertion");
	CHECK(suggest_distance("recalim", "reclaim") == 1, "a swap of neighbours is one edit");
	CHECK(suggest_distance("kitten", "sitting") == 3, "the textbook case");
	CHECK(suggest_distance("LOCAL", "local") == 0, "ASCII case is ignored");
	CHECK(suggest_distance("thruput", "throughput") == 3, "thruput is 3 from throughput");
	CHECK(suggest_distance("ca", "abc") == 3,
	      "optimal string alignment: no edit of a swapped pair");
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK(suggest_distance(longer, "a") == SUGGEST_FAR, "longer than SUGGEST_MAX_LEN is far");
	longer[SUGGEST_MAX_LEN] = '\0';
	CHECK(suggest_distance(longer, longer) == 0, "exactly SUGGEST_MAX_LEN is compared");
}

static void test_choice(void)
{
	static const char *const commands[] = { "status",   "get",      "set",    "stat",
						"apply",    "profiles", "revert", "knobs",
						"selftest", "bench",    NULL };
	static const char *const profiles[] = { "default", "throughput", "hpc",
						"tiering", "latency",    NULL };
	static const char *const columns[] = { "NODE",   "NUMA_HIT", "LOCAL_NODE",
					       "LOCAL%", "MISS%",    NULL };
	static const char *const knobs[] = { "vm.numa_stat", "vm.zone_reclaim_mode",
					     "vm.min_slab_ratio", "vm.swappiness", NULL };

	CHECK_STR(best("stats", commands), "stat", "stats -> stat (not status)");
	CHECK_STR(best("staus", commands), "status", "staus -> status");
	CHECK_STR(best("aply", commands), "apply", "aply -> apply");
	CHECK(best("frobnicate", commands) == NULL, "nothing close: no suggestion");
	CHECK(best("nope", (const char *const[]){ "top", NULL }) == NULL,
	      "nope is not top: two edits of four letters are too many");
	CHECK(best("x", commands) == NULL, "one letter: nothing within one edit");
	CHECK_STR(best("thruput", profiles), "throughput", "thruput -> throughput");
	CHECK_STR(best("throu", profiles), "throughput", "a start of a name is close");
	CHECK_STR(best("Latency", profiles), "latency", "case only");
	CHECK(best("db", profiles) == NULL, "two letters far from all");
	CHECK(best("nope", profiles) == NULL,
	      "nope: nothing within one edit of a four-letter name");
	CHECK_STR(best("hcp", profiles), "hpc", "a swap in three letters");
	CHECK_STR(best("LOCAL", columns), "LOCAL%",
		  "LOCAL -> LOCAL%% (one edit wins over a start)");
	CHECK_STR(best("miss", columns), "MISS%", "miss -> MISS%%");
	CHECK_STR(best("vm.zone_reclam_mode", knobs), "vm.zone_reclaim_mode", "a knob typo");
	CHECK_STR(best("vm.zone_recalim_mode", knobs), "vm.zone_reclaim_mode", "a knob swap");
	CHECK_STR(best("vm.swapiness", knobs), "vm.swappiness", "a pass-through typo");
	CHECK(best("vm.dirty_ratio", knobs) == NULL, "an unrelated name");
	CHECK_STR(best("HITS", (const char *const[]){ "NODE", "NUMA_HIT", "INTERLEAVE_HIT", NULL }),
		  "NUMA_HIT", "a word of a name, plural aside, when no edit is close: the first");
	CHECK_STR(best("hit", (const char *const[]){ "NUMA_HIT", "HITS%", NULL }), "HITS%",
		  "a match by edits beats a word of a name");
	CHECK(best("MA", (const char *const[]){ "NUMA_MA", NULL }) == NULL,
	      "a word of two letters is no match");
}

static void test_as(void)
{
	struct suggest s;

	suggest_init(&s, "numa_stats");
	suggest_add_as(&s, "numa_stat", "vm.numa_stat");
	suggest_add_as(&s, "zone_reclaim_mode", "vm.zone_reclaim_mode");
	CHECK_STR(suggest_result(&s), "vm.numa_stat",
		  "a short name compared, the full name suggested");
	suggest_init(&s, "abcd");
	suggest_add(&s, "abce");
	suggest_add(&s, "abcf");
	CHECK_STR(suggest_result(&s), "abce", "of equally close names the first wins");
}

int main(void)
{
	test_distance();
	test_choice();
	test_as();
	return tap_done();
}
