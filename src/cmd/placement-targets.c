// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement's targets: the processes of --pid, the cgroups of --cgroup, the
 * containers of --container and --pod, each read with its plan (placement-cmd.h).
 */
#include "array.h"
#include "cg-cpuset.h"
#include "cg-find.h"
#include "cg-numa.h"
#include "cg-procs.h"
#include "cgroup-root.h"
#include "cmd.h"
#include "log.h"
#include "nodes.h"
#include "placement-cmd.h"
#include "placement-containers.h"
#include "placement-machine.h"
#include "placement.h"
#include "procmaps.h"
#include "sysfs.h"
#include "why.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct target *new_target(struct pctx *x)
{
	if (array_grow(&x->t, &x->cap, x->n + 1, sizeof(*x->t)) < 0)
		return NULL;
	x->t[x->n] = (struct target){ 0 };
	return &x->t[x->n++];
}

/* An argument shown in a message: 256 bytes are enough to recognise it. */
static const char *cut(const char *arg, char *out, size_t size)
{
	if (strlen(arg) < size)
		return arg;
	snprintf(out, size, "%.*s...", (int)(size - 4), arg);
	return out;
}

/* Every --pid argument into l.  EXIT_OK, or EXIT_FAIL after a message. */
static int resolve_pids(const struct popts *o, struct proc_list *l, struct proc_list *named,
			struct proc_list *per_arg)
{
	unsigned *all = NULL, pid;
	int n_all = -1, rc = EXIT_OK, r;
	char shown[256];

	for (size_t i = 0; i < o->n_pids; i++) {
		const char *arg = o->pids[i];

		if (proc_pid_operand(arg, &pid)) {
			if (pid > PROC_PID_MAX) {
				log_err("--pid '%s': not a process id (at most %d)",
					cut(arg, shown, sizeof(shown)), PROC_PID_MAX);
				rc = EXIT_FAIL;
			} else if (proc_list_add(l, pid) < 0 || proc_list_add(named, pid) < 0 ||
				   proc_list_add(&per_arg[i], pid) < 0)
				goto oom;
			continue;
		}
		if (n_all < 0 && (n_all = proc_pids(&all)) < 0) {
			log_err("/proc: %s", strerror(-n_all));
			return EXIT_FAIL;
		}
		r = proc_list_match(&per_arg[i], arg, all, (size_t)n_all, (unsigned)getpid());
		for (size_t k = 0; r > 0 && k < per_arg[i].n; k++)
			if (proc_list_add(l, per_arg[i].v[k]) < 0)
				r = -ENOMEM;
		proc_list_sort_unique(&per_arg[i]);
		if (r < 0)
			goto oom;
		if (r == 0) {
			log_err("--pid '%s': no process matches (by name; '" PROC_CMDLINE_PREFIX
				"PATTERN' looks in the command lines)",
				cut(arg, shown, sizeof(shown)));
			rc = EXIT_FAIL;
		}
	}
	free(all);
	proc_list_sort_unique(l);
	proc_list_sort_unique(named);
	return rc;
oom:
	free(all);
	log_err("out of memory");
	return EXIT_FAIL;
}

static bool named(const struct proc_list *l, unsigned pid)
{
	return rangelist_has(l->v, l->n, pid);
}

/* Is /proc/PID still there (its status readable)? */
static bool still_there(unsigned pid)
{
	char path[64], buf[8];

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	return sysfs_read_file(path, buf, sizeof(buf)) >= 0 ||
	       sysfs_read_file(path, buf, sizeof(buf)) == -EFBIG;
}

/*
 * One process.  A process named by its PID that is gone is said (1); one a
 * pattern found that went since, or a kernel thread (no mappings), is no
 * news and left out (0).  -1 after saying why it could not be read.
 */
