// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "suggest.h"
#include "value.h"

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned suggest_distance(const char *a, const char *b)
{
	/* Three rows of the dynamic-programming table: two back, one back, this one. */
	unsigned rows[3][SUGGEST_MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b);
	unsigned *pp = rows[0], *prev = rows[1], *cur = rows[2];

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return SUGGEST_FAR;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *t;

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = lower(a[i - 1]) != lower(b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) && pp[j - 2] + 1 < cur[j])
				cur[j] = pp[j - 2] + 1;
		}
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

void suggest_init_n(struct suggest *s, const char *input, size_t len)
{
	s->too_long = len > SUGGEST_MAX_LEN;
	if (s->too_long)
		len = 0;
	memcpy(s->input, input, len);
	s->input[len] = '\0';
	s->best_dist = SUGGEST_FAR;
	s->best_alike = false;
	s->best[0] = '\0';
}

void suggest_init(struct suggest *s, const char *input)
{
	suggest_init_n(s, input, strlen(input));
}

/* One is the start of the other: "stat" and "stats", "throu" and "throughput". */
static bool starts_alike(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return strncasecmp(a, b, la < lb ? la : lb) == 0;
}

/* The farthest a candidate may be: a third of the longer name, 1 to 3 edits. */
static unsigned limit(size_t a, size_t b)
{
	size_t longer = a > b ? a : b;

	return longer <= 4 ? 1 : longer <= 8 ? 2 : 3;
}

/*
 * input (3 characters or more, a plural 's' aside) is one of the words of
 * compare between '_': "HITS" for NUMA_HIT, where no edit distance helps.
 */
static bool is_word_of(const char *input, const char *compare)
{
	size_t len = strlen(input);

	if (len > 3 && (input[len - 1] == 's' || input[len - 1] == 'S'))
		len--;
	if (len < 3)
		return false;
	for (const char *w = compare; *w; w += strcspn(w, "_"), w += *w == '_') {
		size_t wlen = strcspn(w, "_");

		if (wlen == len && strncasecmp(w, input, len) == 0)
			return true;
	}
	return false;
}

void suggest_add_as(struct suggest *s, const char *compare, const char *name)
{
	size_t len = strlen(s->input), clen = strlen(compare);
	unsigned d, max = limit(len, clen);
	bool alike = starts_alike(s->input, compare), word = is_word_of(s->input, compare);

	/* The lengths alone put it too far (each edit changes the length by one at most). */
	if (s->too_long ||
	    ((len > clen ? len - clen : clen - len) > max && !(alike && len >= 3) && !word))
		return;
	d = suggest_distance(s->input, compare);
	/* "throu" for "throughput": a start counts as the farthest acceptable match. */
	if (d > max && len >= 3 && alike && len < clen)
		d = max;
	/* A word of the name: farther than any match by edits, closer than none. */
	if (d > max && word)
		d = max + 1;
	if (d > max + word || strlen(name) > SUGGEST_MAX_LEN)
		return;
	/* Equally close: "stats" is more likely "stat" typed on than "status" mistyped. */
	if (d > s->best_dist || (d == s->best_dist && (s->best_alike || !alike)))
		return;
	s->best_dist = d;
	s->best_alike = alike;
	str_copy(s->best, name, sizeof(s->best));
}

void suggest_add(struct suggest *s, const char *candidate)
{
	suggest_add_as(s, candidate, candidate);
}

const char *suggest_result(const struct suggest *s)
{
	return s->best[0] ? s->best : NULL;
}

const char *suggest_text(const struct suggest *s, char *buf, size_t len)
{
	if (suggest_result(s))
		snprintf(buf, len, "did you mean %s?", s->best);
	else if (len)
		buf[0] = '\0';
	return buf;
}
