// SPDX-License-Identifier: GPL-2.0-or-later
/* The profile model: sections and assignments checked and stored with their origin. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "knob-list.h"
#include "profile-parse.h"
#include "suggest.h"
#include "value.h"
#include "why.h"

static const char *file_name(const struct profile_config *c, unsigned file)
{
	return file < c->nfiles ? c->files[file] : "(command line)";
}

void profile_origin(const struct profile_config *c, struct cfg_at at, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", file_name(c, at.file), at.line);
}

static void add_error(struct profile_config *c, struct cfg_at at, char *text)
{
	if (!text ||
	    array_grow(&c->errors, &c->caperrors, c->nerrors + 1, sizeof(*c->errors)) < 0) {
		c->out_of_memory = true;
		free(text);
		return;
	}
	c->errors[c->nerrors] = (struct profile_error){ at, (unsigned)c->nerrors, text };
	c->nerrors++;
}

void profile_parse_error(struct profile_config *c, struct cfg_at at, int section, const char *fmt,
			 ...)
{
	char where[4200], sec[64] = "", msg[1024], *text;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (at.line)
		profile_origin(c, at, where, sizeof(where));
	else
		snprintf(where, sizeof(where), "%s", file_name(c, at.file));
	if (section == SEC_MAIN)
		snprintf(sec, sizeof(sec), "[numastatctl]: ");
	else if (section >= 0)
		snprintf(sec, sizeof(sec), "[profile %s]: ", c->profiles[section].name);
	if (asprintf(&text, "%s: %s%s", where, sec, msg) < 0)
		text = NULL;
	add_error(c, at, text);
}

void profile_parse_error_path(struct profile_config *c, const char *path, const char *fmt, ...)
{
	struct cfg_at at = { (unsigned)c->nfiles, 0 };
	char msg[1024], *text;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], path) == 0)
			at.file = (unsigned)i;
	if (asprintf(&text, "%s: %s", path, msg) < 0)
		text = NULL;
	add_error(c, at, text);
}

static int cmp_errors(const void *a, const void *b)
{
	const struct profile_error *x = a, *y = b;

	if (x->at.file != y->at.file)
		return x->at.file < y->at.file ? -1 : 1;
	if (x->at.line != y->at.line)
		return x->at.line < y->at.line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void profile_parse_sort_errors(struct profile_config *c)
{
	if (c->nerrors > 1)
		qsort(c->errors, c->nerrors, sizeof(*c->errors), cmp_errors);
}

int profile_parse_add_file(struct profile_config *c, const char *path)
{
	char *copy = strdup(path);

	if (!copy || array_grow(&c->files, &c->capfiles, c->nfiles + 1, sizeof(*c->files)) < 0) {
		free(copy);
		return -ENOMEM;
	}
	c->files[c->nfiles] = copy;
	return (int)c->nfiles++;
}

const struct profile *profile_find(const struct profile_config *c, const char *name)
{
	for (size_t i = 0; i < c->nprofiles; i++)
		if (strcmp(c->profiles[i].name, name) == 0)
			return &c->profiles[i];
	return NULL;
}

const struct profile_key *profile_own_key(const struct profile *p, const char *key)
{
	for (size_t i = p->n; i-- > 0;)
		if (strcmp(p->keys[i].key, key) == 0)
			return &p->keys[i];
	return NULL;
}

void profile_names(const struct profile_config *c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nprofiles && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", c->profiles[i].name);
	if (!c->nprofiles)
		snprintf(buf, len, "(none)");
}

void profile_unknown_hint(const struct profile_config *c, const char *name, char *buf, size_t len)
{
	char known[1024];
	struct suggest s;

	suggest_init(&s, name);
	for (size_t i = 0; i < c->nprofiles; i++)
		suggest_add(&s, c->profiles[i].name);
	if (suggest_result(&s)) {
		snprintf(buf, len, ": did you mean %s?", suggest_result(&s));
		return;
	}
	profile_names(c, known, sizeof(known));
	snprintf(buf, len, " (profiles: %s)", known);
}

bool profile_name_valid(const char *s)
{
	if (!isalnum((unsigned char)s[0]) || strlen(s) >= PROFILE_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

static int add_profile(struct profile_config *c, const char *name, struct cfg_at at)
{
	struct profile *p;

	if (array_grow(&c->profiles, &c->capprofiles, c->nprofiles + 1, sizeof(*p)) < 0) {
		c->out_of_memory = true;
		return SEC_BROKEN;
	}
	p = &c->profiles[c->nprofiles];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->at = at;
	return (int)c->nprofiles++;
}

int profile_parse_section(struct profile_config *c, struct cfg_at at, const char *text)
{
	char buf[256], *s;

	snprintf(buf, sizeof(buf), "%s", text);
	s = str_strip(buf);
	if (strcmp(s, "numastatctl") == 0)
		return SEC_MAIN;
	if (strncmp(s, "profile", 7) != 0 || !isspace((unsigned char)s[7])) {
		profile_parse_error(c, at, SEC_NONE,
				    "unknown section [%s]: expected [numastatctl] or "
				    "[profile NAME]",
				    s);
		return SEC_BROKEN;
	}
	s = str_strip(s + 8);
	if (!profile_name_valid(s)) {
		profile_parse_error(c, at, SEC_NONE,
				    "invalid profile name '%s': use letters, digits, '-', "
				    "'_' and '.', starting with a letter or digit",
				    s);
		return SEC_BROKEN;
	}
	for (size_t i = 0; i < c->nprofiles; i++)
		if (strcmp(c->profiles[i].name, s) == 0)
			return (int)i;
	return add_profile(c, s, at);
}

/* '#' after a space (or first) is what people mean as a comment; inih keeps it. */
static bool has_hash_comment(const char *v)
{
	for (const char *h = strchr(v, '#'); h; h = strchr(h + 1, '#'))
		if (h == v || isspace((unsigned char)h[-1]))
			return true;
	return false;
}

