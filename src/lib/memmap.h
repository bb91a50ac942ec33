/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's memory map, "which node is what": for each node, where its
 * memory comes from (boot memory, a CXL region and its memdevs, a dax
 * device onlined by kmem, an ACPI memory device such as a hot-added DIMM,
 * or nothing that says), how it splits between the kernel's zones, its
 * memory blocks and whether they are online, its memory tier and demotion
 * targets, where its performance data comes from and its weighted
 * interleave weight; and the machine's policy for onlining hot-added
 * memory.  The parsers work on buffers; the readers go through sysfs.h.
 * Implemented by memmap.c, memmap-blocks.c, memmap-cxl.c, memmap-ranges.c
 * and memmap-zones.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interleave.h"
#include "nodes.h"
#include "why.h"

#define MEMORY_DIR "/sys/devices/system/memory"
#define CXL_DEVICES "/sys/bus/cxl/devices"
#define DAX_DEVICES "/sys/bus/dax/devices"
#define FIRMWARE_MEMMAP "/sys/firmware/memmap"
#define ZONEINFO "/proc/zoneinfo"
#define MEMMAP_NAME_MAX 48

/* The zones of /proc/zoneinfo, in the kernel's order (enum zone_type). */
enum memmap_zone { MZ_DMA, MZ_DMA32, MZ_NORMAL, MZ_HIGHMEM, MZ_MOVABLE, MZ_DEVICE, MZ_COUNT };
/* "DMA", "DMA32", "Normal", "HighMem", "Movable", "Device": the kernel's zone names. */
extern const char *const memmap_zone_names[MZ_COUNT];
/* The zone named [w, w + len), or -1. */
int memmap_zone_of(const char *w, size_t len);
/* Zones the kernel's allocations may use for its own data: every zone below Movable. */
#define MEMMAP_KERNEL_ZONES \
	((1u << MZ_DMA) | (1u << MZ_DMA32) | (1u << MZ_NORMAL) | (1u << MZ_HIGHMEM))

/* One node's zones in /proc/zoneinfo, in pages. */
struct memmap_node_zones {
	unsigned node;
	uint64_t present[MZ_COUNT], managed[MZ_COUNT];
};

/* /proc/zoneinfo, node by node in file (id) order; zone and line: the parse's place. */
struct memmap_zoneinfo {
	struct memmap_node_zones *v;
	size_t n, cap;
	int zone;      /* the zone of the last "Node N, zone NAME" line; -1 before one */
	unsigned line; /* lines seen */
	bool present_seen, managed_seen; /* in the current zone */
};

/*
 * One line of /proc/zoneinfo (without its newline): "Node N, zone NAME"
 * starts a zone; its "present" and "managed" lines are kept; everything
 * else (per-node stats, pagesets, counters) passes.  A zone the kernel
 * may add later is passed over whole.  0, -ENOMEM, or -EBADMSG with why
 * ("line 3: ...").
 */
int memmap_zoneinfo_line(struct memmap_zoneinfo *z, const char *line, size_t len, char *why,
			 size_t whylen);
/* Every line of buf (the last one ending in a newline).  0 or as above. */
int memmap_zoneinfo_parse(const char *buf, size_t len, struct memmap_zoneinfo *z, char *why,
			  size_t whylen);
/*
 * Read ZONEINFO a line at a time: it grows with CPUs (a pageset per CPU and
 * zone), past what one read of a sysfs file holds.  0 or -errno with why.
 */
int memmap_zoneinfo_read(struct memmap_zoneinfo *z, char *why, size_t whylen);
void memmap_zoneinfo_free(struct memmap_zoneinfo *z);
/* node's zones, or NULL when zoneinfo has none. */
const struct memmap_node_zones *memmap_zoneinfo_node(const struct memmap_zoneinfo *z,
						     unsigned node);

/*
 * memoryN/valid_zones: the zone an online block is in ("Normal"; "none"
 * when it spans two), or the zones an offline block may go to, the
 * default first ("Normal Movable").  *mask gets 1 << MZ_* of each, *first
 * the first (-1 for "none").  0 or -EINVAL.
 */
int memmap_valid_zones_parse(const char *s, size_t len, unsigned *mask, int *first);

enum memmap_block_state { MB_ONLINE, MB_OFFLINE, MB_GOING_OFFLINE, MB_STATE_COUNT };
/* "online", "offline", "going-offline": memoryN/state. */
extern const char *const memmap_block_states[MB_STATE_COUNT];

/* A memory block (MEMORY_DIR/memoryN) of a node, as nodeN/memoryN links it. */
struct memmap_block {
	unsigned id, node;
	enum memmap_block_state state;
	unsigned zones; /* valid_zones as 1 << MZ_* */
	int zone;       /* its first zone: where it is (online) or would go (offline); -1 */
	/* firmware_node's target: an ACPI memory device ("PNP0C80:00"), else "". */
	char acpi[MEMMAP_NAME_MAX];
};

