// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat-nodes.h"

int stat_nodes_init(struct stat_nodes *t, const unsigned *ids, size_t n)
{
	size_t m = n ? n : 1;

	memset(t, 0, sizeof(*t));
	t->id = malloc(m * sizeof(*t->id));
	t->ns_err = malloc(m * sizeof(*t->ns_err));
	t->mi_err = malloc(m * sizeof(*t->mi_err));
	t->hp_err = calloc(m, sizeof(*t->hp_err));
	if (!t->id || !t->ns_err || !t->mi_err || !t->hp_err)
		return -ENOMEM;
	t->n = n;
	for (size_t i = 0; i < n; i++) {
		t->id[i] = ids[i];
		t->ns_err[i] = t->mi_err[i] = -ENODATA;
	}
	return 0;
}

/* The names of the first node given, and room for every node's values. */
static int schema(size_t n, size_t k, size_t name_size, void **names, uint64_t **v, bool **have)
{
	size_t cells = n * k > 0 ? n * k : 1;

	*names = calloc(k ? k : 1, name_size);
	*v = calloc(cells, sizeof(**v));
	*have = calloc(cells, sizeof(**have));
	return *names && *v && *have ? 0 : -ENOMEM;
}

int stat_nodes_want_hugepages(struct stat_nodes *t)
{
	t->hp = calloc(t->n ? t->n : 1, sizeof(*t->hp));
	return t->hp ? 0 : -ENOMEM;
}

int stat_nodes_set_numastat(struct stat_nodes *t, size_t i, const struct numastat *s)
{
	if (!t->counter) {
		if (schema(t->n, s->n, sizeof(*t->counter), (void **)&t->counter, &t->cv,
			   &t->chave) < 0)
			return -ENOMEM;
		t->n_counters = s->n;
		for (size_t k = 0; k < s->n; k++)
			memcpy(t->counter[k], s->c[k].name, sizeof(t->counter[k]));
	}
	for (size_t k = 0; k < t->n_counters; k++) {
		/* The nodes of one kernel list the same counters in the same order. */
		size_t j = k < s->n && strcmp(s->c[k].name, t->counter[k]) == 0 ? k : s->n;

		for (size_t x = 0; j == s->n && x < s->n; x++)
			if (strcmp(s->c[x].name, t->counter[k]) == 0)
				j = x;
		t->chave[i * t->n_counters + k] = j < s->n;
		t->cv[i * t->n_counters + k] = j < s->n ? s->c[j].value : 0;
	}
	return 0;
}

int stat_nodes_set_meminfo(struct stat_nodes *t, size_t i, const struct meminfo *m)
{
	if (!t->field) {
		if (schema(t->n, m->n, sizeof(*t->field), (void **)&t->field, &t->fv, &t->fhave) <
		    0)
			return -ENOMEM;
		t->n_fields = m->n;
		memcpy(t->field, m->f, m->n * sizeof(*t->field));
	}
	for (size_t k = 0; k < t->n_fields; k++) {
		size_t j = k < m->n && strcmp(m->f[k].name, t->field[k].name) == 0 ? k : m->n;

		for (size_t x = 0; j == m->n && x < m->n; x++)
			if (strcmp(m->f[x].name, t->field[k].name) == 0)
				j = x;
		t->fhave[i * t->n_fields + k] = j < m->n;
		t->fv[i * t->n_fields + k] = j < m->n ? m->f[j].value : 0;
	}
	return 0;
}

bool stat_nodes_counter(const struct stat_nodes *t, size_t i, size_t k, uint64_t *v)
{
	if (t->ns_err[i] || k >= t->n_counters || !t->chave[i * t->n_counters + k])
		return false;
	*v = t->cv[i * t->n_counters + k];
	return true;
}

bool stat_nodes_field(const struct stat_nodes *t, size_t i, size_t k, uint64_t *v)
{
	if (t->mi_err[i] || k >= t->n_fields || !t->fhave[i * t->n_fields + k])
		return false;
	*v = t->fv[i * t->n_fields + k];
	return true;
}

int stat_nodes_counter_index(const struct stat_nodes *t, const char *name)
{
	for (size_t k = 0; k < t->n_counters; k++)
		if (strcmp(t->counter[k], name) == 0)
			return (int)k;
	return -1;
}

int stat_nodes_field_index(const struct stat_nodes *t, const char *name)
{
	for (size_t k = 0; k < t->n_fields; k++)
		if (strcmp(t->field[k].name, name) == 0)
			return (int)k;
	return -1;
}

void stat_nodes_free(struct stat_nodes *t)
{
	free(t->id);
	free(t->ns_err);
	free(t->mi_err);
	free(t->hp_err);
	free(t->hp);
	free(t->counter);
	free(t->cv);
	free(t->chave);
	free(t->field);
	free(t->fv);
	free(t->fhave);
	memset(t, 0, sizeof(*t));
}