#define HASH_HINT "'#' does not start a comment after a value: use ';' (after a space)"

static void main_assign(struct profile_config *c, struct cfg_at at, const char *key,
			const char *value)
{
	struct cfg_at *prev;

	if (strcmp(key, "profile") == 0)
		prev = &c->default_at;
	else if (strcmp(key, "state_dir") == 0)
		prev = &c->state_dir_at;
	else {
		profile_parse_error(c, at, SEC_MAIN,
				    "unknown key '%s': expected profile or state_dir", key);
		return;
	}
	if (prev->line && prev->file == at.file) {
		profile_parse_error(c, at, SEC_MAIN, "duplicate key '%s' (first set at line %u)",
				    key, prev->line);
		return;
	}
	if (has_hash_comment(value)) {
		profile_parse_error(c, at, SEC_MAIN, "%s: " HASH_HINT, key);
		return;
	}
	if (prev == &c->default_at && !profile_name_valid(value)) {
		profile_parse_error(c, at, SEC_MAIN, "profile: invalid profile name '%s'", value);
		return;
	}
	if (prev == &c->state_dir_at && value[0] != '/') {
		profile_parse_error(c, at, SEC_MAIN, "state_dir: '%s' is not an absolute path",
				    value);
		return;
	}
	if (prev == &c->default_at)
		snprintf(c->default_profile, sizeof(c->default_profile), "%s", value);
	else
		snprintf(c->state_dir, sizeof(c->state_dir), "%s", value);
	*prev = at;
}

/* Split "a b c" into names; the count, or -EINVAL / -E2BIG with the bad word in bad. */
static int split_names(const char *v, char names[][PROFILE_NAME_MAX], char *bad, size_t badlen)
{
	char buf[PROFILE_VALUE_MAX], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", v);
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!profile_name_valid(w)) {
			snprintf(bad, badlen, "%s", w);
			return -EINVAL;
		}
		if (n == PROFILE_MAX_INCLUDES)
			return -E2BIG;
		snprintf(names[n++], PROFILE_NAME_MAX, "%s", w);
	}
	return n;
}

static bool is_reserved(const char *key)
{
	return strcmp(key, "summary") == 0 || strcmp(key, "include") == 0;
}

/* The knob's name into k; false after reporting the problem. */
static bool parse_knob_name(struct profile_config *c, struct cfg_at at, int sec, const char *key,
			    struct profile_key *k)
{
	char why[WHY_MAX];

	k->optional = key[0] == '-';
	k->is_knob = true;
	if ((k->optional ? knob_lookup_optional(key + 1, &k->ref, why, sizeof(why))
			 : knob_lookup(key, &k->ref, why, sizeof(why))) < 0) {
		profile_parse_error(c, at, sec, "%s", why);
		return false;
	}
	snprintf(k->key, sizeof(k->key), "%s", k->ref.name);
	return true;
}

