// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trials: the counters a reading takes (a fixture of four nodes), the
 * metrics and the verdict on them, the baseline's spread, and the trial
 * file: what trial_save() writes, trial_load() takes back exactly; what it
 * did not write is refused with the file and line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs.h"
#include "tap.h"
#include "trial.h"
#include "value.h"
#include "why.h"

static char why[WHY_MAX];

/* A reading of one node (0) besides the machine, at mono seconds. */
static void reading(struct trial_counters *c, double secs, uint64_t hit, uint64_t local,
		    uint64_t other, uint64_t migrated)
{
	struct trial_scope *all, *n0;

	trial_counters_free(c);
	all = trial_counters_add(c, TRIAL_ALL);
	all->have = TK_NUMASTAT_MASK | TK_BIT(TK_VMS + VMS_NUMA_PAGES_MIGRATED);
	all->v[TK_NUMA_HIT] = hit;
	all->v[TK_LOCAL_NODE] = local;
	all->v[TK_OTHER_NODE] = other;
	all->v[TK_VMS + VMS_NUMA_PAGES_MIGRATED] = migrated;
	n0 = trial_counters_add(c, 0);
	n0->have = TK_NUMASTAT_MASK;
	n0->v[TK_NUMA_HIT] = hit;
	n0->v[TK_LOCAL_NODE] = local;
	n0->v[TK_OTHER_NODE] = other;
	c->mono_ns = (int64_t)(secs * 1e9);
	c->real_ns = 1764640971000000000 + c->mono_ns;
}

static bool near(double a, double b)
{
	return a - b < 1e-6 && b - a < 1e-6;
}

static void test_values(void)
{
	struct trial_counters a = { 0 }, b = { 0 };
	struct trial_value v;

	reading(&a, 10, 1000, 900, 100, 5);
	reading(&b, 12, 1400, 1200, 200, 5);
	trial_value(&a, &b, TM_NUMA_HIT, TRIAL_ALL, &v);
	CHECK(v.state == TRIAL_OK && near(v.v, 200) && v.num == 400 && near(v.secs, 2),
	      "a rate is the counter's change per second (400 in 2 s: 200/s)");
	trial_value(&a, &b, TM_LOCAL_PCT, 0, &v);
	CHECK(v.state == TRIAL_OK && near(v.v, 75),
	      "LOCAL%% is local / (local + other) of the change");
	trial_value(&a, &b, TM_BALANCING_MIGRATED, TRIAL_ALL, &v);
	CHECK(v.state == TRIAL_OK && near(v.v, 0), "a counter that did not move is a rate of 0");
	trial_value(&a, &b, TM_BALANCING_MIGRATED, 0, &v);
	CHECK(v.state == TRIAL_ABSENT, "a key the node does not keep is absent, not 0");
	trial_value(&a, &b, TM_DEMOTED, TRIAL_ALL, &v);
	CHECK(v.state == TRIAL_ABSENT, "a key the kernel lacks is absent");
	reading(&b, 12, 1000, 900, 100, 5);
	trial_value(&a, &b, TM_LOCAL_PCT, 0, &v);
	CHECK(v.state == TRIAL_NONE, "no allocation: no LOCAL%%");
	reading(&b, 12, 10, 5, 5, 5);
	trial_value(&a, &b, TM_NUMA_HIT, 0, &v);
	CHECK(v.state == TRIAL_RESET, "counters that went down (vm.numa_stat 1 -> 0) are a reset");
	trial_counters_free(&a);
	trial_counters_free(&b);
}

/* One-second readings of numa_hit going up by each step. */
static void spread_of(struct trial_spreads *sp, const int *steps, size_t n)
{
	struct trial_counters a = { 0 }, b = { 0 };
	uint64_t hit = 1000;

	reading(&a, 0, hit, hit, 0, 0);
	for (size_t i = 0; i < n; i++) {
		hit += (uint64_t)steps[i];
		reading(&b, (double)(i + 1), hit, hit, 0, 0);
		trial_spreads_add(sp, &a, &b);
		reading(&a, (double)(i + 1), hit, hit, 0, 0);
	}
	trial_counters_free(&a);
	trial_counters_free(&b);
}

