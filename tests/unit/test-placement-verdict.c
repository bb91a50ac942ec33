// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement's verdict, rule by rule: each class from the intent behind a
 * page, migrate_pages(2)'s pairing of nodes, and the commands built on it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cg-unit.h"
#include "nodes.h"
#include "page-move.h"
#include "placement-machine.h"
#include "placement.h"
#include "tap.h"

#define KB 1024ULL

/*
 * The machine of the tests: nodes 0-2 with CPUs in tier 4, node 3 memory
 * only in tier 22; the target runs on node 0, its cpuset allows 0-3.
 */
static unsigned fast_nodes[] = { 0, 1, 2 }, slow_nodes[] = { 3 };
static struct memtier tier_v[] = { { 4, fast_nodes, 3 }, { 22, slow_nodes, 1 } };
static struct memtiers tiers = { tier_v, 2, 2 };

static void target(struct placement *p, struct pl_machine *m, bool demotion, const char *mems)
{
	static const unsigned cpu_node[] = { 0, 0, 1, 1, 2, 2 };
	unsigned *cpus = malloc(2 * sizeof(*cpus));
	int n;

	if (!cpus)
		abort();
	*p = (struct placement){ 0 };
	*m = (struct pl_machine){ .tiers = &tiers, .demotion = demotion };
	p->machine = m;
	cpus[0] = 0;
	cpus[1] = 1;
	placement_set_cpus(p, cpus, 2, cpu_node, 6);
	n = rangelist_parse(mems, &p->mems);
	p->n_mems = n > 0 ? (size_t)n : 0;
	p->mems_known = n > 0;
}

static enum pl_class cls(const struct placement *p, enum pl_policy pol, const char *nodes,
			 enum pl_kind kind, unsigned node)
{
	unsigned *ids = NULL;
	int n = nodes ? rangelist_parse(nodes, &ids) : 0;
	struct pl_ask a = { pol, ids, n > 0 ? (size_t)n : 0 };
	enum pl_class c = placement_classify(p, &a, kind, node);

	free(ids);
	return c;
}

