// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench: does a knob change what a page fault costs here?  A/B rounds of
 * touching fresh anonymous memory, the knob flipped between them (default
 * vm.numa_stat 1 against 0), and the difference with a 95% interval.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-run.h"
#include "bench-stats.h"
#include "cmd.h"
#include "counters.h"
#include "knob-list.h"
#include "log.h"
#include "nodes.h"
#include "numalib.h"
#include "out.h"
#include "profiles.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

enum {
	OPT_KNOB = OPT_CMD_BASE,
	OPT_VALUES,
	OPT_THREADS,
	OPT_SIZE,
	OPT_ROUNDS,
	OPT_NODE,
	OPT_NO_SNAPSHOT,
};

#define SIZE_MAX_MIB 65536

struct bench_opts {
	const char *knob, *values;
	uint64_t threads, size_mib, rounds, node;
	bool have_node, no_snapshot;
};

static const struct cmd_option options[] = {
	{ "knob", required_argument, OPT_KNOB, "<knob>",
	  "the knob to flip (default vm.numa_stat)" },
	{ "values", required_argument, OPT_VALUES, "<a>,<b>",
	  "its two values (default 1,0 for vm.numa_stat)" },
	{ "threads", required_argument, OPT_THREADS, "<n>", "worker threads (default 1)" },
	{ "node", required_argument, OPT_NODE, "<node>",
	  "run on this node's CPUs and memory (default: the\n"
	  "first node with both)" },
	{ "size", required_argument, OPT_SIZE, "<MiB>",
	  "memory each thread touches per round (default 64)" },
	{ "rounds", required_argument, OPT_ROUNDS, "<n>",
	  "rounds per value, 4..1000 (default 10)" },
	CMD_OPTION_NO_SNAPSHOT(OPT_NO_SNAPSHOT),
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl bench [options]\n"
	      "\nMeasure what a knob does to the cost of a page fault on this machine:\n"
	      "threads on one node's CPUs touch fresh anonymous memory (no THP) in rounds,\n"
	      "the knob set to A and B alternately (A B A B ...).  Prints the median ns per\n"
	      "fault and faults/s of each value, and B's difference from A with a 95%\n"
	      "confidence interval (Hodges-Lehmann estimate, Mann-Whitney interval).\n"
	      "The knob's value is restored on exit, also after Ctrl-C.  Root only.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl bench --help | less\n",
	      out);
}

/* A bounded number option; prints the usage error itself. */
static bool number_opt(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	if (parse_u64(arg, max, out) == 0 && *out >= min)
		return true;
	log_usage_err("%s: invalid value '%s': must be %" PRIu64 "..%" PRIu64, opt, arg, min, max);
	return false;
}

static int parse_opts(int argc, char *argv[], struct bench_opts *o)
{
	bool ok = true;
	int c;

	while (ok && (c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_KNOB:
			o->knob = optarg;
			break;
		case OPT_VALUES:
			o->values = optarg;
			break;
		case OPT_THREADS:
			ok = number_opt("--threads", optarg, 1, FAULT_MAX_THREADS, &o->threads);
			break;
		case OPT_SIZE:
			ok = number_opt("--size", optarg, 1, SIZE_MAX_MIB, &o->size_mib);
			break;
		case OPT_ROUNDS:
			ok = number_opt("--rounds", optarg, BENCH_ROUNDS_MIN, BENCH_ROUNDS_MAX,
					&o->rounds);
			break;
		case OPT_NODE:
			ok = o->have_node = number_opt("--node", optarg, 0, NODE_ID_MAX, &o->node);
			break;
		case OPT_NO_SNAPSHOT:
			o->no_snapshot = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (!ok)
		return EXIT_USAGE;
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	return -1;
}

/* "vm.numa_stat, vm.zone_reclaim_mode, ...": the knobs bench may flip. */
static void flippable(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < knob_count && used < len; i++)
		if (!(knob_table[i].flags & KNOB_F_NO_FLIP))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 knob_table[i].name);
}