int placement_targets_read_process(struct pctx *x, struct target *t, bool by_pid)
{
	struct proc_allowed a;
	char why[WHY_MAX];
	int r = proc_allowed_read_threads(t->pid, &a, &t->threads, why, sizeof(why));

	t->p.machine = &x->m.pl;
	t->p.pid = t->pid;
	if (r == 0) {
		t->p.mems = a.mems;
		t->p.n_mems = a.n_mems;
		t->p.mems_known = a.has_mems;
		a.mems = NULL;
		r = placement_set_cpus(&t->p, a.cpus, a.n_cpus, x->m.map.node_of, x->m.map.n);
		a.cpus = NULL;
		if (r < 0)
			snprintf(why, sizeof(why), "out of memory");
	} else if (r != -ENOENT && r != -ESRCH)
		log_err("process %u: /proc/%u/status: %s", t->pid, t->pid, why);
	proc_allowed_free(&a);
	if (r == 0) {
		r = placement_maps_read(&t->p, t->pid, why, sizeof(why));
		/* Its status was there: a numa_maps missing beside it is no sign it went. */
		if ((r == -ENOENT || r == -ESRCH) && still_there(t->pid)) {
			snprintf(why, sizeof(why), "not present (a kernel without NUMA?)");
			r = -EIO;
		}
		/* Another user's process: only root reads its numa_maps. */
		if (r < 0 && r != -ENOENT && r != -ESRCH)
			log_err("process %u: /proc/%u/numa_maps: %s%s", t->pid, t->pid, why,
				(r == -EACCES || r == -EPERM) && geteuid() != 0
					? " (another user's process: run as root)"
					: "");
	}
	if ((r == -ENOENT || r == -ESRCH) && by_pid)
		log_err("process %u: gone (no /proc/%u)", t->pid, t->pid);
	if (r == -ENOENT || r == -ESRCH)
		return by_pid ? -1 : 0;
	if (r < 0)
		return -1;
	if (proc_name(t->pid, t->name, sizeof(t->name)) < 0)
		snprintf(t->name, sizeof(t->name), "?");
	return by_pid || t->p.mappings ? 1 : 0;
}

int placement_targets_add_processes(struct pctx *x)
{
	struct proc_list l = { 0 }, by_pid = { 0 };
	int rc;

	x->per_arg = calloc(x->o->n_pids, sizeof(*x->per_arg));
	if (!x->per_arg) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	rc = resolve_pids(x->o, &l, &by_pid, x->per_arg);

	for (size_t i = 0; i < l.n; i++) {
		struct target *t = new_target(x);
		int r;

		if (!t) {
			log_err("out of memory");
			rc = EXIT_FAIL;
			break;
		}
		t->pid = l.v[i];
		r = placement_targets_read_process(x, t, named(&by_pid, t->pid));
		if (r <= 0) {
			placement_free(&t->p);
			x->n--;
		}
		if (r < 0)
			rc = EXIT_FAIL;
		else if (r > 0)
			t->ok = true;
	}
	proc_list_free(&l);
	proc_list_free(&by_pid);
	return rc;
}

static int find_root(struct pctx *x)
{
	return cgroup_root_find(x->root, sizeof(x->root),
				cgroup_root_option(x->o->n_cgroups, x->o->n_containers));
}

/* Every --cgroup argument into l.  EXIT_OK, EXIT_FAIL (some named nothing) or EXIT_USAGE. */
static int resolve_cgroups(struct pctx *x, struct cg_list *l)
{
	char why[WHY_MAX], shown[256];
	int rc = EXIT_OK;

	for (size_t i = 0; i < x->o->n_cgroups; i++) {
		const char *arg = x->o->cgroups[i];
		int r = *arg ? cg_resolve(x->root, arg, l, why, sizeof(why)) : -EINVAL;

		if (!*arg)
			snprintf(why, sizeof(why), "expected a cgroup path, a unit or a pattern");
		cut(arg, shown, sizeof(shown));
		if (r == -EINVAL) {
			log_usage_err("--cgroup '%s': %s", cut(arg, shown, sizeof(shown)), why);
			return EXIT_USAGE;
		}
		if (r == -ENOMEM) {
			log_err("out of memory");
			return EXIT_FAIL;
		}
		if (r == 0)
			log_err("--cgroup '%s': no cgroup matches", cut(arg, shown, sizeof(shown)));
		else if (r < 0)
			log_err("--cgroup %s: %s", cut(arg, shown, sizeof(shown)), why);
		if (r <= 0)
			rc = EXIT_FAIL;
	}
	return rc;
}

/* The cpuset (or, without one, every CPU) and memory.numa_stat of t->cgroup. */
/*
 * One process of a cgroup target: its threads' CPUs, the cgroup's cpuset,
 * its mappings.  Into the target's plan; a process that went or cannot be
 * read is left out (the cgroup's own memory.numa_stat still counts it).
 */
