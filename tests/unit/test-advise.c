// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The advice rules judged on facts built by hand: each rule speaks when its
 * condition holds and stays silent (or says it lacks data) when it does not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "sysfs.h"
#include "tap.h"

/*
 * The distance matrix of the machine under test (at most 16 nodes): what
 * nodeN/distance would give, for the rules that read a row again.
 */
static unsigned dist_m[16][16];

static int stub_row(const struct advise_facts *f, size_t from, unsigned *row)
{
	memcpy(row, dist_m[from], f->n * sizeof(*row));
	return 0;
}

/* Each node's farthest from the matrix, as advise-facts.c folds a row. */
static void fold(struct advise_facts *f)
{
	for (size_t i = 0; i < f->n; i++) {
		f->nodes[i].dist_far = -1;
		for (size_t j = 0; j < f->n; j++)
			if (j != i && (int)dist_m[i][j] > f->nodes[i].dist_far) {
				f->nodes[i].dist_far = (int)dist_m[i][j];
				f->nodes[i].dist_far_at = j;
			}
	}
}

/* A quiet machine of n nodes: defaults everywhere, local counters, a day of uptime. */
static void machine(struct advise_facts *f, size_t n)
{
	advise_facts_init(f);
	f->nodes = calloc(n, sizeof(*f->nodes));
	f->n = n;
	f->masks_err = 0;
	f->uptime = 86400;
	f->uptime_err = 0;
	f->distance_row = stub_row;
	f->cfg_ok = true;
	f->readers_checked = true;
	snprintf(f->readers_looked, sizeof(f->readers_looked), "node_exporter");
	snprintf(f->reclaim_why, sizeof(f->reclaim_why), "RECLAIM_DISTANCE is 30");
	for (size_t i = 0; i < n; i++) {
		struct af_node *nd = &f->nodes[i];

		nd->id = (unsigned)i;
		nd->cpu = nd->memory = true;
		nd->boot[NS_NUMA_HIT] = nd->boot[NS_LOCAL_NODE] = 1000000;
		nd->mem_total = 16ULL << 30;
		nd->file_pages = 1ULL << 30;
		/* Every other node 20 away: the farthest is the first of them. */
		nd->dist_far = n > 1 ? 20 : -1;
		nd->dist_far_at = i == 0 ? 1 : 0;
		for (size_t j = 0; j < n; j++)
			dist_m[i][j] = i == j ? 10 : 20;
		nd->lru_known = true;
		nd->file_lru = 1ULL << 30;
		nd->mapped = 64ULL << 20;
	}
	for (size_t i = 0; i < knob_count; i++)
		advise_facts_set_knob(f, knob_table[i].name, knob_default(&knob_table[i], n));
}

static void tiers(struct advise_facts *f, size_t ntiers, const unsigned *tier_of)
{
	f->tiers_err = 0;
	f->tiers.v = calloc(ntiers, sizeof(*f->tiers.v));
	f->tiers.n = ntiers;
	for (size_t t = 0; t < ntiers; t++) {
		f->tiers.v[t].id = 4 + 18 * (unsigned)t;
		f->tiers.v[t].nodes = calloc(f->n, sizeof(unsigned));
		for (size_t i = 0; i < f->n; i++)
			if (tier_of[i] == t)
				f->tiers.v[t].nodes[f->tiers.v[t].n++] = f->nodes[i].id;
	}
}

static struct advice_list judge(const struct advise_facts *f)
{
	struct advice_list l = { 0 };

	if (advise_evaluate(f, &l) < 0)
		printf("# advise_evaluate failed\n");
	return l;
}

static const struct advice *find(const struct advice_list *l, const char *rule,
				 enum advice_kind kind)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].rule->id, rule) == 0 && l->v[i].kind == kind)
			return &l->v[i];
	return NULL;
}

static bool has_evidence(const struct advice *a, const char *text)
{
	for (size_t i = 0; a && i < a->nevidence; i++)
		if (strstr(a->evidence[i], text))
			return true;
	return false;
}

static void done(struct advise_facts *f, struct advice_list *l)
{
	advice_list_free(l);
	advise_facts_free(f);
}

static void test_quiet_machine(void)
{
	struct advise_facts f;
	struct advice_list l;

	machine(&f, 2);
	l = judge(&f);
	CHECK(l.n == 0, "a two-node machine at its defaults with local counters: nothing to say");
	done(&f, &l);
	machine(&f, 2);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "1");
	l = judge(&f);
	CHECK(l.n == 0, "kernel.numa_balancing = 1 is the boot default on several nodes");
	done(&f, &l);
}

/* A line too long for the entry ends at its last whole word, never inside one. */
static void test_long_lines(void)
{
	struct advice_list l = { 0 };
	struct advice *a = advice_new(&l, &advise_rules[0], ADV_NOTE);
	char words[2 * ADVICE_LINE_MAX] = "";
	size_t n;

	while (strlen(words) + 12 < sizeof(words))
		strcat(words, "numastatctl ");
	advice_evidence(a, "%s/end", words);
	n = strlen(a->evidence[0]);
	CHECK(n < ADVICE_LINE_MAX && n > ADVICE_LINE_MAX - 16 &&
		      strcmp(a->evidence[0] + n - 15, " numastatctl...") == 0,
	      "an evidence line too long ends at its last whole word, with '...'");
	memset(words, 'x', sizeof(words) - 1);
	words[sizeof(words) - 1] = '\0';
	advice_text(a, "%s", words);
	n = strlen(a->text);
	CHECK(n == ADVICE_TEXT_MAX - 1 && strcmp(a->text + n - 3, "...") == 0,
	      "one word longer than the text: cut, with '...'");
	advice_list_free(&l);
}

static void test_table(void)
{
	for (size_t i = 0; i < advise_rule_count; i++) {
		const struct advise_rule *r = &advise_rules[i];

		CHECK(r->id && r->condition && r->reads && r->recommendation && r->reason &&
			      r->source && r->eval,
		      "rule %s has every field", r->id ? r->id : "(no id)");
		CHECK(advise_rule_find(r->id) == r, "rule %s is found by its id, once", r->id);
		if (r->knob) {
			struct knob_ref ref;
			char why[256];

			CHECK(knob_resolve(r->knob, &ref, why, sizeof(why)) == 0 && ref.knob,
			      "rule %s advises on a registry knob (%s)", r->id, r->knob);
		}
	}
	CHECK(strcmp(advise_rules[advise_rule_count - 1].id, "knob-not-default") == 0,
	      "knob-not-default is evaluated last, after every rule that judges knobs");
}

