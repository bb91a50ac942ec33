// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The placement verdict's rules: the class of each page by the intent
 * behind it, and the commands that act on remote anonymous and off-policy
 * memory without undoing a policy or a demotion (placement.h).
 */
#include <stdio.h>
#include <string.h>

#include "cg-unit.h"
#include "nodes.h"
#include "placement.h"
#include "shell-quote.h"

const char *const placement_class_names[PL_NCLASS] = {
	"local", "as_policy", "demoted", "remote_anon", "remote_file", "off_policy", "unknown",
};

/* The index of node's tier (smaller: faster), -1 when no tier lists it. */
static int tier_of(const struct memtiers *t, unsigned node)
{
	for (size_t i = 0; i < t->n; i++)
		if (placement_has(t->v[i].nodes, t->v[i].n, node))
			return (int)i;
	return -1;
}

static bool cpuset_allows(const struct placement *p, unsigned node)
{
	return !p->mems_known || placement_has(p->mems, p->n_mems, node);
}

bool placement_cpuset_away(const struct placement *p)
{
	if (!p->mems_known || !p->n_cpu_nodes)
		return false;
	for (size_t i = 0; i < p->n_mems; i++)
		if (placement_has(p->cpu_nodes, p->n_cpu_nodes, p->mems[i]))
			return false;
	return true;
}

/* Modes whose nodes are the only ones the mapping may use. */
static bool strict(const struct pl_ask *a)
{
	return a && a->n &&
	       (a->pol == PL_POL_BIND || a->pol == PL_POL_INTERLEAVE || a->pol == PL_POL_WEIGHTED);
}

/* Modes that name nodes at all. */
static bool names_nodes(const struct pl_ask *a)
{
	return a && a->n && a->pol != PL_POL_DEFAULT && a->pol != PL_POL_LOCAL;
}

/* The fastest tier of the nodes the mapping's memory belongs on: its policy's, else its CPUs'. */
static int home_tier(const struct placement *p, const struct pl_ask *a, const struct memtiers *t)
{
	const unsigned *ids = names_nodes(a) ? a->nodes : p->cpu_nodes;
	size_t n = names_nodes(a) ? a->n : p->n_cpu_nodes;
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		int k = tier_of(t, ids[i]);

		if (k >= 0 && (best < 0 || k < best))
			best = k;
	}
	return best;
}

/* Would demotion have put the mapping's page on node: a slower tier than its home? */
static bool demoted(const struct placement *p, const struct pl_ask *a, unsigned node)
{
	const struct pl_machine *m = p->machine;
	int home, here;

	if (!m || !m->tiers || !m->demotion)
		return false;
	home = home_tier(p, a, m->tiers);
	here = tier_of(m->tiers, node);
	return home >= 0 && here > home;
}

enum pl_class placement_classify(const struct placement *p, const struct pl_ask *a,
				 enum pl_kind kind, unsigned node)
{
	bool own = kind == PL_ANON || kind == PL_HUGE;
	bool allowed =
		cpuset_allows(p, node) && (!strict(a) || placement_has(a->nodes, a->n, node));
	bool local = placement_has(p->cpu_nodes, p->n_cpu_nodes, node);

	if (names_nodes(a) && placement_has(a->nodes, a->n, node) && cpuset_allows(p, node))
		return PL_C_AS_POLICY;
	if (!own)
		return local ? PL_C_LOCAL : PL_C_REMOTE_FILE;
	if (local && allowed)
		return PL_C_LOCAL;
	if (allowed && placement_cpuset_away(p))
		return PL_C_AS_POLICY;
	if (demoted(p, a, node))
		return PL_C_DEMOTED;
	if (!allowed)
		return PL_C_OFF_POLICY;
	return PL_C_REMOTE_ANON;
}

/* The first of ids the cpuset allows, one of the CPUs' nodes when it can; UINT32_MAX. */
static unsigned pick(const struct placement *p, const unsigned *ids, size_t n)
{
	unsigned any = UINT32_MAX;

	for (size_t i = 0; i < n; i++) {
		if (!cpuset_allows(p, ids[i]))
			continue;
		if (placement_has(p->cpu_nodes, p->n_cpu_nodes, ids[i]))
			return ids[i];
		if (any == UINT32_MAX)
			any = ids[i];
	}
	return any;
}

