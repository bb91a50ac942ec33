// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * advise's rules about the kubelet's Topology Manager (advise.h): it reads
 * the NUMA nodes and their distances from the machine, and its policy and
 * options from its configuration file, so what it will do here is known
 * before it runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "escape.h"
#include "value.h"

/* The Topology Manager's limit without max-allowable-numa-nodes (pkg/kubelet/cm/topologymanager). */
#define KUBELET_MAX_NUMA_NODES 8

/* The policy line, and whether the rules apply: a configuration read, a policy other than none. */
static bool applies(const struct advise_facts *f, struct advice_list *out,
		    const struct advise_rule *r, int *err)
{
	struct advice *a;

	*err = 0;
	if (!f->kubelet.present)
		return false;
	if (f->kubelet.why[0]) {
		a = advice_new(out, r, ADV_NO_DATA);
		if (!a)
			*err = -ENOMEM;
		else
			advice_text(a, "the kubelet's configuration could not be read: %s",
				    f->kubelet.why);
		return false;
	}
	return strcmp(kubelet_config_policy(&f->kubelet), "none") != 0;
}

static void policy_evidence(const struct advise_facts *f, struct advice *a)
{
	advice_evidence(a, KUBELET_CONFIG ":%u: topologyManagerPolicy: %s", f->kubelet.policy_line,
			f->kubelet.policy);
}

/* What the file says of option, for the evidence. */
static void option_evidence(const struct advise_facts *f, struct advice *a, const char *name)
{
	const struct kubelet_option *o = kubelet_config_option(&f->kubelet, name);

	if (o)
		advice_evidence(a, KUBELET_CONFIG ":%u: %s: \"%s\"", o->line, o->name, o->value);
	else if (f->kubelet.options_seen)
		advice_evidence(a, KUBELET_CONFIG ":%u: topologyManagerPolicyOptions without %s",
				f->kubelet.options_line, name);
	else
		advice_evidence(a, KUBELET_CONFIG ": no topologyManagerPolicyOptions");
}

/* Printed as it is: no byte the output escapes (escape.h). */
static bool printed_as_is(const char *s)
{
	return s[escape_safe_len(s, 0)] == '\0';
}

/*
 * The options' flow mapping with name set to value (replaced where it is,
 * else added last), each value in double quotes; false when a value would
 * need escaping in YAML or in the output, when the options may not all
 * have been kept (the file has more than KUBELET_OPTIONS_MAX), or when it
 * does not fit.
 */
static bool flow_with(const struct kubelet_config *c, const char *name, const char *value,
		      char *buf, size_t len)
{
	const char *sep = "";
	bool set = false;
	size_t n;

	if (c->n_opt == KUBELET_OPTIONS_MAX)
		return false;
	n = (size_t)snprintf(buf, len, "topologyManagerPolicyOptions: {");
	for (size_t i = 0; i <= c->n_opt && n < len; i++, sep = ", ") {
		const char *k = i < c->n_opt ? c->opt[i].name : name;
		const char *v = i < c->n_opt ? c->opt[i].value : value;

		if (i < c->n_opt && strcmp(k, name) == 0)
			v = value, set = true;
		else if (i == c->n_opt && set)
			break;
		/*
		 * A name or value cut at its buffer's end would be written back
		 * cut, and one the output escapes would be printed otherwise
		 * than the file has it.
		 */
		if (strpbrk(k, "\"\\:{},") || strpbrk(v, "\"\\") || !printed_as_is(k) ||
		    !printed_as_is(v) || strlen(k) + 1 >= sizeof(c->opt[0].name) ||
		    strlen(v) + 1 >= sizeof(c->opt[0].value))
			return false;
		n += (size_t)snprintf(buf + n, len - n, "%s%s: \"%s\"", sep, k, v);
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "}");
	return n < len;
}

/*
 * What to write, and where: an option the file has is changed where it is
 * (a key twice in a mapping fails strict YAML decoding, and which of the
 * two a lenient decoder keeps is not for the advice to leave to chance),
 * one it lacks is added to the options as they are written (a flow mapping
 * is replaced whole: a block line under it would be no YAML), else the
 * options key comes with it.
 */