static void test_single_node(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 1);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "1");
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "5");
	l = judge(&f);
	a = find(&l, "single-node-balancing", ADV_ADVICE);
	CHECK(a && a->has_value && strcmp(a->value.text, "0") == 0 &&
		      strcmp(a->current.text, "1") == 0,
	      "one node: kernel.numa_balancing 1 -> 0");
	a = find(&l, "single-node-zone-reclaim", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "0") == 0, "one node: zone_reclaim_mode 5 -> 0");
	CHECK(!find(&l, "knob-not-default", ADV_ADVICE),
	      "and knob-not-default does not repeat them");
	a = find(&l, "single-node-numa-stat", ADV_NOTE);
	CHECK(a && !a->has_value &&
		      strstr(a->text, "only where allocation speed is the bottleneck"),
	      "one node, no reader: vm.numa_stat 0 is a note, not advice (no evidence of the "
	      "bottleneck)");
	CHECK(!find(&l, "single-node-numa-stat", ADV_ADVICE), "never advice");
	CHECK(has_evidence(a, "numastat(8)"), "saying that numastat run by hand cannot be seen");
	CHECK(l.v[0].rule->priority <= l.v[l.n - 1].rule->priority, "most important first");
	done(&f, &l);

	machine(&f, 1);
	f.nreaders = 1;
	snprintf(f.readers[0], sizeof(f.readers[0]),
		 "node_exporter (pid 7) runs with "
		 "--collector.meminfo_numa");
	l = judge(&f);
	a = find(&l, "single-node-numa-stat", ADV_NOTE);
	CHECK(a && !a->has_value && has_evidence(a, "pid 7"),
	      "one node with node_exporter reading: a note to keep 1, naming the reader");
	CHECK(advice_count(&l, ADV_ADVICE) == 0, "and no advice");
	done(&f, &l);

	machine(&f, 1);
	advise_facts_set_knob(&f, "vm.numa_stat", "0");
	l = judge(&f);
	CHECK(l.n == 0, "one node, numa_stat 0, no reader: fine, and knob-not-default agrees");
	done(&f, &l);

	machine(&f, 2);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "1");
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "0");
	l = judge(&f);
	CHECK(!find(&l, "single-node-balancing", ADV_ADVICE) &&
		      !find(&l, "single-node-numa-stat", ADV_ADVICE),
	      "two nodes: the single-node rules are silent");
	done(&f, &l);
}

static void test_frozen(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.numa_stat", "0");
	l = judge(&f);
	a = find(&l, "numa-stat-frozen", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "1") == 0,
	      "two nodes, numa_stat 0, nothing explains it: set 1");
	CHECK(find(&l, "remote-allocations", ADV_NO_DATA) &&
		      find(&l, "zone-reclaim-far", ADV_NO_DATA) == NULL,
	      "the counter rules say the counters are frozen (zone-reclaim-far has near nodes here)");
	CHECK(strstr(find(&l, "remote-allocations", ADV_NO_DATA)->text, "frozen"),
	      "in those words");
	CHECK(!find(&l, "knob-not-default", ADV_ADVICE),
	      "knob-not-default leaves vm.numa_stat alone");
	done(&f, &l);

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.numa_stat", "0");
	snprintf(f.knobs[0].explained, sizeof(f.knobs[0].explained),
		 "profile throughput (x.conf:3)");
	l = judge(&f);
	a = find(&l, "numa-stat-frozen", ADV_NOTE);
	CHECK(a && has_evidence(a, "profile throughput"), "a profile sets 0: a note naming it");
	CHECK(advice_count(&l, ADV_ADVICE) == 0, "and no advice");
	done(&f, &l);
}

static void test_tiers(void)
{
	static const unsigned two[] = { 0, 0, 1 }, one[] = { 0, 0, 0 };
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 3);
	f.nodes[2].cpu = false;
	tiers(&f, 2, two);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "1");
	l = judge(&f);
	a = find(&l, "tiering-enable", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "3") == 0,
	      "two tiers, balancing 1: advise 3 (tiering added)");
	CHECK(has_evidence(a, "memory_tier22/nodelist: 2"), "naming the tiers");
	a = find(&l, "demotion-enable", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "1") == 0, "and demotion on");
	CHECK(!find(&l, "cpuless-dram-tier", ADV_NOTE),
	      "the CPU-less node is in a lower tier: no note");
	done(&f, &l);

	machine(&f, 3);
	f.nodes[2].cpu = false;
	tiers(&f, 2, two);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "2");
	advise_facts_set_knob(&f, "mm.numa.demotion_enabled", "true");
	l = judge(&f);
	CHECK(l.n == 0,
	      "two tiers with tiering and demotion on: nothing (not even knob-not-default)");
	done(&f, &l);

	machine(&f, 3);
	f.nodes[2].cpu = false;
	tiers(&f, 1, one);
	l = judge(&f);
	a = find(&l, "cpuless-dram-tier", ADV_NOTE);
	CHECK(a && strstr(a->text, "node 2 has memory and no CPU"),
	      "a CPU-less node in the DRAM tier: a note");
	CHECK(has_evidence(a, "memory_tier4/nodelist: 0-2"), "showing that tier");
	CHECK(!find(&l, "tiering-enable", ADV_ADVICE) && advice_count(&l, ADV_ADVICE) == 0,
	      "and tiering is not advised");
	done(&f, &l);

	machine(&f, 3);
	tiers(&f, 1, one);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "2");
	l = judge(&f);
	a = find(&l, "tiering-without-tiers", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "0") == 0 && has_evidence(a, "scans nothing"),
	      "mode 2 with one tier: advise 0, it scans nothing");
	CHECK(!find(&l, "cpuless-dram-tier", ADV_NOTE), "no CPU-less node: no note");
	done(&f, &l);

	machine(&f, 3);
	f.tiers_err = -ENOENT;
	snprintf(f.tiers_why, sizeof(f.tiers_why), "memory_tiering: not present");
	advise_facts_set_knob(&f, "kernel.numa_balancing", "3");
	l = judge(&f);
	CHECK(find(&l, "tiering-without-tiers", ADV_NO_DATA),
	      "tiering on, tiers unreadable: insufficient data");
	CHECK(!find(&l, "tiering-without-tiers", ADV_ADVICE), "not a guess");
	done(&f, &l);
}

/* Nodes i and j d apart (d above the 20 of machine()): each other's farthest. */
static void apart(struct advise_facts *f, size_t i, size_t j, int d)
{
	dist_m[i][j] = dist_m[j][i] = (unsigned)d;
	fold(f);
}

/* Two nodes 40 apart, node 0 sending 10% of its allocations away. */
static void far_machine(struct advise_facts *f)
{
	machine(f, 2);
	apart(f, 0, 1, 40);
	f->nodes[0].boot[NS_NUMA_FOREIGN] = 111112;
	f->nodes[1].boot[NS_NUMA_MISS] = 111112;
}

/*
 * Four nodes as the reported machine: CPUs on 0 and 1 (21 apart), memory
 * only on 2 and 3, which are 40 apart from each other; node 0 spills onto
 * node 1.
 */
static void cpuless_far_machine(struct advise_facts *f)
{
	static const unsigned d[4][4] = {
		{ 10, 21, 17, 28 }, { 21, 10, 28, 17 }, { 17, 28, 10, 40 }, { 28, 17, 40, 10 }
	};

	machine(f, 4);
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 4; j++)
			dist_m[i][j] = d[i][j];
	fold(f);
	f->nodes[2].cpu = f->nodes[3].cpu = false;
	f->nodes[0].boot[NS_NUMA_FOREIGN] = 999000;
	f->nodes[1].boot[NS_NUMA_MISS] = 999000;
}

/* Counters over an interval: node 0 sent 99.9% of what was meant for it away. */
static void interval_spill(struct advise_facts *f)
{
	f->window = 8;
	for (size_t i = 0; i < f->n; i++)
		f->nodes[i].have_delta = true;
	f->nodes[0].delta[NS_NUMA_HIT] = 100;
	f->nodes[0].delta[NS_NUMA_FOREIGN] = 99900;
	f->nodes[1].delta[NS_NUMA_HIT] = 99900;
	f->nodes[1].delta[NS_NUMA_MISS] = 99900;
}