unsigned placement_off_policy_home(const struct placement *p, const struct pl_ask *a, unsigned node)
{
	unsigned to;

	(void)node;
	if (strict(a))
		return pick(p, a->nodes, a->n);
	to = pick(p, p->cpu_nodes, p->n_cpu_nodes);
	return to != UINT32_MAX || !p->mems_known ? to : pick(p, p->mems, p->n_mems);
}

/* bitmap_bitremap(): the n-th set bit of from maps to the (n mod |to|)-th of to. */
static unsigned remap(unsigned s, const unsigned *from, size_t nf, const unsigned *to, size_t nt)
{
	size_t pos = 0;

	while (pos < nf && from[pos] != s)
		pos++;
	if (pos == nf || nt == 0)
		return s;
	return to[pos % nt];
}

void placement_migrate_pairs(const unsigned *from, size_t nf, const unsigned *to, size_t nt,
			     unsigned *out)
{
	for (size_t i = 0; i < nf; i++) {
		unsigned s = from[i], d;

		out[i] = UINT32_MAX;
		/* do_migrate_pages(): a source also in to stays when the masks differ in size. */
		if (nf != nt && placement_has(to, nt, s))
			continue;
		d = remap(s, from, nf, to, nt);
		if (d != s)
			out[i] = d;
	}
}

static void add(struct pl_fixes *out, enum pl_class cls, const char *what, const char *cmd,
		const char *note)
{
	struct pl_fix *f;

	/* A command is printed whole or not at all: a cut one runs something else. */
	if (out->n == PL_FIXES_MAX || strlen(cmd) >= sizeof(f->cmd))
		return;
	f = &out->v[out->n++];
	f->cls = cls;
	snprintf(f->what, sizeof(f->what), "%s", what);
	snprintf(f->cmd, sizeof(f->cmd), "%s", cmd);
	snprintf(f->note, sizeof(f->note), "%s", note ? note : "");
}

static void list_text(const unsigned *ids, size_t n, char *buf, size_t len)
{
	if (!n)
		snprintf(buf, len, "none");
	else
		rangelist_format(ids, n, buf, len);
}

/*
 * Does a migratepages from node keep every policy and demotion?  (Unknown
 * pages are a default mapping's copies, or a policy's whose own file pages
 * make the node as_policy already.)
 */
static bool movable(const struct pl_node *nd)
{
	return !nd->cls[PL_C_AS_POLICY] && !nd->cls[PL_C_DEMOTED];
}

/* A node appended to the class's "held" list. */
static void held_add(struct pl_fixes *out, enum pl_class cls, unsigned node)
{
	char *h = out->held[cls];
	size_t used = strlen(h);

	snprintf(h + used, sizeof(out->held[cls]) - used, "%s%u", used ? "," : "", node);
}

#define MAX_SRC 64

/*
 * migratepages commands for the nodes holding class cls: one per
 * destination, the sources never in it.  dest_of(node) gives each node's
 * destination.
 */
