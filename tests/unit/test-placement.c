// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement: numa_maps by policy and kind, the status file's allowed
 * lists, cgroup numa_stat into kinds, and the verdict's arithmetic.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cg-numa.h"
#include "nodes.h"
#include "placement.h"
#include "procmaps.h"
#include "tap.h"

#define TXT(s) s, sizeof(s) - 1
#define KB 1024ULL

static int parse(struct placement *p, const char *buf, size_t len, char *why)
{
	char *copy = malloc(len ? len : 1); /* exactly len bytes, for ASan */
	int r;

	memcpy(copy, buf, len);
	r = placement_maps_parse(p, copy, len, why, 128);
	free(copy);
	return r;
}

static const struct pl_node *node(const struct placement *p, unsigned id)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].node == id)
			return &p->v[i];
	return NULL;
}

static const struct pl_policy_use *pol(const struct placement *p, const char *text)
{
	for (size_t i = 0; i < p->n_pol; i++)
		if (strcmp(p->pol[i].text, text) == 0)
			return &p->pol[i];
	return NULL;
}

static void kinds(void)
{
	static const char maps[] =
		"55d0c0a00000 default file=/usr/bin/bash mapped=40 mapmax=3 N0=40 N2=8 "
		"kernelpagesize_kB=4\n"
		"55d0c0b00000 default file=/usr/bin/bash anon=6 dirty=6 N0=4 N2=8 "
		"kernelpagesize_kB=4\n"
		"55d0c1b00000 default heap anon=50 dirty=50 N0=50 kernelpagesize_kB=4\n"
		"7f0000000000 default file=/dev/hugepages/x huge dirty=3 N0=1 N2=2 "
		"kernelpagesize_kB=2048\n"
		"7f1000000000 default file=/dev/shm/pg\\040seg dirty=10 N2=10 kernelpagesize_kB=4\n"
		"7f1100000000 default file=/SYSV00000000\\040(deleted) N0=3 kernelpagesize_kB=4\n"
		"7f1200000000 default file=/memfd:jit\\040(deleted) N0=2 kernelpagesize_kB=4\n"
		"7f1300000000 default file=/dev/zero\\040(deleted) N2=1 kernelpagesize_kB=4\n"
		"7f2000000000 default file=/lib/a.so\n";
	struct placement p = { 0 };
	const struct pl_node *n0, *n2;
	char why[128];

	CHECK(parse(&p, TXT(maps), why) == 0, "a numa_maps with every kind parses");
	n0 = node(&p, 0);
	n2 = node(&p, 2);
	CHECK(p.n == 2 && n0 && n2, "two nodes");
	if (!n0 || !n2)
		goto out;
	CHECK(n0->bytes[PL_ANON] == (50 + 2) * 4 * KB && n2->bytes[PL_ANON] == 4 * 4 * KB,
	      "anon: the heap, and a file mapping's 6 anon= pages spread 2 and 4 over its 4 and "
	      "8 pages (%llu, %llu)",
	      (unsigned long long)n0->bytes[PL_ANON], (unsigned long long)n2->bytes[PL_ANON]);
	CHECK(n0->bytes[PL_FILE] == (40 + 2) * 4 * KB && n2->bytes[PL_FILE] == (8 + 4) * 4 * KB,
	      "file: the rest of the file mappings");
	CHECK(n0->bytes[PL_SHMEM] == 5 * 4 * KB && n2->bytes[PL_SHMEM] == 11 * 4 * KB,
	      "shmem: /dev/shm, System V, memfd and shared anonymous (/dev/zero)");
	CHECK(n0->bytes[PL_HUGE] == 2048 * KB && n2->bytes[PL_HUGE] == 2 * 2048 * KB,
	      "huge: hugetlbfs pages in kernelpagesize_kB units");
	CHECK(p.mappings == 9, "every mapping counted, also one without pages");
	CHECK(p.n_pol == 1 && pol(&p, "default") && pol(&p, "default")->mappings == 9,
	      "one policy, default, over nine mappings");
out:
	placement_free(&p);
}

