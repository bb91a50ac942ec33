// SPDX-License-Identifier: GPL-2.0-or-later
/* placement's containers and pods (placement-containers.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "nodes.h"
#include "out.h"
#include "placement-containers.h"
#include "prom.h"
#include "value.h"
#include "why.h"
#include "wrap.h"

/* The checkpoint states beyond the checksum's: the file absent or unreadable. */
static const char *file_state(const struct kubelet_file *f)
{
	if (!f->present)
		return "absent";
	if (!f->used && f->sum != KUBELET_SUM_BAD && f->sum != KUBELET_SUM_UNVERIFIED)
		return "unreadable";
	return kubelet_sum_names[f->sum];
}

static void say_file(const char *path, const struct kubelet_file *f)
{
	char shown[WHY_MAX * 4];

	if (f->present && !f->used)
		log_warn("%s: %s", path, escape_text(f->why, shown, sizeof(shown), 0));
	else if (f->present && f->sum == KUBELET_SUM_UNVERIFIED)
		log_warn("%s: %s", path, escape_text(f->why, shown, sizeof(shown), 0));
}

int placement_containers_resolve(struct pc_ctx *x, const char *root, const char *const *ctrs,
				 size_t n_ctrs, const char *const *pods, size_t n_pods,
				 bool kubelet)
{
	char why[WHY_MAX], shown[1024];
	int rc = EXIT_OK, r = container_find_scan(root, &x->l, why, sizeof(why));

	if (r < 0) {
		log_err("containers: %s", why);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < x->l.n; i++)
		if (x->l.v[i].pod_clash)
			log_warn(
				"pod uid %s: more than one directory in /var/log/pods names it, so "
				"neither names its container %.12s (the kubelet makes one)",
				x->l.v[i].pod_uid, x->l.v[i].id);
	for (size_t i = 0; i < n_ctrs + n_pods; i++) {
		bool pod = i >= n_ctrs;
		const char *arg = pod ? pods[i - n_ctrs] : ctrs[i];

		escape_text(arg, shown, sizeof(shown), 0);
		if (!*arg) {
			log_usage_err("--%s '': expected %s", pod ? "pod" : "container",
				      pod ? "NAMESPACE/NAME" : "a name, an id or a pattern");
			return EXIT_USAGE;
		}
		r = container_find_pick(&x->l, arg, pod, why, sizeof(why));
		if (r == -EINVAL) {
			log_usage_err("--pod '%s': %s", shown, why);
			return EXIT_USAGE;
		}
		if (r == 0)
			log_err("--%s '%s': no %s matches", pod ? "pod" : "container", shown,
				pod ? "pod" : "container");
		else if (r < 0)
			log_err("--%s '%s': %s", pod ? "pod" : "container", shown, why);
		if (r <= 0)
			rc = EXIT_FAIL;
	}
	x->picked = calloc(x->l.n ? x->l.n : 1, sizeof(*x->picked));
	if (!x->picked || (kubelet && kubelet_state_read(&x->ks) < 0)) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < x->l.n; i++)
		if (x->l.v[i].picked)
			x->picked[x->n_picked++] = &x->l.v[i];
	if (kubelet) {
		say_file(KUBELET_CPU_STATE, &x->ks.cpu);
		say_file(KUBELET_MEM_STATE, &x->ks.mem);
	}
	return rc;
}

int placement_containers_cgroups(const char *root, const char *const *ctrs, size_t n_ctrs,
				 const char *const *pods, size_t n_pods, struct cg_list *l)
{
	struct pc_ctx x = { 0 };
	int rc = placement_containers_resolve(&x, root, ctrs, n_ctrs, pods, n_pods, false);

	/* cg_list_add(): a container --cgroup also names, or two arguments, is one cgroup. */
	for (size_t i = 0; rc != EXIT_USAGE && i < x.n_picked; i++)
		if (cg_list_add(l, x.picked[i]->cgroup, x.picked[i]->by_pattern) < 0) {
			log_err("out of memory");
			rc = EXIT_FAIL;
			break;
		}
	placement_containers_free(&x);
	return rc;
}

int placement_containers_intent(const struct pc_ctx *x, const struct container *c,
				const unsigned *cpu_node, size_t n_map, const struct placement *p,
				struct pc_target *t)
{
	const struct kubelet_assign *a;

