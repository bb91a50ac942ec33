// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "counters.h"
#include "interleave.h"
#include "log.h"
#include "out.h"
#include "report.h"
#include "sysctld.h"
#include "sysfs.h"
#include "why.h"

static const char *shown(const struct plan_item *it, const struct kval *v, char *buf, size_t len)
{
	return knob_display(&it->ref, v, buf, len);
}

void report_item_error(const struct plan_item *it)
{
	char a[KVAL_MAX], b[KVAL_MAX], c[KVAL_MAX];

	if (it->action == ACT_CHANGED_SINCE)
		log_err("%s: left at %s: changed since numastatctl wrote %s (--force restores %s)",
			it->ref.name, shown(it, &it->old, a, sizeof(a)),
			shown(it, &it->written, b, sizeof(b)), shown(it, &it->want, c, sizeof(c)));
	else if (it->err == -EAGAIN)
		log_err("%s: wrote %s, but the kernel kept %s", it->ref.name,
			shown(it, &it->want, a, sizeof(a)), shown(it, &it->now, b, sizeof(b)));
	else if (it->action == ACT_NOT_RESTORED)
		log_err("%s: cannot restore %s (%s): %s", it->ref.name, it->ref.path,
			shown(it, &it->old, a, sizeof(a)), sysfs_strerror(it->err));
	else if (!it->have_old)
		log_err("%s: cannot read %s: %s", it->ref.name, it->ref.path,
			sysfs_strerror(it->err));
	else
		log_err("%s: cannot write %s: %s", it->ref.name, it->ref.path,
			sysfs_strerror(it->err));
}

static void text_line(const struct plan_item *it, bool dry_run)
{
	char a[KVAL_MAX], b[KVAL_MAX];
	const char *old = shown(it, &it->old, a, sizeof(a));
	const char *want = shown(it, &it->want, b, sizeof(b));

	switch (it->action) {
	case ACT_WRITE:
		if (it->derived)
			log_info("%s: %s -> derived by the kernel%s\n", it->ref.name, old,
				 dry_run ? " (dry run)" : "");
		else
			log_info("%s: %s -> %s%s\n", it->ref.name, old, want,
				 dry_run ? " (dry run)" : "");
		break;
	case ACT_NOT_WRITTEN:
		log_info("%s: %s (not written)\n", it->ref.name, old);
		break;
	case ACT_CHANGED:
		log_info("%s: %s -> %s\n", it->ref.name, old, want);
		break;
	case ACT_UNCHANGED:
		log_info("%s: %s (unchanged)\n", it->ref.name, old);
		break;
	case ACT_SKIPPED:
		log_info("%s: (skipped: not on this kernel)\n", it->ref.name);
		break;
	case ACT_ROLLED_BACK:
		log_info("%s: %s (rolled back)\n", it->ref.name, old);
		break;
	case ACT_FAILED:
	case ACT_NOT_RESTORED:
	case ACT_CHANGED_SINCE:
		report_item_error(it);
		break;
	case ACT_NONE:
		break;
	}
}

/* The sysctl.d columns of apply --check -J: null where sysctl.d agrees. */
void report_conflict_columns(struct out_table *t)
{
	static const char *const names[] = {
		"sysctl_d_boot",         "sysctl_d_boot_value", "sysctl_d_system",
		"sysctl_d_system_value", "boot_value",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		out_table_add_column(t, names[i], 0, 0);
}

void report_conflict_cells(struct out_row *row, size_t col, const struct sysctld_conflict *c,
			   bool unit_enabled)
{
	char buf[KVAL_MAX];

	if (!c)
		return;
	if (c->boot.line) {
		out_row_setf(row, col, "%s:%u", c->boot.file, c->boot.line);
		out_row_set(row, col + 1, c->boot.value);
	}
	if (c->system.line) {
		out_row_setf(row, col + 2, "%s:%u", c->system.file, c->system.line);
		out_row_set(row, col + 3, c->system.value);
	}
	out_row_set(row, col + 4,
		    shown(c->item,
			  c->tuned_later                     ? &c->tuned_value
			  : c->boot_differs && !unit_enabled ? &c->boot.reads
							     : &c->item->want,
			  buf, sizeof(buf)));
}

/* The knobs array, with the trial object beside it (set --try, apply --try) when given. */
static int json_report(const struct plan *p, const struct sysctld_conflicts *c,
		       struct out_table *trial)
{
	struct out_doc *d = NULL;
	bool unit_enabled = c && sysctld_boot_unit_enabled();
	char why[WHY_MAX], a[KVAL_MAX], b[KVAL_MAX];
	struct out_table *t;
	int r = out_table_new(&t, "knobs", OUT_JSON, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print JSON: %s", why);
		return r;
	}
	out_table_add_column(t, "name", 0, 0);
	out_table_add_column(t, "old", 0, 0);
	out_table_add_column(t, "new", 0, 0);
	out_table_add_column(t, "action", 0, 0);
	if (c)
		report_conflict_columns(t);
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];
		struct out_row *row = out_table_add_row(t);

		if (!row)
			break;
		out_row_set(row, 0, it->ref.name);
		out_row_set(row, 1, it->have_old ? shown(it, &it->old, a, sizeof(a)) : NULL);
		out_row_set(row, 2, shown(it, &it->want, b, sizeof(b)));
		out_row_set(row, 3, plan_action_name(it->action));
		if (c)
			report_conflict_cells(row, 4, sysctld_conflict_of(c, it), unit_enabled);
	}
	if (!trial)
		r = out_table_print(t, stdout);
	else if ((r = out_doc_new(&d, 0)) == 0 && (r = out_doc_add(d, t, OUT_PART_ARRAY)) == 0 &&
		 (r = out_doc_add(d, trial, OUT_PART_OBJECT)) == 0)
		r = out_doc_print(d, stdout);
	out_doc_free(d);
	out_table_free(t);
	return r;
}

