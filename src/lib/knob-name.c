// SPDX-License-Identifier: GPL-2.0-or-later
/* Turning what a user typed into a registry knob or a pass-through sysctl. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "knobs.h"
#include "value.h"

#define MAX_PARTS 4

/*
 * Split on the first separator seen ('.' or '/', as systemd-sysctl does) into
 * at most MAX_PARTS components of [A-Za-z0-9_].  Anything else (empty parts,
 * "..", a leading '/', mixed separators, spaces) is not a knob name.
 */
static int split_name(const char *in, char parts[MAX_PARTS][KNOB_NAME_MAX], size_t *nparts)
{
	char sep = 0;
	size_t n = 0, len = 0;

	for (const char *p = in;; p++) {
		if (*p == '.' || *p == '/' || *p == '\0') {
			if (*p && !sep)
				sep = *p;
			if ((*p && *p != sep) || len == 0 || n == MAX_PARTS)
				return -EINVAL;
			parts[n++][len] = '\0';
			len = 0;
			if (!*p)
				break;
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return -EINVAL;
		if (len + 1 >= KNOB_NAME_MAX || n == MAX_PARTS)
			return -EINVAL;
		parts[n][len++] = *p;
	}
	*nparts = n;
	return 0;
}

/*
 * A member of a per-node family: the family's name with its final "N" as a
 * node id, in plain decimal (no sign, no leading zero, at most 5 digits).
 */
static bool find_member(const char *dotted, struct knob_ref *out)
{
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		size_t plen = strlen(k->name) - 1;
		const char *id = dotted + plen;
		size_t n = strlen(id);
		uint64_t node;

		if (!(k->flags & KNOB_F_PER_NODE) || strncmp(dotted, k->name, plen) != 0)
			continue;
		if (n == 0 || n > 5 || (id[0] == '0' && n > 1) || strspn(id, "0123456789") != n ||
		    parse_u64(id, UINT32_MAX, &node) < 0)
			return false;
		knob_member(out, k, (unsigned)node);
		return true;
	}
	return false;
}

static const struct knob *find_exact(const char *dotted)
{
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];

		if (strcmp(k->name, dotted) == 0)
			return k;
		for (const char *const *a = k->aliases; a && *a; a++)
			if (strcmp(*a, dotted) == 0)
				return k;
	}
	return NULL;
}

/* The unique registry knob whose last name component is short. */
static const struct knob *find_short(const char *shortname, int *matches)
{
	const struct knob *found = NULL;

	*matches = 0;
	for (size_t i = 0; i < knob_count; i++) {
		const char *last = strrchr(knob_table[i].name, '.');

		if (last && strcmp(last + 1, shortname) == 0) {
			found = &knob_table[i];
			(*matches)++;
		}
	}
	return *matches == 1 ? found : NULL;
}

static bool is_passthrough(char parts[MAX_PARTS][KNOB_NAME_MAX], size_t n)
{
	if (n != 2)
		return false;
	return strcmp(parts[0], "vm") == 0 ||
	       (strcmp(parts[0], "kernel") == 0 && strncmp(parts[1], "numa_", 5) == 0);
}

int knob_resolve(const char *input, struct knob_ref *out, char *why, size_t whylen)
{
	char parts[MAX_PARTS][KNOB_NAME_MAX];
	char dotted[KNOB_NAME_MAX] = "";
	const struct knob *k;
	size_t n = 0, len = 0;
	int matches;

	if (!*input) {
		snprintf(why, whylen, "empty knob name");
		return -EINVAL;
	}
	if (strlen(input) >= sizeof(dotted)) {
		snprintf(why, whylen, "invalid knob name '%.64s...': too long", input);
		return -EINVAL;
	}
	if (split_name(input, parts, &n) < 0) {
		snprintf(why, whylen,
			 "invalid knob name '%.64s': use a sysctl name such as "
			 "vm.numa_stat or vm/numa_stat",
			 input);
		return -EINVAL;
	}
	/* Same length as the input: only the separators change. */
	for (size_t i = 0; i < n; i++) {
		if (i)
			dotted[len++] = '.';
		len += str_copy(dotted + len, parts[i], sizeof(dotted) - len);
	}
	if (find_member(dotted, out))
		return 0;
	k = find_exact(dotted);
	if (!k && n == 1) {
		k = find_short(dotted, &matches);
		if (matches > 1) {
			snprintf(why, whylen, "ambiguous knob name '%s': give the full name",
				 dotted);
			return -EINVAL;
		}
	}
	if (k) {
		knob_ref_init(out, k);
		return 0;
	}
	if (knob_is_action(dotted)) {
		snprintf(why, whylen,
			 "%s: is an action, not a setting; numastatctl does not manage it", dotted);
		return -EINVAL;
	}
	if (!is_passthrough(parts, n)) {
		snprintf(why, whylen,
			 "unknown knob '%s': only vm.*, kernel.numa_* and the knobs "
			 "listed by 'numastatctl knobs' are managed",
			 dotted);
		return -ENOENT;
	}
	out->knob = NULL;
	str_copy(out->name, dotted, sizeof(out->name));
	if ((size_t)snprintf(out->path, sizeof(out->path), "/proc/sys/%s/%s", parts[0], parts[1]) >=
	    sizeof(out->path)) {
		snprintf(why, whylen, "invalid knob name '%.64s...': too long", dotted);
		return -EINVAL;
	}
	return 0;
}
