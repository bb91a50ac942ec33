// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include "escape.h"
#include "prom.h"

void prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * The format escapes backslash, double quote and newline; promtool refuses
 * a value that is not UTF-8, and control characters would be written raw.
 * Those are \xNN (escape.h), as text output shows them: the value a
 * scraper reads holds a backslash, 'x' and two hex digits.
 */
void prom_label_value(FILE *f, const char *s)
{
	while (*s) {
		size_t n = escape_safe_len(s, ESCAPE_KEEP_NEWLINE);

		for (const char *end = s + n; s < end; s++) {
			if (*s == '\n') {
				fputs("\\n", f);
				continue;
			}
			if (*s == '\\' || *s == '"')
				fputc('\\', f);
			fputc(*s, f);
		}
		if (*s)
			fprintf(f, "\\\\x%02x", (unsigned char)*s++);
	}
}
