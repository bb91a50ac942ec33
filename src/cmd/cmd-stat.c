// SPDX-License-Identifier: GPL-2.0-or-later
/* stat [INTERVAL [COUNT]]: per-node NUMA statistics. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <strings.h>
#include <unistd.h>

#include "array.h"
#include "cmd-stat.h"
#include "cmd.h"
#include "counters.h"
#include "log.h"
#include "profiles.h"
#include "snapshot.h"
#include "stat-compat.h"
#include "stat-counters.h"
#include "stat-effect.h"
#include "stat-view.h"
#include "stat-views.h"
#include "stat.h"
#include "suggest.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

enum {
	OPT_NODES = OPT_CMD_BASE,
	OPT_COMPAT,
	OPT_SORT,
	OPT_COMPACT,
	OPT_PROMETHEUS,
	OPT_TEXTFILE,
	OPT_PROM_NAMES,
	OPT_RATE,
	OPT_SNAPSHOT,
	OPT_SINCE,
	OPT_TOTALS,
	OPT_BALANCING,
	OPT_TIERS,
	OPT_CGROUP,
	OPT_INTERLEAVE,
};

static const struct cmd_option options[] = {
	{ "nodes", required_argument, OPT_NODES, "<list>",
	  "only these nodes (0,2-3 or all; ids absent inside\n"
	  "a range are skipped, as numactl does)" },
	{ "output", required_argument, 'o', "<list>",
	  "columns to print (+<list> appends to the defaults)" },
	{ "noheadings", no_argument, 'n', NULL, "do not print headings" },
	{ "raw", no_argument, 'r', NULL, "raw output: single spaces, no alignment" },
	{ "meminfo", no_argument, 'm', NULL, "per-node memory (nodeN/meminfo, hugepages)" },
	{ "bytes", no_argument, 'b', NULL, "with -m: sizes in bytes, not human units" },
	{ "skip-zero", no_argument, 'z', NULL, "leave out rows and columns that are all zero" },
	{ "sort", required_argument, OPT_SORT, "<column>", "rows by this column, largest first" },
	{ "compact", no_argument, OPT_COMPACT, NULL,
	  "abbreviated counts (K, M, G: powers of 1000)" },
	{ "width", required_argument, 'w', "<n>",
	  "fold tables to n columns (default: the terminal's)" },
	{ "compat", optional_argument, OPT_COMPAT, "<cmnz>",
	  "numastat's output byte for byte; the letters are\n"
	  "numastat's options (none: its no-argument shape)" },
	{ "prometheus", no_argument, OPT_PROMETHEUS, NULL,
	  "Prometheus text format (numastatctl_* names)" },
	{ "textfile", required_argument, OPT_TEXTFILE, "<dir>",
	  "write numastatctl.prom in directory <dir>, atomically" },
	{ "prometheus-names", required_argument, OPT_PROM_NAMES, "<numastatctl|node_exporter>",
	  "node_exporter: its meminfo_numa names, which collide\n"
	  "with that collector when it is on" },
	{ "rate", no_argument, OPT_RATE, NULL, "with an interval: per second, not per interval" },
	{ "timestamp", no_argument, 't', NULL,
	  "with an interval: a TIME column (HH:MM:SS) on each line" },
	{ "totals", no_argument, OPT_TOTALS, NULL,
	  "with an interval: the totals since the start, at the end" },
	{ "pid", required_argument, 'p', "<pid|pattern>",
	  "per-process memory per node (numa_maps)" },
	{ "interleave", no_argument, OPT_INTERLEAVE, NULL,
	  "with --pid: the mappings under weighted interleave,\n"
	  "pages per node against the weights" },
	{ "snapshot", required_argument, OPT_SNAPSHOT, "<name>",
	  "the counters saved in a snapshot (or latest) instead\n"
	  "of the live ones; 'numastatctl snapshots' lists them" },
	{ "since", required_argument, OPT_SINCE, "<name>",
	  "the live counters plus those saved in a snapshot (or\n"
	  "latest): the counts across that reset" },
	{ "balancing", no_argument, OPT_BALANCING, NULL,
	  "NUMA balancing and page migration counters" },
	{ "tiers", no_argument, OPT_TIERS, NULL,
	  "memory tiers, node kinds, distances, promotion, demotion" },
	{ "cgroup", required_argument, OPT_CGROUP, "<path|unit|pattern>",
	  "per-node memory of cgroups (cgroup v2)" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl stat [options] [<interval> [<count>]]\n"
	      "\nPer-node NUMA allocation counters (nodeN/numastat), one row per node\n"
	      "and a TOTAL row.  With an interval: the changes over each interval, one\n"
	      "line per node per sample as vmstat prints them, until Ctrl-C or <count>.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	fputs("\nAvailable output columns:\n", out);
	for (int i = 0; i < SCOL_COUNT; i++)
		fprintf(out, " %14s  %s\n", stat_columns[i].name, stat_columns[i].help);
	fputs("\nThe kernel counts allocations, not pages: one per request, whatever its\n"
	      "order (a 2 MiB huge page counts once, like a 4 KiB page).\n",
	      out);
	fputs("\nWith -m, -o and --sort take meminfo field names (MemTotal, FilePages, ...).\n",
	      out);
	fputs("With --pid (given before -o), -o takes PID, COMMAND, HUGE, HEAP, STACK, PRIVATE,\n"
	      "TOTAL and N<node>, one row per process.\n",
	      out);
	fputs("With --balancing, --tiers or --cgroup, -o and --sort take the view's columns\n"
	      "(the kernel's counter names; for --cgroup the kinds of memory, or CGROUP,\n"
	      "N<node>, TOTAL, MAIN and OFF% with several cgroups); an unknown one lists them.\n",
	      out);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n", out);
}

static int parse_nodes(struct stat_opts *o, const char *arg)
{
	int n;

	o->nodes_arg = arg;
	free(o->nodes);
	o->nodes = NULL;
	o->n_nodes = 0;
	if (strcmp(arg, "all") == 0)
		return 0;
	n = rangelist_parse(arg, &o->nodes);
	if (n <= 0) {
		log_usage_err("--nodes '%s': expected node ids such as 0,2-3, or all", arg);
		return -EINVAL;
	}
	o->n_nodes = (size_t)n;
	return 0;
}

/* "-o: unknown column 'LOCAL': did you mean LOCAL%?" */
static void unknown_column(const char *opt, const char *bad, size_t len)
{
	char hint[SUGGEST_MAX_LEN + 32];
	struct suggest s;

	suggest_init_n(&s, bad, len);
	for (size_t i = 0; i < SCOL_COUNT; i++)
		suggest_add(&s, stat_columns[i].name);
	suggest_text(&s, hint, sizeof(hint));
	log_usage_err("%s: unknown column '%.*s': %s", opt, (int)len, bad,
		      hint[0] ? hint : "see 'numastatctl stat --help'");
}

