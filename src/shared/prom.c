// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include "prom.h"

void prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void prom_label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		fputc(*s, f);
	}
}
