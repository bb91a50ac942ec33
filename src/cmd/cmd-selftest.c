// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest: fault in fresh pages on each node through libnuma and prove that
 * the node's counters move (numa_hit, local_node; other_node from a CPU of
 * another node), and, with --toggle, that they stand still at vm.numa_stat=0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "bench-fault.h"
#include "bench-guard.h"
#include "cmd.h"
#include "counters.h"
#include "log.h"
#include "nodes.h"
#include "numalib.h"
#include "out.h"
#include "profiles.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

enum { OPT_TOGGLE = OPT_CMD_BASE, OPT_NO_SNAPSHOT, OPT_PAGES };

#define PAGES_DEFAULT 1024
#define PAGES_MAX (1u << 20)

struct check {
	const char *result;  /* "PASS", "FAIL", "SKIP" */
	const char *name;    /* "local", "remote", "counting off", ... */
	int node, cpu_node;  /* -1: not about one node */
	const char *counter; /* NULL: no number */
	int64_t delta;
	char want[32];
	char note[WHY_MAX + 128]; /* a reason and the words around it */
};

struct selftest {
	bool toggle, no_snapshot;
	uint64_t pages;
	unsigned *mem, *cpu; /* nodes with memory, with CPUs */
	int nmem, ncpu;
	struct knob_ref knob; /* vm.numa_stat */
	struct kval orig;     /* its value at the start */
	bool have_knob, guarded, stopped;
	struct knob_guard guard;
	struct check *checks;
	size_t n, cap;
	unsigned failed;
};

static const struct cmd_option options[] = {
	{ "toggle", no_argument, OPT_TOGGLE, NULL,
	  "also check that vm.numa_stat=0 stops the counters:\n"
	  "switches it off for a moment (which zeroes every\n"
	  "NUMA counter; they are saved first) and restores it" },
	{ "no-snapshot", no_argument, OPT_NO_SNAPSHOT, NULL,
	  "with --toggle: do not save the counters first" },
	{ "pages", required_argument, OPT_PAGES, "<n>",
	  "pages to fault in per check (default 1024)" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl selftest [options]\n"
	      "\nFault in fresh pages on every node with memory (libnuma) and check that\n"
	      "the node's NUMA counters move as the kernel documents: numa_hit and\n"
	      "local_node for local placement, other_node for placement from another\n"
	      "node's CPU.  One PASS, FAIL or SKIP line per check; exit 0 when none fails.\n"
	      "Root only, live system only.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl selftest --help | less\n",
	      out);
}

static int parse_opts(int argc, char *argv[], struct selftest *st)
{
	uint64_t v;
	int c;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_TOGGLE:
			st->toggle = true;
			break;
		case OPT_NO_SNAPSHOT:
			st->no_snapshot = true;
			break;
		case OPT_PAGES:
			if (parse_u64(optarg, PAGES_MAX, &v) < 0 || v < 16) {
				log_usage_err("--pages: invalid value '%s': must be 16..%u", optarg,
					      PAGES_MAX);
				return EXIT_USAGE;
			}
			st->pages = v;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	return -1;
}

/* Refusals before anything is loaded or touched. */
static int preflight(void)
{
	int rc = cmd_setup();

	if (rc != EXIT_OK)
		return rc;
	return cmd_require_live_root("selftest",
				     "libnuma places memory on the running kernel's nodes");
}

/* Record a check (print_check() shows it at once in text mode; JSON waits for the end). */
static struct check *add_check(struct selftest *st, const char *result, const char *name, int node,
			       int cpu_node)
{
	static struct check dropped;
	struct check *c;

	if (array_grow(&st->checks, &st->cap, st->n + 1, sizeof(*st->checks)) < 0) {
		st->failed++;
		return memset(&dropped, 0, sizeof(dropped));
	}
	c = &st->checks[st->n++];
	*c = (struct check){ .result = result, .name = name, .node = node, .cpu_node = cpu_node };
	if (strcmp(result, "FAIL") == 0)
		st->failed++;
	return c;
}

static void print_check(const struct selftest *st, const struct check *c)
{
	if (cmd_global.json)
		return;
	log_info("%s %s: ", c->result, c->name);
	if (c->node >= 0)
		log_info("node %d from a CPU of node %d: ", c->node, c->cpu_node);
	if (c->counter)
		log_info("%s %+" PRId64 " (want %s)%s%s\n", c->counter, c->delta, c->want,
			 c->note[0] ? ": " : "", c->note);
	else
		log_info("%s\n", c->note);
}