static int parse_output(struct stat_opts *o, const char *arg)
{
	const char *bad;
	size_t len;
	int r;

	if ((r = stat_columns_parse(o, arg, &bad, &len)) == 0)
		return 0;
	if (r == -E2BIG) {
		log_usage_err("-o: at most %d columns", STAT_MAX_COLS);
		return -EINVAL;
	}
	unknown_column("-o", bad, len);
	return -EINVAL;
}

static int parse_width(struct stat_opts *o, const char *arg)
{
	uint64_t v;

	if (parse_u64(arg, 1000000, &v) < 0 || v < 20) {
		log_usage_err("--width '%s': expected a number of columns from 20 to 1000000", arg);
		return -EINVAL;
	}
	o->width = (size_t)v;
	return 0;
}

static int add_pid(struct stat_opts *o, char *arg)
{
	if (array_grow(&o->pids, &o->cap_pids, o->n_pids + 1, sizeof(*o->pids)) < 0) {
		log_err("out of memory");
		return -ENOMEM;
	}
	o->pids[o->n_pids++] = arg;
	return 0;
}

static int parse_prom_names(struct stat_opts *o, const char *arg)
{
	o->prom_names_set = true;
	o->prom_node_exporter = strcmp(arg, "node_exporter") == 0;
	if (o->prom_node_exporter || strcmp(arg, "numastatctl") == 0)
		return 0;
	log_usage_err("--prometheus-names '%s': expected numastatctl or node_exporter", arg);
	return -1;
}

