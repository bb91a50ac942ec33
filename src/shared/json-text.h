/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Layout of JSON text that libsmartcols wrote: whitespace and indentation
 * only, never values.  Strings are copied byte for byte, so every escape
 * stays libsmartcols's.  out.c uses these to print one object per line
 * (interval samples) and to put several tables into one document.
 * Implemented by json-text.c.
 */
#pragma once

#include <stddef.h>
#include <stdio.h>

/*
 * Drop the whitespace outside strings, in place; returns the new length.
 * An array holding just null becomes [] (libsmartcols 2.38 prints an empty
 * array column as [null]; later versions print []).
 */
size_t json_compact(char *s, size_t len);

/*
 * Print compact JSON text (json_compact()'s output) as libsmartcols lays
 * it out: three spaces per level, "},{" between objects of an array, a
 * final newline.  Returns 0 or -EIO.
 */
int json_pretty(const char *s, size_t len, FILE *f);
/*
 * json_pretty() of a piece of such a text, at *level (0 at the start, kept
 * for the next piece), without the final newline.  A piece ends and starts
 * between values: "{" and "[" are followed by a line break unless the same
 * piece closes them at once, and a "," that joins two objects of an array
 * across pieces is the caller's (libsmartcols writes "},{").
 */
void json_pretty_part(const char *s, size_t len, FILE *f, int *level);

/*
 * The members of a compact object "{...}" without its braces (s[*from, *to)),
 * or -EINVAL when s is not one object.
 */
int json_object_inner(const char *s, size_t len, size_t *from, size_t *to);
/*
 * The end of the value starting at s[i] (one past its last byte), or 0 when
 * the text ends first.  A value is a string, a literal, or a whole {...} or
 * [...] with everything nested in it.
 */
size_t json_value_end(const char *s, size_t len, size_t i);
