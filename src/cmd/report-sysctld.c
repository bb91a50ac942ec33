// SPDX-License-Identifier: GPL-2.0-or-later
/* How status and apply --check tell that sysctl.d sets a profile's knob otherwise. */
#include <stdio.h>

#include "log.h"
#include "report.h"
#include "sysctld.h"

/* Which value the knob has once the machine has booted. */
static void at_boot(const struct sysctld_conflict *c, bool unit_enabled, char *buf, size_t len)
{
	char value[KVAL_MAX];

	if (c->tuned_later)
		snprintf(buf, len,
			 "at boot numastatctl.service writes the profile's value after "
			 "systemd-sysctl, then tuned.service writes %s",
			 knob_display(&c->item->ref, &c->tuned_value, value, sizeof(value)));
	else if (!c->boot_differs)
		snprintf(buf, len, "systemd-sysctl agrees with the profile at boot");
	else if (unit_enabled)
		snprintf(buf, len,
			 "at boot the profile wins (numastatctl.service runs after "
			 "systemd-sysctl)");
	else
		snprintf(buf, len, "at boot %s holds (numastatctl.service is not enabled)",
			 knob_display(&c->item->ref, &c->boot.reads, value, sizeof(value)));
}

static void after_system(const struct sysctld_conflict *c, char *buf, size_t len)
{
	if (!c->system_differs)
		snprintf(buf, len, "'sysctl --system' leaves the profile's value");
	else
		snprintf(buf, len, "'sysctl --system' writes %s (%s:%u) until the next apply",
			 c->system.value, c->system.file, c->system.line);
}

void report_sysctld_conflict_text(const struct sysctld_conflict *k, const char *profile,
				  bool unit_enabled, char *buf, size_t len)
{
	const struct sysctld_setting *s = k->boot_differs ? &k->boot : &k->system;
	char want[KVAL_MAX], boot[KVAL_MAX + 100], system[KVAL_MAX + 400];

	at_boot(k, unit_enabled, boot, sizeof(boot));
	after_system(k, system, sizeof(system));
	snprintf(buf, len, "%s: sysctl.d sets %s at %s:%u, profile %s wants %s: %s; %s",
		 k->item->ref.name, s->value, s->file, s->line, profile,
		 knob_display(&k->item->ref, &k->item->want, want, sizeof(want)), boot, system);
}

void report_sysctld_conflicts(const struct sysctld_conflicts *c, const char *profile,
			      bool unit_enabled)
{
	char line[2048];

	for (size_t i = 0; i < c->n; i++) {
		report_sysctld_conflict_text(&c->v[i], profile, unit_enabled, line, sizeof(line));
		log_warn("%s", line);
	}
}
