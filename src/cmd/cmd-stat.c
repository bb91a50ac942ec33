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
#include "log.h"
#include "stat-counters.h"
#include "stat-view.h"
#include "stat.h"
#include "suggest.h"
#include "value.h"
#include "why.h"
#include "wrap.h"

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
	OPT_INTERLEAVE,
	OPT_CONTAINER,
	OPT_POD,
	OPT_VIEW, /* the option of the view at index i of views[]: OPT_VIEW + i */
};

/*
 * The views of stat: the only list of them.  The first is the counter table
 * (no option: what stat shows without one), --pid picks the second; the
 * others are picked by their own options, which --help lists after the
 * options below, in this order.  Adding a view: HACKING.md.
 */
/* One line a view: */
/* clang-format off */
const struct stat_view *const cmd_stat_views[] = {
	&stat_view_counters,
	&stat_view_pid,
	&stat_view_balancing,
	&stat_view_tiers,
	&stat_view_cgroup,
	&stat_view_reclaim,
	&stat_view_migration,
	&stat_view_reasons,
	NULL,
};
/* clang-format on */

/* The options of stat but the views' (cmd_stat_options() adds those). */
static const struct cmd_option base_options[] = {
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
	{ "container", required_argument, OPT_CONTAINER, "<name|id|pattern>",
	  "--cgroup of a container (name, id, pattern)" },
	{ "pod", required_argument, OPT_POD, "<namespace/name>",
	  "--cgroup of a Kubernetes pod's containers" },
	{ 0 },
};

static struct cmd_option options[CMD_OPTIONS_MAX + 1];

const struct cmd_option *cmd_stat_options(void)
{
	size_t n = 0;

	if (options[0].name)
		return options;
	for (const struct cmd_option *b = base_options; b->name && n < CMD_OPTIONS_MAX; b++)
		options[n++] = *b;
	for (size_t i = 0; cmd_stat_views[i] && n < CMD_OPTIONS_MAX; i++)
		if (cmd_stat_views[i]->option.name) {
			options[n] = cmd_stat_views[i]->option;
			options[n++].val = OPT_VIEW + (int)i;
		}
	return options;
}

/* "With --pid (given before -o), -o takes PID, COMMAND, ... and N<node>, one row per process." */
static void pid_columns_usage(FILE *out)
{
	char text[512] = "With --pid (given before -o), -o takes";
	size_t n = 0, j = strlen(text);

	while (stat_view_pid.cols[n].name)
		n++;
	for (size_t i = 0; i < n && j < sizeof(text); i++)
		j += (size_t)snprintf(text + j, sizeof(text) - j, "%s %s",
				      i == 0       ? ""
				      : i + 1 == n ? " and"
						   : ",",
				      stat_view_pid.cols[i].name);
	if (j < sizeof(text))
		snprintf(text + j, sizeof(text) - j, ", one row per process.");
	wrap_fputs(out, text, 0, 0, 80);
	fputc('\n', out);
}

/* "With --balancing, --tiers or --cgroup, -o and --sort take the view's columns ..." */
static void view_columns_usage(FILE *out)
{
	char text[1024] = "With";
	size_t n = 0, k = 0, j = strlen(text);

	for (size_t i = 0; cmd_stat_views[i]; i++)
		n += cmd_stat_views[i]->option.name != NULL;
	for (size_t i = 0; cmd_stat_views[i] && j < sizeof(text); i++)
		if (cmd_stat_views[i]->option.name)
			j += (size_t)snprintf(text + j, sizeof(text) - j, "%s --%s",
					      k++ == 0 ? ""
					      : k == n ? " or"
						       : ",",
					      cmd_stat_views[i]->option.name);
	if (j < sizeof(text))
		snprintf(text + j, sizeof(text) - j,
			 ", -o and --sort take the view's own columns, which numastatctl(8) lists "
			 "(for --cgroup the kinds of memory of the kernel); an unknown name lists "
			 "them here.");
	wrap_fputs(out, text, 0, 0, 80);
	fputc('\n', out);
}

static void usage(FILE *out)
{
	cmd_stat_options();
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
	pid_columns_usage(out);
	view_columns_usage(out);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl stat --help | less\n",
	      out);
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

