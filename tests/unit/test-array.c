// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * array_grow(): room for the items asked for, doubling, nothing lost on
 * failure; str_index: strings of such an array found at once.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "str-index.h"
#include "tap.h"

struct item {
	unsigned id;
	char name[13];
};

static void test_growth(void)
{
	struct item *v = NULL, *before;
	size_t cap = 0, n = 0;
	int ok = 1;

	CHECK(array_grow(&v, &cap, 1, sizeof(*v)) == 0 && v && cap == 16,
	      "the first item makes room for 16");
	before = v;
	CHECK(array_grow(&v, &cap, 16, sizeof(*v)) == 0 && v == before && cap == 16,
	      "room already: nothing moves");
	for (n = 0; n < 100; n++) {
		if (array_grow(&v, &cap, n + 1, sizeof(*v)) < 0)
			break;
		v[n] = (struct item){ .id = (unsigned)n };
	}
	CHECK(n == 100 && cap == 128, "one at a time: 16 doubles to 128 for 100 items (cap %zu)",
	      cap);
	for (size_t i = 0; i < n; i++)
		ok &= v[i].id == i;
	CHECK(ok, "the items survive each move");
	CHECK(array_grow(&v, &cap, 1000, sizeof(*v)) == 0 && cap == 1024,
	      "a jump doubles until it fits (cap %zu)", cap);
	free(v);
	v = NULL;
	cap = 0;
	CHECK(array_grow(&v, &cap, 40, sizeof(*v)) == 0 && cap == 64, "a first need beyond 16");
	free(v);
}

/*
 * Under AddressSanitizer an allocation past its limit aborts unless this is
 * set; the checks below want malloc's own answer, NULL.  (Read by ASan at
 * start-up; ASAN_OPTIONS from the environment still adds to it.)
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static void test_overflow(void)
{
	unsigned *v = NULL;
	size_t cap = 0;

	CHECK(array_grow(&v, &cap, 4, sizeof(*v)) == 0, "a small array");
	v[3] = 42;
	CHECK(array_grow(&v, &cap, SIZE_MAX / sizeof(*v) + 1, sizeof(*v)) == -ENOMEM,
	      "need * size past SIZE_MAX: -ENOMEM");
	CHECK(v && cap == 16 && v[3] == 42, "the array and its capacity are kept");
	CHECK(array_grow(&v, &cap, SIZE_MAX / sizeof(*v) / 2 + 1, sizeof(*v)) == -ENOMEM,
	      "a size malloc cannot give: -ENOMEM");
	CHECK(v && cap == 16 && v[3] == 42, "still kept after a failed allocation");
	cap = SIZE_MAX / 2 + 1;
	CHECK(array_grow(&v, &cap, SIZE_MAX / 2 + 2, 1) == -ENOMEM && cap == SIZE_MAX / 2 + 1,
	      "doubling that would wrap stops at the limit, and fails cleanly");
	free(v);
}

/* 5,000 strings, each appended twice: found at its first place, past every growth. */
static void test_index(void)
{
	enum { N = 5000 };
	struct str_index x = { 0 };
	char **s = calloc(2 * N, sizeof(*s));
	bool ok = s != NULL;

	for (size_t i = 0; ok && i < 2 * N; i++)
		ok = asprintf(&s[i], "/kubepods.slice/pod-%zu", i % N) > 0;
	for (size_t i = 0; ok && i < 2 * N; i += 100)
		ok = str_index_update(&x, s, i + 100) == 0;
	CHECK(ok, "indexed in steps");
	for (size_t i = 0; ok && i < N; i++)
		ok = str_index_find(&x, s, s[N + i]) == (ssize_t)i;
	CHECK(ok, "each found at its first place");
	CHECK(str_index_find(&x, s, "/kubepods.slice/pod-5000") == -1, "a string not there");
	CHECK(x.n_slots >= 4 * N, "the table at most half full");
	for (size_t i = 0; s && i < 2 * N; i++)
		free(s[i]);
	free(s);
	str_index_free(&x);
	CHECK(str_index_find(&x, NULL, "a") == -1, "an empty index finds nothing");
}

int main(void)
{
	test_growth();
	test_overflow();
	test_index();
	return tap_done();
}
