// SPDX-License-Identifier: GPL-2.0-or-later
/* The trial file: its format is described in trial.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "atomic-file.h"
#include "fields.h"
#include "nodes.h"
#include "slurp.h"
#include "statedir.h"
#include "trial.h"
#include "value.h"

#define MAGIC "numastatctl-trial"
#define STASH_FILE "." TRIAL_FILE ".prev"
/* Nanoseconds since the epoch or since boot: an int64_t. */
#define NS_MAX ((uint64_t)INT64_MAX)

static const char *const when_names[TRIAL_READINGS] = {
	[TRIAL_BASE_START] = "baseline-start",
	[TRIAL_BASE_END] = "baseline-end",
	[TRIAL_START] = "start",
	[TRIAL_END] = "end",
};

const char *trial_state_name(enum trial_state s)
{
	static const char *const names[] = {
		[TRIAL_RUNNING] = "running",
		[TRIAL_CONFIRMED] = "confirmed",
		[TRIAL_REVERTED] = "reverted",
	};
	return names[s];
}

const char *trial_armed_name(enum trial_armed a)
{
	return a == TRIAL_TIMER ? "timer" : "foreground";
}

int64_t trial_deadline_ns(const struct trial *t)
{
	return t->start_ns + (int64_t)t->seconds * 1000000000;
}

int trial_add_knob(struct trial *t, const char *name, const char *before, const char *written)
{
	struct trial_knob *k;

	if (array_grow(&t->knobs, &t->cap_knobs, t->n_knobs + 1, sizeof(*t->knobs)) < 0)
		return -ENOMEM;
	k = &t->knobs[t->n_knobs++];
	str_copy(k->name, name, sizeof(k->name));
	str_copy(k->before, before, sizeof(k->before));
	str_copy(k->written, written, sizeof(k->written));
	return 0;
}

void trial_free(struct trial *t)
{
	free(t->knobs);
	for (int w = 0; w < TRIAL_READINGS; w++)
		trial_counters_free(&t->reading[w]);
	trial_spreads_free(&t->spreads);
	*t = (struct trial){ 0 };
}

/* ---- writing ---- */

/* Thousandths, rounded: what a spread line holds. */
static uint64_t milli(double v)
{
	return v <= 0 ? 0 : v >= 1e15 ? (uint64_t)1e15 * 1000 : (uint64_t)(v * 1000 + 0.5);
}

/* A reading and its count lines; returns the lines written. */
static unsigned put_reading(FILE *f, const struct trial_counters *c, int w)
{
	fprintf(f, "reading %s %" PRId64 " %" PRId64 "\n", when_names[w], c->real_ns, c->mono_ns);
	for (size_t i = 0; i < c->n; i++) {
		const struct trial_scope *s = &c->s[i];

		if (s->node == TRIAL_ALL)
			fputs("count all", f);
		else
			fprintf(f, "count %d", s->node);
		for (int k = 0; k < TK_COUNT; k++)
			if (s->have & TK_BIT(k))
				fprintf(f, " %s=%" PRIu64, trial_key_name(k), s->v[k]);
		fputc('\n', f);
	}
	return 1 + (unsigned)c->n;
}

static unsigned put_spreads(FILE *f, const struct trial_spreads *sp)
{
	for (size_t i = 0; i < sp->n; i++) {
		const struct trial_spread *s = &sp->v[i];

		fprintf(f, "spread %s ", trial_metrics[s->metric].name);
		if (s->node == TRIAL_ALL)
			fputs("all", f);
		else
			fprintf(f, "%d", s->node);
		fprintf(f, " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", s->n, milli(s->sd),
			milli(s->min), milli(s->max));
	}
	return (unsigned)sp->n;
}

