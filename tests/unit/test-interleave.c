// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Weighted interleave: the kernel's auto rule (reduce_interleave_weights(),
 * mm/mempolicy.c) on the bandwidths it is given, and what a plan of weights
 * and auto may and may not hold.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "interleave.h"
#include "tap.h"

static bool weights_are(const uint64_t *bw, size_t n, const unsigned *want)
{
	unsigned w[8];

	interleave_auto_weights(bw, n, w);
	for (size_t i = 0; i < n; i++)
		if (w[i] != want[i]) {
			printf("# node %zu: got %u, want %u\n", i, w[i], want[i]);
			return false;
		}
	return true;
}

static void test_auto_rule(void)
{
	CHECK(weights_are((uint64_t[]){ 100000, 25000 }, 2, (unsigned[]){ 25, 6 }),
	      "DRAM and CXL at 4:1 bandwidth: 25:6 (floor of 25.6 and 6.4, GCD 1)");
	CHECK(weights_are((uint64_t[]){ 80000, 20000 }, 2, (unsigned[]){ 25, 6 }),
	      "the same ratio at other numbers gives the same weights");
	CHECK(weights_are((uint64_t[]){ 100, 100 }, 2, (unsigned[]){ 1, 1 }),
	      "equal bandwidth: 16:16 reduced by the GCD to 1:1");
	CHECK(weights_are((uint64_t[]){ 100000, 100000, 25000 }, 3, (unsigned[]){ 14, 14, 3 }),
	      "two DRAM nodes and one CXL node: 14:14:3");
	CHECK(weights_are((uint64_t[]){ 0, 100 }, 2, (unsigned[]){ 1, 32 }),
	      "a node with no bandwidth reported gets 1");
	CHECK(weights_are((uint64_t[]){ 1, 1000 }, 2, (unsigned[]){ 1, 31 }),
	      "a node below 1/32 of the sum still gets 1");
	CHECK(weights_are((uint64_t[]){ 5 }, 1, (unsigned[]){ 1 }), "one node: 32 reduced to 1");
	CHECK(weights_are((uint64_t[]){ UINT32_MAX, UINT32_MAX }, 2, (unsigned[]){ 1, 1 }),
	      "bandwidths near 2^32 MiB/s do not overflow");
}

static void item(struct plan *p, const char *name, const char *want)
{
	struct knob_ref ref;
	struct kval v;
	char why[256];

	if (knob_resolve(name, &ref, why, sizeof(why)) < 0 ||
	    knob_parse(&ref, want, &v, why, sizeof(why)) < 0 ||
	    plan_add(p, &ref, &v, false, "t.conf:1") < 0)
		printf("# %s = %s: %s\n", name, want, why);
}

static void test_plan_check(void)
{
	struct plan p = { 0 };
	char why[512] = "";

	item(&p, INTERLEAVE_AUTO, "false");
	item(&p, "mm.mempolicy.weighted_interleave.node1", "2");
	CHECK(interleave_plan_check(&p, why, sizeof(why)) == 0, "auto off and a weight: fine");
	plan_free(&p);
	item(&p, "mm.mempolicy.weighted_interleave.node0", "8");
	item(&p, INTERLEAVE_AUTO, "on");
	CHECK(interleave_plan_check(&p, why, sizeof(why)) == -EINVAL,
	      "auto on and a weight: refused, whatever the order");
	CHECK(strstr(why, "node0 = 8 at t.conf:1") != NULL, "naming the weight and where: %s", why);
	plan_free(&p);
	item(&p, INTERLEAVE_AUTO, "1");
	CHECK(interleave_plan_check(&p, why, sizeof(why)) == 0, "auto on alone: fine");
	plan_free(&p);
}

static void test_names(void)
{
	struct knob_ref ref;
	char why[256];

	CHECK(knob_resolve("mm.mempolicy.weighted_interleave.node12", &ref, why, sizeof(why)) ==
			      0 &&
		      interleave_is_weight(&ref) && knob_ref_node(&ref) == 12 &&
		      strcmp(ref.path, "/sys/kernel/mm/mempolicy/weighted_interleave/node12") == 0,
	      "node12 is a member of the family, with its path");
	CHECK(knob_resolve("mm/mempolicy/weighted_interleave/node3", &ref, why, sizeof(why)) == 0 &&
		      strcmp(ref.name, "mm.mempolicy.weighted_interleave.node3") == 0,
	      "slashes as sysctl takes them");
	CHECK(knob_resolve(INTERLEAVE_WEIGHTS, &ref, why, sizeof(why)) == 0 &&
		      !interleave_is_weight(&ref) && knob_ref_node(&ref) == -1,
	      "the family's own name is no node");
	for (const char *const *bad = (const char *const[]){ "node012", "node-1", "node1x", "node",
							     "node123456", NULL };
	     *bad; bad++) {
		char name[96];

		snprintf(name, sizeof(name), "mm.mempolicy.weighted_interleave.%s", *bad);
		CHECK(knob_resolve(name, &ref, why, sizeof(why)) < 0, "%s is no knob", *bad);
	}
	CHECK(knob_resolve("auto", &ref, why, sizeof(why)) == 0 && interleave_is_auto(&ref),
	      "auto alone is the short form");
}

int main(void)
{
	test_auto_rule();
	test_plan_check();
	test_names();
	return tap_done();
}