static void test_zone_reclaim_far(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	far_machine(&f);
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "1") == 0,
	      "a far spill from a node with CPUs and page cache to drop: advise 1");
	CHECK(a && strstr(a->text, "node 0 sends 10.0% of the allocations meant for it to node 1, "
				   "40 away, and holds 960M of page cache"),
	      "naming the spill, where it went, the distance and the cache");
	CHECK(has_evidence(a, "taken by (numa_miss, then distance from node 0 in "
			      "nodeN/distance): node 1 111112 at 40; RECLAIM_DISTANCE is 30") &&
		      has_evidence(a, "(10.0%)") && has_evidence(a, "partitioned"),
	      "with the landing node, its distance, the spill share and the caveat");
	CHECK(has_evidence(a, "node 0: page cache zone reclaim can drop (Active(file) + "
			      "Inactive(file) - Mapped - Dirty, nodeN/meminfo): 960M; it leaves "
			      "163.8M (vm.min_unmapped_ratio 1% of MemTotal 16G)"),
	      "and the page cache it can drop against what the kernel leaves");
	done(&f, &l);

	far_machine(&f);
	f.reclaim_distance = 40;
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "distance 40 is not beyond a reclaim distance of 40");
	done(&f, &l);

	far_machine(&f);
	f.nodes[0].file_pages = 12ULL << 30;
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "page cache 75%% of the node: not advised");
	done(&f, &l);

	/* A tmpfs spill: FilePages holds the shmem, the file LRU does not. */
	far_machine(&f);
	f.nodes[0].file_pages = 6ULL << 30;
	f.nodes[0].shmem = 6ULL << 30;
	f.nodes[0].file_lru = 20ULL << 20;
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "a tmpfs spill (shmem on the anon LRU): silent, zone reclaim cannot drop it");
	done(&f, &l);

	far_machine(&f);
	f.nodes[0].file_lru = 200ULL << 20;
	f.nodes[0].mapped = 40ULL << 20;
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "160M of unmapped page cache on a 16G node, under the 163.8M zone reclaim "
	      "leaves: silent");
	done(&f, &l);

	far_machine(&f);
	f.nodes[0].file_lru = 2ULL << 30;
	f.nodes[0].mapped = 1ULL << 30;
	f.nodes[0].dirty = 1ULL << 30;
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "page cache all mapped or dirty (mode 1 neither unmaps nor writes): silent");
	done(&f, &l);

	far_machine(&f);
	advise_facts_set_knob(&f, "vm.min_unmapped_ratio", "10");
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "vm.min_unmapped_ratio 10: 960M is under the 1.6G zone reclaim leaves");
	done(&f, &l);

	far_machine(&f);
	f.nodes[0].lru_known = false;
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_NO_DATA);
	CHECK(a && strstr(a->text, "node0/meminfo lacks Active(file)"),
	      "meminfo without the file LRU: insufficient data, not a guess");
	done(&f, &l);

	cpuless_far_machine(&f);
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "the largest distance lies between two CPU-less nodes, the spill lands 21 away: "
	      "silent");
	CHECK(find(&l, "remote-allocations", ADV_ADVICE),
	      "(remote-allocations still names the spill)");
	done(&f, &l);

	cpuless_far_machine(&f);
	f.nodes[1].boot[NS_NUMA_MISS] = 0;
	f.nodes[3].boot[NS_NUMA_MISS] = 999000;
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_ADVICE);
	CHECK(!a, "a spill onto node 3, 28 from node 0: within RECLAIM_DISTANCE, silent");
	done(&f, &l);

	cpuless_far_machine(&f);
	apart(&f, 0, 3, 38);
	f.nodes[1].boot[NS_NUMA_MISS] = 0;
	f.nodes[3].boot[NS_NUMA_MISS] = 999000;
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_ADVICE);
	CHECK(a && strstr(a->text, "to node 3, 38 away"),
	      "a spill from node 0 onto CPU-less node 3, 38 away: advise 1");
	done(&f, &l);

	cpuless_far_machine(&f);
	f.nodes[0].boot[NS_NUMA_FOREIGN] = 0;
	f.nodes[1].boot[NS_NUMA_MISS] = 0;
	f.nodes[2].boot[NS_NUMA_FOREIGN] = 999000;
	f.nodes[3].boot[NS_NUMA_MISS] = 999000;
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE),
	      "a CPU-less node spilling onto another 40 away (a memory policy, not the "
	      "local node's zone reclaim): silent");
	done(&f, &l);

	far_machine(&f);
	f.nodes[0].boot[NS_NUMA_FOREIGN] = 1000;
	f.nodes[1].boot[NS_NUMA_MISS] = 1000;
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE), "no spill (0.1%%): silent");
	done(&f, &l);

	far_machine(&f);
	f.uptime = 42;
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_NO_DATA);
	CHECK(a && strstr(a->text, "only 42 s since boot"),
	      "42 s after boot: insufficient data, saying so");
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE), "and no advice");
	done(&f, &l);

	far_machine(&f);
	f.distance_row = NULL;
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_NO_DATA);
	CHECK(a && strstr(a->text, "node0/distance cannot be read again"),
	      "the spilling node's distances unreadable on the second read: insufficient data");
	done(&f, &l);

	far_machine(&f);
	f.nodes[0].dist_err = -ENOENT;
	l = judge(&f);
	CHECK(find(&l, "zone-reclaim-far", ADV_NO_DATA),
	      "a distance file missing: insufficient data");
	done(&f, &l);
}

/* Zone reclaim on: a spill that goes on is never taken for a fit. */
static void test_zone_reclaim_on(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	far_machine(&f);
	f.nodes[0].boot[NS_NUMA_FOREIGN] = 1000;
	f.nodes[1].boot[NS_NUMA_MISS] = 1000;
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_ADVICE) &&
		      !find(&l, "zone-reclaim-far", ADV_NOTE) &&
		      !find(&l, "zone-reclaim-far", ADV_NO_DATA) &&
		      !find(&l, "knob-not-default", ADV_ADVICE) &&
		      !find(&l, "zone-reclaim-near", ADV_ADVICE),
	      "far nodes, zone reclaim on, no spill: it fits (knob-not-default silent too)");
	done(&f, &l);

	far_machine(&f);
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_NO_DATA);
	CHECK(a && strstr(a->text, "zone reclaim is on, and node 0's counters since boot show "
				   "10.0% of the allocations meant for it sent to other nodes, "
				   "which may predate it: --interval SECONDS"),
	      "zone reclaim on, a spill in the since-boot counters: not a fit, an interval "
	      "is needed");
	CHECK(!find(&l, "knob-not-default", ADV_ADVICE), "and knob-not-default stays out");
	done(&f, &l);

	far_machine(&f);
	interval_spill(&f);
	f.nodes[0].file_lru = 100ULL << 20;
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	a = find(&l, "zone-reclaim-far", ADV_NOTE);
	CHECK(a && strstr(a->text,
			  "zone reclaim is on, yet node 0 sent 99.9% of the allocations "
			  "meant for it to other nodes over the interval: it does not keep "
			  "them local, and the node has no page cache left for it to drop"),
	      "zone reclaim on and node 0 still spilling 99.9%% over the interval: a note "
	      "that it does not help");
	CHECK(a && strcmp(a->knob, "vm.zone_reclaim_mode") == 0 && !a->has_value,
	      "about the knob, advising no value");
	CHECK(has_evidence(a, "over the 8.0 s interval: numa_foreign 99900 of 100000"),
	      "with the interval's counters as evidence");
	CHECK(advice_count(&l, ADV_ADVICE) == 1 && find(&l, "remote-allocations", ADV_ADVICE),
	      "the spill itself stays advice (remote-allocations)");
	done(&f, &l);

	far_machine(&f);
	interval_spill(&f);
	f.nodes[0].delta[NS_NUMA_FOREIGN] = 0;
	f.nodes[0].delta[NS_NUMA_HIT] = 100000;
	f.nodes[1].delta[NS_NUMA_MISS] = 0;
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-far", ADV_NOTE) && !find(&l, "zone-reclaim-far", ADV_NO_DATA),
	      "zone reclaim on and no spill over the interval: it fits, silent");
	done(&f, &l);
}

