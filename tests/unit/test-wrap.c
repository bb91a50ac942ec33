// SPDX-License-Identifier: GPL-2.0-or-later
/* wrap_fputs(): folding text at spaces to a width. */
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "wrap.h"

/* What wrap_fputs() prints, and the column it says the cursor is at. */
static const char *wrapped(const char *text, size_t col, size_t indent, size_t width, size_t *end)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return "";
	*end = wrap_fputs(f, text, col, indent, width);
	fclose(f);
	return buf;
}

int main(void)
{
	size_t end;

	CHECK_STR(wrapped("a bb ccc", 0, 0, 0, &end), "a bb ccc", "width 0: one line as it is");
	CHECK(end == 8, "and the cursor after it");
	CHECK_STR(wrapped("aa bb cc", 0, 2, 5, &end), "aa bb\n  cc",
		  "a word past the width starts a line");
	CHECK(end == 4, "the cursor is after the last word");
	CHECK_STR(wrapped("aa bb", 0, 0, 5, &end), "aa bb", "a word ending at the width stays");
	CHECK_STR(wrapped("x verylongword y", 0, 1, 6, &end), "x\n verylongword\n y",
		  "a word longer than a line is never cut");
	CHECK_STR(wrapped("verylongword", 4, 4, 6, &end), "verylongword",
		  "an empty line takes the word, however long");
	CHECK_STR(wrapped("  a   b  ", 0, 0, 80, &end), "a b", "runs of spaces are one space");
	CHECK_STR(wrapped("ab cd", 3, 3, 6, &end), "ab\n   cd",
		  "the starting column counts: it is where the cursor stands");
	CHECK_STR(wrapped("to keep: add 'vm.x = 1' there", 0, 0, 16, &end),
		  "to keep: add\n'vm.x = 1' there",
		  "a quoted span is one word: a line to copy is never folded");
	CHECK_STR(wrapped("a node's pages are 'x y', z", 0, 0, 14, &end),
		  "a node's pages\nare 'x y', z",
		  "an apostrophe inside a word opens no span; a quote ends before punctuation");
	CHECK_STR(wrapped("'a b c", 0, 0, 3, &end), "'a\nb c",
		  "a quote never closed opens no span");
	CHECK_STR(wrapped("", 5, 0, 10, &end), "", "nothing to print");
	CHECK(end == 5, "and the cursor stays");
	return tap_done();
}