static void policies(void)
{
	static const char maps[] =
		"1000 bind:1 anon=4 N0=1 N1=3 kernelpagesize_kB=4\n"
		"2000 prefer:1 anon=2 N0=2 kernelpagesize_kB=4\n"
		"3000 prefer (many)=static:0-1 anon=1 N0=1 kernelpagesize_kB=4\n"
		"4000 interleave:0-1 anon=2 N0=1 N1=1 kernelpagesize_kB=4\n"
		"5000 weighted interleave=relative|balancing:0-1 anon=2 N0=1 N1=1 "
		"kernelpagesize_kB=4\n"
		"6000 local anon=1 N1=1 kernelpagesize_kB=4\n"
		"7000 bind=static:1 file=/data/x N0=5 kernelpagesize_kB=4\n"
		"8000 bind:1 anon=1 N1=1 kernelpagesize_kB=4\n";
	struct placement p = { 0 };
	const struct pl_node *n0, *n1;
	const struct pl_policy_use *b;
	char why[128] = "";

	CHECK(parse(&p, TXT(maps), why) == 0, "every policy mpol_to_str() writes parses (%s)", why);
	n0 = node(&p, 0);
	n1 = node(&p, 1);
	if (!n0 || !n1) {
		CHECK(0, "nodes 0 and 1");
		goto out;
	}
	CHECK(n0->cls[PL_C_OFF_POLICY] == 1 * 4 * KB && n1->cls[PL_C_OFF_POLICY] == 0,
	      "off-policy: only the bound mapping's anonymous page on node 0 (%llu)",
	      (unsigned long long)n0->cls[PL_C_OFF_POLICY]);
	CHECK(p.n_pol == 7, "seven distinct policies (%zu)", p.n_pol);
	b = pol(&p, "bind:1");
	CHECK(b && b->mappings == 2 && b->bytes == 5 * 4 * KB, "bind:1: two mappings, 20 kB");
	CHECK(pol(&p, "prefer (many)=static:0-1") &&
		      pol(&p, "weighted interleave=relative|balancing:0-1"),
	      "the two-word modes are kept whole");
out:
	placement_free(&p);
}

static void cpuset_narrowed(void)
{
	static const char maps[] = "1000 default heap anon=10 N0=6 N1=4 kernelpagesize_kB=4\n"
				   "2000 default file=/x N0=3 N1=7 kernelpagesize_kB=4\n";
	static const unsigned cpu_node[] = { 0, 0, 1, 1 };
	struct placement p = { 0 };
	struct pl_verdict v;
	unsigned *cpus = malloc(2 * sizeof(*cpus)), fast[] = { 0 };
	char why[128];

	p.mems = malloc(sizeof(*p.mems));
	p.mems[0] = 1;
	p.n_mems = 1;
	p.mems_known = true;
	cpus[0] = 2;
	cpus[1] = 3;
	CHECK(placement_set_cpus(&p, cpus, 2, cpu_node, 4) == 0 && p.n_cpu_nodes == 1 &&
		      p.cpu_nodes[0] == 1,
	      "CPUs 2-3 are node 1's");
	CHECK(parse(&p, TXT(maps), why) == 0, "parses");
	placement_verdict(&p, fast, 1, &v);
	CHECK(v.total == 20 * 4 * KB, "total");
	CHECK(v.cls[PL_C_LOCAL] == 11 * 4 * KB, "local: what is on node 1");
	CHECK(v.cls[PL_C_REMOTE_ANON] == 0 && v.cls[PL_C_REMOTE_FILE] == 3 * 4 * KB,
	      "remote file apart; no remote anonymous: the cpuset refuses node 0");
	CHECK(v.cls[PL_C_OFF_POLICY] == 6 * 4 * KB,
	      "the cpuset narrowed to node 1 after the heap was filled: node 0's anonymous pages "
	      "are off-policy, the file pages are not");
	CHECK(v.tiers && v.fast == 9 * 4 * KB, "the fast tier holds node 0's pages");
	CHECK(placement_pct(v.cls[PL_C_OFF_POLICY], v.total) == 30.0 && placement_pct(1, 0) == 0.0,
	      "percentages, and none of nothing");
	placement_free(&p);
}

