// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libnuma wrapper: libnuma's warnings and errors reach our numa_warn()
 * and numa_error() (exported from the executable like numastatctl's own
 * link), carry our prefix, are not deduplicated and never exit.
 */
#include <dlfcn.h>
#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log.h"
#include "numalib.h"
#include "tap.h"

static FILE *err_file;
static int saved_stderr = -1;

/* Send stderr to a temporary file until captured() returns its text. */
static void capture(void)
{
	fflush(stderr);
	err_file = tmpfile();
	saved_stderr = dup(2);
	dup2(fileno(err_file), 2);
}

static char *captured(void)
{
	static char buf[4096];
	size_t n;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	rewind(err_file);
	n = fread(buf, 1, sizeof(buf) - 1, err_file);
	buf[n] = '\0';
	fclose(err_file);
	return buf;
}

static void test_warnings(void)
{
	void *h = dlopen("libnuma.so.1", RTLD_NOW | RTLD_NOLOAD);
	typeof(numa_parse_nodestring) *parse = h ? dlsym(h, "numa_parse_nodestring") : NULL;
	const char *want =
		"numastatctl: selftest: warning: libnuma: unparseable node description `x-1'\n";
	char *out;

	CHECK(parse != NULL, "libnuma is loaded and exports numa_parse_nodestring");
	if (!parse)
		return;
	capture();
	/* Constant input: never hand user strings to it (I/O affinity lookups). */
	CHECK(parse("x-1") == NULL, "a bad node string is refused (first)");
	CHECK(parse("x-1") == NULL, "a bad node string is refused (second)");
	out = captured();
	CHECK(strncmp(out, want, strlen(want)) == 0 &&
		      strncmp(out + strlen(want), want, strlen(want)) == 0 &&
		      !out[2 * strlen(want)],
	      "both warnings came through numa_warn with our prefix, one line each");
	if (strncmp(out, want, strlen(want)) != 0) {
		/* fputs: gcc's format check under the sanitizers took out for NULL. */
		fputs("#   stderr was: ", stdout);
		fputs(out, stdout);
	}
	CHECK(!strstr(out, "libnuma: Warning:"), "libnuma's own numa_warn did not print");
	dlclose(h);
}

static void test_errors(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	char why[256] = "";
	char *out;
	int r;

	CHECK(p != MAP_FAILED, "a scratch mapping");
	capture();
	/* mbind() wants a page-aligned start: libnuma calls numa_error("mbind"). */
	r = numalib_bind(p + 1, (size_t)page, 0, why, sizeof(why));
	out = captured();
	CHECK(r == -EINVAL, "a failed mbind is returned as -EINVAL (got %d)", r);
	CHECK_STR(why, "cannot bind memory to the node: libnuma: mbind: Invalid argument",
		  "and explained with libnuma's words");
	CHECK(out[0] == '\0', "nothing printed: the command prints it, with context");
	CHECK(numalib_bind(p, (size_t)page, 0, why, sizeof(why)) == 0,
	      "a good bind after a failed one succeeds (the error was consumed)");
	munmap(p, (size_t)page * 2);
}

int main(void)
{
	char why[256];
	int r = numalib_load(why, sizeof(why));

	if (r == -ENOSYS) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	CHECK(r == 0, "libnuma loads and the overrides are exported (%s)", r ? why : "yes");
	if (r)
		return tap_done();
	log_set_command("selftest");
	test_warnings();
	test_errors();
	return tap_done();
}
