// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The placement verdict's rules: the class of each page by the intent
 * behind it, and the commands that act on remote anonymous and off-policy
 * memory without undoing a policy or a demotion (placement.h).
 */
#include <stdio.h>
#include <string.h>

#include "cg-unit.h"
#include "node-class.h"
#include "nodes.h"
#include "placement.h"
#include "shell-quote.h"

const char *const placement_class_names[PL_NCLASS] = {
	"local",       "as_policy",   "demoted",    "remote_anon",
	"remote_near", "remote_file", "off_policy", "unknown",
};

/* The index of node's tier (smaller: faster), -1 when no tier lists it. */
static int tier_of(const struct memtiers *t, unsigned node)
{
	for (size_t i = 0; i < t->n; i++)
		if (rangelist_has(t->v[i].nodes, t->v[i].n, node))
			return (int)i;
	return -1;
}

static bool cpuset_allows(const struct placement *p, unsigned node)
{
	return !p->mems_known || rangelist_has(p->mems, p->n_mems, node);
}

bool placement_cpuset_away(const struct placement *p)
{
	if (!p->mems_known || !p->n_local)
		return false;
	for (size_t i = 0; i < p->n_mems; i++)
		if (rangelist_has(p->local, p->n_local, p->mems[i]))
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

/* The fastest tier of the nodes the mapping's memory belongs on: its policy's, else its local ones. */
static int home_tier(const struct placement *p, const struct pl_ask *a, const struct memtiers *t)
{
	const unsigned *ids = names_nodes(a) ? a->nodes : p->local;
	size_t n = names_nodes(a) ? a->n : p->n_local;
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		int k = tier_of(t, ids[i]);

		if (k >= 0 && (best < 0 || k < best))
			best = k;
	}
	return best;
}

/*
 * Did demotion put the mapping's page on node: a slower tier than its home,
 * where the counters show demotions (into node, when they say where)?
 */
static bool demoted(const struct placement *p, const struct pl_ask *a, unsigned node)
{
	const struct pl_machine *m = p->machine;
	int home, here;

	if (!m || !m->tiers || !m->demotion)
		return false;
	if (m->demoted_to && !rangelist_has(m->demoted_to, m->n_demoted_to, node))
		return false;
	home = home_tier(p, a, m->tiers);
	here = tier_of(m->tiers, node);
	return home >= 0 && here > home;
}

enum node_class placement_node_class(const struct placement *p, unsigned node)
{
	const struct node_classes *nc = p->machine ? p->machine->classes : NULL;
	enum node_class k = NODE_CLASS_UNKNOWN;

	if (rangelist_has(p->local, p->n_local, node))
		return NODE_CLASS_LOCAL;
	/* The nearest class over the local nodes: near to one of them is near. */
	for (size_t i = 0; nc && i < p->n_local; i++) {
		enum node_class c = node_class_of(nc, p->local[i], node);
		const struct memtiers *t = p->machine->tiers;

		/*
		 * A node of another memory tier (CXL memory in a slower tier) is
		 * not near whatever its package: what lands there is tiering's
		 * business, and default-policy pages there are worth acting on.
		 */
		if (c == NODE_CLASS_NEAR && t && tier_of(t, node) != tier_of(t, p->local[i]))
			c = NODE_CLASS_UNKNOWN;

		if (c == NODE_CLASS_NEAR)
			return c;
		if (c == NODE_CLASS_FAR && (i == 0 || k == NODE_CLASS_FAR))
			k = c;
		else
			k = NODE_CLASS_UNKNOWN;
	}
	return k;
}

static bool near(const struct placement *p, unsigned node)
{
	return placement_node_class(p, node) == NODE_CLASS_NEAR;
}

enum pl_class placement_classify(const struct placement *p, const struct pl_ask *a,
				 enum pl_kind kind, unsigned node)
{
	bool own = (kind == PL_ANON || kind == PL_HUGE) && !(a && a->shared);
	bool allowed =
		cpuset_allows(p, node) && (!strict(a) || rangelist_has(a->nodes, a->n, node));
	bool local = rangelist_has(p->local, p->n_local, node);

	if (names_nodes(a) && rangelist_has(a->nodes, a->n, node) && cpuset_allows(p, node))
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
	return near(p, node) ? PL_C_REMOTE_NEAR : PL_C_REMOTE_ANON;
}

static unsigned distance(const struct placement *p, unsigned a, unsigned b)
{
	const struct pl_machine *m = p->machine;

	return m && m->distance ? m->distance(m->distance_ctx, a, b) : UINT32_MAX;
}

/*
 * Of ids, the one the cpuset allows that is nearest to node from: a local
 * one before any other, then the smallest distance, then the lowest id;
 * UINT32_MAX when the cpuset allows none.
 */
