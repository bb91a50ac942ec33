/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text from the outside world (process names, file names, configuration
 * text, values in a dump) on its way to a terminal: a control character
 * would be obeyed (ESC [ 2 J clears the screen, a newline forges a line), so
 * each is written as \xNN, as libsmartcols writes them in tables: C0 controls
 * and DEL, C1 controls (U+0080..U+009F) and bytes that are not valid UTF-8;
 * so is every byte of a mark that reorders or hides text (bidi controls,
 * zero-width characters: escape_hidden_cp()), which would make a name read
 * as another.  Other valid UTF-8 text passes unchanged.  Every text message and every text line
 * numastatctl prints goes through here (log.c for messages and log_info());
 * JSON escapes its own through libsmartcols.  Implemented by escape.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
	ESCAPE_KEEP_NEWLINE = 1 << 0, /* multi-line text: '\n' ends a line */
	ESCAPE_KEEP_TAB = 1 << 1,
	/*
	 * Every byte outside printable ASCII, UTF-8 too: for a table whose
	 * columns are measured in bytes (libsmartcols in the C locale).
	 */
	ESCAPE_ASCII = 1 << 2,
};

/*
 * Does code point cp reorder or hide text on a terminal: U+061C, U+200B..
 * U+200F, U+2028..U+202E, U+2060..U+2069, U+FEFF?  (U+202E turns the rest
 * of a line around; U+200B hides a difference between two names.)
 */
bool escape_hidden_cp(uint32_t cp);
/* How many bytes at the start of s go out as they are (0: s[0] needs an escape). */
size_t escape_safe_len(const char *s, unsigned flags);
/*
 * How many bytes at the start of s[0..len) are valid UTF-8, control
 * characters included: what JSON carries, escaped its own way (out.c
 * writes the rest as \xNN).
 */
size_t escape_utf8_len(const char *s, size_t len);
/*
 * The character at s: its length in bytes (1 to 4) and its code point in
 * *cp, C0 and C1 controls included; 0 at a NUL or where s starts no valid
 * UTF-8 character (overlong, surrogate, beyond U+10FFFF, cut short).
 */
size_t escape_utf8_char(const char *s, uint32_t *cp);
/*
 * s escaped into buf[len] (always NUL-terminated, cut at a whole escape);
 * returns buf.  At most 4 bytes of output per byte of input.
 */
char *escape_text(const char *s, char *buf, size_t len, unsigned flags);
/* fputs(s, f), escaped; returns what fputs() returns. */
int escape_fputs(const char *s, FILE *f, unsigned flags);
/* fprintf(f, fmt, ...) of at most 1 KiB, escaped: for a line holding text from outside. */
int escape_printf(FILE *f, unsigned flags, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
