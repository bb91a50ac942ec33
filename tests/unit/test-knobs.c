// SPDX-License-Identifier: GPL-2.0-or-later
/* Knob names and typed values: what is accepted, canonical forms, refusals. */
#include <errno.h>
#include <string.h>

#include "knobs.h"
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
	CHECK_STR(resolve("demotion_enabled"), "mm.numa.demotion_enabled", "short name of a sysfs knob");
	CHECK_STR(resolve("mm/numa/demotion_enabled"), "mm.numa.demotion_enabled", "sysfs knob with slashes");
	CHECK_STR(resolve("vm.swappiness"), "vm.swappiness", "vm.* passes through");
	CHECK_STR(resolve("kernel.numa_balancing_scan_delay_ms"), "kernel.numa_balancing_scan_delay_ms",
		  "kernel.numa_* passes through");
	CHECK(knob_resolve("vm.swappiness", &ref, why, sizeof(why)) == 0 && !ref.knob &&
	      strcmp(ref.path, "/proc/sys/vm/swappiness") == 0, "pass-through path");
	CHECK(knob_resolve("mm.numa.demotion_enabled", &ref, why, sizeof(why)) == 0 &&
	      strcmp(ref.path, "/sys/kernel/mm/numa/demotion_enabled") == 0, "registry path of a sysfs knob");
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
	CHECK_STR(why, "vm.numa_stat: invalid value '2': must be 0 or 1 (or on/off)", "bool message");
	CHECK(!parse("vm.numa_stat", "0x1"), "bool: hex refused (the kernel takes it)");
	CHECK_STR(parse("vm.zone_reclaim_mode", "1|4"), "5", "bitmask: 1|4");
	CHECK_STR(parse("vm.zone_reclaim_mode", "reclaim | unmap"), "5", "bitmask: names");
	CHECK_STR(parse("vm.zone_reclaim_mode", "7"), "7", "bitmask: all bits");
	CHECK_STR(parse("vm.zone_reclaim_mode", "none"), "0", "bitmask: none");
	CHECK(!parse("vm.zone_reclaim_mode", "99"), "bitmask: 99 refused (the kernel takes it)");
	CHECK(!parse("vm.zone_reclaim_mode", "8"), "bitmask: unknown bit refused");
	CHECK(!parse("vm.zone_reclaim_mode", "1|"), "bitmask: dangling bar refused");
	CHECK(!parse("vm.zone_reclaim_mode", "reclaim|bogus"), "bitmask: unknown name refused");
	CHECK(strstr(why, "an OR of 1 (reclaim), 2 (write), 4 (unmap)") != NULL, "bitmask message: %s", why);
	CHECK_STR(parse("kernel.numa_balancing", "normal|tiering"), "3", "numa_balancing 3");
	CHECK(!parse("kernel.numa_balancing", "4"), "numa_balancing 4 refused");
	CHECK_STR(parse("vm.min_slab_ratio", "100"), "100", "int: maximum");
	CHECK(!parse("vm.min_slab_ratio", "101"), "int: above maximum");
	CHECK(!parse("vm.min_slab_ratio", "-1"), "int: negative");
	CHECK(!parse("vm.min_slab_ratio", "010"), "int: octal-looking refused");
	CHECK_STR(why, "vm.min_slab_ratio: invalid value '010': must be an integer from 0 to 100", "int message");
	CHECK_STR(parse("kernel.numa_balancing_promote_rate_limit_MBps", "4294967295"), "4294967295",
		  "uint32 maximum");
	CHECK(!parse("kernel.numa_balancing_promote_rate_limit_MBps", "4294967296"), "uint32 overflow");
	CHECK_STR(parse("vm.numa_zonelist_order", "node"), "Node", "enum: case-insensitive");
	CHECK_STR(parse("vm.numa_zonelist_order", "Default"), "Node", "enum: Default means Node");
	CHECK(!parse("vm.numa_zonelist_order", "Zone"), "enum: Zone refused (the kernel fails it)");
	CHECK(!parse("vm.numa_zonelist_order", "nonsense"), "enum: a word starting with n is refused");
	CHECK_STR(parse("mm.numa.demotion_enabled", "yes"), "1", "sysfs bool");
	CHECK_STR(parse("vm.swappiness", " 10  "), "10", "pass-through is trimmed");
	CHECK_STR(parse("vm.lowmem_reserve_ratio", "256\t256  32"), "256 256 32", "pass-through folds blanks");
	CHECK(!parse("vm.swappiness", "1\n2"), "pass-through refuses control characters");
	CHECK(!parse("vm.swappiness", ""), "pass-through refuses empty");
}

static void test_live_and_display(void)
{
	struct knob_ref ref;
	struct kval v;
	char buf[64];

	knob_resolve("mm.numa.demotion_enabled", &ref, why, sizeof(why));
	knob_parse_live(&ref, "true\n", &v);
	CHECK_STR(v.text, "1", "live 'true' compares as 1");
	CHECK_STR(knob_display(&ref, &v, buf, sizeof(buf)), "true", "and displays as the kernel says");
	knob_resolve("vm.zone_reclaim_mode", &ref, why, sizeof(why));
	knob_parse_live(&ref, "99\n", &v);
	CHECK_STR(v.text, "99", "a live value outside the registry is kept verbatim");
	knob_describe(&ref, &v, buf, sizeof(buf));
	CHECK_STR(buf, "reclaim|write|unknown bits 0x60", "and described with its unknown bits");
	knob_parse_live(&ref, "0\n", &v);
	knob_describe(&ref, &v, buf, sizeof(buf));
	CHECK_STR(buf, "off", "zero bitmask is off");
}

static void test_registry(void)
{
	bool ok = true;

	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		struct knob_ref ref;
		struct kval v;

		if (knob_resolve(k->name, &ref, why, sizeof(why)) < 0 || ref.knob != k)
			ok = false;
		else {
			knob_parse_live(&ref, k->default_value, &v);
			if (knob_parse(&ref, k->default_value, &v, why, sizeof(why)) < 0)
				ok = false;
		}
		if (!k->help || !k->since || !k->path || k->path[0] != '/')
			ok = false;
	}
	CHECK(ok, "every registry knob resolves to itself, has help, and its default validates");
}

int main(void)
{
	test_names();
	test_values();
	test_live_and_display();
	test_registry();
	return tap_done();
}
