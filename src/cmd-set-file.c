// SPDX-License-Identifier: GPL-2.0-or-later
/* set -f FILE: assignments in sysctl.d(5) syntax, limited to NUMA knobs. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "cmd-set-file.h"
#include "knob-list.h"
#include "log.h"
#include "sysctl-file.h"

static void syntax_error(void *ctx, unsigned line, const char *msg)
{
	log_err("%s:%u: %s", (const char *)ctx, line, msg);
}

/* Resolve and validate one entry for one knob; prints the problem. */
static int add_entry(struct plan *p, const char *file, const struct sysctl_entry *e,
		     const struct knob_ref *ref)
{
	char origin[sizeof(((struct plan_item *)0)->origin)], why[512];
	struct kval v;

	if (knob_parse(ref, e->value, &v, why, sizeof(why)) < 0) {
		log_err("%s:%u: %s", file, e->line, why);
		return -EINVAL;
	}
	snprintf(origin, sizeof(origin), "%s:%u", file, e->line);
	return plan_add(p, ref, &v, e->ignore_failure, origin);
}

static bool listed(const struct sysctl_file *sf, const char *name, bool exclusions)
{
	char why[256];
	struct knob_ref ref;

	for (size_t i = 0; i < sf->n; i++) {
		const struct sysctl_entry *e = &sf->v[i];

		if (e->exclude != exclusions || knob_is_glob(e->key))
			continue;
		if (knob_resolve(e->key, &ref, why, sizeof(why)) == 0 && strcmp(ref.name, name) == 0)
			return true;
	}
	return false;
}

/* A glob sets every matching knob that no explicit line or exclusion names. */
static int add_glob(struct plan *p, const char *file, const struct sysctl_file *sf,
		    const struct sysctl_entry *e, const struct knob_list *all)
{
	struct knob_list match = { 0 };
	int r = knob_list_glob(all, e->key, &match), bad = 0;

	for (size_t i = 0; r == 0 && i < match.n; i++) {
		if (listed(sf, match.refs[i].name, false) || listed(sf, match.refs[i].name, true))
			continue;
		bad |= add_entry(p, file, e, &match.refs[i]) < 0;
	}
	knob_list_free(&match);
	return r < 0 ? r : bad ? -EINVAL : 0;
}

static int add_entries(struct plan *p, const char *file, const struct sysctl_file *sf)
{
	struct knob_list all = { 0 };
	char why[512];
	int bad = 0;

	for (size_t i = 0; i < sf->n; i++) {
		const struct sysctl_entry *e = &sf->v[i];
		struct knob_ref ref;

		if (e->exclude)
			continue;
		if (knob_is_glob(e->key)) {
			if (!all.refs && knob_list_build(&all, true) < 0)
				return -ENOMEM;
			bad |= add_glob(p, file, sf, e, &all) < 0;
		} else if (knob_resolve(e->key, &ref, why, sizeof(why)) < 0) {
			log_err("%s:%u: %s", file, e->line, why);
			bad = 1;
		} else
			bad |= add_entry(p, file, e, &ref) < 0;
	}
	knob_list_free(&all);
	return bad ? -EINVAL : 0;
}

int set_add_file(struct plan *p, const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	struct sysctl_file sf = { 0 };
	FILE *f = is_stdin ? stdin : fopen(path, "re");
	int r;

	if (!f) {
		log_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	r = sysctl_file_parse(f, &sf, syntax_error, (void *)name);
	if (!is_stdin)
		fclose(f);
	/* Report every problem: the lines that parsed are checked too. */
	if (r >= 0) {
		int syntax_errors = r;

		r = add_entries(p, name, &sf);
		if (syntax_errors)
			r = -EINVAL;
	}
	sysctl_file_free(&sf);
	return r;
}