static void test_spread_and_verdict(void)
{
	static const int steps[] = { 900, 1100, 1000, 950, 1050, 1000, 1000, 980, 1020, 1000 };
	struct trial_counters b0 = { 0 }, b1 = { 0 }, t0 = { 0 }, t1 = { 0 };
	struct trial_spreads sp = { 0 };
	const struct trial_spread *s;
	struct trial_row *rows = NULL;
	int n;

	spread_of(&sp, steps, 10);
	s = trial_spreads_find(&sp, TM_NUMA_HIT, TRIAL_ALL);
	/* The sample standard deviation of the steps: sqrt(25800 / 9). */
	CHECK(s && s->n == 10 && near(s->sd, 53.54126134736337) && near(s->min, 900) &&
		      near(s->max, 1100),
	      "the spread is the sd, least and largest of the one-second values");
	CHECK(trial_spreads_find(&sp, TM_LOCAL_PCT, TRIAL_ALL)->n == 10,
	      "a percentage's seconds with events count");
	reading(&b0, 0, 1000, 1000, 0, 0);
	reading(&b1, 10, 11000, 11000, 0, 0);
	reading(&t0, 10, 11000, 11000, 0, 0);
	reading(&t1, 20, 22000, 22000, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n == 9,
	      "rows: numa_hit, numa_miss, LOCAL%%, MISS%% for the machine and node 0, "
	      "numa_pages_migrated for the machine (got %d)",
	      n);
	CHECK(n > 0 && rows[0].metric == TM_NUMA_HIT && rows[0].node == TRIAL_ALL &&
		      near(rows[0].base.v, 1000) && near(rows[0].trial.v, 1100) &&
		      rows[0].have_change && near(rows[0].change_pct, 10) &&
		      rows[0].verdict == TRIAL_WITHIN_NOISE,
	      "1100/s against 1000/s with sd 54 is +10%%, within noise (2 sd is 107)");
	free(rows);
	reading(&t1, 20, 23000, 23000, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n > 0 && rows[0].verdict == TRIAL_HIGHER && near(rows[0].change_pct, 20),
	      "1200/s is higher");
	CHECK(n > 1 && rows[1].node == 0 && rows[1].verdict == TRIAL_HIGHER &&
		      rows[1].spread == trial_spreads_find(&sp, TM_NUMA_HIT, 0),
	      "node 0 is judged by its own spread");
	free(rows);
	reading(&t1, 20, 11000 + 8500, 11000 + 8500, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n > 0 && rows[0].verdict == TRIAL_LOWER, "850/s is lower");
	free(rows);
	n = trial_rows(NULL, NULL, NULL, &t0, &t1, &rows);
	CHECK(n > 0 && rows[0].verdict == TRIAL_NO_BASELINE && !rows[0].have_change,
	      "without a baseline there is no verdict and no change");
	for (int i = 0; i < n; i++)
		if (rows[i].metric == TM_BALANCING_MIGRATED)
			CHECK(rows[i].verdict == TRIAL_NO_BASELINE && near(rows[i].trial.v, 0),
			      "a quiet counter is a rate of 0");
	free(rows);
	/* A quiet counter that moves by an event or two is noise, not an effect. */
	trial_spreads_free(&sp);
	spread_of(&sp, (const int[]){ 0, 0, 0, 0 }, 4);
	reading(&b1, 4, 1000, 1000, 0, 0);
	reading(&t0, 4, 1000, 1000, 0, 0);
	reading(&t1, 8, 1003, 1003, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n > 0 && rows[0].verdict == TRIAL_WITHIN_NOISE && !rows[0].have_change,
	      "0.75/s after 0/s is within noise (the floor is one a second)");
	free(rows);
	/*
	 * An idle machine, as the 4-node guest measured it: 19 allocations in
	 * an 8 s window, after a baseline of 0.5 a second (sd 0.7), are
	 * numastatctl's own pages, within the floor of TRIAL_OWN_EVENTS.
	 */
	trial_spreads_free(&sp);
	spread_of(&sp, (const int[]){ 0, 2, 0, 0, 2, 0, 0, 0 }, 8);
	reading(&b1, 8, 1004, 1004, 0, 0);
	reading(&t0, 8, 1004, 1004, 0, 0);
	reading(&t1, 16, 1023, 1023, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n > 0 && near(rows[0].trial.v, 19.0 / 8) && rows[0].verdict == TRIAL_WITHIN_NOISE,
	      "19 events in 8 s after 0.5/s are within noise (numastatctl's own)");
	free(rows);
	/*
	 * An idle timer trial of 5 s: systemd starting the revert service
	 * (~400 pages) and the revert's own start (~95), 500 events in all,
	 * after a baseline of 0.5 a second, are the trial's own, not higher.
	 */
	reading(&t1, 13, 1004 + 500, 1004 + 500, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n > 0 && rows[0].verdict == TRIAL_WITHIN_NOISE,
	      "500 events in 5 s after 0.5/s are within noise (a service and a process started)");
	free(rows);
	reading(&t1, 16, 1004 + 8 * 12, 1004 + 8 * 12, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n > 0 && rows[0].verdict == TRIAL_WITHIN_NOISE,
	      "96 events in 8 s (12/s) are fewer than one process start: within noise");
	free(rows);
	reading(&t1, 16, 1004 + 8 * 200, 1004 + 8 * 200, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	CHECK(n > 0 && rows[0].verdict == TRIAL_HIGHER, "1600 events in 8 s (200/s) are higher");
	free(rows);
	reading(&t1, 16, 1004, 1004, 0, 0);
	n = trial_rows(&b0, &b1, &sp, &t0, &t1, &rows);
	for (int i = 0; i < n; i++)
		if (rows[i].metric == TM_LOCAL_PCT && rows[i].node == TRIAL_ALL)
			CHECK(rows[i].verdict == TRIAL_NO_EVENTS,
			      "no allocation in the trial: no LOCAL%% to judge");
	free(rows);
	trial_spreads_free(&sp);
	trial_counters_free(&b0);
	trial_counters_free(&b1);
	trial_counters_free(&t0);
	trial_counters_free(&t1);
}

static void test_read(void)
{
	const char *fx = getenv("FIXTURES");
	struct trial_counters c = { 0 };
	const struct trial_scope *all, *n1;
	char root[4096];

	if (!fx) {
		tap_result(1, "# SKIP FIXTURES is not set");
		return;
	}
	snprintf(root, sizeof(root), "%s/effect-6.1", fx);
	CHECK(sysfs_init(root) == 0 && trial_counters_read(&c, why, sizeof(why)) == 0,
	      "a reading of the 6.1 fixture (%s)", why);
	CHECK(c.n == 5, "the machine and four nodes");
	all = trial_counters_scope(&c, TRIAL_ALL);
	n1 = trial_counters_scope(&c, 1);
	CHECK(all && n1 && n1->v[TK_NUMA_HIT] == 3101007 && n1->v[TK_OTHER_NODE] == 10001,
	      "node 1's numastat");
	CHECK(n1 && (n1->have & TK_BIT(TK_VMS + VMS_PGPROMOTE_SUCCESS)) &&
		      !(n1->have & TK_BIT(TK_VMS + VMS_PGDEMOTE_KSWAPD)),
	      "6.1 keeps promotion per node, demotion not");
	CHECK(all && all->v[TK_VMS + VMS_NUMA_HINT_FAULTS] == 8200 &&
		      all->v[TK_VMS + VMS_PGDEMOTE_KSWAPD] == 777,
	      "the machine's vmstat keys come from /proc/vmstat");
	CHECK(all && (all->have & TK_NUMASTAT_MASK) == TK_NUMASTAT_MASK &&
		      all->v[TK_NUMA_HIT] > n1->v[TK_NUMA_HIT],
	      "the machine's numastat keys are the sum of the nodes'");
	trial_counters_free(&c);
	sysfs_init(NULL);
}

static void fill(struct trial *t)
{
	char every[KVAL_MAX];

	for (int c = 1; c < 256; c++)
		every[c - 1] = (char)c;
	every[255] = '\0';
	*t = (struct trial){ .armed = TRIAL_FOREGROUND, .pid = 4242, .seconds = 20 };
	str_copy(t->point.id, "1764640971123456789-0123456789abcdef", sizeof(t->point.id));
	t->point.live = true;
	str_copy(t->point.by, "apply \"x\"\n\x1b[2J", sizeof(t->point.by));
	t->start_ns = 1764640971123456789;
	trial_add_knob(t, "vm.zone_reclaim_mode", "0", "1");
	trial_add_knob(t, "vm.every", every, "\"\\");
	reading(&t->reading[TRIAL_BASE_START], 0, 1000, 900, 100, 5);
	reading(&t->reading[TRIAL_BASE_END], 2, 1200, 1000, 200, 5);
	reading(&t->reading[TRIAL_START], 2, 1200, 1000, 200, 5);
	reading(&t->reading[TRIAL_END], 4, 1500, 1200, 300, 9);
	spread_of(&t->spreads, (const int[]){ 100, 100, 101 }, 3);
	t->state = TRIAL_REVERTED;
	t->ended_ns = 1764640991000000000;
}

static bool same_counters(const struct trial_counters *a, const struct trial_counters *b)
{
	if (a->n != b->n || a->real_ns != b->real_ns || a->mono_ns != b->mono_ns)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->s[i].node != b->s[i].node || a->s[i].have != b->s[i].have ||
		    memcmp(a->s[i].v, b->s[i].v, sizeof(a->s[i].v)) != 0)
			return false;
	return true;
}

