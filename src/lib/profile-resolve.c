// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A profile with its includes: included profiles first, in the order named,
 * then the profile's own keys; a later definition of a knob replaces an
 * earlier one, and the replaced definitions are kept for `profiles NAME`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "plan.h"
#include "profile.h"

struct resolve {
	const struct profile_config *c;
	struct profile_resolved *out;
	const struct profile *stack[PROFILE_MAX_DEPTH + 1];
	size_t depth;
	bool *merged; /* per profile: already merged in this resolution */
	char *why;
	size_t whylen;
};

static int merge_key(struct profile_resolved *out, const struct profile_key *k,
		     const struct profile *from)
{
	struct profile_effective *e = NULL;

	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->knobs[i].def->key, k->key) == 0)
			e = &out->knobs[i];
	if (e) {
		/* A profile included twice (a diamond) brings the same definition again. */
		if (e->def == k)
			return 0;
		memmove(e->overrides + 1, e->overrides,
			(PROFILE_MAX_OVERRIDES - 1) * sizeof(e->overrides[0]));
		e->overrides[0] = e->def;
		if (e->noverrides < PROFILE_MAX_OVERRIDES)
			e->noverrides++;
		e->def = k;
		e->from = from;
		return 0;
	}
	if (array_grow(&out->knobs, &out->cap, out->n + 1, sizeof(*out->knobs)) < 0)
		return -ENOMEM;
	out->knobs[out->n++] = (struct profile_effective){ .def = k, .from = from };
	return 0;
}

static int merge_profile(struct resolve *r, const struct profile *p);

static int merge_includes(struct resolve *r, const struct profile *p)
{
	const struct profile_key *inc = profile_own_key(p, "include");
	char buf[PROFILE_VALUE_MAX], *save = NULL;
	int ret = 0;

	if (!inc)
		return 0;
	snprintf(buf, sizeof(buf), "%s", inc->value);
	for (char *w = strtok_r(buf, " \t", &save); w && ret == 0;
	     w = strtok_r(NULL, " \t", &save)) {
		const struct profile *q = profile_find(r->c, w);

		if (!q) {
			snprintf(r->why, r->whylen, "profile '%s' includes unknown profile '%s'",
				 p->name, w);
			return -ENOENT;
		}
		ret = merge_profile(r, q);
	}
	return ret;
}

static int merge_profile(struct resolve *r, const struct profile *p)
{
	int ret;

	for (size_t i = 0; i < r->depth; i++)
		if (r->stack[i] == p) {
			snprintf(r->why, r->whylen, "profile '%s': include loop", p->name);
			return -ELOOP;
		}
	if (r->depth == PROFILE_MAX_DEPTH) {
		snprintf(r->why, r->whylen, "profile '%s': includes nest deeper than %d levels",
			 r->stack[0]->name, PROFILE_MAX_DEPTH);
		return -ELOOP;
	}
	/*
	 * Each profile is merged once, where it is first reached: with
	 * "include = a b" where both include base, b must not bring base's
	 * values back over a's own.
	 */
	if (r->merged[p - r->c->profiles])
		return 0;
	r->merged[p - r->c->profiles] = true;
	r->stack[r->depth++] = p;
	ret = merge_includes(r, p);
	for (size_t i = 0; i < p->n && ret == 0; i++)
		if (p->keys[i].is_knob && !p->keys[i].invalid)
			ret = merge_key(r->out, &p->keys[i], p);
	r->depth--;
	return ret;
}

int profile_resolve(const struct profile_config *c, const char *name, struct profile_resolved *out,
		    char *why, size_t whylen)
{
	struct resolve r = { .c = c, .out = out, .why = why, .whylen = whylen };
	const struct profile *p = profile_find(c, name);
	char hint[1100];
	int ret;

	memset(out, 0, sizeof(*out));
	if (!p) {
		profile_unknown_hint(c, name, hint, sizeof(hint));
		snprintf(why, whylen, "unknown profile '%s'%s", name, hint);
		return -ENOENT;
	}
	out->profile = p;
	out->summary = profile_own_key(p, "summary");
	out->include = profile_own_key(p, "include");
	r.merged = calloc(c->nprofiles, sizeof(*r.merged));
	ret = r.merged ? merge_profile(&r, p) : -ENOMEM;
	free(r.merged);
	if (ret == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	if (ret < 0)
		profile_resolved_free(out);
	return ret;
}

void profile_resolved_free(struct profile_resolved *r)
{
	free(r->knobs);
	memset(r, 0, sizeof(*r));
}

int profile_plan(const struct profile_config *c, const struct profile_resolved *r, struct plan *p)
{
	char origin[sizeof(p->items[0].origin)];

	for (size_t i = 0; i < r->n; i++) {
		const struct profile_key *k = r->knobs[i].def;
		int ret;

		profile_origin(c, k->at, origin, sizeof(origin));
		ret = plan_add(p, &k->ref, &k->val, k->optional, origin);
		if (ret < 0)
			return ret;
	}
	plan_sort(p);
	return 0;
}