static void classes(void)
{
	struct placement p;
	struct pl_machine m;

	target(&p, &m, true, "0-3");
	CHECK(cls(&p, PL_POL_DEFAULT, NULL, PL_ANON, 0) == PL_C_LOCAL, "local: on its CPUs' node");
	CHECK(cls(&p, PL_POL_DEFAULT, NULL, PL_ANON, 1) == PL_C_REMOTE_ANON,
	      "remote anonymous: no policy asked for node 1");
	CHECK(cls(&p, PL_POL_DEFAULT, NULL, PL_FILE, 1) == PL_C_REMOTE_FILE &&
		      cls(&p, PL_POL_DEFAULT, NULL, PL_SHMEM, 2) == PL_C_REMOTE_FILE,
	      "remote file and shared: page cache and shared memory elsewhere");
	CHECK(cls(&p, PL_POL_INTERLEAVE, "0-2", PL_ANON, 1) == PL_C_AS_POLICY &&
		      cls(&p, PL_POL_INTERLEAVE, "0-2", PL_ANON, 0) == PL_C_AS_POLICY,
	      "interleave: every node it names is as its policy asks, the local one too");
	CHECK(cls(&p, PL_POL_WEIGHTED, "0,3", PL_ANON, 3) == PL_C_AS_POLICY,
	      "weighted interleave onto the slow tier: as its policy asks, not demoted");
	CHECK(cls(&p, PL_POL_BIND, "1", PL_ANON, 1) == PL_C_AS_POLICY,
	      "bind: on its node, though remote");
	CHECK(cls(&p, PL_POL_BIND, "1", PL_ANON, 0) == PL_C_OFF_POLICY,
	      "bind:1 over pages already on node 0 (no MPOL_MF_MOVE): off-policy, though local");
	CHECK(cls(&p, PL_POL_PREFER, "2", PL_ANON, 2) == PL_C_AS_POLICY &&
		      cls(&p, PL_POL_PREFER, "2", PL_ANON, 1) == PL_C_REMOTE_ANON,
	      "prefer: on its node as asked; elsewhere remote, prefer refuses no node");
	CHECK(cls(&p, PL_POL_PREFER_MANY, "1-2", PL_ANON, 2) == PL_C_AS_POLICY,
	      "prefer (many): any of its nodes");
	CHECK(cls(&p, PL_POL_BIND, "0", PL_ANON, 3) == PL_C_DEMOTED,
	      "bind:0 pages on the slower node 3, demotion on: demoted");
	CHECK(cls(&p, PL_POL_DEFAULT, NULL, PL_ANON, 3) == PL_C_DEMOTED,
	      "a default mapping's pages on the slower tier, demotion on: demoted");
	CHECK(cls(&p, PL_POL_BIND, "3", PL_ANON, 3) == PL_C_AS_POLICY,
	      "bound to the slow node itself: as its policy asks");
	CHECK(cls(&p, PL_POL_BIND, "0", PL_ANON, 1) == PL_C_OFF_POLICY,
	      "bind:0 pages on node 1, same tier: no demotion explains them");
	CHECK(cls(&p, PL_POL_INTERLEAVE, "0-1", PL_ANON, 2) == PL_C_OFF_POLICY,
	      "interleave:0-1 pages on node 2: off-policy");
	CHECK(cls(&p, PL_POL_BIND, "1", PL_FILE, 0) == PL_C_LOCAL,
	      "page cache is no one's to bind: local wherever it is on its CPUs' node");
	placement_free(&p);

	target(&p, &m, false, "0-3");
	CHECK(cls(&p, PL_POL_BIND, "0", PL_ANON, 3) == PL_C_OFF_POLICY,
	      "without demotion, bind:0 pages on node 3 are off-policy");
	CHECK(cls(&p, PL_POL_DEFAULT, NULL, PL_ANON, 3) == PL_C_REMOTE_ANON,
	      "and a default mapping's remote anonymous");
	placement_free(&p);

	target(&p, &m, true, "0");
	CHECK(cls(&p, PL_POL_DEFAULT, NULL, PL_ANON, 1) == PL_C_OFF_POLICY,
	      "a cpuset narrowed to node 0: node 1's anonymous pages off-policy");
	CHECK(cls(&p, PL_POL_INTERLEAVE, "0-1", PL_ANON, 1) == PL_C_OFF_POLICY,
	      "the cpuset wins over the policy's nodes");
	CHECK(placement_classify(&p, NULL, PL_ANON, 0) == PL_C_LOCAL &&
		      placement_classify(&p, NULL, PL_ANON, 2) == PL_C_OFF_POLICY,
	      "a cgroup's memory has no policy: its cpuset and CPUs decide");
	placement_free(&p);

	/* podman run --cpuset-cpus=0 --cpuset-mems=1: bound away from its CPUs on purpose. */
	target(&p, &m, true, "1");
	CHECK(placement_classify(&p, NULL, PL_ANON, 1) == PL_C_AS_POLICY &&
		      placement_classify(&p, NULL, PL_HUGE, 1) == PL_C_AS_POLICY,
	      "a cpuset that allows none of its CPUs' nodes: its memory there as it asks, "
	      "not remote anonymous");
	CHECK(placement_classify(&p, NULL, PL_ANON, 0) == PL_C_OFF_POLICY &&
		      placement_classify(&p, NULL, PL_ANON, 2) == PL_C_OFF_POLICY,
	      "and off-policy on the nodes it forbids, its CPUs' node too");
	CHECK(placement_classify(&p, NULL, PL_FILE, 1) == PL_C_REMOTE_FILE,
	      "page cache on the cpuset's node is still where it was first read");
	CHECK(placement_cpuset_away(&p), "the cpuset is said to be away from its CPUs");
	placement_free(&p);

	target(&p, &m, true, "1-2");
	CHECK(placement_classify(&p, NULL, PL_ANON, 2) == PL_C_AS_POLICY,
	      "away from its CPUs over two nodes: either is as it asks");
	placement_free(&p);

	target(&p, &m, true, "0-1");
	CHECK(placement_classify(&p, NULL, PL_ANON, 1) == PL_C_REMOTE_ANON &&
		      !placement_cpuset_away(&p),
	      "a cpuset that allows its CPUs' node too: node 1 stays remote anonymous");
	placement_free(&p);
}

