// SPDX-License-Identifier: GPL-2.0-or-later
/* The revert file: its format is described in state.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "fields.h"
#include "slurp.h"
#include "state.h"
#include "statedir.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

#define MAGIC "numastatctl-revert"
#define STASH_FILE "." STATE_REVERT_FILE ".prev"
/* The format of numastatctl 0.1.0: three comment lines, then "name = value" lines. */
#define V1_HEADER "# numastatctl revert state: 'numastatctl revert' writes these back"
#define V1_WHAT "# values before "
#define V1_FOR "# for "
#define V1_SIDE_EFFECT "# a side effect of the change above, restored last:"
#define FLAG_SIDE_EFFECT "side-effect"

/* ---- writing ---- */

void state_this_system(struct state_point *h)
{
	char real[PATH_MAX];

	h->live = sysfs_is_live();
	h->sysroot[0] = '\0';
	if (!h->live)
		str_copy(h->sysroot, realpath(sysfs_root(), real) ? real : sysfs_root(),
			 sizeof(h->sysroot));
}

/* Nanoseconds since the epoch and 64 random bits: no two revert points share it. */
static void new_id(char *buf, size_t len)
{
	struct timespec ts;
	uint64_t rnd;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
		rnd = ((uint64_t)getpid() << 40) ^ (uint64_t)clock() ^ (uint64_t)ts.tv_nsec;
	snprintf(buf, len, "%" PRIu64 "-%016" PRIx64,
		 (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, rnd);
}

/* The records of the plan's ACT_WRITE items that are (or are not) side effects. */
static unsigned put_records(FILE *f, const struct plan *p, bool side_effects)
{
	unsigned count = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action != ACT_WRITE || it->side_effect != side_effects)
			continue;
		fprintf(f, "knob %s ", it->ref.name);
		field_put_string(f, it->old.text);
		fputc(' ', f);
		field_put_string(f, it->want.text);
		fputs(side_effects ? " " FLAG_SIDE_EFFECT "\n" : " -\n", f);
		count++;
	}
	return count;
}

static void put_file(FILE *f, const struct state_point *h, const struct plan *p)
{
	unsigned count;

	fprintf(f, MAGIC " %d id=%s for=", STATE_FORMAT, h->id);
	if (h->live)
		fputs("live", f);
	else
		field_put_string(f, h->sysroot);
	fprintf(f, " at=%s by=", h->at);
	field_put_string(f, h->by);
	fputc('\n', f);
	count = put_records(f, p, false);
	/* What the kernel changed on its own comes back last, after what caused it. */
	count += put_records(f, p, true);
	fprintf(f, "end %u\n", count);
}

int state_save_prior(int dirfd, const char *dir, const struct plan *p, const char *by,
		     struct state_point *saved, char *why, size_t whylen)
{
	struct state_point h = { .version = STATE_FORMAT };
	time_t now = time(NULL);
	struct atomic_file af;
	struct tm tm;
	int r;

	new_id(h.id, sizeof(h.id));
	strftime(h.at, sizeof(h.at), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	str_copy(h.by, by ? by : "a change", sizeof(h.by));
	state_this_system(&h);
	r = atomic_file_beginat(&af, dirfd, STATE_REVERT_FILE, 0600);
	if (r == 0) {
		put_file(af.f, &h, p);
		/* What revert would refuse to read is never saved. */
		if (ftell(af.f) > STATE_REVERT_MAX) {
			atomic_file_abort(&af);
			r = -EFBIG;
		} else
			r = atomic_file_commit(&af);
	}
	if (r == -EFBIG)
		snprintf(why, whylen,
			 "cannot save the revert point in %s: it would be larger than %d KiB "
			 "(too many knobs in one change)",
			 dir, STATE_REVERT_MAX / 1024);
	else if (r < 0)
		snprintf(why, whylen, "cannot save the revert point in %s: %s", dir, strerror(-r));
	else if (saved)
		*saved = h;
	return r;
}

/* ---- reading ---- */

bool state_valid_id(const char *s)
{
	size_t digits = strspn(s, "0123456789");

	return digits >= 1 && digits <= 20 && s[digits] == '-' &&
	       strspn(s + digits + 1, "0123456789abcdef") == 16 && s[digits + 17] == '\0';
}

bool state_valid_time(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";

	for (size_t i = 0; i < sizeof(shape); i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return false;
	return true;
}

static int header(struct field_line *l, struct state_point *h)
{
	char version[16];
	int r;

	if (!field_take(l, MAGIC " "))
		return field_bad(l, "the first line is not a numastatctl-revert header");
	if (!field_word(l, version, sizeof(version)) ||
	    strspn(version, "0123456789") != strlen(version))
		return field_bad(l, "no format version");
	if (strcmp(version, "2") != 0) {
		snprintf(l->why, l->whylen,
			 "%s: revert file format %s, which this numastatctl does not read "
			 "(it reads format %d)",
			 l->path, version, STATE_FORMAT);
		return -EBADMSG;
	}
	h->version = STATE_FORMAT;
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "id=") || !field_word(l, h->id, sizeof(h->id)) || !state_valid_id(h->id))
		return field_bad(l, "no valid id=");
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "for="))
		return field_bad(l, "no for=");
	h->live = field_take(l, "live");
	if (!h->live && ((r = field_string(l, h->sysroot, sizeof(h->sysroot), "for=")) < 0))
		return r;
	if (!h->live && !h->sysroot[0])
		return field_bad(l, "an empty for=");
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "at=") || !field_word(l, h->at, sizeof(h->at)) ||
	    !state_valid_time(h->at))
		return field_bad(l, "no valid at=");
	if ((r = field_sep(l, false)) < 0)
		return r;
	if (!field_take(l, "by="))
		return field_bad(l, "no by=");
	if ((r = field_string(l, h->by, sizeof(h->by), "by=")) < 0)
		return r;
	return field_sep(l, true);
}

