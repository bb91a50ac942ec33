// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The migration tracepoint's format and histogram files (mig-reason.h).
 * Both are kernel text read strictly: a line we do not understand is an
 * error, so a kernel that changed the event shows as a fallback with its
 * reason, never as a ledger that silently leaves something out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mig-reason.h"
#include "value.h"

const char *const mig_val_names[MIG_VALS] = {
	[MIG_SUCCEEDED] = "succeeded",         [MIG_FAILED] = "failed",
	[MIG_THP_SUCCEEDED] = "thp_succeeded", [MIG_THP_FAILED] = "thp_failed",
	[MIG_THP_SPLIT] = "thp_split",
};

/* The values the ledger cannot do without. */
#define NEEDED_VALS ((1u << MIG_SUCCEEDED) | (1u << MIG_FAILED))

static int val_index(const char *s, size_t len)
{
	for (int i = 0; i < MIG_VALS; i++)
		if (strlen(mig_val_names[i]) == len && memcmp(mig_val_names[i], s, len) == 0)
			return i;
	return -1;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* "\tfield:unsigned long succeeded;\toffset:8;..." -> the field's name. */
static void field_line(const char *p, const char *end, struct mig_format *f, bool *reason)
{
	const char *semi = memchr(p, ';', (size_t)(end - p)), *name;
	int i;

	if (!semi)
		return;
	name = semi;
	while (name > p && name_char(name[-1]))
		name--;
	if ((size_t)(semi - name) == 6 && memcmp(name, "reason", 6) == 0)
		*reason = true;
	else if ((i = val_index(name, (size_t)(semi - name))) >= 0)
		f->vals |= 1u << i;
}

/* One "{ 3, "syscall_or_cpuset" }" entry at *pp; advances past it. */
static int symbol_entry(const char **pp, const char *end, struct mig_reason *r, char *why,
			size_t whylen)
{
	const char *p = skip_space(*pp + 1, end), *num = p, *name;
	uint64_t id;

	while (p < end && *p != ',' && *p != '}')
		p++;
	while (p > num && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	if (parse_u64_n(num, (size_t)(p - num), 0x7fffffff, &id) < 0) {
		snprintf(why, whylen, "print fmt: reason '%.*s' is not a number",
			 (int)(p - num) & 63, num);
		return -EBADMSG;
	}
	p = skip_space(p, end);
	if (p >= end || *p != ',' || (p = skip_space(p + 1, end)) >= end || *p != '"') {
		snprintf(why, whylen, "print fmt: reason %llu has no quoted name",
			 (unsigned long long)id);
		return -EBADMSG;
	}
	name = ++p;
	while (p < end && name_char(*p))
		p++;
	if (p >= end || *p != '"' || p == name || p - name >= MIG_NAME_MAX) {
		snprintf(why, whylen, "print fmt: reason %llu: a name of a-z, 0-9 and _ (up to %d)",
			 (unsigned long long)id, MIG_NAME_MAX - 1);
		return -EBADMSG;
	}
	r->id = (unsigned)id;
	memcpy(r->name, name, (size_t)(p - name));
	r->name[p - name] = '\0';
	p = skip_space(p + 1, end);
	if (p >= end || *p != '}') {
		snprintf(why, whylen, "print fmt: reason %s: entry not closed", r->name);
		return -EBADMSG;
	}
	*pp = p + 1;
	return 0;
}

/* The table after "__print_symbolic(REC->reason," up to its closing ')'. */
static int symbol_table(const char *p, const char *end, struct mig_format *f, char *why,
			size_t whylen)
{
	for (;;) {
		p = skip_space(p, end);
		if (p < end && *p == ',')
			p = skip_space(p + 1, end);
		if (p < end && *p == ')')
			return f->n ? 0
				    : (snprintf(why, whylen, "print fmt: no reasons"), -EBADMSG);
		if (p >= end || *p != '{') {
			snprintf(why, whylen, "print fmt: reason table not closed");
			return -EBADMSG;
		}
		if (f->n == MIG_REASONS_MAX) {
			snprintf(why, whylen, "print fmt: more than %d reasons", MIG_REASONS_MAX);
			return -EBADMSG;
		}
		if (symbol_entry(&p, end, &f->reasons[f->n], why, whylen) < 0)
			return -EBADMSG;
		for (size_t i = 0; i < f->n; i++)
			if (f->reasons[i].id == f->reasons[f->n].id ||
			    strcmp(f->reasons[i].name, f->reasons[f->n].name) == 0) {
				snprintf(why, whylen, "print fmt: reason %s twice",
					 f->reasons[f->n].name);
				return -EBADMSG;
			}
		f->n++;
	}
}

int mig_reason_parse_format(const char *buf, size_t len, struct mig_format *f, char *why,
			    size_t whylen)
{
	static const char sym[] = "__print_symbolic(REC->reason,";
	const char *end = buf + len, *p = buf, *fmt = NULL;
	bool reason = false;

	*f = (struct mig_format){ 0 };
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q;

		if (!nl)
			nl = end;
		q = skip_space(p, nl);
		if (nl - q > 6 && memcmp(q, "field:", 6) == 0)
			field_line(q + 6, nl, f, &reason);
		else if (nl - q > 10 && memcmp(q, "print fmt:", 10) == 0)
			fmt = q;
		p = nl + 1;
	}
	if (!reason || (f->vals & NEEDED_VALS) != NEEDED_VALS) {
		snprintf(why, whylen, "the event has no %s field",
			 !reason                            ? "reason"
			 : !(f->vals & 1u << MIG_SUCCEEDED) ? "succeeded"
							    : "failed");
		return -EBADMSG;
	}
	p = fmt ? memmem(fmt, (size_t)(end - fmt), sym, sizeof(sym) - 1) : NULL;
	if (!p) {
		snprintf(why, whylen, "print fmt: no __print_symbolic table of reason");
		return -EBADMSG;
	}
	return symbol_table(p + sizeof(sym) - 1, end, f, why, whylen);
}

const char *mig_reason_name(const struct mig_format *f, unsigned id)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->reasons[i].id == id)
			return f->reasons[i].name;
	return NULL;
}