static char changes[1024];

/* "vm.min_slab_ratio 37 -> 50, ..." for every knob this run left changed. */
static void note_changes(const struct plan *p)
{
	char a[KVAL_MAX], b[KVAL_MAX];
	size_t n = 0;

	changes[0] = '\0';
	for (size_t i = 0; i < p->n && n < sizeof(changes); i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action != ACT_CHANGED && it->action != ACT_NOT_RESTORED)
			continue;
		n += (size_t)snprintf(changes + n, sizeof(changes) - n, "%s%s %s -> %s",
				      n ? ", " : "", it->ref.name,
				      shown(it, &it->old, a, sizeof(a)),
				      shown(it, &it->want, b, sizeof(b)));
	}
}

const char *report_changes_made(void)
{
	return changes;
}

void report_changes_note(const char *note)
{
	size_t n = strlen(changes);

	if (n)
		snprintf(changes + n, sizeof(changes) - n, " (%s)", note);
}

int report_plan(const struct plan *p, bool dry_run)
{
	return report_plan_with(p, dry_run, NULL);
}

static int report(const struct plan *p, bool dry_run, const struct sysctld_conflicts *c,
		  struct out_table *trial)
{
	if (!dry_run)
		note_changes(p);
	if (cmd_global.json) {
		/* Errors still go to stderr; JSON carries the action. */
		for (size_t i = 0; i < p->n; i++)
			if (p->items[i].action == ACT_FAILED ||
			    p->items[i].action == ACT_NOT_RESTORED ||
			    p->items[i].action == ACT_CHANGED_SINCE)
				report_item_error(&p->items[i]);
		return json_report(p, c, trial);
	}
	for (size_t i = 0; i < p->n; i++)
		text_line(&p->items[i], dry_run);
	return 0;
}

int report_plan_with(const struct plan *p, bool dry_run, const struct sysctld_conflicts *c)
{
	return report(p, dry_run, c, NULL);
}

int report_plan_trial(const struct plan *p, struct out_table *trial)
{
	return report(p, false, NULL, trial);
}

void report_missing_hint(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action != ACT_FAILED || it->err != -ENOENT || !it->ref.knob)
			continue;
		if (it->origin[0])
			log_err("%s: %s: write '-%s' to skip it where the kernel lacks it",
				it->origin, it->ref.name, it->ref.name);
		else
			log_err("%s: give it as '-%s=%s' (after '--') to skip it where the kernel "
				"lacks it",
				it->ref.name, it->ref.name, it->want.text);
	}
}

static bool changed_any(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].action == ACT_CHANGED)
			return true;
	return false;
}

void report_dry_run_notes(const struct plan *p, const char *data_dir, bool no_snapshot)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action == ACT_WRITE &&
		    knob_change_zeroes_counters(&it->ref, &it->old, &it->want)) {
			counters_would_zero(data_dir, no_snapshot);
			return;
		}
	}
}

void report_plan_notes(const struct plan *p, const struct plan_opts *o)
{
	if (o->snapshot_path[0] && plan_zeroed_counters(p))
		counters_saved(o->snapshot_path);
	else if (o->snapshot_path[0])
		log_warn("vm.numa_stat was not written, so the counters saved to %s were not "
			 "zeroed (stat --since would count them twice)",
			 o->snapshot_path);
	if (interleave_plan_auto_lost(p))
		log_warn("%s: the kernel has no bandwidth data, so nothing turns it on again "
			 "until reboot; revert restores the weights (all 1 while it was on: "
			 "auto had derived nothing)",
			 INTERLEAVE_AUTO);
	if (o->no_revert_point && !o->keep_prior && changed_any(p))
		log_warn("no revert point was saved (--no-revert-point): 'numastatctl revert' "
			 "cannot undo this change%s",
			 o->forgot_prior ? ", nor the one before (its revert point was removed)"
					 : "");
}

void report_refusal(const struct plan_opts *o)
{
	if (o->refused == REFUSED_SNAPSHOT)
		counters_refused(o->why);
	else if (o->refused == REFUSED_SIGNAL || o->refused == REFUSED_STEP)
		log_err("%s: nothing was changed", o->why);
	else
		log_err("%s: nothing was changed (use --no-revert-point to go ahead without one)",
			o->why);
}