/* The knob's value into k; false (k marked invalid) after reporting the problem. */
static bool parse_knob_value(struct profile_config *c, struct cfg_at at, int sec, const char *value,
			     struct profile_key *k)
{
	char why[WHY_MAX];

	k->invalid = true;
	if (has_hash_comment(value)) {
		profile_parse_error(c, at, sec, "%s: invalid value '%s': " HASH_HINT, k->ref.name,
				    value);
		return false;
	}
	if (knob_parse(&k->ref, value, &k->val, why, sizeof(why)) < 0) {
		profile_parse_error(c, at, sec, "%s", why);
		return false;
	}
	k->invalid = false;
	snprintf(k->value, sizeof(k->value), "%s", k->val.text);
	return true;
}

static bool parse_reserved(struct profile_config *c, struct cfg_at at, int sec, const char *key,
			   const char *value, struct profile_key *k)
{
	char names[PROFILE_MAX_INCLUDES][PROFILE_NAME_MAX], bad[PROFILE_VALUE_MAX];
	int n;

	if (strcmp(key, "include") == 0) {
		n = split_names(value, names, bad, sizeof(bad));
		if (n == -E2BIG) {
			profile_parse_error(c, at, sec, "include: more than %d profiles",
					    PROFILE_MAX_INCLUDES);
			return false;
		}
		if (n < 0) {
			profile_parse_error(c, at, sec, "include: invalid profile name '%s'%s", bad,
					    bad[0] == '#' ? ": " HASH_HINT : "");
			return false;
		}
	}
	snprintf(k->key, sizeof(k->key), "%s", key);
	snprintf(k->value, sizeof(k->value), "%s", value);
	return true;
}

static void profile_assign(struct profile_config *c, struct cfg_at at, int sec, const char *key,
			   const char *value)
{
	struct profile *p = &c->profiles[sec];
	struct profile_key k = { .at = at };
	const struct profile_key *prev;

	if (key[0] == '-' && is_reserved(key + 1)) {
		profile_parse_error(c, at, sec, "'%s': a '-' prefix applies to knobs only", key);
		return;
	}
	if (is_reserved(key) ? !parse_reserved(c, at, sec, key, value, &k)
			     : !parse_knob_name(c, at, sec, key, &k))
		return;
	prev = profile_own_key(p, k.key);
	if (prev && prev->at.file == at.file) {
		profile_parse_error(c, at, sec, "duplicate key '%s' (first set at line %u)", k.key,
				    prev->at.line);
		return;
	}
	/* Kept even when invalid, so that a second definition is still a duplicate. */
	if (k.is_knob)
		parse_knob_value(c, at, sec, value, &k);
	if (array_grow(&p->keys, &p->cap, p->n + 1, sizeof(k)) < 0) {
		c->out_of_memory = true;
		return;
	}
	p->keys[p->n++] = k;
}

void profile_parse_assign(struct profile_config *c, struct cfg_at at, int section, const char *key,
			  const char *value)
{
	if (section == SEC_BROKEN)
		return; /* the header's error was reported; its keys would only add noise */
	if (section == SEC_NONE) {
		profile_parse_error(c, at, section,
				    "'%s' is outside any section: put it under [profile NAME] "
				    "or [numastatctl]",
				    key);
		return;
	}
	if (!key[0]) {
		profile_parse_error(c, at, section, "missing key name before '='");
		return;
	}
	if (!value[0]) {
		profile_parse_error(c, at, section, "'%s' has no value", key);
		return;
	}
	if (section == SEC_MAIN)
		main_assign(c, at, key, value);
	else
		profile_assign(c, at, section, key, value);
}

static int profile_index(const struct profile_config *c, const struct profile *p)
{
	return (int)(p - c->profiles);
}

/* Every include names a defined profile. */
static void check_includes(struct profile_config *c)
{
	char names[PROFILE_MAX_INCLUDES][PROFILE_NAME_MAX], bad[PROFILE_VALUE_MAX];
	char hint[1100];

	for (size_t i = 0; i < c->nprofiles; i++) {
		const struct profile_key *inc = profile_own_key(&c->profiles[i], "include");
		int n = inc ? split_names(inc->value, names, bad, sizeof(bad)) : 0;

		for (int j = 0; j < n; j++) {
			if (profile_find(c, names[j]))
				continue;
			profile_unknown_hint(c, names[j], hint, sizeof(hint));
			profile_parse_error(c, inc->at, (int)i, "include: unknown profile '%s'%s",
					    names[j], hint);
		}
	}
}