static void test_zone_reclaim(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	a = find(&l, "zone-reclaim-near", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "0") == 0, "near nodes (20), zone reclaim on: advise 0");
	done(&f, &l);

	machine(&f, 2);
	apart(&f, 0, 1, 31);
	f.reclaim_distance = 32;
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	CHECK(find(&l, "zone-reclaim-near", ADV_ADVICE),
	      "AMD Zen: 31 is within the reclaim distance 32");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[1].file_pages = 10ULL << 30;
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	a = find(&l, "zone-reclaim-file-cache", ADV_ADVICE);
	CHECK(a && has_evidence(a, "node 1: page cache"),
	      "page cache 62%% of node 1, zone reclaim on: advise 0");
	CHECK(advice_count(&l, ADV_ADVICE) == 1,
	      "once: zone-reclaim-near's same advice is dropped");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[1].file_pages = 10ULL << 30;
	f.nodes[1].shmem = 8ULL << 30;
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "1");
	l = judge(&f);
	CHECK(!find(&l, "zone-reclaim-file-cache", ADV_ADVICE),
	      "shmem is not page cache zone reclaim drops");
	done(&f, &l);
}

static int stub_procs(const struct advise_facts *f, unsigned node, struct af_proc *out, size_t max,
		      size_t *unreadable)
{
	*unreadable = 2;
	out[0] = (struct af_proc){ .pid = 4242, .run_node = 0, .bytes = 3ULL << 30 };
	snprintf(out[0].name, sizeof(out[0].name), "db");
	return 1;
}

static void test_remote(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 2);
	f.nodes[1].boot[NS_OTHER_NODE] = 500000;
	f.remote_procs = stub_procs;
	l = judge(&f);
	a = find(&l, "remote-allocations", ADV_ADVICE);
	CHECK(a && strstr(a->text, "node 1:") &&
		      strstr(a->text, "33.3% of its allocations came from other nodes"),
	      "other_node a third of node 1's allocations: advice");
	CHECK(has_evidence(a, "not measured"), "saying that the trend was not measured");
	CHECK(has_evidence(a, "process 4242 (db) holds 3G on node 1 and last ran on node 0"),
	      "naming the process that holds the remote memory");
	CHECK(has_evidence(a, "the numa_maps of 2 could not be read"),
	      "and how many it could not see");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[1].cpu = false;
	f.nodes[1].boot[NS_OTHER_NODE] = 1000000;
	f.nodes[1].boot[NS_LOCAL_NODE] = 0;
	l = judge(&f);
	CHECK(!find(&l, "remote-allocations", ADV_ADVICE),
	      "a CPU-less node is all other_node: no signal");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[1].boot[NS_NUMA_HIT] = 9000;
	f.nodes[1].boot[NS_NUMA_MISS] = 900;
	l = judge(&f);
	CHECK(!find(&l, "remote-allocations", ADV_ADVICE),
	      "9900 events on a node are too few to judge");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[0].boot[NS_NUMA_HIT] = f.nodes[1].boot[NS_NUMA_HIT] = 40000;
	l = judge(&f);
	a = find(&l, "remote-allocations", ADV_NO_DATA);
	CHECK(a && strstr(a->text, "only 80000 allocation events"),
	      "80000 events since boot: a reset, says so");
	done(&f, &l);

	/* --interval: the window decides, and the trend is measured. */
	machine(&f, 2);
	f.window = 10;
	f.nodes[1].boot[NS_NUMA_MISS] = 100000;
	f.nodes[1].have_delta = f.nodes[0].have_delta = true;
	f.nodes[0].delta[NS_NUMA_HIT] = f.nodes[1].delta[NS_NUMA_HIT] = 9000;
	f.nodes[1].delta[NS_NUMA_MISS] = 3000;
	l = judge(&f);
	a = find(&l, "remote-allocations", ADV_ADVICE);
	CHECK(a && has_evidence(a, "25.0% over the interval against 9.1% since boot: rising"),
	      "miss 25%% in the window against 9.1%% since boot: rising, advised");
	done(&f, &l);

	machine(&f, 2);
	f.window = 10;
	f.nodes[1].boot[NS_NUMA_MISS] = 200000;
	f.nodes[1].have_delta = f.nodes[0].have_delta = true;
	f.nodes[0].delta[NS_NUMA_HIT] = f.nodes[1].delta[NS_NUMA_HIT] = 9000;
	f.nodes[1].delta[NS_NUMA_MISS] = 1000;
	l = judge(&f);
	CHECK(find(&l, "remote-allocations", ADV_NOTE) &&
		      !find(&l, "remote-allocations", ADV_ADVICE),
	      "10%% now against 16.7%% since boot: falling, a note and no advice");
	done(&f, &l);

	machine(&f, 2);
	f.window = 1;
	f.nodes[1].have_delta = f.nodes[0].have_delta = true;
	f.nodes[0].delta[NS_NUMA_HIT] = 300;
	l = judge(&f);
	a = find(&l, "remote-allocations", ADV_NO_DATA);
	CHECK(a && strstr(a->text, "only 300 allocation events"),
	      "300 events in the window: too few");
	done(&f, &l);

	machine(&f, 2);
	f.window = 1;
	f.window_err = -ERANGE;
	l = judge(&f);
	CHECK(find(&l, "remote-allocations", ADV_NO_DATA),
	      "counters that went backwards: no ratio");
	done(&f, &l);
}

static void test_hugepages(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 2);
	f.nodes[0].hp[0] = (struct hugepage_pool){ .kb = 2048, .nr = 512 };
	f.nodes[0].nhp = f.nodes[1].nhp = 1;
	f.nodes[1].hp[0] = (struct hugepage_pool){ .kb = 2048, .nr = 100 };
	l = judge(&f);
	a = find(&l, "hugepages-unbalanced", ADV_ADVICE);
	CHECK(a && strstr(a->text, "2048 kB") && has_evidence(a, "node 1: 100 pages"),
	      "512 against 100 pages of 2 MiB: spread them");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[0].hp[0] = (struct hugepage_pool){ .kb = 2048, .nr = 512 };
	f.nodes[0].nhp = f.nodes[1].nhp = 1;
	f.nodes[1].hp[0] = (struct hugepage_pool){ .kb = 2048, .nr = 300 };
	l = judge(&f);
	CHECK(!find(&l, "hugepages-unbalanced", ADV_ADVICE), "512 against 300: balanced enough");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[0].hp[0] = (struct hugepage_pool){ .kb = 1048576, .nr = 4 };
	f.nodes[0].nhp = 1;
	f.nodes[1].cpu = false;
	l = judge(&f);
	CHECK(!find(&l, "hugepages-unbalanced", ADV_ADVICE),
	      "only one node with CPUs: nothing to balance");
	done(&f, &l);

	machine(&f, 2);
	f.nodes[1].hp_err = -EACCES;
	snprintf(f.nodes[1].hp_why, sizeof(f.nodes[1].hp_why),
		 "node1/hugepages: permission denied");
	l = judge(&f);
	CHECK(find(&l, "hugepages-unbalanced", ADV_NO_DATA),
	      "an unreadable pool: insufficient data");
	done(&f, &l);
}