/* --balancing, --tiers, --cgroup: one view at a time (stat-effect.h). */
static int set_view(struct stat_opts *o, int view)
{
	if (o->view && o->view != view) {
		log_usage_err("%s and %s are separate views: give one", stat_view_option(o->view),
			      stat_view_option(view));
		return -1;
	}
	o->view = view;
	return 0;
}

static int add_cgroup(struct stat_opts *o, char *arg)
{
	if (set_view(o, STAT_VIEW_CGROUP) < 0)
		return -1;
	if (array_grow(&o->cgroups, &o->cap_cgroups, o->n_cgroups + 1, sizeof(*o->cgroups)) < 0) {
		log_err("out of memory");
		return -1;
	}
	o->cgroups[o->n_cgroups++] = arg;
	return 0;
}

/* One option; 0, or -1 when a usage error was printed. */
static int one_option(struct stat_opts *o, int c, bool *width_set)
{
	switch (c) {
	case OPT_NODES:
		return parse_nodes(o, optarg) < 0 ? -1 : 0;
	case 'o':
		o->cols_arg = optarg;
		return 0; /* resolved once -m and --pid are known */
	case 'n':
		o->noheadings = true;
		return 0;
	case 'r':
		o->raw = true;
		return 0;
	case 'm':
		o->meminfo = true;
		return 0;
	case 'b':
		o->bytes = true;
		return 0;
	case 'z':
		o->skip_zero = true;
		return 0;
	case OPT_SORT:
		o->sort_arg = optarg;
		return 0;
	case OPT_COMPACT:
		o->compact = true;
		return 0;
	case 'w':
		*width_set = true;
		return parse_width(o, optarg) < 0 ? -1 : 0;
	case OPT_COMPAT:
		o->compat = true;
		o->compat_arg = optarg;
		return 0;
	case OPT_PROMETHEUS:
		o->prometheus = true;
		return 0;
	case OPT_TEXTFILE:
		/* "" would make the file /numastatctl.prom, in the root directory. */
		if (!*optarg) {
			log_usage_err("--textfile: empty directory name");
			return -1;
		}
		o->textfile = optarg;
		return 0;
	case OPT_PROM_NAMES:
		return parse_prom_names(o, optarg);
	case OPT_RATE:
		o->rate = true;
		return 0;
	case 't':
		o->timestamp = true;
		return 0;
	case OPT_TOTALS:
		o->totals = true;
		return 0;
	case 'p':
		return add_pid(o, optarg) < 0 ? -1 : 0;
	case OPT_INTERLEAVE:
		o->interleave = true;
		return 0;
	case OPT_SNAPSHOT:
	case OPT_SINCE:
		if (o->snapshot_arg && o->since != (c == OPT_SINCE)) {
			log_usage_err("--snapshot and --since exclude each other");
			return -1;
		}
		o->snapshot_arg = optarg;
		o->since = c == OPT_SINCE;
		return 0;
	case OPT_BALANCING:
		return set_view(o, STAT_VIEW_BALANCING);
	case OPT_TIERS:
		return set_view(o, STAT_VIEW_TIERS);
	case OPT_CGROUP:
		return add_cgroup(o, optarg);
	}
	return -1;
}

