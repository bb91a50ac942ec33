/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Values as text and back.  Strict, bounded number parsing (strtonum
 * discipline): decimal digits only, an optional '-' where the range allows
 * it, no leading '+', no octal or hex surprises, no overflow, no trailing
 * junk.  Returns 0, -EINVAL (not a number) or -ERANGE (a number outside
 * [min, max]).  Then numbers as text and small string helpers.
 * Implemented by parse.c, fmt.c and str.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int parse_u64(const char *s, uint64_t max, uint64_t *out);
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/* Same as parse_u64 but for s[0..len), which need not be NUL-terminated. */
int parse_u64_n(const char *s, size_t len, uint64_t max, uint64_t *out);
/*
 * The hexadecimal numbers sysfs prints for addresses and sizes: "%#llx"
 * ("0x8000000", "0") when prefix is true, "%llx" ("8000000") when false;
 * lower-case digits, no sign, at most 16 digits.  0, -EINVAL or -ERANGE.
 */
int parse_hex_u64_n(const char *s, size_t len, bool prefix, uint64_t *out);

/*
 * Copy src into dst[size] (size > 0), truncating, always NUL-terminated;
 * returns strlen(src), so a result >= size means it was cut (strlcpy).
 * snprintf("%s") costs ~40 times more, on paths every command runs.
 */
size_t str_copy(char *dst, const char *src, size_t size);
/* Decimal text of v into buf[size] (size >= 21 holds every value). */
void fmt_i64(char *buf, size_t size, int64_t v);

/*
 * v abbreviated with K, M, G, T, P or E: the one formatter of such numbers.
 * FMT_SIZE: bytes in powers of 1024, one decimal unless it is .0, "512B"
 * below 1 KiB (util-linux style: "15.6G").  FMT_COUNT: a count in powers of
 * 1000, one decimal below 10 ("7.3M", "12K"), as it is below 10000.
 */
enum fmt_scale { FMT_SIZE, FMT_COUNT };
void fmt_human(uint64_t v, enum fmt_scale scale, char *buf, size_t len);

/* Trim ASCII whitespace at both ends, in place; returns s. */
char *str_strip(char *s);
/* Case-insensitive equality of ASCII words. */
bool str_word_eq(const char *a, const char *b);
/*
 * Words of a line that is not NUL-terminated ([*p, end), split at any of
 * the bytes of seps): the next one in [*w, *w + *wl), *p moved past it;
 * false at the end.
 */
bool str_next_word(const char **p, const char *end, const char *seps, const char **w, size_t *wl);
/* Whether the word [w, w + wl) is s, or begins with prefix. */
bool str_span_is(const char *w, size_t wl, const char *s);
bool str_span_starts(const char *w, size_t wl, const char *prefix);
