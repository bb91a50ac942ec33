/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "did you mean ...?": the closest of a set of names to what was typed, by
 * Damerau-Levenshtein distance (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours cost one each),
 * ASCII case ignored.  Every suggestion the tool makes (commands, options,
 * knobs, profiles, columns) comes from here, so they all follow one rule.
 * Implemented by suggest.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Names longer than this are neither compared nor suggested. */
#define SUGGEST_MAX_LEN 128

/* The distance, or SUGGEST_FAR when either string is longer than SUGGEST_MAX_LEN. */
#define SUGGEST_FAR ((unsigned)-1)
unsigned suggest_distance(const char *a, const char *b);

struct suggest {
	char input[SUGGEST_MAX_LEN + 1];
	bool too_long; /* input longer than SUGGEST_MAX_LEN: no suggestion */
	unsigned best_dist;
	bool best_alike;                /* the best starts like input, or input like it */
	char best[SUGGEST_MAX_LEN + 1]; /* "" while nothing is close enough */
};

/*
 * Start a search for input.  Close enough means at most 1 edit when the
 * longer of input and candidate has up to 4 characters, 2 up to 8, 3 beyond
 * ("nope" is not "top", "thruput" is "throughput"); or input (3 characters
 * or more) being the start of the candidate.  Of equally close candidates,
 * one that starts like input (or input like it) wins, then the first.
 */
void suggest_init(struct suggest *s, const char *input);
/* The same for input[0..len), which need not be NUL-terminated ("-o A,B,C" parts). */
void suggest_init_n(struct suggest *s, const char *input, size_t len);
/* Compare input with compare; remember name (often the same) if it is the closest yet. */
void suggest_add_as(struct suggest *s, const char *compare, const char *name);
void suggest_add(struct suggest *s, const char *candidate);
/* The suggestion, or NULL. */
const char *suggest_result(const struct suggest *s);
/* "did you mean X?" into buf, or "" when nothing is close; returns buf. */
const char *suggest_text(const struct suggest *s, char *buf, size_t len);
