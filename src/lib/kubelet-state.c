// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kubelet's checkpoints.  The checksum is an FNV-1a of the struct as
 * the kubelet printed it with go-spew ("%#v", keys sorted, methods off):
 * that printing is rebuilt here from the decoded JSON, for the CPU
 * Manager's v1 and v2 layouts and the Memory Manager's, where every map
 * is sorted by key and every field appears with its Go type.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "json-tree.h"
#include "kubelet-state.h"
#include "nodes.h"
#include "sysfs.h"

const char *const kubelet_sum_names[4] = { "verified", "zero", "not-verified", "mismatch" };

uint32_t kubelet_fnv32a(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t h = 0x811c9dc5u;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x01000193u;
	}
	return h;
}

/* ---- the printing ---- */

struct sb {
	char *s;
	size_t n, cap;
	bool oom;
};

static void put(struct sb *b, const char *s, size_t len)
{
	if (b->oom || array_grow(&b->s, &b->cap, b->n + len + 1, 1) < 0) {
		b->oom = true;
		return;
	}
	memcpy(b->s + b->n, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

static void puts_(struct sb *b, const char *s)
{
	put(b, s, strlen(s));
}

/* Not the shape the Go struct has: the kubelet's decoder would fail too. */
struct shape_err {
	const char *what;
};

static bool bad(struct shape_err *e, const char *what)
{
	if (!e->what)
		e->what = what;
	return false;
}

/* The object whose keys cmp_member() sorts (qsort has no context argument). */
static const struct json_node *sorting;

static int cmp_member(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sorting->keys[x], sorting->keys[y]);

	return c ? c : x < y ? -1 : x > y;
}

/*
 * The members of an object in Go map order for printing: sorted by key
 * (bytes), a repeated key once with its last value.  Returns the count in
 * idx (malloc'ed), -ENOMEM.
 */
static ssize_t map_order(const struct json_node *o, size_t **idx)
{
	size_t n = 0, *v = malloc((o->n ? o->n : 1) * sizeof(*v));

	*idx = v;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < o->n; i++)
		v[i] = i;
	sorting = o;
	qsort(v, o->n, sizeof(*v), cmp_member);
	for (size_t i = 0; i < o->n; i++)
		if (i + 1 == o->n || strcmp(o->keys[v[i]], o->keys[v[i + 1]]) != 0)
			v[n++] = v[i];
	return (ssize_t)n;
}

/* The printing of a value of one Go type, nested; false when the JSON cannot be one. */
typedef bool (*printer_fn)(struct sb *b, const struct json_node *v, struct shape_err *e);

static bool p_string(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	if (v->type == JSON_NULL)
		return true; /* null leaves a Go string empty */
	if (v->type != JSON_STRING)
		return bad(e, "a string was expected");
	put(b, v->s, v->len);
	return true;
}

/* An integer as Go's decoder takes it into int (sign) or uint64. */
static bool p_int(struct sb *b, const struct json_node *v, bool sign, struct shape_err *e)
{
	if (v->type == JSON_NULL) {
		puts_(b, "0");
		return true;
	}
	if (v->type != JSON_NUMBER || strpbrk(v->s, ".eE") || (!sign && v->s[0] == '-') ||
	    v->len > 20)
		return bad(e,
			   sign ? "an integer was expected" : "an unsigned integer was expected");
	put(b, v->s, v->len);
	return true;
}

static bool p_uint(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_int(b, v, false, e);
}

static bool p_sint(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_int(b, v, true, e);
}

/* map[string]X: "map[k:v k:v]", <nil> for null. */
static bool p_map(struct sb *b, const struct json_node *v, printer_fn val, struct shape_err *e)
{
	size_t *idx = NULL;
	ssize_t n;
	bool ok = true;

	if (v->type == JSON_NULL) {
		puts_(b, "<nil>");
		return true;
	}
	if (v->type != JSON_OBJECT)
		return bad(e, "an object was expected");
	if ((n = map_order(v, &idx)) < 0) {
		b->oom = true;
		return true;
	}
	puts_(b, "map[");
	for (ssize_t i = 0; i < n && ok; i++) {
		if (i)
			puts_(b, " ");
		puts_(b, v->keys[idx[i]]);
		puts_(b, ":");
		ok = val(b, &v->v[idx[i]], e);
	}
	puts_(b, "]");
	free(idx);
	return ok;
}

