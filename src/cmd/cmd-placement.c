// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement: is a workload's memory where its CPUs are?  For each process
 * (--pid PID or a name pattern, as stat --pid takes them) and each cgroup
 * (--cgroup: a path, a systemd unit or a pattern, as stat --cgroup takes
 * them): the CPUs it may run on and their nodes, the nodes its memory may
 * use, its memory per node by kind, and the verdict in bytes and percent
 * (placement.h; the classes and the commands that fix them are
 * decided there; this file resolves the targets and prints).  --check
 * turns remote anonymous memory above a share into exit status 3, for
 * monitoring.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "atomic-file.h"
#include "cg-cpuset.h"
#include "cg-find.h"
#include "cg-numa.h"
#include "cg-procs.h"
#include "cgroup-root.h"
#include "cg-unit.h"
#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "nodes.h"
#include "out.h"
#include "placement-containers.h"
#include "placement-machine.h"
#include "placement-move.h"
#include "placement.h"
#include "procmaps.h"
#include "prom.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

enum {
	OPT_PID = OPT_CMD_BASE,
	OPT_CGROUP,
	OPT_CHECK,
	OPT_MAX_REMOTE_ANON,
	OPT_PROMETHEUS,
	OPT_TEXTFILE,
	OPT_CONTAINER,
	OPT_POD,
	OPT_MOVE,
	OPT_DRY_RUN
};

#define TEXTFILE_NAME "numastatctl-placement.prom"

/* --check's share of remote anonymous memory when --max-remote-anon does not say. */
#define DEFAULT_MAX_REMOTE_ANON 10.0

static const struct cmd_option options[] = {
	{ "pid", required_argument, OPT_PID, "<pid|pattern>",
	  "a process, or every process whose name or\n"
	  "command line holds the pattern (repeatable)" },
	{ "cgroup", required_argument, OPT_CGROUP, "<path|unit|pattern>",
	  "a cgroup v2 path, a unit or a pattern\n"
	  "(repeatable)" },
	{ "container", required_argument, OPT_CONTAINER, "<name|id|pattern>",
	  "a container by its name, id or id prefix,\n"
	  "or a pattern of names (repeatable)" },
	{ "pod", required_argument, OPT_POD, "<namespace/name>",
	  "every container of a Kubernetes pod; either part\n"
	  "may be a pattern (repeatable)" },
	{ "check", no_argument, OPT_CHECK, NULL,
	  "exit 3 when a target's actionable memory (remote\n"
	  "anonymous and off-policy) is above --max-remote-anon\n"
	  "(default 10%)" },
	{ "max-remote-anon", required_argument, OPT_MAX_REMOTE_ANON, "<pct>",
	  "what --check allows: a share from 0 to 100\n"
	  "(implies --check)" },
	{ "move", no_argument, OPT_MOVE, NULL,
	  "move the pages the plan names (as root): only\n"
	  "pages the process alone maps, with move_pages(2)" },
	{ "dry-run", no_argument, OPT_DRY_RUN, NULL, "with --move: show the moves, move nothing" },
	{ "prometheus", no_argument, OPT_PROMETHEUS, NULL,
	  "Prometheus text: series per cgroup, and per --pid\n"
	  "argument with its processes summed" },
	{ "textfile", required_argument, OPT_TEXTFILE, "<dir>",
	  "write the Prometheus text to <dir>/" TEXTFILE_NAME "\n"
	  "(atomically, for node_exporter's textfile collector)" },
	{ 0 },
};

struct popts {
	const char **pids, **cgroups, **containers, **pods;
	size_t n_pids, n_cgroups, n_containers, n_pods;
	bool check, prometheus, move, dry_run;
	const char *textfile;
	double max_remote_anon;
};

/*
 * A target's fixes as kept until printed: struct pl_fixes has room for
 * eight PATH_MAX-long quoted commands (some 75 kB), and a pattern may find
 * ten thousand processes; each command kept here takes its length.
 */
struct kept_fix {
	enum pl_class cls;
	char what[sizeof(((struct pl_fix *)0)->what)];
	char *cmd, *note; /* cmd "": no command may be printed, note says why */
};
struct kept_fixes {
	struct kept_fix v[PL_FIXES_MAX];
	size_t n;
	char held[PL_NCLASS][sizeof(((struct pl_fixes *)0)->held[0])];
};

struct target {
	bool is_cgroup;
	unsigned pid;
	char *cgroup;      /* is_cgroup: the path under the hierarchy */
	char name[64];     /* a process's Name: */
	size_t threads;    /* a process's threads, whose CPUs are all its own */
	bool cpuset_found; /* a cgroup's: some group on the way up has a cpuset */
	char *cpuset;      /* and which: the group itself or an ancestor */
	bool by_pattern;   /* a cgroup only a pattern matched */
	/* How --move names it again: "--cgroup" and its path, "--container" and its id. */
	const char *select_opt, *select_arg;
	bool in_prom;          /* its series are in the Prometheus text */
	bool ok;               /* read */
	struct pc_target *ctr; /* a container's: its kubelet assignment */
	struct placement p;
	struct pl_verdict v;
	struct kept_fixes *fixes; /* the commands that act on its verdict; NULL: none */
};

struct pctx {
	const struct popts *o;
	struct target *t;
	size_t n, cap;
	struct placement_machine m;
	char root[CG_ROOT_MAX];    /* the cgroup v2 hierarchy, when --cgroup */
	struct proc_list *per_arg; /* the processes each --pid argument named, sorted */
	struct pc_ctx containers;  /* --container, --pod */
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl placement [options] --pid <pid|pattern>...\n"
	      " numastatctl placement [options] --cgroup <path|unit|pattern>...\n"
	      " numastatctl placement [options] --container <name|id|pattern>...\n"
	      " numastatctl placement [options] --pod <namespace/name>...\n"
	      "\nIs the memory of a process, unit or cgroup on the nodes of the CPUs it may\n"
	      "run on?  For each: its CPUs and their nodes, where its memory may go\n"
	      "(cpuset, each mapping's policy), its memory per node by kind (anonymous,\n"
	      "file, shared, huge pages), and the verdict: local, as its policy asks,\n"
	      "demoted to a slower tier, remote anonymous (the one class to act on, with\n"
	      "the commands that would), remote file and shared (expected: page cache\n"
	      "stays where it was first read), off-policy, unknown (estimates), and the\n"
	      "share on the fast memory tier.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nExit status: 0 success, 1 a target could not be read, 2 usage error,\n"
	      "3 with --check: a target's remote anonymous memory is above the limit.\n"
	      "\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl placement --help | less\n",
	      out);
}

