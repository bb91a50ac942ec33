// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interleave.h"
#include "knob-list.h"
#include "nodes.h"
#include "sysfs.h"
#include "value.h"

bool interleave_is_weight(const struct knob_ref *ref)
{
	return ref->knob && strcmp(ref->knob->name, INTERLEAVE_WEIGHTS) == 0 &&
	       knob_ref_node(ref) >= 0;
}

bool interleave_is_auto(const struct knob_ref *ref)
{
	return ref->knob && strcmp(ref->knob->name, INTERLEAVE_AUTO) == 0;
}

static const struct plan_item *find(const struct plan *p, bool (*is)(const struct knob_ref *))
{
	for (size_t i = 0; i < p->n; i++)
		if (is(&p->items[i].ref))
			return &p->items[i];
	return NULL;
}

int interleave_plan_check(const struct plan *p, char *why, size_t whylen)
{
	const struct plan_item *a = find(p, interleave_is_auto), *w = find(p, interleave_is_weight);

	if (!a || !w || a->side_effect || strcmp(a->want.text, "1") != 0)
		return 0;
	snprintf(why, whylen,
		 "%s = true%s%s and %s = %s%s%s exclude each other: auto on replaces every "
		 "weight, a weight written turns auto off; set the weights with auto false, or "
		 "auto true alone",
		 INTERLEAVE_AUTO, a->origin[0] ? " at " : "", a->origin, w->ref.name, w->want.text,
		 w->origin[0] ? " at " : "", w->origin);
	return -EINVAL;
}

int interleave_plan_check_live(const struct plan *p, char *why, size_t whylen)
{
	const struct plan_item *a = find(p, interleave_is_auto);

	if (!a || a->action != ACT_WRITE || strcmp(a->want.text, "1") != 0 ||
	    interleave_auto_can_return())
		return 0;
	snprintf(why, whylen,
		 "%s: cannot be turned on here: the kernel derives the weights from bandwidth "
		 "data (nodeN/access1/initiators), which it has none of, and refuses (ENODEV)",
		 INTERLEAVE_AUTO);
	return -EINVAL;
}

void interleave_plan_order(struct plan *p)
{
	const struct plan_item *a = find(p, interleave_is_auto);
	size_t i, last = 0;
	struct plan_item keep;

	/* auto off may go first: the weights written after it keep it off. */
	if (!a || a->side_effect || strcmp(a->want.text, "1") != 0)
		return;
	i = (size_t)(a - p->items);
	for (size_t j = i + 1; j < p->n; j++)
		if (interleave_is_weight(&p->items[j].ref) && !p->items[j].side_effect)
			last = j;
	if (last <= i)
		return;
	keep = *a;
	memmove(p->items + i, p->items + i + 1, (last - i) * sizeof(*p->items));
	p->items[last] = keep;
}

/* auto turned on derives every weight anew: the live ones, kept for revert. */
int interleave_plan_save_weights(struct plan *p)
{
	const struct plan_item *a = find(p, interleave_is_auto);
	const struct knob *k = knob_by_name(INTERLEAVE_WEIGHTS);
	unsigned *nodes = NULL;
	struct knob_ref ref;
	struct kval live;
	int n, r = 0;

	if (!a || a->side_effect || a->action != ACT_WRITE || strcmp(a->want.text, "1") != 0 ||
	    find(p, interleave_is_weight) || !k || (n = knob_family_nodes(k, &nodes)) <= 0)
		return 0;
	for (int i = 0; r == 0 && i < n; i++) {
		knob_member(&ref, k, nodes[i]);
		if (knob_read(&ref, &live) < 0)
			continue;
		if ((r = plan_add_side_effect(p, &ref, &live, &live)) == 0) {
			/* After auto, in node order: the kernel writes it, the change reads it. */
			struct plan_item it = p->items[0];

			it.derived = true;
			memmove(p->items, p->items + 1, (p->n - 1) * sizeof(*p->items));
			p->items[p->n - 1] = it;
		}
	}
	free(nodes);
	return r;
}

int interleave_plan_side_effects(struct plan *p)
{
	struct knob_ref ref;
	struct kval live, off = { "0" };
	bool writes = false;
	char why[128];

	interleave_plan_order(p);
	for (size_t i = 0; i < p->n; i++)
		writes |= p->items[i].action == ACT_WRITE &&
			  interleave_is_weight(&p->items[i].ref) && !p->items[i].side_effect;
	if (!writes || find(p, interleave_is_auto) ||
	    knob_resolve(INTERLEAVE_AUTO, &ref, why, sizeof(why)) < 0 ||
	    knob_read(&ref, &live) < 0 || strcmp(live.text, "1") != 0)
		return 0;
	return plan_add_side_effect(p, &ref, &live, &off);
}