/*
 * "-", or flag words joined by ','.  Only "side-effect" is known: another
 * one, which a later version wrote, would change what revert must do.
 */
static int flags(struct field_line *l, bool *side_effect)
{
	char words[64], msg[WHY_MAX];

	*side_effect = false;
	if (field_take(l, "-"))
		return field_sep(l, true);
	if (!field_word(l, words, sizeof(words)))
		return field_bad(l, "no flags");
	if (strspn(words, "abcdefghijklmnopqrstuvwxyz-,") != strlen(words))
		return field_bad(l, "flags that are not words");
	if (words[strlen(words) - 1] == ',')
		return field_bad(l, "a flag that is empty or given twice");
	for (const char *w = words; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) {
		size_t n = strcspn(w, ",");
		bool known = n == strlen(FLAG_SIDE_EFFECT) && strncmp(w, FLAG_SIDE_EFFECT, n) == 0;

		if (n == 0 || (known && *side_effect))
			return field_bad(l, "a flag that is empty or given twice");
		if (!known) {
			snprintf(msg, sizeof(msg), "flag '%.*s' is not known to this numastatctl",
				 (int)n, w);
			return field_bad(l, msg);
		}
		*side_effect = true;
	}
	return field_sep(l, true);
}

/*
 * The item of knob name: before is the value to restore, exactly as saved
 * (format 1: as the kernel printed it, taken as a read would), written
 * what the change wrote (NULL in format 1, which did not say).
 */
static int add_item(struct field_line *l, struct plan *out, const char *name, const char *before,
		    const struct kval *written, bool side_effect)
{
	char origin[sizeof(out->items->origin)], msg[WHY_MAX];
	struct knob_ref ref;
	struct kval v;
	int r;

	if (knob_resolve(name, &ref, msg, sizeof(msg)) < 0) {
		snprintf(l->why, l->whylen, "%s:%u: %s", l->path, l->no, msg);
		return -EBADMSG;
	}
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->items[i].ref.name, ref.name) == 0)
			return field_bad(l, "a knob saved twice");
	/* Side effects are restored last: the writer puts them last, nothing else does. */
	if (!side_effect && out->n && out->items[out->n - 1].side_effect)
		return field_bad(l, "a knob after the side effects");
	if (written)
		str_copy(v.text, before, sizeof(v.text));
	else
		knob_parse_live(&ref, before, &v);
	snprintf(origin, sizeof(origin), "%s:%u", l->path, l->no);
	r = plan_add(out, &ref, &v, true, origin);
	if (r == 0) {
		out->items[out->n - 1].side_effect = side_effect;
		out->items[out->n - 1].have_written = written != NULL;
		if (written)
			out->items[out->n - 1].written = *written;
	}
	return r;
}

static int record(struct field_line *l, struct plan *out)
{
	char name[KNOB_NAME_MAX];
	struct kval before, written;
	bool side_effect;
	int r;

	if (!field_take(l, "knob "))
		return field_bad(l, "not a knob record");
	if (!field_word(l, name, sizeof(name)))
		return field_bad(l, "no knob name");
	if ((r = field_sep(l, false)) < 0 ||
	    (r = field_string(l, before.text, KVAL_MAX, "a value")) < 0 ||
	    (r = field_sep(l, false)) < 0 ||
	    (r = field_string(l, written.text, KVAL_MAX, "a value")) < 0 ||
	    (r = field_sep(l, false)) < 0 || (r = flags(l, &side_effect)) < 0)
		return r;
	return add_item(l, out, name, before.text, &written, side_effect);
}

