// SPDX-License-Identifier: GPL-2.0-or-later
/* status's interactions (status-interact.h), read as advise's rules read them. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damon.h"
#include "log.h"
#include "out.h"
#include "status-interact.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

static void add(struct status_interact *si, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct status_interact *si, const char *fmt, ...)
{
	va_list ap;

	if (si->n == STATUS_INTERACT_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(si->lines[si->n++], sizeof(si->lines[0]), fmt, ap);
	va_end(ap);
}

static void first_line(const char *path, char *buf, size_t size)
{
	if (sysfs_read_file(path, buf, size) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static void damos(struct status_interact *si, const struct damon_state *d, int64_t bal)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct damon_scheme *s = &d->s[i];

		if (!s->on || !damon_scheme_migrates(s) || !(bal & 2))
			continue;
		add(si,
		    "DAMOS scheme %u/%u/%u (kdamond PID %ld, %s to node %d) runs while "
		    "kernel.numa_balancing = %" PRId64 " promotes too: two mechanisms move pages "
		    "between tiers, and DAMON's count in pgmigrate_success, not pgpromote_* "
		    "(stat --migration-reasons)",
		    s->kdamond, s->context, s->scheme, s->pid, s->action, s->target_nid, bal);
		return;
	}
}

static void damon_stat(struct status_interact *si, const struct damon_state *d)
{

	if (!d->stat_enabled)
		return;
	if (d->stat_pid < 0)
		add(si, "DAMON_STAT is enabled; its kdamond was not found");
	else
		add(si,
		    "DAMON_STAT runs: kdamond PID %ld, %.2f s of CPU since it started; no DAMON "
		    "sysfs kdamond can start while it runs",
		    d->stat_pid, damon_stat_cpu_seconds(d));
}

static void sched_ext(struct status_interact *si, int64_t bal)
{
	char state[16], ops[64];

	first_line("/sys/kernel/sched_ext/state", state, sizeof(state));
	if (strcmp(state, "enabled") != 0 || bal == 0)
		return;
	first_line("/sys/kernel/sched_ext/root/ops", ops, sizeof(ops));
	add(si,
	    "the sched_ext scheduler %s runs while NUMA balancing is on: whether balancing "
	    "still scans shows in numa_pte_updates (advise --interval 10)",
	    ops[0] ? ops : "(unnamed)");
}

void status_interact_read(struct status_interact *si)
{
	struct damon_state d;
	char why[WHY_MAX], buf[32];
	int64_t bal = 0;

	*si = (struct status_interact){ 0 };
	first_line("/proc/sys/kernel/numa_balancing", buf, sizeof(buf));
	if (parse_i64(buf, 0, INT32_MAX, &bal) < 0)
		bal = 0;
	if (damon_read(&d, false, why, sizeof(why)) == 0) {
		damos(si, &d, bal);
		damon_stat(si, &d);
	}
	damon_free(&d);
	sched_ext(si, bal);
}

void status_interact_print(const struct status_interact *si, size_t cols)
{
	for (size_t i = 0; i < si->n; i++)
		log_info_wrapped(cols, 2, "interaction: %s", si->lines[i]);
}

int status_interact_json(const struct status_interact *si, struct out_doc *d, char *why,
			 size_t whylen)
{
	const char *lines[STATUS_INTERACT_MAX];

	for (size_t i = 0; i < si->n; i++)
		lines[i] = si->lines[i];
	return out_doc_add_strings(d, "INTERACTIONS", lines, si->n, why, whylen);
}
