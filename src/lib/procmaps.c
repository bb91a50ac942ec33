// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "nodes.h"
#include "procmaps.h"
#include "sysfs.h"
#include "value.h"

const char *const procmaps_cat_names[PM_NCAT] = { "Huge", "Heap", "Stack", "Private" };

void procmaps_free(struct procmaps *pm)
{
	struct pm_wi *wi = pm->wi;

	free(pm->v);
	*pm = (struct procmaps){ .wi = wi };
}

uint64_t procmaps_node_total(const struct pm_node *n)
{
	uint64_t t = 0;

	for (int c = 0; c < PM_NCAT; c++)
		t += n->bytes[c];
	return t;
}

uint64_t procmaps_cat_total(const struct procmaps *pm, enum pm_cat cat)
{
	uint64_t t = 0;

	for (size_t i = 0; i < pm->n; i++)
		t += pm->v[i].bytes[cat];
	return t;
}

/* The entry for node, inserted in id order when new; NULL when out of memory. */
static struct pm_node *node_slot(struct procmaps *pm, unsigned node)
{
	size_t lo = 0, hi = pm->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (pm->v[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < pm->n && pm->v[lo].node == node)
		return &pm->v[lo];
	if (array_grow(&pm->v, &pm->cap, pm->n + 1, sizeof(*pm->v)) < 0)
		return NULL;
	memmove(&pm->v[lo + 1], &pm->v[lo], (pm->n - lo) * sizeof(*pm->v));
	pm->v[lo] = (struct pm_node){ .node = node };
	pm->n++;
	return &pm->v[lo];
}

static int bad(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s", what);
	return -EBADMSG;
}

/*
 * First pass over a line's words: the category (numastat's rule: the first
 * word that starts with "huge", "heap" or "stack"; everything else is
 * Private) and the page size the N<id>= counts are in.
 */
static int line_kind(const char *p, const char *end, enum pm_cat *cat, uint64_t *page, char *why,
		     size_t whylen)
{
	static const char *const words[] = { "huge", "heap", "stack" };
	const char *w;
	size_t wl;
	uint64_t kb;

	*cat = PM_PRIVATE;
	*page = (uint64_t)sysconf(_SC_PAGESIZE); /* kernels before kernelpagesize_kB */
	while (str_next_word(&p, end, " \t", &w, &wl)) {
		for (int c = 0; c < PM_PRIVATE && *cat == PM_PRIVATE; c++)
			if (str_span_starts(w, wl, words[c]))
				*cat = (enum pm_cat)c;
		if (!str_span_starts(w, wl, "kernelpagesize_kB="))
			continue;
		if (parse_u64_n(w + 18, wl - 18, UINT64_MAX / 1024, &kb) < 0 || kb == 0)
			return bad(why, whylen, "kernelpagesize_kB is not a page size");
		*page = kb * 1024;
	}
	return 0;
}

int procmaps_node_word(const char *w, size_t wl, uint64_t *node, uint64_t *pages)
{
	const char *eq;

	if (wl < 2 || w[0] != 'N' || w[1] < '0' || w[1] > '9')
		return 0;
	eq = memchr(w, '=', wl);
	if (!eq || parse_u64_n(w + 1, (size_t)(eq - w - 1), NODE_ID_MAX, node) < 0 ||
	    parse_u64_n(eq + 1, wl - (size_t)(eq - w) - 1, UINT64_MAX, pages) < 0)
		return -EBADMSG;
	return 1;
}

static int add_pages(struct procmaps *pm, uint64_t node, uint64_t pages, uint64_t page,
		     enum pm_cat cat, char *why, size_t whylen)
{
	struct pm_node *n;
	uint64_t bytes, sum;

