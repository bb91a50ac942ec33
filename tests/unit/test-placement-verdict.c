// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement's verdict, rule by rule: each class from the intent behind a
 * page, migrate_pages(2)'s pairing of nodes, and the commands built on it.
 */
#include <stdlib.h>
#include <string.h>

#include "cg-unit.h"
#include "nodes.h"
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

	target(&p, &m, true, "0-3");
	CHECK(add(&p, "1000 bind:1 anon=2048 N0=2048 kernelpagesize_kB=4") == 0, "parses");
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && f.v[0].cls == PL_C_OFF_POLICY &&
		      strcmp(f.v[0].cmd, "migratepages 42 0 1") == 0 && !f.v[0].note[0],
	      "bind:1 over node 0: migratepages 42 0 1 (%s)", f.n ? f.v[0].cmd : "");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=10 N0=5 N1=3 N2=2 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 2 && strcmp(f.v[0].cmd, "migratepages 42 1-2 0") == 0 &&
		      strcmp(f.v[1].cmd, "numactl --cpunodebind=0 --membind=0 COMMAND") == 0,
	      "remote anonymous on 1 and 2: one command to node 0, and numactl");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=10 N1=10 kernelpagesize_kB=4");
	add(&p, "2000 interleave:0-1 anon=10 N0=5 N1=5 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && strncmp(f.v[0].cmd, "numactl", 7) == 0 &&
		      strcmp(f.held[PL_C_REMOTE_ANON], "1") == 0,
	      "node 1 also holds interleaved pages: no migratepages from it, said");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 bind:0 anon=10 N0=2 N3=8 kernelpagesize_kB=4");
	add(&p, "2000 interleave:0-2 anon=3 N0=1 N1=1 N2=1 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 0, "demoted and interleaved pages: nothing to fix");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=8 N1=8 kernelpagesize_kB=4");
	add(&p, "2000 default file=/lib/libc.so anon=1 mapped=10 N0=5 N1=5 kernelpagesize_kB=4");
	placement_fixes(&p, &c, &f);
	CHECK(f.n >= 1 && strcmp(f.v[0].cmd, "migratepages 42 1 0") == 0,
	      "a node with a default mapping's copied pages of unknown node is still a source "
	      "(%s)",
	      f.n ? f.v[0].cmd : "");
	placement_free(&p);

	target(&p, &m, true, "0-3");
	add(&p, "1000 default anon=4 N1=4 kernelpagesize_kB=4");
	c.balancing = "0";
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 3 && strcmp(f.v[2].cmd, "sysctl -w kernel.numa_balancing=1") == 0,
	      "balancing off: the sysctl that turns it on");
	c = (struct pl_fix_ctx){ .is_cgroup = true,
				 .cgroup = "/system.slice/db.service",
				 .balancing = "1" };
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 1 && strcmp(f.v[0].cmd,
				 "systemctl set-property db.service AllowedMemoryNodes=0") == 0,
	      "a unit: systemctl set-property (%s)", f.n ? f.v[0].cmd : "");
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
	placement_fixes(&p, &c, &f);
	CHECK(f.n == 0 && strcmp(f.held[PL_C_REMOTE_ANON], "3") == 0,
	      "a cgroup with demoted pages: no narrower cpuset.mems, which would move them back "
	      "(%zu, %s)",
	      f.n, f.held[PL_C_REMOTE_ANON]);
	placement_free(&p);
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
	copied_pages();
	return tap_done();
}
