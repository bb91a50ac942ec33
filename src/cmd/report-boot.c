// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What set says when the next boot puts another value back: the profile the
 * enabled boot unit applies, else a sysctl.d file.  A value set by hand lasts
 * until the reboot otherwise, and only status would show the conflict.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "log.h"
#include "profiles.h"
#include "report.h"

/* The knobs the boot unit's profile sets; false when it applies none. */
static bool boot_profile(struct profile_config *c, struct plan *bp)
{
	struct profile_resolved r;
	char why[WHY_MAX];
	bool ok;

	if (!sysctld_boot_unit_enabled() || profiles_load(c, false) != EXIT_OK ||
	    !c->default_at.line || profile_resolve(c, c->default_profile, &r, why, sizeof(why)) < 0)
		return false;
	ok = profile_plan(c, &r, bp) == 0;
	profile_resolved_free(&r);
	return ok;
}

static const struct plan_item *find(const struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->items[i].ref.name, name) == 0)
			return &p->items[i];
	return NULL;
}

/*
 * A value the set wrote (or would, with --dry-run).  Not one it found in
 * place: the configuration and sysctl.d are read only when something
 * changed, so that the common set of a value in force costs no more.
 */
static bool changed(const struct plan_item *it)
{
	return !it->side_effect && !it->derived &&
	       (it->action == ACT_WRITE || it->action == ACT_CHANGED);
}

/* The profile's line that puts b's value back, and the drop-in line that keeps its value. */
static void say_profile(const struct plan_item *it, const struct plan_item *b, const char *name)
{
	char want[KVAL_MAX], boot[KVAL_MAX];

	knob_display(&it->ref, &it->want, want, sizeof(want));
	log_warn("%s: the next boot puts %s back: numastatctl.service applies profile %s, which "
		 "sets it at %s; to keep %s, add '%s = %s' under '[profile %s]' "
		 "in %s (numastatctl.conf(5))",
		 it->ref.name, knob_display(&b->ref, &b->want, boot, sizeof(boot)), name, b->origin,
		 want, it->ref.name, want, name,
		 cmd_global.config ? cmd_global.config : SYSCONFDIR "/numastatctl.d/90-keep.conf");
}

static void say_sysctld(const struct sysctld_conflict *c)
{
	char want[KVAL_MAX], boot[KVAL_MAX];

	log_warn("%s: the next boot puts %s back: systemd-sysctl writes it from %s:%u; to keep "
		 "%s, write '%s = %s' there",
		 c->item->ref.name, knob_display(&c->item->ref, &c->boot.reads, boot, sizeof(boot)),
		 c->boot.file, c->boot.line,
		 knob_display(&c->item->ref, &c->item->want, want, sizeof(want)), c->item->ref.name,
		 want);
}

void report_boot_values(const struct plan *p)
{
	struct profile_config c = { 0 };
	struct sysctld_conflicts s = { 0 };
	struct plan bp = { 0 };
	bool profile, any = false;

	for (size_t i = 0; i < p->n; i++)
		any |= changed(&p->items[i]);
	if (!any)
		return;
	profile = boot_profile(&c, &bp);
	/* Advice: a failure to read sysctl.d only leaves it unsaid. */
	sysctld_conflicts_find(p, &s);
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i], *b;
		const struct sysctld_conflict *k;

		if (!changed(it))
			continue;
		/* The unit runs after systemd-sysctl: its profile has the last word. */
		b = profile ? find(&bp, it->ref.name) : NULL;
		if (b && strcmp(b->want.text, it->want.text) != 0)
			say_profile(it, b, c.default_profile);
		else if (!b && (k = sysctld_conflict_of(&s, it)) && k->boot_differs)
			say_sysctld(k);
	}
	sysctld_conflicts_free(&s);
	plan_free(&bp);
	profile_config_free(&c);
}
