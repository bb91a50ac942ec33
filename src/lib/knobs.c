// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "knobs.h"

static const struct knob_word zone_reclaim_flags[] = {
	{ "reclaim", 1, "reclaim memory on the local node before allocating off-node" },
	{ "write", 2, "write out dirty pages while reclaiming" },
	{ "unmap", 4, "swap out or unmap mapped pages while reclaiming" },
	{ NULL, 0, NULL },
};

static const struct knob_word numa_balancing_flags[] = {
	{ "normal", 1, "migrate tasks and pages towards the memory they use" },
	{ "tiering", 2, "promote hot pages from slow (CXL, PMEM) to fast memory" },
	{ NULL, 0, NULL },
};

static const struct knob_word zonelist_order_words[] = {
	{ "Node", 0, "node order (the only order since 4.14)" },
	{ "Default", 0, "accepted and treated as Node" },
	{ NULL, 0, NULL },
};

/*
 * Every range below was checked against the kernel's handler (file and
 * function named in each entry, as in mainline; older homes in brackets).
 * proc_dointvec_minmax() parses into an int: whatever the data's type, no
 * value above INT_MAX (2147483647) is ever accepted.
 */
const struct knob knob_table[] = {
	{
		/*
		 * mm/vmstat.c vmstat_table [kernel/sysctl.c vm_table before 6.x]:
		 * sysctl_vm_numa_stat_handler() -> proc_dointvec_minmax(),
		 * extra1 = SYSCTL_ZERO, extra2 = SYSCTL_ONE.
		 */
		.name = "vm.numa_stat",
		.path = "/proc/sys/vm/numa_stat",
		.type = KNOB_BOOL,
		.min = 0,
		.max = 1,
		.default_value = "1",
		.since = "4.15",
		.help = "count NUMA allocation events (numa_hit, numa_miss, local_node, ...)",
		.note = "setting 0 zeroes every NUMA counter on every node; counting restarts from 0 at 1",
		.flags = KNOB_F_ZEROES_COUNTERS,
	},
	{
		/*
		 * mm/vmscan.c [kernel/sysctl.c vm_table]: proc_dointvec_minmax(),
		 * extra1 = SYSCTL_ZERO, no extra2: the kernel takes 0..INT_MAX.
		 * Narrowed to 0..7 on purpose: node_reclaim_enabled() (mm/internal.h)
		 * reads only RECLAIM_ZONE|RECLAIM_WRITE|RECLAIM_UNMAP, so a higher bit
		 * is a mistake the kernel would silently ignore.
		 */
		.name = "vm.zone_reclaim_mode",
		.path = "/proc/sys/vm/zone_reclaim_mode",
		.type = KNOB_BITMASK,
		.min = 0,
		.max = 7,
		.words = zone_reclaim_flags,
		.default_value = "0",
		.since = "2.6.16",
		.help = "reclaim on the local node instead of allocating remote memory",
		.note = "the kernel also accepts values above 7 and ignores the extra bits",
	},
	{
		/*
		 * mm/page_alloc.c numa_zonelist_order_handler() ->
		 * __parse_numa_zonelist_order(): a write succeeds iff its first
		 * character is d, D, n or N (4.14+; before, z/Z for Zone too).  The
		 * two words are a subset every kernel takes.
		 */
		.name = "vm.numa_zonelist_order",
		.path = "/proc/sys/vm/numa_zonelist_order",
		.type = KNOB_ENUM,
		.words = zonelist_order_words,
		.default_value = "Node",
		.since = "2.6.24",
		.help = "zonelist order for allocations (deprecated: node order is the only order)",
		.note = "deprecated since 4.14: writes are accepted and have no effect",
		.flags = KNOB_F_DEPRECATED,
	},
	{
		/*
		 * mm/page_alloc.c sysctl_min_unmapped_ratio_sysctl_handler() ->
		 * proc_dointvec_minmax(), extra1 = SYSCTL_ZERO,
		 * extra2 = SYSCTL_ONE_HUNDRED.
		 */
		.name = "vm.min_unmapped_ratio",
		.path = "/proc/sys/vm/min_unmapped_ratio",
		.type = KNOB_INT,
		.min = 0,
		.max = 100,
		.default_value = "1",
		.since = "2.6.18",
		.help = "percent of a node's pages that must be unmapped file pages before zone reclaim runs",
	},
	{
		/*
		 * mm/page_alloc.c sysctl_min_slab_ratio_sysctl_handler() ->
		 * proc_dointvec_minmax(), extra1 = SYSCTL_ZERO,
		 * extra2 = SYSCTL_ONE_HUNDRED.
		 */
		.name = "vm.min_slab_ratio",
		.path = "/proc/sys/vm/min_slab_ratio",
		.type = KNOB_INT,
		.min = 0,
		.max = 100,
		.default_value = "5",
		.since = "2.6.19",
		.help = "percent of a node's pages in reclaimable slab before zone reclaim shrinks slab",
	},
	{
		/*
		 * kernel/sched/core.c sysctl_numa_balancing() [kernel/sysctl.c
		 * kern_table before 6.0]: -EPERM without CAP_SYS_ADMIN, then
		 * proc_dointvec_minmax() on a copy, extra1 = SYSCTL_ZERO;
		 * extra2 = SYSCTL_ONE before 5.18, SYSCTL_FOUR since the memory
		 * tiering mode (5.18).  Narrowed to 3: the kernel takes 4, but no
		 * mainline code reads that bit.
		 */
		.name = "kernel.numa_balancing",
		.path = "/proc/sys/kernel/numa_balancing",
		.type = KNOB_BITMASK,
		.min = 0,
		.max = 3,
		.older = { .before = "5.18", .max = 1 },
		.words = numa_balancing_flags,
		/*
		 * mm/mempolicy.c check_numabalancing_enable(): with more than
		 * one node online at boot the kernel turns balancing on when
		 * CONFIG_NUMA_BALANCING_DEFAULT_ENABLED is set, which its
		 * Kconfig does by default ("default y") and the distributions'
		 * kernels keep; on one node it stays 0.
		 */
		.default_value = "0",
		.default_multinode = "1",
		.since = "3.13",
		.help = "automatic NUMA balancing: 1 normal, 2 memory tiering (5.18+)",
		.note = "turning tiering on resets the memory-tiering promotion state",
		/* Each flip on starts scanning every task and migrates pages that stay moved. */
		.flags = KNOB_F_NEEDS_CAP | KNOB_F_NO_FLIP,
	},
	{
		/*
		 * kernel/sched/fair.c sched_fair_sysctls [kernel/sysctl.c kern_table
		 * in 6.1]: proc_dointvec_minmax(), extra1 = SYSCTL_ZERO, no extra2.
		 * The data is an unsigned int, but the handler parses an int:
		 * 2147483648 and up are refused (EINVAL).
		 */
		.name = "kernel.numa_balancing_promote_rate_limit_MBps",
		.path = "/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps",
		.type = KNOB_INT,
		.min = 0,
		.max = INT32_MAX,
		.default_value = "65536",
		.since = "6.1",
		.help = "MB/s per target node that tiering mode may promote",
		.flags = KNOB_F_NEEDS_CAP,
	},
	{
		/*
		 * mm/memory-tiers.c numa_demotion_enabled_store() [mm/migrate.c
		 * 5.15-6.0]: kstrtobool(); we write 1 or 0, which every version takes.
		 */
		.name = "mm.numa.demotion_enabled",
		.path = "/sys/kernel/mm/numa/demotion_enabled",
		.type = KNOB_BOOL,
		.min = 0,
		.max = 1,
		.default_value = "false",
		.since = "5.15",
		.help = "demote cold pages to slower memory tiers instead of discarding them",
		.note = "enabling it also clears kswapd's failure counts",
		/* Each flip on resets reclaim state; demoted pages stay on the slow tier. */
		.flags = KNOB_F_READS_WORDS | KNOB_F_NO_FLIP,
	},
	{
		/*
		 * mm/mempolicy.c weighted_interleave_auto_store() (6.16+):
		 * kstrtobool(); true needs the bandwidth table (else -ENODEV, even
		 * while it reads true), and recomputes every weight from it.  6.18
		 * names the file __auto_type (__ATTR() stringified the name after
		 * compiler_types.h defined auto as __auto_type); 7.2 says "auto"
		 * again.  Registered before the weights: a plan writes it first, so
		 * a rollback restores it last.
		 */
		.name = "mm.mempolicy.weighted_interleave.auto",
		.path = "/sys/kernel/mm/mempolicy/weighted_interleave/auto",
		.alt_path = "/sys/kernel/mm/mempolicy/weighted_interleave/__auto_type",
		.type = KNOB_BOOL,
		.min = 0,
		.max = 1,
		.default_value = "true",
		.since = "6.16",
		.help = "derive the interleave weights from the firmware's bandwidth (HMAT, CDAT)",
		.note = "writing any weight turns it off; turning it on replaces every weight and "
			"fails without bandwidth data",
		/* Off may be for good: without bandwidth data it never comes back on. */
		.flags = KNOB_F_READS_WORDS | KNOB_F_PROBED | KNOB_F_NO_FLIP,
	},
	{
		/*
		 * mm/mempolicy.c node_store(): kstrtou8(buf, 0); 6.16+ refuses 0
		 * and the empty string (EINVAL) and turns auto off; 6.9-6.15 took
		 * 0 or "" as "system default", which reads back 1.  1..255 is what
		 * every version takes and means the same.
		 */
		.name = "mm.mempolicy.weighted_interleave.nodeN",
		.path = "/sys/kernel/mm/mempolicy/weighted_interleave/nodeN",
		.type = KNOB_INT,
		.min = 1,
		.max = 255,
		.default_value = "1",
		.since = "6.9",
		.help = "weight of node N for MPOL_WEIGHTED_INTERLEAVE: pages per round on the node",
		.note = "one knob per node with memory; writing one turns "
			"mm.mempolicy.weighted_interleave.auto off",
		/* Each write turns auto off, which may be for good (see auto). */
		.flags = KNOB_F_PER_NODE | KNOB_F_PROBED | KNOB_F_NO_FLIP,
	},
	{
		/*
		 * mm/vmstat.c vmstat_table [kernel/sysctl.c vm_table]:
		 * proc_dointvec_jiffies(), no extra1/extra2;
		 * do_proc_dointvec_jiffies_conv() (kernel/sysctl.c) refuses more than
		 * INT_MAX / HZ seconds: 2147483 with HZ=1000, the highest common HZ.
		 * Narrowed at the bottom to 1: the kernel takes 0 (the vmstat work
		 * then reschedules itself without delay) and negative values.
		 */
		.name = "vm.stat_interval",
		.path = "/proc/sys/vm/stat_interval",
		.type = KNOB_INT,
		.min = 1,
		.max = INT32_MAX / 1000,
		.default_value = "1",
		.since = "2.6.22",
		.help = "seconds between folds of per-CPU vm statistics into the global counters",
		.note = "NUMA event counters are folded on every read since 5.14 and do not depend on it",
	},
	{
		/*
		 * Never merged: Mel Gorman's "Configurable fair allocation zone
		 * policy" v1 (Dec 2013, [PATCH 4/4]) registers it with
		 * proc_dointvec_minmax(), extra1 = &zero, no extra2.
		 */
		.name = "vm.zone_distribute_mode",
		.path = "/proc/sys/vm/zone_distribute_mode",
		.type = KNOB_INT,
		.min = 0,
		.max = INT32_MAX,
		.default_value = "1",
		.since = "never merged (2013 RFC)",
		.help = "fair zone allocator policy: OR of 1 local zones, 2 remote nodes, 4 slab (v1 bits)",
		.note = "only on kernels that carry the 2013 zone allocator policy patches",
	},
};