static void test_not_default(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.min_slab_ratio", "37");
	l = judge(&f);
	a = find(&l, "knob-not-default", ADV_ADVICE);
	CHECK(a && strcmp(a->knob, "vm.min_slab_ratio") == 0 && strcmp(a->value.text, "5") == 0,
	      "min_slab_ratio 37, nothing explains it: the default 5");
	done(&f, &l);

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.min_slab_ratio", "37");
	{
		struct knob_ref ref;
		struct kval want;
		char why[256];

		snprintf(f.profile, sizeof(f.profile), "default");
		knob_resolve("vm.min_slab_ratio", &ref, why, sizeof(why));
		knob_parse(&ref, "5", &want, why, sizeof(why));
		plan_add(&f.plan, &ref, &want, false, "numastatctl.conf:31");
	}
	l = judge(&f);
	a = find(&l, "knob-not-default", ADV_ADVICE);
	CHECK(has_evidence(a, "the configured profile default wants 5 (numastatctl.conf:31)"),
	      "and when the configured profile wants the default, says that apply sets it");
	done(&f, &l);

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.min_slab_ratio", "37");
	snprintf(f.knobs[4].explained, sizeof(f.knobs[4].explained),
		 "sysctl.d /etc/sysctl.d/x.conf:1");
	CHECK(strcmp(f.knobs[4].ref.name, "vm.min_slab_ratio") == 0,
	      "(the registry order this test assumes)");
	l = judge(&f);
	CHECK(l.n == 0, "a sysctl.d file explains it: silent");
	done(&f, &l);

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.min_slab_ratio", "37");
	f.cfg_ok = false;
	l = judge(&f);
	CHECK(find(&l, "knob-not-default", ADV_NO_DATA) &&
		      !find(&l, "knob-not-default", ADV_ADVICE),
	      "a broken configuration: whether a profile explains it is unknown, so no advice");
	done(&f, &l);

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "8");
	l = judge(&f);
	a = find(&l, "knob-not-default", ADV_ADVICE);
	CHECK(a && strcmp(a->value.text, "0") == 0 && strcmp(a->current.text, "8") == 0,
	      "zone_reclaim_mode 8 (no bit the kernel uses) is judged against the default 0");
	done(&f, &l);

	machine(&f, 2);
	advise_facts_set_knob(&f, "vm.zone_reclaim_mode", "99");
	l = judge(&f);
	a = find(&l, "zone-reclaim-near", ADV_ADVICE);
	CHECK(a && strcmp(a->current.text, "99") == 0 && advice_count(&l, ADV_ADVICE) == 1,
	      "99 acts as 3 (reclaim, write): zone-reclaim-near speaks, once");
	done(&f, &l);
}

/* kernel.numa_balancing's default is the kernel's by node count: 1 on several, 0 on one. */
static void test_balancing_default(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 2);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "0");
	l = judge(&f);
	a = find(&l, "knob-not-default", ADV_ADVICE);
	CHECK(a && strcmp(a->knob, "kernel.numa_balancing") == 0 &&
		      strcmp(a->value.text, "1") == 0 &&
		      strstr(a->text, "= 1 (the default with more than one node), or record 0"),
	      "two nodes, balancing 0 that nothing records: the default there is 1, not 0");
	CHECK(has_evidence(a, "registry default with more than one node: 1"),
	      "saying which default");
	done(&f, &l);

	machine(&f, 1);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "0");
	l = judge(&f);
	CHECK(l.n == 1 && find(&l, "single-node-numa-stat", ADV_NOTE),
	      "one node, balancing 0: the default there, nothing said of it");
	done(&f, &l);
}

static void test_sysctld(void)
{
	struct advise_facts f;
	struct advice_list l;
	struct knob_ref ref;
	struct kval want;
	char why[256];
	const struct advice *a;

	machine(&f, 2);
	snprintf(f.profile, sizeof(f.profile), "hpc");
	knob_resolve("vm.zone_reclaim_mode", &ref, why, sizeof(why));
	knob_parse(&ref, "1", &want, why, sizeof(why));
	plan_add(&f.plan, &ref, &want, false, "numastatctl.conf:50");
	f.conflicts.v = calloc(1, sizeof(*f.conflicts.v));
	if (!f.conflicts.v)
		abort();
	f.conflicts.n = f.conflicts.cap = 1;
	f.conflicts.v[0].item = &f.plan.items[0];
	f.conflicts.v[0].boot_differs = true;
	snprintf(f.conflicts.v[0].boot.file, sizeof(f.conflicts.v[0].boot.file),
		 "/etc/sysctl.d/90-x.conf");
	f.conflicts.v[0].boot.line = 3;
	snprintf(f.conflicts.v[0].boot.value, sizeof(f.conflicts.v[0].boot.value), "0");
	l = judge(&f);
	a = find(&l, "sysctld-profile-conflict", ADV_ADVICE);
	CHECK(a && strstr(a->text, "/etc/sysctl.d/90-x.conf:3 sets 0") && !a->has_value,
	      "sysctl.d and the profile disagree: advice naming the line, no knob value");
	CHECK(has_evidence(a, "is not enabled"), "saying which value holds at boot");
	done(&f, &l);

	machine(&f, 2);
	f.cfg_ok = false;
	l = judge(&f);
	CHECK(find(&l, "sysctld-profile-conflict", ADV_NO_DATA),
	      "a broken configuration: insufficient data");
	done(&f, &l);
}

/*
 * The processes holding remote memory, read from a fixture's /proc: our own
 * PID (f->self) is passed over, and under --sysroot there is none to pass.
 */
static void test_self_not_among_procs(void)
{
	const char *fx = getenv("FIXTURES");
	char root[256], cmd[800];
	struct advise_input in = { 0 };
	struct advise_facts f;
	struct af_proc p[ADVISE_TOP_PROCS];
	size_t unreadable;
	int n;

	snprintf(root, sizeof(root), "%s/numastatctl-advise.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!fx || !mkdtemp(root)) {
		tap_result(1, "the process list # SKIP needs FIXTURES and a temporary directory");
		return;
	}
	snprintf(cmd, sizeof(cmd), "'%s/gen-advise.sh' '%s' advise-remote-allocations", fx, root);
	CHECK(system(cmd) == 0 && sysfs_init(root) == 0, "the advise-remote-allocations fixture");
	CHECK(advise_facts_read(&f, &in) == 0 && f.remote_procs, "its facts read");
	CHECK(f.self == 0, "under --sysroot no process is ours");
	n = f.remote_procs(&f, 1, p, ADVISE_TOP_PROCS, &unreadable);
	CHECK(n == 2 && p[0].pid == 4242 && p[1].pid == 4343,
	      "node 1: processes 4242 and 4343 hold memory there and run elsewhere");
	f.self = 4242;
	n = f.remote_procs(&f, 1, p, ADVISE_TOP_PROCS, &unreadable);
	CHECK(n == 1 && p[0].pid == 4343, "the process that is numastatctl itself is passed over");
	advise_facts_free(&f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "the fixture removed");
	sysfs_init(NULL);
}

