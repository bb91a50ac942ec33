// SPDX-License-Identifier: GPL-2.0-or-later
/* cg_unit_of(): which manager's unit a cgroup is, a test per rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg-unit.h"
#include "sysfs.h"
#include "tap.h"

static const char *kinds[] = { "system", "user", "plain", "none" };

/* "system NAME", "user UID NAME", "plain" or "none". */
static const char *said(const char *path)
{
	static char buf[512];
	struct cg_unit u;

	cg_unit_of_path(path, &u);
	if (u.kind == CG_UNIT_USER)
		snprintf(buf, sizeof(buf), "user %u %s", u.uid, u.name);
	else if (u.kind == CG_UNIT_SYSTEM)
		snprintf(buf, sizeof(buf), "system %s", u.name);
	else
		snprintf(buf, sizeof(buf), "%s%s", kinds[u.kind],
			 u.kind == CG_UNIT_NONE && !u.why ? " without why" : "");
	return buf;
}

static void test_names(void)
{
	char name[300];

	CHECK(cg_unit_name_valid("sshd.service"), "a plain service name");
	CHECK(cg_unit_name_valid("getty@tty1.service"), "an instance");
	CHECK(cg_unit_name_valid("a-b\\x2dc.slice"), "an escaped dash");
	CHECK(!cg_unit_name_valid("getty@.service"), "a template has no cgroup");
	CHECK(!cg_unit_name_valid("@tty1.service"), "no prefix");
	CHECK(!cg_unit_name_valid("a@b@c.service"), "two '@'");
	CHECK(!cg_unit_name_valid("a;id;b.service"), "';' is not a unit name's");
	CHECK(!cg_unit_name_valid("x$(touch${IFS}PWNED)y.scope"), "'$(' is not a unit name's");
	CHECK(!cg_unit_name_valid("a b.service"), "a space is not");
	CHECK(!cg_unit_name_valid("multi-user.target"), "a target has no cgroup");
	CHECK(!cg_unit_name_valid(".service"), "a type alone");
	memset(name, 'a', sizeof(name));
	strcpy(name + 247, ".service");
	CHECK(cg_unit_name_valid(name), "255 bytes long: valid");
	strcpy(name + 248, ".service");
	CHECK(!cg_unit_name_valid(name), "256 bytes: longer than systemd's names");
}

static void test_paths(void)
{
	CHECK_STR(said("/system.slice/nginx.service"), "system nginx.service", "a system service");
	CHECK_STR(said("/system.slice"), "system system.slice", "a slice is a unit too");
	CHECK_STR(said("/a.slice/a-b.slice/x.service"), "system x.service",
		  "slices nested as systemd nests them");
	CHECK_STR(said("/system.slice/a-b.slice/x.service"), "none",
		  "a-b.slice in system.slice is no path systemd makes");
	CHECK_STR(said("/a-b.slice"), "none", "a dash in a top-level slice: it belongs in a.slice");
	CHECK_STR(said("/user.slice/user-1000.slice/user@1000.service/app.slice/sshd.service"),
		  "user 1000 sshd.service",
		  "a user manager's unit is that user's, not the system's");
	CHECK_STR(said("/user.slice/user-1000.slice/user@1000.service/app.slice/"
		       "app-gnome.slice/y.scope"),
		  "user 1000 y.scope", "nested slices under a user manager");
	CHECK_STR(said("/user.slice/user-1000.slice/user@1000.service"), "system user@1000.service",
		  "the user manager's own unit is the system's");
	CHECK_STR(said("/user.slice/user-1000.slice/user@1001.service/app.slice/x.service"), "none",
		  "a user manager in another user's slice is none of systemd's");
	CHECK_STR(said("/user.slice/user-1000.slice/session-2.scope"), "system session-2.scope",
		  "a session scope is the system's");
	CHECK_STR(said("/user.slice/user-1000.slice/session-2.scope/sub"), "none",
		  "below a scope: delegated");
	CHECK_STR(said("/system.slice/docker.service/sshd.service"), "none",
		  "below a service: its delegate's, whatever the name");
	CHECK_STR(said("/user.slice/user-1000.slice/user@1000.service/app.slice/"
		       "x$(touch${IFS}PWNED)y.scope"),
		  "none", "a name no unit has, in a user manager's tree");
	CHECK_STR(said("/user.slice/user-1000.slice/user@1000.service/app.slice/a;id;b.service"),
		  "none", "a semicolon in a user's tree");
	CHECK_STR(said("/system.slice/my group"), "plain", "a cgroup made outside systemd's names");
	CHECK_STR(said("/batch/job1.service"), "plain",
		  "below a cgroup made by hand: its maker's, not a unit");
	CHECK_STR(said("/"), "none", "the root cgroup");
	CHECK_STR(said("/system.slice//x.service"), "none", "an empty name");
}

/* Owners: a directory handed to another user is never root's to write. */
static void test_owners(void)
{
	char root[] = "/tmp/test-cg-unit.XXXXXX", dir[256];
	struct cg_unit u;

	if (geteuid() != 0 || !mkdtemp(root)) {
		printf("ok %d # skip needs root to hand a directory to another user\n", ++tap_n);
		return;
	}
	snprintf(dir, sizeof(dir), "%s/cg", root);
	mkdir(dir, 0755);
	strcat(dir, "/system.slice");
	mkdir(dir, 0755);
	strcat(dir, "/mine");
	mkdir(dir, 0755);
	CHECK(sysfs_init(root) == 0, "a tree to read");
	CHECK(cg_unit_of("/cg", "/system.slice/mine", &u) == 0 && u.kind == CG_UNIT_PLAIN,
	      "root's own cgroup: plain");
	CHECK(chown(dir, 65534, 65534) == 0, "handed to nobody");
	CHECK(cg_unit_of("/cg", "/system.slice/mine", &u) == 0 && u.kind == CG_UNIT_NONE && u.why,
	      "another user's cgroup: none, with why");
	CHECK(cg_unit_of("/cg", "/system.slice", &u) == 0 && u.kind == CG_UNIT_SYSTEM,
	      "a unit whose parent is root's");
	CHECK(cg_unit_of("/cg", "/system.slice/gone", &u) < 0, "a cgroup that is gone: an error");
	rmdir(dir);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
	rmdir(root);
}

int main(void)
{
	test_names();
	test_paths();
	test_owners();
	return tap_done();
}
