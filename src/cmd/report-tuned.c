// SPDX-License-Identifier: GPL-2.0-or-later
/* How status and apply --check tell that tuned leaves a profile's knob otherwise. */
#include <stdio.h>

#include "log.h"
#include "out.h"
#include "report.h"
#include "tuned.h"

/* When tuned writes: at boot after numastatctl.service, or only while it runs. */
static const char *when(const struct tuned_state *st)
{
	if (st->enabled)
		return "tuned.service starts after numastatctl.service and writes it at every "
		       "boot";
	return "tuned.service runs (not enabled): it wrote it when it started and writes "
	       "it again at a restart or a profile switch";
}

/* What tuned writes, and from where. */
static void what(const struct tuned_conflict *k, const struct tuned_state *st, char *buf,
		 size_t len)
{
	char after[KVAL_MAX];

	if (k->reapplied.line)
		snprintf(buf, len,
			 "tuned (profile %s) writes sysctl.d's %s from %s:%u again after its "
			 "profile (reapply_sysctl)",
			 st->profile, k->reapplied.value, k->reapplied.file, k->reapplied.line);
	else if (!k->after_known)
		snprintf(buf, len,
			 "tuned profile %s sets %s at %s:%u, which numastatctl cannot expand",
			 k->set_profile, k->set.value, k->set.file, k->set.line);
	else
		snprintf(buf, len, "tuned profile %s sets %s at %s:%u", k->set_profile,
			 knob_display(&k->item->ref, &k->after, after, sizeof(after)), k->set.file,
			 k->set.line);
}

void report_tuned_conflict_text(const struct tuned_conflict *k, const struct tuned_state *st,
				const char *profile, char *buf, size_t len)
{
	char want[KVAL_MAX], how[1200];

	what(k, st, how, sizeof(how));
	snprintf(buf, len,
		 "%s: %s, profile %s wants %s: %s (numastatctl(8), TUNED, says how to keep one)",
		 k->item->ref.name, how, profile,
		 knob_display(&k->item->ref, &k->item->want, want, sizeof(want)), when(st));
}

void report_tuned_conflicts(const struct tuned_conflicts *c, const struct tuned_state *st,
			    const char *profile)
{
	char line[2048];

	if (st->problem[0] && tuned_active(st))
		log_warn("tuned: %s", st->problem);
	for (size_t i = 0; i < c->n; i++) {
		report_tuned_conflict_text(&c->v[i], st, profile, line, sizeof(line));
		log_warn("%s", line);
	}
}

void report_tuned_columns(struct out_table *t)
{
	static const char *const names[] = {
		"tuned_profile",        "tuned",      "tuned_value", "tuned_sysctl_d",
		"tuned_sysctl_d_value", "boot_value",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		out_table_add_column(t, names[i], 0, 0);
}

void report_tuned_cells(struct out_row *row, size_t col, const struct tuned_conflict *k,
			const struct tuned_state *st)
{
	char buf[KVAL_MAX];

	out_row_set(row, col, st->profile);
	if (k->set.line) {
		out_row_setf(row, col + 1, "%s:%u", k->set.file, k->set.line);
		out_row_set(row, col + 2, k->set.value);
	}
	if (k->reapplied.line) {
		out_row_setf(row, col + 3, "%s:%u", k->reapplied.file, k->reapplied.line);
		out_row_set(row, col + 4, k->reapplied.value);
	}
	out_row_set(row, col + 5,
		    k->after_known ? knob_display(&k->item->ref, &k->after, buf, sizeof(buf))
				   : NULL);
}
