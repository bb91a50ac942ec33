/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scdoc text for the man page generators (gen-knobs-scd.c, gen-advice-scd.c). */
#pragma once

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* scdoc reads '*', '_' and '\' as markup; a backslash makes them literal. */
static inline void put_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '_' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
}

/* A one-liner as a sentence: capital first letter, final period. */
static inline void put_sentence(const char *s)
{
	size_t len = strlen(s);

	putchar(toupper((unsigned char)s[0]));
	put_escaped(s + 1);
	if (len && s[len - 1] != '.')
		putchar('.');
}
