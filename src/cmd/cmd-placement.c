// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement: is a workload's memory where its CPUs are?  For each process
 * (--pid PID or a name pattern, as stat --pid takes them) and each cgroup
 * (--cgroup: a path, a systemd unit or a pattern, as stat --cgroup takes
 * them), container and pod: the CPUs it may run on and their nodes, the
 * nodes its memory may use, its memory per node by kind, the verdict in
 * bytes and percent and the plan (placement.h decides them).  This file
 * takes the options and drives the run: the targets are found in
 * placement-targets.c, printed by placement-text.c, placement-json.c and
 * placement-prom.c, and --move carried out by placement-move.c.  --check
 * turns actionable memory above a share into exit status 3, for monitoring.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "cg-find.h"
#include "cg-unit.h"
#include "cmd.h"
#include "lock.h"
#include "log.h"
#include "nodes.h"
#include "placement-cmd.h"
#include "placement-containers.h"
#include "placement-machine.h"
#include "placement-move.h"
#include "placement.h"
#include "procmaps.h"

enum {
	OPT_PID = OPT_CMD_BASE,
	OPT_CGROUP,
	OPT_CHECK,
	OPT_MAX_REMOTE_ANON,
	OPT_MAX_NEAR,
	OPT_PROMETHEUS,
	OPT_TEXTFILE,
	OPT_CONTAINER,
	OPT_POD,
	OPT_MOVE,
	OPT_DRY_RUN
};

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
	{ "max-near", required_argument, OPT_MAX_NEAR, "<pct>",
	  "near memory (remote anonymous on a node of the\n"
	  "same package) above this share is actionable too\n"
	  "(default: never)" },
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
	      "the commands that would; where the packages are known, far on another\n"
	      "package and near on the same one, near acted on only above --max-near),\n"
	      "remote file and shared (expected: page cache stays where it was first\n"
	      "read), off-policy, unknown (estimates), and the share on the fast memory\n"
	      "tier.\n"
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

static int parse_pct(const char *opt, const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(*out) || *out < 0 || *out > 100) {
		log_usage_err("%s '%s': expected a percentage from 0 to 100", opt, arg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int parse_args(int argc, char *argv[], struct popts *o)
{
	int c, rc = EXIT_OK;

	o->max_remote_anon = DEFAULT_MAX_REMOTE_ANON;
	o->max_near = PL_NEAR_NEVER;
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
			rc = parse_pct("--max-remote-anon", optarg, &o->max_remote_anon);
			break;
		case OPT_MAX_NEAR:
			rc = parse_pct("--max-near", optarg, &o->max_near);
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

/*
 * Is the target's actionable memory (remote anonymous, off-policy, near
 * above --max-near) over --check's share?
 */
bool cmd_placement_over(const struct pctx *x, const struct target *t)
{
	return placement_pct(t->v.actionable, t->v.total) > x->o->max_remote_anon;
}

/* ---- the command ---- */

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
		placement_text_after(x);
	pctx_free(x);
	return rc != EXIT_OK ? rc : r;
}

static int placement(const struct popts *o)
{
	struct pctx x = { .o = o };
	int rc = placement_targets_machine(&x), rc2 = EXIT_OK, r;
	bool any_over = false;

	if (rc != EXIT_OK)
		goto out;
	if (o->n_pids)
		rc = placement_targets_add_processes(&x);
	if (o->n_cgroups || o->n_containers || o->n_pods)
		rc2 = placement_targets_add_cgroups(&x);
	if (rc2 == EXIT_USAGE) {
		rc = EXIT_USAGE;
		goto out;
	}
	rc = rc != EXIT_OK ? rc : rc2;
	for (size_t i = 0; i < x.n; i++) {
		struct target *t = &x.t[i];

		placement_verdict(&t->p, x.m.fast, x.m.n_fast, &t->v);
		placement_near_decide(&t->p, o->max_near, &t->v);
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
		any_over |= o->check && cmd_placement_over(&x, t);
	}
	if (o->move)
		return move(&x, rc);
	if (o->textfile)
		r = placement_prom_textfile(&x, o->textfile);
	else if (o->prometheus)
		r = placement_prom_write(stdout, &x);
	else
		r = cmd_global.json ? placement_json_print(&x) : placement_text_print(&x);
	if (r == 0 && o->textfile && o->prometheus)
		r = placement_prom_write(stdout, &x);
	if (r < 0)
		rc = EXIT_FAIL;
	else if (any_over)
		rc = EXIT_DRIFT;
out:
	pctx_free(&x);
	return rc;
}

/*
 * --move is a writer: it holds the lock of set and apply from before the
 * plan to the end of the report, so a second --move of the same target
 * plans what the first left, and neither counts the other's pages.
 */
static int lock_for_move(const struct popts *o, struct state_lock *l)
{
	char why[WHY_MAX];

	if (!o->move || o->dry_run)
		return EXIT_OK;
	if (lock_acquire(l, cmd_run_dir(), why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int run(int argc, char *argv[])
{
	struct popts o = { 0 };
	struct state_lock l = { .fd = -1, .dirfd = -1 };
	int rc = parse_args(argc, argv, &o);

	if (rc == EXIT_OK)
		rc = cmd_setup();
	if (rc == EXIT_OK && o.move && !o.dry_run)
		rc = cmd_require_live_root("placement --move",
					   "it moves the pages of running processes");
	if (rc == EXIT_OK)
		rc = lock_for_move(&o, &l);
	if (rc == EXIT_OK)
		rc = placement(&o);
	lock_release(&l);
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
