// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "value.h"
#include "wrap.h"

/*
 * The length of the word at p: up to the next space, or, for a word that
 * opens a quote, up to the quote that closes it (before a space, the end or
 * punctuation), so that a line to copy ('vm.x = 1') is never folded.  An
 * apostrophe inside a word (node's) opens nothing.
 */
static size_t word_len(const char *p)
{
	const char *q = p + 1;

	if (*p != '\'')
		return strcspn(p, " ");
	while ((q = strchr(q, '\'')) && q[1] && !strchr(" ,;:.)", q[1]))
		q++;
	return q ? (size_t)(q - p) + 1 + strcspn(q + 1, " ") : strcspn(p, " ");
}

size_t wrap_width(int fd)
{
	struct winsize ws;
	const char *env;
	uint64_t v;

	if (!isatty(fd))
		return 0;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	/* A terminal that reports no size: $COLUMNS as the shell keeps it, else 80. */
	env = getenv("COLUMNS");
	return env && parse_u64(env, 100000, &v) == 0 && v > 0 ? (size_t)v : 80;
}

size_t wrap_fputs(FILE *f, const char *text, size_t col, size_t indent, size_t width)
{
	size_t start = col;
	const char *p = text;

	if (!width) {
		fputs(text, f);
		return col + strlen(text);
	}
	p += strspn(p, " ");
	while (*p) {
		size_t w = word_len(p);

		/* A line that holds nothing yet takes the word, however long. */
		if (col > start && col + 1 + w > width) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = start = indent;
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		p += w;
		p += strspn(p, " ");
	}
	return col;
}