static void put_file(FILE *f, const struct trial *t)
{
	unsigned lines = 1;

	fprintf(f, MAGIC " %d id=%s for=", TRIAL_FORMAT, t->point.id);
	if (t->point.live)
		fputs("live", f);
	else
		field_put_string(f, t->point.sysroot);
	fputs(" by=", f);
	field_put_string(f, t->point.by);
	fprintf(f, " armed=%s pid=%" PRIu64 "\n", trial_armed_name(t->armed), t->pid);
	fprintf(f, "trial %" PRId64 " %" PRIu64 "\n", t->start_ns, t->seconds);
	for (size_t i = 0; i < t->n_knobs; i++, lines++) {
		fprintf(f, "knob %s ", t->knobs[i].name);
		field_put_string(f, t->knobs[i].before);
		fputc(' ', f);
		field_put_string(f, t->knobs[i].written);
		fputc('\n', f);
	}
	for (int w = 0; w < TRIAL_READINGS; w++) {
		if (!t->reading[w].n)
			continue;
		lines += put_reading(f, &t->reading[w], w);
		if (w == TRIAL_BASE_END)
			lines += put_spreads(f, &t->spreads);
	}
	if (t->state != TRIAL_RUNNING) {
		fprintf(f, "ended %s %" PRId64 "\n", trial_state_name(t->state), t->ended_ns);
		lines++;
	}
	fprintf(f, "end %u\n", lines);
}

int trial_save(int dirfd, const char *dir, const struct trial *t, char *why, size_t whylen)
{
	struct atomic_file af;
	int r = atomic_file_beginat(&af, dirfd, TRIAL_FILE, 0600);

	if (r == 0) {
		put_file(af.f, t);
		/* What a reader would refuse is never saved. */
		if (ftell(af.f) > TRIAL_FILE_MAX) {
			atomic_file_abort(&af);
			r = -EFBIG;
		} else
			r = atomic_file_commit(&af);
	}
	if (r == -EFBIG)
		snprintf(why, whylen, "cannot save the trial in %s: it would be larger than %d MiB",
			 dir, TRIAL_FILE_MAX >> 20);
	else if (r < 0)
		snprintf(why, whylen, "cannot save the trial in %s/" TRIAL_FILE ": %s", dir,
			 strerror(-r));
	return r;
}

bool trial_present(int dirfd)
{
	struct stat st;

	return fstatat(dirfd, TRIAL_FILE, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

bool trial_present_in(const char *dir)
{
	char path[4096];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/" TRIAL_FILE, dir) >= sizeof(path))
		return true;
	return fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

int trial_clear(int dirfd)
{
	if (unlinkat(dirfd, TRIAL_FILE, 0) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

void trial_stash(int dirfd)
{
	unlinkat(dirfd, STASH_FILE, 0);
	if (linkat(dirfd, TRIAL_FILE, dirfd, STASH_FILE, 0) < 0 && errno != ENOENT)
		unlinkat(dirfd, STASH_FILE, 0);
}

void trial_unstash(int dirfd, bool restore)
{
	if (!restore)
		unlinkat(dirfd, STASH_FILE, 0);
	else if (renameat(dirfd, STASH_FILE, dirfd, TRIAL_FILE) < 0 && errno == ENOENT)
		unlinkat(dirfd, TRIAL_FILE, 0);
}

/* ---- reading ---- */

/* Where the parser is: what may come next. */
enum stage {
	AT_HEADER,
	AT_TRIAL,
	AT_KNOBS,   /* knobs, then the baseline or the start */
	AT_COUNTS,  /* the count lines of the reading cur */
	AT_SPREADS, /* after the baseline's end: spreads, or the start */
	AT_ENDED,   /* after the end reading: the ended line */
	AT_END,     /* the end line */
	DONE,
};

struct parser {
	struct field_line l;
	struct trial *t;
	enum stage stage;
	int cur;        /* the reading whose counts come now, or -1 */
	unsigned lines; /* lines after the header */
};

static int ns_field(struct field_line *l, int64_t *v, const char *what)
{
	uint64_t u;
	int r = field_u64(l, NS_MAX, &u, what);

	*v = (int64_t)u;
	return r;
}

static int header(struct parser *ps)
{
	struct field_line *l = &ps->l;
	struct trial *t = ps->t;
	char version[16];
	int r;

	if (!field_take(l, MAGIC " "))
		return field_bad(l, "the first line is not a numastatctl-trial header");
	if (!field_word(l, version, sizeof(version)) ||
	    strspn(version, "0123456789") != strlen(version))
		return field_bad(l, "no format version");
	if (strcmp(version, "1") != 0) {
		snprintf(l->why, l->whylen,
			 "%s: trial file format %s, which this numastatctl does not read "
			 "(it reads format %d)",
			 l->path, version, TRIAL_FORMAT);
		return -EBADMSG;
	}
	t->point.version = STATE_FORMAT;
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "id=") || !field_word(l, t->point.id, sizeof(t->point.id)) ||
	    !state_valid_id(t->point.id))
		return field_bad(l, "no valid id=");
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "for="))
		return field_bad(l, "no for=");
	t->point.live = field_take(l, "live");
	if (!t->point.live &&
	    (r = field_string(l, t->point.sysroot, sizeof(t->point.sysroot), "for=")) < 0)
		return r;
	if (!t->point.live && !t->point.sysroot[0])
		return field_bad(l, "an empty for=");
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "by="))
		return field_bad(l, "no by=");
	if ((r = field_string(l, t->point.by, sizeof(t->point.by), "by=")) < 0 ||
	    (r = field_sep(l, false)) < 0)
		return r;
	if (field_take(l, "armed=timer"))
		t->armed = TRIAL_TIMER;
	else if (field_take(l, "armed=foreground"))
		t->armed = TRIAL_FOREGROUND;
	else
		return field_bad(l, "no valid armed= (timer or foreground)");
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "pid="))
		return field_bad(l, "no pid=");
	if ((r = field_u64(l, INT32_MAX, &t->pid, "pid=")) < 0)
		return r;
	return field_sep(l, true);
}