/* A kdamond with one migrate_cold scheme, on or off (damon.h's list). */
static void damos(struct advise_facts *f, bool on)
{
	struct damon_scheme *s = calloc(1, sizeof(*s));

	if (!s)
		return;
	*s = (struct damon_scheme){ .on = on, .pid = on ? 321 : -1, .target_nid = 1 };
	snprintf(s->ops, sizeof(s->ops), "paddr");
	snprintf(s->action, sizeof(s->action), "migrate_cold");
	f->damon = (struct damon_state){ .s = s, .n = 1, .cap = 1, .stat_pid = -1 };
}

static void test_interactions(void)
{
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 2);
	damos(&f, true);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "3");
	l = judge(&f);
	a = find(&l, "damos-tiering-promoters", ADV_NOTE);
	CHECK(a && strstr(a->text, "(migrate_cold) while kernel.numa_balancing = 3"),
	      "a running migrate scheme beside tiering balancing: a note");
	CHECK(has_evidence(a, "kdamond 0 (PID 321) context 0 scheme 0: paddr, action migrate_cold"),
	      "naming the scheme");
	done(&f, &l);

	machine(&f, 2);
	damos(&f, true);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "1");
	l = judge(&f);
	CHECK(!find(&l, "damos-tiering-promoters", ADV_NOTE), "balancing without tiering: quiet");
	done(&f, &l);

	machine(&f, 2);
	damos(&f, false);
	advise_facts_set_knob(&f, "kernel.numa_balancing", "2");
	l = judge(&f);
	CHECK(!find(&l, "damos-tiering-promoters", ADV_NOTE), "the scheme's kdamond off: quiet");
	done(&f, &l);

	machine(&f, 2);
	f.damon =
		(struct damon_state){ .stat_enabled = true, .stat_pid = 77, .stat_cpu_ticks = 150 };
	l = judge(&f);
	a = find(&l, "damon-stat-running", ADV_NOTE);
	CHECK(a && strstr(a->text, "kdamond PID 77") && strstr(a->text, "EBUSY"),
	      "DAMON_STAT runs: its kdamond, and what it keeps from starting");
	done(&f, &l);

	machine(&f, 2);
	snprintf(f.scx_state, sizeof(f.scx_state), "enabled");
	snprintf(f.scx_ops, sizeof(f.scx_ops), "scx_lavd");
	f.pte_have = true;
	f.pte_updates = 100;
	l = judge(&f);
	CHECK(find(&l, "sched-ext-balancing", ADV_NO_DATA), "sched_ext, one reading: no verdict");
	done(&f, &l);

	machine(&f, 2);
	snprintf(f.scx_state, sizeof(f.scx_state), "enabled");
	f.pte_have = f.pte_delta_have = true;
	f.pte_delta = 4096;
	f.window = 10;
	l = judge(&f);
	a = find(&l, "sched-ext-balancing", ADV_NOTE);
	CHECK(a && strstr(a->text, "still scans") && strstr(a->text, "grew by 4096 in 10 s"),
	      "numa_pte_updates moved over the window: balancing still scans, said");
	done(&f, &l);

	machine(&f, 2);
	snprintf(f.scx_state, sizeof(f.scx_state), "enabled");
	f.pte_have = f.pte_delta_have = true;
	f.window = 10;
	advise_facts_set_knob(&f, "kernel.numa_balancing", "0");
	l = judge(&f);
	CHECK(!find(&l, "sched-ext-balancing", ADV_NOTE) &&
		      !find(&l, "sched-ext-balancing", ADV_NO_DATA),
	      "balancing off: nothing about sched_ext");
	done(&f, &l);
}

/* The kubelet's configuration as parsed from text: what the rules read. */
static void kubelet(struct advise_facts *f, const char *yaml)
{
	kubelet_config_parse(&f->kubelet, yaml, strlen(yaml));
}

static void test_kubelet_config(void)
{
	struct kubelet_config c;
	const char *block = "kind: KubeletConfiguration\n"
			    "topologyManagerPolicy: \"restricted\" # aligned\n"
			    "topologyManagerPolicyOptions:\n"
			    "  # the options\n"
			    "  prefer-closest-numa-nodes: 'true'\n"
			    "  max-allowable-numa-nodes: \"16\"\n"
			    "topologyManagerScope: pod\n"
			    "  stray: 1\n";
	const char *flow = "topologyManagerPolicyOptions: {max-allowable-numa-nodes: \"12\", "
			   "prefer-closest-numa-nodes: \"false\"}\n"
			   "evictionHard:\n"
			   "  topologyManagerPolicy: none\n";

	CHECK(kubelet_config_parse(&c, block, strlen(block)) == 0 &&
		      strcmp(c.policy, "restricted") == 0 && c.policy_line == 2,
	      "the policy, its quotes and comment taken off, on line 2");
	CHECK(c.options_seen && c.options_line == 3 && c.n_opt == 2 &&
		      strcmp(kubelet_config_option(&c, "prefer-closest-numa-nodes")->value,
			     "true") == 0 &&
		      kubelet_config_option(&c, "max-allowable-numa-nodes")->line == 6,
	      "a block of options: each with its value and line; the block ends at the next key");
	CHECK(!kubelet_config_option(&c, "stray"),
	      "an indented line after another key is no option");
	CHECK(kubelet_config_parse(&c, flow, strlen(flow)) == 0 && c.n_opt == 2 &&
		      strcmp(kubelet_config_option(&c, "max-allowable-numa-nodes")->value, "12") ==
			      0,
	      "a flow mapping on the key's line");
	CHECK(c.policy[0] == '\0' && strcmp(kubelet_config_policy(&c), "none") == 0,
	      "a nested key of the same name is not the policy: unset is none");
	CHECK(kubelet_config_parse(&c, "a\0b", 3) == -EBADMSG && c.why[0], "a NUL byte: refused");
}