/* INTERVAL [COUNT], vmstat style. */
static int parse_operands(struct stat_opts *o, int argc, char *argv[])
{
	char *end;
	uint64_t count;

	if (argc > 2) {
		log_usage_err("'%s': expected at most an interval and a count", argv[2]);
		return -1;
	}
	if (argc >= 1) {
		errno = 0;
		o->interval = strtod(argv[0], &end);
		if (errno || end == argv[0] || *end || !isfinite(o->interval) ||
		    o->interval < 0.01 || o->interval > 86400) {
			log_usage_err("interval '%s': expected seconds from 0.01 to 86400",
				      argv[0]);
			return -1;
		}
	}
	if (argc == 2) {
		if (parse_u64(argv[1], LONG_MAX, &count) < 0 || count == 0) {
			log_usage_err("count '%s': expected a positive number of samples", argv[1]);
			return -1;
		}
		o->count = (long)count;
	}
	return 0;
}

/* Checks across options, once all are known. */
static int check_combination(struct stat_opts *o)
{
	if ((o->rate || o->timestamp || o->totals) && o->interval == 0) {
		log_usage_err("%s needs an interval", o->rate        ? "--rate"
						      : o->timestamp ? "-t"
								     : "--totals");
		return -1;
	}
	if (o->interleave && !o->n_pids) {
		log_usage_err("--interleave goes with --pid");
		return -1;
	}
	/* Its own table: numastat's categories and -o's columns are another view. */
	if (o->interleave && (o->compat || o->cols_arg)) {
		log_usage_err("--interleave has its own table: it excludes %s",
			      o->compat ? "--compat" : "-o");
		return -1;
	}
	if (o->prom_names_set && !o->prometheus && !o->textfile) {
		log_usage_err("--prometheus-names needs --prometheus or --textfile");
		return -1;
	}
	/* A textfile is scraped as "now": old counters there would run backwards. */
	if (o->snapshot_arg && !o->since && o->textfile) {
		log_usage_err(
			"--snapshot shows saved counters: it excludes --textfile (--since does not)");
		return -1;
	}
	if (o->snapshot_arg && (o->interval > 0 || o->n_pids || o->meminfo)) {
		log_usage_err("--%s: a snapshot holds the NUMA counters only: it excludes -m, "
			      "--pid and an interval",
			      o->since ? "since" : "snapshot");
		return -1;
	}
	if (o->compat && (o->prometheus || o->textfile)) {
		log_usage_err(
			"--compat prints numastat's text: it excludes --prometheus and --textfile");
		return -1;
	}
	/* Text formats other tools read have no JSON form; stat -J gives the same counters. */
	if (o->json && (o->compat || o->prometheus || o->textfile)) {
		log_usage_err("%s has no JSON form: it %s ('stat -J' gives the counters)",
			      o->compat       ? "--compat"
			      : o->prometheus ? "--prometheus"
					      : "--textfile",
			      o->compat       ? "prints numastat's text"
			      : o->prometheus ? "prints the Prometheus text format"
					      : "writes the Prometheus text format");
		return -1;
	}
	if (o->meminfo && o->cols_arg)
		return 0;
	if (o->sort_arg && !o->meminfo && !o->compat && !o->view) {
		int c = stat_column_lookup(o->sort_arg, strlen(o->sort_arg));

		if (c < 0) {
			unknown_column("--sort", o->sort_arg, strlen(o->sort_arg));
			return -1;
		}
		o->sort_col = c;
		o->sort_set = true;
	}
	return 0;
}

/* -1: go on; otherwise the exit code. */
static int parse_opts(int argc, char *argv[], struct stat_opts *o)
{
	bool width_set = false;
	int c;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (one_option(o, c, &width_set) < 0)
			return EXIT_USAGE;
	}
	o->json = cmd_global.json;
	if (!width_set)
		o->width = stat_terminal_width();
	/* -o names counter columns unless -m or --pid (anywhere) gave it other columns. */
	if (!o->meminfo && !o->n_pids && !o->view && o->cols_arg &&
	    parse_output(o, o->cols_arg) < 0)
		return EXIT_USAGE;
	if (parse_operands(o, argc - optind, argv + optind) < 0 || check_combination(o) < 0)
		return EXIT_USAGE;
	return -1;
}

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
		stat_say_missing_node(&missing);
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

