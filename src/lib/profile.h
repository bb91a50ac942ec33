/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * numastatctl.conf: [numastatctl] settings and [profile NAME] sections,
 * read with inih from the main file and the drop-ins, every key validated by
 * the knob registry, every problem collected with its file:line, and the
 * file:line of every definition kept so `profiles NAME` can tell where an
 * effective value came from and what it replaced.
 * Implemented by profile-read.c, profile-resolve.c and profile.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "knobs.h"

/* A configuration file larger than this is a mistake, not a configuration. */
#define PROFILE_FILE_MAX (1 << 20)
/* inih (r55, as packaged) silently splits longer lines and cuts longer section names. */
#define PROFILE_LINE_MAX 199
#define PROFILE_SECTION_MAX 49
/* "[profile NAME]" must fit PROFILE_SECTION_MAX. */
#define PROFILE_NAME_MAX 42
#define PROFILE_VALUE_MAX 512
/* Profiles a profile may include, and how deep includes may nest. */
#define PROFILE_MAX_INCLUDES 8
#define PROFILE_MAX_DEPTH 16
/* Earlier definitions `profiles NAME` remembers per effective key. */
#define PROFILE_MAX_OVERRIDES 4

/* Where a definition is: an index into profile_config.files and a 1-based line. */
struct cfg_at {
	unsigned file;
	unsigned line; /* 0: not set */
};

/* One definition in one place: summary, include or a knob assignment. */
struct profile_key {
	char key[KNOB_NAME_MAX];       /* "summary", "include" or the resolved knob name */
	char value[PROFILE_VALUE_MAX]; /* as written; for knobs the canonical value */
	struct knob_ref ref;           /* knobs only */
	struct kval val;               /* knobs only */
	bool is_knob;
	bool optional; /* '-' prefix: skip where the kernel lacks the knob */
	bool invalid;  /* the value was refused (an error was recorded) */
	struct cfg_at at;
};

struct profile {
	char name[PROFILE_NAME_MAX];
	struct cfg_at at;         /* the first [profile NAME] header */
	struct profile_key *keys; /* every definition, in file then line order */
	size_t n, cap;
};

struct profile_error {
	struct cfg_at at;
	unsigned seq; /* keeps the order of one line's problems */
	char *text;   /* "FILE:LINE: [profile x]: problem" */
};

/* A file that one of the same name in a higher layer overrides: never read. */
struct profile_masked {
	char *path;
	char *by; /* the file read instead */
};

struct profile_config {
	char **files; /* in precedence order: later files win */
	size_t nfiles, capfiles;
	struct profile_masked *masked; /* in the order they were found */
	size_t nmasked, capmasked;
	struct profile *profiles; /* in order of first appearance */
	size_t nprofiles, capprofiles;
	char default_profile[PROFILE_NAME_MAX]; /* [numastatctl] profile = */
	struct cfg_at default_at;
	char state_dir[PROFILE_VALUE_MAX]; /* [numastatctl] state_dir = */
	struct cfg_at state_dir_at;
	struct profile_error *errors; /* sorted by file, then line */
	size_t nerrors, caperrors;
	bool out_of_memory; /* something was lost: the load fails with -ENOMEM */
};

enum {
	/* Refuse files and directories others can write or not owned by root. */
	PROFILE_CHECK_OWNER = 1 << 0,
};

/*
 * The configuration's layers, as sysctl.d(5) has them: each of dirs (the
 * highest precedence first: /etc, /run, /usr/lib) may hold numastatctl.conf
 * and numastatctl.d/ *.conf.  The main file is numastatctl.conf of the
 * highest layer that has one; the drop-ins are the *.conf names of all
 * layers, a name in a higher layer overriding the same name in a lower one,
 * read after the main file in the byte order of their names whatever their
 * layer.  A file overridden is not read (c->masked says which and by what).
 *
 * Load file alone, or (file NULL) the layers of dirs (NULL-terminated);
 * missing files and directories are not an error.  Problems land in
 * c->errors (loading goes on so that all of them are reported).  Returns 0,
 * or -ENOMEM when anything (an error, a key, a drop-in file) could not be
 * kept: a half-read configuration is never used.
 */
int profile_config_load(struct profile_config *c, const char *file, const char *const *dirs,
			unsigned flags);
void profile_config_free(struct profile_config *c);

/*
 * Only list the files profile_config_load() reads, in order, into c->files,
 * and those overridden into c->masked (for --cat-config); directory problems
 * land in c->errors.  0 or -ENOMEM.
 */
int profile_config_files(struct profile_config *c, const char *file, const char *const *dirs,
			 unsigned flags);

/* Letters, digits, '-', '_', '.'; a letter or digit first (no option look-alikes). */
bool profile_name_valid(const char *s);
const struct profile *profile_find(const struct profile_config *c, const char *name);
/* "FILE:LINE" of a definition. */
void profile_origin(const struct profile_config *c, struct cfg_at at, char *buf, size_t len);
/* The definition of key in force within p alone (last one wins), or NULL. */
const struct profile_key *profile_own_key(const struct profile *p, const char *key);

/* A knob in a resolved profile: the definition in force and what it replaced. */
struct profile_effective {
	const struct profile_key *def;
	const struct profile *from; /* the profile holding def (itself or an include) */
	const struct profile_key *overrides[PROFILE_MAX_OVERRIDES]; /* newest first */
	size_t noverrides;
};

struct profile_resolved {
	const struct profile *profile;
	const struct profile_key *summary; /* its own, never inherited; may be NULL */
	const struct profile_key *include; /* may be NULL */
	struct profile_effective *knobs;   /* included profiles' knobs first */
	size_t n, cap;
};

/*
 * Resolve name with its includes.  -ENOENT (unknown profile), -ELOOP (an
 * include loop or nesting deeper than PROFILE_MAX_DEPTH) or -ENOMEM, with
 * why set; 0 otherwise.
 */
int profile_resolve(const struct profile_config *c, const char *name, struct profile_resolved *out,
		    char *why, size_t whylen);
void profile_resolved_free(struct profile_resolved *r);

struct plan;
/* The resolved knobs as a plan in registry order, origins "FILE:LINE".  0 or -ENOMEM. */
int profile_plan(const struct profile_config *c, const struct profile_resolved *r, struct plan *p);

/* "a, b, c": the profile names, for messages. */
void profile_names(const struct profile_config *c, char *buf, size_t len);
/*
 * What follows "unknown profile 'x'" in messages: ": did you mean b?" when a
 * profile is close, else " (profiles: a, b, c)".
 */
void profile_unknown_hint(const struct profile_config *c, const char *name, char *buf, size_t len);
