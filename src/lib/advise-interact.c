// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * advise's rules on what runs beside NUMA balancing (advise.h): a DAMOS
 * scheme that migrates while balancing promotes too, DAMON_STAT's
 * kdamond, and a sched_ext scheduler.  Each says what it read and no more:
 * sched_ext's effect on balancing is said only as far as
 * numa_pte_updates shows it over --interval, and no rule offers a knob
 * mainline lacks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "sysfs.h"
#include "value.h"
#include "vmstat.h"

#define SCX_STATE "/sys/kernel/sched_ext/state"
#define SCX_OPS "/sys/kernel/sched_ext/root/ops"

static void first_line(const char *path, char *buf, size_t size)
{
	if (sysfs_read_file(path, buf, size) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int pte_updates(uint64_t *v)
{
	char buf[VMSTAT_BUF], why[WHY_MAX];
	struct vmstat_sel m;

	if (vmstat_read(VMSTAT_GLOBAL, &m, buf, sizeof(buf), why, sizeof(why)) < 0 ||
	    !(m.have & VMS_BIT(VMS_NUMA_PTE_UPDATES)))
		return -ENOENT;
	*v = m.v[VMS_NUMA_PTE_UPDATES];
	return 0;
}

void advise_interact_read(struct advise_facts *f)
{
	char why[WHY_MAX];

	/* The stats as the kernel last copied them: advise writes nothing. */
	if (damon_read(&f->damon, false, why, sizeof(why)) < 0)
		damon_free(&f->damon);
	first_line(SCX_STATE, f->scx_state, sizeof(f->scx_state));
	first_line(SCX_OPS, f->scx_ops, sizeof(f->scx_ops));
	f->pte_have = pte_updates(&f->pte_updates) == 0;
}

void advise_interact_again(struct advise_facts *f)
{
	uint64_t later;

	if (!f->pte_have || pte_updates(&later) < 0 || later < f->pte_updates)
		return;
	f->pte_delta = later - f->pte_updates;
	f->pte_delta_have = true;
}

static bool balancing(const struct advise_facts *f, int64_t *mode)
{
	const struct af_knob *k = advise_knob(f, "kernel.numa_balancing");

	return k->err == 0 && parse_i64(k->v.text, 0, INT32_MAX, mode) == 0;
}

static void scheme_evidence(struct advice *a, const struct damon_scheme *s)
{
	advice_evidence(a,
			"kdamond %u (PID %ld) context %u scheme %u: %s, action %s, target_nid %d, "
			"%" PRIu64 " bytes applied",
			s->kdamond, s->pid, s->context, s->scheme, s->ops, s->action, s->target_nid,
			s->sz_applied);
}

int advise_interact_damos_tiering(const struct advise_facts *f, const struct advise_rule *r,
				  struct advice_list *out)
{
	const struct damon_scheme *first = NULL;
	struct advice *a;
	int64_t mode;

	for (size_t i = 0; i < f->damon.n && !first; i++)
		if (f->damon.s[i].on && damon_scheme_migrates(&f->damon.s[i]))
			first = &f->damon.s[i];
	if (!first || !balancing(f, &mode) || !(mode & 2))
		return 0;
	if (!(a = advice_new(out, r, ADV_NOTE)))
		return -ENOMEM;
	advice_text(a,
		    "a DAMOS scheme migrates pages (%s) while kernel.numa_balancing = %" PRId64
		    " has the tiering bit: two promoters, and only balancing's promotions count "
		    "in pgpromote_*; stat --migration-reasons counts DAMON's in its damon row",
		    first->action, mode);
	for (size_t i = 0; i < f->damon.n; i++)
		if (f->damon.s[i].on && damon_scheme_migrates(&f->damon.s[i]))
			scheme_evidence(a, &f->damon.s[i]);
	advice_evidence(a, "kernel.numa_balancing = %" PRId64 " (/proc/sys/kernel/numa_balancing)",
			mode);
	return 0;
}

int advise_interact_damon_stat(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out)
{
	struct advice *a;

	if (!f->damon.stat_enabled)
		return 0;
	if (!(a = advice_new(out, r, ADV_NOTE)))
		return -ENOMEM;
	if (f->damon.stat_pid < 0)
		advice_text(a, "DAMON_STAT is enabled, but no kdamond of its own was found");
	else
		advice_text(a,
			    "DAMON_STAT runs: kdamond PID %ld, %.2f s of CPU since it started; it "
			    "monitors all memory and moves none, and while it runs no DAMON sysfs "
			    "kdamond can start (EBUSY)",
			    f->damon.stat_pid, damon_stat_cpu_seconds(&f->damon));
	advice_evidence(a, DAMON_STAT_ENABLED " = Y");
	if (f->damon.stat_pid >= 0)
		advice_evidence(a, "/proc/%ld/comm: a kdamond thread no sysfs kdamond lists",
				f->damon.stat_pid);
	return 0;
}

int advise_interact_sched_ext(const struct advise_facts *f, const struct advise_rule *r,
			      struct advice_list *out)
{
	const char *ops = f->scx_ops[0] ? f->scx_ops : "(unnamed)";
	struct advice *a;
	int64_t mode;

	if (strcmp(f->scx_state, "enabled") != 0 || !balancing(f, &mode) || mode == 0)
		return 0;
	if (!f->pte_delta_have) {
		if (!(a = advice_new(out, r, ADV_NO_DATA)))
			return -ENOMEM;
		advice_text(a,
			    "the sched_ext scheduler %s runs while NUMA balancing is on; whether "
			    "balancing still scans shows in numa_pte_updates over a window: advise "
			    "--interval 10",
			    ops);
		return 0;
	}
	if (!(a = advice_new(out, r, ADV_NOTE)))
		return -ENOMEM;
	/*
	 * "Marked no page", not "scanned nothing": the scanner never marks a
	 * single-threaded task's pages on its own node, so the counter also
	 * stands still with no scheduler (measured on 7.2).
	 */
	if (f->pte_delta == 0)
		advice_text(a,
			    "numa_pte_updates did not move in %.0f s while the sched_ext scheduler "
			    "%s runs and kernel.numa_balancing = %" PRId64
			    ": NUMA balancing marked no page in that window (nor does it mark the "
			    "pages a single-threaded task has on its own node)",
			    f->window, ops, mode);
	else
		advice_text(a,
			    "NUMA balancing still scans while the sched_ext scheduler %s runs: "
			    "numa_pte_updates grew by %" PRIu64 " in %.0f s",
			    ops, f->pte_delta, f->window);
	advice_evidence(a, SCX_STATE " = enabled, " SCX_OPS " = %s", ops);
	advice_evidence(a, "numa_pte_updates: %" PRIu64 " at the start, +%" PRIu64 " over %.1f s",
			f->pte_updates, f->pte_delta, f->window);
	return 0;
}
