// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "wrap.h"

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
		size_t w = strcspn(p, " ");

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