static void moves(const struct placement *p, const struct pl_fix_ctx *c, enum pl_class cls,
		  const unsigned *dest, const char *what, struct pl_fixes *out)
{
	unsigned src[MAX_SRC], to[MAX_SRC];
	size_t n = 0;

	for (size_t i = 0; i < p->n && n < MAX_SRC; i++) {
		const struct pl_node *nd = &p->v[i];
		unsigned d = dest ? *dest : nd->off_to;

		if (!nd->cls[cls])
			continue;
		if (!movable(nd) || d == UINT32_MAX || d == nd->node ||
		    (!dest && nd->off_to_mixed)) {
			held_add(out, cls, nd->node);
			continue;
		}
		src[n] = nd->node;
		to[n++] = d;
	}
	/* One command per destination, in the order the destinations first come. */
	for (size_t i = 0; i < n; i++) {
		unsigned group[MAX_SRC], pairs[MAX_SRC];
		size_t k = 0;
		char from[256], cmd[PL_FIX_TEXT], note[PL_FIX_TEXT];
		bool first = true;
		uint64_t other = 0;

		for (size_t j = 0; j < i; j++)
			first &= to[j] != to[i];
		if (!first)
			continue;
		for (size_t j = i; j < n; j++)
			if (to[j] == to[i])
				group[k++] = src[j];
		placement_migrate_pairs(group, k, &to[i], 1, pairs);
		for (size_t j = 0; j < k; j++)
			if (pairs[j] != to[i])
				return; /* cannot happen: sources are never the destination */
		for (size_t j = 0; j < p->n; j++)
			if (placement_has(group, k, p->v[j].node))
				other += p->v[j].cls[PL_C_LOCAL] + p->v[j].cls[PL_C_REMOTE_FILE];
		list_text(group, k, from, sizeof(from));
		snprintf(cmd, sizeof(cmd), "migratepages %u %s %u", c->pid, from, to[i]);
		note[0] = '\0';
		if (other)
			snprintf(note, sizeof(note),
				 "it moves all the process's pages on node%s %s, not only these",
				 k == 1 ? "" : "s", from);
		add(out, cls, what, cmd, note);
	}
}

/* The nodes with demoted pages into the remote class's held list: how many. */
static size_t demoted_nodes(const struct placement *p, struct pl_fixes *out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].cls[PL_C_DEMOTED]) {
			held_add(out, PL_C_REMOTE_ANON, p->v[i].node);
			n++;
		}
	return n;
}

/* A fix whose command is argv, each word quoted; none when it cannot be printed whole. */
static void add_argv(struct pl_fixes *out, enum pl_class cls, const char *what,
		     const char *const argv[], const char *note)
{
	char cmd[PL_FIX_CMD];

	if (shell_quote_argv(argv, cmd, sizeof(cmd)) > 0)
		add(out, cls, what, cmd, note);
}

/* No command for remote anonymous memory, and why in one line. */
static void no_cmd(struct pl_fixes *out, const char *why)
{
	add(out, PL_C_REMOTE_ANON, "keep it local", "", why);
}

#define MOVES_NOTE "cgroup v2 moves its memory onto the new cpuset.mems"

/* echo NODES > ROOT/CGROUP/cpuset.mems, the path one quoted word. */
static void add_mems_write(struct pl_fixes *out, const struct pl_fix_ctx *c, const char *cn)
{
	const char *const echo[] = { "echo", cn, NULL };
	char cmd[PL_FIX_CMD], path[PL_FIX_CMD];
	int n, w;

	if ((size_t)snprintf(path, sizeof(path), "%s%s/cpuset.mems",
			     c->cg_root ? c->cg_root : "/sys/fs/cgroup",
			     c->cgroup) >= sizeof(path) ||
	    (n = shell_quote_argv(echo, cmd, sizeof(cmd))) < 0 || (size_t)n + 3 >= sizeof(cmd) ||
	    (w = shell_quote_word(path, cmd + n + 3, sizeof(cmd) - (size_t)n - 3)) < 0) {
		no_cmd(out, "its path is too long to print whole");
		return;
	}
	memcpy(cmd + n, " > ", 3);
	add(out, PL_C_REMOTE_ANON, "keep it local", cmd, MOVES_NOTE);
}

/*
 * Shared memory on a node the new cpuset.mems leaves out: cgroup v2 moves
 * every page the cgroup's tasks map (MPOL_MF_MOVE_ALL), other processes'
 * shared pages with them.
 */
static bool moves_shared(const struct placement *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].bytes[PL_SHMEM] &&
		    !placement_has(p->cpu_nodes, p->n_cpu_nodes, p->v[i].node))
			return true;
	return false;
}

/* The cgroup's fix: its manager's set-property, its cpuset.mems, or none and why. */
static void cgroup_fix(const struct placement *p, const struct pl_fix_ctx *c, const char *cn,
		       struct pl_fixes *out)
{
	struct cg_unit from_path;
	const struct cg_unit *u = c->unit;
	char prop[300], uid[16];

