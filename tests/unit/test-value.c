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

int main(void)
{
	test_u64();
	test_i64();
	test_strip();
	test_copy_fmt();
	return tap_done();
}
