// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "escape.h"
#include "shell-quote.h"

/* What buf[0..len) holds so far; o past len means it did not fit. */
struct out {
	char *buf;
	size_t len, o;
};

static void put(struct out *w, const char *s, size_t n)
{
	if (w->o + n < w->len)
		memcpy(w->buf + w->o, s, n);
	w->o += n;
}

static void put_hex(struct out *w, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char x[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	put(w, x, sizeof(x));
}

static bool bare_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("_@%+=:,./-", c);
}

/* Characters a terminal obeys (controls) or that hide or reorder what is shown. */
static bool hidden_cp(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || escape_hidden_cp(cp);
}

/* Does word need $'...': a control, bidi or zero-width character, or invalid UTF-8? */
static bool needs_ansi_c(const char *word)
{
	while (*word) {
		uint32_t cp;
		size_t n = escape_utf8_char(word, &cp);

		if (n == 0 || hidden_cp(cp))
			return true;
		word += n;
	}
	return false;
}

static bool is_bare(const char *word, bool first)
{
	/* First word: "a=b" is an assignment and "%1" a job, not a command. */
	if (!*word || (first && (strchr(word, '=') || word[0] == '%')))
		return false;
	for (const char *p = word; *p; p++)
		if (!bare_char((unsigned char)*p))
			return false;
	return true;
}

static void put_single(struct out *w, const char *word)
{
	put(w, "'", 1);
	for (const char *p = word; *p; p++)
		if (*p == '\'')
			put(w, "'\\''", 4);
		else
			put(w, p, 1);
	put(w, "'", 1);
}

/*
 * Bytes above 0x7f are hex too: a multibyte locale could read one as half
 * of a backslash.  So is '!': an interactive bash older than 5.2 expands
 * history inside $'...'.
 */
static void put_ansi_c(struct out *w, const char *word)
{
	put(w, "$'", 2);
	for (const unsigned char *p = (const unsigned char *)word; *p; p++)
		if (*p == '\\' || *p == '\'')
			put(w, (const char[]){ '\\', (char)*p }, 2);
		else if (*p < 0x20 || *p >= 0x7f || *p == '!')
			put_hex(w, *p);
		else
			put(w, (const char *)p, 1);
	put(w, "'", 1);
}

static void put_word(struct out *w, const char *word, bool first)
{
	if (is_bare(word, first))
		put(w, word, strlen(word));
	else if (needs_ansi_c(word))
		put_ansi_c(w, word);
	else
		put_single(w, word);
}

static int finish(struct out *w)
{
	if (w->o >= w->len || w->o > INT32_MAX) {
		if (w->len)
			w->buf[0] = '\0';
		return -ENOSPC;
	}
	w->buf[w->o] = '\0';
	return (int)w->o;
}

int shell_quote_argv(const char *const argv[], char *buf, size_t len)
{
	struct out w = { buf, len, 0 };

	for (size_t i = 0; argv[i]; i++) {
		if (i)
			put(&w, " ", 1);
		put_word(&w, argv[i], i == 0);
	}
	return finish(&w);
}

int shell_quote_word(const char *word, char *buf, size_t len)
{
	struct out w = { buf, len, 0 };

	put_word(&w, word, false);
	return finish(&w);
}
