// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process's numa_maps, mapping by mapping: its policy as mpol_to_str()
 * (mm/mempolicy.c) writes it ("mode[=flags][:nodes]", where two modes are
 * two words: "weighted interleave", "prefer (many)"), the kind of its
 * memory, and its pages by node (show_numa_map(), fs/proc/task_mmu.c:
 * N<node>=<pages> in kernelpagesize_kB pages).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "interleave.h"
#include "nodes.h"
#include "placement.h"
#include "procmaps.h"
#include "value.h"

const char *const placement_policy_names[PL_NPOL] = {
	"default", "local", "prefer", "prefer (many)", "bind", "interleave", "weighted interleave",
};

/* What the first pass over a line found. */
struct mapping {
	enum pl_policy pol;
	char pol_text[PL_POLICY_TEXT];
	unsigned *nodes; /* the policy's nodes, sorted */
	size_t n_nodes;
	enum pl_kind kind;      /* of the pages that are not anon= pages */
	uint64_t anon;          /* anon= pages of a file mapping */
	uint64_t pages;         /* sum of N<node>= */
	uint64_t page;          /* bytes per page */
	enum pl_class anon_cls; /* of the anon= pages: the class their nodes agree on */
	uint64_t addr;          /* its start address */
	bool shared;            /* mapmax > 1: some of its pages are other processes' too */
};

static int bad(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s", what);
	return -EBADMSG;
}

/*
 * The policy at *p: one word, or two for the modes with a space.  Sets the
 * mode, the text and its nodes.
 */
static int policy(const char **p, const char *end, struct mapping *m, char *why, size_t whylen)
{
	const char *w, *w2, *mode_end, *colon;
	size_t wl, wl2, ml;
	const char *save;
	char list[PL_POLICY_TEXT];
	int n;

	if (!str_next_word(p, end, " ", &w, &wl))
		return bad(why, whylen, "no policy");
	save = *p;
	if ((str_span_is(w, wl, "weighted") || str_span_is(w, wl, "prefer")) &&
	    str_next_word(p, end, " ", &w2, &wl2) &&
	    (str_span_is(w, wl, "weighted") ? str_span_starts(w2, wl2, "interleave")
					    : str_span_starts(w2, wl2, "(many)")))
		wl = (size_t)(w2 + wl2 - w);
	else
		*p = save;
	if (wl >= PL_POLICY_TEXT)
		return bad(why, whylen, "policy too long");
	snprintf(m->pol_text, sizeof(m->pol_text), "%.*s", (int)wl, w);
	mode_end = w;
	while (mode_end < w + wl && *mode_end != '=' && *mode_end != ':')
		mode_end++;
	ml = (size_t)(mode_end - w);
	for (m->pol = 0; m->pol < PL_NPOL; m->pol++)
		if (str_span_is(w, ml, placement_policy_names[m->pol]))
			break;
	if (m->pol == PL_NPOL) {
		snprintf(why, whylen, "unknown policy '%.*s'", (int)(ml > 32 ? 32 : ml), w);
		return -EBADMSG;
	}
	colon = memchr(w, ':', wl);
	if (!colon)
		return 0;
	snprintf(list, sizeof(list), "%.*s", (int)(w + wl - colon - 1), colon + 1);
	n = rangelist_parse(list, &m->nodes);
	if (n < 0)
		return n == -ENOMEM ? n : bad(why, whylen, "the policy's node list is malformed");
	m->n_nodes = (size_t)n;
	return 0;
}

