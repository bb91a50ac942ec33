// SPDX-License-Identifier: GPL-2.0-or-later
/* advise: running the rules and ordering what they say. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "array.h"
#include "value.h"
#include "why.h"

const char *advise_priority_name(enum advise_priority p)
{
	static const char *const names[] = {
		[PRIO_HIGH] = "high", [PRIO_MEDIUM] = "medium", [PRIO_LOW] = "low",
	};
	return names[p];
}

const char *advice_kind_name(enum advice_kind k)
{
	static const char *const names[] = {
		[ADV_ADVICE] = "advice", [ADV_NOTE] = "note",
		[ADV_NO_DATA] = "insufficient-data", [ADV_OK] = "ok",
	};
	return names[k];
}

const struct advise_rule *advise_rule_find(const char *id)
{
	for (size_t i = 0; i < advise_rule_count; i++)
		if (strcmp(advise_rules[i].id, id) == 0)
			return &advise_rules[i];
	return NULL;
}

struct advice *advice_new(struct advice_list *out, const struct advise_rule *r,
			  enum advice_kind kind)
{
	struct advice *a;

	if (array_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v)) < 0)
		return NULL;
	a = &out->v[out->n++];
	memset(a, 0, sizeof(*a));
	a->rule = r;
	a->kind = kind;
	return a;
}

void advice_set_knob(struct advice *a, const struct af_knob *k, const char *value)
{
	char why[WHY_MAX];

	str_copy(a->knob, k->ref.name, sizeof(a->knob));
	if (k->err == 0)
		a->current = k->v;
	a->has_value = value && knob_parse(&k->ref, value, &a->value, why, sizeof(why)) == 0;
}

void advice_text(struct advice *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->text, sizeof(a->text), fmt, ap);
	va_end(ap);
}

void advice_evidence(struct advice *a, const char *fmt, ...)
{
	va_list ap;

	if (a->nevidence == ADVICE_EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(a->evidence[a->nevidence++], ADVICE_LINE_MAX, fmt, ap);
	va_end(ap);
}

bool advice_judged(const struct advice_list *out, const char *knob)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i].knob, knob) == 0)
			return true;
	return false;
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
			dup |= l->v[k].kind == ADV_ADVICE && l->v[k].has_value && strcmp(l->v[k].knob, l->v[i].knob) == 0;
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

void advice_list_free(struct advice_list *l)
{
	free(l->v);
	*l = (struct advice_list){ 0 };
}

size_t advice_count(const struct advice_list *l, enum advice_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->v[i].kind == kind;
	return n;
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
	for (size_t i = 0; i < f->n; i++)
		free(f->nodes[i].dist);
	free(f->nodes);
	free(f->knobs);
	node_memtiers_free(&f->tiers);
	sysctld_conflicts_free(&f->conflicts);
	plan_free(&f->plan);
	memset(f, 0, sizeof(*f));
}