static int trial_line(struct parser *ps)
{
	struct field_line *l = &ps->l;
	int r;

	if (!field_take(l, "trial "))
		return field_bad(l, "expected the trial line after the header");
	if ((r = ns_field(l, &ps->t->start_ns, "start time")) < 0 ||
	    (r = field_sep(l, false)) < 0 ||
	    (r = field_u64(l, 7 * 24 * 3600, &ps->t->seconds, "length in seconds")) < 0)
		return r;
	return field_sep(l, true);
}

static int knob_line(struct parser *ps)
{
	struct field_line *l = &ps->l;
	char name[KNOB_NAME_MAX], before[KVAL_MAX], written[KVAL_MAX];
	int r;

	if (!field_word(l, name, sizeof(name)) ||
	    strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") !=
		    strlen(name))
		return field_bad(l, "no knob name");
	for (size_t i = 0; i < ps->t->n_knobs; i++)
		if (strcmp(ps->t->knobs[i].name, name) == 0)
			return field_bad(l, "a knob twice");
	if ((r = field_sep(l, false)) < 0 ||
	    (r = field_string(l, before, KVAL_MAX, "a value")) < 0 ||
	    (r = field_sep(l, false)) < 0 ||
	    (r = field_string(l, written, KVAL_MAX, "a value")) < 0 || (r = field_sep(l, true)) < 0)
		return r;
	return trial_add_knob(ps->t, name, before, written);
}

/* "reading WHEN REAL MONO": the next reading, in its order. */
static int reading_line(struct parser *ps)
{
	struct field_line *l = &ps->l;
	struct trial_counters *c;
	char name[24];
	int w = TRIAL_READINGS, r;

	if (field_word(l, name, sizeof(name)))
		for (w = 0; w < TRIAL_READINGS && strcmp(name, when_names[w]) != 0; w++)
			;
	if (w == TRIAL_READINGS)
		return field_bad(l, "an unknown reading");
	/* In order, each once; the baseline's two or none; the end only after the start. */
	if (w <= ps->cur || (w == TRIAL_BASE_END && ps->cur != TRIAL_BASE_START) ||
	    (w == TRIAL_START && ps->cur == TRIAL_BASE_START) ||
	    (w == TRIAL_END && ps->cur != TRIAL_START))
		return field_bad(l, "a reading out of order");
	c = &ps->t->reading[w];
	if ((r = field_sep(l, false)) < 0 || (r = ns_field(l, &c->real_ns, "time")) < 0 ||
	    (r = field_sep(l, false)) < 0 || (r = ns_field(l, &c->mono_ns, "time")) < 0)
		return r;
	ps->cur = w;
	ps->stage = AT_COUNTS;
	return field_sep(l, true);
}

