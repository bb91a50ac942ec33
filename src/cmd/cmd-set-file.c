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
#include "why.h"

static void syntax_error(void *ctx, unsigned line, const char *msg)
{
	log_err("%s:%u: %s", (const char *)ctx, line, msg);
}

static int out_of_memory(void)
{
	log_err("out of memory");
	return -ENOMEM;
}

/* The worse of two results: out of memory, then any refusal (-EINVAL), then 0. */
static int worse(int a, int b)
{
	if (a == -ENOMEM || b == -ENOMEM)
		return -ENOMEM;
	return a < 0 || b < 0 ? -EINVAL : 0;
}

/* Validate one entry for one knob; prints the problem. */
static int add_entry(struct plan *p, const char *file, const struct sysctl_entry *e,
		     const struct knob_ref *ref)
{
	char origin[sizeof(((struct plan_item *)0)->origin)], why[WHY_MAX];
	struct kval v;

	if (knob_parse(ref, e->value, &v, why, sizeof(why)) < 0) {
		log_err("%s:%u: %s", file, e->line, why);
		return -EINVAL;
	}
	snprintf(origin, sizeof(origin), "%s:%u", file, e->line);
	return plan_add(p, ref, &v, e->ignore_failure, origin) < 0 ? out_of_memory() : 0;
}

static bool listed(const struct sysctl_file *sf, const char *name, bool exclusions)
{
	char why[WHY_MAX];
	struct knob_ref ref;

	for (size_t i = 0; i < sf->n; i++) {
		const struct sysctl_entry *e = &sf->v[i];

		if (e->exclude != exclusions || knob_is_glob(e->key))
			continue;
		if (knob_resolve(e->key, &ref, why, sizeof(why)) == 0 &&
		    strcmp(ref.name, name) == 0)
			return true;
	}
	return false;
}

/* A glob sets every matching knob that no explicit line or exclusion names. */
static int add_glob(struct plan *p, const char *file, const struct sysctl_file *sf,
		    const struct sysctl_entry *e, const struct knob_list *all)
{
	struct knob_list match = { 0 };
	int r = knob_list_glob(all, e->key, &match) < 0 ? out_of_memory() : 0;

	for (size_t i = 0; r != -ENOMEM && i < match.n; i++) {
		if (listed(sf, match.refs[i].name, false) || listed(sf, match.refs[i].name, true))
			continue;
		r = worse(r, add_entry(p, file, e, &match.refs[i]));
	}
	knob_list_free(&match);
	return r;
}

/*
 * One line that is not a glob: the name must be a knob (an exclusion too: a
 * misspelt one would let a glob set the knob it was meant to keep).
 */
static int add_named(struct plan *p, const char *file, const struct sysctl_entry *e,
		     bool managed_only)
{
	struct knob_ref ref;
	char why[WHY_MAX];

	if (managed_only && knob_resolve(e->key, &ref, why, sizeof(why)) == -ENOENT) {
		log_warn("%s:%u: %s: skipped: not a knob numastatctl manages", file, e->line,
			 e->key);
		return 0;
	}
	if ((e->ignore_failure ? knob_lookup_optional(e->key, &ref, why, sizeof(why))
			       : knob_lookup(e->key, &ref, why, sizeof(why))) < 0) {
		log_err("%s:%u: %s", file, e->line, why);
		return -EINVAL;
	}
	return e->exclude ? 0 : add_entry(p, file, e, &ref);
}

static int add_entries(struct plan *p, const char *file, const struct sysctl_file *sf,
		       bool managed_only)
{
	struct knob_list all = { 0 };
	int r = 0, r2;

	for (size_t i = 0; i < sf->n && r != -ENOMEM; i++) {
		const struct sysctl_entry *e = &sf->v[i];

		if (!knob_is_glob(e->key))
			r = worse(r, add_named(p, file, e, managed_only));
		else if (e->exclude)
			continue;
		else if (!all.refs && (r2 = knob_list_build(&all, true)) < 0) {
			/* Operational, like running out of memory: exit 1, not a usage error. */
			log_err("cannot list the sysctls for '%s': %s", e->key, strerror(-r2));
			r = -ENOMEM;
		} else
			r = worse(r, add_glob(p, file, sf, e, &all));
	}
	knob_list_free(&all);
	return r;
}

int cmd_set_file_add(struct plan *p, const char *path, bool managed_only)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	struct sysctl_file sf = { 0 };
	FILE *f = is_stdin ? stdin : fopen(path, "re");
	int r;

	if (!f) {
		int e = errno;

		log_err("%s: %s", path, strerror(e));
		return -e;
	}
	r = sysctl_file_parse(f, &sf, syntax_error, (void *)name);
	if (!is_stdin)
		fclose(f);
	if (r == -EFBIG)
		log_err("%s: larger than %d MiB: not a sysctl.d file", name, SYSCTL_FILE_MAX >> 20);
	else if (r == -ENOMEM)
		log_err("%s: out of memory", name);
	else if (r < 0)
		log_err("%s: cannot read: %s", name, strerror(-r));
	/* Report every problem: the lines that parsed are checked too. */
	if (r >= 0) {
		int syntax_errors = r;

		r = add_entries(p, name, &sf, managed_only);
		if (syntax_errors)
			r = -EINVAL;
	}
	sysctl_file_free(&sf);
	return r;
}
