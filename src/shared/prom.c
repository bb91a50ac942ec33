// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "array.h"
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

/* label="value" as prom_label_value() writes it, in a new string. */
static char *written(const char *label, const char *value)
{
	char *s = NULL;
	size_t len;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s=\"", label);
	prom_label_value(f, value);
	fputc('"', f);
	if (fclose(f) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* Append raw and text (taken over: freed here on failure). */
static int remember(struct prom_budget *b, char *raw, char *text)
{
	size_t cap = b->cap;

	if (!raw || !text || array_grow(&b->raw, &cap, b->n + 1, sizeof(*b->raw)) < 0 ||
	    array_grow(&b->text, &b->cap, b->n + 1, sizeof(*b->text)) < 0) {
		free(raw);
		free(text);
		return -ENOMEM;
	}
	b->raw[b->n] = raw;
	b->text[b->n++] = text;
	if (str_index_update(&b->raw_index, b->raw, b->n) < 0 ||
	    str_index_update(&b->text_index, b->text, b->n) < 0)
		return -ENOMEM;
	return 0;
}

int prom_budget_take(struct prom_budget *b, const char *label, const char *value, size_t series)
{
	char *raw = NULL, *text = written(label, value);

	if (!text || asprintf(&raw, "%s=%s", label, value) < 0) {
		free(text);
		return -ENOMEM;
	}
	if (str_index_find(&b->raw_index, b->raw, raw) >= 0) {
		free(raw);
		free(text);
		return PROM_AGAIN;
	}
	if (str_index_find(&b->text_index, b->text, text) >= 0) {
		b->clashes++;
		free(raw);
		free(text);
		return PROM_CLASH;
	}
	if (series > b->max - b->used) {
		b->left_out++;
		free(raw);
		free(text);
		return PROM_FULL;
	}
	b->used += series;
	return remember(b, raw, text) < 0 ? -ENOMEM : PROM_TAKEN;
}

void prom_budget_free(struct prom_budget *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->raw[i]);
		free(b->text[i]);
	}
	free(b->raw);
	free(b->text);
	str_index_free(&b->raw_index);
	str_index_free(&b->text_index);
	*b = (struct prom_budget){ .max = b->max };
}