static void test_round_trip(int dirfd, const char *dir)
{
	struct trial t, back;
	bool same = true;

	fill(&t);
	CHECK(trial_save(dirfd, dir, &t, why, sizeof(why)) == 0, "a trial is saved (%s)", why);
	CHECK(trial_load(dirfd, dir, &back, why, sizeof(why)) == 0, "and loaded back (%s)", why);
	CHECK(strcmp(back.point.id, t.point.id) == 0 && back.point.live &&
		      strcmp(back.point.by, t.point.by) == 0 && back.armed == TRIAL_FOREGROUND &&
		      back.pid == 4242 && back.start_ns == t.start_ns && back.seconds == 20 &&
		      back.state == TRIAL_REVERTED && back.ended_ns == t.ended_ns,
	      "its header, length, and end come back");
	CHECK(back.n_knobs == 2 && strcmp(back.knobs[1].before, t.knobs[1].before) == 0 &&
		      strcmp(back.knobs[1].written, "\"\\") == 0,
	      "each knob's values come back byte for byte");
	for (int w = 0; w < TRIAL_READINGS; w++)
		same = same && same_counters(&t.reading[w], &back.reading[w]);
	CHECK(same, "every reading comes back");
	CHECK(back.spreads.n == t.spreads.n && back.spreads.v[0].n == 3 &&
		      near(back.spreads.v[0].sd, 0.577) && near(back.spreads.v[0].max, 101),
	      "the spreads come back, in thousandths");
	CHECK(trial_deadline_ns(&back) == t.start_ns + 20000000000,
	      "the deadline is the start and the length");
	trial_free(&back);
	t.state = TRIAL_RUNNING;
	trial_counters_free(&t.reading[TRIAL_END]);
	trial_counters_free(&t.reading[TRIAL_BASE_START]);
	trial_counters_free(&t.reading[TRIAL_BASE_END]);
	trial_spreads_free(&t.spreads);
	CHECK(trial_save(dirfd, dir, &t, why, sizeof(why)) == 0 &&
		      trial_load(dirfd, dir, &back, why, sizeof(why)) == 0 &&
		      back.state == TRIAL_RUNNING && !back.reading[TRIAL_BASE_START].n &&
		      back.reading[TRIAL_START].n == 2,
	      "a running trial without a baseline comes back so");
	trial_free(&back);
	t.point.live = false;
	str_copy(t.point.sysroot, "/nowhere", sizeof(t.point.sysroot));
	CHECK(trial_save(dirfd, dir, &t, why, sizeof(why)) == 0 &&
		      trial_load(dirfd, dir, &back, why, sizeof(why)) == -EXDEV,
	      "a trial saved for another system is refused");
	CHECK(strstr(why, "saved for --sysroot /nowhere, not for the live system") != NULL,
	      "naming both (%s)", why);
	trial_free(&t);
	CHECK(trial_clear(dirfd) == 1 && trial_clear(dirfd) == 0 &&
		      trial_load(dirfd, dir, &back, why, sizeof(why)) == -ENOENT,
	      "a trial file is removed; none is -ENOENT");
}

