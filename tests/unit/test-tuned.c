// SPDX-License-Identifier: GPL-2.0-or-later
/* tuned's configuration as tuned 2.20 reads it: the parser, the merge, what it leaves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"
#include "tap.h"
#include "tuned.h"

static char root[] = "/tmp/test-tuned.XXXXXX";

/* PATH under the root holds TEXT (its directories made). */
static void put(const char *path, const char *text)
{
	char full[4200], cmd[4300];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", full);
	if (system(cmd) != 0 || !(f = fopen(full, "w"))) {
		perror(full);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

/* A plan wanting these values: "vm.min_slab_ratio=37", ... (NULL-terminated). */
static void plan_of(struct plan *p, const char *const *items)
{
	char why[256], name[64];

	*p = (struct plan){ 0 };
	for (; *items; items++) {
		struct knob_ref ref;
		struct kval want;
		const char *eq = strchr(*items, '=');

		snprintf(name, sizeof(name), "%.*s", (int)(eq - *items), *items);
		if (knob_resolve(name, &ref, why, sizeof(why)) < 0 ||
		    knob_parse(&ref, eq + 1, &want, why, sizeof(why)) < 0 ||
		    plan_add(p, &ref, &want, false, "t") < 0) {
			fprintf(stderr, "%s: %s\n", *items, why);
			exit(2);
		}
	}
}

/* "name=after@file:line" for each conflict, joined by ' '; "name=?" when unknown. */
static const char *conflicts(const char *const *items)
{
	static char buf[8192];
	struct tuned_conflicts c = { 0 };
	struct tuned_state st;
	struct plan p;
	size_t n = 0;

	plan_of(&p, items);
	buf[0] = '\0';
	if (tuned_read(&st) < 0 || tuned_conflicts_find(&st, &p, &c) < 0)
		snprintf(buf, sizeof(buf), "error");
	for (size_t i = 0; i < c.n && n < sizeof(buf); i++) {
		const struct tuned_conflict *k = &c.v[i];
		const struct sysctld_setting *s = k->reapplied.line ? &k->reapplied : &k->set;

		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s=%s@%s:%u", i ? " " : "",
				      k->item->ref.name, k->after_known ? k->after.text : "?",
				      strrchr(s->file, '/') + 1, s->line);
	}
	if (st.problem[0] && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, "%s[%s]", n ? " " : "", st.problem);
	tuned_conflicts_free(&c);
	plan_free(&p);
	return buf;
}

static const char *const want[] = { "vm.zone_reclaim_mode=0", "vm.min_slab_ratio=37",
				    "kernel.numa_balancing=1", NULL };

static void test_state(void)
{
	struct tuned_state st;

	tuned_read(&st);
	CHECK(!st.installed && !tuned_active(&st), "no /usr/lib/tuned: not installed");
	put("/usr/lib/tuned/x/tuned.conf", "[sysctl]\nvm.min_slab_ratio=1\n");
	put("/etc/tuned/active_profile", "x  y/z\n");
	tuned_read(&st);
	CHECK(st.installed && !tuned_active(&st),
	      "installed, neither enabled nor running: inactive");
	CHECK_STR(st.profile, "x", "the active profile, names tuned refuses dropped");
	CHECK(st.reapply_sysctl, "reapply_sysctl is on by default");
	put("/run/tuned/tuned.pid", "1\n");
	put("/etc/tuned/tuned-main.conf", "# c\nreapply_sysctl = False\n");
	tuned_read(&st);
	CHECK(tuned_active(&st) && st.running && !st.reapply_sysctl,
	      "running, and reapply_sysctl = False read as getboolean does");
}

static void test_parse(void)
{
	put("/usr/lib/tuned/x/tuned.conf", "# comment\n"
					   "[main]\n"
					   "summary = x\n"
					   "[sysctl]\n"
					   "vm.min_slab_ratio = 5 # inline\n"
					   "vm.min_slab_ratio=6#not a comment\n"
					   "  ; an indented comment line\n"
					   "vm.zone_reclaim_mode =\n"
					   "\n"
					   "   1\n"
					   "[sysctl]\n"
					   "kernel.numa_balancing = 0\n");
	CHECK_STR(conflicts(want),
		  "vm.zone_reclaim_mode=1@tuned.conf:8 kernel.numa_balancing=0@tuned.conf:12",
		  "ConfigParser's rules: '#' after a space is a comment, a key again replaces (so "
		  "'6#not a comment', which the kernel refuses: no change), a continuation joins "
		  "after a blank line with newlines (the kernel skips them: 1), a section again "
		  "merges");
	put("/usr/lib/tuned/x/tuned.conf", "[sysctl]\nvm.min_slab_ratio\n");
	CHECK_STR(conflicts(want),
		  "[/usr/lib/tuned/x/tuned.conf:a line without '=': tuned cannot parse it, so it "
		  "loads no profile]",
		  "a line tuned's parser refuses: nothing applies, and why");
}

static void test_merge(void)
{
	put("/usr/lib/tuned/base/tuned.conf",
	    "[sysctl]\nvm.min_slab_ratio=9\nvm.zone_reclaim_mode=1\n[cpu]\ngovernor=x\n");
	put("/usr/lib/tuned/x/tuned.conf", "[main]\ninclude = -missing, base\n[sysctl]\n"
					   "kernel.numa_balancing=0\ndrop=vm.zone_reclaim_mode\n");
	CHECK_STR(conflicts(want),
		  "vm.min_slab_ratio=9@tuned.conf:2 kernel.numa_balancing=0@tuned.conf:4",
		  "include first ('-' for a missing one), then the profile; drop= takes a key out");
	put("/usr/lib/tuned/x/tuned.conf",
	    "[main]\ninclude=base\n[sysctl]\nreplace=True\nkernel.numa_balancing=1\n");
	CHECK_STR(conflicts(want), "", "replace=True: the included [sysctl] is gone");
	put("/usr/lib/tuned/x/tuned.conf",
	    "[main]\ninclude=base\n[base_sysctl]\ntype=sysctl\nenabled=yes\nvm.min_slab_ratio=2\n");
	CHECK_STR(conflicts(want),
		  "vm.zone_reclaim_mode=1@tuned.conf:3 vm.min_slab_ratio=9@tuned.conf:2",
		  "enabled=yes is not true to tuned (only True, true, 1)");
}

static void test_values(void)
{
	put("/usr/lib/tuned/x/tuned.conf",
	    "[variables]\nb=1\na=${b}0\n[sysctl]\nvm.min_slab_ratio=${a}\n"
	    "vm.zone_reclaim_mode=\\${a}\nkernel.numa_balancing=\"0\"\n");
	CHECK_STR(conflicts(want),
		  "vm.min_slab_ratio=10@tuned.conf:5 kernel.numa_balancing=0@tuned.conf:7",
		  "variables expand in order; \\${a} is written as ${a}, which the kernel "
		  "refuses; quotes come off");
	put("/usr/lib/tuned/x/tuned.conf",
	    "[sysctl]\nvm.min_slab_ratio=${nope}\nvm.zone_reclaim_mode=${f:exec:x}\n");
	CHECK_STR(conflicts(want), "vm.zone_reclaim_mode=?@tuned.conf:3",
		  "an undefined variable is written as it is (the kernel refuses it); a function "
		  "only tuned can evaluate: its value is unknown, said as such");
	put("/usr/lib/tuned/x/tuned.conf",
	    "[sysctl]\nvm.min_slab_ratio=>36\nvm.zone_reclaim_mode=<1\nkernel.numa_balancing=<0\n");
	CHECK_STR(conflicts(want), "kernel.numa_balancing=0@tuned.conf:4",
		  ">36 does not raise 37, <1 does not lower 0, <0 lowers 1");
}

int main(void)
{
	char cmd[4200];
	int rc;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	if (sysfs_init(root) < 0) {
		perror(root);
		return 2;
	}
	test_state();
	put("/etc/systemd/system/multi-user.target.wants/tuned.service", "");
	put("/etc/tuned/tuned-main.conf", "reapply_sysctl = 0\n");
	test_parse();
	test_merge();
	test_values();
	rc = tap_done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		perror(cmd);
	return rc;
}
