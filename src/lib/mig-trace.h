/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own count of migrations by reason (mig-reason.h), kept in a
 * trace instance of ours: /sys/kernel/tracing/instances/numastatctl-PID,
 * with one histogram trigger on its migrate:mm_migrate_pages event.  An
 * instance has its own event files, buffer and tracing_on, so the global
 * tracer (and anyone else's instance) is never touched.  The trigger
 * files are written by hand, not through libtracefs: three writes and an
 * rmdir do not justify a library the package would then depend on
 * (HACKING.md).  Under --sysroot the same paths are used inside the root.
 * Implemented by mig-trace.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "mig-reason.h"

#define MIG_TRACE_DIR "/sys/kernel/tracing"
#define MIG_TRACE_INSTANCES MIG_TRACE_DIR "/instances"
/* Our instances' names: the prefix and the PID of the run that made it. */
#define MIG_TRACE_PREFIX "numastatctl-"
#define MIG_TRACE_EVENT "events/migrate/mm_migrate_pages"

struct mig_trace {
	char dir[128];                                   /* the instance, by logical path */
	char trigger[MIG_TRIGGERS_MAX][MIG_TRIGGER_MAX]; /* the trigger commands */
	size_t ntrig;                                    /* how many are in place */
	struct mig_format fmt;
	bool made;   /* the instance is ours to remove */
	int hist_fd; /* kept open between samples; -1 */
	char *buf;   /* the hist file's text */
};

/* Why the kernel cannot count here: what mig_trace_open() returns, with why. */
enum {
	MIG_TRACE_NO_TRACEFS = 1, /* not mounted, or no migrate event */
	MIG_TRACE_NO_ROOT,        /* not allowed to read or make an instance */
	MIG_TRACE_NO_HIST,        /* no histogram triggers in this kernel */
	MIG_TRACE_FAILED,         /* something else went wrong (why says what) */
};

/*
 * Read the event's format, make the instance for pid and arm its trigger.
 * 0, or one of the MIG_TRACE_NO_* / MIG_TRACE_FAILED (positive) with why;
 * what was made is undone by mig_trace_close(), which must follow either way.
 */
int mig_trace_open(struct mig_trace *t, pid_t pid, char *why, size_t whylen);
/* The kernel's totals since the trigger was armed.  0 or -errno with why. */
int mig_trace_read(struct mig_trace *t, struct mig_hist *h, char *why, size_t whylen);
/*
 * Remove the trigger and the instance (what mig_trace_open() made).  0, or
 * -errno with why naming the instance left behind.
 */
int mig_trace_close(struct mig_trace *t, char *why, size_t whylen);

/* An instance a killed run left. */
struct mig_leftover {
	char name[32];
	bool reused; /* its PID runs, but in a process that started after it was made */
};

/*
 * Instances of ours a killed run left: MIG_TRACE_PREFIX and a PID that is
 * not self and no longer runs (no /proc/PID), or runs in a process that
 * started after the instance was made (the kernel reuses PIDs; the
 * instance's mtime is when it was made).  When a time cannot be read the
 * PID counts as still running: an instance is removed only when it is
 * surely a leftover.  Each is removed (its trigger first) and named in
 * found[] (up to cap).  The count found (removed or not), or -errno (no
 * instances directory is 0).  failed: how many could not be removed.
 */
int mig_trace_leftovers(pid_t self, struct mig_leftover *found, size_t cap, size_t *failed);
