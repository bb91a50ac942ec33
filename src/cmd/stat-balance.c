// SPDX-License-Identifier: GPL-2.0-or-later
/* What `status` says about NUMA balancing (stat-balance.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "knobs.h"
#include "out.h"
#include "stat-balance.h"
#include "sysfs.h"
#include "vmstat.h"
#include "why.h"
#include "wrap.h"

void stat_balance_status_read(struct stat_balance_status *b)
{
	uint32_t need = VMS_BIT(VMS_NUMA_HINT_FAULTS) | VMS_BIT(VMS_NUMA_HINT_FAULTS_LOCAL) |
			VMS_BIT(VMS_NUMA_PAGES_MIGRATED);
	char why[WHY_MAX], *text;
	struct knob_ref ref;
	struct vmstat_sel s;
	struct kval v;

	*b = (struct stat_balance_status){ .state = -ENOENT };
	if (knob_resolve("kernel.numa_balancing", &ref, NULL, 0) < 0)
		return;
	if ((b->state = knob_read(&ref, &v)) < 0)
		return;
	b->state = strcmp(v.text, "0") != 0;
	knob_describe(&ref, &v, b->mode, sizeof(b->mode));
	text = malloc(VMSTAT_BUF);
	if (text && vmstat_read(VMSTAT_GLOBAL, &s, text, VMSTAT_BUF, why, sizeof(why)) == 0 &&
	    (s.have & need) == need) {
		b->counters = true;
		b->faults = s.v[VMS_NUMA_HINT_FAULTS];
		b->local = s.v[VMS_NUMA_HINT_FAULTS_LOCAL];
		b->migrated = s.v[VMS_NUMA_PAGES_MIGRATED];
		b->has_promoted = s.have & VMS_BIT(VMS_PGPROMOTE_SUCCESS);
		b->promoted = s.v[VMS_PGPROMOTE_SUCCESS];
	}
	free(text);
}

/* "8192 hint faults, 0.0% local, 8192 pages migrated" */
static void since_boot(const struct stat_balance_status *b, char *buf, size_t size)
{
	size_t j = (size_t)snprintf(buf, size, "%" PRIu64 " hint faults", b->faults);

	if (b->faults && j < size)
		j += (size_t)snprintf(buf + j, size - j, ", %.1f%% local",
				      100.0 * (double)b->local / (double)b->faults);
	if (j < size)
		j += (size_t)snprintf(buf + j, size - j, ", %" PRIu64 " pages migrated",
				      b->migrated);
	if (b->has_promoted && b->promoted && j < size)
		snprintf(buf + j, size - j, ", %" PRIu64 " promoted", b->promoted);
}

/* One line, escaped (a dump's text is anything), folded at width (0: as it is). */
static void status_line(size_t width, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void status_line(size_t width, const char *fmt, ...)
{
	char line[512], safe[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	escape_text(line, safe, sizeof(safe), 0);
	wrap_fputs(stdout, safe, 0, 2, width);
	putchar('\n');
}

void stat_balance_status_print(const struct stat_balance_status *b, size_t width)
{
	char done[256] = "";

	if (b->state < 0) {
		status_line(width, "NUMA balancing: %s (%s)",
			    b->state == -ENOENT ? "not on this kernel" : "unknown",
			    b->state == -ENOENT ? "no kernel.numa_balancing"
						: sysfs_strerror(b->state));
		return;
	}
	if (b->counters)
		since_boot(b, done, sizeof(done));
	/* Off: what it did while it was on, if anything. */
	if (b->state == 0)
		status_line(width, "NUMA balancing: off%s%s%s", b->faults ? " (since boot " : "",
			    b->faults ? done : "", b->faults ? ")" : "");
	else
		status_line(width, "NUMA balancing: on (%s)%s%s", b->mode,
			    done[0] ? "; since boot " : "", done);
}

int stat_balance_status_json(const struct stat_balance_status *b, struct out_doc *d, char *why,
			     size_t whylen)
{
	static const char *const keys[] = { "state",          "mode",
					    "hint_faults",    "hint_faults_local",
					    "hint_local_pct", "pages_migrated",
					    "pages_promoted" };
	struct out_table *t;
	struct out_row *row;
	int r = out_table_new(&t, "balancing", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		out_table_add_column(t, keys[i], 0, i < 2 ? 0 : OUT_COL_NUMBER);
	if (!(row = out_table_add_row(t)))
		r = -ENOMEM;
	if (r == 0)
		r = out_row_set(row, 0,
				b->state == -ENOENT ? "absent"
				: b->state < 0      ? "unknown"
				: b->state          ? "on"
						    : "off");
	if (r == 0 && b->state >= 0)
		r = out_row_set(row, 1, b->mode);
	if (r == 0 && b->counters) {
		out_row_setf(row, 2, "%" PRIu64, b->faults);
		out_row_setf(row, 3, "%" PRIu64, b->local);
		if (b->faults)
			out_row_setf(row, 4, "%.1f", 100.0 * (double)b->local / (double)b->faults);
		out_row_setf(row, 5, "%" PRIu64, b->migrated);
		if (b->has_promoted)
			out_row_setf(row, 6, "%" PRIu64, b->promoted);
	}
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_OBJECT);
	out_table_free(t);
	return r;
}
