/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The knob registry: one const table, the single source of truth for names,
 * paths, types, allowed values, aliases, defaults, help and side effects.
 * Validation, `get`, `set`, `knobs`, profiles, the man page and the
 * completions all come from it (or are tested against it).
 * Implemented by knob-name.c, knob-value.c and knobs.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum knob_type {
	KNOB_BOOL,    /* 0/1, also on/off, true/false, yes/no */
	KNOB_INT,     /* a decimal integer in [min, max] */
	KNOB_BITMASK, /* OR of flags: "5", "1|4", "reclaim|unmap" */
	KNOB_ENUM,    /* one of the words in .words */
	KNOB_STRING,  /* pass-through: the kernel validates */
};

/* A flag bit (KNOB_BITMASK) or an accepted word (KNOB_ENUM). */
struct knob_word {
	const char *name;
	int64_t value; /* bit value; for KNOB_ENUM the index of the canonical word */
	const char *help;
};

enum {
	KNOB_F_READS_WORDS = 1 << 0, /* the kernel reads back "true"/"false" */
	KNOB_F_DEPRECATED = 1 << 1,  /* accepted by the kernel, no effect */
	KNOB_F_NO_FLIP = 1 << 2,     /* not safe to flip repeatedly (bench refuses) */
	KNOB_F_NEEDS_CAP = 1 << 3,   /* writing needs CAP_SYS_ADMIN, not just root */
	/*
	 * A bool that switches the NUMA counters: 1 -> 0 zeroes every counter on
	 * every node (so they are saved first), and at 0 they stay frozen at zero.
	 */
	KNOB_F_ZEROES_COUNTERS = 1 << 4,
	/*
	 * One entry for a family of per-node files: the name and the path end in
	 * "nodeN", and a member is named with N replaced by a node id
	 * (mm.mempolicy.weighted_interleave.node3).  Only the nodes whose file
	 * exists here are members.
	 */
	KNOB_F_PER_NODE = 1 << 5,
	/*
	 * Where the directory holding the knob exists, the kernel has the feature,
	 * and a missing file (a node without a weight, no `auto`) is a usage error,
	 * not a knob this kernel lacks.
	 */
	KNOB_F_PROBED = 1 << 6,
};

/* A kernel range that grew: kernels before `before` take at most `max`. */
struct knob_older {
	const char *before; /* "5.18"; NULL: one range on every kernel */
	int64_t max;
};

/*
 * min/max are what the kernel's handler accepts (extra1/extra2, the
 * handler's own checks, the width of the type), never more; less only where
 * the kernel takes a value and does nothing with it, or harm, and the
 * entry's comment says so.  Each entry cites the handler it was checked
 * against.
 */
struct knob {
	const char *name; /* "vm.numa_stat" */
	const char *path; /* "/proc/sys/vm/numa_stat" */
	/* The same file under another name on some kernels, probed when path is absent. */
	const char *alt_path;
	enum knob_type type;
	int64_t min, max;              /* KNOB_INT/KNOB_BITMASK range on current kernels */
	struct knob_older older;       /* a narrower max on older kernels */
	const struct knob_word *words; /* NULL-terminated, or NULL */
	const char *const *aliases;    /* NULL-terminated, or NULL */
	const char *default_value;     /* as `get` prints it on a fresh kernel */
	/*
	 * The default where more than one node is online at boot, when it
	 * differs (kernel.numa_balancing); NULL: default_value everywhere.
	 */
	const char *default_multinode;
	const char *since; /* "4.15", or "never merged" */
	const char *help;  /* one line: what it does */
	const char *note;  /* side effect worth a warning, or NULL */
	unsigned flags;
};

extern const struct knob knob_table[];
extern const size_t knob_count;

/* The registry entry named exactly name (no aliases, no families), or NULL. */
const struct knob *knob_by_name(const char *name);
/* k's default on a machine of nodes NUMA nodes (default_multinode where it has one). */
const char *knob_default(const struct knob *k, size_t nodes);

