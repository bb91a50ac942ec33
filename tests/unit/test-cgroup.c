// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memory.numa_stat (cg-numa.c), finding cgroups (cg-find.c) and the cpuset
 * that holds a cgroup's processes (cg-cpuset.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg-cpuset.h"
#include "cg-events.h"
#include "cg-find.h"
#include "cg-numa.h"
#include "sysfs.h"
#include "tap.h"

static char why[256];

static int parse(const char *text, struct cg_numa *s)
{
	return cg_numa_parse(text, strlen(text), s, why, sizeof(why));
}

static void test_parse_good(void)
{
	struct cg_numa s, c;

	CHECK(parse("anon N0=98304 N1=180224 N2=110592 N3=0\nfile N0=0 N1=1986560 N2=0 N3=0\n"
		    "kernel_stack N0=0 N1=16384 N2=0 N3=0\nslab_reclaimable N0=22664 N1=0 N2=1696 N3=1296\n"
		    "workingset_refault_anon N0=7 N1=0 N2=0 N3=0\n",
		    &s) == 0,
	      "6.1 lines parse");
	CHECK(s.n_items == 5 && s.n_nodes == 4 && s.node[3] == 3, "five items, four nodes");
	CHECK(CG_V(&s, 0, 1) == 180224 && CG_V(&s, 3, 2) == 1696, "values by item and node");
	CHECK(cg_numa_item(&s, "file") == 1 && cg_numa_item(&s, "shmem") == -1, "items by name");
	CHECK(cg_numa_node(&s, 2) == 2 && cg_numa_node(&s, 7) == -1, "nodes by id");
	CHECK(cg_numa_node_total(&s, 1) == 180224 + 1986560 + 16384,
	      "a node's total: anon + file + "
	      "kernel_stack + slab, not the event counts");
	CHECK(cg_numa_copy(&c, &s) == 0 && c.n_items == 5 && CG_V(&c, 4, 0) == 7 &&
		      strcmp(c.name[2], "kernel_stack") == 0,
	      "a deep copy");
	cg_numa_free(&c);
	cg_numa_free(&s);
	CHECK(parse("anon N1=5 N4=6\nfile N1=0 N4=18446744073709551615\n", &s) == 0 &&
		      s.node[0] == 1 && s.node[1] == 4 && CG_V(&s, 1, 1) == UINT64_MAX,
	      "sparse node ids (N_MEMORY nodes only) and the largest u64");
	CHECK(cg_numa_node_total(&s, 1) == UINT64_MAX, "a total saturates, it does not wrap");
	cg_numa_free(&s);
	CHECK(cg_item_is_count("workingset_refault_anon") && cg_item_is_count("pgdemote_kswapd") &&
		      cg_item_is_count("pgpromote_success") && !cg_item_is_count("anon") &&
		      !cg_item_is_count("kernel_stack") && !cg_item_is_count("hugetlb"),
	      "event items are counts, the others bytes");
}