/* A slice: "[a b]", each element by elem, <nil> for null. */
static bool p_slice(struct sb *b, const struct json_node *v, printer_fn elem, struct shape_err *e)
{
	bool ok = true;

	if (v->type == JSON_NULL) {
		puts_(b, "<nil>");
		return true;
	}
	if (v->type != JSON_ARRAY)
		return bad(e, "an array was expected");
	puts_(b, "[");
	for (size_t i = 0; i < v->n && ok; i++) {
		if (i)
			puts_(b, " ");
		ok = elem(b, &v->v[i], e);
	}
	puts_(b, "]");
	return ok;
}

/* []int: "[0 1]". */
static bool p_ints(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_slice(b, v, p_sint, e);
}

/* A struct's fields, each "Name:(type)value", in the order Go declares them. */
struct field {
	const char *go, *json, *type;
	printer_fn print;
	bool made; /* a map the kubelet's constructor makes: absent prints "map[]", null <nil> */
};

static bool p_struct(struct sb *b, const struct json_node *v, const struct field *f,
		     struct shape_err *e)
{
	static const struct json_node null = { .type = JSON_NULL }, empty = { .type = JSON_OBJECT };
	bool ok = true;

	if (v->type != JSON_OBJECT)
		return bad(e, "an object was expected");
	puts_(b, "{");
	for (size_t i = 0; f[i].go && ok; i++) {
		const struct json_node *m = json_tree_get(v, f[i].json);

		if (i)
			puts_(b, " ");
		puts_(b, f[i].go);
		puts_(b, ":(");
		puts_(b, f[i].type);
		puts_(b, ")");
		ok = f[i].print(b, m ? m : f[i].made ? &empty : &null, e);
	}
	puts_(b, "}");
	return ok;
}

/* A pointer to a struct as a map value: "<*>{...}", <nil> for null. */
static bool p_ptr(struct sb *b, const struct json_node *v, const struct field *f,
		  struct shape_err *e)
{
	if (v->type == JSON_NULL) {
		puts_(b, "<nil>");
		return true;
	}
	puts_(b, "<*>");
	return p_struct(b, v, f, e);
}

static const struct field memory_table[] = {
	{ "TotalMemSize", "total", "uint64", p_uint },
	{ "SystemReserved", "systemReserved", "uint64", p_uint },
	{ "Allocatable", "allocatable", "uint64", p_uint },
	{ "Reserved", "reserved", "uint64", p_uint },
	{ "Free", "free", "uint64", p_uint },
	{ 0 },
};

static bool p_memory_table(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_ptr(b, v, memory_table, e);
}

static bool p_memory_map(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_map(b, v, p_memory_table, e);
}

static const struct field node_state[] = {
	{ "NumberOfAssignments", "numberOfAssignments", "int", p_sint },
	{ "MemoryMap", "memoryMap", "map[v1.ResourceName]*state.MemoryTable", p_memory_map },
	{ "Cells", "cells", "[]int", p_ints },
	{ 0 },
};

struct num_key {
	long long v;
	size_t i;
};