/* A scope: "all", or a node id above the scope before it. */
static int scope(struct field_line *l, const struct trial_counters *c, int *node)
{
	uint64_t id;
	int r;

	if (field_take(l, "all")) {
		*node = TRIAL_ALL;
		return c && c->n ? field_bad(l, "the machine's scope after a node's") : 0;
	}
	if ((r = field_u64(l, NODE_ID_MAX, &id, "scope (all or a node id)")) < 0)
		return r;
	*node = (int)id;
	if (c && (!c->n || c->s[c->n - 1].node >= *node))
		return field_bad(l, c->n ? "node ids out of order" : "a node before the machine");
	return 0;
}

static int count_line(struct parser *ps)
{
	struct field_line *l = &ps->l;
	struct trial_counters *c = &ps->t->reading[ps->cur];
	struct trial_scope *s;
	int node, r = scope(l, c, &node);

	if (r < 0)
		return r;
	if (!(s = trial_counters_add(c, node)))
		return -ENOMEM;
	while (l->p < l->end) {
		const char *eq;
		int k;

		if ((r = field_sep(l, false)) < 0)
			return r;
		eq = memchr(l->p, '=', (size_t)(l->end - l->p));
		k = eq ? trial_key_of(l->p, (size_t)(eq - l->p)) : -1;
		if (k < 0)
			return field_bad(l, "an unknown counter");
		if (s->have & TK_BIT(k))
			return field_bad(l, "a counter twice");
		l->p = eq + 1;
		if ((r = field_u64(l, UINT64_MAX, &s->v[k], "counter value")) < 0)
			return r;
		s->have |= TK_BIT(k);
	}
	return 0;
}

static int spread_line(struct parser *ps)
{
	struct field_line *l = &ps->l;
	struct trial_spread *sp;
	uint64_t sd, min, max, n;
	char name[32];
	int m, node, r;

	if (!field_word(l, name, sizeof(name)) || (m = trial_metric_of(name)) < 0)
		return field_bad(l, "an unknown metric");
	if ((r = field_sep(l, false)) < 0 || (r = scope(l, NULL, &node)) < 0)
		return r;
	if (trial_spreads_find(&ps->t->spreads, m, node))
		return field_bad(l, "a spread twice");
	if ((r = field_sep(l, false)) < 0 || (r = field_u64(l, UINT32_MAX, &n, "count")) < 0 ||
	    (r = field_sep(l, false)) < 0 || (r = field_u64(l, UINT64_MAX, &sd, "sd")) < 0 ||
	    (r = field_sep(l, false)) < 0 || (r = field_u64(l, UINT64_MAX, &min, "min")) < 0 ||
	    (r = field_sep(l, false)) < 0 || (r = field_u64(l, UINT64_MAX, &max, "max")) < 0 ||
	    (r = field_sep(l, true)) < 0)
		return r;
	if (min > max)
		return field_bad(l, "a least value above the largest");
	if (!(sp = trial_spreads_new(&ps->t->spreads, m, node)))
		return -ENOMEM;
	sp->n = n;
	sp->sd = (double)sd / 1000;
	sp->min = (double)min / 1000;
	sp->max = (double)max / 1000;
	return 0;
}

static int ended_line(struct parser *ps)
{
	struct field_line *l = &ps->l;
	int r;

	if (field_take(l, "confirmed"))
		ps->t->state = TRIAL_CONFIRMED;
	else if (field_take(l, "reverted"))
		ps->t->state = TRIAL_REVERTED;
	else
		return field_bad(l, "no valid end (confirmed or reverted)");
	if ((r = field_sep(l, false)) < 0 || (r = ns_field(l, &ps->t->ended_ns, "time")) < 0)
		return r;
	ps->stage = AT_END;
	return field_sep(l, true);
}