static int add_cgroup_process(struct pctx *x, struct target *t, unsigned pid)
{
	struct placement q = { .machine = &x->m.pl, .pid = pid };
	struct proc_allowed a;
	size_t threads;
	char why[WHY_MAX];
	int r = proc_allowed_read_threads(pid, &a, &threads, why, sizeof(why));

	if (r < 0)
		return r == -ENOMEM ? r : 0;
	if (t->p.mems_known &&
	    !(q.mems = malloc((t->p.n_mems ? t->p.n_mems : 1) * sizeof(*q.mems)))) {
		proc_allowed_free(&a);
		return -ENOMEM;
	}
	if (t->p.mems_known)
		memcpy(q.mems, t->p.mems, t->p.n_mems * sizeof(*q.mems));
	q.n_mems = t->p.n_mems;
	q.mems_known = t->p.mems_known;
	r = placement_set_cpus(&q, a.cpus, a.n_cpus, x->m.map.node_of, x->m.map.n);
	a.cpus = NULL;
	proc_allowed_free(&a);
	if (r == 0)
		r = placement_maps_read(&q, pid, why, sizeof(why));
	if (r == 0)
		r = placement_add_process(&t->p, &q);
	placement_free(&q);
	return r == -ENOMEM ? r : 1;
}

/*
 * A cgroup's processes' mappings: their policies, sharing and threads split
 * its anonymous memory, and their private pages are its plan's moves.
 */
static int add_cgroup_processes(struct pctx *x, struct target *t)
{
	unsigned *pids;
	size_t more, read = 0;
	int n = cg_procs_read(x->root, t->cgroup, &pids, &more), r = 0;

	for (int i = 0; i < n && r >= 0; i++) {
		r = add_cgroup_process(x, t, pids[i]);
		read += r > 0;
	}
	free(pids);
	if (r == -ENOMEM || n == -ENOMEM)
		return -ENOMEM;
	if (read)
		placement_processes_apply(&t->p);
	return 0;
}

static int read_cgroup(struct pctx *x, struct target *t, bool by_pattern, char *buf)
{
	char path[CG_PATH_MAX + CG_ROOT_MAX + 32], why[WHY_MAX];
	struct cg_cpuset cs;
	struct cg_numa s;
	ssize_t n;
	int r = cg_cpuset_read(x->root, t->cgroup, &cs, why, sizeof(why));

	cg_file_path(x->root, t->cgroup, "memory.numa_stat", path, sizeof(path));
	if (r == -ENOENT) {
		if (!by_pattern)
			log_err("cgroup %s: gone", t->cgroup);
		return by_pattern ? 0 : -1;
	}
	if (r < 0) {
		log_err("cgroup %s: %s", t->cgroup, r == -ENOMEM ? "out of memory" : why);
		return -1;
	}
	t->cpuset_found = cs.found;
	t->p.machine = &x->m.pl;
	if (cs.found && !(t->cpuset = strdup(cs.from)))
		r = -ENOMEM;
	else if (cs.found) {
		t->p.mems = cs.mems;
		t->p.n_mems = cs.n_mems;
		t->p.mems_known = true;
		cs.mems = NULL;
		r = placement_set_cpus(&t->p, cs.cpus, cs.n_cpus, x->m.map.node_of, x->m.map.n);
		cs.cpus = NULL;
	} else {
		/* No cpuset anywhere: its tasks may run on every CPU, so every CPU node is local. */
		t->p.cpu_nodes =
			malloc((x->m.n_cpu_nodes ? x->m.n_cpu_nodes : 1) * sizeof(unsigned));
		r = t->p.cpu_nodes ? 0 : -ENOMEM;
		if (r == 0)
			memcpy(t->p.cpu_nodes, x->m.cpu_nodes, x->m.n_cpu_nodes * sizeof(unsigned));
		t->p.n_cpu_nodes = x->m.n_cpu_nodes;
		if (r == 0)
			r = placement_set_local(&t->p);
	}
	cg_cpuset_free(&cs);
	if (r < 0) {
		log_err("out of memory");
		return -1;
	}
	n = sysfs_read_file(path, buf, CG_NUMA_STAT_BUF);
	if (n == -ENOENT && by_pattern)
		return 0; /* a pattern names the groups with memory accounting */
	if (n < 0) {
		log_err("%s: %s", path,
			n == -ENOENT ? "not present: gone, or the memory controller is not enabled "
				       "for this cgroup (its parent's cgroup.subtree_control lacks "
				       "memory)"
			: n == -EFBIG ? "file too large"
				      : sysfs_strerror((int)n));
		return -1;
	}
	r = cg_numa_parse(buf, (size_t)n, &s, why, sizeof(why));
	if (r < 0) {
		log_err("%s: %s", path, r == -ENOMEM ? "out of memory" : why);
		return -1;
	}
	r = placement_from_cgroup(&t->p, &s);
	cg_numa_free(&s);
	if (r == 0)
		r = add_cgroup_processes(x, t);
	if (r < 0) {
		log_err("%s: %s", path,
			r == -EOVERFLOW ? "the sizes add up past 64 bits" : "out of memory");
		return -1;
	}
	return 1;
}

