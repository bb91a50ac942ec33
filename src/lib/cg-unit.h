/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which systemd manager, if any, a cgroup answers to: what a command that
 * changes its cpuset may address.  systemd names the cgroups of its units
 * after them (system.slice/a-b.slice is no path systemd makes: a-b.slice
 * lives in a.slice), and below a service's or scope's own cgroup the tree
 * is its delegate's, whatever the names say: `systemctl set-property` of
 * the last part of such a path would address another unit of the same
 * name, the system's sshd.service for a user's app.slice/sshd.service.
 * So a unit is a chain of slices nested as systemd nests them, ending in a
 * valid unit name, under the system manager or under
 * /user.slice/user-UID.slice/user@UID.service (UID's manager).  Implemented
 * by cg-unit.c.
 */
#pragma once

#include <stdbool.h>

enum cg_unit_kind {
	CG_UNIT_SYSTEM, /* the system manager's unit, name its own cgroup */
	CG_UNIT_USER,   /* user manager uid's unit */
	CG_UNIT_PLAIN,  /* a cgroup made by root outside any unit: its cpuset.mems is root's */
	CG_UNIT_NONE,   /* delegated, or not root's: no command of ours belongs there */
};

/* systemd's longest unit name (UNIT_NAME_MAX less its NUL). */
#define CG_UNIT_NAME_MAX 255

struct cg_unit {
	enum cg_unit_kind kind;
	char name[CG_UNIT_NAME_MAX + 1]; /* SYSTEM, USER: the unit */
	unsigned uid;                    /* USER */
	const char *why;                 /* NONE: why nothing may be printed, one line */
};

/* Is name a unit name systemd would take (unit_name_is_valid()) for a unit with a cgroup? */
bool cg_unit_name_valid(const char *name);
/*
 * What path ("/system.slice/a.service", relative to the hierarchy) says by
 * its names alone; cg_unit_of() then checks the owners.
 */
void cg_unit_of_path(const char *path, struct cg_unit *out);
/*
 * cg_unit_of_path() checked against the owners under root (the hierarchy):
 * a system unit's parent and a plain cgroup and its parent must be root's
 * (a directory another user owns was delegated to it, and its names are
 * that user's).  0, or -errno when an owner cannot be read.
 */
int cg_unit_of(const char *root, const char *path, struct cg_unit *out);