/* Sysctl names that trigger an action when written; never managed. */
bool knob_is_action(const char *name);

#define KNOB_NAME_MAX 128
#define KNOB_PATH_MAX 160
#define KVAL_MAX 256

/* A resolved knob: a registry entry, or an untyped pass-through sysctl. */
struct knob_ref {
	const struct knob *knob; /* NULL for pass-through */
	char name[KNOB_NAME_MAX];
	char path[KNOB_PATH_MAX];
};

/* A value in canonical form: exactly what is written and what is compared. */
struct kval {
	char text[KVAL_MAX];
};

/*
 * Resolve a user-supplied name: dots or slashes (the first separator
 * decides), the unique short form ("numa_stat"), registry aliases, and
 * pass-through vm.* and kernel.numa_* sysctls, whether this kernel has them
 * or not (knob_lookup() in knob-list.h also asks the kernel).  -EINVAL for a
 * malformed or ambiguous name, -ENOENT for a name outside the registry and
 * the managed namespaces; why holds the reason, e.g. "unknown knob '...': ...".
 */
int knob_resolve(const char *input, struct knob_ref *out, char *why, size_t whylen);

/*
 * A registry knob as a ref: its name and the path this kernel has (alt_path
 * when only that exists).  knob_member() makes member node of a
 * KNOB_F_PER_NODE family.
 */
void knob_ref_init(struct knob_ref *out, const struct knob *k);
void knob_member(struct knob_ref *out, const struct knob *k, unsigned node);
/* The node of a family member ("...node12" -> 12), or -1. */
long knob_ref_node(const struct knob_ref *ref);

/*
 * Validate user input against the knob's type.  On -EINVAL or -ERANGE, why
 * holds e.g. "invalid value '2': must be 0 or 1 (or on/off)".
 */
int knob_parse(const struct knob_ref *ref, const char *input, struct kval *out, char *why,
	       size_t whylen);
/*
 * Canonicalise what the kernel returned (trailing newline, "true"/"false",
 * "Default" for "Node", runs of whitespace in pass-through values).  A value
 * the registry would refuse (zone_reclaim_mode=99 set by someone else) is kept
 * verbatim, so it compares unequal to any valid value.
 */
void knob_parse_live(const struct knob_ref *ref, const char *raw, struct kval *out);
/* Text for people and `get`: "true"/"false" where the kernel reads words. */
const char *knob_display(const struct knob_ref *ref, const struct kval *v, char *buf, size_t len);
/* The value in words for `status`: "on", "reclaim|unmap", "off". */
void knob_describe(const struct knob_ref *ref, const struct kval *v, char *buf, size_t len);
/* "0 or 1 (or on/off)", "0..100", ... for messages, `knobs` and the man page. */
void knob_allowed(const struct knob *k, char *buf, size_t len);
/*
 * The running kernel's (or the dump's) version from /proc/sys/kernel/osrelease
 * as major * 1000 + minor (6.1 -> 6001), or -1 when it cannot be read.
 */
int knob_kernel_version(void);
/* "bool", "int", "bitmask", "enum", "string" */
const char *knob_type_name(enum knob_type t);

/*
 * Read the live value.  Returns 0 or -errno (-ENOENT: not on this kernel;
 * -EBADMSG: a NUL byte or more than one line, which no kernel prints).
 */
int knob_read(const struct knob_ref *ref, struct kval *out);
/* Write the canonical value and read it back.  -EAGAIN: read back differs. */
int knob_write(const struct knob_ref *ref, const struct kval *v, struct kval *readback);

/*
 * The side effects flagged in the registry, for canonical values (knob_parse,
 * knob_parse_live): whether writing to over from zeroes the NUMA counters
 * (KNOB_F_ZEROES_COUNTERS, 1 -> 0), and whether the value v keeps them frozen
 * at zero.  Always false for a pass-through sysctl.
 */
bool knob_change_zeroes_counters(const struct knob_ref *ref, const struct kval *from,
				 const struct kval *to);
bool knob_freezes_counters(const struct knob_ref *ref, const struct kval *v);