/* ---- options ---- */

static int push_arg(const char ***v, size_t *n, const char *arg)
{
	size_t cap = *n; /* exact: arguments are few */

	if (array_grow(v, &cap, *n + 1, sizeof(**v)) < 0) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	(*v)[(*n)++] = arg;
	return EXIT_OK;
}

static int parse_pct(const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(*out) || *out < 0 || *out > 100) {
		log_usage_err("--max-remote-anon '%s': expected a percentage from 0 to 100", arg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int parse_args(int argc, char *argv[], struct popts *o)
{
	int c, rc = EXIT_OK;

	o->max_remote_anon = DEFAULT_MAX_REMOTE_ANON;
	while (rc == EXIT_OK && (c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return -1;
		case OPT_PID:
			/* An empty pattern is in every command line: every process, by mistake. */
			if (!*optarg) {
				log_usage_err("--pid '': expected a process id or a pattern of a "
					      "name or command line");
				return EXIT_USAGE;
			}
			rc = push_arg(&o->pids, &o->n_pids, optarg);
			break;
		case OPT_CGROUP:
			rc = push_arg(&o->cgroups, &o->n_cgroups, optarg);
			break;
		case OPT_CONTAINER:
			rc = push_arg(&o->containers, &o->n_containers, optarg);
			break;
		case OPT_POD:
			rc = push_arg(&o->pods, &o->n_pods, optarg);
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case OPT_PROMETHEUS:
			o->prometheus = true;
			break;
		case OPT_MOVE:
			o->move = true;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case OPT_TEXTFILE:
			o->textfile = optarg;
			break;
		case OPT_MAX_REMOTE_ANON:
			o->check = true;
			rc = parse_pct(optarg, &o->max_remote_anon);
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (rc == EXIT_OK && (rc = cmd_no_operands(argc, argv)) == EXIT_OK && !o->n_pids &&
	    !o->n_cgroups && !o->n_containers && !o->n_pods) {
		log_usage_err("name what to look at: --pid <pid|pattern>, --cgroup "
			      "<path|unit|pattern>, --container <name|id|pattern> or --pod "
			      "<namespace/name>");
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK && o->dry_run && !o->move) {
		log_usage_err("--dry-run: it shows what --move would do; add --move");
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK && o->move && (o->prometheus || o->textfile || o->check)) {
		log_usage_err("--move: it acts, where --prometheus, --textfile and --check look: "
			      "give one or the other");
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK && (o->prometheus || o->textfile) && cmd_global.json) {
		log_usage_err("--prometheus and --textfile print Prometheus text, not JSON: leave "
			      "out -J");
		rc = EXIT_USAGE;
	}
	return rc;
}

/* ---- the targets ---- */

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
	return placement_has(l->v, l->n, pid);
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
static int read_process(struct pctx *x, struct target *t, bool by_pid)
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

static int add_processes(struct pctx *x)
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
		r = read_process(x, t, named(&by_pid, t->pid));
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

static int add_cgroups(struct pctx *x)
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
static int read_machine(struct pctx *x)
{
	char why[WHY_MAX];
	int r = placement_machine_read(&x->m, why, sizeof(why));

	if (r < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static void kept_free(struct kept_fixes *k)
{
	for (size_t i = 0; k && i < k->n; i++) {
		free(k->v[i].cmd);
		free(k->v[i].note);
	}
	free(k);
}

static void pctx_free(struct pctx *x)
{
	for (size_t i = 0; i < x->n; i++) {
		placement_free(&x->t[i].p);
		kept_free(x->t[i].fixes);
		free(x->t[i].cgroup);
		free(x->t[i].cpuset);
		placement_containers_target_free(x->t[i].ctr);
	}
	free(x->t);
	placement_containers_free(&x->containers);
	for (size_t i = 0; x->per_arg && i < x->o->n_pids; i++)
		proc_list_free(&x->per_arg[i]);
	free(x->per_arg);
	placement_machine_free(&x->m);
}

/* ---- output ---- */

/* A podman container that no pod holds: its id, for the podman update that moves it; else NULL. */
static const char *podman_outside_pod(const struct target *t)
{
	const struct container *c = t->ctr ? t->ctr->c : NULL;

	return c && strcmp(c->runtime, "podman") == 0 && !c->pod_uid[0] ? c->id : NULL;
}

/* f as kept: each string copied at its length.  NULL when out of memory. */
static struct kept_fixes *kept_copy(const struct pl_fixes *f)
{
	struct kept_fixes *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	memcpy(k->held, f->held, sizeof(k->held));
	for (; k->n < f->n; k->n++) {
		struct kept_fix *d = &k->v[k->n];

		d->cls = f->v[k->n].cls;
		memcpy(d->what, f->v[k->n].what, sizeof(d->what));
		d->cmd = strdup(f->v[k->n].cmd);
		d->note = strdup(f->v[k->n].note);
		if (!d->cmd || !d->note) {
			k->n++;
			kept_free(k);
			return NULL;
		}
	}
	return k;
}

/* t's fixes, kept only when there are some: a fleet's containers mostly have none. */
static int keep_fixes(const struct pctx *x, struct target *t)
{
	static struct pl_fixes f;
	struct cg_unit u;
	bool any;

	if (t->is_cgroup && cg_unit_of(x->root, t->cgroup, &u) < 0)
		u = (struct cg_unit){ .kind = CG_UNIT_NONE, .why = "its owner could not be read" };
	placement_fixes(&t->p,
			&(struct pl_fix_ctx){ .is_cgroup = t->is_cgroup,
					      .pid = t->pid,
					      .cgroup = t->cgroup,
					      .cg_root = x->root,
					      .unit = t->is_cgroup ? &u : NULL,
					      .cpuset_found = t->cpuset_found,
					      .managed = t->ctr != NULL,
					      .podman_id = podman_outside_pod(t),
					      .balancing = x->m.balancing,
					      .select_opt = t->select_opt,
					      .select_arg = t->select_arg },
			&f);
	any = f.n > 0;
	for (size_t c = 0; c < PL_NCLASS; c++)
		any |= f.held[c][0] != '\0';
	if (!any)
		return 0;
	return (t->fixes = kept_copy(&f)) ? 0 : -ENOMEM;
}

/* Is the target's actionable memory (remote anonymous and off-policy) over --check's share? */
static bool over(const struct pctx *x, const struct target *t)
{
	return placement_pct(t->v.actionable, t->v.total) > x->o->max_remote_anon;
}

/* Sorted ids as "0-3,5" (or "none"). */
static void list_text(const unsigned *ids, size_t n, char *buf, size_t len)
{
	if (!n)
		snprintf(buf, len, "none");
	else
		rangelist_format(ids, n, buf, len);
}

static void title(const struct target *t, FILE *f)
{
	char shown[CG_PATH_MAX * 4 + 8];

	if (t->ctr) {
		placement_containers_title(t->ctr, f);
		fprintf(f, "  cgroup: %s\n", escape_text(t->cgroup, shown, sizeof(shown), 0));
	} else if (t->is_cgroup)
		fprintf(f, "cgroup %s\n", escape_text(t->cgroup, shown, sizeof(shown), 0));
	else
		fprintf(f, "process %u (%s)\n", t->pid,
			escape_text(t->name, shown, sizeof(shown), 0));
}

/* Where a CPU on a memoryless node allocates: said, since the table's "local" follows it. */
static void local_line(const struct target *t)
{
	char local[256], gone[256];
	unsigned ids[64];
	size_t n = 0;

	for (size_t i = 0; i < t->p.n_cpu_nodes && n < 64; i++)
		if (!placement_has(t->p.local, t->p.n_local, t->p.cpu_nodes[i]))
			ids[n++] = t->p.cpu_nodes[i];
	if (!n)
		return;
	list_text(t->p.local, t->p.n_local, local, sizeof(local));
	list_text(ids, n, gone, sizeof(gone));
	printf("  local memory: node%s %s (nearest to memoryless node%s %s)\n",
	       t->p.n_local == 1 ? "" : "s", local, n == 1 ? "" : "s", gone);
}

static void where_lines(const struct target *t)
{
	char cpus[512], cnodes[256], mems[256];

	list_text(t->p.cpus, t->p.n_cpus, cpus, sizeof(cpus));
	list_text(t->p.cpu_nodes, t->p.n_cpu_nodes, cnodes, sizeof(cnodes));
	list_text(t->p.mems, t->p.n_mems, mems, sizeof(mems));
	if (t->is_cgroup && !t->cpuset_found)
		printf("  runs on: every CPU (no cpuset), nodes %s\n", cnodes);
	else if (t->is_cgroup && strcmp(t->cpuset, t->cgroup) != 0) {
		char shown[CG_PATH_MAX * 4];

		printf("  runs on: CPUs %s (the cpuset of %s), node%s %s\n", cpus,
		       escape_text(t->cpuset, shown, sizeof(shown), 0),
		       t->p.n_cpu_nodes == 1 ? "" : "s", cnodes);
	} else if (t->threads > 1)
		printf("  runs on: CPUs %s (%zu threads), node%s %s\n", cpus, t->threads,
		       t->p.n_cpu_nodes == 1 ? "" : "s", cnodes);
	else
		printf("  runs on: CPUs %s, node%s %s\n", cpus, t->p.n_cpu_nodes == 1 ? "" : "s",
		       cnodes);
	local_line(t);
	if (t->p.mems_known)
		printf("  memory may go to: node%s %s (%s)\n", t->p.n_mems == 1 ? "" : "s", mems,
		       t->is_cgroup ? "cpuset.mems.effective" : "Mems_allowed_list");
	else
		printf("  memory may go to: any node (no cpuset)\n");
	if (t->is_cgroup)
		return;
	if (!t->p.n_pol)
		printf("  policy: none (no mappings)\n");
	for (size_t i = 0; i < t->p.n_pol; i++) {
		char shown[PL_POLICY_TEXT * 4], size[16];

		fmt_human(t->p.pol[i].bytes, FMT_SIZE, size, sizeof(size));
		printf("  policy %s: %zu mapping%s, %s\n",
		       escape_text(t->p.pol[i].text, shown, sizeof(shown), 0), t->p.pol[i].mappings,
		       t->p.pol[i].mappings == 1 ? "" : "s", size);
	}
	if (t->p.policies_dropped)
		printf("  other policies: %zu mapping%s\n", t->p.policies_dropped,
		       t->p.policies_dropped == 1 ? "" : "s");
}

static int node_table(const struct target *t)
{
	static const char *const cols[] = { "NODE",  "WHERE", "ANON",  "FILE",
					    "SHMEM", "HUGE",  "TOTAL", "OFF-POLICY" };
	struct out_table *tb;
	char why[WHY_MAX];
	uint64_t sum[PL_NKIND + 2] = { 0 };
	int r = out_table_new(&tb, "nodes", 0, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return r;
	}
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		out_table_add_column(tb, cols[c], 0, c == 1 ? 0 : OUT_COL_RIGHT);
	for (size_t i = 0; i <= t->p.n; i++) {
		const struct pl_node *nd = i < t->p.n ? &t->p.v[i] : NULL;
		struct out_row *row = out_table_add_row(tb);
		uint64_t total = 0;
		char size[16];

		if (!row)
			break;
		if (nd)
			out_row_setf(row, 0, "%u", nd->node);
		else
			out_row_set(row, 0, "TOTAL");
		if (nd)
			out_row_set(row, 1,
				    placement_has(t->p.local, t->p.n_local, nd->node) ? "local"
										      : "remote");
		for (int k = 0; k < PL_NKIND; k++) {
			uint64_t b = nd ? nd->bytes[k] : sum[k];

			fmt_human(b, FMT_SIZE, size, sizeof(size));
			out_row_set(row, 2 + (size_t)k, size);
			total += b;
			if (nd)
				sum[k] += b;
		}
		fmt_human(total, FMT_SIZE, size, sizeof(size));
		out_row_set(row, 6, size);
		if (nd)
			sum[PL_NKIND] += nd->cls[PL_C_OFF_POLICY];
		fmt_human(nd ? nd->cls[PL_C_OFF_POLICY] : sum[PL_NKIND], FMT_SIZE, size,
			  sizeof(size));
		out_row_set(row, 7, size);
	}
	r = out_table_print(tb, stdout);
	out_table_free(tb);
	return r;
}

static void verdict_line(const char *what, uint64_t part, uint64_t whole, const char *note)
{
	char size[16];

	fmt_human(part, FMT_SIZE, size, sizeof(size));
	printf("  %-22s %7s %6.1f%%%s%s\n", what, size, placement_pct(part, whole),
	       note ? "  " : "", note ? note : "");
}

static bool plural(const char *list)
{
	return strchr(list, ',') || strchr(list, '-');
}

/* The fixes of class cls: each a line under 80 columns where the numbers allow. */
static void fix_lines(const struct target *t, enum pl_class cls)
{
	if (!t->fixes)
		return;
	for (size_t i = 0; i < t->fixes->n; i++) {
		const struct kept_fix *f = &t->fixes->v[i];

		if (f->cls != cls)
			continue;
		/* The command is quoted (shell_quote_argv()): no byte of it needs escaping. */
		int len = printf("    %s: %s", f->what, f->cmd[0] ? f->cmd : "no command");

		if (f->note[0] && len + 3 + (int)strlen(f->note) <= 80)
			printf(" (%s)\n", f->note);
		else if (f->note[0])
			printf("\n      (%s)\n", f->note);
		else
			putchar('\n');
	}
	if (t->fixes->held[cls][0])
		printf("    node%s %s left out of the moves: no node its policy and cpuset\n"
		       "    allow can take %s pages, or they are copies in a file mapping\n",
		       plural(t->fixes->held[cls]) ? "s" : "", t->fixes->held[cls],
		       plural(t->fixes->held[cls]) ? "their" : "its");
}

/* The nodes of class cls, as a list. */
static void class_nodes(const struct target *t, enum pl_class cls, char *buf, size_t len)
{
	unsigned ids[64];
	size_t n = 0;

	for (size_t i = 0; i < t->p.n && n < 64; i++)
		if (t->p.v[i].cls[cls])
			ids[n++] = t->p.v[i].node;
	list_text(ids, n, buf, len);
}

/* The note of an actionable class: the one word --check and -J use too. */
static const char *actionable_note(const struct pctx *x, const struct target *t, uint64_t bytes)
{
	if (!bytes)
		return NULL;
	return x->o->check && over(x, t) ? "actionable, over --max-remote-anon" : "actionable";
}

static void verdict(const struct pctx *x, const struct target *t)
{
	const struct pl_verdict *v = &t->v;
	char where[256];
	uint64_t ra = v->cls[PL_C_REMOTE_ANON];
	bool away = placement_cpuset_away(&t->p);

	verdict_line("local", v->cls[PL_C_LOCAL], v->total, NULL);
	/* A cgroup has no policy of its own: what asked is its cpuset. */
	if (v->cls[PL_C_AS_POLICY] && away && t->is_cgroup)
		verdict_line("as its cpuset asks", v->cls[PL_C_AS_POLICY], v->total,
			     "bound away from its CPUs");
	else if (v->cls[PL_C_AS_POLICY])
		verdict_line("as its policy asks", v->cls[PL_C_AS_POLICY], v->total,
			     away ? "on nodes its policy or cpuset names"
				  : "on the nodes its policy names");
	if (t->p.wi_off)
		printf("    %zu weighted interleave mapping%s off the weights' shares:\n"
		       "    numastatctl stat --pid %u --interleave\n",
		       t->p.wi_off, t->p.wi_off == 1 ? "" : "s", t->pid);
	if (v->cls[PL_C_DEMOTED])
		verdict_line("demoted", v->cls[PL_C_DEMOTED], v->total,
			     "to a slower tier by reclaim");
	verdict_line("remote anonymous", ra, v->total, actionable_note(x, t, ra));
	fix_lines(t, PL_C_REMOTE_ANON);
	/* Balancing moves default-policy mappings only (not MPOL_LOCAL): a process says which. */
	if ((t->is_cgroup ? ra : t->p.remote_default) && x->m.balancing[0] &&
	    strcmp(x->m.balancing, "0") != 0)
		printf("    NUMA balancing (kernel.numa_balancing=%s) has not moved it\n",
		       x->m.balancing);
	verdict_line("remote file and shared", v->cls[PL_C_REMOTE_FILE], v->total,
		     v->cls[PL_C_REMOTE_FILE] ? "expected: where first read" : NULL);
	verdict_line("off-policy", v->cls[PL_C_OFF_POLICY], v->total,
		     actionable_note(x, t, v->cls[PL_C_OFF_POLICY]));
	if (v->cls[PL_C_OFF_POLICY]) {
		class_nodes(t, PL_C_OFF_POLICY, where, sizeof(where));
		printf("    on node%s %s: its %s does not allow %s\n", plural(where) ? "s" : "",
		       where, t->is_cgroup ? "cpuset" : "policy or cpuset",
		       plural(where) ? "them" : "it");
	}
	fix_lines(t, PL_C_OFF_POLICY);
	if (v->cls[PL_C_UNKNOWN])
		verdict_line("unknown", v->cls[PL_C_UNKNOWN], v->total,
			     "estimated: copied pages of file mappings");
	if (v->tiers)
		verdict_line("on the fast tier", v->fast, v->total, NULL);
}

static int print_text(const struct pctx *x)
{
	int r = 0;

	for (size_t i = 0; i < x->n && r == 0; i++) {
		const struct target *t = &x->t[i];

		if (i)
			putchar('\n');
		title(t, stdout);
		if (t->ctr)
			placement_containers_lines(&x->containers, t->ctr);
		where_lines(t);
		r = node_table(t);
		verdict(x, t);
	}
	return r;
}

/* ---- JSON ---- */

/* ids one per line: what OUT_COL_NUMBERS makes a JSON array of. */
static void set_numbers(struct out_row *row, size_t col, const unsigned *ids, size_t n)
{
	size_t len = n * 12 + 1, used = 0;
	char *s = malloc(len);

	if (!s)
		return;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(s + used, len - used, "%s%u", i ? "\n" : "", ids[i]);
	out_row_set(row, col, s);
	free(s);
}

static void set_policies(struct out_row *row, size_t col, const struct placement *p)
{
	size_t len = p->n_pol * (PL_POLICY_TEXT + 1) + 1, used = 0;
	char *s = malloc(len);

	if (!s)
		return;
	s[0] = '\0';
	for (size_t i = 0; i < p->n_pol; i++)
		used += (size_t)snprintf(s + used, len - used, "%s%s", i ? "\n" : "",
					 p->pol[i].text);
	out_row_set(row, col, s);
	free(s);
}

/* The commands of the fixes, one per line: a JSON array of strings. */
static void set_fixes(struct out_row *row, size_t col, const struct kept_fixes *f)
{
	static char s[PL_FIXES_MAX * (PL_FIX_CMD + 1) + 1];
	size_t used = 0;

	s[0] = '\0';
	for (size_t i = 0; f && i < f->n; i++)
		if (f->v[i].cmd[0])
			used += (size_t)snprintf(s + used, sizeof(s) - used, "%s%s",
						 used ? "\n" : "", f->v[i].cmd);
	out_row_set(row, col, s);
}

static void set_u64(struct out_row *row, size_t col, uint64_t v)
{
	out_row_setf(row, col, "%" PRIu64, v);
}

enum {
	TC_TARGET,
	TC_PID,
	TC_NAME,
	TC_CGROUP,
	TC_CPUSET,
	TC_CPUS,
	TC_CPU_NODES,
	TC_MEM_NODES,
	TC_POLICIES,
	TC_MAPPINGS,
	TC_TOTAL,
	TC_CLASS, /* PL_NCLASS columns, in placement_class_names' order */
	TC_FAST = TC_CLASS + PL_NCLASS,
	TC_REMOTE_ANON_PCT,
	TC_OVER,
	TC_FIXES,
	TC_WI_OFF,
	TC_ACTIONABLE,
	TC_ACTIONABLE_PCT,
	TC_PLANNED,
	TC_UNPLANNED,
	TC_COUNT,
};

static const struct {
	const char *name;
	unsigned flags;
} target_cols[TC_COUNT] = {
	{ "target", 0 },
	{ "pid", OUT_COL_NUMBER },
	{ "command", 0 },
	{ "cgroup", 0 },
	{ "cpuset", 0 },
	{ "cpus", OUT_COL_NUMBERS },
	{ "cpu_nodes", OUT_COL_NUMBERS },
	{ "mem_nodes", OUT_COL_NUMBERS },
	{ "policies", OUT_COL_ARRAY },
	{ "mappings", OUT_COL_NUMBER },
	{ "total", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_LOCAL] = { "local", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_AS_POLICY] = { "as_policy", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_DEMOTED] = { "demoted", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_REMOTE_ANON] = { "remote_anon", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_REMOTE_FILE] = { "remote_file", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_OFF_POLICY] = { "off_policy", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_UNKNOWN] = { "unknown", OUT_COL_NUMBER },
	[TC_FAST] = { "fast_tier", OUT_COL_NUMBER },
	{ "remote_anon_pct", OUT_COL_NUMBER },
	{ "over", OUT_COL_BOOLEAN_OPT },
	{ "fixes", OUT_COL_ARRAY },
	{ "weights_off", OUT_COL_NUMBER },
	{ "actionable", OUT_COL_NUMBER },
	{ "actionable_pct", OUT_COL_NUMBER },
	{ "planned", OUT_COL_NUMBER },
	{ "unplanned", OUT_COL_NUMBER },
};

/* The bytes the plan moves. */
static uint64_t planned_bytes(const struct placement *p)
{
	uint64_t b = 0;

	for (size_t i = 0; i < p->n_moves; i++)
		b += p->moves[i].pages * p->moves[i].page;
	return b;
}

static void target_row(const struct pctx *x, const struct target *t, struct out_row *row)
{
	const struct pl_verdict *v = &t->v;

	out_row_set(row, TC_TARGET, t->ctr ? "container" : t->is_cgroup ? "cgroup" : "process");
	if (t->ctr)
		placement_containers_row(&x->containers, t->ctr, row, TC_COUNT);
	if (!t->is_cgroup) {
		out_row_setf(row, TC_PID, "%u", t->pid);
		out_row_set(row, TC_NAME, t->name);
		set_policies(row, TC_POLICIES, &t->p);
		out_row_setf(row, TC_MAPPINGS, "%zu", t->p.mappings);
		out_row_setf(row, TC_WI_OFF, "%zu", t->p.wi_off);
	} else {
		out_row_set(row, TC_CGROUP, t->cgroup);
		out_row_set(row, TC_CPUSET, t->cpuset);
	}
	if (!t->is_cgroup || t->cpuset_found)
		set_numbers(row, TC_CPUS, t->p.cpus, t->p.n_cpus);
	set_numbers(row, TC_CPU_NODES, t->p.cpu_nodes, t->p.n_cpu_nodes);
	if (t->p.mems_known)
		set_numbers(row, TC_MEM_NODES, t->p.mems, t->p.n_mems);
	set_u64(row, TC_TOTAL, v->total);
	for (int c = 0; c < PL_NCLASS; c++)
		set_u64(row, TC_CLASS + (size_t)c, v->cls[c]);
	if (v->tiers)
		set_u64(row, TC_FAST, v->fast);
	out_row_setf(row, TC_REMOTE_ANON_PCT, "%.1f",
		     placement_pct(v->cls[PL_C_REMOTE_ANON], v->total));
	if (x->o->check)
		out_row_set(row, TC_OVER, over(x, t) ? "yes" : "no");
	set_fixes(row, TC_FIXES, t->fixes);
	set_u64(row, TC_ACTIONABLE, v->actionable);
	out_row_setf(row, TC_ACTIONABLE_PCT, "%.1f", placement_pct(v->actionable, v->total));
	set_u64(row, TC_PLANNED, planned_bytes(&t->p));
	set_u64(row, TC_UNPLANNED, t->p.unplanned);
}

/* The classes and which of them are actionable: the vocabulary of the document. */
static void class_rows(struct out_table *tb)
{
	for (int c = 0; c < PL_NCLASS; c++) {
		struct out_row *row = out_table_add_row(tb);

		if (!row)
			return;
		out_row_set(row, 0, placement_class_names[c]);
		out_row_set(row, 1, placement_actionable((enum pl_class)c) ? "yes" : "no");
	}
}

static void node_rows(const struct target *t, struct out_table *tb)
{
	for (size_t i = 0; i < t->p.n; i++) {
		const struct pl_node *nd = &t->p.v[i];
		struct out_row *row = out_table_add_row(tb);
		uint64_t total = 0;

		if (!row)
			return;
		if (t->is_cgroup)
			out_row_set(row, 1, t->cgroup);
		else
			out_row_setf(row, 0, "%u", t->pid);
		out_row_setf(row, 2, "%u", nd->node);
		out_row_set(row, 3,
			    placement_has(t->p.local, t->p.n_local, nd->node) ? "yes" : "no");
		for (int k = 0; k < PL_NKIND; k++) {
			set_u64(row, 4 + (size_t)k, nd->bytes[k]);
			total += nd->bytes[k];
		}
		set_u64(row, 8, total);
		set_u64(row, 9, nd->cls[PL_C_OFF_POLICY]);
	}
}

static int print_json(const struct pctx *x)
{
	static const char *const ncols[] = { "pid",  "cgroup", "node", "local", "anon",
					     "file", "shmem",  "huge", "total", "off_policy" };
	struct out_table *tt = NULL, *nt = NULL, *ct = NULL;
	struct out_doc *d = NULL;
	char why[WHY_MAX];
	int r = out_table_new(&tt, "targets", OUT_JSON, why, sizeof(why));

	if (r == 0)
		r = out_table_new(&nt, "nodes", OUT_JSON, why, sizeof(why));
	if (r == 0)
		r = out_table_new(&ct, "classes", OUT_JSON, why, sizeof(why));
	if (r < 0) {
		log_err("cannot print the table: %s", why);
		goto out;
	}
	for (size_t c = 0; c < TC_COUNT; c++)
		out_table_add_column(tt, target_cols[c].name, 0, target_cols[c].flags);
	for (size_t c = 0; c < PC_COLS; c++)
		out_table_add_column(tt, placement_containers_cols[c], 0,
				     placement_containers_col_flags[c]);
	for (size_t c = 0; c < sizeof(ncols) / sizeof(ncols[0]); c++)
		out_table_add_column(nt, ncols[c], 0,
				     c == 1   ? 0
				     : c == 3 ? OUT_COL_BOOLEAN
					      : OUT_COL_NUMBER);
	for (size_t i = 0; i < x->n; i++) {
		struct out_row *row = out_table_add_row(tt);

		if (!row) {
			r = -ENOMEM;
			goto out;
		}
		target_row(x, &x->t[i], row);
		node_rows(&x->t[i], nt);
	}
	out_table_add_column(ct, "class", 0, 0);
	out_table_add_column(ct, "actionable", 0, OUT_COL_BOOLEAN);
	class_rows(ct);
	r = out_doc_new(&d, 0);
	if (r == 0 && (r = out_doc_add(d, tt, OUT_PART_ARRAY)) == 0 &&
	    (r = out_doc_add(d, nt, OUT_PART_ARRAY)) == 0 &&
	    (r = out_doc_add(d, ct, OUT_PART_ARRAY)) == 0)
		r = out_doc_print(d, stdout);
out:
	out_doc_free(d);
	out_table_free(ct);
	out_table_free(nt);
	out_table_free(tt);
	return r;
}

/* ---- Prometheus ---- */

/* The label of a series set: cgroup="/a/b" or process="<the --pid argument>". */
struct series {
	const char *label, *value;
	const struct pc_target *ctr; /* a container's: its namespace, pod and name too */
	struct pl_verdict v;
	size_t processes;
};

static void labels(FILE *f, const struct series *s)
{
	fprintf(f, "%s=\"", s->label);
	prom_label_value(f, s->value);
	fputc('"', f);
	if (s->ctr)
		placement_containers_labels(f, s->ctr);
}

/* The classes: exclusive, so sum() over class is the total. */
static void verdict_series(FILE *f, const struct series *s)
{
	for (int c = 0; c < PL_NCLASS; c++) {
		fputs("numastatctl_placement_bytes{", f);
		labels(f, s);
		fprintf(f, ",class=\"%s\"} %" PRIu64 "\n", placement_class_names[c], s->v.cls[c]);
	}
}

/* The actionable classes' sum: what --check and the text call actionable. */
static void actionable_series(FILE *f, const struct series *s)
{
	fputs("numastatctl_placement_actionable_bytes{", f);
	labels(f, s);
	fprintf(f, "} %" PRIu64 "\n", s->v.actionable);
}

/* The fast tier's share, across the classes: a family of its own. */
static void fast_series(FILE *f, const struct series *s)
{
	if (!s->v.tiers)
		return;
	fputs("numastatctl_placement_fast_tier_bytes{", f);
	labels(f, s);
	fprintf(f, "} %" PRIu64 "\n", s->v.fast);
}

/* The verdict of a --pid argument: its processes' verdicts summed. */
static void sum_processes(const struct pctx *x, const struct proc_list *l, struct series *s)
{
	for (size_t i = 0; i < x->n; i++) {
		const struct target *t = &x->t[i];

		if (t->is_cgroup || !placement_has(l->v, l->n, t->pid))
			continue;
		s->processes++;
		s->v.total += t->v.total;
		for (int c = 0; c < PL_NCLASS; c++)
			s->v.cls[c] += t->v.cls[c];
		s->v.fast += t->v.fast;
		s->v.actionable += t->v.actionable;
	}
	s->v.tiers = x->m.fast != NULL;
}

/* The processes of a --pid argument (l) summed by node into sum.  -ENOMEM. */
static int sum_nodes(const struct pctx *x, const struct proc_list *l, struct placement *sum)
{
	for (size_t i = 0; i < x->n; i++) {
		const struct target *t = &x->t[i];

		if (t->is_cgroup || !placement_has(l->v, l->n, t->pid))
			continue;
		for (size_t k = 0; k < t->p.n; k++) {
			struct pl_node *n = placement_node(sum, t->p.v[k].node);

			if (!n)
				return -ENOMEM;
			for (int kind = 0; kind < PL_NKIND; kind++)
				n->bytes[kind] += t->p.v[k].bytes[kind];
		}
	}
	return 0;
}

/*
 * Per node and kind, for one series set: a cgroup's (only), or the
 * processes of a --pid argument (l) summed by node, since one series
 * cannot have two samples.  -ENOMEM.
 */
static int node_series(FILE *f, const struct pctx *x, const struct series *s,
		       const struct proc_list *l, const struct target *only)
{
	struct placement sum = { 0 };
	const struct placement *p = only ? &only->p : &sum;

	if (!only && sum_nodes(x, l, &sum) < 0) {
		placement_free(&sum);
		return -ENOMEM;
	}
	for (size_t k = 0; k < p->n; k++)
		for (int kind = 0; kind < PL_NKIND; kind++) {
			fputs("numastatctl_placement_node_bytes{", f);
			labels(f, s);
			fprintf(f, ",node=\"%u\",kind=\"%s\"} %" PRIu64 "\n", p->v[k].node,
				placement_kind_names[kind], p->v[k].bytes[kind]);
		}
	placement_free(&sum);
	return 0;
}

/* A cgroup's series: its verdict's classes and a kind on each node. */
static size_t cgroup_series(const struct target *t)
{
	return PL_NCLASS + 1 + (t->v.tiers ? 1 : 0) + (size_t)PL_NKIND * t->p.n +
	       (t->ctr ? PC_SERIES : 0);
}

/* A --pid argument's series: the classes, the fast tier, the count, a kind on each node. */
static ssize_t pid_series(const struct pctx *x, const struct proc_list *l)
{
	struct placement sum = { 0 };
	ssize_t n =
		sum_nodes(x, l, &sum) < 0
			? -ENOMEM
			: (ssize_t)(PL_NCLASS + 1 + (x->m.fast ? 1 : 0) + 1 +
				    (size_t)PL_NKIND * sum.n);

	placement_free(&sum);
	return n;
}

/*
 * Which targets get series, within one budget whatever named them: every
 * --pid argument and every cgroup or container named by a path, a unit or
 * a name, then the ones a pattern matched, in order.  A plain name can
 * match 20,000 containers, so the named are held to the budget too; a
 * target given twice has its series once.  pid_in[i]: the i-th --pid
 * argument's.  0 or -ENOMEM.
 */
static int targets_shown(struct pctx *x, struct prom_budget *b, bool *pid_in)
{
	for (size_t i = 0; i < x->o->n_pids; i++) {
		ssize_t n = pid_series(x, &x->per_arg[i]);
		int r = n < 0 ? (int)n : prom_budget_take(b, "process", x->o->pids[i], (size_t)n);

		if (r < 0)
			return r;
		pid_in[i] = r == PROM_TAKEN;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < x->n; i++) {
			struct target *t = &x->t[i];
			int r;

			if (!t->is_cgroup || t->by_pattern != (pass == 1))
				continue;
			r = prom_budget_take(b, "cgroup", t->cgroup, cgroup_series(t));
			if (r < 0)
				return r;
			t->in_prom = r == PROM_TAKEN;
		}
	return 0;
}

/* What the budget left out, said once on stderr. */
static void say_left_out(const struct prom_budget *b)
{
	if (b->left_out)
		log_warn("--prometheus: %zu target%s left out, to stay within %zu series "
			 "(numastatctl_placement_cgroups_left_out)",
			 b->left_out, b->left_out == 1 ? "" : "s", b->max);
	if (b->clashes)
		log_warn("--prometheus: %zu target%s left out: %s labels would be written as "
			 "another's are (a name holding a control character and one holding its "
			 "\\xNN text)",
			 b->clashes, b->clashes == 1 ? "" : "s", b->clashes == 1 ? "its" : "their");
}

/* fn over the series set of every target with series: each cgroup's, each --pid argument's. */
static void each_series(FILE *f, const struct pctx *x, const bool *pid_in,
			void (*fn)(FILE *, const struct series *))
{
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].is_cgroup && x->t[i].in_prom)
			fn(f, &(struct series){ .label = "cgroup",
						.value = x->t[i].cgroup,
						.ctr = x->t[i].ctr,
						.v = x->t[i].v });
	for (size_t i = 0; i < x->o->n_pids; i++) {
		struct series s = { .label = "process", .value = x->o->pids[i] };

		if (!pid_in[i])
			continue;
		sum_processes(x, &x->per_arg[i], &s);
		fn(f, &s);
	}
}

static int write_series(FILE *f, struct pctx *x, const bool *pid_in)
{
	int r = 0;

	prom_family(
		f, "numastatctl_placement_bytes", "gauge",
		"Memory of a cgroup or of the processes a --pid argument named, by the verdict's "
		"class (local, as_policy, demoted, remote_anon, remote_file, off_policy, "
		"unknown): the classes do not overlap, their sum is the total.");
	each_series(f, x, pid_in, verdict_series);
	prom_family(f, "numastatctl_placement_actionable_bytes", "gauge",
		    "Memory of a cgroup or of the processes a --pid argument named in the "
		    "actionable classes (remote_anon and off_policy): what --check counts.");
	each_series(f, x, pid_in, actionable_series);
	if (x->m.fast) {
		prom_family(f, "numastatctl_placement_fast_tier_bytes", "gauge",
			    "Memory of a cgroup or of the processes a --pid argument named on the "
			    "fastest memory tier, whatever its class.");
		each_series(f, x, pid_in, fast_series);
	}
	prom_family(f, "numastatctl_placement_processes", "gauge",
		    "How many processes a --pid argument named (the ones with memory).");
	for (size_t i = 0; i < x->o->n_pids; i++) {
		struct series s = { .label = "process", .value = x->o->pids[i] };

		if (!pid_in[i])
			continue;
		sum_processes(x, &x->per_arg[i], &s);
		fputs("numastatctl_placement_processes{", f);
		labels(f, &s);
		fprintf(f, "} %zu\n", s.processes);
	}
	prom_family(f, "numastatctl_placement_node_bytes", "gauge",
		    "Memory of a cgroup or of the processes a --pid argument named, by node and "
		    "kind (anon, file, shmem, huge).");
	for (size_t i = 0; i < x->n && r == 0; i++)
		if (x->t[i].is_cgroup && x->t[i].in_prom)
			r = node_series(f, x,
					&(struct series){ .label = "cgroup",
							  .value = x->t[i].cgroup,
							  .ctr = x->t[i].ctr },
					NULL, &x->t[i]);
	for (size_t i = 0; i < x->o->n_pids && r == 0; i++)
		if (pid_in[i])
			r = node_series(f, x,
					&(struct series){ .label = "process",
							  .value = x->o->pids[i] },
					&x->per_arg[i], NULL);
	return r;
}

static int write_prom(FILE *f, struct pctx *x)
{
	struct prom_budget b = { .max = CG_PROM_SERIES_MAX };
	bool *pid_in = calloc(x->o->n_pids ? x->o->n_pids : 1, sizeof(*pid_in));
	int r = pid_in ? targets_shown(x, &b, pid_in) : -ENOMEM;

	if (r == 0) {
		say_left_out(&b);
		r = write_series(f, x, pid_in);
	}
	if (r == -ENOMEM)
		log_err("out of memory");
	if (r == 0 && (x->o->n_containers || x->o->n_pods)) {
		placement_containers_prom_family(f);
		for (size_t i = 0; i < x->n; i++)
			if (x->t[i].ctr && x->t[i].in_prom)
				placement_containers_prom(f, x->t[i].ctr, x->t[i].cgroup);
		placement_containers_prom_checkpoints(f, &x->containers);
	}
	if (r == 0 &&
	    (x->o->n_cgroups || x->o->n_containers || x->o->n_pods || b.left_out || b.clashes)) {
		prom_family(f, "numastatctl_placement_cgroups_left_out", "gauge",
			    "Targets (cgroups, containers, --pid arguments) whose series were left "
			    "out, to bound the scrape or because their labels would be written as "
			    "another's are (stat --cgroup has the same bound).");
		fprintf(f, "numastatctl_placement_cgroups_left_out %zu\n", b.left_out + b.clashes);
	}
	prom_budget_free(&b);
	free(pid_in);
	return r < 0 || ferror(f) ? -EIO : 0;
}

static int to_textfile(struct pctx *x, const char *dir)
{
	struct atomic_file af;
	int r = atomic_file_begin(&af, dir, TEXTFILE_NAME, 0644);

	if (r < 0) {
		log_err("--textfile %s: %s", dir, strerror(-r));
		return -EIO;
	}
	if (write_prom(af.f, x) < 0) {
		atomic_file_abort(&af);
		log_err("--textfile %s/" TEXTFILE_NAME ": cannot write", dir);
		return -EIO;
	}
	r = atomic_file_commit(&af);
	if (r < 0)
		log_err("--textfile %s/" TEXTFILE_NAME ": %s", dir, strerror(-r));
	return r < 0 ? -EIO : 0;
}

/* ---- the command ---- */

/* After the moves: each process's numa_maps read again, its actionable memory said. */
static void after_lines(struct pctx *x)
{
	for (size_t i = 0; i < x->n; i++) {
		struct target a = { .pid = x->t[i].pid };
		struct pl_verdict v;
		char ra[16], off[16];

		if (x->t[i].is_cgroup || !x->t[i].p.n_moves)
			continue;
		if (read_process(x, &a, false) <= 0) {
			printf("after: process %u: gone\n", a.pid);
			placement_free(&a.p);
			continue;
		}
		placement_verdict(&a.p, x->m.fast, x->m.n_fast, &v);
		fmt_human(v.cls[PL_C_REMOTE_ANON], FMT_SIZE, ra, sizeof(ra));
		fmt_human(v.cls[PL_C_OFF_POLICY], FMT_SIZE, off, sizeof(off));
		printf("after: process %u: remote anonymous %s, off-policy %s (numa_maps read "
		       "again)\n",
		       a.pid, ra, off);
		placement_free(&a.p);
	}
}

/* --move: the plans carried out (or shown, with --dry-run), then numa_maps read again. */
static int move(struct pctx *x, int rc)
{
	const struct placement **p = calloc(x->n ? x->n : 1, sizeof(*p));
	int r;

	if (!p) {
		log_err("out of memory");
		pctx_free(x);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < x->n; i++)
		p[i] = &x->t[i].p;
	r = placement_move_run(p, x->n, x->o->dry_run, cmd_global.json);
	free(p);
	if (!x->o->dry_run && !cmd_global.json)
		after_lines(x);
	pctx_free(x);
	return rc != EXIT_OK ? rc : r;
}

static int placement(const struct popts *o)
{
	struct pctx x = { .o = o };
	int rc = read_machine(&x), rc2 = EXIT_OK, r;
	bool any_over = false;

	if (rc != EXIT_OK)
		goto out;
	if (o->n_pids)
		rc = add_processes(&x);
	if (o->n_cgroups || o->n_containers || o->n_pods)
		rc2 = add_cgroups(&x);
	if (rc2 == EXIT_USAGE) {
		rc = EXIT_USAGE;
		goto out;
	}
	rc = rc != EXIT_OK ? rc : rc2;
	for (size_t i = 0; i < x.n; i++) {
		struct target *t = &x.t[i];

		placement_verdict(&t->p, x.m.fast, x.m.n_fast, &t->v);
		if (t->v.overflow) {
			/* A dump's sums past 64 bits: no verdict, rather than a wrapped one. */
			char path[CG_PATH_MAX + CG_ROOT_MAX + 32];

			if (t->is_cgroup) {
				cg_file_path(x.root, t->cgroup, "memory.numa_stat", path,
					     sizeof(path));
				log_err("%s: the sizes add up past 64 bits", path);
			} else
				log_err("process %u: numa_maps: the sizes add up past 64 bits",
					t->pid);
			rc = EXIT_FAIL;
			placement_free(&t->p);
			free(t->cgroup);
			free(t->cpuset);
			placement_containers_target_free(t->ctr);
			memmove(t, t + 1, (x.n - i - 1) * sizeof(*t));
			x.n--;
			i--;
			continue;
		}
		if (t->ctr && placement_containers_intent(&x.containers, t->ctr->c, x.m.map.node_of,
							  x.m.map.n, &t->p, t->ctr) < 0) {
			log_err("out of memory");
			rc = EXIT_FAIL;
			goto out;
		}
		if (keep_fixes(&x, t) < 0) {
			log_err("out of memory");
			rc = EXIT_FAIL;
			goto out;
		}
		any_over |= o->check && over(&x, t);
	}
	if (o->move)
		return move(&x, rc);
	if (o->textfile)
		r = to_textfile(&x, o->textfile);
	else if (o->prometheus)
		r = write_prom(stdout, &x);
	else
		r = cmd_global.json ? print_json(&x) : print_text(&x);
	if (r == 0 && o->textfile && o->prometheus)
		r = write_prom(stdout, &x);
	if (r < 0)
		rc = EXIT_FAIL;
	else if (any_over)
		rc = EXIT_DRIFT;
out:
	pctx_free(&x);
	return rc;
}

static int run(int argc, char *argv[])
{
	struct popts o = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc == EXIT_OK)
		rc = cmd_setup();
	if (rc == EXIT_OK && o.move && !o.dry_run)
		rc = cmd_require_live_root("placement --move",
					   "it moves the pages of running processes");
	if (rc == EXIT_OK)
		rc = placement(&o);
	free(o.pids);
	free(o.cgroups);
	free(o.containers);
	free(o.pods);
	return rc < 0 ? EXIT_OK : rc;
}

const struct cmd cmd_placement = {
	.name = "placement",
	.run = run,
	.summary = "is a process's, unit's or cgroup's memory on its CPUs' nodes?",
	.usage = usage,
	.options = options,
};