static void skip(struct selftest *st, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void skip(struct selftest *st, const char *name, const char *fmt, ...)
{
	struct check *c = add_check(st, "SKIP", name, -1, -1);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->note, sizeof(c->note), fmt, ap);
	va_end(ap);
	print_check(st, c);
}

static int64_t delta_of(const struct numastat *b, const struct numastat *a, const char *key)
{
	uint64_t x = 0, y = 0;

	numastat_get(b, key, &x);
	numastat_get(a, key, &y);
	return (int64_t)(y - x);
}

/* One PASS/FAIL line: counter moved by at least `least` (or by exactly 0 when least is 0). */
static void judge(struct selftest *st, const char *name, int node, int cpu_node,
		  const char *counter, int64_t delta, int64_t least)
{
	bool pass = least ? delta >= least : delta == 0;
	struct check *c = add_check(st, pass ? "PASS" : "FAIL", name, node, cpu_node);

	c->counter = counter;
	c->delta = delta;
	if (least)
		snprintf(c->want, sizeof(c->want), ">= +%" PRId64, least);
	else
		snprintf(c->want, sizeof(c->want), "+0");
	if (!pass && delta < 0)
		snprintf(c->note, sizeof(c->note),
			 "the counters were reset meanwhile "
			 "(vm.numa_stat switched off by someone else?)");
	print_check(st, c);
}

/* Fault pages in; false (with a FAIL line) when that could not be done. */
static bool probe(struct selftest *st, const char *name, unsigned node, unsigned cpu_node,
		  struct numastat *before, struct numastat *after)
{
	char why[WHY_MAX];
	int r = bench_fault_probe(node, cpu_node, st->pages, &bench_guard_stop, before, after, why,
				  sizeof(why));
	struct check *c;

	if (r == 0)
		return true;
	if (r == -EINTR) {
		st->stopped = true;
		return false;
	}
	c = add_check(st, "FAIL", name, (int)node, (int)cpu_node);
	snprintf(c->note, sizeof(c->note), "%s", why);
	print_check(st, c);
	return false;
}