static unsigned pick(const struct placement *p, const unsigned *ids, size_t n, unsigned from)
{
	unsigned best = UINT32_MAX, best_d = UINT32_MAX;
	bool best_local = false;

	for (size_t i = 0; i < n; i++) {
		bool local = rangelist_has(p->local, p->n_local, ids[i]);
		unsigned d = distance(p, from, ids[i]);

		if (!cpuset_allows(p, ids[i]) || ids[i] == from)
			continue;
		if (best != UINT32_MAX &&
		    (best_local > local || (best_local == local && d >= best_d)))
			continue;
		best = ids[i];
		best_d = d;
		best_local = local;
	}
	return best;
}

unsigned placement_remote_home(const struct placement *p, unsigned node)
{
	return pick(p, p->local, p->n_local, node);
}

unsigned placement_off_policy_home(const struct placement *p, const struct pl_ask *a, unsigned node)
{
	unsigned to;

	if (strict(a))
		return pick(p, a->nodes, a->n, node);
	to = pick(p, p->local, p->n_local, node);
	return to != UINT32_MAX || !p->mems_known ? to : pick(p, p->mems, p->n_mems, node);
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
		if (nf != nt && rangelist_has(to, nt, s))
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

#define MAX_SRC 64

/* A fix whose command is argv, each word quoted; none when it cannot be printed whole. */
static void add_argv(struct pl_fixes *out, enum pl_class cls, const char *what,
		     const char *const argv[], const char *note)
{
	char cmd[PL_FIX_CMD];

	if (shell_quote_argv(argv, cmd, sizeof(cmd)) > 0)
		add(out, cls, what, cmd, note);
}

/* A node appended to the class's "held" list. */
static void held_add(struct pl_fixes *out, enum pl_class cls, unsigned node)
{
	char *h = out->held[cls];
	size_t used = strlen(h);

	snprintf(h + used, sizeof(out->held[cls]) - used, "%s%u", used ? "," : "", node);
}

/* The class the plan's commands are shown under: remote anonymous when it moves any. */
static enum pl_class moves_class(const struct placement *p)
{
	for (size_t i = 0; i < p->n_moves; i++)
		if (p->moves[i].cls == PL_C_REMOTE_ANON || p->moves[i].cls == PL_C_REMOTE_NEAR)
			return PL_C_REMOTE_ANON;
	return PL_C_OFF_POLICY;
}

/* The plan's bytes of class cls (any class: PL_NCLASS) from node, and where they go. */
static uint64_t planned(const struct placement *p, enum pl_class cls, unsigned node, unsigned *to,
			bool *mixed)
{
	uint64_t b = 0;

	*to = UINT32_MAX;
	*mixed = false;
	for (size_t i = 0; i < p->n_moves; i++) {
		const struct pl_move *mv = &p->moves[i];

		if (mv->from != node || (cls != PL_NCLASS && mv->cls != cls))
			continue;
		b += mv->pages * mv->page;
		*mixed |= *to != UINT32_MAX && *to != mv->to;
		*to = mv->to;
	}
	return b;
}

/* Nodes with pages of an actionable class the plan cannot move: said, never hidden. */
static void held_nodes(const struct placement *p, struct pl_fixes *out)
{
	for (size_t i = 0; i < p->n; i++)
		for (int c = 0; c < PL_NCLASS; c++) {
			unsigned to;
			bool mixed;

			if (placement_acts(p, (enum pl_class)c) && p->v[i].cls[c] &&
			    planned(p, (enum pl_class)c, p->v[i].node, &to, &mixed) <
				    p->v[i].cls[c])
				held_add(out, (enum pl_class)c, p->v[i].node);
		}
}

static uint64_t node_total(const struct pl_node *nd)
{
	uint64_t t = 0;

	for (int k = 0; k < PL_NKIND; k++)
		t += nd->bytes[k];
	return t;
}

/*
 * migratepages(8) moves every page of the process on its source nodes,
 * shared ones too when run as root: it is exact only for a source node
 * whose every page the plan moves, and to one destination.  One command
 * per destination of such nodes; the others are left to numastatctl's own
 * move.
 */
static void migratepages(const struct placement *p, const struct pl_fix_ctx *c,
			 struct pl_fixes *out)
{
	unsigned src[MAX_SRC], to[MAX_SRC];
	size_t n = 0;

	for (size_t i = 0; i < p->n && n < MAX_SRC; i++) {
		unsigned d;
		bool mixed;
		uint64_t b = planned(p, PL_NCLASS, p->v[i].node, &d, &mixed);

		if (!b || mixed || b != node_total(&p->v[i]))
			continue;
		src[n] = p->v[i].node;
		to[n++] = d;
	}
	/*
	 * A source that any move of the plan fills: run after that move (its
	 * own command, or numastatctl's), migratepages would take those pages
	 * back (migratepages P 0 1, then P 1 0).  None then; numastatctl's move
	 * is per page.
	 */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < p->n_moves; k++)
			if (p->moves[k].to == src[i])
				return;
	for (size_t i = 0; i < n; i++) {
		unsigned group[MAX_SRC], pairs[MAX_SRC];
		size_t k = 0;
		char pid[16], from[256], dest[16];
		bool first = true;

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
		snprintf(pid, sizeof(pid), "%u", c->pid);
		rangelist_text(group, k, from, sizeof(from));
		snprintf(dest, sizeof(dest), "%u", to[i]);
		add_argv(out, moves_class(p), "or",
			 (const char *const[]){ "migratepages", pid, from, dest, NULL },
			 "every page it has there is in the plan");
	}
}