/* "-o: unknown column 'LOCAL': did you mean LOCAL%?", or only the first part. */
static void unknown_column(const char *opt, const char *bad, size_t len)
{
	char hint[SUGGEST_MAX_LEN + 32];
	struct suggest s;

	suggest_init_n(&s, bad, len);
	for (size_t i = 0; i < SCOL_COUNT; i++)
		suggest_add(&s, stat_columns[i].name);
	suggest_text(&s, hint, sizeof(hint));
	/* Without a suggestion, the usage error's own line points at the list. */
	log_usage_err("%s: unknown column '%.*s'%s%s", opt, (int)len, bad, hint[0] ? ": " : "",
		      hint);
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

/* arg appended to the list v of n (room for cap); -ENOMEM, said. */
static int push_arg(char ***v, size_t *n, size_t *cap, char *arg)
{
	if (array_grow(v, cap, *n + 1, sizeof(**v)) < 0) {
		log_err("out of memory");
		return -ENOMEM;
	}
	(*v)[(*n)++] = arg;
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

/* A view's option: one view at a time; an argument joins the view's (--cgroup a --cgroup b). */
static int pick_view(struct stat_opts *o, const struct stat_view **picked,
		     const struct stat_view *v, char *arg)
{
	if (*picked && *picked != v) {
		log_usage_err("--%s and --%s are separate views: give one", (*picked)->option.name,
			      v->option.name);
		return -1;
	}
	*picked = v;
	if (!arg)
		return 0;
	return push_arg(&o->view_args, &o->n_view_args, &o->cap_view_args, arg) < 0 ? -1 : 0;
}

/* One option; 0, or -1 when a usage error was printed. */
static int one_option(struct stat_opts *o, const struct stat_view **view, int c, bool *width_set)
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
		return push_arg(&o->pids, &o->n_pids, &o->cap_pids, optarg) < 0 ? -1 : 0;
	case OPT_INTERLEAVE:
		o->interleave = true;
		return 0;
	/* The cgroup view, over the cgroups of containers (placement-containers.c). */
	case OPT_CONTAINER:
		if (push_arg(&o->containers, &o->n_containers, &o->cap_containers, optarg) < 0)
			return -1;
		return pick_view(o, view, &stat_view_cgroup, NULL);
	case OPT_POD:
		if (push_arg(&o->pods, &o->n_pods, &o->cap_pods, optarg) < 0)
			return -1;
		return pick_view(o, view, &stat_view_cgroup, NULL);
	case OPT_SNAPSHOT:
	case OPT_SINCE:
		if (o->snapshot_arg && o->since != (c == OPT_SINCE)) {
			log_usage_err("--snapshot and --since exclude each other");
			return -1;
		}
		o->snapshot_arg = optarg;
		o->since = c == OPT_SINCE;
		return 0;
	}
	if (c >= OPT_VIEW &&
	    c < OPT_VIEW + (int)(sizeof(cmd_stat_views) / sizeof(*cmd_stat_views)) - 1)
		return pick_view(o, view, cmd_stat_views[c - OPT_VIEW], optarg);
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

/* Checks across options, once all are known; view: the one an option picked, or NULL. */
static int check_combination(struct stat_opts *o, const struct stat_view *view)
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
	if (o->sort_arg && !o->meminfo && !o->compat && !view) {
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

/* -1: go on; otherwise the exit code.  *view: the view an option picked, or NULL. */
static int parse_opts(int argc, char *argv[], struct stat_opts *o, const struct stat_view **view)
{
	bool width_set = false;
	int c;

	while ((c = cmd_getopt(argc, argv, cmd_stat_options())) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (one_option(o, view, c, &width_set) < 0)
			return EXIT_USAGE;
	}
	o->json = cmd_global.json;
	if (!width_set)
		o->width = stat_terminal_width();
	/* -o names counter columns unless -m or --pid (anywhere) gave it other columns. */
	if (!o->meminfo && !o->n_pids && !*view && o->cols_arg && parse_output(o, o->cols_arg) < 0)
		return EXIT_USAGE;
	if (parse_operands(o, argc - optind, argv + optind) < 0 || check_combination(o, *view) < 0)
		return EXIT_USAGE;
	return -1;
}

static int run(int argc, char *argv[])
{
	struct stat_opts o = { .sort_col = -1 };
	const struct stat_view *view = NULL;
	int rc = parse_opts(argc, argv, &o, &view);

	if (rc == -1 && (rc = cmd_setup()) == EXIT_OK)
		rc = stat_view_run(view       ? view
				   : o.n_pids ? &stat_view_pid
					      : &stat_view_counters,
				   &o);
	free(o.nodes);
	free(o.pids);
	free(o.view_args);
	free(o.containers);
	free(o.pods);
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