static int end_line(struct field_line *l, size_t records)
{
	char count[24];
	uint64_t n;

	if (!field_word(l, count, sizeof(count)) || parse_u64(count, UINT64_MAX, &n) < 0)
		return field_bad(l, "no record count after 'end'");
	if (n != records)
		return field_bad(l, "the record count does not match the records");
	return field_sep(l, true);
}

static int parse_v2(const char *buf, size_t len, struct field_line *l, struct plan *out,
		    struct state_point *h)
{
	const char *p = buf, *end = buf + len;
	bool ended = false;
	int r = 0;

	while (r == 0 && field_next(&p, end, l)) {
		if ((r = field_whole(l, end, l)) < 0)
			break;
		if (l->no == 1)
			r = header(l, h);
		else if (ended)
			r = field_bad(l, "a line after the end line");
		else if (field_take(l, "end "))
			r = end_line(l, out->n), ended = r == 0;
		else
			r = record(l, out);
	}
	if (r == 0 && !ended)
		r = field_bad(l, "no end line (the file was cut short)");
	return r;
}

/* ---- the format of numastatctl 0.1.0 ---- */

/* "name = value", as 0.1.0 wrote and read it (parse_v1() refused control characters). */
static int v1_record(struct field_line *l, struct plan *out, bool side_effect)
{
	char text[1024], *eq, *value;
	size_t n = (size_t)(l->end - l->p);

	if (n >= sizeof(text))
		return field_bad(l, "line too long");
	memcpy(text, l->p, n);
	text[n] = '\0';
	eq = strchr(text, '=');
	if (text[0] == '#' || !eq)
		return field_bad(l, "expected 'knob = value'");
	*eq = '\0';
	value = str_strip(eq + 1);
	if (!*value || strlen(value) >= KVAL_MAX)
		return field_bad(l, *value ? "value too long" : "no value");
	return add_item(l, out, str_strip(text), value, NULL, side_effect);
}

/* Its second line, "# values before 'set' at 2026-...Z". */
static int v1_what(struct field_line *l, struct state_point *h)
{
	char text[256];
	size_t n = (size_t)(l->end - l->p);
	char *at;

	if (!field_take(l, V1_WHAT) || n >= sizeof(text) || l->p == l->end || *l->p != '\'')
		return field_bad(l, "expected '" V1_WHAT "'...' at ...'");
	n = (size_t)(l->end - l->p);
	memcpy(text, l->p + 1, n - 1);
	text[n - 1] = '\0';
	at = strstr(text, "' at ");
	if (!at || !state_valid_time(at + 5))
		return field_bad(l, "expected '" V1_WHAT "'...' at ...'");
	*at = '\0';
	str_copy(h->by, text, sizeof(h->by));
	str_copy(h->at, at + 5, sizeof(h->at));
	return 0;
}

/* Its third line: "# for the live system" or "# for --sysroot PATH". */
static int v1_for(struct field_line *l, struct state_point *h)
{
	size_t n;

	if (!field_take(l, V1_FOR))
		return field_bad(l, "expected '" V1_FOR "...'");
	h->live = field_take(l, "the live system") && l->p == l->end;
	if (h->live)
		return 0;
	if (!field_take(l, "--sysroot ") || l->p == l->end)
		return field_bad(l, "expected '" V1_FOR "the live system' or '" V1_FOR
				    "--sysroot PATH'");
	n = (size_t)(l->end - l->p);
	if (n >= sizeof(h->sysroot))
		return field_bad(l, "line too long");
	memcpy(h->sysroot, l->p, n);
	h->sysroot[n] = '\0';
	return 0;
}

/*
 * The header is the first three lines and nothing else: a '#' line later is
 * refused, but for the one that says the next knob is a side effect.
 */
static int parse_v1(const char *buf, size_t len, struct field_line *l, struct plan *out,
		    struct state_point *h)
{
	const char *p = buf, *end = buf + len;
	bool side_effect = false;
	int r = 0;