static void pairs(void)
{
	unsigned out[4];

	placement_migrate_pairs((const unsigned[]){ 0 }, 1, (const unsigned[]){ 0, 1, 2 }, 3, out);
	CHECK(out[0] == UINT32_MAX, "migratepages P 0 0-2 moves nothing: 0 is in the new mask");
	placement_migrate_pairs((const unsigned[]){ 0 }, 1, (const unsigned[]){ 1 }, 1, out);
	CHECK(out[0] == 1, "migratepages P 0 1 moves node 0 to node 1");
	placement_migrate_pairs((const unsigned[]){ 1, 3 }, 2, (const unsigned[]){ 0 }, 1, out);
	CHECK(out[0] == 0 && out[1] == 0, "two sources, one destination: both go there");
	placement_migrate_pairs((const unsigned[]){ 0, 1 }, 2, (const unsigned[]){ 2, 3 }, 2, out);
	CHECK(out[0] == 2 && out[1] == 3, "equal masks pair by position");
	placement_migrate_pairs((const unsigned[]){ 0, 1 }, 2, (const unsigned[]){ 1, 2 }, 2, out);
	CHECK(out[0] == 1 && out[1] == 2, "equal sizes: a source in the new mask moves on");
}

static int add(struct placement *p, const char *line)
{
	char why[128];

	return placement_maps_add_line(p, line, strlen(line), why, sizeof(why));
}

/* The first fix whose command starts with prefix, NULL when none. */
static const struct pl_fix *fix(const struct pl_fixes *f, const char *prefix)
{
	for (size_t i = 0; i < f->n; i++)
		if (strncmp(f->v[i].cmd, prefix, strlen(prefix)) == 0)
			return &f->v[i];
	return NULL;
}

static uint64_t moved_from(const struct placement *p, unsigned from, unsigned to)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < p->n_moves; i++)
		if (p->moves[i].from == from && p->moves[i].to == to)
			pages += p->moves[i].pages;
	return pages;
}

/* A PATH_MAX-long path is printed whole; one too long to quote whole, not at all. */
static void test_long_path(struct placement *p, struct pl_fix_ctx *c, struct pl_fixes *f)
{
	static char path[2600];
	struct cg_unit plain = { .kind = CG_UNIT_PLAIN };
	const struct pl_fix_ctx keep = *c;

	c->unit = &plain;
	c->cgroup = path;
	path[0] = '/';
	memset(path + 1, 'a', 1099);
	placement_fixes(p, c, f);
	CHECK(f->n == 1 &&
		      strlen(f->v[0].cmd) == strlen("echo 0 > /sys/fs/cgroup/cpuset.mems") + 1100 &&
		      strcmp(f->v[0].cmd + strlen(f->v[0].cmd) - 12, "/cpuset.mems") == 0,
	      "a 1,100-byte path: printed whole (%zu)", f->n ? strlen(f->v[0].cmd) : 0);
	memset(path + 1, '\n', sizeof(path) - 2);
	placement_fixes(p, c, f);
	CHECK(f->n == 1 && !f->v[0].cmd[0] && strstr(f->v[0].note, "too long"),
	      "a path too long to quote whole: no command, never a cut one (%s)", f->v[0].note);
	*c = keep;
}