	if (!u) {
		cg_unit_of_path(c->cgroup, &from_path);
		u = &from_path;
	}
	if (moves_shared(p)) {
		no_cmd(out, "a new cpuset.mems would move shared memory other processes use");
		return;
	}
	snprintf(prop, sizeof(prop), "AllowedMemoryNodes=%s", cn);
	snprintf(uid, sizeof(uid), "%u@", u->uid);
	switch (u->kind) {
	case CG_UNIT_SYSTEM:
		add_argv(out, PL_C_REMOTE_ANON, "keep it local",
			 (const char *const[]){ "systemctl", "set-property", u->name, prop, NULL },
			 MOVES_NOTE);
		break;
	case CG_UNIT_USER:
		/* user@.service delegates cpu, memory and pids by default: cpuset is the admin's. */
		add_argv(out, PL_C_REMOTE_ANON, "keep it local",
			 (const char *const[]){ "systemctl", "--user", "-M", uid, "set-property",
						u->name, prop, NULL },
			 "its user manager sets it where user@.service delegates cpuset");
		break;
	case CG_UNIT_PLAIN:
		add_mems_write(out, c, cn);
		break;
	case CG_UNIT_NONE:
		no_cmd(out, u->why);
		break;
	}
}

void placement_fixes(const struct placement *p, const struct pl_fix_ctx *c, struct pl_fixes *out)
{
	uint64_t remote = 0, off = 0;
	char cn[256];
	unsigned to;

	*out = (struct pl_fixes){ 0 };
	for (size_t i = 0; i < p->n; i++) {
		remote += p->v[i].cls[PL_C_REMOTE_ANON];
		off += p->v[i].cls[PL_C_OFF_POLICY];
	}
	to = pick(p, p->cpu_nodes, p->n_cpu_nodes);
	list_text(p->cpu_nodes, p->n_cpu_nodes, cn, sizeof(cn));
	if (remote && !c->is_cgroup) {
		char cpu[300], mem[300];

		moves(p, c, PL_C_REMOTE_ANON, &to, "move it now", out);
		snprintf(cpu, sizeof(cpu), "--cpunodebind=%s", cn);
		snprintf(mem, sizeof(mem), "--membind=%s", cn);
		if (to != UINT32_MAX)
			add_argv(out, PL_C_REMOTE_ANON, "start it local",
				 (const char *const[]){ "numactl", cpu, mem, "COMMAND", NULL },
				 "mappings with a policy of their own keep it");
	} else if (remote && demoted_nodes(p, out)) {
		/* A narrower cpuset.mems would move the demoted pages back too: none. */
	} else if (remote && c->managed && c->podman_id && moves_shared(p)) {
		no_cmd(out, "a new cpuset.mems would move shared memory other processes use");
	} else if (remote && c->managed && c->podman_id) {
		char mems[300], id[13];

		/* Its own tool keeps the cpuset podman records; cgroup v2 then moves the pages. */
		snprintf(mems, sizeof(mems), "--cpuset-mems=%s", cn);
		snprintf(id, sizeof(id), "%.12s", c->podman_id);
		add_argv(out, PL_C_REMOTE_ANON, "keep it local",
			 (const char *const[]){ "podman", "update", mems, id, NULL }, MOVES_NOTE);
	} else if (remote && c->managed) {
		/*
		 * A container's cpuset is written by its runtime from the kubelet's
		 * assignment: a cpuset.mems or unit property set by hand fights both
		 * and is undone at the next update.  The fix is the pod's resources.
		 */
	} else if (remote)
		cgroup_fix(p, c, cn, out);
	/* NUMA balancing moves pages of mappings without a policy, the only ones remote_anon holds. */
	if (remote && c->balancing && strcmp(c->balancing, "0") == 0)
		add_argv(out, PL_C_REMOTE_ANON, "or let the kernel move it",
			 (const char *const[]){ "sysctl", "-w", "kernel.numa_balancing=1", NULL },
			 "off now");
	if (off && !c->is_cgroup)
		moves(p, c, PL_C_OFF_POLICY, NULL, "move it", out);
}
