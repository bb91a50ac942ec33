// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The knob guard of selftest --toggle and bench, on a copy of a fixture
 * tree: the counters are saved once, before the first vm.numa_stat 1 -> 0;
 * the original value comes back; a stop signal only raises a flag; a write
 * by someone else stops the run; no snapshot, no switching off.
 */
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-guard.h"
#include "sysfs.h"
#include "tap.h"

static char root[256], state[300], knob_file[320];

static const char *file_value(void)
{
	static char buf[32];
	FILE *f = fopen(knob_file, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void set_file(const char *v)
{
	FILE *f = fopen(knob_file, "w");

	if (f) {
		fprintf(f, "%s\n", v);
		fclose(f);
	}
}

static size_t snapshots(const char *dir)
{
	char pattern[400];
	glob_t g;
	size_t n;

	snprintf(pattern, sizeof(pattern), "%s/snapshots/numastat-*.json", dir);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	n = g.gl_pathc;
	globfree(&g);
	return n;
}

static struct kval val(const char *s)
{
	struct kval v;

	snprintf(v.text, sizeof(v.text), "%s", s);
	return v;
}

static void test_flip_and_restore(const struct knob_ref *ref)
{
	struct knob_guard g;
	struct kval zero = val("0"), one = val("1");
	struct sigaction now;
	char why[512] = "";

	CHECK(bench_guard_begin(&g, ref, state, state, false, why, sizeof(why)) == 0,
	      "bench_guard_begin takes the lock and reads the value%s%s", *why ? ": " : "", why);
	CHECK_STR(g.orig.text, "1", "the original value is read");
	CHECK(bench_guard_set(&g, &zero, why, sizeof(why)) == 0, "1 -> 0%s%s", *why ? ": " : "",
	      why);
	CHECK_STR(file_value(), "0", "the knob holds 0");
	CHECK(snapshots(state) == 1 && strstr(g.snapshot_path, "/snapshots/numastat-"),
	      "the counters were saved first, and the path is known");
	CHECK(bench_guard_set(&g, &one, why, sizeof(why)) == 0 &&
		      bench_guard_set(&g, &zero, why, sizeof(why)) == 0,
	      "0 -> 1 -> 0");
	CHECK(snapshots(state) == 1, "later 1 -> 0 flips save nothing more");
	raise(SIGINT);
	CHECK(bench_guard_stop == SIGINT, "SIGINT only raises the stop flag");
	CHECK(bench_guard_end(&g, why, sizeof(why)) == 0, "bench_guard_end%s%s", *why ? ": " : "",
	      why);
	CHECK_STR(file_value(), "1", "the original value is back");
	sigaction(SIGINT, NULL, &now);
	CHECK(now.sa_handler == SIG_DFL, "SIGINT has its default disposition again");
}

static void test_other_writer(const struct knob_ref *ref)
{
	struct knob_guard g;
	struct kval zero = val("0");
	char why[512] = "";

	bench_guard_begin(&g, ref, state, state, false, why, sizeof(why));
	bench_guard_set(&g, &zero, why, sizeof(why));
	set_file("1");
	CHECK(bench_guard_set(&g, &zero, why, sizeof(why)) == -EBUSY,
	      "a value nobody here wrote stops the run");
	CHECK_STR(why,
		  "vm.numa_stat: changed by another writer during the run (now '1', expected '0')",
		  "and says what it found");
	set_file("0");
	CHECK(bench_guard_end(&g, why, sizeof(why)) == 0, "the guard still restores");
	CHECK_STR(file_value(), "1", "the original value");
}

static void test_no_snapshot(const struct knob_ref *ref)
{
	struct knob_guard g;
	struct kval zero = val("0");
	char why[512] = "", blocked[400], fresh[400];
	FILE *f;

	snprintf(blocked, sizeof(blocked), "%s/file", root);
	f = fopen(blocked, "w");
	if (f)
		fclose(f);
	/* Snapshots below a regular file: none can be written there (the lock can). */
	snprintf(blocked, sizeof(blocked), "%s/file/state", root);
	snprintf(fresh, sizeof(fresh), "%s/lockonly", root);
	CHECK(bench_guard_begin(&g, ref, fresh, blocked, false, why, sizeof(why)) == 0,
	      "the lock is taken in the runtime directory%s%s", *why ? ": " : "", why);
	CHECK(bench_guard_set(&g, &zero, why, sizeof(why)) == -ECANCELED,
	      "no snapshot possible: vm.numa_stat is not switched off");
	CHECK_STR(file_value(), "1", "it still holds 1");
	bench_guard_end(&g, why, sizeof(why));
	snprintf(fresh, sizeof(fresh), "%s/nosnap", root);
	bench_guard_begin(&g, ref, fresh, fresh, true, why, sizeof(why));
	CHECK(bench_guard_set(&g, &zero, why, sizeof(why)) == 0 && snapshots(fresh) == 0,
	      "--no-snapshot: switched off without a snapshot");
	bench_guard_end(&g, why, sizeof(why));
	CHECK_STR(file_value(), "1", "and restored");
}

int main(void)
{
	const char *fixtures = getenv("FIXTURES");
	char cmd[700], why[256];
	struct knob_ref ref;

	snprintf(root, sizeof(root), "%s/numastatctl-guard.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!fixtures || !mkdtemp(root)) {
		printf("1..0 # SKIP needs FIXTURES and a temporary directory\n");
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "cp -a '%s/sparse3/.' '%s/' && find '%s' -name .gitkeep -delete",
		 fixtures, root, root);
	snprintf(state, sizeof(state), "%s/state", root);
	snprintf(knob_file, sizeof(knob_file), "%s/proc/sys/vm/numa_stat", root);
	CHECK(system(cmd) == 0, "a copy of the sparse3 fixture");
	CHECK(sysfs_init(root) == 0, "sysroot on the copy");
	CHECK(knob_resolve("vm.numa_stat", &ref, why, sizeof(why)) == 0, "vm.numa_stat resolves");
	test_flip_and_restore(&ref);
	test_other_writer(&ref);
	test_no_snapshot(&ref);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "clean up");
	return tap_done();
}
