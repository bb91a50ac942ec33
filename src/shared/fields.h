/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files of lines of space-separated fields that numastatctl writes for
 * itself and reads back strictly (the revert file, the trial file): every
 * line ends in LF, fields are separated by exactly one space, and a string
 * field has one spelling for every byte, so that no value can end a line,
 * start one or leave its field:
 *
 *   string = DQUOTE *(%x20-21 / %x23-5B / %x5D-7E / "\" DQUOTE / "\\" /
 *            "\x" 2(DIGIT / "a"-"f")) DQUOTE
 *            ; \xNN only for a byte below 0x20 or above 0x7e
 *
 * Readers walk a buffer line by line with a struct field_line; a problem
 * is "<path>:<line>: <problem>: not <kind>" in why.  Implemented by fields.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One line of the file being parsed: [p, end), without its LF. */
struct field_line {
	const char *p, *end;
	const char *path; /* the file, for messages */
	const char *kind; /* what the file should be: "a revert file" */
	unsigned no;      /* 1-based */
	char *why;
	size_t whylen;
};

/* A byte a string field writes as \xNN. */
bool field_needs_escape(unsigned char c);
/* s as a string field (quoted, escaped). */
void field_put_string(FILE *f, const char *s);

/* "<path>:<line>: <problem>: not <kind>" into why; returns -EBADMSG. */
int field_bad(struct field_line *l, const char *problem);
/* The literal s comes next: taken, true. */
bool field_take(struct field_line *l, const char *s);
/* The rest of the line is exactly s. */
bool field_is(const struct field_line *l, const char *s);
/* Between fields exactly one space; after the last (last), the end of the line. */
int field_sep(struct field_line *l, bool last);
/* A bare field (no space, no quote) into buf[len]: its length, 0 when empty or too long. */
size_t field_word(struct field_line *l, char *buf, size_t len);
/* A bare decimal u64 of at most max (value.h's rules): 0, or -EBADMSG naming what. */
int field_u64(struct field_line *l, uint64_t max, uint64_t *v, const char *what);
/* A string field in its one spelling, decoded into buf[len] (what names it when too long). */
int field_string(struct field_line *l, char *buf, size_t len, const char *what);
/* The next line of [*p, end) into l (l->no counts on); false at the end. */
bool field_next(const char **p, const char *end, struct field_line *l);
/* l ended in LF and holds no NUL; else -EBADMSG through err. */
int field_whole(const struct field_line *l, const char *end, struct field_line *err);
