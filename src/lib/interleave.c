// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "interleave.h"
#include "nodes.h"
#include "sysfs.h"

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

int interleave_plan_side_effects(struct plan *p)
{
	struct knob_ref ref;
	struct kval live, off = { "0" };
	bool writes = false;
	char why[128];

	for (size_t i = 0; i < p->n; i++)
		writes |= p->items[i].action == ACT_WRITE && interleave_is_weight(&p->items[i].ref);
	if (!writes || find(p, interleave_is_auto) ||
	    knob_resolve(INTERLEAVE_AUTO, &ref, why, sizeof(why)) < 0 || knob_read(&ref, &live) < 0 ||
	    strcmp(live.text, "1") != 0)
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

int interleave_plan_revertible(const struct plan *p, char *why, size_t whylen)
{
	const struct plan_item *a = find(p, interleave_is_auto);

	if (!a || a->action != ACT_WRITE || strcmp(a->old.text, "1") != 0 ||
	    strcmp(a->want.text, "0") != 0 || interleave_auto_can_return())
		return 0;
	snprintf(why, whylen,
		 "%s true -> false%s could not be reverted: the kernel turns auto on only with "
		 "bandwidth data, and no node has access1/initiators/read_bandwidth",
		 INTERLEAVE_AUTO, a->side_effect ? " (the kernel's side effect of writing a weight)" : "");
	return -EPERM;
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