	*t = (struct pc_target){ .c = c };
	a = kubelet_state_find(&x->ks, c->pod_uid[0] ? c->pod_uid : NULL, c->name, c->id);
	t->a = a;
	if (a && a->has_mem && a->n_mem_nodes) {
		t->by = "memory-manager";
		if (!(t->nodes = calloc(a->n_mem_nodes, sizeof(*t->nodes))))
			return -ENOMEM;
		memcpy(t->nodes, a->mem_nodes, a->n_mem_nodes * sizeof(*t->nodes));
		t->n_nodes = a->n_mem_nodes;
	} else if (a && a->has_cpus && a->n_cpus) {
		t->by = "cpu-manager";
		if (placement_nodes_of_cpus(a->cpus, a->n_cpus, cpu_node, n_map, &t->nodes,
					    &t->n_nodes) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; t->by && i < p->n; i++) {
		const struct pl_node *nd = &p->v[i];

		if (rangelist_has(t->nodes, t->n_nodes, nd->node))
			continue;
		t->off_anon += nd->bytes[PL_ANON] + nd->bytes[PL_HUGE];
		t->off_file += nd->bytes[PL_FILE] + nd->bytes[PL_SHMEM];
		for (int k = 0; k < PL_NCLASS; k++)
			if (placement_acts(p, (enum pl_class)k))
				t->off_actionable += nd->cls[k];
	}
	return 0;
}

static void shown_list(const unsigned *ids, size_t n, char *buf, size_t len)
{
	if (!n)
		snprintf(buf, len, "none");
	else
		rangelist_format(ids, n, buf, len);
}

void placement_containers_title(const struct pc_target *t, FILE *f)
{
	const struct container *c = t->c;
	char a[1024], b[1024], d[1024];
	char id[13];

	snprintf(id, sizeof(id), "%.12s", c->id);
	if (c->pod && c->ns)
		fprintf(f, "container %s/%s/%s", escape_text(c->ns, a, sizeof(a), 0),
			escape_text(c->pod, b, sizeof(b), 0),
			c->name ? escape_text(c->name, d, sizeof(d), 0) : "?");
	else if (c->name)
		fprintf(f, "container %s", escape_text(c->name, a, sizeof(a), 0));
	else
		fprintf(f, "container %s", id);
	fprintf(f, " (%s%sid %s)\n", c->runtime, *c->runtime ? ", " : "", id);
}

void placement_containers_lines(const struct pc_ctx *x, const struct pc_target *t)
{
	const struct container *c = t->c;
	char cpus[512], nodes[256], size[16], file[16], line[200], act[48] = "", act_size[16];

	if (c->pod_uid[0])
		printf("  pod uid %s, QoS %s\n", c->pod_uid, c->qos ? c->qos : "unknown");
	if (!c->pod_uid[0])
		return;
	if (!x->ks.cpu.used && !x->ks.mem.used) {
		printf("  kubelet: no assignment known (%s %s, %s %s)\n", KUBELET_CPU_STATE,
		       file_state(&x->ks.cpu), KUBELET_MEM_STATE, file_state(&x->ks.mem));
		return;
	}
	if (!t->by) {
		printf("  kubelet: no exclusive assignment (the shared CPU pool, no Memory "
		       "Manager nodes)\n");
		return;
	}
	if (t->a->has_cpus && t->a->n_cpus) {
		shown_list(t->a->cpus, t->a->n_cpus, cpus, sizeof(cpus));
		printf("  kubelet: exclusive CPUs %s\n", cpus);
	}
	shown_list(t->nodes, t->n_nodes, nodes, sizeof(nodes));
	printf("  assigned node%s: %s (%s)\n", t->n_nodes == 1 ? "" : "s", nodes,
	       strcmp(t->by, "memory-manager") == 0 ? "Memory Manager" : "nodes of its CPUs");
	fmt_human(t->off_anon, FMT_SIZE, size, sizeof(size));
	fmt_human(t->off_file, FMT_SIZE, file, sizeof(file));
	/* Only what the verdict's actionable classes hold there: --check counts the same. */
	if (t->off_actionable == t->off_anon && t->off_anon)
		snprintf(act, sizeof(act), " (actionable)");
	else if (t->off_actionable) {
		fmt_human(t->off_actionable, FMT_SIZE, act_size, sizeof(act_size));
		snprintf(act, sizeof(act), " (%s actionable)", act_size);
	}
	snprintf(line, sizeof(line), "off the assigned nodes: anonymous %s%s, file and shared %s%s",
		 size, act, file, t->off_file ? " (expected)" : "");
	/* On a terminal, folded at its width under the line's text. */
	fputs("  ", stdout);
	wrap_fputs(stdout, line, 2, 4, wrap_width(STDOUT_FILENO));
	putchar('\n');
}

const char *const placement_containers_cols[PC_COLS] = {
	"namespace",
	"pod",
	"container",
	"container_id",
	"runtime",
	"qos",
	"assignment",
	"assigned_cpus",
	"assigned_nodes",
	"off_assigned_anon",
	"off_assigned_file",
	"cpu_manager_state",
	"memory_manager_state",
};

const unsigned placement_containers_col_flags[PC_COLS] = {
	0, 0, 0, 0, 0, 0, 0, OUT_COL_NUMBERS, OUT_COL_NUMBERS, OUT_COL_NUMBER, OUT_COL_NUMBER, 0, 0,
};

static void numbers(struct out_row *row, size_t col, const unsigned *ids, size_t n)
{
	char *s = malloc(n * 12 + 1);
	size_t used = 0;

	if (!s)
		return;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(s + used, n * 12 + 1 - used, "%s%u", i ? "\n" : "",
					 ids[i]);
	out_row_set(row, col, s);
	free(s);
}

void placement_containers_row(const struct pc_ctx *x, const struct pc_target *t,
			      struct out_row *row, size_t first)
{
	const struct container *c = t->c;

