// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prometheus and --textfile: the text exposition format.  By default every
 * name is in our own namespace (numastatctl_*), snake_case with the unit last
 * (_bytes, _pages, _seconds, _total), so the textfile never collides with a
 * node_exporter collector and passes `promtool check metrics`.  The opt-in
 * node_exporter names reproduce its meminfo_numa families for old dashboards,
 * and collide with that collector when it is on (numastatctl(8) says so).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "prom.h"
#include "stat-views.h"

/* "Active(anon)" -> "Active_anon": node_exporter's spelling of a field. */
static void exporter_name(const char *field, char *out, size_t len)
{
	size_t j = 0;

	for (size_t i = 0; field[i] && j + 1 < len; i++) {
		if (field[i] == ')')
			continue;
		out[j++] = field[i] == '(' ? '_' : field[i];
	}
	out[j] = '\0';
}

static void put_underscore(char *out, size_t *j, size_t len)
{
	if (*j > 0 && out[*j - 1] != '_' && *j + 1 < len)
		out[(*j)++] = '_';
}

/* A field name in snake_case: "sec" spelled out can make it longer than the field. */
#define SNAKE_MAX (MEMINFO_NAME_MAX * 4)
/* A metric name: prefix, field or counter, unit. */
#define METRIC_MAX (SNAKE_MAX + 64)

static bool is_abbreviation(const char *w, size_t wl)
{
	static const char *const abbrev[] = { "s",  "ms", "us", "ns", "sec", "b", "kb",
					      "mb", "gb", "tb", "pb", "m",   "h", "d" };

	for (size_t i = 0; i < sizeof(abbrev) / sizeof(abbrev[0]); i++)
		if (strlen(abbrev[i]) == wl && strncmp(w, abbrev[i], wl) == 0)
			return true;
	return false;
}

/*
 * promtool reads these words as abbreviated units ("sec_page_tables" would be
 * seconds): "sec" is spelled out, the others are joined to a neighbour.
 */
static void unabbreviate(char *name, size_t len)
{
	char out[SNAKE_MAX] = "";
	size_t j = 0;

	for (const char *w = name; *w && j + 1 < sizeof(out);) {
		size_t wl = strcspn(w, "_");
		bool last = w[wl] != '_', abbrev = is_abbreviation(w, wl);
		bool sec = wl == 3 && strncmp(w, "sec", 3) == 0;

		if (abbrev && !sec && last && j > 0)
			j--; /* "foo_s" -> "foos" */
		j += (size_t)snprintf(out + j, sizeof(out) - j, "%.*s%s", sec ? 9 : (int)wl,
				      sec ? "secondary" : w, last || (abbrev && !sec) ? "" : "_");
		w += wl + !last;
	}
	snprintf(name, len, "%s", out);
}

/*
 * A meminfo field in snake_case: "MemTotal" -> "mem_total", "Active(anon)"
 * -> "active_anon", "KReclaimable" -> "kreclaimable" (a lone capital stays
 * with its word: "s_reclaimable" would read as seconds to promtool), and the
 * kernel's "HugePages" is one word, "hugepages", as in its sysfs directories.
 */
static void snake_name(const char *field, char *out, size_t len)
{
	size_t j = 0;

	for (size_t i = 0; field[i] && j + 1 < len; i++) {
		char c = field[i];

		if (strncmp(field + i, "HugePages", 9) == 0) {
			if (i > 0 && islower((unsigned char)field[i - 1]))
				put_underscore(out, &j, len);
			for (const char *w = "hugepages"; *w && j + 1 < len; w++)
				out[j++] = *w;
			i += 8;
		} else if (c == '(' || c == '_') {
			put_underscore(out, &j, len);
		} else if (isupper((unsigned char)c)) {
			if (i > 0 && (islower((unsigned char)field[i - 1]) ||
				      isdigit((unsigned char)field[i - 1])))
				put_underscore(out, &j, len);
			out[j++] = (char)tolower((unsigned char)c);
		} else if (islower((unsigned char)c) || isdigit((unsigned char)c)) {
			out[j++] = c;
		}
	}
	while (j > 0 && out[j - 1] == '_')
		j--;
	out[j] = '\0';
	unabbreviate(out, len);
}

/* Names already announced, so two fields that map to one name give one family. */
struct seen {
	size_t n;
	char name[MEMINFO_MAX_FIELDS + NUMASTAT_MAX_COUNTERS][METRIC_MAX];
};

static bool seen_add(struct seen *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0)
			return false;
	if (s->n == sizeof(s->name) / sizeof(s->name[0]))
		return false;
	snprintf(s->name[s->n++], sizeof(s->name[0]), "%s", name);
	return true;
}