bool interleave_auto_can_return(void)
{
	char path[384];
	struct dirent *de;
	bool yes = false;
	DIR *d = sysfs_opendir(NODE_DIR);
	int fd;

	if (!d)
		return false;
	while (!yes && (de = readdir(d))) {
		if (strncmp(de->d_name, "node", 4) != 0 || !strchr("0123456789", de->d_name[4]) ||
		    !de->d_name[4])
			continue;
		snprintf(path, sizeof(path), NODE_DIR "/%s/access1/initiators/read_bandwidth",
			 de->d_name);
		if ((fd = sysfs_open(path, O_PATH)) >= 0) {
			close(fd);
			yes = true;
		}
	}
	closedir(d);
	return yes;
}

bool interleave_plan_auto_lost(const struct plan *p)
{
	const struct plan_item *a = find(p, interleave_is_auto);

	return a && a->action == ACT_CHANGED && strcmp(a->old.text, "1") == 0 &&
	       strcmp(a->want.text, "0") == 0 && !interleave_auto_can_return();
}

int interleave_plan_drop_auto(struct plan *p, char *why, size_t whylen)
{
	const struct plan_item *a = find(p, interleave_is_auto);
	size_t i;

	if (!a || a->action != ACT_WRITE || strcmp(a->want.text, "1") != 0 ||
	    interleave_auto_can_return())
		return 0;
	snprintf(why, whylen,
		 "%s stays false: the kernel turns it on only with bandwidth data "
		 "(nodeN/access1/initiators), which it has none of; without it auto derived "
		 "nothing, every weight was 1",
		 INTERLEAVE_AUTO);
	i = (size_t)(a - p->items);
	memmove(p->items + i, p->items + i + 1, (p->n - i - 1) * sizeof(*p->items));
	p->n--;
	return 1;
}

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;

		a = b;
		b = t;
	}
	return a;
}

void interleave_auto_weights(const uint64_t *bw, size_t n, unsigned *w)
{
	uint64_t sum = 0;
	unsigned g = 0;

	for (size_t i = 0; i < n; i++)
		sum += bw[i];
	for (size_t i = 0; i < n; i++) {
		uint64_t scaled = INTERLEAVE_WEIGHTINESS * bw[i];

		w[i] = bw[i] && sum < scaled ? (unsigned)(scaled / sum) : 1;
		g = g ? gcd(g, w[i]) : w[i];
	}
	for (size_t i = 0; g > 1 && i < n; i++)
		w[i] /= g;
}

int interleave_weights_read(struct interleave_weights *iw, char *why, size_t whylen)
{
	const struct knob *k = knob_by_name(INTERLEAVE_WEIGHTS);
	struct knob_ref ref;
	struct kval v;
	uint64_t w = 0;
	int n = knob_family_nodes(k, &iw->nodes), r = 0;

	iw->n = 0;
	iw->w = NULL;
	if (n <= 0)
		return n;
	if (!(iw->w = calloc((size_t)n, sizeof(*iw->w))))
		r = -ENOMEM;
	for (int i = 0; r == 0 && i < n; i++) {
		knob_member(&ref, k, iw->nodes[i]);
		r = knob_read(&ref, &v);
		if (r == 0 && parse_u64(v.text, 255, &w) < 0)
			r = -EBADMSG;
		if (r < 0)
			snprintf(why, whylen, "%s: %s", ref.path,
				 r == -EBADMSG ? "not a weight" : strerror(-r));
		else
			iw->w[i] = (unsigned)w;
	}
	if (r < 0) {
		interleave_weights_free(iw);
		return r;
	}
	iw->n = (size_t)n;
	return 0;
}

void interleave_weights_free(struct interleave_weights *iw)
{
	free(iw->nodes);
	free(iw->w);
	*iw = (struct interleave_weights){ 0 };
}

unsigned interleave_weight_of(const struct interleave_weights *iw, unsigned node)
{
	size_t lo = 0, hi = iw->n;

	/* nodes is sorted (knob_family_nodes()): a 1024-node status stays linear. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (iw->nodes[mid] == node)
			return iw->w[mid];
		if (iw->nodes[mid] < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

bool interleave_weights_uniform(const struct interleave_weights *iw)
{
	for (size_t i = 1; i < iw->n; i++)
		if (iw->w[i] != iw->w[0])
			return false;
	return true;
}
