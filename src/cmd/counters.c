// SPDX-License-Identifier: GPL-2.0-or-later
#include "counters.h"
#include "log.h"

void counters_refused(const char *why)
{
	log_err("vm.numa_stat: refusing 1 -> 0, which zeroes the NUMA counters: %s "
		"(use --no-snapshot to go ahead without a snapshot)",
		why);
}

void counters_would_zero(const char *data_dir, bool no_snapshot)
{
	if (no_snapshot)
		log_warn("vm.numa_stat 1 -> 0 zeroes every NUMA counter: the real run does not "
			 "save them first (--no-snapshot)");
	else
		log_warn("vm.numa_stat 1 -> 0 zeroes every NUMA counter: the real run saves "
			 "them to a snapshot in %s/snapshots first",
			 data_dir);
}

void counters_saved(const char *snapshot_path)
{
	log_warn("vm.numa_stat 1 -> 0 zeroed the NUMA counters; they were saved to %s",
		 snapshot_path);
}

const char *counters_frozen_text(void)
{
	return "vm.numa_stat is 0: NUMA counters are frozen at zero";
}

void counters_warn_frozen(const char *consequence)
{
	log_warn("%s%s ('numastatctl set vm.numa_stat=1' turns counting on)",
		 counters_frozen_text(), consequence);
}
