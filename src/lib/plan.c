// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "plan.h"

int plan_add(struct plan *p, const struct knob_ref *ref, const struct kval *want, bool optional,
	     const char *origin)
{
	struct plan_item *it = NULL;

	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->items[i].ref.name, ref->name) == 0)
			it = &p->items[i];
	if (!it) {
		if (array_grow(&p->items, &p->cap, p->n + 1, sizeof(*p->items)) < 0)
			return -ENOMEM;
		it = &p->items[p->n++];
	}
	memset(it, 0, sizeof(*it));
	it->ref = *ref;
	it->want = *want;
	it->optional = optional;
	snprintf(it->origin, sizeof(it->origin), "%s", origin ? origin : "");
	return 0;
}

int plan_add_side_effect(struct plan *p, const struct knob_ref *ref, const struct kval *old,
			 const struct kval *want)
{
	struct plan_item *it;

	if (array_grow(&p->items, &p->cap, p->n + 1, sizeof(*p->items)) < 0)
		return -ENOMEM;
	memmove(p->items + 1, p->items, p->n++ * sizeof(*p->items));
	it = &p->items[0];
	memset(it, 0, sizeof(*it));
	it->ref = *ref;
	it->old = *old;
	it->want = *want;
	it->have_old = true;
	it->side_effect = true;
	it->action = ACT_WRITE;
	return 0;
}

static size_t registry_index(const struct knob_ref *r)
{
	return r->knob ? (size_t)(r->knob - knob_table) : knob_count;
}

static int cmp_items(const void *a, const void *b)
{
	const struct plan_item *x = a, *y = b;
	size_t ix = registry_index(&x->ref), iy = registry_index(&y->ref);

	if (ix != iy)
		return ix < iy ? -1 : 1;
	/* Family members by node id: node2 before node10. */
	if (knob_ref_node(&x->ref) != knob_ref_node(&y->ref))
		return knob_ref_node(&x->ref) < knob_ref_node(&y->ref) ? -1 : 1;
	return strcmp(x->ref.name, y->ref.name);
}

void plan_sort(struct plan *p)
{
	if (p->n > 1)
		qsort(p->items, p->n, sizeof(*p->items), cmp_items);
}

int plan_read_live(struct plan *p)
{
	int first = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct plan_item *it = &p->items[i];
		int r = knob_read(&it->ref, &it->old);

		it->have_old = r == 0;
		if (r == -ENOENT && it->optional)
			it->action = ACT_SKIPPED;
		else if (r < 0) {
			it->action = ACT_FAILED;
			it->err = r;
			if (!first)
				first = r;
		} else
			it->action =
				strcmp(it->old.text, it->want.text) ? ACT_WRITE : ACT_UNCHANGED;
	}
	return first;
}

size_t plan_keep_changed_since(struct plan *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct plan_item *it = &p->items[i];

		/* A side effect follows its cause: it is judged by the knob that caused it. */
		if (it->action == ACT_WRITE && it->have_written && !it->side_effect &&
		    strcmp(it->old.text, it->written.text) != 0) {
			it->action = ACT_CHANGED_SINCE;
			n++;
		}
	}
	/*
	 * A side effect restored would redo what the kernel undid: auto on
	 * derives every weight again, over one left alone.
	 */
	for (size_t i = 0; n && i < p->n; i++)
		if (p->items[i].side_effect && p->items[i].action == ACT_WRITE) {
			p->items[i].action = ACT_NOT_WRITTEN;
			n++;
		}
	return n;
}

bool plan_has_writes(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].action == ACT_WRITE)
			return true;
	return false;
}

void plan_abandon(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].action == ACT_WRITE)
			p->items[i].action = ACT_NOT_WRITTEN;
}

void plan_free(struct plan *p)
{
	free(p->items);
	*p = (struct plan){ 0 };
}

const char *plan_action_name(enum plan_action a)
{
	static const char *const names[] = {
		[ACT_NONE] = "none",
		[ACT_WRITE] = "would-change",
		[ACT_UNCHANGED] = "unchanged",
		[ACT_SKIPPED] = "skipped",
		[ACT_CHANGED] = "changed",
		[ACT_FAILED] = "failed",
		[ACT_ROLLED_BACK] = "rolled-back",
		[ACT_NOT_RESTORED] = "failed",
		[ACT_NOT_WRITTEN] = "not-written",
		[ACT_CHANGED_SINCE] = "changed-since",
	};
	return names[a];
}