/* Field k of the nodes' meminfo as a family: a series per node that has it. */
static void meminfo_family(FILE *f, const struct stat_prom *p, size_t k, struct seen *seen)
{
	const struct stat_nodes *t = p->nodes;
	const struct meminfo_field *first = &t->field[k];
	char base[SNAKE_MAX] = "", name[METRIC_MAX], help[256];

	if (p->node_exporter_names) {
		exporter_name(first->name, base, sizeof(base));
		snprintf(name, sizeof(name), "node_memory_numa_%s", base);
		snprintf(help, sizeof(help), "Memory information field %s.", base);
	} else {
		snake_name(first->name, base, sizeof(base));
		if (!base[0])
			return;
		/* Without " kB" the kernel gives a count: HugePages_* are huge pages. */
		snprintf(name, sizeof(name), "numastatctl_node_memory_%s_%s", base,
			 first->kb ? "bytes" : "pages");
		if (first->kb)
			snprintf(help, sizeof(help), "%s of nodeN/meminfo, in bytes.", first->name);
		else
			snprintf(help, sizeof(help),
				 "%s of nodeN/meminfo: a number of pages "
				 "(huge pages of the default size for HugePages_*), not bytes.",
				 first->name);
	}
	if (!seen_add(seen, name))
		return;
	prom_family(f, name, "gauge", help);
	for (size_t i = 0; i < t->n; i++) {
		uint64_t v;

		if (stat_nodes_field(t, i, k, &v))
			fprintf(f, "%s{node=\"%u\"} %" PRIu64 "\n", name, t->id[i],
				first->kb ? v * 1024 : v);
	}
}

/* nodeN/hugepages, every size summed: the bytes `stat -m -J` gives as HugePages_*. */
static void hugepages_families(FILE *f, const struct stat_prom *p)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} fam[] = {
		{ "numastatctl_node_hugepages_total_bytes",
		  "Huge pages of every size in this node's pools (nodeN/hugepages), in bytes.",
		  offsetof(struct hugepages, total_bytes) },
		{ "numastatctl_node_hugepages_free_bytes",
		  "Free huge pages of every size in this node's pools, in bytes.",
		  offsetof(struct hugepages, free_bytes) },
		{ "numastatctl_node_hugepages_surplus_bytes",
		  "Surplus huge pages of every size on this node, in bytes.",
		  offsetof(struct hugepages, surp_bytes) },
	};
	const struct stat_nodes *t = p->nodes;
	bool any = false;

	for (size_t i = 0; t->hp && i < t->n; i++)
		any |= !t->hp_err[i] && t->hp[i].present;
	for (size_t k = 0; any && k < sizeof(fam) / sizeof(fam[0]); k++) {
		prom_family(f, fam[k].name, "gauge", fam[k].help);
		for (size_t i = 0; i < t->n; i++) {
			uint64_t v;

			if (t->hp_err[i] || !t->hp[i].present)
				continue;
			memcpy(&v, (const char *)&t->hp[i] + fam[k].off, sizeof(v));
			fprintf(f, "%s{node=\"%u\"} %" PRIu64 "\n", fam[k].name, t->id[i], v);
		}
	}
}

/* What the kernel counts (numastat.rst; one event per allocation, whatever its order). */
static const char *counter_help(const char *key)
{
	static const struct {
		const char *key, *help;
	} h[] = {
		{ "numa_hit",
		  "Allocations on this node that were meant for it (numastat numa_hit)." },
		{ "numa_miss", "Allocations on this node that were meant for another node, "
			       "short of memory there (numastat numa_miss)." },
		{ "numa_foreign", "Allocations meant for this node that landed on another node "
				  "(numastat numa_foreign)." },
		{ "interleave_hit", "Interleave-policy allocations on this node that were meant "
				    "for it (numastat interleave_hit)." },
		{ "local_node", "Allocations on this node by a task running on this node "
				"(numastat local_node)." },
		{ "other_node", "Allocations on this node by a task running on another node "
				"(numastat other_node)." },
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++)
		if (strcmp(h[i].key, key) == 0)
			return h[i].help;
	return NULL;
}

/* Counter k of the nodes' numastat as a family: a series per node that has it. */
static void counter_family(FILE *f, const struct stat_prom *p, size_t k, struct seen *seen)
{
	const struct stat_nodes *t = p->nodes;
	const char *key = t->counter[k], *what = counter_help(key);
	char name[METRIC_MAX], help[320];

	if (p->node_exporter_names) {
		snprintf(name, sizeof(name), "node_memory_numa_%s_total", key);
		snprintf(help, sizeof(help), "Memory information field %s_total.", key);
	} else {
		snprintf(name, sizeof(name), "numastatctl_%s%s_total",
			 strncmp(key, "numa_", 5) == 0 ? "" : "numa_", key);
		snprintf(help, sizeof(help),
			 "%s%s%s The kernel counts one per allocation request, "
			 "whatever its order, not pages; zeroed when vm.numa_stat goes to 0.",
			 what ? what : "Counter ", what ? "" : key,
			 what ? "" : " of nodeN/numastat.");
	}
	if (!seen_add(seen, name))
		return;
	prom_family(f, name, "counter", help);
	for (size_t i = 0; i < t->n; i++) {
		uint64_t v;

		if (stat_nodes_counter(t, i, k, &v))
			fprintf(f, "%s{node=\"%u\"} %" PRIu64 "\n", name, t->id[i], v);
	}
}