struct walk {
	struct profile_config *c;
	const struct profile *stack[PROFILE_MAX_DEPTH + 1];
	size_t depth;
	bool reported;
	bool *expanded; /* per profile: already walked from this root */
};

/* "a -> b -> a" from the stack position of p on. */
static void chain(const struct walk *w, size_t from, const struct profile *p, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = from; i < w->depth && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s -> ", w->stack[i]->name);
	if (n < len)
		snprintf(buf + n, len - n, "%s", p->name);
}

static void walk_includes(struct walk *w, const struct profile *p);

/* Where root's include line is: a profile is walked because it has one. */
static struct cfg_at include_at(const struct profile *root)
{
	const struct profile_key *inc = profile_own_key(root, "include");

	return inc ? inc->at : (struct cfg_at){ 0 };
}

/*
 * A loop is reported once, from its member listed first in the file; the
 * other members find it too and keep quiet.
 */
static void walk_step(struct walk *w, const struct profile *q)
{
	const struct profile *root = w->stack[0];
	char buf[1024];

	for (size_t i = 0; i < w->depth; i++) {
		if (w->stack[i] != q)
			continue;
		if (i == 0) {
			bool first = true;

			for (size_t j = 1; j < w->depth; j++)
				first &= profile_index(w->c, w->stack[j]) >
					 profile_index(w->c, root);
			chain(w, 0, q, buf, sizeof(buf));
			if (first && !w->reported)
				profile_parse_error(w->c, include_at(root),
						    profile_index(w->c, root), "include loop: %s",
						    buf);
			w->reported = true;
		}
		return;
	}
	if (w->depth == PROFILE_MAX_DEPTH) {
		if (!w->reported)
			profile_parse_error(w->c, include_at(root), profile_index(w->c, root),
					    "includes nest deeper than %d levels",
					    PROFILE_MAX_DEPTH);
		w->reported = true;
		return;
	}
	if (!w->expanded[profile_index(w->c, q)])
		walk_includes(w, q);
}

static void walk_includes(struct walk *w, const struct profile *p)
{
	char names[PROFILE_MAX_INCLUDES][PROFILE_NAME_MAX], bad[PROFILE_VALUE_MAX];
	const struct profile_key *inc = profile_own_key(p, "include");
	int n = inc ? split_names(inc->value, names, bad, sizeof(bad)) : 0;

	w->expanded[profile_index(w->c, p)] = true;
	w->stack[w->depth++] = p;
	for (int j = 0; j < n && !w->reported; j++) {
		const struct profile *q = profile_find(w->c, names[j]);

		if (q)
			walk_step(w, q);
	}
	w->depth--;
}

void profile_parse_finish(struct profile_config *c)
{
	bool *expanded = calloc(c->nprofiles + 1, sizeof(*expanded));
	char hint[1100];

	if (!expanded)
		c->out_of_memory = true; /* include loops would go unchecked */
	check_includes(c);
	for (size_t i = 0; i < c->nprofiles && expanded; i++) {
		struct walk w = { .c = c, .expanded = expanded };

		memset(expanded, 0, c->nprofiles * sizeof(*expanded));
		walk_includes(&w, &c->profiles[i]);
	}
	free(expanded);
	if (c->default_at.line && !profile_find(c, c->default_profile)) {
		profile_unknown_hint(c, c->default_profile, hint, sizeof(hint));
		profile_parse_error(c, c->default_at, SEC_MAIN, "profile: '%s' is not defined%s",
				    c->default_profile, hint);
	}
}

void profile_config_free(struct profile_config *c)
{
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	for (size_t i = 0; i < c->nprofiles; i++)
		free(c->profiles[i].keys);
	for (size_t i = 0; i < c->nerrors; i++)
		free(c->errors[i].text);
	for (size_t i = 0; i < c->nmasked; i++) {
		free(c->masked[i].path);
		free(c->masked[i].by);
	}
	free(c->masked);
	free(c->files);
	free(c->profiles);
	free(c->errors);
	memset(c, 0, sizeof(*c));
}
