// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading the configuration, for every command that needs it (profiles.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "log.h"
#include "out.h"
#include "profiles.h"

const char *const profiles_conf_dirs[] = { SYSCONFDIR, RUNTIME_CONFDIR, VENDOR_CONFDIR, NULL };

int profiles_load(struct profile_config *c, bool report)
{
	unsigned flags = geteuid() == 0 ? PROFILE_CHECK_OWNER : 0;

	if (profile_config_load(c, cmd_global.config, profiles_conf_dirs, flags) < 0) {
		log_err("cannot load the configuration: %s", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	if (!c->nerrors)
		return EXIT_OK;
	for (size_t i = 0; report && i < c->nerrors; i++)
		log_err("%s", c->errors[i].text);
	return EXIT_USAGE;
}

void profiles_none_text(char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len,
				    "no configuration file: looked for numastatctl.conf "
				    "and numastatctl.d/*.conf in ");

	for (size_t i = 0; profiles_conf_dirs[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      i == 0                      ? ""
				      : profiles_conf_dirs[i + 1] ? ", "
								  : " and ",
				      profiles_conf_dirs[i]);
}

const char *profiles_data_dir(const struct profile_config *c)
{
	if (cmd_global.state_dir)
		return cmd_global.state_dir;
	return c->state_dir_at.line ? c->state_dir : STATE_DIR;
}

const char *profiles_effective_data_dir(void)
{
	static char dir[PROFILE_VALUE_MAX];
	struct profile_config c = { 0 };

	if (cmd_global.state_dir)
		return cmd_global.state_dir;
	profiles_load(&c, false);
	snprintf(dir, sizeof(dir), "%s", profiles_data_dir(&c));
	profile_config_free(&c);
	return dir;
}

/* "vm.numa_stat is 1 (wants 0), ..." for the knobs where live differs. */
static size_t drift(const struct plan *p, char *buf, size_t len)
{
	char a[KVAL_MAX], b[KVAL_MAX];
	size_t n = 0, count = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n && n < len; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action == ACT_WRITE)
			n += (size_t)snprintf(buf + n, len - n, "%s%s is %s (wants %s)",
					      count ? ", " : "", it->ref.name,
					      knob_display(&it->ref, &it->old, a, sizeof(a)),
					      knob_display(&it->ref, &it->want, b, sizeof(b)));
		else if (it->action == ACT_FAILED)
			n += (size_t)snprintf(buf + n, len - n, "%s%s cannot be read",
					      count ? ", " : "", it->ref.name);
		else
			continue;
		count++;
	}
	return count;
}

void profiles_state(struct profile_state *st)
{
	struct profile_config c = { 0 };
	struct profile_resolved r;

	*st = (struct profile_state){ .kind = PSTATE_NONE };
	if (profiles_load(&c, false) != EXIT_OK) {
		st->kind = PSTATE_BROKEN;
		/* The first problem by name (a drop-in's file:line), the rest counted. */
		if (c.nerrors > 1)
			snprintf(st->problem, sizeof(st->problem),
				 "the configuration has problems: %s (and %zu more: 'numastatctl "
				 "profiles' lists them)",
				 c.errors[0].text, c.nerrors - 1);
		else if (c.nerrors == 1)
			snprintf(st->problem, sizeof(st->problem),
				 "the configuration has a problem: %s", c.errors[0].text);
		else
			snprintf(
				st->problem, sizeof(st->problem),
				"the configuration has problems: 'numastatctl profiles' lists them");
	} else if (c.nfiles == 0 && !cmd_global.config) {
		st->no_files = true;
	} else if (c.default_at.line) {
		snprintf(st->name, sizeof(st->name), "%s", c.default_profile);
		if (profile_resolve(&c, c.default_profile, &r, st->problem, sizeof(st->problem)) <
		    0)
			st->kind = PSTATE_BROKEN;
		else {
			if (profile_plan(&c, &r, &st->plan) == 0) {
				plan_read_live(&st->plan);
				st->kind = PSTATE_CHECKED;
				profiles_neighbours(&st->plan, &st->sysctld, &st->tuned,
						    &st->tunedc, st->sysctld_problem,
						    sizeof(st->sysctld_problem));
			} else {
				st->kind = PSTATE_BROKEN;
				snprintf(st->problem, sizeof(st->problem), "out of memory");
			}
			profile_resolved_free(&r);
		}
	}
	profile_config_free(&c);
}

void profiles_neighbours(const struct plan *p, struct sysctld_conflicts *s, struct tuned_state *ts,
			 struct tuned_conflicts *t, char *problem, size_t len)
{
	/* Advice, not a parser of record: a failure only says so. */
	problem[0] = '\0';
	if (sysctld_conflicts_find(p, s) < 0 || tuned_read(ts) < 0 ||
	    tuned_conflicts_find(ts, p, t) < 0)
		snprintf(problem, len, "cannot compare with sysctl.d and tuned: %s",
			 strerror(ENOMEM));
	tuned_mark_sysctld(t, s);
}

void profiles_state_free(struct profile_state *st)
{
	tuned_conflicts_free(&st->tunedc);
	sysctld_conflicts_free(&st->sysctld);
	plan_free(&st->plan);
}

bool profiles_state_differs(const struct profile_state *st)
{
	for (size_t i = 0; st->kind == PSTATE_CHECKED && i < st->plan.n; i++)
		if (st->plan.items[i].action == ACT_WRITE || st->plan.items[i].action == ACT_FAILED)
			return true;
	return false;
}

void profiles_status(const struct profile_state *st)
{
	char diff[2048], none[512];
	size_t cols, rows;

	/* Folded on a terminal; one line in a pipe. */
	out_terminal_size(&cols, &rows);

	if (st->kind == PSTATE_NONE && st->no_files) {
		profiles_none_text(none, sizeof(none));
		log_info_wrapped(cols, 2, "profile: none configured (%s)", none);
	} else if (st->kind == PSTATE_NONE)
		log_info("profile: none configured\n");
	else if (st->kind == PSTATE_BROKEN)
		return; /* status warns about it */
	else if (drift(&st->plan, diff, sizeof(diff)))
		log_info_wrapped(cols, 2, "profile: %s (live differs: %s)", st->name, diff);
	else
		log_info("profile: %s (live matches)\n", st->name);
}