/* "name: 123" at p (spaces before either allowed); the number, p past it. */
static int pair(const char **pp, const char *end, const char **name, size_t *nlen, uint64_t *v)
{
	const char *p = skip_space(*pp, end), *num;

	*name = p;
	/* Totals' names are capitalised ("Dropped"). */
	while (p < end && (name_char(*p) || (*p >= 'A' && *p <= 'Z')))
		p++;
	*nlen = (size_t)(p - *name);
	if (!*nlen || p >= end || *p != ':')
		return -EBADMSG;
	num = p = skip_space(p + 1, end);
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (parse_u64_n(num, (size_t)(p - num), UINT64_MAX, v) < 0)
		return -EBADMSG;
	*pp = p;
	return 0;
}

static int hist_entry(const char *p, const char *end, struct mig_hist_row *row, char *what,
		      size_t wlen)
{
	const char *name;
	size_t nlen;
	uint64_t v;
	int i;

	*row = (struct mig_hist_row){ 0 };
	if (pair(&p, end, &name, &nlen, &v) < 0 || nlen != 6 || memcmp(name, "reason", 6) != 0 ||
	    v > 0x7fffffff)
		return snprintf(what, wlen, "not a reason key"), -EBADMSG;
	row->id = (unsigned)v;
	p = skip_space(p, end);
	if (p >= end || *p != '}')
		return snprintf(what, wlen, "key not closed"), -EBADMSG;
	for (p++; skip_space(p, end) < end;) {
		if (pair(&p, end, &name, &nlen, &v) < 0)
			return snprintf(what, wlen, "not 'name: number'"), -EBADMSG;
		if (nlen == 8 && memcmp(name, "hitcount", 8) == 0)
			row->hits = v;
		else if ((i = val_index(name, nlen)) >= 0)
			row->v[i] = v;
		else
			return snprintf(what, wlen, "unknown value '%.*s'", (int)nlen & 63, name),
			       -EBADMSG;
	}
	return 0;
}

/* An entry: a new reason's row, or more values of one an earlier section had. */
static int hist_line(struct mig_hist *h, const char *p, const char *end, char *what, size_t wlen)
{
	struct mig_hist_row row;
	struct mig_hist_row *have;

	if (hist_entry(p, end, &row, what, wlen) < 0)
		return -EBADMSG;
	have = (struct mig_hist_row *)mig_reason_hist_row(h, row.id);
	if (!have && h->n == MIG_REASONS_MAX)
		return snprintf(what, wlen, "more than %d reasons", MIG_REASONS_MAX), -EBADMSG;
	if (!have) {
		h->rows[h->n++] = row;
		return 0;
	}
	/* Every section counts the same calls; each carries its own values. */
	if (row.hits > have->hits)
		have->hits = row.hits;
	for (int i = 0; i < MIG_VALS; i++)
		have->v[i] += row.v[i];
	return 0;
}

/* "    Dropped: 0" of the Totals; other totals are checked and skipped. */
static int total_line(const char *p, const char *end, struct mig_hist *h)
{
	const char *name;
	size_t nlen;
	uint64_t v;

	if (pair(&p, end, &name, &nlen, &v) < 0 || skip_space(p, end) != end)
		return -EBADMSG;
	if (nlen == 7 && memcmp(name, "Dropped", 7) == 0)
		h->dropped += v;
	return 0;
}

int mig_reason_parse_hist(const char *buf, size_t len, struct mig_hist *h, char *why, size_t whylen)
{
	const char *end = buf + len, *p = buf;
	bool totals = false;
	unsigned line = 0;
	char what[96];

	*h = (struct mig_hist){ 0 };
	for (; p < end; p++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q;
		int r = 0;

		if (!nl)
			nl = end;
		line++;
		q = skip_space(p, nl);
		if (q == nl || *q == '#') {
			/* The next trigger's section: entries again. */
			if (q < nl && *q == '#')
				totals = false;
			p = nl;
			continue;
		}
		if (nl - q == 7 && memcmp(q, "Totals:", 7) == 0)
			totals = true;
		else if (totals)
			r = total_line(q, nl, h) < 0
				    ? (snprintf(what, sizeof(what), "bad total"), -1)
				    : 0;
		else if (*q == '{')
			r = hist_line(h, q + 1, nl, what, sizeof(what));
		else
			r = (snprintf(what, sizeof(what), "not a histogram line"), -1);
		if (r < 0) {
			snprintf(why, whylen, "line %u: %s", line, what);
			return -EBADMSG;
		}
		p = nl;
	}
	return 0;
}

const struct mig_hist_row *mig_reason_hist_row(const struct mig_hist *h, unsigned id)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->rows[i].id == id)
			return &h->rows[i];
	return NULL;
}

int mig_reason_trigger(const struct mig_format *f, size_t i, char *buf, size_t size)
{
	size_t len = 0, k = 0, in = 0;

	for (int v = 0; v < MIG_VALS; v++) {
		if (!(f->vals & 1u << v) || k++ / MIG_TRIGGER_VALS != i)
			continue;
		len += (size_t)snprintf(buf + len, size > len ? size - len : 0, "%s%s",
					in++ ? "," : "hist:keys=reason:vals=", mig_val_names[v]);
	}
	return len < size ? (int)len : -ENOSPC;
}