static void test_kubelet(void)
{
	static const char *single = "topologyManagerPolicy: single-numa-node\n";
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 9);
	kubelet(&f, single);
	l = judge(&f);
	a = find(&l, "kubelet-numa-nodes", ADV_ADVICE);
	CHECK(a && strstr(a->text, "{max-allowable-numa-nodes: \"9\"}") &&
		      has_evidence(a, "9 NUMA nodes") &&
		      has_evidence(a, ":1: topologyManagerPolicy"),
	      "9 nodes, single-numa-node, no options: the kubelet would refuse; the line to add");
	done(&f, &l);
	machine(&f, 9);
	kubelet(&f, "topologyManagerPolicy: best-effort\ntopologyManagerPolicyOptions:\n"
		    "  max-allowable-numa-nodes: \"16\"\n");
	l = judge(&f);
	CHECK(!find(&l, "kubelet-numa-nodes", ADV_ADVICE), "max-allowable-numa-nodes 16: silent");
	done(&f, &l);
	machine(&f, 9);
	kubelet(&f, "topologyManagerPolicy: best-effort\ntopologyManagerPolicyOptions:\n"
		    "  max-allowable-numa-nodes: \"8\"\n");
	l = judge(&f);
	a = find(&l, "kubelet-numa-nodes", ADV_ADVICE);
	CHECK(a &&
		      strstr(a->text, "on line 3 of " KUBELET_CONFIG
				      " set: max-allowable-numa-nodes: \"9\"") &&
		      !strstr(a->text, "add") &&
		      has_evidence(a, ":3: max-allowable-numa-nodes: \"8\""),
	      "an option below the node count: still refused; its own line changed, not a second "
	      "key of the same name added");
	done(&f, &l);
	machine(&f, 9);
	kubelet(&f, "topologyManagerPolicy: best-effort\n"
		    "topologyManagerPolicyOptions: {prefer-closest-numa-nodes: 'false', "
		    "max-allowable-numa-nodes: \"8\"}\n");
	l = judge(&f);
	a = find(&l, "kubelet-numa-nodes", ADV_ADVICE);
	CHECK(a && strstr(a->text,
			  "replace line 2 of " KUBELET_CONFIG
			  " with: topologyManagerPolicyOptions: {prefer-closest-numa-nodes: "
			  "\"false\", max-allowable-numa-nodes: \"9\"}"),
	      "options as a flow mapping: the line written whole, the other option kept, the "
	      "value changed in place");
	done(&f, &l);
	machine(&f, 9);
	kubelet(&f, "topologyManagerPolicy: best-effort\n"
		    "topologyManagerPolicyOptions: {odd: \"a\\\\b\"}\n");
	l = judge(&f);
	a = find(&l, "kubelet-numa-nodes", ADV_ADVICE);
	CHECK(a && strstr(a->text, "inside the braces on line 2 of " KUBELET_CONFIG
				   " set: max-allowable-numa-nodes: \"9\""),
	      "a flow mapping with a value this cannot write back: where to add, not a line");
	done(&f, &l);
	machine(&f, 9);
	kubelet(&f, "topologyManagerPolicy: best-effort\n"
		    "topologyManagerPolicyOptions: {odd: \"a\033[31mb\"}\n");
	l = judge(&f);
	a = find(&l, "kubelet-numa-nodes", ADV_ADVICE);
	CHECK(a && strstr(a->text, "inside the braces on line 2") && !strchr(a->text, '\033'),
	      "a value with a control character (printed escaped, so not as itself): no line");
	done(&f, &l);
	machine(&f, 9);
	kubelet(&f, "topologyManagerPolicy: best-effort\n"
		    "topologyManagerPolicyOptions: {odd: \"a\xe2\x80\xae"
		    "b\"}\n");
	l = judge(&f);
	a = find(&l, "kubelet-numa-nodes", ADV_ADVICE);
	CHECK(a && strstr(a->text, "inside the braces on line 2"),
	      "a value with U+202E, which the output escapes too: no line");
	done(&f, &l);
	machine(&f, 9);
	kubelet(&f, "topologyManagerPolicy: none\n");
	l = judge(&f);
	CHECK(!find(&l, "kubelet-numa-nodes", ADV_ADVICE), "policy none: the kubelet starts");
	done(&f, &l);
	machine(&f, 8);
	kubelet(&f, single);
	l = judge(&f);
	CHECK(!find(&l, "kubelet-numa-nodes", ADV_ADVICE) &&
		      !find(&l, "kubelet-closest-numa", ADV_ADVICE),
	      "8 nodes, every distance 20: nothing to say");
	done(&f, &l);

	machine(&f, 4);
	apart(&f, 0, 1, 12);
	apart(&f, 2, 3, 12);
	kubelet(&f, single);
	l = judge(&f);
	a = find(&l, "kubelet-closest-numa", ADV_ADVICE);
	CHECK(a && strstr(a->text, "range from 12 to 20") &&
		      strstr(a->text, "{prefer-closest-numa-nodes: \"true\"}"),
	      "distances 12 and 20 without prefer-closest-numa-nodes: the option to add");
	done(&f, &l);
	machine(&f, 4);
	apart(&f, 0, 1, 12);
	kubelet(&f, "topologyManagerPolicy: restricted\ntopologyManagerPolicyOptions:\n"
		    "  prefer-closest-numa-nodes: \"true\"\n");
	l = judge(&f);
	CHECK(!find(&l, "kubelet-closest-numa", ADV_ADVICE),
	      "prefer-closest-numa-nodes true: silent");
	done(&f, &l);
	machine(&f, 4);
	apart(&f, 0, 1, 12);
	kubelet(&f, "topologyManagerPolicy: restricted\n"
		    "topologyManagerPolicyOptions: {max-allowable-numa-nodes: \"9\"}\n");
	l = judge(&f);
	a = find(&l, "kubelet-closest-numa", ADV_ADVICE);
	CHECK(a && strstr(a->text,
			  "replace line 2 of " KUBELET_CONFIG
			  " with: topologyManagerPolicyOptions: {max-allowable-numa-nodes: "
			  "\"9\", prefer-closest-numa-nodes: \"true\"}"),
	      "the other rule's printed flow mapping: the option added inside it, not as a block "
	      "line below it (which would be no YAML)");
	done(&f, &l);
	machine(&f, 4);
	apart(&f, 0, 1, 12);
	l = judge(&f);
	CHECK(!find(&l, "kubelet-closest-numa", ADV_ADVICE) &&
		      !find(&l, "kubelet-closest-numa", ADV_NO_DATA),
	      "no kubelet configuration: no kubelet host, nothing said");
	done(&f, &l);
	machine(&f, 4);
	f.kubelet.present = true;
	snprintf(f.kubelet.why, sizeof(f.kubelet.why), "config.yaml: Permission denied");
	l = judge(&f);
	CHECK(find(&l, "kubelet-closest-numa", ADV_NO_DATA) != NULL,
	      "a configuration that cannot be read: said, not guessed");
	done(&f, &l);
}

/*
 * The memory map of machine(f, 3) as memmap_read() leaves it: nodes 0 and 1
 * with CPUs and 4 GiB of boot memory, node 2 CPU-less with 2 GiB of
 * source src (a CXL region of two memdevs on node 0's PCI bus, else an ACPI
 * DIMM) in zone, block 9 offline when offline; tiers as tier_of says.
 */
/* calloc() for the fixtures below: a test without memory stops here. */
static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		abort();
	return p;
}

static struct memmap_node_zones map_zones[3];