/*
 * The containers --container and --pod name, after the cgroups of --cgroup
 * in l (a container the two name is one target); ctr_of() tells them apart.
 */
static int add_containers(struct pctx *x, struct cg_list *l)
{
	struct pc_ctx *pc = &x->containers;
	int rc = placement_containers_resolve(&x->containers, x->root,
					      (const char *const *)x->o->containers,
					      x->o->n_containers, (const char *const *)x->o->pods,
					      x->o->n_pods, true);

	char **path;
	bool *matched;

	if (rc == EXIT_USAGE || !pc->n_picked)
		return rc;
	/* One allocation for all: cg_list grows one path at a time, too slowly for 10,000. */
	path = realloc(l->path, (l->n + pc->n_picked) * sizeof(*path));
	if (path)
		l->path = path;
	matched = path ? realloc(l->matched, (l->n + pc->n_picked) * sizeof(*matched)) : NULL;
	if (matched)
		l->matched = matched;
	l->cap = path && matched ? l->n + pc->n_picked : l->n;
	for (size_t i = 0; i < pc->n_picked; i++) {
		if (!matched || !(l->path[l->n] = strdup(pc->picked[i]->cgroup))) {
			pc->n_picked = i; /* ctr_of() counts on the ones added */
			log_err("out of memory");
			return EXIT_FAIL;
		}
		l->matched[l->n++] = pc->picked[i]->by_pattern;
	}
	return rc;
}

/* The container behind l's i-th cgroup, a target of its own; NULL for --cgroup's. */
static struct pc_target *ctr_of(struct pctx *x, const struct cg_list *l, size_t i)
{
	size_t first = l->n - x->containers.n_picked;
	struct pc_target *t;

	if (i < first)
		return NULL;
	if ((t = calloc(1, sizeof(*t))))
		t->c = x->containers.picked[i - first];
	return t;
}

int placement_targets_add_cgroups(struct pctx *x)
{
	struct cg_list l = { 0 };
	char *buf = NULL;
	int rc = find_root(x);
	bool root_ok = rc == EXIT_OK;

	if (rc == EXIT_OK)
		rc = resolve_cgroups(x, &l);
	if (rc != EXIT_USAGE && root_ok && (x->o->n_containers || x->o->n_pods)) {
		int r = add_containers(x, &l);

		rc = r != EXIT_OK ? r : rc;
	}
	if (rc == EXIT_USAGE || !l.n)
		goto out;
	buf = malloc(CG_NUMA_STAT_BUF);
	for (size_t i = 0; i < l.n; i++) {
		struct target *t = buf ? new_target(x) : NULL;
		int r;

		if (!t) {
			log_err("out of memory");
			rc = EXIT_FAIL;
			break;
		}
		t->is_cgroup = true;
		t->by_pattern = l.matched[i];
		t->cgroup = l.path[i];
		t->ctr = ctr_of(x, &l, i);
		l.path[i] = NULL;
		t->select_opt = t->ctr ? "--container" : "--cgroup";
		t->select_arg = t->ctr ? t->ctr->c->id : t->cgroup;
		r = read_cgroup(x, t, l.matched[i], buf);
		if (r <= 0) {
			placement_containers_target_free(t->ctr);
			placement_free(&t->p);
			free(t->cgroup);
			free(t->cpuset);
			x->n--;
		}
		if (r < 0)
			rc = EXIT_FAIL;
		else if (r > 0)
			t->ok = true;
	}
out:
	free(buf);
	cg_list_free(&l);
	return rc;
}

/* The machine, once: what every target's verdict is judged against. */
int placement_targets_machine(struct pctx *x)
{
	char why[WHY_MAX];
	int r = placement_machine_read(&x->m, why, sizeof(why));

	if (r < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