static int view_counters(const struct stat_opts *o, const unsigned *ids, size_t n)
{
	struct stat_row *rows = calloc(n, sizeof(*rows));
	/* clang-format off */
	char (*whys)[WHY_MAX] = calloc(n, sizeof(*whys));
	/* clang-format on */
	char why[WHY_MAX];
	int rc = EXIT_OK;

	if (!rows || !whys) {
		log_err("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	warn_frozen(o);
	if (stat_read_rows(ids, n, rows, whys) > 0) {
		rc = EXIT_FAIL;
		for (size_t i = 0; i < n; i++)
			if (rows[i].err)
				report_node_error(ids[i], "numastat", rows[i].err, whys[i]);
	}
	if (stat_print_counters(o, rows, n, 0, why, sizeof(why)) < 0) {
		log_err("%s", why);
		rc = EXIT_FAIL;
	}
out:
	free(rows);
	free(whys);
	return rc;
}

int cmd_stat_read_nodes(const unsigned *ids, size_t n, struct stat_node *nodes, bool ns, bool mi,
			bool hp)
{
	char why[WHY_MAX];
	int rc = EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		struct stat_node *nd = &nodes[i];

		/* Only these fields: clearing a whole meminfo per node costs more than reading it. */
		nd->id = ids[i];
		nd->ns_err = nd->mi_err = -ENODATA;
		nd->hp_err = 0;
		nd->hp.present = false;
		if (ns && (nd->ns_err = stat_numastat_read(ids[i], &nd->ns, why, sizeof(why))) < 0)
			report_node_error(ids[i], "numastat", nd->ns_err, why);
		if (mi && (nd->mi_err = meminfo_read(ids[i], &nd->mi, why, sizeof(why))) < 0)
			report_node_error(ids[i], "meminfo", nd->mi_err, why);
		if (hp && (nd->hp_err = hugepages_read(ids[i], &nd->hp, why, sizeof(why))) < 0) {
			log_err("%s", why);
			nd->hp.present = false;
		}
		if ((ns && nd->ns_err) || (mi && nd->mi_err) || (hp && nd->hp_err))
			rc = EXIT_FAIL;
	}
	return rc;
}

static int view_meminfo(const struct stat_opts *o, const unsigned *ids, size_t n)
{
	struct stat_node *nodes = malloc(n * sizeof(*nodes));
	struct stat_mem_cols cols;
	char why[WHY_MAX];
	int rc;

	if (!nodes) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	rc = cmd_stat_read_nodes(ids, n, nodes, false, true, true);
	if (stat_mem_columns(o, nodes, n, &cols, why, sizeof(why)) < 0) {
		log_usage_err("%s", why);
		rc = EXIT_USAGE;
	} else if (stat_mem_print(o, nodes, n, &cols, why, sizeof(why)) < 0) {
		log_err("%s", why);
		rc = EXIT_FAIL;
	}
	free(nodes);
	return rc;
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

static int view_compat(const struct stat_opts *o, const unsigned *ids, size_t n)
{
	struct stat_node *nodes = malloc(n * sizeof(*nodes));
	struct compat_node *cn = calloc(n, sizeof(*cn));
	struct compat_opts co;
	int rc = EXIT_USAGE;

	if (!nodes || !cn) {
		log_err("out of memory");
		rc = EXIT_FAIL;
	} else if (compat_setup(o, &co) == 0) {
		bool want_ns = co.numastat || !co.meminfo;

		if (co.meminfo)
			co.huge_page_size = huge_page_size();
		if (want_ns)
			warn_frozen(o);
		rc = cmd_stat_read_nodes(ids, n, nodes, want_ns, co.meminfo, false);
		for (size_t i = 0; i < n; i++)
			cn[i] = (struct compat_node){ ids[i], nodes[i].ns_err ? NULL : &nodes[i].ns,
						      nodes[i].mi_err ? NULL : &nodes[i].mi };
		if (stat_compat_print(&co, cn, n, stdout) < 0) {
			log_err("out of memory");
			rc = EXIT_FAIL;
		}
	}
	free(nodes);
	free(cn);
	return rc;
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

static int run(int argc, char *argv[])
{
	struct stat_opts o = { .sort_col = -1 };
	unsigned *ids = NULL;
	int rc = parse_opts(argc, argv, &o), n;

	if (rc != -1)
		goto out;
	if ((rc = cmd_setup()) != EXIT_OK)
		goto out;
	/* The views, interval mode and --pid live in stat-effect.c, stat-interval.c, stat-pid.c. */
	if (o.view) {
		rc = stat_effect_run(&o);
		goto out;
	}
	if (o.snapshot_arg && (rc = load_snapshot(&o)) != EXIT_OK)
		goto out;
	if (o.n_pids) {
		rc = stat_pid_run(&o);
		goto out;
	}
	if (o.interval > 0) {
		rc = stat_interval_run(&o);
		goto out;
	}
	n = select_nodes(&o, &ids);
	if (n < 0) {
		rc = -n;
		goto out;
	}
	if (o.prometheus || o.textfile) {
		/* A textfile carries it as numastatctl_counters_frozen: no journal line every 15 s. */
		if (o.prometheus)
			warn_frozen(&o);
		rc = cmd_stat_prom_run(&o, ids, (size_t)n);
	} else if (o.compat)
		rc = view_compat(&o, ids, (size_t)n);
	else if (o.meminfo)
		rc = view_meminfo(&o, ids, (size_t)n);
	else
		rc = view_counters(&o, ids, (size_t)n);
out:
	stat_snapshot_free();
	free(ids);
	free(o.nodes);
	free(o.pids);
	free(o.cgroups);
	return rc;
}

/* The per-node locality summary of `status`: the columns that answer "local?". */
static const int summary_cols[] = {
	SCOL_NODE, SCOL_NUMA_HIT, SCOL_NUMA_MISS, SCOL_OTHER_NODE, SCOL_LOCAL_PCT, SCOL_MISS_PCT,
};

int cmd_stat_summary_read(struct stat_summary *s)
{
	int n;

	*s = (struct stat_summary){ .o = { .width = stat_terminal_width() } };
	for (size_t i = 0; i < sizeof(summary_cols) / sizeof(summary_cols[0]); i++)
		s->o.cols[s->o.n_cols++] = summary_cols[i];
	n = stat_select_nodes(&s->o, &s->ids, NULL);
	if (n <= 0)
		return 0; /* no NUMA nodes here: nothing to summarise */
	s->rows = calloc((size_t)n, sizeof(*s->rows));
	s->whys = calloc((size_t)n, sizeof(*s->whys));
	if (!s->rows || !s->whys)
		return -ENOMEM;
	s->n = (size_t)n;
	stat_read_rows(s->ids, s->n, s->rows, s->whys);
	return 0;
}

int cmd_stat_summary_print(const struct stat_summary *s)
{
	char why[WHY_MAX];

	if (!s->n)
		return EXIT_OK;
	printf("\nPer-node locality (allocation events since boot or the last counter reset):\n");
	if (stat_print_counters(&s->o, s->rows, s->n, 0, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

void cmd_stat_summary_free(struct stat_summary *s)
{
	free(s->ids);
	free(s->rows);
	free(s->whys);
}

const struct cmd cmd_stat = {
	.name = "stat",
	.run = run,
	.summary = "per-node NUMA statistics",
	.usage = usage,
	.options = options,
};
