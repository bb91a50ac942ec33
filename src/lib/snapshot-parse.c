// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot names and the JSON a snapshot holds: strict, bounded, never trusting the bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "snapshot.h"
#include "value.h"

/* n decimal digits at *p into *v (advancing p); false when they are not there. */
static bool digits(const char **p, size_t n, int *v)
{
	*v = 0;
	for (size_t i = 0; i < n; i++, (*p)++) {
		if (**p < '0' || **p > '9')
			return false;
		*v = *v * 10 + (**p - '0');
	}
	return true;
}

/* "numastat-YYYYmmddTHHMMSS[.NNNNNNNNN]Z[.json]": one-second names are older snapshots. */
bool snapshot_name_time(const char *name, struct timespec *ts)
{
	const char *p = name;
	struct tm tm = { 0 }, back;
	int ns = 0;
	time_t t;

	if (strncmp(p, "numastat-", 9) != 0)
		return false;
	p += 9;
	if (!digits(&p, 4, &tm.tm_year) || !digits(&p, 2, &tm.tm_mon) ||
	    !digits(&p, 2, &tm.tm_mday) || *p++ != 'T' || !digits(&p, 2, &tm.tm_hour) ||
	    !digits(&p, 2, &tm.tm_min) || !digits(&p, 2, &tm.tm_sec))
		return false;
	if (*p == '.' && (p++, !digits(&p, 9, &ns)))
		return false;
	if (*p++ != 'Z' || (*p && strcmp(p, ".json") != 0))
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	back = tm;
	t = timegm(&back);
	/* timegm() normalises 31 February into March: a real date comes back unchanged. */
	if (t == (time_t)-1 || back.tm_mday != tm.tm_mday || back.tm_mon != tm.tm_mon ||
	    back.tm_hour != tm.tm_hour || back.tm_min != tm.tm_min || back.tm_sec != tm.tm_sec)
		return false;
	*ts = (struct timespec){ .tv_sec = t, .tv_nsec = ns };
	return true;
}

void snapshot_format_time(const struct timespec *ts, char *buf, size_t len)
{
	char sec[32];
	struct tm tm;

	strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", gmtime_r(&ts->tv_sec, &tm));
	snprintf(buf, len, "%s.%09ldZ", sec, (long)ts->tv_nsec);
}

struct json {
	const char *start, *p, *end;
	char *why;
	size_t whylen;
};

static int fail(struct json *j, const char *what)
{
	snprintf(j->why, j->whylen, "byte %zu: %s", (size_t)(j->p - j->start), what);
	return -EBADMSG;
}

static void skip_ws(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static bool eat(struct json *j, char c)
{
	skip_ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

/* "name": with a name of [a-z0-9_], as the kernel's counters and ours are named. */
static int key(struct json *j, char *out, size_t len)
{
	size_t n = 0;

	if (!eat(j, '"'))
		return fail(j, "expected a name in quotes");
	while (j->p < j->end &&
	       ((*j->p >= 'a' && *j->p <= 'z') || (*j->p >= '0' && *j->p <= '9') || *j->p == '_')) {
		if (n + 1 >= len)
			return fail(j, "name too long");
		out[n++] = *j->p++;
	}
	out[n] = '\0';
	if (!n || !eat(j, '"'))
		return fail(j, "expected a name of a-z, 0-9 and _");
	return eat(j, ':') ? 0 : fail(j, "expected ':'");
}

static int number(struct json *j, uint64_t *v)
{
	const char *d;

	skip_ws(j);
	d = j->p;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	if (parse_u64_n(d, (size_t)(j->p - d), UINT64_MAX, v) < 0) {
		j->p = d;
		return fail(j, "expected a whole number up to 2^64-1");
	}
	return 0;
}

/* One member of a node object into id or st. */
static int member(struct json *j, unsigned *id, bool *have_id, struct numastat *st)
{
	char name[COUNTER_NAME_MAX];
	/* Set by number(); clang-tidy cannot see into parse_u64_n to know. */
	uint64_t v = 0, old;
	int r = key(j, name, sizeof(name));

	if (r == 0)
		r = number(j, &v);
	if (r < 0)
		return r;
	if (strcmp(name, "node") == 0) {
		if (*have_id || v > NODE_ID_MAX)
			return fail(j, *have_id ? "\"node\" twice" : "node id out of range");
		*id = (unsigned)v;
		*have_id = true;
		return 0;
	}
	if (numastat_get(st, name, &old))
		return fail(j, "a counter twice");
	if (st->n == NUMASTAT_MAX_COUNTERS)
		return fail(j, "too many counters");
	str_copy(st->c[st->n].name, name, sizeof(st->c[0].name));
	st->c[st->n++].value = v;
	return 0;
}

static int node(struct json *j, unsigned *id, struct numastat *st)
{
	bool have_id = false;
	uint64_t v;
	int r;

	st->n = 0;
	if (!eat(j, '{'))
		return fail(j, "expected '{'");
	do {
		if ((r = member(j, id, &have_id, st)) < 0)
			return r;
	} while (eat(j, ','));
	if (!eat(j, '}'))
		return fail(j, "expected ',' or '}'");
	if (!have_id)
		return fail(j, "a node without \"node\"");
	for (int k = 0; k < NS_STANDARD; k++)
		if (!numastat_get(st, numastat_keys[k], &v))
			return fail(j, "a node without one of the standard counters");
	return 0;
}

/* Room for one more node in ids and st, which share *cap. */
static int grow(struct snapshot *s, size_t *cap)
{
	size_t cap_ids = *cap;

	if (array_grow(&s->ids, &cap_ids, s->n + 1, sizeof(*s->ids)) < 0 ||
	    array_grow(&s->st, cap, s->n + 1, sizeof(*s->st)) < 0)
		return -ENOMEM;
	return 0;
}

static int nodes(struct json *j, struct snapshot *s)
{
	size_t cap = 0;
	int r;

	if (eat(j, ']'))
		return fail(j, "no nodes");
	do {
		if ((r = grow(s, &cap)) < 0 || (r = node(j, &s->ids[s->n], &s->st[s->n])) < 0)
			return r;
		/* We write nodes in id order: anything else was not written by us. */
		if (s->n && s->ids[s->n] <= s->ids[s->n - 1])
			return fail(j, "node ids not in ascending order");
		s->n++;
	} while (eat(j, ','));
	return eat(j, ']') ? 0 : fail(j, "expected ',' or ']'");
}

int snapshot_parse(const char *buf, size_t len, struct snapshot *s, char *why, size_t whylen)
{
	struct json j = { buf, buf, buf + len, why, whylen };
	char name[8];
	int r;

	s->n = 0;
	if (!eat(&j, '{'))
		return fail(&j, "expected '{'");
	if ((r = key(&j, name, sizeof(name))) < 0)
		return r;
	if (strcmp(name, "nodes") != 0)
		return fail(&j, "expected \"nodes\"");
	if (!eat(&j, '['))
		return fail(&j, "expected '['");
	if ((r = nodes(&j, s)) < 0)
		return r;
	if (!eat(&j, '}'))
		return fail(&j, "expected '}'");
	skip_ws(&j);
	return j.p == j.end ? 0 : fail(&j, "more after the end");
}

void snapshot_free(struct snapshot *s)
{
	free(s->ids);
	free(s->st);
	s->ids = NULL;
	s->st = NULL;
	s->n = 0;
}