/* shmem_file_setup() names, and hugetlb-less System V and shared anonymous segments. */
static bool shmem_path(const char *path, size_t len)
{
	static const char *const prefixes[] = { "/dev/shm/", "/SYSV", "/memfd:", "/dev/zero" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (str_span_starts(path, len, prefixes[i]))
			return true;
	return false;
}

static struct pl_ask ask_of(const struct mapping *m)
{
	return (struct pl_ask){
		.pol = m->pol, .nodes = m->nodes, .n = m->n_nodes, .shared = m->shared
	};
}

/* The class of the anon= pages: the one every node of the mapping gives them, else unknown. */
static enum pl_class anon_class(const struct placement *pl, const struct mapping *m, const char *p,
				const char *end)
{
	struct pl_ask a = ask_of(m);
	bool first = true;
	enum pl_class c = PL_C_UNKNOWN;
	const char *w;
	size_t wl;
	uint64_t v, node;

	while (str_next_word(&p, end, " ", &w, &wl)) {
		enum pl_class here;

		if (procmaps_node_word(w, wl, &node, &v) <= 0 || !v)
			continue;
		here = placement_classify(pl, &a, PL_ANON, (unsigned)node);
		if (first)
			c = here;
		else if (here != c)
			return PL_C_UNKNOWN;
		first = false;
	}
	return c;
}

/* First pass: kind, page size, anon= and the total of the N<node>= pages. */
static int survey(const char *p, const char *end, struct mapping *m, char *why, size_t whylen)
{
	bool file = false, huge = false, shm = false;
	const char *w;
	size_t wl;
	uint64_t v, node;

	m->page = (uint64_t)sysconf(_SC_PAGESIZE);
	while (str_next_word(&p, end, " ", &w, &wl)) {
		int r = procmaps_node_word(w, wl, &node, &v);

		if (r < 0)
			return bad(why, whylen, "malformed N<node>=<pages>");
		if (r > 0 && __builtin_add_overflow(m->pages, v, &m->pages))
			return bad(why, whylen, "size does not fit in 64 bits");
		if (r > 0)
			continue;
		if (str_span_starts(w, wl, "file=")) {
			file = true;
			shm = shmem_path(w + 5, wl - 5);
		} else if (str_span_is(w, wl, "huge"))
			huge = true;
		else if (str_span_starts(w, wl, "anon=") &&
			 parse_u64_n(w + 5, wl - 5, UINT64_MAX, &m->anon) < 0)
			return bad(why, whylen, "anon= is not a number");
		else if (str_span_starts(w, wl, "mapmax=")) {
			if (parse_u64_n(w + 7, wl - 7, UINT64_MAX, &v) < 0)
				return bad(why, whylen, "mapmax= is not a number");
			m->shared = v > 1;
		} else if (str_span_starts(w, wl, "kernelpagesize_kB=")) {
			if (parse_u64_n(w + 18, wl - 18, UINT64_MAX / 1024, &v) < 0 || v == 0)
				return bad(why, whylen, "kernelpagesize_kB is not a page size");
			m->page = v * 1024;
		}
	}
	m->kind = huge ? PL_HUGE : !file ? PL_ANON : shm ? PL_SHMEM : PL_FILE;
	m->shared |= m->kind == PL_SHMEM;
	if (m->kind != PL_FILE || m->anon > m->pages)
		m->anon = m->kind == PL_FILE ? m->pages : 0;
	return 0;
}

static int add_bytes(uint64_t *to, uint64_t pages, uint64_t page)
{
	uint64_t b;

	if (__builtin_mul_overflow(pages, page, &b) || __builtin_add_overflow(*to, b, to))
		return -EOVERFLOW;
	return 0;
}

/* Where the off_policy pages of node n belong, mappings disagreeing noted. */
static void off_to(struct placement *p, const struct mapping *m, struct pl_node *n)
{
	struct pl_ask a = ask_of(m);
	unsigned to = placement_off_policy_home(p, &a, n->node);

	if (n->off_to == UINT32_MAX && !n->off_to_mixed)
		n->off_to = to;
	else if (n->off_to != to) {
		n->off_to = UINT32_MAX;
		n->off_to_mixed = true;
	}
}

/*
 * The plan's move of a private anonymous mapping's pages of class c on
 * node: to the node its class says they belong on; bytes no node can take
 * are counted as unplanned.  0 or -ENOMEM.
 */
static int plan_move(struct placement *p, const struct mapping *m, enum pl_class c, unsigned node,
		     uint64_t pages)
{
	struct pl_ask a = ask_of(m);
	unsigned to;

	/* A file mapping's pages, its copied ones too: a move could not tell them apart. */
	if (!pages || !placement_plannable(c) || m->shared || m->kind == PL_FILE)
		return 0;
	to = c == PL_C_OFF_POLICY ? placement_off_policy_home(p, &a, node)
				  : placement_remote_home(p, node);
	if (to == UINT32_MAX) {
		*(c == PL_C_REMOTE_NEAR ? &p->unplanned_near : &p->unplanned) += pages * m->page;
		return 0;
	}
	if (array_grow(&p->moves, &p->cap_moves, p->n_moves + 1, sizeof(*p->moves)) < 0)
		return -ENOMEM;
	p->moves[p->n_moves++] = (struct pl_move){ .pid = p->pid,
						   .addr = m->addr,
						   .page = m->page,
						   .pages = pages,
						   .from = node,
						   .to = to,
						   .cls = c };
	return 0;
}

/* Second pass: each node's pages, the anon= share of a file mapping in proportion. */
static int spread(struct placement *p, const char *q, const char *end, const struct mapping *m,
		  char *why, size_t whylen)
{
	uint64_t seen = 0, given = 0, node, pages;
	const char *w;
	size_t wl;

	struct pl_ask a = ask_of(m);

	while (str_next_word(&q, end, " ", &w, &wl)) {
		struct pl_node *n;
		uint64_t anon, rest;
		enum pl_class c;

		if (procmaps_node_word(w, wl, &node, &pages) <= 0)
			continue;
		n = placement_node(p, (unsigned)node);
		if (!n)
			return -ENOMEM;
		seen += pages;
		anon = m->anon ? (uint64_t)((unsigned __int128)seen * m->anon / m->pages) - given
			       : 0;
		given += anon;
		rest = pages - anon;
		c = placement_classify(p, &a, m->kind, n->node);
		if (add_bytes(&n->bytes[PL_ANON], anon, m->page) < 0 ||
		    add_bytes(&n->bytes[m->kind], rest, m->page) < 0 ||
		    add_bytes(&n->cls[m->anon_cls], anon, m->page) < 0 ||
		    add_bytes(&n->cls[c], rest, m->page) < 0 ||
		    add_bytes(&n->anon_cls[m->anon_cls], anon, m->page) < 0 ||
		    ((m->kind == PL_ANON || m->kind == PL_HUGE) &&
		     add_bytes(&n->anon_cls[c], rest, m->page) < 0))
			return bad(why, whylen, "size does not fit in 64 bits");
		if ((c == PL_C_OFF_POLICY && rest) || (m->anon_cls == PL_C_OFF_POLICY && anon))
			off_to(p, m, n);
		if (c == PL_C_REMOTE_ANON && m->pol == PL_POL_DEFAULT)
			p->remote_default += rest * m->page;
		if (placement_actionable(m->anon_cls))
			p->unplanned += anon * m->page;
		if (plan_move(p, m, c, n->node, rest) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * A weighted interleave mapping's pages per node against the weights'
 * shares: off when a node of its policy is further from its share than
 * its weight (the last round is partial) and 2% of the pages.
 */
static bool weights_off(const struct placement *p, const struct mapping *m, const char *q,
			const char *end)
{
	const struct interleave_weights *iw = p->machine ? p->machine->weights : NULL;
	uint64_t sum_w = 0, on = 0, node, pages;
	const char *w;
	size_t wl;
	bool off = false;

	if (!iw || m->pol != PL_POL_WEIGHTED || !m->n_nodes)
		return false;
	for (size_t i = 0; i < m->n_nodes; i++)
		sum_w += interleave_weight_of(iw, m->nodes[i]);
	for (const char *r = q; str_next_word(&r, end, " ", &w, &wl);)
		if (procmaps_node_word(w, wl, &node, &pages) > 0 &&
		    rangelist_has(m->nodes, m->n_nodes, (unsigned)node))
			on += pages;
	if (!sum_w || !on)
		return false;
	for (size_t i = 0; i < m->n_nodes && !off; i++) {
		unsigned wn = interleave_weight_of(iw, m->nodes[i]);
		double want = (double)on * wn / (double)sum_w, got = 0, d;

		for (const char *r = q; str_next_word(&r, end, " ", &w, &wl);)
			if (procmaps_node_word(w, wl, &node, &pages) > 0 && node == m->nodes[i])
				got += (double)pages;
		d = got > want ? got - want : want - got;
		off = d > (double)wn + (double)on / 50;
	}
	return off;
}

static void count_policy(struct placement *p, const struct mapping *m)
{
	struct pl_policy_use *u = NULL;

	for (size_t i = 0; i < p->n_pol && !u; i++)
		if (strcmp(p->pol[i].text, m->pol_text) == 0)
			u = &p->pol[i];
	if (!u && p->n_pol < PL_POLICIES_MAX) {
		if (!p->pol)
			p->pol = calloc(PL_POLICIES_MAX, sizeof(*p->pol));
		if (p->pol) {
			u = &p->pol[p->n_pol++];
			memcpy(u->text, m->pol_text, sizeof(u->text));
		}
	}
	if (!u) {
		p->policies_dropped++;
		return;
	}
	u->mappings++;
	/* spread() refused what overflows: the product fits. */
	u->bytes += m->pages * m->page;
}

int placement_maps_add_line(struct placement *p, const char *line, size_t len, char *why,
			    size_t whylen)
{
	const char *q = line, *end = line + len, *w;
	struct mapping m = { 0 };
	size_t wl;
	int r;

	if (memchr(line, '\0', len))
		return bad(why, whylen, "NUL byte");
	if (!str_next_word(&q, end, " ", &w, &wl) || wl > 16)
		return bad(why, whylen, "does not start with a hex address");
	for (size_t i = 0; i < wl; i++) {
		unsigned d = w[i] >= '0' && w[i] <= '9'   ? (unsigned)(w[i] - '0')
			     : w[i] >= 'a' && w[i] <= 'f' ? (unsigned)(w[i] - 'a' + 10)
							  : 16;

		if (d == 16)
			return bad(why, whylen, "does not start with a hex address");
		m.addr = m.addr << 4 | d;
	}
	r = policy(&q, end, &m, why, whylen);
	if (r == 0)
		r = survey(q, end, &m, why, whylen);
	if (r == 0 && m.anon)
		m.anon_cls = anon_class(p, &m, q, end);
	if (r == 0)
		r = spread(p, q, end, &m, why, whylen);
	if (r == 0) {
		p->mappings++;
		count_policy(p, &m);
		p->wi_off += weights_off(p, &m, q, end);
	}
	free(m.nodes);
	return r;
}

int placement_maps_parse(struct placement *p, const char *buf, size_t len, char *why, size_t whylen)
{
	unsigned line = 1;
	char inner[128];

	for (const char *q = buf, *end = buf + len; q < end; line++) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		int r;

		if (!nl) {
			snprintf(why, whylen, "line %u: missing newline at end of file", line);
			return -EBADMSG;
		}
		r = (size_t)(nl - q) >= PROCMAPS_LINE_MAX
			    ? bad(inner, sizeof(inner), "line too long")
			    : placement_maps_add_line(p, q, (size_t)(nl - q), inner, sizeof(inner));
		if (r < 0) {
			snprintf(why, whylen, "line %u: %s", line,
				 r == -ENOMEM ? "out of memory" : inner);
			return r;
		}
		q = nl + 1;
	}
	return 0;
}

static int add_line(void *ctx, const char *line, size_t len, char *why, size_t whylen)
{
	return placement_maps_add_line(ctx, line, len, why, whylen);
}

int placement_maps_read(struct placement *p, unsigned pid, char *why, size_t whylen)
{
	return procmaps_read_lines(pid, add_line, p, why, whylen);
}
