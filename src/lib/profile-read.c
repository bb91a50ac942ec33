// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading numastatctl.conf: which files, whether root may trust them, and
 * their lines through inih.  inih as packaged (r55) has no line numbers in
 * its handler, reports only the first syntax error, silently splits lines
 * over 199 characters and cuts section names over 49; so every line passes
 * through our own reader first, which counts lines, checks what inih would
 * get wrong, reports it with file:line and hands inih a harmless line instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "array.h"
#include "profile-parse.h"

/* A physical line is read up to this many bytes; the rest is only counted. */
#define RAW_LINE_MAX 1024

struct pending {
	bool set;
	struct cfg_at at;
	int section;
	char key[PROFILE_LINE_MAX + 1];
	char value[PROFILE_VALUE_MAX];
	bool too_long;
};

struct reader {
	struct profile_config *c;
	const char *next, *end; /* the unread part of the file, in memory */
	struct cfg_at at;       /* the line just handed to inih */
	int section;            /* current section id (profile-parse.h) */
	bool key_seen;          /* inih's prev_name: indented lines continue it */
	bool continuation;      /* the line just handed over is a continuation */
	struct pending pend;    /* the last assignment, until no continuation can follow */
	/* Every section header of this file: none may appear twice, however many. */
	struct seen {
		int id;
		unsigned line;
	} * seen;
	size_t nseen, capseen;
};

static bool is_space(char ch)
{
	return ch && strchr(" \t\v\f\r\n", ch);
}

static void flush(struct reader *r)
{
	struct pending *p = &r->pend;

	if (!p->set)
		return;
	p->set = false;
	if (p->too_long)
		profile_parse_error(r->c, p->at, p->section,
				    "'%s': value longer than %d characters", p->key,
				    PROFILE_VALUE_MAX - 1);
	else
		profile_parse_assign(r->c, p->at, p->section, p->key, p->value);
}

/* The inih handler: called right after our reader handed over the line. */
static int on_pair(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	struct pending *p = &r->pend;
	size_t len, comment_cut = strlen(value);

	if (r->continuation) {
		/* inih keeps a ';' comment on a continuation line; other lines lose it. */
		for (const char *c = value; *c; c++)
			if (*c == ';' && c > value && is_space(c[-1])) {
				comment_cut = (size_t)(c - value);
				break;
			}
		len = strlen(p->value);
		if (!p->set)
			return 1;
		while (comment_cut > 0 && is_space(value[comment_cut - 1]))
			comment_cut--;
		if (len + 1 + comment_cut >= sizeof(p->value))
			p->too_long = true;
		else
			snprintf(p->value + len, sizeof(p->value) - len, "%s%.*s", len ? " " : "",
				 (int)comment_cut, value);
		return 1;
	}
	flush(r);
	*p = (struct pending){ .set = true,
			       .at = r->at,
			       .section = section[0] ? r->section : SEC_NONE };
	snprintf(p->key, sizeof(p->key), "%s", name);
	snprintf(p->value, sizeof(p->value), "%s", value);
	return 1;
}

/*
 * The next physical line into buf (without "\n"); *len is its full length
 * even when longer than buf.  false at the end of the file.
 */
static bool raw_line(struct reader *r, char *buf, size_t size, size_t *len, bool *nul)
{
	const char *start = r->next, *nl;

	if (start == r->end)
		return false;
	nl = memchr(start, '\n', (size_t)(r->end - start));
	*len = (size_t)((nl ? nl : r->end) - start);
	r->next = nl ? nl + 1 : r->end;
	*nul = memchr(start, '\0', *len) != NULL;
	memcpy(buf, start, *len < size - 1 ? *len : size - 1);
	buf[*len < size - 1 ? *len : size - 1] = '\0';
	return true;
}

#define BOM "\xEF\xBB\xBF"