	h->version = 1;
	while (r == 0 && field_next(&p, end, l)) {
		if ((r = field_whole(l, end, l)) < 0)
			break;
		for (const char *c = l->p; c < l->end; c++)
			if (*c < 0x20 || *c == 0x7f)
				return field_bad(l, "a control character");
		if (l->no == 1)
			r = field_is(l, V1_HEADER) ? 0 : field_bad(l, "not a header");
		else if (l->no == 2)
			r = v1_what(l, h);
		else if (l->no == 3)
			r = v1_for(l, h);
		else if (!side_effect && field_is(l, V1_SIDE_EFFECT))
			side_effect = true;
		else {
			r = v1_record(l, out, side_effect);
			side_effect = false;
		}
	}
	if (r == 0 && l->no < 3)
		r = field_bad(l, "a header of fewer than three lines");
	if (r == 0 && side_effect)
		r = field_bad(l, "no knob after the side effect line");
	return r;
}

int state_parse_prior(const char *buf, size_t len, const char *path, struct plan *out,
		      struct state_point *h, char *why, size_t whylen)
{
	struct field_line l = {
		.path = path, .kind = "a revert file", .why = why, .whylen = whylen
	};
	int r;

	*h = (struct state_point){ 0 };
	if (len == 0) {
		snprintf(why, whylen, "%s: empty: not a revert file", path);
		return -EBADMSG;
	}
	if (len > strlen(V1_HEADER) && memcmp(buf, V1_HEADER "\n", strlen(V1_HEADER) + 1) == 0)
		r = parse_v1(buf, len, &l, out, h);
	else
		r = parse_v2(buf, len, &l, out, h);
	return r < 0 ? r : (int)out->n;
}

static void system_name(const struct state_point *h, char *buf, size_t len)
{
	if (h->live)
		snprintf(buf, len, "the live system");
	else
		snprintf(buf, len, "--sysroot %s", h->sysroot);
}

int state_check_system(const struct state_point *h, const char *path, char *why, size_t whylen)
{
	struct state_point here;
	char saved[PATH_MAX + 16], now[PATH_MAX + 16];

	state_this_system(&here);
	if (h->live == here.live && (h->live || strcmp(h->sysroot, here.sysroot) == 0))
		return 0;
	system_name(h, saved, sizeof(saved));
	system_name(&here, now, sizeof(now));
	snprintf(why, whylen, "%s: saved for %s, not for %s", path, saved, now);
	return -EXDEV;
}

static int read_file(int fd, const char *path, char **buf, char *why, size_t whylen)
{
	FILE *f = fdopen(fd, "r");
	ssize_t n;

	if (!f) {
		int e = errno;

		n = e > 0 ? -e : -ENOMEM;
		close(fd);
	} else {
		n = slurp_stream(f, STATE_REVERT_MAX, buf);
		fclose(f);
	}
	if (n < 0)
		snprintf(why, whylen, "%s: %s", path,
			 n == -EFBIG ? "larger than a revert file can be" : strerror((int)-n));
	return (int)n;
}

int state_load_prior(int dirfd, const char *dir, struct plan *out, struct state_point *h, char *why,
		     size_t whylen)
{
	char path[4200], *buf = NULL;
	int fd, n, r;

	snprintf(path, sizeof(path), "%s/" STATE_REVERT_FILE, dir);
	*h = (struct state_point){ 0 };
	fd = statedir_open_file(dirfd, dir, STATE_REVERT_FILE, why, whylen);
	if (fd < 0)
		return fd;
	n = read_file(fd, path, &buf, why, whylen);
	if (n >= 0 && !buf) {
		snprintf(why, whylen, "%s: %s", path, strerror(ENOMEM));
		n = -ENOMEM;
	}
	r = n < 0 ? n : state_parse_prior(buf, (size_t)n, path, out, h, why, whylen);
	free(buf);
	if (r >= 0 && state_check_system(h, path, why, whylen) < 0)
		r = -EXDEV;
	return r;
}

int state_clear_prior(int dirfd)
{
	if (unlinkat(dirfd, STATE_REVERT_FILE, 0) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

void state_stash_prior(int dirfd)
{
	unlinkat(dirfd, STASH_FILE, 0);
	/* A link, not a copy: the revert file stays in place until it is replaced. */
	if (linkat(dirfd, STATE_REVERT_FILE, dirfd, STASH_FILE, 0) < 0 && errno != ENOENT)
		unlinkat(dirfd, STASH_FILE, 0);
}

void state_unstash_prior(int dirfd, bool restore)
{
	if (!restore)
		unlinkat(dirfd, STASH_FILE, 0);
	else if (renameat(dirfd, STASH_FILE, dirfd, STATE_REVERT_FILE) < 0 && errno == ENOENT)
		unlinkat(dirfd, STATE_REVERT_FILE, 0); /* nothing was saved before this change */
}
