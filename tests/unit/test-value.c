// SPDX-License-Identifier: GPL-2.0-or-later
/* Strict number parsing: boundaries, junk, octal and hex surprises. */
#include <errno.h>
#include <inttypes.h>

#include "tap.h"
#include "value.h"

static void test_u64(void)
{
	uint64_t u = 42;

	CHECK(parse_u64("0", 10, &u) == 0 && u == 0, "0 parses");
	CHECK(parse_u64("10", 10, &u) == 0 && u == 10, "the maximum itself parses");
	CHECK(parse_u64("11", 10, &u) == -ERANGE, "one above the maximum is -ERANGE");
	CHECK(parse_u64("18446744073709551615", UINT64_MAX, &u) == 0 && u == UINT64_MAX,
	      "UINT64_MAX parses");
	CHECK(parse_u64("18446744073709551616", UINT64_MAX, &u) == -ERANGE, "2^64 overflows");
	CHECK(parse_u64("99999999999999999999999", UINT64_MAX, &u) == -ERANGE,
	      "long numbers overflow");
	CHECK(parse_u64("", 10, &u) == -EINVAL, "empty is not a number");
	CHECK(parse_u64("010", 100, &u) == -EINVAL,
	      "leading zero (octal to the kernel) is refused");
	CHECK(parse_u64("0x1", 100, &u) == -EINVAL, "hex is refused");
	CHECK(parse_u64("+1", 100, &u) == -EINVAL, "a plus sign is refused");
	CHECK(parse_u64("1 ", 100, &u) == -EINVAL, "trailing space is refused");
	CHECK(parse_u64(" 1", 100, &u) == -EINVAL, "leading space is refused");
	CHECK(parse_u64("1abc", 100, &u) == -EINVAL, "trailing junk is refused");
	CHECK(parse_u64("-1", 100, &u) == -EINVAL, "negative is refused");
	CHECK(parse_u64_n("12345", 2, 100, &u) == 0 && u == 12,
	      "length-bounded parse stops at len");
	CHECK(parse_u64_n("1", 0, 100, &u) == -EINVAL, "zero length is not a number");
}

static void test_i64(void)
{
	int64_t v = 7;

	CHECK(parse_i64("-5", -10, 10, &v) == 0 && v == -5, "negative in range");
	CHECK(parse_i64("-11", -10, 10, &v) == -ERANGE, "below the minimum");
	CHECK(parse_i64("-1", 0, 10, &v) == -ERANGE, "negative where the minimum is 0");
	CHECK(parse_i64("-0", -10, 10, &v) == -EINVAL, "-0 is refused");
	CHECK(parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &v) == 0 && v == INT64_MIN,
	      "INT64_MIN parses");
	CHECK(parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &v) == -ERANGE,
	      "INT64_MAX + 1 overflows");
	CHECK(parse_i64("5", 6, 10, &v) == -ERANGE, "above zero but below the minimum");
	CHECK(parse_i64("1", -10, -1, &v) == -ERANGE, "positive where the maximum is negative");
	CHECK(parse_i64("x", -10, -1, &v) == -EINVAL, "junk where the maximum is negative");
	CHECK(v == INT64_MIN, "failed parses leave the output alone");
}

static void test_strip(void)
{
	char a[] = " \t x y \r\n", b[] = "", c[] = "   ";

	CHECK_STR(str_strip(a), "x y", "str_strip trims both ends, keeps inner space");
	CHECK_STR(str_strip(b), "", "str_strip of empty");
	CHECK_STR(str_strip(c), "", "str_strip of blanks");
	CHECK(str_word_eq("On", "on") && !str_word_eq("on", "one"),
	      "str_word_eq ignores case only");
}

/* The words of a line that is not NUL-terminated, as numa_maps's readers take them. */
static void test_words(void)
{
	const char line[] = "  7f00 bind:1\tfile=/a b N0=3x", *p = line, *end = line + 28, *w;
	size_t wl;
	int n = 0;

	while (str_next_word(&p, end, " ", &w, &wl))
		n++;
	CHECK(n == 4, "four words split at spaces, a tab inside one, none past the end");
	p = line;
	n = 0;
	while (str_next_word(&p, end, " \t", &w, &wl))
		n++;
	CHECK(n == 5 && str_span_is(w, wl, "N0=3"),
	      "five at spaces and tabs, the last cut at the end");
	p = end;
	CHECK(!str_next_word(&p, end, " ", &w, &wl), "none at the end");
	CHECK(str_span_is("abc", 2, "ab") && !str_span_is("abc", 2, "abc") &&
		      !str_span_is("ab", 2, "a"),
	      "str_span_is: the whole span, no more, no less");
	CHECK(str_span_starts("file=/x", 7, "file=") && !str_span_starts("fil", 3, "file=") &&
		      str_span_starts("x", 1, ""),
	      "str_span_starts: a prefix within the span");
}

static void test_copy_fmt(void)
{
	char b4[4], b24[24];

	CHECK(str_copy(b4, "abc", sizeof(b4)) == 3, "str_copy returns the source length");
	CHECK_STR(b4, "abc", "str_copy copies what fits exactly");
	CHECK(str_copy(b4, "abcdef", sizeof(b4)) == 6, "a cut copy still returns the full length");
	CHECK_STR(b4, "abc", "str_copy cuts and NUL-terminates");
	CHECK(str_copy(b4, "", sizeof(b4)) == 0 && b4[0] == '\0', "str_copy of empty");
	fmt_i64(b24, sizeof(b24), 0);
	CHECK_STR(b24, "0", "fmt_i64 of 0");
	fmt_i64(b24, sizeof(b24), -42);
	CHECK_STR(b24, "-42", "fmt_i64 of a negative");
	fmt_i64(b24, sizeof(b24), INT64_MAX);
	CHECK_STR(b24, "9223372036854775807", "fmt_i64 of INT64_MAX");
	fmt_i64(b24, sizeof(b24), INT64_MIN);
	CHECK_STR(b24, "-9223372036854775808", "fmt_i64 of INT64_MIN");
	fmt_i64(b4, sizeof(b4), 12345);
	CHECK_STR(b4, "123", "fmt_i64 cuts to the buffer");
}

/* The one K/M/G formatter: sizes in powers of 1024, counts in powers of 1000. */
static void test_human(void)
{
	static const struct {
		uint64_t v;
		enum fmt_scale scale;
		const char *want, *what;
	} c[] = {
		{ 0, FMT_SIZE, "0B", "a size below 1 KiB in bytes" },
		{ 1023, FMT_SIZE, "1023B", "the largest size in bytes" },
		{ 1024, FMT_SIZE, "1K", "1 KiB: no .0" },
		{ 1536, FMT_SIZE, "1.5K", "one decimal" },
		{ 16357785, FMT_SIZE, "15.6M", "MiB" },
		{ UINT64_MAX, FMT_SIZE, "16E", "the largest size" },
		{ 9999, FMT_COUNT, "9999", "a count below 10000 as it is" },
		{ 10000, FMT_COUNT, "10K", "10000: powers of 1000, no decimal from 10 up" },
		{ 7300000, FMT_COUNT, "7.3M", "one decimal below 10" },
		{ UINT64_MAX, FMT_COUNT, "18E", "the largest count" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fmt_human(c[i].v, c[i].scale, buf, sizeof(buf));
		CHECK_STR(buf, c[i].want, "fmt_human: %s", c[i].what);
	}
}

int main(void)
{
	test_u64();
	test_i64();
	test_strip();
	test_words();
	test_copy_fmt();
	test_human();
	return tap_done();
}