const size_t knob_count = sizeof(knob_table) / sizeof(knob_table[0]);

/* Writing these does something once; there is no setting to manage. */
static const char *const action_sysctls[] = {
	"vm.drop_caches",
	"vm.compact_memory",
	"vm.stat_refresh",
	NULL,
};

bool knob_is_action(const char *name)
{
	for (const char *const *a = action_sysctls; *a; a++)
		if (strcmp(*a, name) == 0)
			return true;
	return false;
}

static bool zeroes_counters(const struct knob_ref *ref)
{
	return ref->knob && (ref->knob->flags & KNOB_F_ZEROES_COUNTERS) &&
	       ref->knob->type == KNOB_BOOL;
}

bool knob_change_zeroes_counters(const struct knob_ref *ref, const struct kval *from,
				 const struct kval *to)
{
	return zeroes_counters(ref) && strcmp(from->text, "1") == 0 && strcmp(to->text, "0") == 0;
}

bool knob_freezes_counters(const struct knob_ref *ref, const struct kval *v)
{
	return zeroes_counters(ref) && strcmp(v->text, "0") == 0;
}

const char *knob_type_name(enum knob_type t)
{
	static const char *const names[] = {
		[KNOB_BOOL] = "bool", [KNOB_INT] = "int",       [KNOB_BITMASK] = "bitmask",
		[KNOB_ENUM] = "enum", [KNOB_STRING] = "string",
	};
	return names[t];
}

const char *knob_default(const struct knob *k, size_t nodes)
{
	return nodes > 1 && k->default_multinode ? k->default_multinode : k->default_value;
}

const struct knob *knob_by_name(const char *name)
{
	for (size_t i = 0; i < knob_count; i++)
		if (strcmp(knob_table[i].name, name) == 0)
			return &knob_table[i];
	return NULL;
}