static int end_line(struct parser *ps)
{
	uint64_t n;
	int r = field_u64(&ps->l, UINT32_MAX, &n, "line count after 'end'");

	if (r < 0)
		return r;
	if (n != ps->lines)
		return field_bad(&ps->l, "the line count does not match the lines");
	ps->stage = DONE;
	return field_sep(&ps->l, true);
}

/* After the count lines of reading cur: what may follow it. */
static enum stage after_counts(int cur)
{
	return cur == TRIAL_BASE_END ? AT_SPREADS : cur == TRIAL_END ? AT_ENDED : AT_KNOBS;
}

static int line(struct parser *ps)
{
	struct field_line *l = &ps->l;

	if (ps->stage == AT_HEADER) {
		ps->stage = AT_TRIAL;
		return header(ps);
	}
	if (ps->stage == DONE)
		return field_bad(l, "a line after the end line");
	ps->lines++;
	if (ps->stage == AT_TRIAL) {
		ps->stage = AT_KNOBS;
		return trial_line(ps);
	}
	if (ps->stage == AT_COUNTS && field_take(l, "count "))
		return count_line(ps);
	if (ps->stage == AT_COUNTS && !ps->t->reading[ps->cur].n)
		return field_bad(l, "a reading without its counts");
	if (ps->stage == AT_COUNTS)
		ps->stage = after_counts(ps->cur);
	if (ps->stage == AT_KNOBS && ps->cur < 0 && field_take(l, "knob "))
		return knob_line(ps);
	if (ps->stage == AT_SPREADS && field_take(l, "spread "))
		return spread_line(ps);
	if ((ps->stage == AT_KNOBS || ps->stage == AT_SPREADS) && field_take(l, "reading "))
		return reading_line(ps);
	if (ps->stage == AT_ENDED && field_take(l, "ended "))
		return ended_line(ps);
	if ((ps->stage == AT_END || (ps->stage == AT_KNOBS && ps->cur == TRIAL_START)) &&
	    field_take(l, "end ")) {
		ps->lines--;
		return end_line(ps);
	}
	return field_bad(l, "a line out of place");
}

int trial_parse(const char *buf, size_t len, const char *path, struct trial *t, char *why,
		size_t whylen)
{
	struct parser ps = {
		.l = { .path = path, .kind = "a trial file", .why = why, .whylen = whylen },
		.t = t,
		.cur = -1
	};
	const char *p = buf, *end = buf + len;
	int r = 0;

	*t = (struct trial){ 0 };
	if (len == 0) {
		snprintf(why, whylen, "%s: empty: not a trial file", path);
		return -EBADMSG;
	}
	while (r == 0 && field_next(&p, end, &ps.l))
		if ((r = field_whole(&ps.l, end, &ps.l)) == 0)
			r = line(&ps);
	if (r == 0 && ps.stage != DONE)
		r = field_bad(&ps.l, ps.t->reading[TRIAL_START].n
					     ? "no end line (the file was cut short)"
					     : "no start reading");
	if (r == -ENOMEM)
		snprintf(why, whylen, "%s: %s", path, strerror(ENOMEM));
	if (r < 0)
		trial_free(t);
	return r;
}

int trial_load(int dirfd, const char *dir, struct trial *t, char *why, size_t whylen)
{
	char path[4200], *buf = NULL;
	FILE *f;
	ssize_t n;
	int fd, r;

	*t = (struct trial){ 0 };
	snprintf(path, sizeof(path), "%s/" TRIAL_FILE, dir);
	fd = statedir_open_file(dirfd, dir, TRIAL_FILE, why, whylen);
	if (fd < 0)
		return fd;
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		snprintf(why, whylen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	n = slurp_stream(f, TRIAL_FILE_MAX, &buf);
	fclose(f);
	if (n >= 0 && !buf)
		n = -ENOMEM;
	if (n < 0) {
		snprintf(why, whylen, "%s: %s", path,
			 n == -EFBIG ? "larger than a trial file can be" : strerror((int)-n));
		return (int)n;
	}
	r = trial_parse(buf, (size_t)n, path, t, why, whylen);
	free(buf);
	if (r == 0 && state_check_system(&t->point, path, why, whylen) < 0) {
		trial_free(t);
		r = -EXDEV;
	}
	return r;
}
