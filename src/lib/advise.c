// SPDX-License-Identifier: GPL-2.0-or-later
/* advise: running the rules and ordering what they say. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "why.h"

const char *advise_priority_name(enum advise_priority p)
{
	static const char *const names[] = {
		[PRIO_HIGH] = "high",
		[PRIO_MEDIUM] = "medium",
		[PRIO_LOW] = "low",
	};
	return names[p];
}

const struct advise_rule *advise_rule_find(const char *id)
{
	for (size_t i = 0; i < advise_rule_count; i++)
		if (strcmp(advise_rules[i].id, id) == 0)
			return &advise_rules[i];
	return NULL;
}

/* Advice first, then notes, then missing data; by priority; then in table order. */
static int by_weight(const void *pa, const void *pb)
{
	const struct advice *a = pa, *b = pb;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->rule->priority != b->rule->priority)
		return (int)a->rule->priority - (int)b->rule->priority;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	/* One rule's entries keep their order: qsort is not stable. */
	return a < b ? -1 : a > b;
}

/* A knob keeps its first (most important) advice; ok entries go. */
static void prune(struct advice_list *l)
{
	size_t out = 0;

	for (size_t i = 0; i < l->n; i++) {
		bool dup = false;

		for (size_t k = 0; k < out && l->v[i].kind == ADV_ADVICE && l->v[i].has_value; k++)
			dup |= l->v[k].kind == ADV_ADVICE && l->v[k].has_value &&
			       strcmp(l->v[k].knob, l->v[i].knob) == 0;
		if (!dup && l->v[i].kind != ADV_OK)
			l->v[out++] = l->v[i];
	}
	l->n = out;
}

int advise_evaluate(const struct advise_facts *f, struct advice_list *out)
{
	for (size_t i = 0; i < advise_rule_count; i++) {
		int r = advise_rules[i].eval(f, &advise_rules[i], out);

		if (r < 0)
			return r;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), by_weight);
	prune(out);
	return 0;
}

int advise_facts_init(struct advise_facts *f)
{
	char why[WHY_MAX];

	memset(f, 0, sizeof(*f));
	f->knobs = calloc(knob_count, sizeof(*f->knobs));
	if (!f->knobs)
		return -ENOMEM;
	for (size_t i = 0; i < knob_count; i++) {
		knob_resolve(knob_table[i].name, &f->knobs[i].ref, why, sizeof(why));
		f->knobs[i].err = -ENOENT;
	}
	f->masks_err = -ENOENT;
	f->tiers_err = -ENOENT;
	f->uptime_err = -ENOENT;
	f->reclaim_distance = ADVISE_RECLAIM_DISTANCE;
	return 0;
}

const struct af_knob *advise_knob(const struct advise_facts *f, const char *name)
{
	for (size_t i = 0; i < knob_count; i++)
		if (strcmp(knob_table[i].name, name) == 0)
			return &f->knobs[i];
	return NULL;
}

void advise_facts_set_knob(struct advise_facts *f, const char *name, const char *value)
{
	struct af_knob *k = (struct af_knob *)advise_knob(f, name);

	if (!k)
		return;
	knob_parse_live(&k->ref, value, &k->v);
	k->err = 0;
}

void advise_facts_free(struct advise_facts *f)
{
	free(f->nodes);
	free(f->knobs);
	node_memtiers_free(&f->tiers);
	if (f->map)
		memmap_free(f->map);
	free(f->map);
	sysctld_conflicts_free(&f->conflicts);
	plan_free(&f->plan);
	damon_free(&f->damon);
	memset(f, 0, sizeof(*f));
}