static void test_parse_bad(void)
{
	struct cg_numa s;

	CHECK(parse("total=770492 N0=770492\nfile=765504 N0=765504\n", &s) == -EPROTO,
	      "cgroup v1's format is recognised");
	CHECK_STR(why, "cgroup v1's format (total=..., in pages), not v2's", "and said");
	CHECK(s.v == NULL && s.n_items == 0, "nothing is kept on failure");
	CHECK(parse("", &s) == -EBADMSG, "an empty file");
	CHECK(parse("anon\n", &s) == -EBADMSG, "an item without nodes");
	CHECK(parse("anon N0=1 N1=2\nfile N0=1\n", &s) == -EBADMSG, "fewer nodes than line 1");
	CHECK_STR(why, "line 2: expected N<node>=<value>", "naming the line");
	CHECK(parse("anon N0=1\nfile N0=1 N1=2\n", &s) == -EBADMSG, "more nodes than line 1");
	CHECK(parse("anon N0=1 N1=2\nfile N1=1 N0=2\n", &s) == -EBADMSG, "other nodes than line 1");
	CHECK(parse("anon N1=1 N0=2\n", &s) == -EBADMSG, "nodes out of order");
	CHECK(parse("anon N0=1 N0=2\n", &s) == -EBADMSG, "a node twice");
	CHECK(parse("anon N0=1\nanon N0=2\n", &s) == -EBADMSG, "an item twice");
	CHECK(parse("anon N0=-1\n", &s) == -EBADMSG, "a negative value");
	CHECK(parse("anon N0=18446744073709551616\n", &s) == -EBADMSG, "u64 overflow");
	CHECK(parse("anon N0=1 \n", &s) == -EBADMSG, "a trailing space");
	CHECK(parse("anon  N0=1\n", &s) == -EBADMSG, "two spaces");
	CHECK(parse("anon N0=\n", &s) == -EBADMSG, "no value");
	CHECK(parse("anon N=1\n", &s) == -EBADMSG, "no node id");
	CHECK(parse("anon N65536=1\n", &s) == -EBADMSG, "a node id above the largest");
	CHECK(parse("Anon N0=1\n", &s) == -EBADMSG, "capitals in an item");
	CHECK(parse("anon N0=1\r\n", &s) == -EBADMSG, "CRLF");
	CHECK(parse("anon N0=1", &s) == -EBADMSG, "no final newline");
	CHECK(cg_numa_parse("anon N0=1\n\0", 11, &s, why, sizeof(why)) == -EBADMSG, "a NUL byte");
	CHECK(parse("a_name_that_is_far_longer_than_thirty_nine N0=1\n", &s) == -EBADMSG,
	      "an item name too long");
}

static void test_names(void)
{
	CHECK(cg_is_unit("nginx.service") && cg_is_unit("user-1000.slice") &&
		      cg_is_unit("session-2.scope") && cg_is_unit("-.slice"),
	      "units");
	CHECK(!cg_is_unit("system.slice/nginx.service") && !cg_is_unit(".service") &&
		      !cg_is_unit("nginx") && !cg_is_unit("timer.timer"),
	      "not units");
	CHECK(cg_is_pattern("*.service") && cg_is_pattern("a?b") && cg_is_pattern("[ab]") &&
		      !cg_is_pattern("/a/b"),
	      "patterns");
}

static int use(const char *name)
{
	const char *fx = getenv("FIXTURES");
	char root[4096];

	snprintf(root, sizeof(root), "%s/%s", fx ? fx : ".", name);
	return sysfs_init(root);
}

/* Resolve arg and compare the paths found with want ("a b"). */
static void resolves(const char *root, const char *arg, int rc, const char *want)
{
	struct cg_list l = { 0 };
	char got[1024] = "";
	int r = cg_resolve(root, arg, &l, why, sizeof(why));

	for (size_t i = 0; i < l.n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "",
			 l.path[i]);
	CHECK(r == rc, "'%s' returns %d (got %d)", arg, rc, r);
	CHECK_STR(got, want, "'%s' names %s", arg, want);
	cg_list_free(&l);
}

static void test_find(void)
{
	char root[CG_ROOT_MAX];

	CHECK(use("effect-6.1") == 0 && cg_root_find(root, sizeof(root)) == CG_ROOT_OK,
	      "6.1 fixture: v2 with memory");
	CHECK_STR(root, "/sys/fs/cgroup", "at /sys/fs/cgroup");
	resolves(root, "nginx.service", 1, "/system.slice/nginx.service");
	resolves(root, "user-1000.slice", 1, "/user.slice/user-1000.slice");
	resolves(root, "-.slice", 1, "/");
	resolves(root, "user@1000.service", 1, "/user.slice/user-1000.slice/user@1000.service");
	resolves(root, "/", 1, "/");
	resolves(root, "/sys/fs/cgroup", 1, "/");
	resolves(root, "/sys/fs/cgroup/init.scope", 1, "/init.scope");
	resolves(root, "system.slice//db.service/", 1, "/system.slice/db.service");
	resolves(
		root, "system.slice/*", 3,
		"/system.slice/db.service /system.slice/nginx.service /system.slice/we\"ird\\name.service");
	resolves(root, "*.slice", 3, "/system.slice /user.slice /user.slice/user-1000.slice");
	resolves(root, "worker", -ENOENT, ""); /* a plain name is a path from the root */
	resolves(root, "*.nothing", 0, "");
	resolves(root, "nope.service", -ENOENT, "");
	resolves(root, "/system.slice/../..", -EINVAL, "");
	resolves(root, "system.slice/./x", -EINVAL, "");
	CHECK(use("effect-5.10") == 0 && cg_root_find(root, sizeof(root)) == CG_ROOT_V1_ONLY,
	      "5.10 fixture: the memory controller on v1");
	CHECK(use("effect-6.18") == 0 && cg_root_find(root, sizeof(root)) == CG_ROOT_NO_MEMORY,
	      "6.18 fixture: v2 without memory");
	CHECK(use("knobs-few") == 0 && cg_root_find(root, sizeof(root)) == CG_ROOT_NONE,
	      "no cgroup hierarchy at all");
}