static void bad_lines(void)
{
	static const struct {
		const char *line, *why;
	} cases[] = {
		{ "zz default N0=1\n", "line 1: does not start with a hex address" },
		{ "1000 sometimes N0=1\n", "line 1: unknown policy 'sometimes'" },
		{ "1000\n", "line 1: no policy" },
		{ "1000 bind:0-x N0=1\n", "line 1: the policy's node list is malformed" },
		{ "1000 default N0=x\n", "line 1: malformed N<node>=<pages>" },
		{ "1000 default anon=-1 N0=1\n", "line 1: anon= is not a number" },
		{ "1000 default N0=1 kernelpagesize_kB=0\n",
		  "line 1: kernelpagesize_kB is not a page size" },
		{ "1000 default N0=18446744073709551615 kernelpagesize_kB=4\n",
		  "line 1: size does not fit in 64 bits" },
		{ "1000 default N0=18446744073709551615 N1=1\n",
		  "line 1: size does not fit in 64 bits" },
		{ "1000 default N0=1", "line 1: missing newline at end of file" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct placement p = { 0 };
		char why[128] = "";
		int r = parse(&p, cases[i].line, strlen(cases[i].line), why);

		CHECK(r == -EBADMSG && strcmp(why, cases[i].why) == 0, "refused: %s (%s)",
		      cases[i].why, why);
		placement_free(&p);
	}
}

static void many_policies(void)
{
	struct placement p = { 0 };
	char line[64], why[128];
	int r = 0;

	for (unsigned i = 0; i < PL_POLICIES_MAX + 5 && r == 0; i++) {
		snprintf(line, sizeof(line), "%x bind:%u anon=1 N%u=1 kernelpagesize_kB=4", i + 1,
			 i, i);
		r = placement_maps_add_line(&p, line, strlen(line), why, sizeof(why));
	}
	CHECK(r == 0 && p.n_pol == PL_POLICIES_MAX && p.policies_dropped == 5,
	      "distinct policies are kept up to a bound, the rest counted");
	placement_free(&p);
}

static void status(void)
{
	static const char st[] = "Name:\tpostgres\nState:\tS (sleeping)\n"
				 "Cpus_allowed:\tf\nCpus_allowed_list:\t0-1,3\n"
				 "Mems_allowed:\t00000000,00000003\nMems_allowed_list:\t0-1\n";
	struct proc_allowed a;
	char why[128];

	CHECK(proc_allowed_parse(TXT(st), &a, why, sizeof(why)) == 0 && a.n_cpus == 3 &&
		      a.cpus[2] == 3 && a.has_mems && a.n_mems == 2 && a.mems[1] == 1,
	      "Cpus_allowed_list and Mems_allowed_list");
	proc_allowed_free(&a);
	CHECK(proc_allowed_parse(TXT("Name:\tx\nCpus_allowed_list:\t0\n"), &a, why, sizeof(why)) ==
			      0 &&
		      !a.has_mems,
	      "no Mems_allowed_list (a kernel without cpusets): not known");
	proc_allowed_free(&a);
	CHECK(proc_allowed_parse(TXT("Name:\tx\n"), &a, why, sizeof(why)) == -EBADMSG &&
		      strcmp(why, "no Cpus_allowed_list") == 0,
	      "no Cpus_allowed_list is refused");
	CHECK(proc_allowed_parse(TXT("Cpus_allowed_list:\t0-\n"), &a, why, sizeof(why)) ==
			      -EBADMSG &&
		      strcmp(why, "Cpus_allowed_list: not a range list") == 0,
	      "a broken list is refused");
	CHECK(proc_allowed_parse(TXT("Cpus_allowed_list_x:\t0\nCpus_allowed_list:\t4\n"), &a, why,
				 sizeof(why)) == 0 &&
		      a.n_cpus == 1 && a.cpus[0] == 4,
	      "a longer key is not the key");
	proc_allowed_free(&a);
}

static void cgroup(void)
{
	static const char ns[] = "anon N0=1000 N1=2000\nfile N0=500 N1=300\n"
				 "shmem N0=100 N1=400\nanon_thp N0=0 N1=0\n";
	struct cg_numa s;
	struct placement p = { 0 };
	char why[128];

	p.mems = malloc(sizeof(*p.mems));
	p.mems[0] = 0;
	p.n_mems = 1;
	p.mems_known = true;
	CHECK(cg_numa_parse(TXT(ns), &s, why, sizeof(why)) == 0, "numa_stat parses");
	CHECK(placement_from_cgroup(&p, &s) == 0 && p.n == 2, "two nodes");
	CHECK(p.v[0].bytes[PL_ANON] == 1000 && p.v[0].bytes[PL_FILE] == 400 &&
		      p.v[0].bytes[PL_SHMEM] == 100 && p.v[1].bytes[PL_FILE] == 0 &&
		      p.v[1].bytes[PL_SHMEM] == 400,
	      "file is file less shmem, never below zero when shmem runs ahead");
	CHECK(p.v[0].cls[PL_C_OFF_POLICY] == 0 && p.v[1].cls[PL_C_OFF_POLICY] == 2000,
	      "anonymous memory outside cpuset.mems.effective is off-policy");
	cg_numa_free(&s);
	placement_free(&p);
}

int main(void)
{
	kinds();
	policies();
	cpuset_narrowed();
	bad_lines();
	many_policies();
	status();
	cgroup();
	CHECK(rangelist_has((const unsigned[]){ 1, 3, 5 }, 3, 3) &&
		      !rangelist_has((const unsigned[]){ 1, 3, 5 }, 3, 4),
	      "sorted membership");
	return tap_done();
}