static void fixes(void)
{
	struct placement p;
	struct pl_machine m;
	struct pl_fixes f;
	struct pl_fix_ctx c = { .pid = 42, .balancing = "1" };
	const struct pl_fix *x;

	target(&p, &m, true, "0-3");
	p.pid = 42;
	CHECK(add(&p, "1000 bind:1 anon=2048 N0=2048 kernelpagesize_kB=4") == 0, "parses");
	placement_fixes(&p, &c, &f);
	CHECK(p.n_moves == 1 && moved_from(&p, 0, 1) == 2048 && p.moves[0].addr == 0x1000 &&
		      p.moves[0].cls == PL_C_OFF_POLICY,
	      "bind:1 over node 0: the plan moves its 2048 pages from 0 to 1");
	CHECK((x = fix(&f, "numastatctl")) &&
		      strcmp(x->cmd, "numastatctl placement --pid 42 --move") == 0,
	      "numastatctl's own move is the fix (%s)", x ? x->cmd : "");
	CHECK(fix(&f, "migratepages 42 0 1") != NULL,
	      "every page on node 0 is in the plan: migratepages 42 0 1 is exact too");
	placement_free(&p);

	/* Item: the fixes of one plan never undo each other. */
	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 bind:1 anon=2048 N0=2048 kernelpagesize_kB=4");
	add(&p, "2000 default anon=10 N1=10 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(moved_from(&p, 0, 1) == 2048 && moved_from(&p, 1, 0) == 10 && p.n_moves == 2,
	      "bind:1 pages go 0 -> 1 and the default mapping's 1 -> 0: per mapping, each "
	      "page once");
	CHECK(!fix(&f, "migratepages 42 1 0"),
	      "no migratepages 42 1 0, which would take the bound pages back off their node");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 bind:1 anon=2048 N0=2048 kernelpagesize_kB=4");
	add(&p, "2000 default anon=10 N1=10 kernelpagesize_kB=4");
	add(&p, "3000 default file=/lib/libc.so mapped=9 N0=9 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(!fix(&f, "migratepages"),
	      "node 0 not exact (page cache), node 1 exact but the plan fills it: no migratepages "
	      "at all, since after numastatctl's move 1 -> 0 would take the bound pages back");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 default anon=10 N0=5 N1=3 N2=2 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK((x = fix(&f, "migratepages")) && strcmp(x->cmd, "migratepages 42 1-2 0") == 0 &&
		      fix(&f, "numactl --cpunodebind=0 --membind=0 COMMAND"),
	      "remote anonymous on 1 and 2 only: one exact migratepages to node 0, and numactl");
	placement_free(&p);

	/* Item: shared memory is never moved, by the plan or a printed command. */
	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 default anon=8 N1=8 kernelpagesize_kB=4");
	add(&p, "2000 default file=/SYSV00000000\\040(deleted) dirty=8192 N1=8192 "
		"kernelpagesize_kB=4");
	add(&p, "3000 default file=/dev/shm/x dirty=4 mapmax=2 N1=4 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(p.n_moves == 1 && moved_from(&p, 1, 0) == 8,
	      "SysV shm and tmpfs pages on node 1 are not in the plan, the 8 private ones are");
	CHECK(!fix(&f, "migratepages"),
	      "no migratepages: it would move the shared segments on node 1 too");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 default anon=8 mapmax=3 N1=8 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	struct pl_verdict v;

	placement_verdict(&p, NULL, 0, &v);
	CHECK(p.n_moves == 0 && v.cls[PL_C_REMOTE_FILE] == 8 * 4 * KB && !v.actionable,
	      "anonymous pages other processes map too (mapmax=3): shared, not actionable");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 default anon=10 N1=10 kernelpagesize_kB=4");
	add(&p, "2000 interleave:0-1 anon=10 N0=5 N1=5 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(moved_from(&p, 1, 0) == 10 && !fix(&f, "migratepages") &&
		      !f.held[PL_C_REMOTE_ANON][0],
	      "node 1 also holds interleaved pages: the plan moves only the default mapping's");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 bind:0 anon=10 N0=2 N3=8 kernelpagesize_kB=4");
	add(&p, "2000 interleave:0-2 anon=3 N0=1 N1=1 N2=1 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 0 && p.n_moves == 0, "demoted and interleaved pages: nothing to fix");
	placement_free(&p);

	/* Item: NUMA balancing is offered for default mappings only. */
	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 default anon=4 N1=4 kernelpagesize_kB=4");
	c.balancing = "0";
	placement_fixes(&p, &c, &f);
	CHECK(fix(&f, "sysctl -w kernel.numa_balancing=1") != NULL,
	      "balancing off, a default mapping remote: the sysctl that turns it on");
	placement_free(&p);
	target(&p, &m, true, "0-3");
	p.pid = 42;
	add(&p, "1000 local anon=4 N1=4 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(!fix(&f, "sysctl") && p.remote_default == 0 && p.n_moves == 1,
	      "an MPOL_LOCAL mapping remote: moved by the plan, never offered to balancing, "
	      "which leaves it");
	c.balancing = "1";
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=4 N1=4 kernelpagesize_kB=4");
	c = (struct pl_fix_ctx){ .is_cgroup = true,
				 .cgroup = "/system.slice/db.service",
				 .balancing = "1" };
	placement_fixes(&p, &c, &f);
	CHECK((x = fix(&f, "systemctl")) &&
		      strcmp(x->cmd, "systemctl set-property db.service AllowedMemoryNodes=0") == 0,
	      "a unit: systemctl set-property (%s)", x ? x->cmd : "");
	c.cgroup = "/batch/job1";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && strcmp(f.v[0].cmd, "echo 0 > /sys/fs/cgroup/batch/job1/cpuset.mems") == 0,
	      "a cgroup that is no unit: its cpuset.mems (%s)", f.n ? f.v[0].cmd : "");
	c.cgroup = "/user.slice/user-1000.slice/user@1000.service/app.slice/sshd.service";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && strcmp(f.v[0].cmd, "systemctl --user -M 1000@ set-property sshd.service "
					     "AllowedMemoryNodes=0") == 0,
	      "a user manager's unit: its manager, never the system's unit of that name (%s)",
	      f.n ? f.v[0].cmd : "");
	c.cgroup = "/user.slice/user-1000.slice/user@1000.service/app.slice/a;id;b.service";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && !f.v[0].cmd[0] && strstr(f.v[0].note, "user manager"),
	      "a name no unit has in a user's tree: no command, and why (%s)", f.v[0].note);
	c.cgroup = "/system.slice/docker.service/sshd.service";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && !f.v[0].cmd[0] && strstr(f.v[0].note, "delegate"),
	      "below a unit's own cgroup: no command (%s)", f.v[0].note);
	c.cgroup = "/batch/x$(touch${IFS}PWNED)y\n'";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && strcmp(f.v[0].cmd, "echo 0 > $'/sys/fs/cgroup/batch/x$(touch${IFS}PWNED)y"
					     "\\x0a\\'/cpuset.mems'") == 0,
	      "a hostile name: the path one quoted word (%s)", f.n ? f.v[0].cmd : "");
	test_long_path(&p, &c, &f);
	c.cgroup = "/kubepods.slice/kubepods-pod1.slice/cri-containerd-ab.scope";
	c.managed = true;
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 0,
	      "a container: no cpuset.mems or unit property, which its runtime and "
	      "kubelet own (%s)",
	      f.n ? f.v[0].cmd : "");
	c.cgroup = "/machine.slice/libpod-0123456789abcdef.scope";
	c.podman_id = "0123456789abcdef";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && strcmp(f.v[0].cmd, "podman update --cpuset-mems=0 0123456789ab") == 0,
	      "a podman container outside a pod: podman update, which moves it (%s)",
	      f.n ? f.v[0].cmd : "");
	c.podman_id = NULL;
	c.managed = false;
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=4 N1=4 kernelpagesize_kB=4");
	add(&p, "2000 default file=/dev/shm/seg dirty=4 N1=4 kernelpagesize_kB=4");
	c.cgroup = "/system.slice/db.service";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && !f.v[0].cmd[0] && strstr(f.v[0].note, "shared memory"),
	      "shared memory off its CPUs' nodes: no cpuset.mems that would move it (%s)",
	      f.v[0].note);
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=8 N1=4 N3=4 kernelpagesize_kB=4");
	c.cgroup = "/batch/job1";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && !f.v[0].cmd[0] && strstr(f.v[0].note, "placed pages"),
	      "a cgroup with demoted pages: no narrower cpuset.mems, which would move them back, "
	      "and why (%zu)",
	      f.n);
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=8 N1=4 kernelpagesize_kB=4");
	add(&p, "2000 default file=/srv/db dirty=1 N1=4 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(fix(&f, "echo") != NULL,
	      "a cgroup with page cache on node 1: its cpuset.mems all the same (page cache is "
	      "no one's policy, and every cpuset change moves it)");
	placement_free(&p);
}