static int check_knob(const struct knob_ref *ref)
{
	char list[512];

	if (ref->knob && !(ref->knob->flags & KNOB_F_NO_FLIP))
		return EXIT_OK;
	flippable(list, sizeof(list));
	if (!ref->knob)
		log_err("%s: not a registry knob, so nothing says it is safe to flip repeatedly; "
			"bench flips %s",
			ref->name, list);
	else
		log_err("%s: not safe to flip repeatedly (%s); bench flips %s", ref->name,
			ref->knob->note ? ref->knob->note : ref->knob->help, list);
	return EXIT_USAGE;
}

/* The knob and its two values, validated before anything else happens. */
static int plan_knob(const struct bench_opts *o, struct bench_plan *p)
{
	const char *values = o->values, *comma;
	char why[WHY_MAX], a[KVAL_MAX];
	int rc;

	if (knob_lookup(o->knob ? o->knob : "vm.numa_stat", &p->ref, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_USAGE;
	}
	if ((rc = check_knob(&p->ref)) != EXIT_OK)
		return rc;
	if (!values && strcmp(p->ref.name, "vm.numa_stat") == 0)
		values = "1,0";
	if (!values) {
		log_usage_err("--knob %s needs --values <a>,<b>", p->ref.name);
		return EXIT_USAGE;
	}
	comma = strchr(values, ',');
	if (!comma || strchr(comma + 1, ',') || (size_t)(comma - values) >= sizeof(a)) {
		log_usage_err("--values: invalid value '%s': expected two values, <a>,<b>", values);
		return EXIT_USAGE;
	}
	memcpy(a, values, (size_t)(comma - values));
	a[comma - values] = '\0';
	if (knob_parse(&p->ref, a, &p->val[0], why, sizeof(why)) < 0 ||
	    knob_parse(&p->ref, comma + 1, &p->val[1], why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static bool has(const unsigned *ids, int n, uint64_t id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* --node, or the first node with CPUs and memory. */
static int pick_node(const struct bench_opts *o, unsigned *node)
{
	unsigned *mem = NULL, *cpu = NULL;
	int nmem = node_mask_read("has_memory", &mem);
	int ncpu = node_mask_read("has_cpu", &cpu);
	int rc = EXIT_FAIL;

	if (nmem < 0 || ncpu < 0)
		log_err(NODE_DIR "/%s: %s", nmem < 0 ? "has_memory" : "has_cpu",
			sysfs_strerror(nmem < 0 ? nmem : ncpu));
	else if (o->have_node && has(mem, nmem, o->node) && has(cpu, ncpu, o->node)) {
		*node = (unsigned)o->node;
		rc = EXIT_OK;
	} else if (o->have_node) {
		log_err("--node %" PRIu64 ": the node must have both CPUs and memory", o->node);
		rc = EXIT_USAGE;
	} else {
		for (int i = 0; i < nmem && rc != EXIT_OK; i++)
			if (has(cpu, ncpu, mem[i])) {
				*node = mem[i];
				rc = EXIT_OK;
			}
		if (rc != EXIT_OK)
			log_err("no node has both CPUs and memory");
	}
	free(mem);
	free(cpu);
	return rc;
}

/* Memory for all threads stays under half of what the node has free. */
static int check_memory(const struct bench_opts *o, unsigned node)
{
	unsigned long long free_bytes, need = o->size_mib * o->threads << 20;
	char why[WHY_MAX];

	if (numalib_node_free(node, &free_bytes, why, sizeof(why)) < 0) {
		log_err("node %u: %s", node, why);
		return EXIT_FAIL;
	}
	if (need <= free_bytes / 2)
		return EXIT_OK;
	log_err("--size %" PRIu64 " x --threads %" PRIu64 ": %llu MiB is more than half of node "
		"%u's free memory (%llu MiB free); choose a smaller size",
		o->size_mib, o->threads, need >> 20, node, free_bytes >> 20);
	return EXIT_USAGE;
}

struct summary {
	double ns[2], fps[2]; /* medians */
	struct shift_ci ci;   /* of B - A, ns per fault */
	double pct, lo, hi;   /* the same, in percent of A's median */
	bool significant;
};

static int summarise(const struct bench_samples *s, struct summary *sum)
{
	int r = bench_stats_shift_ci95(s->ns[0], s->done[0], s->ns[1], s->done[1], &sum->ci);

	if (r < 0)
		return r;
	for (int v = 0; v < 2; v++) {
		sum->ns[v] = bench_stats_median(s->ns[v], s->done[v]);
		sum->fps[v] = bench_stats_median(s->fps[v], s->done[v]);
	}
	/* The interval is of the shift in ns; percentages scale it by A's median. */
	sum->pct = 100 * sum->ci.estimate / sum->ns[0];
	sum->lo = 100 * sum->ci.lo / sum->ns[0];
	sum->hi = 100 * sum->ci.hi / sum->ns[0];
	sum->significant = sum->ci.lo > 0 || sum->ci.hi < 0;
	return 0;
}

/* Upper case for the table header; the JSON keys come out in lower case. */
static const struct {
	const char *name;
	unsigned flags;
	bool json_only;
} columns[] = {
	{ "NAME", 0, true },
	{ "VALUE", 0, false },
	{ "NODE", OUT_COL_NUMBER, true },
	{ "THREADS", OUT_COL_NUMBER, true },
	{ "SIZE_MIB", OUT_COL_NUMBER, true },
	{ "ROUNDS", OUT_COL_NUMBER | OUT_COL_RIGHT, false },
	{ "NS_PER_FAULT", OUT_COL_NUMBER | OUT_COL_RIGHT, false },
	{ "FAULTS_PER_SEC", OUT_COL_NUMBER | OUT_COL_RIGHT, false },
	{ "DIFF_PCT", OUT_COL_NUMBER, true },
	{ "CI95_LOW_PCT", OUT_COL_NUMBER, true },
	{ "CI95_HIGH_PCT", OUT_COL_NUMBER, true },
	{ "SIGNIFICANT", OUT_COL_BOOLEAN, true },
};
#define N_COLUMNS (sizeof(columns) / sizeof(columns[0]))

static void fill_row(struct out_row *row, const struct bench_plan *p, const struct bench_samples *s,
		     const struct summary *sum, int v)
{
	const char *cells[N_COLUMNS] = { 0 };
	char buf[N_COLUMNS][48];

	snprintf(buf[0], 48, "%u", p->job.mem_node);
	snprintf(buf[1], 48, "%u", p->job.threads);
	snprintf(buf[2], 48, "%zu", p->job.bytes >> 20);
	snprintf(buf[3], 48, "%u", s->done[v]);
	snprintf(buf[4], 48, "%.1f", sum->ns[v]);
	snprintf(buf[5], 48, "%.0f", sum->fps[v]);
	snprintf(buf[6], 48, "%.2f", sum->pct);
	snprintf(buf[7], 48, "%.2f", sum->lo);
	snprintf(buf[8], 48, "%.2f", sum->hi);
	cells[0] = p->ref.name;
	cells[1] = p->val[v].text;
	for (int i = 0; i < 6; i++)
		cells[2 + i] = buf[i];
	if (v == 1) {
		for (int i = 6; i < 9; i++)
			cells[2 + i] = buf[i];
		cells[11] = sum->significant ? "1" : "0"; /* libsmartcols: "0" is false */
	}
	for (size_t c = 0, col = 0; c < N_COLUMNS; c++)
		if (cmd_global.json || !columns[c].json_only)
			out_row_set(row, col++, cells[c]);
}

static int print_table(const struct bench_plan *p, const struct bench_samples *s,
		       const struct summary *sum)
{
	struct out_table *t = NULL;
	char why[WHY_MAX];
	int r = out_table_new(&t, "bench", cmd_global.json ? OUT_JSON : 0, why, sizeof(why));

	for (size_t c = 0; r == 0 && c < N_COLUMNS; c++)
		if (cmd_global.json || !columns[c].json_only)
			r = out_table_add_column(t, columns[c].name, 0, columns[c].flags);
	for (int v = 0; r == 0 && v < 2; v++) {
		struct out_row *row = out_table_add_row(t);

		if (!row)
			r = -ENOMEM;
		else
			fill_row(row, p, s, sum, v);
	}
	if (r == 0)
		r = out_table_print(t, stdout);
	else
		log_err("%s", r == -ENOMEM ? "out of memory" : why);
	out_table_free(t);
	return r;
}

static int report(const struct bench_plan *p, struct bench_samples *s)
{
	struct summary sum;

	if (summarise(s, &sum) < 0) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	if (!cmd_global.json)
		log_info("%s %s against %s: %u thread%s on node %u, %zu MiB per thread and round, "
			 "%u rounds per value (A B A B ..., after one warm-up round)\n",
			 p->ref.name, p->val[0].text, p->val[1].text, p->job.threads,
			 p->job.threads == 1 ? "" : "s", p->job.mem_node, p->job.bytes >> 20,
			 p->rounds);
	/* -q: only errors, like every command; -J still prints the results. */
	if ((cmd_global.json || !log_is_quiet()) && print_table(p, s, &sum) < 0)
		return EXIT_FAIL;
	if (!cmd_global.json)
		log_info("%s=%s against %s: %+.2f%% ns per fault, 95%% CI %+.2f%% .. %+.2f%%: %s\n",
			 p->ref.name, p->val[1].text, p->val[0].text, sum.pct, sum.lo, sum.hi,
			 !sum.significant ? "no significant difference"
			 : sum.ci.hi < 0  ? "significantly faster"
					  : "significantly slower");
	return EXIT_OK;
}

static int setup(const struct bench_opts *o, struct bench_plan *p)
{
	char why[WHY_MAX];
	int rc = cmd_setup();

	/* The knob and values first: a typo is a usage error wherever it runs. */
	if (rc != EXIT_OK || (rc = plan_knob(o, p)) != EXIT_OK ||
	    (rc = cmd_require_live_root("bench", "it flips a knob of the running kernel")) !=
		    EXIT_OK)
		return rc;
	if (numalib_load(why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	if ((rc = pick_node(o, &p->job.mem_node)) != EXIT_OK ||
	    (rc = check_memory(o, p->job.mem_node)) != EXIT_OK)
		return rc;
	p->job.cpu_node = p->job.mem_node;
	p->job.threads = (unsigned)o->threads;
	p->job.bytes = (size_t)o->size_mib << 20;
	p->rounds = (unsigned)o->rounds;
	p->no_snapshot = o->no_snapshot;
	p->run_dir = cmd_run_dir();
	p->data_dir = profiles_effective_data_dir();
	return EXIT_OK;
}

/* Everything after the run: errors, the restore, the snapshot, the results. */
static int finish(const struct bench_plan *p, struct bench_samples *s, int r, const char *why)
{
	int rc = EXIT_FAIL;

	if (r == -ECANCELED)
		counters_refused(why);
	else if (r == -EINTR)
		log_err("interrupted by SIG%s after %u of %u rounds", sigabbrev_np(s->stop_signal),
			s->done[0] + s->done[1], 2 * p->rounds);
	else if (r < 0)
		log_err("%s", why);
	if (s->snapshot_path[0])
		counters_saved(s->snapshot_path);
	if (s->restore_err < 0)
		log_err("%s: the original value %s could not be restored: %s", p->ref.name,
			s->orig.text, s->restore_why);
	else if (r < 0 && s->touched)
		log_err("%s: restored to %s", p->ref.name, s->orig.text);
	if (r == 0)
		rc = report(p, s);
	return s->restore_err < 0 ? EXIT_FAIL : rc;
}

static int run(int argc, char *argv[])
{
	struct bench_opts o = { .threads = 1, .size_mib = 64, .rounds = 10 };
	struct bench_plan p = { 0 };
	struct bench_samples s;
	char why[WHY_MAX];
	int rc = parse_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if ((rc = setup(&o, &p)) != EXIT_OK)
		return rc;
	rc = bench_run(&p, &s, why, sizeof(why));
	rc = finish(&p, &s, rc, why);
	bench_samples_free(&s);
	return rc;
}

const struct cmd cmd_bench = {
	.name = "bench",
	.run = run,
	.summary = "A/B page-fault benchmark of a knob (vm.numa_stat 1 against 0)",
	.usage = usage,
	.options = options,
};
