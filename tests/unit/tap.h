/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny TAP producer for the unit tests: CHECK() prints file:line on failure. */
#pragma once

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

/* s with its line breaks as "\n" and "\r": TAP reads one line per result or
 * comment, and a raw line would turn one failure into unknown output. */
static inline void tap_put(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\r')
			fputs("\\r", stdout);
		else
			putchar(*s);
	}
}

__attribute__((format(printf, 2, 3))) static inline void tap_result(int ok, const char *fmt, ...)
{
	char desc[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	tap_n++;
	if (!ok)
		tap_failed++;
	printf("%s %d - ", ok ? "ok" : "not ok", tap_n);
	tap_put(desc);
	putchar('\n');
}

/* cond is evaluated once: it often calls the code under test. */
#define CHECK(cond, ...)                                                                \
	do {                                                                            \
		int ok_ = !!(cond);                                                     \
		tap_result(ok_, __VA_ARGS__);                                           \
		if (!ok_)                                                               \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} while (0)

#define CHECK_STR(got, want, ...)                                \
	do {                                                     \
		const char *g_ = (got), *w_ = (want);            \
		CHECK((g_ && strcmp(g_, w_) == 0), __VA_ARGS__); \
		if (!g_ || strcmp(g_, w_) != 0) {                \
			fputs("#   got '", stdout);              \
			tap_put(g_ ? g_ : "(null)");             \
			fputs("', want '", stdout);              \
			tap_put(w_);                             \
			fputs("'\n", stdout);                    \
		}                                                \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