/* Distances of the test machine: 10 to itself, 10 more per step between ids. */
static unsigned dist(const void *ctx, unsigned a, unsigned b)
{
	(void)ctx;
	return a == b ? 10 : 10 + 10 * (a > b ? a - b : b - a);
}

static void machine_rules(void)
{
	struct placement p;
	struct pl_machine m;
	struct pl_verdict v;
	unsigned near0[] = { 0 }, into[4];
	struct pl_near nr = { 1, near0, 1 };
	static const unsigned cpu_node[] = { 0, 1 };
	unsigned *cpus = malloc(sizeof(*cpus));
	uint64_t demoted[4] = { 0 };
	static const unsigned nodes[] = { 0, 1, 2, 3 };

	/* Item: a CPU on a memoryless node is local to its nearest memory. */
	p = (struct placement){ 0 };
	m = (struct pl_machine){ .near = &nr, .n_near = 1, .distance = dist };
	p.machine = &m;
	cpus[0] = 1;
	placement_set_cpus(&p, cpus, 1, cpu_node, 2);
	CHECK(p.n_local == 1 && p.local[0] == 0,
	      "CPUs on memoryless node 1: node 0, the nearest memory, is its local memory");
	add(&p, "1000 default anon=4 N0=4 kernelpagesize_kB=4");
	add(&p, "2000 default anon=6 N3=6 kernelpagesize_kB=4");
	placement_verdict(&p, NULL, 0, &v);
	CHECK(v.cls[PL_C_LOCAL] == 4 * 4 * KB && v.cls[PL_C_REMOTE_ANON] == 6 * 4 * KB &&
		      moved_from(&p, 3, 0) == 6,
	      "on the near node: local; on the far node 3: remote, moved to node 0");
	placement_free(&p);

	/* Item: a thread's CPUs are the process's too. */
	cpus = malloc(2 * sizeof(*cpus));
	p = (struct placement){ 0 };
	m = (struct pl_machine){ .distance = dist };
	p.machine = &m;
	cpus[0] = 0;
	cpus[1] = 1;
	placement_set_cpus(&p, cpus, 2, cpu_node, 2);
	add(&p, "1000 default anon=8203 N1=8203 kernelpagesize_kB=4");
	placement_verdict(&p, NULL, 0, &v);
	CHECK(v.cls[PL_C_LOCAL] == 8203 * 4 * KB && !p.n_moves && !v.actionable,
	      "a worker thread on CPU 1: its memory on node 1 is local, never moved away");
	placement_free(&p);

	/* Item: demotion_enabled without pgdemote_* counted is no demotion. */
	target(&p, &m, false, "0-3");
	add(&p, "1000 default anon=8192 N3=8192 kernelpagesize_kB=4");
	placement_verdict(&p, NULL, 0, &v);
	CHECK(v.cls[PL_C_REMOTE_ANON] == 8192 * 4 * KB && !v.cls[PL_C_DEMOTED],
	      "no demotion counted: pages on the slow node are remote anonymous, not demoted");
	placement_free(&p);
	target(&p, &m, true, "0-3");
	m.demoted_to = (const unsigned[]){ 2 };
	m.n_demoted_to = 1;
	add(&p, "1000 default anon=8 N3=8 kernelpagesize_kB=4");
	placement_verdict(&p, NULL, 0, &v);
	CHECK(!v.cls[PL_C_DEMOTED] && v.cls[PL_C_REMOTE_ANON] == 8 * 4 * KB,
	      "counters show demotions into another node only: not demoted here");
	placement_free(&p);

	CHECK(placement_machine_demoted_to(&tiers, nodes, demoted, 4, into) == 0,
	      "no pgdemote_* anywhere: no node demoted into");
	demoted[1] = 5;
	CHECK(placement_machine_demoted_to(&tiers, nodes, demoted, 4, into) == 1 && into[0] == 3,
	      "node 1 (fast) demoted: the slower node 3 is where they may be");
	demoted[1] = 0;
	demoted[3] = 7;
	CHECK(placement_machine_demoted_to(&tiers, nodes, demoted, 4, into) == 1 && into[0] == 3,
	      "counted on the slow node itself (kernels counting the destination): node 3");

	/* The destination of a remote page: the nearest local node. */
	cpus = malloc(2 * sizeof(*cpus));
	p = (struct placement){ 0 };
	m = (struct pl_machine){ .distance = dist };
	p.machine = &m;
	cpus[0] = 0;
	cpus[1] = 2;
	placement_set_cpus(&p, cpus, 2, (const unsigned[]){ 0, 0, 2 }, 3);
	CHECK(placement_remote_home(&p, 3) == 2 && placement_remote_home(&p, 1) == 0,
	      "node 3's pages go to node 2, the nearer of its local nodes; node 1's to 0");
	placement_free(&p);
}