/*
 * A cgroup whose name holds a glob character ('[', '*', '?' are all
 * allowed in a directory name) is taken as it is where it exists; the
 * same argument is a pattern only where no such cgroup is.
 */
static void test_literal(void)
{
	char tmp[512], cmd[1600], root[CG_ROOT_MAX];

	snprintf(tmp, sizeof(tmp), "%s/numastatctl-cg.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp)) {
		tap_result(1, "literal names # SKIP no temporary directory");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p sys/fs/cgroup/s.slice/'app[1].service' "
		 "sys/fs/cgroup/s.slice/app1.service sys/fs/cgroup/s.slice/'job*' "
		 "sys/fs/cgroup/s.slice/jobA sys/fs/cgroup/'q?' sys/fs/cgroup/qa && "
		 "echo 'cpu memory' >sys/fs/cgroup/cgroup.controllers",
		 tmp);
	CHECK(system(cmd) == 0 && sysfs_init(tmp) == 0 &&
		      cg_root_find(root, sizeof(root)) == CG_ROOT_OK,
	      "a tree whose cgroups have glob characters in their names");
	resolves(root, "/s.slice/app[1].service", 1, "/s.slice/app[1].service");
	resolves(root, "/sys/fs/cgroup/s.slice/app[1].service", 1, "/s.slice/app[1].service");
	resolves(root, "s.slice/job*", 1, "/s.slice/job*");
	resolves(root, "q?", 1, "/q?");
	resolves(root, "/s.slice/app[12].service", 1, "/s.slice/app1.service");
	resolves(root, "s.slice/jo?*", 2, "/s.slice/job* /s.slice/jobA");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	CHECK(system(cmd) == 0, "the tree removed");
}

/* The nodes cg_cpuset_read() gives for cg, as "from:mems", or the error. */
static void cpuset_is(const char *root, const char *cg, const char *want, const char *desc)
{
	struct cg_cpuset cs;
	char got[CG_PATH_MAX + 64] = "";
	int r = cg_cpuset_read(root, cg, &cs, why, sizeof(why));

	if (r == 0 && cs.found)
		snprintf(got, sizeof(got), "%s:%u%s", cs.from, cs.n_mems ? cs.mems[0] : 99,
			 cs.n_mems > 1 ? "+" : "");
	else
		snprintf(got, sizeof(got), "r=%d found=%d", r, cs.found);
	CHECK_STR(got, want, "%s", desc);
	cg_cpuset_free(&cs);
}

/*
 * A podman container under crun: the scope holds no process and one child,
 * "container", with the processes and the cpuset podman asked for.
 */
