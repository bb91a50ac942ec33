// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shell_quote_argv(): commands safe to paste.  Each hostile word is also
 * run through bash, in the C locale and in C.UTF-8, and printf's
 * NUL-separated output must be exactly the argv that was quoted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shell-quote.h"
#include "tap.h"

static const char *quoted(const char *const argv[])
{
	static char buf[4096];

	return shell_quote_argv(argv, buf, sizeof(buf)) < 0 ? NULL : buf;
}

static const char *word(const char *w)
{
	const char *argv[] = { "x", w, NULL };
	const char *q = quoted(argv);

	return q ? q + 2 : NULL;
}

/* What bash -c 'printf "%s\0" LINE' writes, in locale: into out[len]; its length or -1. */
static ssize_t bash_printf(const char *line, const char *locale, char *out, size_t len)
{
	char cmd[8192];
	int fd[2], status;
	ssize_t n = 0, r;
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "printf '%%s\\0' %s", line);
	if (pipe(fd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		setenv("LC_ALL", locale, 1);
		execlp("bash", "bash", "--norc", "--noprofile", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && (size_t)n < len && (r = read(fd[0], out + n, len - n)) > 0)
		n += r;
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return n;
}

/* argv joined with a NUL after each word: what printf '%s\0' gives back. */
static size_t joined(const char *const argv[], char *out, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; argv[i]; i++) {
		size_t l = strlen(argv[i]) + 1;

		if (n + l > len)
			return 0;
		memcpy(out + n, argv[i], l);
		n += l;
	}
	return n;
}

static void round_trip(const char *const argv[], const char *what)
{
	static const char *const locales[] = { "C", "C.UTF-8" };
	char want[4096], got[4096];
	size_t wn = joined(argv, want, sizeof(want));
	const char *q = quoted(argv);

	for (size_t i = 0; i < 2; i++) {
		ssize_t n = q ? bash_printf(q, locales[i], got, sizeof(got)) : -1;

		CHECK(n >= 0 && (size_t)n == wn && memcmp(got, want, wn) == 0,
		      "%s: bash gives back the exact words (LC_ALL=%s)", what, locales[i]);
	}
}

/* No byte of q is a control character or a raw byte above 0x7f of a hidden character. */
static int clean(const char *q)
{
	for (const unsigned char *p = (const unsigned char *)q; p && *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return q != NULL;
}

static void test_forms(void)
{
	const char *const cmd[] = { "systemctl", "set-property", "a.service",
				    "AllowedMemoryNodes=0-1", NULL };
	const char *const assign[] = { "a=b", "%1", NULL };

	CHECK_STR(quoted(cmd), "systemctl set-property a.service AllowedMemoryNodes=0-1",
		  "plain words stay bare");
	CHECK_STR(word(""), "''", "an empty word is ''");
	CHECK_STR(word("a b"), "'a b'", "a space: single quotes");
	CHECK_STR(word("x$(touch${IFS}PWNED)y.scope"), "'x$(touch${IFS}PWNED)y.scope'",
		  "a command substitution: single quotes");
	CHECK_STR(word("a;id;b.service"), "'a;id;b.service'", "a semicolon: single quotes");
	CHECK_STR(word("it's"), "'it'\\''s'", "a quote closes, is escaped and reopens");
	CHECK_STR(word("a\nb"), "$'a\\x0ab'", "a newline: $'' with \\x0a");
	CHECK_STR(word("\033]52;c;aGk=\a"), "$'\\x1b]52;c;aGk=\\x07'", "OSC 52: every byte exact");
	CHECK_STR(word("a\xe2\x80\xae"
		       "b"),
		  "$'a\\xe2\\x80\\xaeb'", "U+202E: its three bytes as \\xNN");
	CHECK_STR(word("\xe2\x80\x8b"), "$'\\xe2\\x80\\x8b'", "U+200B: zero width, escaped");
	CHECK_STR(word("\xef\xbb\xbf"), "$'\\xef\\xbb\\xbf'", "U+FEFF: escaped");
	CHECK_STR(word("\xc2\x9b"), "$'\\xc2\\x9b'", "a C1 control (CSI): escaped");
	CHECK_STR(word("\xff'\\"), "$'\\xff\\'\\\\'", "invalid UTF-8 with ' and \\ in $''");
	CHECK_STR(word("caf\xc3\xa9 x"), "'caf\xc3\xa9 x'", "valid UTF-8 letters: single quotes");
	CHECK_STR(word("\x7f"), "$'\\x7f'", "DEL: escaped");
	CHECK_STR(quoted(assign), "'a=b' %1", "a first word with = or %% is quoted");
}

static void test_round_trips(void)
{
	const char *const a[] = { "x$(touch${IFS}PWNED)y.scope",
				  "a;id;b.service",
				  "'",
				  "''\\",
				  "a\nb",
				  "\033]52;c;aGk=\a",
				  "\xe2\x80\xae"
				  "cba",
				  "",
				  "-n",
				  "*",
				  "~",
				  "!x",
				  "$HOME",
				  "`id`",
				  "a\tb\r",
				  "!\n!",
				  NULL };
	const char *const b[] = { "\xff\xfe", "\xc3\xa9\\'", "\xc3\x28", "\xed\xa0\x80", "\x7f",
				  "\xc2\x85", "a b  c",      "{a,b}",    "#c",           NULL };

	round_trip(a, "hostile names");
	round_trip(b, "invalid UTF-8, DEL, C1, globs and comments");
	CHECK(clean(quoted(a)) && clean(quoted(b)), "no control byte reaches the line");
}

static void test_whole_or_nothing(void)
{
	static char longw[1200];
	const char *const argv[] = { "echo", longw, NULL };
	char small[16] = "junk";

	memset(longw, 'a', sizeof(longw) - 1);
	CHECK(shell_quote_argv(argv, small, sizeof(small)) == -ENOSPC, "too long: -ENOSPC");
	CHECK_STR(small, "", "and nothing of the command is left");
	CHECK(shell_quote_argv(argv, small, 0) == -ENOSPC, "no room at all: -ENOSPC");
	CHECK(shell_quote_word("abc", small, 4) == 3, "a word that just fits");
	CHECK(shell_quote_word("abcd", small, 4) == -ENOSPC, "one byte more does not");
	CHECK(shell_quote_word("a'b", small, sizeof(small)) == 8, "the length is returned");
	round_trip(argv, "a 1,200-byte word");
}

int main(void)
{
	test_forms();
	test_round_trips();
	test_whole_or_nothing();
	return tap_done();
}