/* What inih would get wrong on this physical line; false after reporting it. */
static bool check_line(struct reader *r, char *raw, size_t *len, bool nul)
{
	/* CRLF line ends are fine (files edited elsewhere); inih strips the '\r' too. */
	if (*len > 0 && *len < RAW_LINE_MAX && raw[*len - 1] == '\r')
		raw[--*len] = '\0';
	if (r->at.line == 1 && strncmp(raw, BOM, 3) == 0) {
		memmove(raw, raw + 3, strlen(raw + 3) + 1);
		*len -= 3;
	}
	if (nul)
		profile_parse_error(r->c, r->at, r->section, "NUL byte in the line");
	else if (*len > PROFILE_LINE_MAX)
		profile_parse_error(r->c, r->at, r->section,
				    "line is %zu characters long: at most %d are "
				    "allowed",
				    *len, PROFILE_LINE_MAX);
	else if (strstr(raw, BOM))
		profile_parse_error(r->c, r->at, r->section,
				    "byte order mark inside the file: only one at "
				    "the very start is allowed");
	else if (strchr(raw, '\r'))
		profile_parse_error(r->c, r->at, r->section,
				    "carriage return inside the line: end lines "
				    "with LF or CRLF");
	else
		return true;
	return false;
}

/* Where inih ends a header or key: at one of chars, or at an inline ';' comment. */
static char *find_end(char *s, const char *chars)
{
	for (char *p = s; *p; p++) {
		if (strchr(chars, *p))
			return p;
		if (*p == ';' && p > s && is_space(p[-1]))
			return p;
	}
	return s + strlen(s);
}

static bool seen_before(struct reader *r, int id)
{
	for (size_t i = 0; i < r->nseen; i++)
		if (r->seen[i].id == id) {
			profile_parse_error(r->c, r->at, SEC_NONE,
					    "section [%s%s] appears twice in this file "
					    "(first at line %u)",
					    id == SEC_MAIN ? "" : "profile ",
					    id == SEC_MAIN ? "numastatctl"
							   : r->c->profiles[id].name,
					    r->seen[i].line);
			return true;
		}
	if (array_grow(&r->seen, &r->capseen, r->nseen + 1, sizeof(*r->seen)) < 0) {
		r->c->out_of_memory = true; /* the load fails: nothing is merged unseen */
		return false;
	}
	r->seen[r->nseen++] = (struct seen){ id, r->at.line };
	return false;
}

/* A "[...]" line: our own parse, so names are neither cut nor left untrimmed. */
static const char *header(struct reader *r, char *s)
{
	char *end = find_end(s + 1, "]"), *rest;
	int id = SEC_BROKEN;

	flush(r);
	r->key_seen = false;
	rest = end + (*end == ']');
	rest += strspn(rest, " \t\v\f");
	if (*end != ']')
		profile_parse_error(r->c, r->at, SEC_NONE, "unclosed section header: expected ']'");
	else if (*rest && *rest != ';')
		profile_parse_error(r->c, r->at, SEC_NONE,
				    "unexpected text after ']': comments start with ';'");
	else if (end - s - 1 > PROFILE_SECTION_MAX)
		profile_parse_error(r->c, r->at, SEC_NONE,
				    "section name is %td characters long: at most %d "
				    "are allowed",
				    end - s - 1, PROFILE_SECTION_MAX);
	else {
		*end = '\0';
		id = profile_parse_section(r->c, r->at, s + 1);
		if (id != SEC_BROKEN && seen_before(r, id))
			id = SEC_BROKEN;
	}
	r->section = id;
	/* inih only needs to know a section began; the id is ours. */
	return id == SEC_BROKEN ? "[!]" : "[s]";
}

static const char *classify(struct reader *r, char *raw)
{
	char *s = raw + strspn(raw, " \t\v\f"), *end, *k;

	if (!*s || *s == ';' || *s == '#')
		return raw;
	if (s > raw && r->key_seen) {
		/* inih (like Python's configparser) continues the previous value. */
		if (*s != '[') {
			r->continuation = true;
			return raw;
		}
		profile_parse_error(r->c, r->at, r->section,
				    "indented section header: it would continue the "
				    "value of '%s'; remove the indentation",
				    r->pend.key);
		return "";
	}
	if (*s == '[')
		return header(r, s);
	end = find_end(s, "=:");
	if (*end != '=' && *end != ':') {
		profile_parse_error(r->c, r->at, r->section,
				    "expected 'key = value', '[section]' or a "
				    "comment, got '%.40s'",
				    s);
		return "";
	}
	for (k = end; k > s && is_space(k[-1]); k--)
		;
	r->key_seen = k > s;
	return raw;
}