static void nearest(void)
{
	/* Node 1 has CPUs and no memory; 0 at 12, 2 at 30, 3 at 12. */
	static const unsigned d[] = {
		10, 12, 21, 21, 12, 10, 30, 12, 21, 30, 10, 21, 21, 12, 21, 10
	};
	static const unsigned nodes[] = { 0, 1, 2, 3 }, mem[] = { 0, 2, 3 };
	unsigned out[4];
	size_t n = node_distance_nearest(d, nodes, 4, 1, mem, 3, out);

	CHECK(n == 2 && out[0] == 0 && out[1] == 3,
	      "a memoryless node's nearest memory: every node at the least distance (0, 3)");
}

static void tally(void)
{
	struct page_move_stat s = { 0 };

	page_move_tally(1, 1, &s);
	page_move_tally(0, 1, &s);
	page_move_tally(-EACCES, 1, &s);
	page_move_tally(-ENOENT, 1, &s);
	page_move_tally(-EFAULT, 1, &s);
	page_move_tally(-EBUSY, 1, &s);
	CHECK(s.moved == 1 && s.failed == 2 && s.shared == 1 && s.absent == 2,
	      "move_pages statuses: on the node asked (moved), elsewhere or -EBUSY (failed), "
	      "-EACCES (shared), -ENOENT/-EFAULT (gone)");
}

