// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Prometheus text of stat --migration-reasons INTERVAL --textfile
 * (stat-reasons-prom.h): a family per count field of the event the kernel
 * has, a series per reason of its format file (0 until the reason happens,
 * so that rate() exists from the first scrape), pgmigrate_success's change
 * and the difference over the same window, the window itself, and DAMON's
 * migrating schemes and DAMON_STAT's kdamond as the kernel counts them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "prom.h"
#include "stat-reasons-prom.h"

#define CALLS MIG_VALS /* the families' index of the calls (the hist's hitcount) */

/* A family per count field, in enum mig_val's order, then the calls. */
static const struct family {
	const char *name, *help;
} families[MIG_VALS + 1] = {
	[MIG_SUCCEEDED] = { "numastatctl_migration_reason_pages_total",
			    "Pages migrated since the run started, by the kernel's reason "
			    "(migrate:mm_migrate_pages succeeded, as pgmigrate_success counts "
			    "them)." },
	[MIG_FAILED] = { "numastatctl_migration_reason_failed_pages_total",
			 "Pages that failed to migrate since the run started, by the kernel's "
			 "reason." },
	[MIG_THP_SUCCEEDED] = { "numastatctl_migration_reason_thp_total",
				"Huge pages migrated whole since the run started, by the kernel's "
				"reason (within the pages)." },
	[MIG_THP_FAILED] = { "numastatctl_migration_reason_thp_failed_total",
			     "Huge pages that failed to migrate since the run started, by the "
			     "kernel's reason." },
	[MIG_THP_SPLIT] = { "numastatctl_migration_reason_thp_split_total",
			    "Huge pages split to be migrated since the run started, by the "
			    "kernel's reason." },
	[CALLS] = { "numastatctl_migration_reason_calls_total",
		    "Calls of the kernel's migrate_pages() since the run started, by reason." },
};

static uint64_t value(const struct stat_reasons_line *l, int fam)
{
	return fam == CALLS ? l->ch.hits : l->ch.v[fam];
}

/* Every reason's series of one family; the reasons are the first n - 2 lines. */
static void reason_family(FILE *f, const struct stat_reasons_prom *p, int fam)
{
	prom_family(f, families[fam].name, "counter", families[fam].help);
	for (size_t i = 0; i + 2 < p->n; i++) {
		fprintf(f, "%s{reason=\"", families[fam].name);
		prom_label_value(f, p->ls[i].name);
		fprintf(f, "\",id=\"%ld\"} %" PRIu64 "\n", p->ls[i].id, value(&p->ls[i], fam));
	}
}

/* pgmigrate_success's change and the difference, unless the counter went down. */
static void counter_rows(FILE *f, const struct stat_reasons_prom *p)
{
	const struct stat_reasons_line *c = &p->ls[p->n - 2], *d = &p->ls[p->n - 1];

	if (c->no_count)
		return;
	prom_family(f, "numastatctl_migration_reasons_pgmigrate_success_pages_total", "counter",
		    "pgmigrate_success's change since the run started: every page migrated, "
		    "whatever the reason, over the window of the reasons' series.");
	fprintf(f, "numastatctl_migration_reasons_pgmigrate_success_pages_total %" PRIu64 "\n",
		c->ch.v[MIG_SUCCEEDED]);
	prom_family(f, "numastatctl_migration_reasons_difference_pages", "gauge",
		    "pgmigrate_success's change less the reasons' pages since the run started "
		    "(signed): 0 when every migration went through the traced path.");
	fprintf(f, "numastatctl_migration_reasons_difference_pages %" PRId64 "\n", d->signed_pages);
}

static void window(FILE *f, const struct stat_reasons_prom *p)
{
	prom_family(f, "numastatctl_migration_reasons_dropped_events_total", "counter",
		    "Migrations the kernel's histogram had no room for since the run started: "
		    "the reasons are short by them.");
	fprintf(f, "numastatctl_migration_reasons_dropped_events_total %" PRIu64 "\n", p->dropped);
	prom_family(f, "numastatctl_migration_reasons_start_time_seconds", "gauge",
		    "Unix time of the run's first reading, where every counter of this file "
		    "starts from 0.");
	fprintf(f, "numastatctl_migration_reasons_start_time_seconds %lld.%03ld\n",
		(long long)p->started.tv_sec, p->started.tv_nsec / 1000000);
	prom_family(f, "numastatctl_migration_reasons_window_seconds", "gauge",
		    "Seconds from the run's first reading to the latest, the window the counters "
		    "cover.");
	fprintf(f, "numastatctl_migration_reasons_window_seconds %.3f\n", p->secs);
}

/* The kernel's own cumulative sz_applied of each scheme that migrates. */
static void damos(FILE *f, const struct damon_state *d)
{
	bool said = false;

	for (size_t i = 0; i < d->n; i++) {
		const struct damon_scheme *s = &d->s[i];

		if (!damon_scheme_migrates(s) || !s->have_stats)
			continue;
		if (!said)
			prom_family(
				f, "numastatctl_damos_applied_bytes_total", "counter",
				"Bytes a DAMOS scheme that migrates applied its action to (moved), "
				"as the kernel counts them (stats/sz_applied, since the scheme "
				"started).");
		said = true;
		fprintf(f,
			"numastatctl_damos_applied_bytes_total{kdamond=\"%u\",context=\"%u\","
			"scheme=\"%u\",action=\"",
			s->kdamond, s->context, s->scheme);
		prom_label_value(f, s->action);
		fprintf(f, "\",target_nid=\"");
		if (s->target_nid >= 0)
			fprintf(f, "%d", s->target_nid);
		fprintf(f, "\"} %" PRIu64 "\n", s->sz_applied);
	}
}

/* DAMON_STAT (built in): whether its kdamond runs, and the CPU it took. */
static void damon_stat(FILE *f, const struct damon_state *d)
{

	if (!d->stat_module)
		return;
	prom_family(f, "numastatctl_damon_stat_kdamond_running", "gauge",
		    "1 while DAMON_STAT's kdamond runs (it monitors and moves no pages, and keeps "
		    "every sysfs kdamond from starting), else 0.");
	fprintf(f, "numastatctl_damon_stat_kdamond_running %d\n", d->stat_pid >= 0);
	if (d->stat_pid < 0)
		return;
	prom_family(f, "numastatctl_damon_stat_kdamond_cpu_seconds_total", "counter",
		    "CPU time DAMON_STAT's kdamond has taken since it started.");
	fprintf(f, "numastatctl_damon_stat_kdamond_cpu_seconds_total %.2f\n",
		damon_stat_cpu_seconds(d));
}

int stat_reasons_prom_write(FILE *f, const struct stat_reasons_prom *p)
{
	for (int fam = 0; fam <= CALLS; fam++)
		if (fam == CALLS || p->vals & 1u << fam)
			reason_family(f, p, fam);
	counter_rows(f, p);
	window(f, p);
	damos(f, p->d);
	damon_stat(f, p->d);
	return ferror(f) ? -EIO : 0;
}
