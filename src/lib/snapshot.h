/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing vm.numa_stat=0 zeroes every NUMA counter.  Before that happens the
 * counters of every node are saved as JSON (the `stat -J` shape) to
 * <data dir>/snapshots/numastat-<UTC time to the nanosecond>Z.json: always a
 * new file, never replacing one (a name taken already moves on by a
 * nanosecond), never deleted by numastatctl but for the one a change saved
 * and then did not make (snapshot_remove()).  `snapshots` lists them;
 * `stat --snapshot` and `stat --since` read them back.
 * Implemented by snapshot-parse.c and snapshot.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "nodes.h"

#define SNAPSHOT_SUBDIR "snapshots"
/* "numastat-20261130T113800.123456789Z.json" and a little room. */
#define SNAPSHOT_NAME_MAX 64
/* 1024 nodes of 16 counters take about 720 KiB of JSON; a larger one is neither saved nor read. */
#define SNAPSHOT_FILE_MAX (1 << 20)

struct snapshot {
	char name[SNAPSHOT_NAME_MAX];
	struct timespec time; /* from the name */
	size_t n;             /* nodes, ids ascending */
	unsigned *ids;
	struct numastat *st;
};

/*
 * Save every node's counters under a new name in <data_dir>/snapshots (the
 * directories are created and checked: statedir.h).  0 with the file's path
 * in path, or -errno with a reason in why (-EFBIG: larger than
 * SNAPSHOT_FILE_MAX, which snapshot_read() would refuse).
 */
int snapshot_save(const char *data_dir, char *path, size_t pathlen, char *why, size_t whylen);

/*
 * Remove the snapshot name that snapshot_save() just saved, for a change
 * that then did not zero the counters.  0 or -errno.
 */
int snapshot_remove(const char *data_dir, const char *name);

/*
 * Open <data_dir>/snapshots for reading (checked: statedir.h); its path goes
 * to dirpath.  An fd, -ENOENT when nothing was ever saved, or -errno with why.
 */
int snapshot_dir_open(const char *data_dir, char *dirpath, size_t pathlen, char *why,
		      size_t whylen);
/* The snapshot names in dirfd (only name and time set), oldest first; count or -errno. */
int snapshot_list(int dirfd, struct snapshot **out);
/*
 * Read and parse the snapshot name ("numastat-...Z.json", with or without
 * ".json") from dirfd.  0, -ENOENT, -EINVAL (not a snapshot name) or -errno,
 * with why.
 */
int snapshot_read(int dirfd, const char *dirpath, const char *name, struct snapshot *s, char *why,
		  size_t whylen);
void snapshot_free(struct snapshot *s);
/* An array from snapshot_list(). */
void snapshot_list_free(struct snapshot *v, size_t n);

/* The time a snapshot name stands for; false when name is not one. */
bool snapshot_name_time(const char *name, struct timespec *ts);
/* "2026-11-30T11:38:00.123456789Z" */
void snapshot_format_time(const struct timespec *ts, char *buf, size_t len);
/*
 * The JSON a snapshot holds: {"nodes": [{"node": N, "<counter>": V, ...}]},
 * every standard counter present, unique node ids, at most
 * NUMASTAT_MAX_COUNTERS counters a node.  Fills n, ids and st (sorted by
 * id).  0, -ENOMEM, or -EBADMSG with why.
 */
int snapshot_parse(const char *buf, size_t len, struct snapshot *s, char *why, size_t whylen);