struct memmap_blocks {
	struct memmap_block *v; /* by node as asked, then id */
	size_t n, cap;
	uint64_t block_size; /* MEMORY_DIR/block_size_bytes */
};

/*
 * The blocks of the nodes given, with their state, valid zones and ACPI
 * device.  0; -ENOENT when MEMORY_DIR is absent (no memory hotplug);
 * -errno or -EBADMSG with why naming the file.
 */
int memmap_blocks_read(const unsigned *nodes, size_t n, struct memmap_blocks *b, char *why,
		       size_t whylen);
void memmap_blocks_free(struct memmap_blocks *b);

/* Bandwidth (MB/s) and latency (ns) from an access class's files, as HMAT or CXL give them. */
struct memmap_coord {
	bool present;
	uint64_t read_bw, write_bw, read_lat, write_lat;
};
/*
 * DIR/{read,write}_{bandwidth,latency}: present false when read_bandwidth
 * is absent; a file that is there and holds no number is -EBADMSG.
 */
int memmap_coord_read(const char *dir, struct memmap_coord *c);

/* A CXL memory device behind a region (CXL_DEVICES/memX). */
struct memmap_memdev {
	char name[MEMMAP_NAME_MAX];        /* "mem0" */
	char decoder[MEMMAP_NAME_MAX];     /* the region's target: its endpoint decoder */
	char serial[24];                   /* "0x1234", as the kernel prints it; "" unknown */
	int numa_node;                     /* the node of its PCI device; -1 none */
	char host_bridge[MEMMAP_NAME_MAX]; /* "port1 (pci0000:0c)"; "" unknown */
};

/* A CXL region (CXL_DEVICES/regionZ). */
struct memmap_region {
	char name[MEMMAP_NAME_MAX];
	char mode[16]; /* "ram", "pmem"; "" before 6.3 */
	uint64_t start, size;
	struct memmap_coord access[2]; /* access0 (any initiator), access1 (CPUs) */
	struct memmap_memdev *memdevs;
	size_t n_memdevs, cap_memdevs;
	int dax;  /* index in memmap_devices.dax of its dax device, -1 */
	int node; /* where its memory went: its kmem dax device's node or its blocks'; -1 */
};

/* A dax device (DAX_DEVICES/daxX.Y). */
struct memmap_dax {
	char name[MEMMAP_NAME_MAX];
	char driver[MEMMAP_NAME_MAX]; /* "kmem", "device_dax", "" unbound */
	uint64_t start, size;
	int target_node; /* the node kmem onlines it into; -1 */
	int region;      /* index of the CXL region holding it, -1 */
};

/* A range of the firmware's memory map (FIRMWARE_MEMMAP/N) of type "System RAM". */
struct memmap_range {
	uint64_t start, end; /* end inclusive, as the kernel prints it */
};

/* Where physical memory comes from, besides the blocks. */
struct memmap_devices {
	struct memmap_region *regions;
	size_t n_regions, cap_regions;
	struct memmap_dax *dax;
	size_t n_dax, cap_dax;
	struct memmap_range *ram;
	size_t n_ram, cap_ram;
	bool cxl, dax_bus, firmware; /* which of the three directories exist */
};

/*
 * The CXL regions with their memdevs, serials, host bridges and access
 * coordinates.  0 (cxl false without CXL_DEVICES), -ENOMEM, or -EBADMSG
 * with why naming the file.
 */
int memmap_cxl_read(struct memmap_devices *d, char *why, size_t whylen);
/* The dax devices and their drivers (dax_bus false without DAX_DEVICES); as above. */
int memmap_ranges_dax_read(struct memmap_devices *d, char *why, size_t whylen);
/* The firmware map's "System RAM" ranges (firmware false without it); as above. */
int memmap_ranges_firmware_read(struct memmap_devices *d, char *why, size_t whylen);
void memmap_devices_free(struct memmap_devices *d);
/*
 * "decoder3.0" -> 3: the port of an endpoint decoder (decoderX.Y: X is
 * its port's id, so endpointX).  0 or -EINVAL.
 */
int memmap_cxl_decoder_port(const char *name, unsigned *port);
/*
 * The host bridge in the target of a CXL_DEVICES/endpointX link
 * ("../../../devices/platform/ACPI0017:00/root0/port1/port2/endpoint3"):
 * the port just below the root ("port1").  0 or -EINVAL.
 */
int memmap_cxl_host_port(const char *link, char *port, size_t len);