static void test_process_group(void)
{
	char tmp[512], cmd[4096], root[CG_ROOT_MAX];

	snprintf(tmp, sizeof(tmp), "%s/numastatctl-cs.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp)) {
		tap_result(1, "the process group # SKIP no temporary directory");
		return;
	}
	snprintf(
		cmd, sizeof(cmd),
		"mkdir -p '%s/sys/fs/cgroup' && cd '%s/sys/fs/cgroup' && "
		"echo 'cpuset memory' >cgroup.controllers && "
		"for g in . m/crun m/crun/container m/busy m/busy/container m/two m/two/a m/two/b m/old m/old/container; do "
		"mkdir -p $g && echo 0-3 >$g/cpuset.cpus.effective && echo 0-3 >$g/cpuset.mems.effective; done && "
		": >m/crun/cgroup.procs && echo 7 >m/crun/container/cgroup.procs && "
		"echo 1 >m/crun/container/cpuset.mems.effective && "
		"echo 8 >m/busy/cgroup.procs && echo 1 >m/busy/container/cpuset.mems.effective && "
		": >m/two/cgroup.procs && echo 1 >m/two/a/cpuset.mems.effective && "
		"echo 1 >m/old/container/cpuset.mems.effective",
		tmp, tmp);
	if (system(cmd) != 0 || sysfs_init(tmp) != 0 ||
	    cg_root_find(root, sizeof(root)) != CG_ROOT_OK) {
		tap_result(1, "the process group # SKIP the tree could not be made");
		return;
	}
	cpuset_is(root, "/m/crun", "/m/crun/container:1",
		  "no process and one child: read where crun put its processes and cpuset");
	cpuset_is(root, "/m/busy", "/m/busy:0+",
		  "a group with processes of its own: its own cpuset");
	cpuset_is(root, "/m/two", "/m/two:0+", "two children: which one is not guessed");
	cpuset_is(root, "/m/old", "/m/old:0+", "no cgroup.procs to read: not descended");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	CHECK(system(cmd) == 0, "the tree removed");
}

/* memory.stat's NUMA events: the keys there are, the others passed over. */
static void test_events(void)
{
	static const char v612[] = "anon 8192\nfile 4096\nnuma_pages_migrated 8192\n"
				   "numa_pte_updates 9000\nnuma_hint_faults 8500\n"
				   "pgdemote_kswapd 7\npgdemote_direct 0\n"
				   "pgdemote_khugepaged 0\npgpromote_success 3\n";
	static const char v61[] = "anon 8192\nfile 4096\nworkingset_nodereclaim 0\n";
	struct cg_events e;

	CHECK(cg_events_parse(v612, strlen(v612), &e, why, sizeof(why)) == 0 && cg_events_any(&e),
	      "a 6.12 memory.stat");
	CHECK(e.have[CG_EV_NUMA_PAGES_MIGRATED] && e.v[CG_EV_NUMA_PAGES_MIGRATED] == 8192 &&
		      e.v[CG_EV_NUMA_PTE_UPDATES] == 9000 && e.v[CG_EV_NUMA_HINT_FAULTS] == 8500 &&
		      e.v[CG_EV_PGDEMOTE_KSWAPD] == 7 && e.v[CG_EV_PGPROMOTE_SUCCESS] == 3,
	      "every event read by its key, in any order");
	CHECK(cg_events_parse(v61, strlen(v61), &e, why, sizeof(why)) == 0 && !cg_events_any(&e),
	      "a 6.1 memory.stat: no event, none taken for 0");
	CHECK(cg_events_parse("numa_pte_updates 1\nnuma_pte_updates 2\n", 38, &e, why,
			      sizeof(why)) == -EBADMSG,
	      "a key twice: refused");
	CHECK_STR(why, "line 2: a key given twice", "saying where");
	CHECK(cg_events_parse("numa_hint_faults x\n", 19, &e, why, sizeof(why)) == -EBADMSG,
	      "a value that is not a number: refused");
	CHECK(cg_events_parse("numa_hint_faults 5", 18, &e, why, sizeof(why)) == -EBADMSG,
	      "a text cut before its last newline: refused");
	CHECK(cg_events_parse("numa_hint_faultsx 5\nfoo\n", 24, &e, why, sizeof(why)) == 0 &&
		      !cg_events_any(&e),
	      "a longer key, a line without a value: not ours, passed over");
}

int main(void)
{
	test_parse_good();
	test_parse_bad();
	test_names();
	test_find();
	test_literal();
	test_events();
	test_process_group();
	return tap_done();
}