static int cmp_num_key(const void *a, const void *b)
{
	const struct num_key *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* NUMANodeMap, map[int]*NUMANodeState: keys are numbers, sorted as numbers. */
static bool p_node_map(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	struct num_key *k;
	bool ok = true;
	size_t shown = 0;

	if (v->type == JSON_NULL) {
		puts_(b, "<nil>");
		return true;
	}
	if (v->type != JSON_OBJECT)
		return bad(e, "an object was expected");
	if (!(k = malloc((v->n ? v->n : 1) * sizeof(*k)))) {
		b->oom = true;
		return true;
	}
	for (size_t i = 0; i < v->n; i++) {
		const char *s = v->keys[i];
		char *end;

		errno = 0;
		k[i] = (struct num_key){ strtoll(s, &end, 10), i };
		if (!*s || *end || errno || s[0] == '+' || s[0] == ' ') {
			free(k);
			return bad(e, "a node number was expected as a key");
		}
	}
	qsort(k, v->n, sizeof(*k), cmp_num_key);
	puts_(b, "map[");
	for (size_t i = 0; i < v->n && ok; i++) {
		if (i + 1 < v->n && k[i + 1].v == k[i].v)
			continue; /* a repeated key: its last value */
		if (shown++)
			puts_(b, " ");
		char num[24];

		snprintf(num, sizeof(num), "%lld", k[i].v);
		puts_(b, num);
		puts_(b, ":");
		ok = p_ptr(b, &v->v[k[i].i], node_state, e);
	}
	puts_(b, "]");
	free(k);
	return ok;
}

static const struct field block[] = {
	{ "NUMAAffinity", "numaAffinity", "[]int", p_ints },
	{ "Type", "type", "v1.ResourceName", p_string },
	{ "Size", "size", "uint64", p_uint },
	{ 0 },
};

static bool p_block(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_struct(b, v, block, e);
}

/* []Block: "[{...} {...}]". */
static bool p_blocks(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_slice(b, v, p_block, e);
}

static bool p_container_blocks(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_map(b, v, p_blocks, e);
}

static bool p_mem_entries(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_map(b, v, p_container_blocks, e);
}

static bool p_cpu_v1_entries(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_map(b, v, p_string, e);
}

static bool p_cpu_pod(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_map(b, v, p_string, e);
}

static bool p_cpu_v2_entries(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	return p_map(b, v, p_cpu_pod, e);
}

static bool p_zero(struct sb *b, const struct json_node *v, struct shape_err *e)
{
	(void)v;
	(void)e;
	puts_(b, "0"); /* the checksum is zeroed before it is computed */
	return true;
}

static const struct field cpu_v1[] = {
	{ "PolicyName", "policyName", "string", p_string },
	{ "DefaultCPUSet", "defaultCpuSet", "string", p_string },
	{ "Entries", "entries", "map[string]string", p_cpu_v1_entries, true },
	{ "Checksum", "checksum", "checksum.Checksum", p_zero },
	{ 0 },
};

static const struct field cpu_v2[] = {
	{ "PolicyName", "policyName", "string", p_string },
	{ "DefaultCPUSet", "defaultCpuSet", "string", p_string },
	{ "Entries", "entries", "map[string]map[string]string", p_cpu_v2_entries, true },
	{ "Checksum", "checksum", "checksum.Checksum", p_zero },
	{ 0 },
};

static const struct field mem_v1[] = {
	{ "PolicyName", "policyName", "string", p_string },
	{ "MachineState", "machineState", "state.NUMANodeMap", p_node_map, true },
	{ "Entries", "entries", "state.ContainerMemoryAssignments", p_mem_entries, true },
	{ "Checksum", "checksum", "checksum.Checksum", p_zero },
	{ 0 },
};

/* ---- the assignments ---- */

static bool has(const unsigned *v, size_t n, unsigned x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* A new entry; merge() folds those of one container together afterwards. */
static struct kubelet_assign *assign(struct kubelet_state *st, const char *pod, const char *ctr,
				     bool by_id)
{
	struct kubelet_assign *a;

	if (array_grow(&st->v, &st->cap, st->n + 1, sizeof(*st->v)) < 0)
		return NULL;
	a = &st->v[st->n];
	*a = (struct kubelet_assign){ .seq = st->n };
	if ((!by_id && !(a->pod_uid = strdup(pod))) || !(a->container = strdup(ctr))) {
		free(a->pod_uid);
		return NULL;
	}
	st->n++;
	return a;
}

static int cmp_key(const char *pod_a, const char *ctr_a, const char *pod_b, const char *ctr_b)
{
	int c = strcmp(pod_a ? pod_a : "", pod_b ? pod_b : "");

	if (!c && !pod_a != !pod_b)
		c = !pod_a ? -1 : 1; /* a v1 id apart from a pod "" */
	return c ? c : strcmp(ctr_a, ctr_b);
}

static int cmp_assign(const void *x, const void *y)
{
	const struct kubelet_assign *a = x, *b = y;
	int c = cmp_key(a->pod_uid, a->container, b->pod_uid, b->container);

	return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * Sort by pod and container, and fold the entries of one container into
 * one, a later one's CPUs or nodes over an earlier one's (Go's decoder
 * keeps the last of a repeated key; the Memory Manager's file adds to the
 * CPU Manager's).
 */
static void merge(struct kubelet_state *st)
{
	size_t n = 0;

	if (st->n > 1) /* qsort() takes no NULL, which an empty list holds */
		qsort(st->v, st->n, sizeof(*st->v), cmp_assign);
	for (size_t i = 0; i < st->n; i++) {
		struct kubelet_assign *a = &st->v[i], *into = n ? &st->v[n - 1] : NULL;

		if (!into || cmp_key(into->pod_uid, into->container, a->pod_uid, a->container)) {
			st->v[n++] = *a;
			continue;
		}
		if (a->has_cpus) {
			free(into->cpus);
			into->cpus = a->cpus;
			into->n_cpus = a->n_cpus;
			into->has_cpus = true;
		} else
			free(a->cpus);
		if (a->has_mem) {
			free(into->mem_nodes);
			into->mem_nodes = a->mem_nodes;
			into->n_mem_nodes = a->n_mem_nodes;
			into->has_mem = true;
		} else
			free(a->mem_nodes);
		free(a->pod_uid);
		free(a->container);
	}
	st->n = n;
	for (size_t i = 0; i < n; i++)
		st->v[i].seq = i;
}

/* A cpuset as the kubelet writes it ("2-3,6"); "" is none. */
static int cpu_list(const char *s, unsigned **ids)
{
	char *t;
	int r;

	*ids = NULL;
	if (!*s)
		return 0;
	if (!(t = malloc(strlen(s) + 2)))
		return -ENOMEM;
	strcpy(t, s);
	strcat(t, "\n");
	r = rangelist_parse(t, ids);
	free(t);
	return r;
}

static int cpu_entries(struct kubelet_state *st, const struct json_node *en, unsigned version,
		       char *why, size_t whylen)
{
	for (size_t i = 0; en && en->type == JSON_OBJECT && i < en->n; i++) {
		const struct json_node *pod = &en->v[i];

		for (size_t j = 0; j < (version == 2 ? pod->n : 1); j++) {
			const struct json_node *c = version == 2 ? &pod->v[j] : pod;
			const char *name = version == 2 ? pod->keys[j] : en->keys[i];
			struct kubelet_assign *a = assign(st, en->keys[i], name, version == 1);
			int r;

			if (!a)
				return -ENOMEM;
			free(a->cpus);
			r = cpu_list(c->s ? c->s : "", &a->cpus);
			if (r == -ENOMEM)
				return r;
			if (r < 0) {
				snprintf(why, whylen, "entries: '%s': not a CPU list", c->s);
				return -EBADMSG;
			}
			a->n_cpus = (size_t)r;
			a->has_cpus = true;
		}
	}
	return 0;
}

static int mem_entries(struct kubelet_state *st, const struct json_node *en, char *why,
		       size_t whylen)
{
	for (size_t i = 0; en && en->type == JSON_OBJECT && i < en->n; i++) {
		const struct json_node *pod = &en->v[i];

		for (size_t j = 0; pod->type == JSON_OBJECT && j < pod->n; j++) {
			const struct json_node *blocks = &pod->v[j];
			struct kubelet_assign *a = assign(st, en->keys[i], pod->keys[j], false);
			size_t n = 0, cap = 0;

			if (!a)
				return -ENOMEM;
			free(a->mem_nodes);
			a->mem_nodes = NULL;
			for (size_t b = 0; blocks->type == JSON_ARRAY && b < blocks->n; b++) {
				const struct json_node *aff =
					json_tree_get(&blocks->v[b], "numaAffinity");

				for (size_t k = 0; aff && aff->type == JSON_ARRAY && k < aff->n;
				     k++) {
					const char *t = aff->v[k].s ? aff->v[k].s : "";
					char *end;
					unsigned long node = strtoul(t, &end, 10);

					if (!*t || *end || t[0] == '-' || node > NODE_ID_MAX) {
						snprintf(why, whylen,
							 "entries: numaAffinity: '%s' is no node",
							 t);
						return -EBADMSG;
					}
					if (has(a->mem_nodes, n, (unsigned)node))
						continue;
					if (array_grow(&a->mem_nodes, &cap, n + 1,
						       sizeof(*a->mem_nodes)) < 0)
						return -ENOMEM;
					a->mem_nodes[n++] = (unsigned)node;
				}
			}
			if (n >
			    1) /* numaAffinity: [] leaves the list NULL, which qsort() takes not */
				qsort(a->mem_nodes, n, sizeof(*a->mem_nodes), cmp_unsigned);
			a->n_mem_nodes = n;
			a->has_mem = true;
		}
	}
	return 0;
}

/* Drop what one file's entries set, after one of them was refused. */
static void forget(struct kubelet_state *st, bool cpu)
{
	for (size_t i = 0; i < st->n; i++) {
		struct kubelet_assign *a = &st->v[i];

		if (cpu) {
			free(a->cpus);
			a->cpus = NULL;
			a->n_cpus = 0;
			a->has_cpus = false;
		} else {
			free(a->mem_nodes);
			a->mem_nodes = NULL;
			a->n_mem_nodes = 0;
			a->has_mem = false;
		}
	}
}

/* The checksum of root printed as type with fields; false when root cannot be that struct. */
static bool checksum_as(const struct json_node *root, const char *type, const struct field *f,
			uint32_t *sum, struct shape_err *e, bool *oom)
{
	struct sb b = { 0 };
	bool ok;

	puts_(&b, "(*state.");
	puts_(&b, type);
	puts_(&b, ")");
	ok = p_struct(&b, root, f, e);
	*oom |= b.oom;
	if (ok && !b.oom)
		*sum = kubelet_fnv32a(b.s, b.n);
	free(b.s);
	return ok && !b.oom;
}

/* The CPU Manager's entries: 1 (v1: container id -> CPUs), 2 (pod -> container -> CPUs), 0 either. */
static unsigned cpu_version(const struct json_node *en)
{
	unsigned v = 0;

	for (size_t i = 0; en && en->type == JSON_OBJECT && i < en->n; i++) {
		unsigned here = en->v[i].type == JSON_STRING ? 1 : 2;

		if (v && v != here)
			return 3;
		v = here;
	}
	return v;
}

static int parse_file(struct kubelet_state *st, struct kubelet_file *f, bool cpu,
		      const struct json_node *root)
{
	const struct json_node *pol = json_tree_get(root, "policyName");
	const struct json_node *ck = json_tree_get(root, "checksum");
	const struct json_node *en = json_tree_get(root, "entries");
	struct shape_err e = { 0 };
	bool oom = false, ok = false;
	unsigned version = cpu ? cpu_version(en) : 1;
	int r;

	if (pol && pol->type == JSON_STRING)
		snprintf(f->policy, sizeof(f->policy), "%s", pol->s);
	if (ck && (ck->type != JSON_NUMBER || ck->s[0] == '-' || strpbrk(ck->s, ".eE"))) {
		snprintf(f->why, sizeof(f->why), "checksum: not an unsigned integer");
		return -EBADMSG;
	}
	f->stored = ck ? strtoull(ck->s, NULL, 10) : 0;
	if (json_tree_get(root, "data")) {
		f->sum = KUBELET_SUM_UNVERIFIED;
		snprintf(f->why, sizeof(f->why),
			 "a layout with a data section, newer than the ones known here: not read");
		return 0;
	}
	if (version == 3) {
		snprintf(f->why, sizeof(f->why),
			 "entries: neither v1 (container id: CPUs) nor v2 (pod: container: CPUs)");
		return -EBADMSG;
	}
	/* An empty checkpoint is both versions: the kubelet tries v2 first. */
	if (cpu && version != 1)
		ok = checksum_as(root, "CPUManagerCheckpoint", cpu_v2, &f->computed, &e, &oom);
	if (cpu && (version == 1 || (version == 0 && ok && f->computed != f->stored))) {
		uint32_t v2sum = f->computed;

		ok = checksum_as(root, "CPUManagerCheckpoint", cpu_v1, &f->computed, &e, &oom);
		if (version == 0 && f->computed == f->stored)
			version = 1;
		else if (version == 0)
			f->computed = v2sum; /* neither: say what v2, the current one, gives */
	}
	if (!cpu)
		ok = checksum_as(root, "MemoryManagerCheckpoint", mem_v1, &f->computed, &e, &oom);
	if (oom)
		return -ENOMEM;
	if (!ok) {
		snprintf(f->why, sizeof(f->why), "not the %s Manager's format: %s",
			 cpu ? "CPU" : "Memory", e.what ? e.what : "an object was expected");
		return -EBADMSG;
	}
	f->version = cpu ? (version ? version : 2) : 1;
	if (json_tree_get(root, "podEntries")) {
		f->sum = KUBELET_SUM_UNVERIFIED;
		snprintf(f->why, sizeof(f->why),
			 "podEntries: a layout newer than the ones known here, checksum not "
			 "verified");
	} else if (!f->stored)
		f->sum = KUBELET_SUM_ZERO;
	else if (f->computed == f->stored)
		f->sum = KUBELET_SUM_OK;
	else {
		f->sum = KUBELET_SUM_BAD;
		snprintf(f->why, sizeof(f->why),
			 "checksum %llu does not match the contents (%u): the kubelet refuses "
			 "this file, so is it not used",
			 (unsigned long long)f->stored, f->computed);
		return 0;
	}
	r = cpu ? cpu_entries(st, en, f->version, f->why, sizeof(f->why))
		: mem_entries(st, en, f->why, sizeof(f->why));
	if (r == 0)
		f->used = true;
	else
		forget(st, cpu); /* nothing of a file that is not used */
	merge(st);
	return r;
}

int kubelet_state_parse(struct kubelet_state *st, bool cpu, const char *buf, size_t len)
{
	struct kubelet_file *f = cpu ? &st->cpu : &st->mem;
	struct json_node root;
	char why[256];
	int r;

	*f = (struct kubelet_file){ .present = true };
	r = json_tree_parse(buf, len, &root, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(f->why, sizeof(f->why), "not JSON: %s", why);
		return r;
	}
	if (root.type != JSON_OBJECT) {
		snprintf(f->why, sizeof(f->why), "not a JSON object");
		r = -EBADMSG;
	} else
		r = parse_file(st, f, cpu, &root);
	json_tree_free(&root);
	if (r < 0)
		f->used = false;
	return r;
}

static int read_one(struct kubelet_state *st, bool cpu)
{
	const char *path = cpu ? KUBELET_CPU_STATE : KUBELET_MEM_STATE;
	struct kubelet_file *f = cpu ? &st->cpu : &st->mem;
	char *buf = NULL;
	ssize_t n = sysfs_read_alloc(path, KUBELET_STATE_MAX, &buf);
	int r;

	*f = (struct kubelet_file){ 0 };
	if (n == -ENOENT)
		return 0;
	if (n == -ENOMEM)
		return -ENOMEM;
	f->present = true;
	if (n < 0) {
		if (n == -EFBIG)
			snprintf(f->why, sizeof(f->why),
				 "larger than %u MiB, more than a kubelet writes",
				 KUBELET_STATE_MAX >> 20);
		else
			snprintf(f->why, sizeof(f->why), "%s",
				 n == -ENXIO ? "not a regular file" : sysfs_strerror((int)-n));
		return 0;
	}
	r = kubelet_state_parse(st, cpu, buf, (size_t)n);
	free(buf);
	return r == -ENOMEM ? r : 0;
}

int kubelet_state_read(struct kubelet_state *st)
{
	int r = read_one(st, true);

	return r < 0 ? r : read_one(st, false);
}

static const struct kubelet_assign *find(const struct kubelet_state *st, const char *pod,
					 const char *ctr)
{
	size_t lo = 0, hi = st->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(pod, ctr, st->v[mid].pod_uid, st->v[mid].container);

		if (!c)
			return &st->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct kubelet_assign *kubelet_state_find(const struct kubelet_state *st, const char *pod_uid,
						const char *container, const char *container_id)
{
	const struct kubelet_assign *a = pod_uid && container ? find(st, pod_uid, container) : NULL;

	return a ? a : container_id ? find(st, NULL, container_id) : NULL;
}

void kubelet_state_free(struct kubelet_state *st)
{
	for (size_t i = 0; i < st->n; i++) {
		free(st->v[i].pod_uid);
		free(st->v[i].container);
		free(st->v[i].cpus);
		free(st->v[i].mem_nodes);
	}
	free(st->v);
	st->v = NULL;
	st->n = st->cap = 0;
}