	if (c->ns)
		out_row_set(row, first, c->ns);
	if (c->pod)
		out_row_set(row, first + 1, c->pod);
	if (c->name)
		out_row_set(row, first + 2, c->name);
	out_row_set(row, first + 3, c->id);
	if (*c->runtime)
		out_row_set(row, first + 4, c->runtime);
	if (c->qos)
		out_row_set(row, first + 5, c->qos);
	if (c->pod_uid[0])
		out_row_set(row, first + 6,
			    !x->ks.cpu.used && !x->ks.mem.used ? "unknown"
			    : t->by                            ? t->by
							       : "none");
	if (t->a && t->a->has_cpus)
		numbers(row, first + 7, t->a->cpus, t->a->n_cpus);
	numbers(row, first + 8, t->nodes, t->n_nodes);
	if (t->by) {
		out_row_setf(row, first + 9, "%" PRIu64, t->off_anon);
		out_row_setf(row, first + 10, "%" PRIu64, t->off_file);
	}
	if (c->pod_uid[0]) {
		out_row_set(row, first + 11, file_state(&x->ks.cpu));
		out_row_set(row, first + 12, file_state(&x->ks.mem));
	}
}

static void label(FILE *f, const char *name, const char *v)
{
	fprintf(f, ",%s=\"", name);
	prom_label_value(f, v ? v : "");
	fputc('"', f);
}

void placement_containers_labels(FILE *f, const struct pc_target *t)
{
	label(f, "namespace", t->c->ns);
	label(f, "pod", t->c->pod);
	label(f, "container", t->c->name ? t->c->name : t->c->id);
}

void placement_containers_prom_family(FILE *f)
{
	prom_family(f, "numastatctl_placement_assigned_off_bytes", "gauge",
		    "Memory of a container off the NUMA nodes the kubelet assigned it (the "
		    "Memory Manager's, else the nodes of its exclusive CPUs), by class: anon "
		    "(its own, actionable) and file (page cache and shared, expected).");
}

void placement_containers_prom(FILE *f, const struct pc_target *t, const char *cgroup)
{
	static const char *const classes[] = { "anon", "file" };
	const uint64_t v[] = { t->off_anon, t->off_file };

	for (size_t i = 0; t->by && i < 2; i++) {
		fputs("numastatctl_placement_assigned_off_bytes{cgroup=\"", f);
		prom_label_value(f, cgroup);
		fputc('"', f);
		placement_containers_labels(f, t);
		fprintf(f, ",class=\"%s\"} %" PRIu64 "\n", classes[i], v[i]);
	}
}

void placement_containers_prom_checkpoints(FILE *f, const struct pc_ctx *x)
{
	prom_family(f, "numastatctl_placement_kubelet_checkpoint", "gauge",
		    "The state of the kubelet's checkpoint files: 1 for the state each is in "
		    "(verified, zero, not-verified, mismatch, unreadable, absent).");
	fprintf(f,
		"numastatctl_placement_kubelet_checkpoint{file=\"cpu_manager_state\",state=\"%s\"} 1\n",
		file_state(&x->ks.cpu));
	fprintf(f,
		"numastatctl_placement_kubelet_checkpoint{file=\"memory_manager_state\",state=\"%s\"} 1\n",
		file_state(&x->ks.mem));
}

void placement_containers_target_free(struct pc_target *t)
{
	if (t)
		free(t->nodes);
	free(t);
}

void placement_containers_free(struct pc_ctx *x)
{
	container_find_free(&x->l);
	kubelet_state_free(&x->ks);
	free(x->picked);
}