static bool has(const unsigned *ids, int n, unsigned id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Local placement: hit and local on the node, at least one event per page. */
static void check_local(struct selftest *st, const char *name, unsigned node)
{
	struct numastat b, a;

	if (!probe(st, name, node, node, &b, &a))
		return;
	judge(st, name, (int)node, (int)node, "numa_hit", delta_of(&b, &a, "numa_hit"),
	      (int64_t)st->pages);
	judge(st, name, (int)node, (int)node, "local_node", delta_of(&b, &a, "local_node"),
	      (int64_t)st->pages);
}

/* Placement from another node's CPU is charged to the page's node as other_node. */
static void check_remote(struct selftest *st, unsigned node, unsigned cpu_node)
{
	struct numastat b, a;

	if (!probe(st, "remote", node, cpu_node, &b, &a))
		return;
	judge(st, "remote", (int)node, (int)cpu_node, "other_node", delta_of(&b, &a, "other_node"),
	      (int64_t)st->pages);
}

static void counting_checks(struct selftest *st)
{
	bool remote_done = false;

	for (int i = 0; i < st->nmem && !st->stopped; i++) {
		unsigned node = st->mem[i];

		if (has(st->cpu, st->ncpu, node))
			check_local(st, "local", node);
		else
			skip(st, "local", "node %u has memory but no CPUs", node);
		for (int k = 0; k < st->ncpu && !st->stopped; k++)
			if (st->cpu[k] != node) {
				check_remote(st, node, st->cpu[k]);
				remote_done = true;
				break;
			}
	}
	if (remote_done || st->stopped)
		return;
	if (st->nmem == 1 && st->ncpu == 1 && st->mem[0] == st->cpu[0])
		skip(st, "remote",
		     "this machine has one NUMA node (node %u): no page can land "
		     "away from the faulting CPU's node, so other_node is not checked",
		     st->mem[0]);
	else
		skip(st, "remote",
		     "no node with memory has a CPU of another node to fault it "
		     "in from: other_node is not checked on this machine");
}

/* At vm.numa_stat=0 no counter of the node may move, however many pages are faulted in. */
static void check_off(struct selftest *st)
{
	for (int i = 0; i < st->nmem && !st->stopped; i++) {
		unsigned node = st->mem[i];
		unsigned cpu = has(st->cpu, st->ncpu, node) ? node : st->cpu[0];
		struct numastat b, a;
		int64_t worst = 0;

		if (!probe(st, "counting off", node, cpu, &b, &a))
			return;
		for (size_t k = 0; k < NS_STANDARD; k++) {
			int64_t d = delta_of(&b, &a, numastat_keys[k]);

			if (d != 0 && (worst == 0 || d > worst))
				worst = d;
		}
		judge(st, "counting off", (int)node, (int)cpu, "every counter", worst, 0);
	}
}

/* Set vm.numa_stat through the guard; a FAIL line when that cannot be done. */
static bool switch_to(struct selftest *st, const char *value)
{
	struct kval v;
	char why[WHY_MAX];
	struct check *c;
	int r;

	snprintf(v.text, sizeof(v.text), "%s", value);
	r = bench_guard_set(&st->guard, &v, why, sizeof(why));
	if (r == 0)
		return true;
	c = add_check(st, "FAIL", "toggle", -1, -1);
	if (r == -ECANCELED)
		snprintf(
			c->note, sizeof(c->note),
			"vm.numa_stat: not switched off, since that "
			"zeroes the NUMA counters: %s (--no-snapshot goes ahead without saving them)",
			why);
	else
		snprintf(c->note, sizeof(c->note), "%s", why);
	print_check(st, c);
	return false;
}

static void phase_counting(struct selftest *st)
{
	if (!st->have_knob || strcmp(st->orig.text, "1") == 0)
		counting_checks(st);
	else if (st->toggle && switch_to(st, "1"))
		counting_checks(st);
	else if (!st->toggle)
		skip(st, "counting",
		     "vm.numa_stat is 0, so the counters stand still; "
		     "--toggle switches it on for the check");
}

static void phase_off(struct selftest *st)
{
	if (!st->have_knob)
		skip(st, "counting off",
		     "vm.numa_stat is not present on this kernel (added in 4.15)");
	else if (strcmp(st->orig.text, "0") == 0 && !st->toggle)
		check_off(st);
	else if (!st->toggle)
		skip(st, "counting off",
		     "--toggle switches vm.numa_stat off for a moment to check "
		     "that the counters stop (that zeroes them; they are saved first)");
	else if (switch_to(st, "0"))
		check_off(st);
}

/* Put vm.numa_stat back, then show that it is back: read it, and count again. */
static void phase_restore(struct selftest *st)
{
	char why[WHY_MAX];
	struct kval now;
	struct check *c;
	int r = bench_guard_end(&st->guard, why, sizeof(why));

	st->guarded = false;
	if (r == 0 && (r = knob_read(&st->knob, &now)) < 0)
		snprintf(why, sizeof(why), "vm.numa_stat: cannot read it back: %s",
			 sysfs_strerror(r));
	c = add_check(st, r == 0 && strcmp(now.text, st->orig.text) == 0 ? "PASS" : "FAIL",
		      "restore", -1, -1);
	if (r == 0)
		snprintf(c->note, sizeof(c->note), "vm.numa_stat is %.8s again", now.text);
	else
		snprintf(c->note, sizeof(c->note), "%s", why);
	print_check(st, c);
	if (st->guard.snapshot_path[0])
		counters_saved(st->guard.snapshot_path);
	if (r == 0 && !st->stopped && !bench_guard_stop && strcmp(st->orig.text, "1") == 0)
		for (int i = 0; i < st->nmem; i++)
			if (has(st->cpu, st->ncpu, st->mem[i])) {
				check_local(st, "counting again", st->mem[i]);
				break;
			}
}

/* Which nodes have memory and CPUs, and where vm.numa_stat stands. */
static int discover(struct selftest *st)
{
	char why[WHY_MAX];
	int r;

	st->nmem = node_mask_read("has_memory", &st->mem);
	if (st->nmem <= 0) {
		log_err(NODE_DIR "/has_memory: %s",
			st->nmem ? sysfs_strerror(st->nmem) : "no node has memory");
		return EXIT_FAIL;
	}
	st->ncpu = node_mask_read("has_cpu", &st->cpu);
	if (st->ncpu <= 0) {
		log_err(NODE_DIR "/has_cpu: %s",
			st->ncpu ? sysfs_strerror(st->ncpu) : "no node has CPUs");
		return EXIT_FAIL;
	}
	if (knob_resolve("vm.numa_stat", &st->knob, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	r = knob_read(&st->knob, &st->orig);
	st->have_knob = r == 0;
	if (r < 0 && r != -ENOENT) {
		log_err("vm.numa_stat: cannot read %s: %s", st->knob.path, sysfs_strerror(r));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The pages of one check stay under half of every memory node's free memory. */
static int check_memory(const struct selftest *st)
{
	unsigned long long free_bytes, need = st->pages * (unsigned long long)sysconf(_SC_PAGESIZE);
	char why[WHY_MAX];

	for (int i = 0; i < st->nmem; i++) {
		if (numalib_node_free(st->mem[i], &free_bytes, why, sizeof(why)) < 0) {
			log_err("node %u: %s", st->mem[i], why);
			return EXIT_FAIL;
		}
		if (need > free_bytes / 2) {
			log_err("--pages %" PRIu64 ": %llu MiB is more than half of node %u's free "
				"memory (%llu MiB free); choose fewer pages",
				st->pages, need >> 20, st->mem[i], free_bytes >> 20);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int selftest_run(struct selftest *st)
{
	char why[WHY_MAX];
	int rc = discover(st);

	if (rc == EXIT_OK)
		rc = check_memory(st);
	if (rc != EXIT_OK)
		return rc;
	if (st->toggle && st->have_knob) {
		if (bench_guard_begin(&st->guard, &st->knob, cmd_run_dir(),
				      profiles_effective_data_dir(), st->no_snapshot, why,
				      sizeof(why)) < 0) {
			log_err("%s", why);
			return EXIT_FAIL;
		}
		st->guarded = true;
		/* The value may have changed while another writer held the lock. */
		st->orig = st->guard.orig;
	}
	if (!bench_guard_stop)
		phase_counting(st);
	if (!st->stopped && !bench_guard_stop)
		phase_off(st);
	if (st->guarded)
		phase_restore(st);
	if (!st->stopped && !bench_guard_stop)
		skip(st, "numa_miss, numa_foreign",
		     "they move only when a node is too full for "
		     "its own allocations; selftest does not fill a node on a live system");
	if (bench_guard_stop || st->stopped) {
		log_err("interrupted by SIG%s after %zu checks", sigabbrev_np(bench_guard_stop),
			st->n);
		return EXIT_FAIL;
	}
	return st->failed ? EXIT_FAIL : EXIT_OK;
}

/* JSON values are lower case, like the actions of set and apply. */
static const char *result_word(const char *result)
{
	return strcmp(result, "PASS") == 0 ? "pass" : strcmp(result, "FAIL") == 0 ? "fail" : "skip";
}

static int print_json(const struct selftest *st)
{
	static const char *const cols[] = { "result",  "check", "node", "cpu_node",
					    "counter", "delta", "want", "note" };
	static const unsigned flags[] = { 0, 0, OUT_COL_NUMBER, OUT_COL_NUMBER, 0, OUT_COL_NUMBER,
					  0, 0 };
	struct out_table *t = NULL;
	char why[WHY_MAX];
	int r = out_table_new(&t, "checks", OUT_JSON, why, sizeof(why));

	for (size_t i = 0; r == 0 && i < 8; i++)
		r = out_table_add_column(t, cols[i], 0, flags[i]);
	for (size_t i = 0; r == 0 && i < st->n; i++) {
		const struct check *c = &st->checks[i];
		struct out_row *row = out_table_add_row(t);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		out_row_set(row, 0, result_word(c->result));
		out_row_set(row, 1, c->name);
		if (c->node >= 0) {
			out_row_setf(row, 2, "%d", c->node);
			out_row_setf(row, 3, "%d", c->cpu_node);
		}
		out_row_set(row, 4, c->counter);
		if (c->counter) {
			out_row_setf(row, 5, "%" PRId64, c->delta);
			out_row_set(row, 6, c->want);
		}
		out_row_set(row, 7, c->note[0] ? c->note : NULL);
	}
	if (r == 0)
		r = out_table_print(t, stdout);
	else
		log_err("%s", r == -ENOMEM ? "out of memory" : why);
	out_table_free(t);
	return r;
}

static int run(int argc, char *argv[])
{
	struct selftest st = { .pages = PAGES_DEFAULT };
	char why[WHY_MAX];
	int rc = parse_opts(argc, argv, &st);

	if (rc >= 0)
		return rc;
	if ((rc = preflight()) != EXIT_OK)
		return rc;
	if (numalib_load(why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	rc = selftest_run(&st);
	if (cmd_global.json && st.n && print_json(&st) < 0)
		rc = EXIT_FAIL;
	free(st.checks);
	free(st.mem);
	free(st.cpu);
	return rc;
}

const struct cmd cmd_selftest = {
	.name = "selftest",
	.run = run,
	.summary = "prove on this machine that the NUMA counters count",
	.usage = usage,
	.options = options,
};