static void add_line(const struct advise_facts *f, char *buf, size_t len, const char *name,
		     const char *value)
{
	const struct kubelet_config *c = &f->kubelet;
	const struct kubelet_option *o = kubelet_config_option(c, name);
	char flow[KUBELET_LINE_MAX];

	if (c->options_flow && flow_with(c, name, value, flow, sizeof(flow)))
		snprintf(buf, len, "replace line %u of %s with: %s", c->options_line,
			 KUBELET_CONFIG, flow);
	else if (c->options_flow)
		snprintf(buf, len, "inside the braces on line %u of %s set: %s: \"%s\"",
			 c->options_line, KUBELET_CONFIG, name, value);
	else if (o)
		snprintf(buf, len, "on line %u of %s set: %s: \"%s\"", o->line, KUBELET_CONFIG,
			 name, value);
	else if (c->options_seen)
		snprintf(buf, len,
			 "under topologyManagerPolicyOptions (line %u) add: %s: \"%s\" to %s",
			 c->options_line, name, value, KUBELET_CONFIG);
	else
		snprintf(buf, len, "add: topologyManagerPolicyOptions: {%s: \"%s\"} to %s", name,
			 value, KUBELET_CONFIG);
}

/* The node count the kubelet accepts: max-allowable-numa-nodes where set, else 8. */
static uint64_t allowed_nodes(const struct advise_facts *f)
{
	const struct kubelet_option *o =
		kubelet_config_option(&f->kubelet, "max-allowable-numa-nodes");
	uint64_t v;

	return o && parse_u64(o->value, UINT32_MAX, &v) == 0 ? v : KUBELET_MAX_NUMA_NODES;
}

int advise_kubelet_numa_nodes(const struct advise_facts *f, const struct advise_rule *r,
			      struct advice_list *out)
{
	char line[KUBELET_LINE_MAX + 128], count[16];
	struct advice *a;
	int err;

	if (!applies(f, out, r, &err) || f->n <= allowed_nodes(f))
		return err;
	a = advice_new(out, r, ADV_ADVICE);
	if (!a)
		return -ENOMEM;
	snprintf(count, sizeof(count), "%zu", f->n);
	add_line(f, line, sizeof(line), "max-allowable-numa-nodes", count);
	advice_text(a,
		    "the kubelet refuses to start with its Topology Manager on %zu NUMA nodes "
		    "(more than %llu): %s (Kubernetes 1.31 or later)",
		    f->n, (unsigned long long)allowed_nodes(f), line);
	advice_evidence(a, "%zu NUMA nodes (" NODE_DIR ")", f->n);
	policy_evidence(f, a);
	option_evidence(f, a, "max-allowable-numa-nodes");
	return 0;
}

/* The least and greatest distance between two different nodes; false when unknown. */
static bool distance_range(const struct advise_facts *f, unsigned *lo, unsigned *hi)
{
	unsigned *row = calloc(f->n ? f->n : 1, sizeof(*row));
	bool any = false;

	*lo = UINT32_MAX;
	*hi = 0;
	for (size_t i = 0; row && f->distance_row && i < f->n; i++) {
		if (f->distance_row(f, i, row) < 0)
			continue;
		for (size_t j = 0; j < f->n; j++) {
			if (j == i)
				continue;
			any = true;
			*lo = row[j] < *lo ? row[j] : *lo;
			*hi = row[j] > *hi ? row[j] : *hi;
		}
	}
	free(row);
	return any;
}

int advise_kubelet_closest(const struct advise_facts *f, const struct advise_rule *r,
			   struct advice_list *out)
{
	const struct kubelet_option *o;
	unsigned lo, hi;
	char line[KUBELET_LINE_MAX + 128];
	struct advice *a;
	int err;

	if (!applies(f, out, r, &err) || f->n < 3 || !distance_range(f, &lo, &hi) || lo == hi)
		return err;
	o = kubelet_config_option(&f->kubelet, "prefer-closest-numa-nodes");
	if (o && strcmp(o->value, "true") == 0)
		return 0;
	a = advice_new(out, r, ADV_ADVICE);
	if (!a)
		return -ENOMEM;
	add_line(f, line, sizeof(line), "prefer-closest-numa-nodes", "true");
	advice_text(a,
		    "the Topology Manager picks among equally narrow sets of nodes without "
		    "regard to distance, though distances here range from %u to %u: %s "
		    "(Kubernetes 1.26 or later; GA in 1.32)",
		    lo, hi, line);
	advice_evidence(a, "distances between different nodes from %u to %u (nodeN/distance)", lo,
			hi);
	policy_evidence(f, a);
	option_evidence(f, a, "prefer-closest-numa-nodes");
	return 0;
}
