/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tap.h itself: a failing check with line breaks in its description or in
 * the strings it compares still prints only TAP lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

/* Runs a failing CHECK_STR with multi-line text into a file; returns what
 * it printed (malloc'd) and leaves the counters as they were. */
static char *failing_check_output(void)
{
	int saved_n = tap_n, saved_failed = tap_failed, saved_fd;
	FILE *f = tmpfile();
	char *buf;
	long len;

	if (!f)
		return NULL;
	fflush(stdout);
	saved_fd = dup(STDOUT_FILENO);
	if (saved_fd < 0 || dup2(fileno(f), STDOUT_FILENO) < 0) {
		if (saved_fd >= 0)
			close(saved_fd);
		fclose(f);
		return NULL;
	}
	CHECK_STR("line one\nline two\r\n", "want\nthis", "a description\nover %d lines", 2);
	fflush(stdout);
	dup2(saved_fd, STDOUT_FILENO);
	close(saved_fd);
	tap_n = saved_n;
	tap_failed = saved_failed;

	len = ftell(f);
	buf = len < 0 ? NULL : calloc(1, (size_t)len + 1);
	rewind(f);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/* Every line of out starts as TAP does: a result or a comment. */
static int all_tap(const char *out)
{
	for (const char *l = out; *l; l = strchr(l, '\n') + 1) {
		if (strncmp(l, "ok ", 3) != 0 && strncmp(l, "not ok ", 7) != 0 && l[0] != '#')
			return 0;
		if (!strchr(l, '\n'))
			return 0;
	}
	return 1;
}

int main(void)
{
	char *out = failing_check_output();

	CHECK(out != NULL, "the failing check's output was captured");
	if (!out)
		return tap_done();
	CHECK(all_tap(out), "a failing check with line breaks prints only TAP lines");
	CHECK(strstr(out, "not ok 1 - a description\\nover 2 lines\n") != NULL,
	      "the description stays on its line");
	CHECK(strstr(out, "#   got 'line one\\nline two\\r\\n', want 'want\\nthis'\n") != NULL,
	      "got and want stay on the comment line");
	CHECK(tap_failed == 0, "the captured failure does not count here");
	free(out);
	return tap_done();
}