static char *next_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	char raw[RAW_LINE_MAX];
	const char *hand = "";
	size_t len;
	bool nul;

	if (!raw_line(r, raw, sizeof(raw), &len, &nul))
		return NULL;
	r->at.line++;
	r->continuation = false;
	if (check_line(r, raw, &len, nul))
		hand = classify(r, raw);
	snprintf(str, (size_t)num, "%s", hand);
	return str;
}

/* Root applies what these files say: nobody else may be able to change them. */
static bool trusted(struct profile_config *c, const char *path, const struct stat *st)
{
	if (st->st_uid != 0)
		profile_parse_error_path(c, path,
					 "owned by uid %u, not by root: refusing it "
					 "(run 'chown root %s')",
					 (unsigned)st->st_uid, path);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		profile_parse_error_path(c, path,
					 "writable by group or others: refusing it "
					 "(run 'chmod go-w %s')",
					 path);
	else
		return true;
	return false;
}

/* The whole file into *buf (malloc'ed); its length, or -1 after recording why. */
static ssize_t slurp(struct profile_config *c, const char *path, int fd, size_t size, char **buf)
{
	size_t len = 0;
	ssize_t n;

	/* One byte more than fstat said: the read that returns 0 proves the end. */
	*buf = malloc(size + 1);
	if (!*buf) {
		c->out_of_memory = true;
		return -1;
	}
	while (len <= size && (n = read(fd, *buf + len, size + 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			profile_parse_error_path(c, path, "cannot read: %s", strerror(errno));
			free(*buf);
			*buf = NULL; /* the caller frees what it gets back */
			return -1;
		}
		len += (size_t)n;
	}
	if (len > size) {
		profile_parse_error_path(c, path, "changed while being read");
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return (ssize_t)len;
}

/* The file's bytes (NULL: nothing to read, or a problem already recorded). */
static char *read_config(struct profile_config *c, const char *path, unsigned flags, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	char *buf = NULL;
	struct stat st;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0) {
		profile_parse_error_path(c, path, "cannot read: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	/* --config /dev/null: an empty configuration, as with systemd. */
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
		;
	else if (!S_ISREG(st.st_mode))
		profile_parse_error_path(c, path, "not a regular file");
	else if (st.st_size > PROFILE_FILE_MAX)
		profile_parse_error_path(c, path, "larger than %d bytes: not a configuration file",
					 PROFILE_FILE_MAX);
	else if (!(flags & PROFILE_CHECK_OWNER) || trusted(c, path, &st)) {
		n = slurp(c, path, fd, (size_t)st.st_size, &buf);
		*len = n < 0 ? 0 : (size_t)n;
	}
	close(fd);
	return buf;
}

static int parse_file(struct profile_config *c, unsigned idx, unsigned flags)
{
	struct reader r = { .c = c, .at = { idx, 0 }, .section = SEC_NONE };
	size_t len = 0;
	char *buf = read_config(c, c->files[idx], flags, &len);
	int ret;

	if (!buf)
		return 0;
	r.next = buf;
	r.end = buf + len;
	ret = ini_parse_stream(next_line, &r, on_pair, &r);
	flush(&r);
	free(r.seen);
	free(buf);
	if (ret == -2)
		return -ENOMEM;
	/* Every line inih could refuse was replaced; this is only a safety net. */
	if (ret > 0)
		profile_parse_error(c, (struct cfg_at){ idx, (unsigned)ret }, SEC_NONE,
				    "syntax error");
	return 0;
}

/* One drop-in: its name and the layer (index into dirs) it comes from. */
struct dropin {
	char *name;
	size_t layer;
};

struct dropins {
	struct dropin *v;
	size_t n, cap;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct dropin *)a)->name, ((const struct dropin *)b)->name);
}