static void map_machine(struct advise_facts *f, enum memmap_source src, int zone, bool offline,
			size_t ntiers, const unsigned *tier_of)
{
	struct memmap *m = zalloc(1, sizeof(*m));

	f->map = m;
	m->page_size = 4096;
	m->n = 3;
	m->nodes = zalloc(3, sizeof(*m->nodes));
	m->blocks.block_size = 1ull << 30;
	m->blocks.v = zalloc(2, sizeof(*m->blocks.v));
	m->blocks.n = 2;
	m->tiers.v = zalloc(ntiers, sizeof(*m->tiers.v));
	m->tiers.n = ntiers;
	for (size_t t = 0; t < ntiers; t++) {
		m->tiers.v[t].id = 4 + 18 * (unsigned)t;
		m->tiers.v[t].nodes = zalloc(3, sizeof(unsigned));
		for (unsigned i = 0; i < 3; i++)
			if (tier_of[i] == t)
				m->tiers.v[t].nodes[m->tiers.v[t].n++] = i;
	}
	for (unsigned i = 0; i < 3; i++) {
		struct memmap_node *nd = &m->nodes[i];

		map_zones[i] = (struct memmap_node_zones){ .node = i };
		nd->node = i;
		nd->memory = true;
		nd->zones = &map_zones[i];
		nd->tier = (long)m->tiers.v[tier_of[i]].id;
		nd->n_parts = 1;
		nd->parts[0] = (struct memmap_part){ .source = MS_BOOT, .dev = -1, .blocks = 4 };
		if (i < 2) {
			nd->cpus = zalloc(2, sizeof(unsigned));
			nd->cpus[0] = 2 * i;
			nd->cpus[1] = 2 * i + 1;
			nd->n_cpus = 2;
			map_zones[i].present[MZ_NORMAL] = 1048576;
		}
	}
	map_zones[2].present[zone] = 524288;
	m->nodes[2].parts[0] =
		(struct memmap_part){ .source = src, .dev = -1, .blocks = 2, .offline = offline };
	m->nodes[2].offline = offline;
	for (unsigned b = 0; b < 2; b++)
		m->blocks.v[b] = (struct memmap_block){ .id = 8 + b, .node = 2, .zone = zone };
	m->blocks.v[1].state = offline ? MB_OFFLINE : MB_ONLINE;
	snprintf(m->policy.auto_online, sizeof(m->policy.auto_online), "online");
	if (src == MS_ACPI) {
		snprintf(m->nodes[2].parts[0].acpi, MEMMAP_NAME_MAX, "PNP0C80:00");
		for (unsigned b = 0; b < 2; b++)
			snprintf(m->blocks.v[b].acpi, MEMMAP_NAME_MAX, "PNP0C80:00");
		return;
	}
	m->nodes[2].parts[0].dev = 0;
	m->nodes[2].perf = MP_CXL;
	m->dev.regions = zalloc(1, sizeof(*m->dev.regions));
	m->dev.n_regions = 1;
	m->dev.regions[0] = (struct memmap_region){
		.name = "region0", .start = 8ull << 30, .size = 2ull << 30, .dax = -1, .node = 2
	};
	m->dev.regions[0].memdevs = zalloc(2, sizeof(struct memmap_memdev));
	m->dev.regions[0].n_memdevs = 2;
	for (int k = 0; k < 2; k++) {
		struct memmap_memdev *md = &m->dev.regions[0].memdevs[k];

		snprintf(md->name, sizeof(md->name), "mem%d", k);
		snprintf(md->decoder, sizeof(md->decoder), "decoder%d.0", 5 + k);
		md->numa_node = k == 0 ? 0 : 2;
	}
}

static void test_map_rules(void)
{
	static const unsigned two[] = { 0, 0, 1 }, one[] = { 0, 0, 0 };
	struct advise_facts f;
	struct advice_list l;
	const struct advice *a;

	machine(&f, 3);
	map_machine(&f, MS_CXL, MZ_NORMAL, false, 2, two);
	l = judge(&f);
	a = find(&l, "lower-tier-normal-zone", ADV_ADVICE);
	CHECK(a && strstr(a->text,
			  "node 2 is in a slower tier (memory_tier22) with 2G in ZONE_NORMAL"),
	      "a lower tier in ZONE_NORMAL: advice");
	CHECK(has_evidence(a, "node 2: 2G present in the zones below Movable"),
	      "with zoneinfo's figure");
	a = find(&l, "cxl-memdev-node", ADV_NOTE);
	CHECK(a && strstr(a->text, "CXL mem0's numa_node is 0") && !strstr(a->text, "mem1"),
	      "mem0 on node 0's bus, its memory node 2: a note; mem1 on node 2: none");
	CHECK(!find(&l, "one-memory-tier", ADV_NOTE) && !find(&l, "cpuless-no-perf", ADV_NOTE),
	      "two tiers, CXL figures: neither tier nor perf note");
	done(&f, &l);

	machine(&f, 3);
	map_machine(&f, MS_CXL, MZ_MOVABLE, false, 2, two);
	l = judge(&f);
	CHECK(!find(&l, "lower-tier-normal-zone", ADV_ADVICE),
	      "the lower tier all Movable: silent");
	done(&f, &l);

	machine(&f, 3);
	f.nodes[2].cpu = false;
	tiers(&f, 1, one);
	map_machine(&f, MS_CXL, MZ_MOVABLE, false, 1, one);
	l = judge(&f);
	a = find(&l, "one-memory-tier", ADV_NOTE);
	CHECK(a && has_evidence(a, "node 2: memory of cxl region0, performance data: cxl"),
	      "CXL memory in the one tier: a note naming the region");
	CHECK(!find(&l, "cpuless-dram-tier", ADV_NOTE), "and cpuless-dram-tier leaves it to it");
	done(&f, &l);

	machine(&f, 3);
	f.nodes[2].cpu = false;
	tiers(&f, 1, one);
	map_machine(&f, MS_ACPI, MZ_MOVABLE, true, 1, one);
	l = judge(&f);
	CHECK(!find(&l, "one-memory-tier", ADV_NOTE) && find(&l, "cpuless-dram-tier", ADV_NOTE),
	      "an ACPI DIMM in the one tier: cpuless-dram-tier's, not one-memory-tier's");
	a = find(&l, "cpuless-no-perf", ADV_NOTE);
	CHECK(a && strstr(a->text, "node 2 has memory, no CPU and no performance data"),
	      "no HMAT, no CXL figures: a note");
	a = find(&l, "hotplug-offline", ADV_ADVICE);
	CHECK(a && strstr(a->text, "1 of the 2 blocks of acpi PNP0C80:00 are offline (1G)"),
	      "an offline block of the DIMM: advice");
	CHECK(has_evidence(a, "memoryN/state: offline for N = 9"), "naming the block");
	done(&f, &l);

	machine(&f, 3);
	map_machine(&f, MS_ACPI, MZ_MOVABLE, false, 1, one);
	f.map->nodes[2].perf = MP_HMAT;
	l = judge(&f);
	CHECK(!find(&l, "hotplug-offline", ADV_ADVICE) && !find(&l, "cpuless-no-perf", ADV_NOTE),
	      "every block online, HMAT figures: both silent");
	done(&f, &l);

	machine(&f, 3);
	l = judge(&f);
	CHECK(!find(&l, "hotplug-offline", ADV_ADVICE) && !find(&l, "cxl-memdev-node", ADV_NOTE),
	      "no map read: no verdict");
	done(&f, &l);
}

int main(void)
{
	test_table();
	test_kubelet_config();
	test_kubelet();
	test_quiet_machine();
	test_single_node();
	test_frozen();
	test_tiers();
	test_map_rules();
	test_long_lines();
	test_self_not_among_procs();
	test_zone_reclaim_far();
	test_zone_reclaim_on();
	test_zone_reclaim();
	test_balancing_default();
	test_remote();
	test_hugepages();
	test_not_default();
	test_sysctld();
	test_interactions();
	return tap_done();
}
