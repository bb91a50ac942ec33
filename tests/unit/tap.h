/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny TAP producer for the unit tests: CHECK() prints file:line on failure. */
#pragma once

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

/* cond is evaluated once: it often calls the code under test. */
#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		int ok_ = !!(cond);                                             \
		tap_n++;                                                        \
		if (ok_) {                                                      \
			printf("ok %d - ", tap_n);                              \
		} else {                                                        \
			tap_failed++;                                           \
			printf("not ok %d - ", tap_n);                          \
		}                                                               \
		printf(__VA_ARGS__);                                            \
		printf("\n");                                                   \
		if (!ok_)                                                       \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} while (0)

#define CHECK_STR(got, want, ...)                                               \
	do {                                                                    \
		const char *g_ = (got), *w_ = (want);                           \
		CHECK(g_ && strcmp(g_, w_) == 0, __VA_ARGS__);                  \
		if (!g_ || strcmp(g_, w_) != 0)                                 \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_); \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