static const struct dropin *dropin_find(const struct dropins *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

/* Remember that path is overridden by the file of the same name in layer by (a path). */
static int add_masked(struct profile_config *c, const char *path, const char *by)
{
	struct profile_masked *m;

	if (array_grow(&c->masked, &c->capmasked, c->nmasked + 1, sizeof(*c->masked)) < 0)
		return -ENOMEM;
	m = &c->masked[c->nmasked];
	if (!(m->path = strdup(path)) || !(m->by = strdup(by))) {
		free(m->path);
		return -ENOMEM;
	}
	c->nmasked++;
	return 0;
}

static void dropin_path(const char *const *dirs, const struct dropin *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s/numastatctl.d/%s", dirs[d->layer], d->name);
}

/*
 * The *.conf names of one layer's numastatctl.d into l: a name a higher
 * layer has already is overridden by it (and remembered as such).
 */
static int list_dir(struct profile_config *c, DIR *d, const char *const *dirs, size_t layer,
		    struct dropins *l)
{
	char path[4096], by[4096];
	const struct dropin *seen;
	struct dirent *e;

	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".conf") != 0)
			continue;
		if ((seen = dropin_find(l, e->d_name))) {
			snprintf(path, sizeof(path), "%s/numastatctl.d/%s", dirs[layer], e->d_name);
			dropin_path(dirs, seen, by, sizeof(by));
			if (add_masked(c, path, by) < 0)
				return -ENOMEM;
			continue;
		}
		/* A drop-in left out would change what applies. */
		if (array_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0 ||
		    !(l->v[l->n].name = strdup(e->d_name)))
			return -ENOMEM;
		l->v[l->n++].layer = layer;
	}
	return 0;
}

static int list_dropins(struct profile_config *c, const char *const *dirs, size_t layer,
			unsigned flags, struct dropins *l)
{
	char dir[4096];
	struct stat st;
	int fd, ret;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/numastatctl.d", dirs[layer]);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) < 0 || !(d = fdopendir(fd))) {
		profile_parse_error_path(c, dir, "cannot read the directory: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* Whoever can add a file here can change what root applies. */
	if ((flags & PROFILE_CHECK_OWNER) && !trusted(c, dir, &st)) {
		closedir(d);
		return 0;
	}
	ret = list_dir(c, d, dirs, layer, l);
	closedir(d);
	return ret;
}

/*
 * The main file: numastatctl.conf of the highest layer that has one (a file
 * that cannot be read counts: its problem is reported); the same name in
 * the lower layers is overridden.
 */
static int main_file(struct profile_config *c, const char *const *dirs)
{
	char path[4096], *chosen = NULL;
	struct stat st;
	int ret = 0;

	for (size_t i = 0; dirs[i] && ret == 0; i++) {
		snprintf(path, sizeof(path), "%s/numastatctl.conf", dirs[i]);
		if (stat(path, &st) < 0 && errno == ENOENT)
			continue;
		if (chosen)
			ret = add_masked(c, path, chosen);
		else if (profile_parse_add_file(c, path) < 0)
			ret = -ENOMEM;
		else
			chosen = c->files[c->nfiles - 1];
	}
	return ret;
}

int profile_config_files(struct profile_config *c, const char *file, const char *const *dirs,
			 unsigned flags)
{
	struct dropins l = { 0 };
	char path[4096];
	int ret;

	if (file)
		return profile_parse_add_file(c, file) < 0 ? -ENOMEM : 0;
	/* No file at all is fine: status and `profiles` still work, apply needs a name. */
	ret = main_file(c, dirs);
	for (size_t i = 0; dirs[i] && ret == 0; i++)
		ret = list_dropins(c, dirs, i, flags, &l);
	/* Drop-ins of every layer in one name order: a later name wins key by key. */
	if (l.n > 1)
		qsort(l.v, l.n, sizeof(*l.v), by_name);
	for (size_t i = 0; i < l.n; i++) {
		dropin_path(dirs, &l.v[i], path, sizeof(path));
		if (strlen(path) >= sizeof(path) - 1)
			profile_parse_error_path(c, dirs[l.v[i].layer], "'%.64s...': path too long",
						 l.v[i].name);
		else if (ret == 0 && profile_parse_add_file(c, path) < 0)
			ret = -ENOMEM;
		free(l.v[i].name);
	}
	free(l.v);
	return ret;
}

int profile_config_load(struct profile_config *c, const char *file, const char *const *dirs,
			unsigned flags)
{
	int ret = profile_config_files(c, file, dirs, flags);

	for (size_t i = 0; i < c->nfiles && ret == 0; i++)
		ret = parse_file(c, (unsigned)i, flags);
	if (ret == 0)
		profile_parse_finish(c);
	profile_parse_sort_errors(c);
	return ret == 0 && c->out_of_memory ? -ENOMEM : ret;
}