/* Where a block's memory comes from. */
enum memmap_source {
	MS_BOOT,         /* in the firmware's map at boot, no ACPI memory device */
	MS_CXL,          /* a CXL region's range */
	MS_DAX,          /* a dax device's range outside any CXL region */
	MS_ACPI,         /* firmware_node names an ACPI memory device (a DIMM it can hot-add) */
	MS_UNATTRIBUTED, /* none of these says */
	MS_COUNT,
};
/* "boot", "cxl", "dax", "acpi", "unattributed" */
extern const char *const memmap_source_names[MS_COUNT];

/* One source of a node's memory: its blocks of one kind and device. */
struct memmap_part {
	enum memmap_source source;
	int dev;                                /* region (MS_CXL) or dax (MS_DAX) index; -1 */
	char acpi[MEMMAP_NAME_MAX];             /* MS_ACPI: the device */
	size_t blocks, offline;                 /* its blocks, and how many are offline */
	uint64_t online_normal, online_movable; /* blocks online in kernel zones / Movable */
};
#define MEMMAP_PARTS_MAX 8

/* Where a node's bandwidth and latency figures come from. */
enum memmap_perf { MP_NONE, MP_HMAT, MP_CXL };
/* "none", "hmat", "cxl" */
extern const char *const memmap_perf_names[3];

struct memmap_node {
	unsigned node;
	unsigned *cpus; /* nodeN/cpulist, sorted */
	size_t n_cpus;
	bool memory;                           /* in has_memory */
	const struct memmap_node_zones *zones; /* NULL: zoneinfo has none */
	long tier;                             /* memory_tier id, -1: none */
	unsigned *demote;                      /* the nodes it demotes to, sorted */
	size_t n_demote;
	struct memmap_part parts[MEMMAP_PARTS_MAX];
	size_t n_parts;
	size_t blocks, offline; /* all its blocks; offline ones */
	enum memmap_perf perf;
	struct memmap_coord access[2]; /* nodeN/access{0,1}/initiators */
	unsigned weight;               /* weighted_interleave/nodeN, 0 none */
};

/* The policy for onlining hot-added memory. */
struct memmap_policy {
	char auto_online[24];   /* MEMORY_DIR/auto_online_blocks; "" absent */
	char cmdline[24];       /* memhp_default_state= on /proc/cmdline; "" none */
	char online_policy[24]; /* memory_hotplug.online_policy; "" absent */
};
/*
 * The last value of key ("memhp_default_state=") among the words of a
 * kernel command line, as the kernel takes the last; "" when absent.
 */
void memmap_cmdline_value(const char *cmdline, const char *key, char *out, size_t len);
/* The policy as this machine has it (what is absent stays ""). */
void memmap_policy_read(struct memmap_policy *p);

struct memmap {
	struct memmap_node *nodes; /* sorted by id */
	size_t n;
	struct memmap_zoneinfo zi;
	struct memmap_blocks blocks;
	struct memmap_devices dev;
	struct memtiers tiers;
	struct interleave_weights iw;
	struct memmap_policy policy;
	uint64_t page_size;
	/* 0, or -errno of each part (-ENOENT: not on this kernel) with its why. */
	int zi_err, blocks_err, dev_err, tiers_err, iw_err;
	char zi_why[WHY_MAX], blocks_why[WHY_MAX], dev_why[WHY_MAX], tiers_why[WHY_MAX],
		iw_why[WHY_MAX];
};

/*
 * Read the map of the nodes given (sorted).  dist: their n x n distance
 * matrix when the caller has it (node_distance_matrix_read()), else NULL
 * and it is read here if the demotion targets need it.  A part that cannot
 * be read keeps its error in m (the rest is read); 0, or -ENOMEM.
 */
int memmap_read(const unsigned *nodes, size_t n, const unsigned *dist, struct memmap *m);
void memmap_free(struct memmap *m);
/* The node in m, or NULL. */
const struct memmap_node *memmap_node(const struct memmap *m, unsigned node);
/*
 * The kernel's demotion targets (establish_demotion_targets(),
 * mm/memory-tiers.c) of nodes[from]: the nodes of the next slower tier
 * nearest to it, every one at that distance.  dist is the n x n matrix of
 * the sorted nodes (node_distance_matrix_read()), or NULL when the next
 * tier has one node (every faster node's target).  *out (malloc'ed,
 * sorted, NULL for none) gets them; the count or -ENOMEM.
 */
int memmap_demotion_targets(const struct memtiers *t, const unsigned *dist, const unsigned *nodes,
			    size_t n, size_t from, unsigned **out);
/* Where a block's memory comes from, by address, then firmware_node: *dev as memmap_part's. */
enum memmap_source memmap_block_source(const struct memmap_devices *d, uint64_t block_size,
				       const struct memmap_block *b, int *dev);
/* nd's present memory in the zones of mask (1 << MZ_*), in bytes; 0 without zoneinfo. */
uint64_t memmap_zone_bytes(const struct memmap *m, const struct memmap_node *nd, unsigned mask);