	if (__builtin_mul_overflow(pages, page, &bytes))
		return bad(why, whylen, "size does not fit in 64 bits");
	n = node_slot(pm, (unsigned)node);
	if (!n)
		return -ENOMEM;
	if (__builtin_add_overflow(n->bytes[cat], bytes, &sum) ||
	    __builtin_add_overflow(procmaps_node_total(n), bytes, &sum))
		return bad(why, whylen, "size does not fit in 64 bits");
	n->bytes[cat] += bytes;
	return 0;
}

int procmaps_add_line(struct procmaps *pm, const char *line, size_t len, char *why, size_t whylen)
{
	const char *p = line, *end = line + len, *w;
	uint64_t page, node, pages;
	enum pm_cat cat;
	size_t wl;
	int r;

	if (memchr(line, '\0', len))
		return bad(why, whylen, "NUL byte");
	if (!str_next_word(&p, end, " \t", &w, &wl))
		return bad(why, whylen, "empty line");
	for (size_t i = 0; i < wl; i++)
		if (!((w[i] >= '0' && w[i] <= '9') || (w[i] >= 'a' && w[i] <= 'f')))
			return bad(why, whylen, "does not start with a hex address");
	if (wl > 16)
		return bad(why, whylen, "does not start with a hex address");
	r = line_kind(p, end, &cat, &page, why, whylen);
	while (r == 0 && str_next_word(&p, end, " \t", &w, &wl)) {
		r = procmaps_node_word(w, wl, &node, &pages);
		if (r < 0)
			return bad(why, whylen, "malformed N<node>=<pages>");
		r = r ? add_pages(pm, node, pages, page, cat, why, whylen) : 0;
	}
	return r == 0 && pm->wi ? procmaps_wi_add_line(pm->wi, line, len, why, whylen) : r;
}

int procmaps_parse(struct procmaps *pm, const char *buf, size_t len, char *why, size_t whylen)
{
	unsigned line = 1;
	char inner[128];

	for (const char *p = buf, *end = buf + len; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int r;

		if (!nl) {
			snprintf(why, whylen, "line %u: missing newline at end of file", line);
			return -EBADMSG;
		}
		r = ll >= PROCMAPS_LINE_MAX ? bad(inner, sizeof(inner), "line too long")
					    : procmaps_add_line(pm, p, ll, inner, sizeof(inner));
		if (r < 0) {
			snprintf(why, whylen, "line %u: %s", line,
				 r == -ENOMEM ? "out of memory" : inner);
			return r;
		}
		p = nl + 1;
	}
	return 0;
}

/* Feed whole lines of buf[0..*len) to fn; keep the unfinished tail. */
static int feed(procmaps_line_fn fn, void *ctx, char *buf, size_t *len, unsigned *line, char *why,
		size_t whylen)
{
	char *p = buf, *end = buf + *len, *nl;
	char inner[128];

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		int r = fn(ctx, p, (size_t)(nl - p), inner, sizeof(inner));

		if (r < 0) {
			snprintf(why, whylen, "line %u: %s", *line,
				 r == -ENOMEM ? "out of memory" : inner);
			return r;
		}
		(*line)++;
		p = nl + 1;
	}
	*len = (size_t)(end - p);
	memmove(buf, p, *len);
	if (*len >= PROCMAPS_LINE_MAX) {
		snprintf(why, whylen, "line %u: line too long", *line);
		return -EBADMSG;
	}
	return 0;
}

/* numa_maps can be megabytes (one line per mapping): read it in chunks. */
static int read_stream(int fd, procmaps_line_fn fn, void *ctx, char *buf, char *why, size_t whylen)
{
	size_t len = 0;
	unsigned line = 1;
	int r = 0;

	for (;;) {
		ssize_t n = read(fd, buf + len, 2 * PROCMAPS_LINE_MAX - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			snprintf(why, whylen, "%s", strerror(errno));
			break;
		}
		if (n == 0) {
			if (len) {
				snprintf(why, whylen, "line %u: missing newline at end of file",
					 line);
				r = -EBADMSG;
			}
			break;
		}
		len += (size_t)n;
		r = feed(fn, ctx, buf, &len, &line, why, whylen);
		if (r < 0)
			break;
	}
	return r;
}

int procmaps_read_lines(unsigned pid, procmaps_line_fn fn, void *ctx, char *why, size_t whylen)
{
	return procmaps_read_file_lines(pid, "numa_maps", fn, ctx, why, whylen);
}

int procmaps_read_file_lines(unsigned pid, const char *file, procmaps_line_fn fn, void *ctx,
			     char *why, size_t whylen)
{
	char path[64], *buf;
	int fd, r;

	snprintf(path, sizeof(path), "/proc/%u/%s", pid, file);
	fd = sysfs_open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(-fd));
		return fd;
	}
	buf = malloc(2 * PROCMAPS_LINE_MAX);
	if (!buf) {
		close(fd);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	r = read_stream(fd, fn, ctx, buf, why, whylen);
	free(buf);
	close(fd);
	return r;
}

static int add_line(void *ctx, const char *line, size_t len, char *why, size_t whylen)
{
	return procmaps_add_line(ctx, line, len, why, whylen);
}

int procmaps_read(unsigned pid, struct procmaps *pm, char *why, size_t whylen)
{
	return procmaps_read_lines(pid, add_line, pm, why, whylen);
}
