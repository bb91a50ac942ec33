// SPDX-License-Identifier: GPL-2.0-or-later
/* escape_text(): what reaches a terminal of text from outside. */
#include "escape.h"
#include "tap.h"

static const char *esc(const char *s)
{
	static char buf[256];

	return escape_text(s, buf, sizeof(buf), 0);
}

int main(void)
{
	CHECK_STR(esc("plain text"), "plain text", "printable ASCII as it is");
	CHECK_STR(esc("caf\xc3\xa9 \xe6\x97\xa5"), "caf\xc3\xa9 \xe6\x97\xa5",
		  "letters of any script as they are");
	CHECK_STR(esc("a\033[2Jb\n"), "a\\x1b[2Jb\\x0a", "C0 controls as \\xNN");
	CHECK_STR(esc("\xc2\x9b"), "\\xc2\\x9b", "a C1 control (CSI) as its two bytes");
	CHECK_STR(esc("\xff"), "\\xff", "a byte that is not UTF-8");
	CHECK_STR(esc("x\xe2\x80\xae"
		      "cod.exe"),
		  "x\\xe2\\x80\\xaecod.exe", "U+202E, which turns the line around, as its bytes");
	CHECK_STR(esc("a\xe2\x80\x8b"
		      "b"),
		  "a\\xe2\\x80\\x8bb", "U+200B, zero width, escaped: two names would look alike");
	CHECK_STR(esc("\xe2\x81\xa6"
		      "x\xe2\x81\xa9"),
		  "\\xe2\\x81\\xa6x\\xe2\\x81\\xa9", "the isolates U+2066..U+2069");
	CHECK_STR(esc("\xef\xbb\xbf"), "\\xef\\xbb\\xbf", "U+FEFF");
	CHECK_STR(esc("\xe2\x80\x94"), "\xe2\x80\x94", "a dash next to them is kept");
	CHECK(escape_hidden_cp(0x202e) && escape_hidden_cp(0x61c) && !escape_hidden_cp(0x2030) &&
		      !escape_hidden_cp(0x200a),
	      "escape_hidden_cp(): the marks and not their neighbours");
	return tap_done();
}
