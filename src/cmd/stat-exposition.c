// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter table's --prometheus and --textfile (stat-exposition.h):
 * gather what one exposition holds besides the nodes' files (every registry
 * knob, the configured profile against the live system) for stat-prom.c,
 * which formats it.  The textfile is what a fleet scrapes every 15 seconds,
 * so what it carries as a series (frozen counters, a broken configuration)
 * is not repeated on stderr there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "knob-list.h"
#include "log.h"
#include "plan.h"
#include "profiles.h"
#include "snapshot.h"
#include "stat-exposition.h"
#include "stat-views.h"
#include "why.h"

/* "-12" or "4294967296": what Prometheus takes as a value without loss of meaning. */
static bool decimal(const char *s)
{
	size_t digits;

	if (*s == '-')
		s++;
	digits = strspn(s, "0123456789");
	return digits > 0 && digits <= 20 && s[digits] == '\0';
}

/* Every registry knob present here: numbers as values, words (enums) for _knob_info. */
static size_t read_knobs(struct knob_list *all, struct stat_knob *out, size_t max)
{
	size_t k = 0;

	if (knob_list_build(all, false) < 0)
		return 0;
	for (size_t i = 0; i < all->n && k < max; i++) {
		const struct knob_ref *ref = &all->refs[i];
		struct stat_knob *sk = &out[k];
		char buf[KVAL_MAX];
		const char *text;
		struct kval v;

		if (knob_read(ref, &v) < 0)
			continue;
		text = knob_display(ref, &v, buf, sizeof(buf));
		sk->name = ref->name;
		if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
			snprintf(sk->value, sizeof(sk->value), "%d", text[0] == 't');
			sk->numeric = true;
		} else {
			snprintf(sk->value, sizeof(sk->value), "%s", text);
			sk->numeric = !(ref->knob && ref->knob->type == KNOB_ENUM) && decimal(text);
		}
		k++;
	}
	return k;
}

/* The plan's knobs as drift entries: skipped ('-' and absent) ones are left out. */
static int drift_from_plan(const struct plan *p, struct stat_profile *pr)
{
	pr->knobs = calloc(p->n ? p->n : 1, sizeof(*pr->knobs));
	if (!pr->knobs)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action == ACT_SKIPPED)
			continue;
		snprintf(pr->knobs[pr->n].name, sizeof(pr->knobs[0].name), "%s", it->ref.name);
		pr->knobs[pr->n++].differs = it->action == ACT_WRITE || it->action == ACT_FAILED;
	}
	return 0;
}

/* The configured profile against the live system; what cannot be resolved counts as an error. */
static void profile_drift(const struct profile_config *c, struct stat_profile *pr, char *name,
			  size_t namelen, bool report)
{
	struct profile_resolved r;
	struct plan p = { 0 };
	char why[WHY_MAX];

	if (profile_resolve(c, c->default_profile, &r, why, sizeof(why)) < 0) {
		pr->config_errors++;
		if (report)
			log_warn("profile %s: %s", c->default_profile, why);
		return;
	}
	if (profile_plan(c, &r, &p) == 0) {
		plan_read_live(&p);
		if (drift_from_plan(&p, pr) == 0) {
			snprintf(name, namelen, "%s", c->default_profile);
			pr->name = name;
		}
	}
	plan_free(&p);
	profile_resolved_free(&r);
}

/*
 * Fill pr from numastatctl.conf; false when there is no configuration at all
 * (no file: nothing to drift from, and nothing to say).
 */
static bool read_profile(struct stat_profile *pr, char *name, size_t namelen, bool report)
{
	struct profile_config c = { 0 };
	bool found;

	*pr = (struct stat_profile){ 0 };
	if (profiles_load(&c, false) == EXIT_FAIL) {
		profile_config_free(&c);
		return false;
	}
	found = c.nfiles > 0 || c.nerrors > 0;
	pr->config_errors = c.nerrors;
	if (c.nerrors && report)
		log_warn("the configuration has problems: 'numastatctl profiles' lists them");
	else if (found && c.default_at.line)
		profile_drift(&c, pr, name, namelen, report);
	profile_config_free(&c);
	return found;
}

int stat_exposition_read(struct stat_exposition *e, const struct stat_opts *o,
			 const struct stat_nodes *nodes)
{
	/* A snapshot holds counters: no memory, knob values or drift of that time. */
	bool saved = o->snapshot_arg && !o->since;

	*e = (struct stat_exposition){ .p = { .nodes = nodes,
					      .knobs = e->knobs,
					      .node_exporter_names = o->prom_node_exporter } };
	e->p.nk = saved ? 0 : read_knobs(&e->all, e->knobs, STAT_EXPOSITION_KNOBS);
	if (!saved && read_profile(&e->prof, e->prof_name, sizeof(e->prof_name), o->prometheus))
		e->p.profile = &e->prof;
	e->p.timestamp = saved ? (long long)stat_snapshot()->time.tv_sec : (long long)time(NULL);
	return 0;
}

void stat_exposition_free(struct stat_exposition *e)
{
	free(e->prof.knobs);
	knob_list_free(&e->all);
}