static const struct stat_knob *find_knob(const struct stat_prom *p, const char *name)
{
	for (size_t i = 0; i < p->nk; i++)
		if (strcmp(p->knobs[i].name, name) == 0)
			return &p->knobs[i];
	return NULL;
}

static void frozen_family(FILE *f, const struct stat_prom *p)
{
	const struct stat_knob *k = find_knob(p, "vm.numa_stat");

	if (!k || !k->numeric)
		return;
	prom_family(
		f, "numastatctl_counters_frozen", "gauge",
		"1 when vm.numa_stat is 0: the kernel zeroed every NUMA counter and keeps them at 0.");
	fprintf(f, "numastatctl_counters_frozen %d\n", strcmp(k->value, "0") == 0);
}

static void knob_families(FILE *f, const struct stat_prom *p)
{
	size_t numeric = 0;

	for (size_t i = 0; i < p->nk; i++)
		numeric += p->knobs[i].numeric;
	if (numeric)
		prom_family(f, "numastatctl_knob_value", "gauge",
			    "Value of a NUMA knob (sysctl or sysfs); true/false as 1/0.");
	for (size_t i = 0; i < p->nk; i++)
		if (p->knobs[i].numeric)
			fprintf(f, "numastatctl_knob_value{knob=\"%s\"} %s\n", p->knobs[i].name,
				p->knobs[i].value);
	if (numeric == p->nk)
		return;
	prom_family(f, "numastatctl_knob_info", "gauge",
		    "Always 1: a NUMA knob whose value is a word, in the value label.");
	for (size_t i = 0; i < p->nk; i++) {
		if (p->knobs[i].numeric)
			continue;
		fprintf(f, "numastatctl_knob_info{knob=\"%s\",value=\"", p->knobs[i].name);
		prom_label_value(f, p->knobs[i].value);
		fputs("\"} 1\n", f);
	}
}

static void profile_families(FILE *f, const struct stat_profile *pr)
{
	bool any = false;

	prom_family(
		f, "numastatctl_config_errors", "gauge",
		"Problems found in numastatctl.conf; while above 0 no profile drift is exported.");
	fprintf(f, "numastatctl_config_errors %zu\n", pr->config_errors);
	if (!pr->name)
		return;
	for (size_t i = 0; i < pr->n; i++)
		any |= pr->knobs[i].differs;
	prom_family(f, "numastatctl_profile_drift", "gauge",
		    "1 when the live system differs from the configured profile "
		    "(what 'numastatctl apply --check' reports).");
	fputs("numastatctl_profile_drift{profile=\"", f);
	prom_label_value(f, pr->name);
	fprintf(f, "\"} %d\n", any);
	if (!pr->n)
		return;
	prom_family(
		f, "numastatctl_knob_drift", "gauge",
		"1 when a knob of the configured profile differs from it live, or cannot be read.");
	for (size_t i = 0; i < pr->n; i++) {
		fprintf(f, "numastatctl_knob_drift{knob=\"");
		prom_label_value(f, pr->knobs[i].name);
		fputs("\",profile=\"", f);
		prom_label_value(f, pr->name);
		fprintf(f, "\"} %d\n", pr->knobs[i].differs);
	}
}

int stat_prom_write(FILE *f, const struct stat_prom *p)
{
	struct seen seen = { 0 };

	/* Families follow the first readable node's files (unknown keys too). */
	for (size_t k = 0; k < p->nodes->n_fields; k++)
		meminfo_family(f, p, k, &seen);
	hugepages_families(f, p);
	for (size_t k = 0; k < p->nodes->n_counters; k++)
		counter_family(f, p, k, &seen);
	frozen_family(f, p);
	knob_families(f, p);
	if (p->profile)
		profile_families(f, p->profile);
	prom_family(f, "numastatctl_textfile_timestamp_seconds", "gauge",
		    "Unix time when numastatctl read these values; stale when the timer stops.");
	fprintf(f, "numastatctl_textfile_timestamp_seconds %lld\n", (long long)p->timestamp);
	return ferror(f) ? -EIO : 0;
}
