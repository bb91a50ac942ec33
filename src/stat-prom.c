// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prometheus: the text exposition format with node_exporter's meminfo_numa
 * names (node_memory_numa_<Field> gauges in bytes, node_memory_numa_<key>_total
 * counters), so dashboards built on node_exporter work unchanged, plus
 * numastatctl_knob_value{knob="..."}.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stat-grid.h"
#include "stat-views.h"

/* node_exporter's names: "Active(anon)" -> "Active_anon". */
static void metric_name(const char *field, char *out, size_t len)
{
	size_t j = 0;

	for (size_t i = 0; field[i] && j + 1 < len; i++) {
		if (field[i] == ')')
			continue;
		out[j++] = field[i] == '(' ? '_' : field[i];
	}
	out[j] = '\0';
}

static void meminfo_family(FILE *f, const struct stat_node *nodes, size_t n, const char *field)
{
	char name[MEMINFO_NAME_MAX];

	metric_name(field, name, sizeof(name));
	fprintf(f, "# HELP node_memory_numa_%s Memory information field %s.\n", name, name);
	fprintf(f, "# TYPE node_memory_numa_%s gauge\n", name);
	for (size_t i = 0; i < n; i++) {
		const struct meminfo_field *mf;

		if (nodes[i].mi_err || !(mf = meminfo_find(&nodes[i].mi, field)))
			continue;
		fprintf(f, "node_memory_numa_%s{node=\"%u\"} %" PRIu64 "\n", name, nodes[i].id,
			meminfo_bytes(mf));
	}
}

static void counter_family(FILE *f, const struct stat_node *nodes, size_t n, const char *key)
{
	fprintf(f, "# HELP node_memory_numa_%s_total Memory information field %s_total.\n",
		key, key);
	fprintf(f, "# TYPE node_memory_numa_%s_total counter\n", key);
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		if (nodes[i].ns_err || !numastat_get(&nodes[i].ns, key, &v))
			continue;
		fprintf(f, "node_memory_numa_%s_total{node=\"%u\"} %" PRIu64 "\n", key,
			nodes[i].id, v);
	}
}

static void knob_family(FILE *f, const struct stat_knob *knobs, size_t nk)
{
	if (nk == 0)
		return;
	fputs("# HELP numastatctl_knob_value Value of a NUMA knob (sysctl or sysfs).\n"
	      "# TYPE numastatctl_knob_value gauge\n", f);
	for (size_t i = 0; i < nk; i++)
		fprintf(f, "numastatctl_knob_value{knob=\"%s\"} %" PRIu64 "\n", knobs[i].name,
			knobs[i].value);
}

int stat_prom_write(FILE *f, const struct stat_node *nodes, size_t n,
		    const struct stat_knob *knobs, size_t nk)
{
	const struct stat_node *mi = NULL, *ns = NULL;

	/* Families follow the first readable node's files (unknown keys too). */
	for (size_t i = 0; i < n; i++) {
		if (!mi && !nodes[i].mi_err)
			mi = &nodes[i];
		if (!ns && !nodes[i].ns_err)
			ns = &nodes[i];
	}
	for (size_t k = 0; mi && k < mi->mi.n; k++)
		meminfo_family(f, nodes, n, mi->mi.f[k].name);
	for (size_t k = 0; ns && k < ns->ns.n; k++)
		counter_family(f, nodes, n, ns->ns.c[k].name);
	knob_family(f, knobs, nk);
	if (ferror(f)) {
		snprintf(stat_why, sizeof(stat_why), "write error");
		return -EIO;
	}
	return 0;
}
