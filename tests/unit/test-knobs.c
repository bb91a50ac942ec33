// SPDX-License-Identifier: GPL-2.0-or-later
/* Knob names and typed values: what is accepted, canonical forms, refusals. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knobs.h"
#include "sysfs.h"
#include "tap.h"

static char why[512];

static const char *resolve(const char *in)
{
	static struct knob_ref ref;

	if (knob_resolve(in, &ref, why, sizeof(why)) < 0)
		return NULL;
	return ref.name;
}

static void test_names(void)
{
	struct knob_ref ref;

	CHECK_STR(resolve("vm.numa_stat"), "vm.numa_stat", "dotted name");
	CHECK_STR(resolve("vm/numa_stat"), "vm.numa_stat", "slashed name");
	CHECK_STR(resolve("numa_stat"), "vm.numa_stat", "unique short name");
	CHECK_STR(resolve("demotion_enabled"), "mm.numa.demotion_enabled",
		  "short name of a sysfs knob");
	CHECK_STR(resolve("mm/numa/demotion_enabled"), "mm.numa.demotion_enabled",
		  "sysfs knob with slashes");
	CHECK_STR(resolve("vm.swappiness"), "vm.swappiness", "vm.* passes through");
	CHECK_STR(resolve("kernel.numa_balancing_scan_delay_ms"),
		  "kernel.numa_balancing_scan_delay_ms", "kernel.numa_* passes through");
	CHECK(knob_resolve("vm.swappiness", &ref, why, sizeof(why)) == 0 && !ref.knob &&
		      strcmp(ref.path, "/proc/sys/vm/swappiness") == 0,
	      "pass-through path");
	CHECK(knob_resolve("mm.numa.demotion_enabled", &ref, why, sizeof(why)) == 0 &&
		      strcmp(ref.path, "/sys/kernel/mm/numa/demotion_enabled") == 0,
	      "registry path of a sysfs knob");
	CHECK(!resolve("kernel.hostname"), "kernel.hostname is refused");
	CHECK(strstr(why, "unknown knob 'kernel.hostname'") != NULL, "and named: %s", why);
	CHECK(!resolve("net.ipv4.ip_forward"), "net.* is refused");
	CHECK(!resolve(""), "empty is refused");
	CHECK(!resolve("vm..numa_stat"), "empty component is refused");
	CHECK(!resolve("../vm/numa_stat"), "dot-dot is refused");
	CHECK(!resolve("/proc/sys/vm/numa_stat"), "absolute paths are refused");
	CHECK(!resolve("vm/numa.stat"), "mixed separators are refused");
	CHECK(!resolve("vm.numa stat"), "spaces are refused");
	CHECK(!resolve("vm.drop_caches"), "action sysctls are refused");
	CHECK(!resolve("vm.a.b"), "three parts outside the registry are refused");
	CHECK(!resolve("swappiness"), "short names only for registry knobs");
	char longname[300];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memcpy(longname, "vm.", 3);
	CHECK(!resolve(longname), "overlong names are refused");
}

static const char *parse(const char *name, const char *in)
{
	static struct kval v;
	struct knob_ref ref;

	if (knob_resolve(name, &ref, why, sizeof(why)) < 0 ||
	    knob_parse(&ref, in, &v, why, sizeof(why)) < 0)
		return NULL;
	return v.text;
}

static void test_values(void)
{
	CHECK_STR(parse("vm.numa_stat", "on"), "1", "bool: on");
	CHECK_STR(parse("vm.numa_stat", "FALSE"), "0", "bool: FALSE");
	CHECK_STR(parse("vm.numa_stat", " 1\n"), "1", "bool: surrounding space");
	CHECK(!parse("vm.numa_stat", "2"), "bool: 2 refused");
	CHECK_STR(why, "vm.numa_stat: invalid value '2': must be 0 or 1 (or on/off)",
		  "bool message");
	CHECK(!parse("vm.numa_stat", "0x1"), "bool: hex refused (the kernel takes it)");
	CHECK_STR(parse("vm.zone_reclaim_mode", "1|4"), "5", "bitmask: 1|4");
	CHECK_STR(parse("vm.zone_reclaim_mode", "reclaim | unmap"), "5", "bitmask: names");
	CHECK_STR(parse("vm.zone_reclaim_mode", "7"), "7", "bitmask: all bits");
	CHECK_STR(parse("vm.zone_reclaim_mode", "none"), "0", "bitmask: none");
	CHECK(!parse("vm.zone_reclaim_mode", "99"), "bitmask: 99 refused (the kernel takes it)");
	CHECK(!parse("vm.zone_reclaim_mode", "8"), "bitmask: unknown bit refused");
	CHECK(!parse("vm.zone_reclaim_mode", "1|"), "bitmask: dangling bar refused");
	CHECK(!parse("vm.zone_reclaim_mode", "reclaim|bogus"), "bitmask: unknown name refused");
	CHECK(strstr(why, "an OR of 1 (reclaim), 2 (write), 4 (unmap)") != NULL,
	      "bitmask message: %s", why);
	CHECK_STR(parse("kernel.numa_balancing", "normal|tiering"), "3", "numa_balancing 3");
	CHECK(!parse("kernel.numa_balancing", "4"), "numa_balancing 4 refused");
	CHECK_STR(parse("vm.min_slab_ratio", "100"), "100", "int: maximum");
	CHECK(!parse("vm.min_slab_ratio", "101"), "int: above maximum");
	CHECK(!parse("vm.min_slab_ratio", "-1"), "int: negative");
	CHECK(!parse("vm.min_slab_ratio", "010"), "int: octal-looking refused");
	CHECK_STR(why, "vm.min_slab_ratio: invalid value '010': must be an integer from 0 to 100",
		  "int message");
	CHECK_STR(parse("vm.numa_zonelist_order", "node"), "Node", "enum: case-insensitive");
	CHECK_STR(parse("vm.numa_zonelist_order", "Default"), "Node", "enum: Default means Node");
	CHECK(!parse("vm.numa_zonelist_order", "Zone"), "enum: Zone refused (the kernel fails it)");
	CHECK(!parse("vm.numa_zonelist_order", "nonsense"),
	      "enum: a word starting with n is refused");
	CHECK_STR(parse("mm.numa.demotion_enabled", "yes"), "1", "sysfs bool");
	CHECK_STR(parse("vm.swappiness", " 10  "), "10", "pass-through is trimmed");
	CHECK_STR(parse("vm.lowmem_reserve_ratio", "256\t256  32"), "256 256 32",
		  "pass-through folds blanks");
	CHECK(!parse("vm.swappiness", "1\n2"), "pass-through refuses control characters");
	CHECK(!parse("vm.swappiness", ""), "pass-through refuses empty");
}

/*
 * Each knob's edges, as its kernel handler has them (src/lib/knobs.c cites it):
 * the last value in and the first one out on either side.
 */