static void copied_pages(void)
{
	struct placement p;
	struct pl_machine m;
	struct pl_verdict v;

	target(&p, &m, true, "0-3");
	add(&p, "1000 default file=/lib/a.so anon=1 mapped=10 N0=10 N1=1 kernelpagesize_kB=4");
	add(&p, "2000 default file=/lib/b.so anon=2 mapped=5 N0=5 kernelpagesize_kB=4");
	add(&p, "3000 default file=/lib/c.so anon=2 mapped=6 N1=6 kernelpagesize_kB=4");
	placement_verdict(&p, NULL, 0, &v);
	CHECK(v.cls[PL_C_UNKNOWN] == 4 * KB,
	      "a.so's copied page may be on node 0 or 1: unknown (%llu)",
	      (unsigned long long)v.cls[PL_C_UNKNOWN]);
	CHECK(v.cls[PL_C_REMOTE_ANON] == 2 * 4 * KB,
	      "c.so wholly on node 1: its copied pages are remote anonymous, exactly");
	CHECK(v.cls[PL_C_LOCAL] == (10 + 5) * 4 * KB,
	      "b.so wholly local, with a.so's node 0 pages");
	placement_free(&p);
}

int main(void)
{
	classes();
	pairs();
	fixes();
	machine_rules();
	nearest();
	tally();
	copied_pages();
	return tap_done();
}