/* numastatctl's own move of exactly the plan: the target as the command line named it. */
static void own_move(const struct placement *p, const struct pl_fix_ctx *c, struct pl_fixes *out)
{
	char pid[16];
	const char *opt = c->select_opt, *arg = c->select_arg;

	if (!p->n_moves || (c->is_cgroup && !opt))
		return;
	if (!opt) {
		snprintf(pid, sizeof(pid), "%u", c->pid);
		opt = "--pid";
		arg = pid;
	}
	add_argv(out, moves_class(p), "move it now",
		 (const char *const[]){ "numastatctl", "placement", opt, arg, "--move", NULL },
		 "its private pages only; --dry-run shows the moves");
}

/*
 * A cgroup's cpuset.mems narrowed to its local nodes moves the pages its
 * tasks map on the others (cpuset_migrate_mm(), MPOL_MF_MOVE_ALL): only
 * where that undoes no policy or demotion and moves no shared memory
 * (System V, tmpfs, memfd: other processes' as well).  Page cache is moved
 * too, as every cpuset change has always moved it; it is not held against
 * the command.
 */
static bool cpuset_exact(const struct placement *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct pl_node *nd = &p->v[i];

		if (rangelist_has(p->local, p->n_local, nd->node))
			continue;
		if (nd->bytes[PL_SHMEM] || nd->cls[PL_C_AS_POLICY] || nd->cls[PL_C_DEMOTED])
			return false;
	}
	return true;
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

/* The cgroup's fix: its manager's set-property, its cpuset.mems, or none and why. */
static void cgroup_fix(const struct pl_fix_ctx *c, const char *cn, struct pl_fixes *out)
{
	struct cg_unit from_path;
	const struct cg_unit *u = c->unit;
	char prop[300], uid[16];

	if (!u) {
		cg_unit_of_path(c->cgroup, &from_path);
		u = &from_path;
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
	uint64_t remote = 0;
	char cn[256], ln[256];

	*out = (struct pl_fixes){ 0 };
	/* Near memory only where it is actionable: a fix for it is noise otherwise. */
	for (size_t i = 0; i < p->n; i++)
		remote += p->v[i].cls[PL_C_REMOTE_ANON] +
			  (p->near_actionable ? p->v[i].cls[PL_C_REMOTE_NEAR] : 0);
	rangelist_text(p->cpu_nodes, p->n_cpu_nodes, cn, sizeof(cn));
	rangelist_text(p->local, p->n_local, ln, sizeof(ln));
	own_move(p, c, out);
	if (!c->is_cgroup)
		migratepages(p, c, out);
	if (!c->is_cgroup || p->n_moves)
		held_nodes(p, out);
	if (remote && !c->is_cgroup && p->n_local) {
		char cpu[300], mem[300];

		snprintf(cpu, sizeof(cpu), "--cpunodebind=%s", cn);
		snprintf(mem, sizeof(mem), "--membind=%s", ln);
		add_argv(out, PL_C_REMOTE_ANON, "start it local",
			 (const char *const[]){ "numactl", cpu, mem, "COMMAND", NULL },
			 "mappings with a policy of their own keep it");
	} else if (remote && !cpuset_exact(p)) {
		/* A narrower cpuset.mems would move shared, file or policy-placed pages too. */
		no_cmd(out, "a new cpuset.mems would move shared memory and placed pages too");
	} else if (remote && c->managed && c->podman_id) {
		char mems[300], id[13];

		/* Its own tool keeps the cpuset podman records; cgroup v2 then moves the pages. */
		snprintf(mems, sizeof(mems), "--cpuset-mems=%s", ln);
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
		cgroup_fix(c, ln, out);
	/* NUMA balancing moves default-policy mappings only: not MPOL_LOCAL nor any other. */
	if ((c->is_cgroup ? remote : p->remote_default) && c->balancing &&
	    strcmp(c->balancing, "0") == 0)
		add_argv(out, PL_C_REMOTE_ANON, "or let the kernel move it",
			 (const char *const[]){ "sysctl", "-w", "kernel.numa_balancing=1", NULL },
			 "off now");
}