static void test_bounds(void)
{
	static const struct {
		const char *knob, *value;
		bool ok;
	} cases[] = {
		{ "vm.numa_stat", "-1", false },
		{ "vm.numa_stat", "0", true },
		{ "vm.numa_stat", "1", true },
		{ "vm.numa_stat", "2", false },
		{ "vm.zone_reclaim_mode", "-1", false },
		{ "vm.zone_reclaim_mode", "0", true },
		{ "vm.zone_reclaim_mode", "7", true },
		{ "vm.zone_reclaim_mode", "8", false },
		{ "vm.min_unmapped_ratio", "-1", false },
		{ "vm.min_unmapped_ratio", "0", true },
		{ "vm.min_unmapped_ratio", "100", true },
		{ "vm.min_unmapped_ratio", "101", false },
		{ "vm.min_slab_ratio", "-1", false },
		{ "vm.min_slab_ratio", "0", true },
		{ "vm.min_slab_ratio", "100", true },
		{ "vm.min_slab_ratio", "101", false },
		{ "kernel.numa_balancing", "-1", false },
		{ "kernel.numa_balancing", "0", true },
		{ "kernel.numa_balancing", "3", true },
		{ "kernel.numa_balancing", "4", false },
		/* proc_dointvec_minmax parses an int, though the data is unsigned. */
		{ "kernel.numa_balancing_promote_rate_limit_MBps", "-1", false },
		{ "kernel.numa_balancing_promote_rate_limit_MBps", "0", true },
		{ "kernel.numa_balancing_promote_rate_limit_MBps", "2147483647", true },
		{ "kernel.numa_balancing_promote_rate_limit_MBps", "2147483648", false },
		{ "kernel.numa_balancing_promote_rate_limit_MBps", "4294967295", false },
		{ "mm.numa.demotion_enabled", "0", true },
		{ "mm.numa.demotion_enabled", "1", true },
		{ "mm.numa.demotion_enabled", "2", false },
		/* INT_MAX / HZ with HZ = 1000; 0 and below are refused on purpose. */
		{ "vm.stat_interval", "0", false },
		{ "vm.stat_interval", "1", true },
		{ "vm.stat_interval", "7200", true },
		{ "vm.stat_interval", "2147483", true },
		{ "vm.stat_interval", "2147484", false },
		{ "vm.zone_distribute_mode", "-1", false },
		{ "vm.zone_distribute_mode", "0", true },
		{ "vm.zone_distribute_mode", "2147483647", true },
		{ "vm.zone_distribute_mode", "2147483648", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(!parse(cases[i].knob, cases[i].value) == !cases[i].ok, "%s=%s %s",
		      cases[i].knob, cases[i].value, cases[i].ok ? "accepted" : "refused");
	CHECK_STR(why,
		  "vm.zone_distribute_mode: invalid value '2147483648': must be an integer "
		  "from 0 to 2147483647",
		  "the message names the kernel's range");
}

/* A range that grew: kernel.numa_balancing took only 0 and 1 before 5.18. */
static void test_older_kernels(const char *osrelease)
{
	FILE *f = fopen(osrelease, "w");

	if (!f) {
		CHECK(0, "cannot write %s", osrelease);
		return;
	}
	fputs("5.17.15-1-generic\n", f);
	fclose(f);
	CHECK(knob_kernel_version() == 5017, "osrelease 5.17.15-1-generic is 5.17");
	CHECK_STR(parse("kernel.numa_balancing", "1"), "1", "5.17: numa_balancing=1 is taken");
	CHECK(!parse("kernel.numa_balancing", "tiering"), "5.17: tiering (2) is refused");
	CHECK_STR(why,
		  "kernel.numa_balancing: invalid value '2': this kernel (5.17) takes at most "
		  "1; more came in 5.18",
		  "and says which kernel has it");
	f = fopen(osrelease, "w");
	fputs("5.18.0\n", f);
	fclose(f);
	CHECK_STR(parse("kernel.numa_balancing", "3"), "3", "5.18: 3 is taken");
	unlink(osrelease);
	CHECK(knob_kernel_version() == -1, "no osrelease: version unknown");
	CHECK_STR(parse("kernel.numa_balancing", "3"), "3", "unknown version: the current range");
}

static void test_live_and_display(void)
{
	struct knob_ref ref;
	struct kval v;
	char buf[64];

	knob_resolve("mm.numa.demotion_enabled", &ref, why, sizeof(why));
	knob_parse_live(&ref, "true\n", &v);
	CHECK_STR(v.text, "1", "live 'true' compares as 1");
	CHECK_STR(knob_display(&ref, &v, buf, sizeof(buf)), "true",
		  "and displays as the kernel says");
	knob_resolve("vm.zone_reclaim_mode", &ref, why, sizeof(why));
	knob_parse_live(&ref, "99\n", &v);
	CHECK_STR(v.text, "99", "a live value outside the registry is kept verbatim");
	knob_describe(&ref, &v, buf, sizeof(buf));
	CHECK_STR(buf, "reclaim|write|unknown bits 0x60", "and described with its unknown bits");
	knob_parse_live(&ref, "0\n", &v);
	knob_describe(&ref, &v, buf, sizeof(buf));
	CHECK_STR(buf, "off", "zero bitmask is off");
	char big[256];

	knob_resolve("vm.stat_interval", &ref, why, sizeof(why));
	knob_parse_live(&ref, "1\n", &v);
	knob_describe(&ref, &v, big, sizeof(big));
	CHECK_STR(big, "second between folds of per-CPU vm statistics into the global counters",
		  "1 of a unit is singular: 1 second, never 1 seconds");
	knob_parse_live(&ref, "2\n", &v);
	knob_describe(&ref, &v, buf, sizeof(buf));
	CHECK_STR(buf, "", "2 reads with the help as it is: 2 seconds");
	knob_resolve("kernel.numa_balancing_promote_rate_limit_MBps", &ref, why, sizeof(why));
	knob_parse_live(&ref, "1\n", &v);
	knob_describe(&ref, &v, buf, sizeof(buf));
	CHECK_STR(buf, "", "a unit that is no plural word (MB/s) is left alone");
}

static bool zeroes(const char *name, const char *from, const char *to)
{
	struct knob_ref ref;
	struct kval a, b;

	if (knob_resolve(name, &ref, why, sizeof(why)) < 0)
		return false;
	knob_parse_live(&ref, from, &a);
	knob_parse_live(&ref, to, &b);
	return knob_change_zeroes_counters(&ref, &a, &b);
}

static bool freezes(const char *name, const char *value)
{
	struct knob_ref ref;
	struct kval v;

	if (knob_resolve(name, &ref, why, sizeof(why)) < 0)
		return false;
	knob_parse_live(&ref, value, &v);
	return knob_freezes_counters(&ref, &v);
}

/* The side effects the registry flags, asked of the registry, not of a knob's name. */
static void test_side_effects(void)
{
	CHECK(zeroes("vm.numa_stat", "1", "0"), "numa_stat 1 -> 0 zeroes the counters");
	CHECK(zeroes("numa_stat", "1\n", "0"),
	      "whatever the name's spelling, read back with a newline");
	CHECK(!zeroes("vm.numa_stat", "0", "1"), "0 -> 1 does not");
	CHECK(!zeroes("vm.numa_stat", "0", "0") && !zeroes("vm.numa_stat", "1", "1"),
	      "nor writing the same value");
	CHECK(!zeroes("mm.numa.demotion_enabled", "true", "false"),
	      "another bool going 1 -> 0 does not");
	CHECK(!zeroes("vm.zone_reclaim_mode", "1", "0") && !zeroes("vm.swappiness", "1", "0"),
	      "nor a bitmask, nor a pass-through sysctl");
	CHECK(freezes("vm.numa_stat", "0\n") && !freezes("vm.numa_stat", "1"),
	      "numa_stat at 0 keeps the counters frozen, at 1 not");
	CHECK(!freezes("mm.numa.demotion_enabled", "false") && !freezes("vm.swappiness", "0"),
	      "other knobs at 0 do not");
}

static void test_registry(void)
{
	bool ok = true;
	size_t zeroing = 0;

	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		struct knob_ref ref;
		struct kval v;

		if (knob_resolve(k->name, &ref, why, sizeof(why)) < 0 || ref.knob != k)
			ok = false;
		else {
			knob_parse_live(&ref, k->default_value, &v);
			if (knob_parse(&ref, k->default_value, &v, why, sizeof(why)) < 0 ||
			    knob_parse(&ref, knob_default(k, 2), &v, why, sizeof(why)) < 0)
				ok = false;
		}
		if (!k->help || !k->since || !k->path || k->path[0] != '/')
			ok = false;
		/* The transition the flag names, 1 -> 0, exists only for a bool. */
		if ((k->flags & KNOB_F_ZEROES_COUNTERS) && k->type != KNOB_BOOL)
			ok = false;
		zeroing += !!(k->flags & KNOB_F_ZEROES_COUNTERS);
	}
	/* The commands' sentences about zeroed and frozen counters (counters.c) name it. */
	CHECK(zeroing == 1, "one knob zeroes the counters: vm.numa_stat");
	CHECK(ok, "every registry knob resolves to itself, has help, its default validates, "
		  "and only a bool zeroes the counters");
	CHECK_STR(knob_default(knob_by_name("kernel.numa_balancing"), 1), "0",
		  "kernel.numa_balancing: 0 on one node");
	CHECK_STR(knob_default(knob_by_name("kernel.numa_balancing"), 2), "1",
		  "and 1 on several (mm/mempolicy.c check_numabalancing_enable())");
	CHECK_STR(knob_default(knob_by_name("vm.numa_stat"), 2), "1",
		  "a knob without a multi-node default has one default");
}

/*
 * What test_bounds() pins for the knobs it names, for every registry knob:
 * the range the entry declares is the one validation enforces, so a new
 * entry is checked without a line here.  Whether that range is the kernel's
 * is for review: it shows in tests/expected/knobs-command/every-column.out.
 */
static void test_registry_edges(void)
{
	char in[32];

	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		bool ok = true;

		if (k->type == KNOB_ENUM) {
			for (const struct knob_word *w = k->words; w && w->name; w++)
				ok = ok && parse(k->name, w->name);
			CHECK(ok, "%s takes each of its words", k->name);
			continue;
		}
		if (k->type != KNOB_BOOL && k->type != KNOB_INT && k->type != KNOB_BITMASK)
			continue;
		snprintf(in, sizeof(in), "%" PRId64, k->min);
		ok = ok && parse(k->name, in);
		snprintf(in, sizeof(in), "%" PRId64, k->max);
		ok = ok && parse(k->name, in);
		snprintf(in, sizeof(in), "%" PRId64, k->min - 1);
		ok = ok && !parse(k->name, in);
		snprintf(in, sizeof(in), "%" PRId64, k->max + 1);
		ok = ok && !parse(k->name, in);
		CHECK(ok, "%s takes %" PRId64 " and %" PRId64 ", refuses one past either", k->name,
		      k->min, k->max);
	}
}

int main(void)
{
	char root[] = "/tmp/test-knobs.XXXXXX", path[64];

	/* The kernel version comes from the sysroot: a fixed one, whatever runs the test. */
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	for (const char *const *d =
		     (const char *const[]){ "/proc", "/proc/sys", "/proc/sys/kernel", NULL };
	     *d; d++) {
		snprintf(path, sizeof(path), "%s%s", root, *d);
		if (mkdir(path, 0755) < 0) {
			perror(path);
			return 2;
		}
	}
	if (sysfs_init(root) < 0) {
		perror(root);
		return 2;
	}
	strcat(path, "/osrelease");
	test_names();
	test_values();
	test_bounds();
	test_older_kernels(path);
	test_live_and_display();
	test_side_effects();
	test_registry();
	test_registry_edges();
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	if (system(path) != 0)
		fprintf(stderr, "# could not remove %s\n", root);
	return tap_done();
}