static int parse(const char *text)
{
	struct trial t;
	int r = trial_parse(text, strlen(text), "trial", &t, why, sizeof(why));

	trial_free(&t);
	return r;
}

#define HDR                                                                                \
	"numastatctl-trial 1 id=1764640971123456789-0123456789abcdef for=live by=\"set\" " \
	"armed=timer pid=0\n"
#define TRIAL "trial 1764640971123456789 20\n"
#define START "reading start 1 2\ncount all numa_hit=5\ncount 0 numa_hit=5\n"

static void bad(const char *text, const char *want, const char *desc)
{
	CHECK(parse(text) == -EBADMSG, "%s is refused", desc);
	CHECK(strstr(why, want) != NULL, "naming it: %s (got: %s)", want, why);
}

static void test_parse(void)
{
	CHECK(parse(HDR TRIAL START "end 4\n") == 0, "a running trial without a baseline parses");
	CHECK(parse(HDR TRIAL
		    "knob vm.x \"0\" \"1\"\n" START
		    "reading end 3 4\ncount all numa_hit=7\nended confirmed 5\nend 8\n") == 0,
	      "a confirmed trial parses");
	CHECK(parse(HDR TRIAL "reading baseline-start 0 0\ncount all\nreading baseline-end 1 1\n"
			      "count all\nspread numa_hit all 3 0 100000 101000\n" START
			      "end 9\n") == 0,
	      "a trial with its baseline parses");
	bad("", "empty", "an empty file");
	bad(HDR TRIAL START, "trial:5: no end line (the file was cut short)", "a file cut short");
	bad(HDR TRIAL "end 1\n", "trial:3: a line out of place", "a trial without its start");
	bad(HDR TRIAL, "trial:2: no start reading", "a trial that ends before its start");
	bad(HDR TRIAL START "end 4", "no newline at the end", "a last line without its newline");
	bad(HDR TRIAL START "end 5\n", "trial:6: the line count does not match", "a wrong count");
	bad(HDR TRIAL START "end 4\nend 4\n", "a line after the end line", "a line after the end");
	bad(HDR HDR TRIAL START "end 5\n", "trial:2: expected the trial line", "a second header");
	bad(HDR TRIAL START "knob vm.x \"0\" \"1\"\nend 5\n", "trial:6: a line out of place",
	    "a knob after the readings");
	bad(HDR TRIAL "reading start 1 2\ncount 0 numa_hit=5\nend 3\n",
	    "trial:4: a node before the machine", "a node before the machine");
	bad(HDR TRIAL "reading start 1 2\ncount all\ncount 2\ncount 1\nend 5\n",
	    "trial:6: node ids out of order", "nodes out of order");
	bad(HDR TRIAL "reading start 1 2\ncount all\ncount 1\ncount 1\nend 5\n",
	    "trial:6: node ids out of order", "a node twice");
	bad(HDR TRIAL "reading start 1 2\ncount all numa_hit=1 numa_hit=2\nend 3\n",
	    "a counter twice", "a counter twice");
	bad(HDR TRIAL "reading start 1 2\ncount all numa_hits=1\nend 3\n", "an unknown counter",
	    "an unknown counter");
	bad(HDR TRIAL "reading start 1 2\ncount all numa_hit=-1\nend 3\n", "no valid counter value",
	    "a negative count");
	bad(HDR TRIAL "reading start 1 2\ncount all numa_hit=01\nend 3\n", "no valid counter value",
	    "a leading zero");
	bad(HDR TRIAL "reading start 1 2\ncount all numa_hit=18446744073709551616\nend 3\n",
	    "no valid counter value", "a count past 2^64");
	bad(HDR TRIAL "reading start 1 2\ncount all  numa_hit=1\nend 3\n",
	    "trial:4: an unknown counter", "two spaces");
	bad(HDR TRIAL "reading start 1 2\nend 2\n", "a reading without its counts",
	    "a reading without counts");
	bad(HDR TRIAL START "reading start 3 4\ncount all\nend 6\n", "a reading out of order",
	    "a reading twice");
	bad(HDR TRIAL "reading baseline-start 0 0\ncount all\n" START "end 6\n",
	    "a reading out of order", "a baseline without its end");
	bad(HDR TRIAL START "reading end 3 4\ncount all\nend 6\n", "a line out of place",
	    "an end reading without 'ended'");
	bad(HDR TRIAL START "ended reverted 5\nend 5\n", "a line out of place",
	    "'ended' without an end reading");
	bad(HDR TRIAL START "reading end 3 4\ncount all\nended kept 5\nend 7\n",
	    "no valid end (confirmed or reverted)", "an unknown end");
	bad(HDR TRIAL START "reading ends 3 4\ncount all\nend 6\n", "an unknown reading",
	    "an unknown reading");
	bad(HDR TRIAL "reading baseline-start 0 0\ncount all\nreading baseline-end 1 1\n"
		      "count all\nspread numa_hits all 3 0 1 1\n" START "end 9\n",
	    "an unknown metric", "a spread of an unknown metric");
	bad(HDR TRIAL "reading baseline-start 0 0\ncount all\nreading baseline-end 1 1\n"
		      "count all\nspread numa_hit all 3 0 5 1\n" START "end 9\n",
	    "a least value above the largest", "a spread whose min is above its max");
	bad(HDR TRIAL "reading baseline-start 0 0\ncount all\nreading baseline-end 1 1\n"
		      "count all\nspread numa_hit all 3 0 1 1\nspread numa_hit all 3 0 1 1\n" START
		      "end 10\n",
	    "a spread twice", "a spread twice");
	bad(HDR TRIAL START "spread numa_hit all 3 0 1 1\nend 5\n", "a line out of place",
	    "a spread after the start");
	bad("numastatctl-trial 2 id=1-0123456789abcdef for=live by=\"set\" armed=timer pid=0\n",
	    "trial file format 2, which this numastatctl does not read", "format 2");
	bad("numastatctl-trial 1 id=1-0123456789ABCDEF for=live by=\"set\" armed=timer pid=0\n",
	    "no valid id=", "an id in upper case");
	bad("numastatctl-trial 1 id=1-0123456789abcdef for=live by=\"set\" armed=daemon pid=0\n",
	    "no valid armed=", "armed by a daemon");
	bad("numastatctl-trial 1 id=1-0123456789abcdef for=live by=\"s\x1b\" armed=timer pid=0\n",
	    "a byte that must be escaped", "a raw ESC");
	bad("numastatctl-trial 1 id=1-0123456789abcdef for=live by=\"set\" armed=timer pid=0 \n",
	    "unexpected text at the end of the line", "a space at the end of the header");
	bad("numastatctl-revert 2 id=1-0123456789abcdef for=live at=2026-12-02T02:02:51Z "
	    "by=\"set\"\nend 0\n",
	    "not a numastatctl-trial header", "a revert file");
	bad(HDR "trial 1 999999999\n", "no valid length in seconds", "a trial of 30 years");
	bad(HDR TRIAL "knob vm/x \"0\" \"1\"\n" START "end 5\n", "no knob name", "a knob of '/'");
	bad(HDR TRIAL "knob vm.x \"0\" \"1\"\nknob vm.x \"0\" \"1\"\n" START "end 6\n",
	    "a knob twice", "a knob twice");
	{
		static const char nul[] = HDR TRIAL START "end 4\0\n";
		struct trial t;

		CHECK(trial_parse(nul, sizeof(nul) - 1, "trial", &t, why, sizeof(why)) ==
				      -EBADMSG &&
			      strstr(why, "trial:6: a NUL byte") != NULL,
		      "a NUL is refused (%s)", why);
	}
}

int main(void)
{
	char dir[] = "/tmp/test-trial.XXXXXX";
	int dirfd;

	if (!mkdtemp(dir) || (dirfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0) {
		printf("Bail out! cannot make a temporary directory\n");
		return 1;
	}
	test_values();
	test_spread_and_verdict();
	test_round_trip(dirfd, dir);
	test_parse();
	/* Last: it leaves the fixture as the sysroot. */
	test_read();
	close(dirfd);
	rmdir(dir);
	return tap_done();
}
