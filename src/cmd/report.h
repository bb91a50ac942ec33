/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How set, apply and revert tell what they did: text lines or JSON, and what
 * sysctl.d and tuned set otherwise.  Implemented by report-sysctld.c,
 * report-tuned.c, report-boot.c and report.c.
 */
#pragma once

#include <stdbool.h>

#include "plan-execute.h"

/*
 * One line per knob on stdout ("vm.numa_stat: 1 -> 0", "... (unchanged)"),
 * errors on stderr; with cmd_global.json the {"knobs":[{name,old,new,action}]} array.
 * dry_run words the ACT_WRITE items as what would happen.  0 or -EIO.
 */
int report_plan(const struct plan *p, bool dry_run);
struct sysctld_conflicts;
struct sysctld_conflict;
/*
 * The same; with cmd_global.json each knob also carries where sysctl.d sets it
 * otherwise (sysctl_d_boot, sysctl_d_system: "FILE:LINE", their values, and
 * boot_value), null where it agrees.  c may be NULL.
 */
int report_plan_with(const struct plan *p, bool dry_run, const struct sysctld_conflicts *c);
/*
 * An executed plan's report with the trial it started (set --try, apply
 * --try): with cmd_global.json, {"knobs": [...], "trial": {...}} when trial
 * is not NULL.
 */
struct out_table;
int report_plan_trial(const struct plan *p, struct out_table *trial);
/* The stderr line for a failed item, e.g. "vm.x: cannot write /proc/...: ...". */
void report_item_error(const struct plan_item *it);
/* The notes that go with an executed plan: the snapshot's path, no revert point. */
void report_plan_notes(const struct plan *p, const struct plan_opts *o);
/* After a --dry-run's plan: what the real run would do besides the writes. */
void report_dry_run_notes(const struct plan *p, const char *data_dir, bool no_snapshot);
/* plan_execute() refused (-ECANCELED): the one line saying why and the way out. */
void report_refusal(const struct plan_opts *o);
/*
 * What the last report_plan() of an executed plan changed ("vm.x 1 -> 0,
 * ..."), "" when nothing: main() says it when stdout could not take the
 * report, so that exit 1 is never read as "nothing changed".
 */
const char *report_changes_made(void);
/* Add a note to the changes made, in parentheses: "a trial that reverts at ...". */
void report_changes_note(const char *note);
/*
 * For each registry knob the kernel lacks: how to skip it there with '-'
 * ("FILE:LINE: vm.x: write '-vm.x' ...", or the command-line form).  Never
 * for a pass-through name: one that is missing is a typo or gone, and
 * knob_lookup() has refused typos before any plan exists.
 */
void report_missing_hint(const struct plan *p);

/*
 * After set: one warning per knob of p whose value the next boot replaces,
 * naming the line that does it (the enabled boot unit's profile, else
 * sysctl.d) and the line that keeps the value (report-boot.c).
 */
void report_boot_values(const struct plan *p);

/*
 * One warning per knob that sysctl.d sets otherwise than profile: where, and
 * which value holds at boot and after `sysctl --system` (report-sysctld.c).
 */
void report_sysctld_conflicts(const struct sysctld_conflicts *c, const char *profile,
			      bool unit_enabled);
/* The text of one such warning (status keeps it for its JSON too). */
void report_sysctld_conflict_text(const struct sysctld_conflict *k, const char *profile,
				  bool unit_enabled, char *buf, size_t len);
/*
 * JSON: the sysctl.d columns of apply --check -J (sysctl_d_boot, ...,
 * boot_value), and one row's cells from col on (c may be NULL).
 */
struct out_row;
void report_conflict_columns(struct out_table *t);
void report_conflict_cells(struct out_row *row, size_t col, const struct sysctld_conflict *c,
			   bool unit_enabled);

/*
 * One warning per knob that tuned leaves otherwise than profile: which
 * tuned profile or sysctl.d line, and when tuned writes it; first what
 * tuned itself fails on (report-tuned.c).
 */
struct tuned_conflicts;
struct tuned_conflict;
struct tuned_state;
void report_tuned_conflicts(const struct tuned_conflicts *c, const struct tuned_state *st,
			    const char *profile);
/* The text of one such warning (status keeps it for its JSON too). */
void report_tuned_conflict_text(const struct tuned_conflict *k, const struct tuned_state *st,
				const char *profile, char *buf, size_t len);
/*
 * JSON: tuned_profile, tuned, tuned_value, tuned_sysctl_d,
 * tuned_sysctl_d_value and boot_value, and one row's cells from col on.
 */
void report_tuned_columns(struct out_table *t);
void report_tuned_cells(struct out_row *row, size_t col, const struct tuned_conflict *k,
			const struct tuned_state *st);
