// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter table of `stat` (stat-view.h), the view without an option of
 * its own: nodeN/numastat as a table or JSON, -m's per-node memory,
 * --compat's numastat text, the Prometheus text of all of it, and interval
 * mode (stat-sampler.c).  --snapshot and --since answer from saved counters
 * (stat_numastat_read()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd-stat.h"
#include "cmd.h"
#include "counters.h"
#include "log.h"
#include "profiles.h"
#include "snapshot.h"
#include "stat-compat.h"
#include "stat-counters.h"
#include "stat-exposition.h"
#include "stat-sampler.h"
#include "stat-view.h"
#include "stat-views.h"
#include "stat.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

struct counters {
	const struct stat_opts *o;
	unsigned *ids; /* the nodes shown, one-shot */
	size_t n;
	/* clang-format off */
	char (*whys)[WHY_MAX];          /* the table: why a node's row is left out */
	/* clang-format on */
	struct stat_row *rows;      /* the table */
	struct stat_nodes nodes;    /* -m, --compat, --prometheus: the nodes' files */
	struct compat_opts co;      /* --compat */
	struct stat_mem_cols mem;   /* -m */
	struct stat_exposition *ex; /* --prometheus, --textfile */
	struct stat_sampler *s;     /* interval mode */
	bool snapshot;              /* a snapshot was loaded */
};

/* --since: the saved counts of a node that is gone are not shown anywhere: say so. */
static void warn_gone(const unsigned *ids, size_t n)
{
	const struct snapshot *s = stat_snapshot();

	for (size_t i = 0; s && i < s->n; i++) {
		size_t k = 0;

		while (k < n && ids[k] != s->ids[i])
			k++;
		if (k == n)
			log_warn(
				"node %u of snapshot %s is not here: its saved counts are left out",
				s->ids[i], s->name);
	}
}

static int select_nodes(const struct stat_opts *o, unsigned **ids)
{
	struct node_miss missing = { 0 };
	int n = o->snapshot_arg && !o->since ? stat_snapshot_nodes(o, ids, &missing)
					     : stat_select_nodes(o, ids, &missing);

	if (n == -ENOENT && o->snapshot_arg && !o->since) {
		log_err("--nodes: node %u: not in snapshot %s", missing.id, stat_snapshot()->name);
		return -EXIT_USAGE;
	}
	if (n == -ENOENT) {
		stat_view_say_missing_node(&missing);
		return -EXIT_USAGE;
	}
	if (n > 0 && o->since && !o->n_nodes)
		warn_gone(*ids, (size_t)n);
	if (n < 0) {
		log_err("/sys/devices/system/node: %s", sysfs_strerror(n));
		return -EXIT_FAIL;
	}
	if (n == 0) {
		log_err("/sys/devices/system/node: no NUMA nodes (a kernel without CONFIG_NUMA?)");
		return -EXIT_FAIL;
	}
	return n;
}

/* Warn once: with vm.numa_stat=0 the kernel keeps every counter at zero. */
static void warn_frozen(const struct stat_opts *o)
{
	/* Saved counters were counted before; only live ones can be frozen. */
	if ((!o->snapshot_arg || o->since) && stat_counters_frozen())
		counters_warn_frozen("");
}

static void report_node_error(unsigned id, const char *file, int err, const char *why)
{
	/* sysfs_strerror() words ENOENT for knobs; a node file is simply missing. */
	log_err(NODE_DIR "/node%u/%s: %s", id, file, err == -ENOENT ? "file is missing" : why);
}

/*
 * Read the files a mode needs into c->nodes (ns: numastat, mi: meminfo, hp:
 * hugepages), each node's parse through one scratch copy; per-node
 * failures are said.  EXIT_OK or EXIT_FAIL.
 */
static int read_nodes(struct counters *c, bool ns, bool mi, bool hp)
{
	struct stat_nodes *t = &c->nodes;
	struct numastat *s = ns ? malloc(sizeof(*s)) : NULL;
	struct meminfo *m = mi ? malloc(sizeof(*m)) : NULL;
	char why[WHY_MAX];
	int rc = EXIT_OK;

	if ((ns && !s) || (mi && !m) || stat_nodes_init(t, c->ids, c->n) < 0 ||
	    (hp && stat_nodes_want_hugepages(t) < 0)) {
		free(s);
		free(m);
		log_err("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < c->n; i++) {
		unsigned id = c->ids[i];

		if (ns && (t->ns_err[i] = stat_numastat_read(id, s, why, sizeof(why))) < 0)
			report_node_error(id, "numastat", t->ns_err[i], why);
		else if (ns && stat_nodes_set_numastat(t, i, s) < 0)
			t->ns_err[i] = -ENOMEM;
		if (mi && (t->mi_err[i] = meminfo_read(id, m, why, sizeof(why))) < 0)
			report_node_error(id, "meminfo", t->mi_err[i], why);
		else if (mi && stat_nodes_set_meminfo(t, i, m) < 0)
			t->mi_err[i] = -ENOMEM;
		if (hp && (t->hp_err[i] = hugepages_read(id, &t->hp[i], why, sizeof(why))) < 0) {
			log_err("%s", why);
			t->hp[i].present = false;
		}
		if ((ns && t->ns_err[i]) || (mi && t->mi_err[i]) || (hp && t->hp_err[i]))
			rc = EXIT_FAIL;
	}
	free(s);
	free(m);
	return rc;
}

/* The table: every node's counters, a failed node named and left out. */
static int setup_table(struct counters *c, int *rc)
{
	c->rows = calloc(c->n, sizeof(*c->rows));
	c->whys = calloc(c->n, sizeof(*c->whys));
	if (!c->rows || !c->whys) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	warn_frozen(c->o);
	if (stat_read_rows(c->ids, c->n, c->rows, c->whys) > 0) {
		*rc = EXIT_FAIL;
		for (size_t i = 0; i < c->n; i++)
			if (c->rows[i].err)
				report_node_error(c->ids[i], "numastat", c->rows[i].err,
						  c->whys[i]);
	}
	return EXIT_OK;
}

/* -m: the nodes' meminfo and hugepages, and the fields -o and --sort name. */
static int setup_meminfo(struct counters *c, int *rc)
{
	char why[WHY_MAX];

	*rc = read_nodes(c, false, true, true);
	if (stat_mem_columns(c->o, &c->nodes, &c->mem, why, sizeof(why)) < 0) {
		log_usage_err("%s", why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* numastat's option letters (--compat=mn) and the matching stat options. */
static int compat_setup(const struct stat_opts *o, struct compat_opts *co)
{
	uint64_t id;

	*co = (struct compat_opts){ .meminfo = o->meminfo,
				    .skip_zero = o->skip_zero,
				    .compress = o->compact,
				    .sort = COMPAT_SORT_NONE };
	for (const char *p = o->compat_arg; p && *p; p++) {
		switch (*p) {
		case '-':
			break;
		case 'c':
			co->compress = true;
			break;
		case 'm':
			co->meminfo = true;
			break;
		case 'n':
			co->numastat = true;
			break;
		case 'z':
			co->skip_zero = true;
			break;
		default:
			log_usage_err("--compat=%s: '%c' is not a numastat option here "
				      "(c, m, n, z; -p is --pid)",
				      o->compat_arg, *p);
			return -1;
		}
	}
	if (co->meminfo && o->snapshot_arg) {
		log_usage_err("--compat=%s: a snapshot holds the NUMA counters only, not meminfo",
			      o->compat_arg);
		return -1;
	}
	if (o->sort_arg) {
		if (strcasecmp(o->sort_arg, "total") == 0)
			co->sort = COMPAT_SORT_TOTAL;
		else if (parse_u64(o->sort_arg, NODE_ID_MAX, &id) == 0)
			co->sort = (int)id;
		else {
			log_usage_err("--sort '%s': with --compat, a node id or total",
				      o->sort_arg);
			return -1;
		}
	}
	co->width = stat_compat_screen_width(o->width);
	co->page_size = (double)sysconf(_SC_PAGESIZE);
	return 0;
}

/* numastat reads Hugepagesize from /proc/meminfo (kB); 0 when absent. */
static double huge_page_size(void)
{
	char buf[8192], *p;
	uint64_t kb = 0;
	ssize_t n = sysfs_read_file("/proc/meminfo", buf, sizeof(buf));

	if (n <= 0 || !(p = strstr(buf, "\nHugepagesize:")))
		return 0;
	p += strlen("\nHugepagesize:");
	p += strspn(p, " ");
	if (parse_u64_n(p, strspn(p, "0123456789"), UINT64_MAX / 1024, &kb) < 0)
		return 0;
	return (double)kb * 1024;
}

/* --compat: numastat's letters, then the files its shape needs. */
static int setup_compat(struct counters *c, int *rc)
{
	struct compat_opts *co = &c->co;
	bool want_ns;

	if (compat_setup(c->o, co) != 0)
		return EXIT_USAGE;
	want_ns = co->numastat || !co->meminfo;
	if (co->meminfo)
		co->huge_page_size = huge_page_size();
	if (want_ns)
		warn_frozen(c->o);
	*rc = read_nodes(c, want_ns, co->meminfo, false);
	return EXIT_OK;
}

/* --prometheus, --textfile: the nodes' files, the knobs, the profile's drift. */
static int setup_prom(struct counters *c, int *rc)
{
	/* A snapshot holds counters: no memory, knob values or drift of that time. */
	bool saved = c->o->snapshot_arg && !c->o->since;

	/* A textfile carries it as numastatctl_counters_frozen: no journal line every 15 s. */
	if (c->o->prometheus)
		warn_frozen(c->o);
	c->ex = malloc(sizeof(*c->ex));
	if (!c->ex) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	*rc = read_nodes(c, true, !saved, !saved);
	stat_exposition_read(c->ex, c->o, &c->nodes);
	return EXIT_OK;
}

/* --snapshot/--since NAME: a name that is not there is a usage error, like a missing -f file. */
static int load_snapshot(const struct stat_opts *o)
{
	char why[WHY_MAX];
	int r = stat_snapshot_load(profiles_effective_data_dir(), o->snapshot_arg, o->since, why,
				   sizeof(why));

	if (r == 0)
		return EXIT_OK;
	log_err("--%s: %s", o->since ? "since" : "snapshot", why);
	return r == -EINVAL || (r == -ENOENT && strcmp(o->snapshot_arg, "latest") != 0) ? EXIT_USAGE
											: EXIT_FAIL;
}

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	struct counters *c = ctx;
	int r, n;

	c->o = o;
	c->snapshot = o->snapshot_arg != NULL;
	if (o->snapshot_arg && (r = load_snapshot(o)) != EXIT_OK)
		return r;
	if (o->interval > 0)
		return stat_sampler_setup(&c->s, o);
	n = select_nodes(o, &c->ids);
	if (n < 0)
		return -n;
	c->n = (size_t)n;
	if (o->prometheus || o->textfile)
		return setup_prom(c, rc);
	if (o->compat)
		return setup_compat(c, rc);
	if (o->meminfo)
		return setup_meminfo(c, rc);
	return setup_table(c, rc);
}

static int sample(void *ctx, double secs, enum stat_sample how)
{
	struct counters *c = ctx;

	return stat_sampler_sample(c->s, secs, how);
}

static int print(void *ctx, const struct stat_loop_info *in)
{
	struct counters *c = ctx;
	char why[WHY_MAX];
	int r;

	if (in)
		return stat_sampler_print(c->s, in);
	if (c->o->compat) {
		if ((r = stat_compat_print(&c->co, &c->nodes, stdout)) < 0)
			log_err("out of memory");
		return r;
	}
	if (c->o->meminfo)
		r = stat_mem_print(c->o, &c->nodes, &c->mem, why, sizeof(why));
	else
		r = stat_print_counters(c->o, c->rows, c->n, 0, why, sizeof(why));
	if (r < 0)
		log_err("%s", why);
	return r;
}

static int prom(void *ctx, FILE *f)
{
	const struct counters *c = ctx;

	return stat_prom_write(f, &c->ex->p);
}

static void release(void *ctx)
{
	struct counters *c = ctx;

	stat_sampler_free(c->s);
	if (c->ex)
		stat_exposition_free(c->ex);
	free(c->ex);
	free(c->ids);
	free(c->rows);
	free(c->whys);
	stat_nodes_free(&c->nodes);
	if (c->snapshot)
		stat_snapshot_free();
}

const struct stat_view stat_view_counters = {
	.name = "counters",
	.textfile = "numastatctl.prom",
	.ctx_size = sizeof(struct counters),
	.flags = STAT_VIEW_HOTPLUG,
	.setup = setup,
	.sample = sample,
	.print = print,
	.prom = prom,
	.free = release,
};
