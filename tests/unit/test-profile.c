// SPDX-License-Identifier: GPL-2.0-or-later
/* numastatctl.conf loading: syntax, every error with its line, includes, drop-ins, trust. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"
#include "sysfs.h"
#include "tap.h"

static char tmpdir[] = "/tmp/test-profile.XXXXXX";
static char path[4096];

static const char *write_file(const char *name, const char *text, size_t len)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

static const char *write_text(const char *name, const char *text)
{
	return write_file(name, text, strlen(text));
}

/* Load text as --config; the errors are in c. */
static void load_text(struct profile_config *c, const char *text)
{
	memset(c, 0, sizeof(*c));
	profile_config_load(c, write_text("t.conf", text), NULL, 0);
}

/* The errors without the file name, joined by '\n': ":5: [profile a]: ...". */
static const char *errors(const struct profile_config *c)
{
	static char buf[8192];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nerrors && n < sizeof(buf); i++) {
		const char *e = c->errors[i].text;
		const char *colon = strncmp(e, tmpdir, strlen(tmpdir)) == 0
					    ? strchr(e + strlen(tmpdir), ':')
					    : e;

		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? "\n" : "", colon);
	}
	return buf;
}

/* A config whose only error is want. */
static void expect_error(const char *text, const char *want, const char *desc)
{
	struct profile_config c;

	load_text(&c, text);
	CHECK_STR(errors(&c), want, "%s", desc);
	profile_config_free(&c);
}

static void test_good(void)
{
	struct profile_config c;
	const struct profile *p;

	load_text(&c,
		  "; comment\n# comment\n[numastatctl]\nprofile = b\nstate_dir = /run/x\n"
		  "\n[profile a]\nsummary = The A; with a semicolon\nvm.numa_stat = off ; inline\n"
		  "-vm.zone_distribute_mode = 1\n[profile b]\ninclude = a\nmin_slab_ratio: 9\n");
	CHECK(c.nerrors == 0, "a good file loads without errors (%s)", errors(&c));
	CHECK(c.nprofiles == 2, "two profiles");
	CHECK_STR(c.default_profile, "b", "[numastatctl] profile");
	CHECK(c.default_at.line == 4, "the default profile's line is kept");
	CHECK_STR(c.state_dir, "/run/x", "[numastatctl] state_dir");
	p = profile_find(&c, "a");
	CHECK(p && p->n == 3, "profile a holds summary and two knobs");
	CHECK_STR(p ? p->keys[0].value : NULL, "The A; with a semicolon",
		  "';' without a space before it stays in the value");
	CHECK_STR(p ? p->keys[1].val.text : NULL, "0",
		  "values are canonical ('off' is 0), "
		  "the inline ';' comment is gone");
	CHECK(p && !p->keys[1].optional && p->keys[2].optional, "'-' marks a knob optional");
	CHECK_STR(p ? p->keys[2].key : NULL, "vm.zone_distribute_mode",
		  "the key is the resolved name");
	p = profile_find(&c, "b");
	CHECK_STR(p ? p->keys[1].key : NULL, "vm.min_slab_ratio", "short names and ':' resolve");
	profile_config_free(&c);
}

static void test_syntax_errors(void)
{
	char line[512];

	expect_error("vm.numa_stat = 1\n",
		     ":1: 'vm.numa_stat' is outside any section: put it "
		     "under [profile NAME] or [numastatctl]",
		     "a key outside a section");
	expect_error("[profile a]\nvm.numa_stat = 1\n[profile b\nvm.numa_stat = 2\n",
		     ":3: unclosed section header: expected ']'",
		     "an unclosed section header; its keys are not checked");
	expect_error("[profile a]\nvm.numa_stat =\n",
		     ":2: [profile a]: 'vm.numa_stat' has no value", "a key without a value");
	expect_error("[profile a]\n= 1\n", ":2: [profile a]: missing key name before '='",
		     "a value without a key");
	expect_error("[profile a]\nvm.numa_stat\n",
		     ":2: [profile a]: expected 'key = value', "
		     "'[section]' or a comment, got 'vm.numa_stat'",
		     "a line without '='");
	expect_error("[profile a] # x\n", ":1: unexpected text after ']': comments start with ';'",
		     "text after a section header");
	expect_error("[profile a] ; fine\n[whatever]\n",
		     ":2: unknown section [whatever]: expected "
		     "[numastatctl] or [profile NAME]",
		     "an unknown section");
	expect_error("[profile a b]\n",
		     ":1: invalid profile name 'a b': use letters, digits, '-', "
		     "'_' and '.', starting with a letter or digit",
		     "an invalid profile name");
	expect_error("[profile a]\nvm.numa_stat = 1\n  [profile b]\n",
		     ":3: [profile a]: indented section header: it would continue the value of "
		     "'vm.numa_stat'; remove the indentation",
		     "an indented section header");
	snprintf(line, sizeof(line), "[profile a]\nsummary = %0189d\nsummary = %0190d\n", 0, 0);
	expect_error(line, ":3: [profile a]: line is 200 characters long: at most 199 are allowed",
		     "a 199-character line is read, a 200-character one refused");
	snprintf(line, sizeof(line), "[profile %041d]\n[profile %042d]\n", 0, 0);
	expect_error(line, ":2: section name is 50 characters long: at most 49 are allowed",
		     "a 49-character section name is read, a 50-character one refused");
}

static void test_key_errors(void)
{
	expect_error("[profile db]\nnuma_stats = 1\n",
		     ":2: [profile db]: unknown knob 'numa_stats': "
		     "did you mean vm.numa_stat?",
		     "an unknown knob, with a suggestion");
	expect_error("[profile db]\nfrobnicate = 1\n",
		     ":2: [profile db]: unknown knob 'frobnicate': "
		     "only vm.*, kernel.numa_* and the knobs listed by 'numastatctl knobs' are "
		     "managed",
		     "an unknown knob nothing is close to");
	expect_error("[profile db]\nkernel.hostname = x\n",
		     ":2: [profile db]: unknown knob "
		     "'kernel.hostname': only vm.*, kernel.numa_* and the knobs listed by "
		     "'numastatctl knobs' are managed",
		     "a foreign kernel.* sysctl");
	expect_error("[profile db]\nnet.ipv4.ip_forward = 1\n",
		     ":2: [profile db]: unknown knob "
		     "'net.ipv4.ip_forward': only vm.*, kernel.numa_* and the knobs listed by "
		     "'numastatctl knobs' are managed",
		     "a net.* sysctl");
	expect_error("[profile db]\nvm.numa_stat = 2\n",
		     ":2: [profile db]: vm.numa_stat: invalid "
		     "value '2': must be 0 or 1 (or on/off)",
		     "a bad value");
	expect_error("[profile db]\nvm.numa_stat = 0 # off\n",
		     ":2: [profile db]: vm.numa_stat: "
		     "invalid value '0 # off': '#' does not start a comment after a value: use ';' "
		     "(after a space)",
		     "'#' after a value is not a comment");
	expect_error("[profile db]\nvm.numa_stat = 1\nnuma_stat = 0\n",
		     ":3: [profile db]: "
		     "duplicate key 'vm.numa_stat' (first set at line 2)",
		     "a duplicate key, also under another spelling");
	expect_error(
		"[profile db]\nvm.numa_stat = 2\nvm.numa_stat = 1\n",
		":2: [profile db]: vm.numa_stat: invalid value '2': must be 0 or 1 (or on/off)\n"
		":3: [profile db]: duplicate key 'vm.numa_stat' (first set at line 2)",
		"a duplicate of an invalid key is still a duplicate");
	expect_error("[profile a]\n[profile b]\n[profile a]\n",
		     ":3: section [profile a] appears twice "
		     "in this file (first at line 1)",
		     "a duplicate section");
	expect_error("[profile a]\n-summary = x\n",
		     ":2: [profile a]: '-summary': a '-' prefix "
		     "applies to knobs only",
		     "'-' before summary");
	expect_error("[numastatctl]\nprofile = a\nfoo = 1\nstate_dir = rel\n[profile a]\n",
		     ":3: [numastatctl]: unknown key 'foo': expected profile or state_dir\n"
		     ":4: [numastatctl]: state_dir: 'rel' is not an absolute path",
		     "[numastatctl] keys are checked");
	expect_error("[numastatctl]\nprofile = nope\n[profile a]\n",
		     ":2: [numastatctl]: profile: "
		     "'nope' is not defined (profiles: a)",
		     "the default profile must exist");
	expect_error("[numastatctl]\nprofile = thruput\n[profile throughput]\n",
		     ":2: [numastatctl]: "
		     "profile: 'thruput' is not defined: did you mean throughput?",
		     "a misspelt default profile");
}

static void test_bytes(void)
{
	struct profile_config c;
	static const char nul[] = "[profile a]\nsummary = x\0y\nvm.numa_stat = 9\n";

	load_text(&c, "\xEF\xBB\xBF[profile a]\r\nvm.numa_stat = 0\r\nvm.numa_stat = 1\r\n");
	CHECK_STR(errors(&c), ":3: [profile a]: duplicate key 'vm.numa_stat' (first set at line 2)",
		  "a BOM at the start and CRLF line ends are accepted, lines still count");
	CHECK(c.nprofiles == 1 && c.profiles[0].n == 1 &&
		      strcmp(c.profiles[0].keys[0].val.text, "0") == 0,
	      "the CR is not part of the value");
	profile_config_free(&c);
	expect_error("[profile a]\nvm.numa_stat = 1\n\xEF\xBB\xBF; second file pasted here\n",
		     ":3: [profile a]: byte order mark inside the file: only one at the very start "
		     "is allowed",
		     "a BOM inside the file");
	expect_error("[profile a]\nvm.numa_stat = 1\rvm.zone_reclaim_mode = 1\n",
		     ":2: [profile a]: carriage return inside the line: end lines with LF or CRLF",
		     "a lone CR (old Mac line ends)");
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, write_file("t.conf", nul, sizeof(nul) - 1), NULL, 0);
	CHECK_STR(errors(&c),
		  ":2: [profile a]: NUL byte in the line\n"
		  ":3: [profile a]: vm.numa_stat: invalid value '9': must be 0 or 1 (or on/off)",
		  "a NUL byte is refused and the lines after it still count");
	profile_config_free(&c);
}

static void test_continuation(void)
{
	struct profile_config c;

	load_text(&c,
		  "[profile a]\nsummary = first\n\n  second ; note\n\tthird\nvm.numa_stat = 0\n");
	CHECK(c.nerrors == 0, "continuation lines load (%s)", errors(&c));
	CHECK_STR(c.nprofiles ? c.profiles[0].keys[0].value : NULL, "first second third",
		  "indented lines continue the value, even after a blank line");
	profile_config_free(&c);
	expect_error("[profile a]\nvm.numa_stat = 0\n  vm.zone_reclaim_mode = 1\n",
		     ":2: [profile a]: vm.numa_stat: invalid value '0 vm.zone_reclaim_mode = 1': "
		     "must be 0 or 1 (or on/off)",
		     "an indented key continues the previous value");
}

static void test_includes(void)
{
	struct profile_config c;
	struct profile_resolved r;
	char why[256] = "", origin[4200];
	int ret;

	load_text(&c, "[profile base]\nvm.numa_stat = 1\nvm.min_slab_ratio = 7\n"
		      "[profile mid]\ninclude = base\nvm.numa_stat = 0\nvm.min_unmapped_ratio = 3\n"
		      "[profile top]\ninclude = mid\nsummary = Top\nvm.numa_stat = 1\n");
	CHECK(c.nerrors == 0, "a three-level chain loads (%s)", errors(&c));
	ret = profile_resolve(&c, "top", &r, why, sizeof(why));
	CHECK(ret == 0 && r.n == 3, "top resolves to three knobs (%d, %s)", ret, why);
	if (ret == 0 && r.n == 3) {
		CHECK_STR(r.knobs[0].def->key, "vm.numa_stat", "included knobs come first");
		CHECK(r.knobs[0].def->at.line == 11 && r.knobs[0].from == profile_find(&c, "top"),
		      "the last definition wins, from the including profile");
		CHECK(r.knobs[0].noverrides == 2 && r.knobs[0].overrides[0]->at.line == 6 &&
			      r.knobs[0].overrides[1]->at.line == 2,
		      "it remembers what it overrode, newest first");
		CHECK(r.knobs[1].from == profile_find(&c, "base") &&
			      r.knobs[2].from == profile_find(&c, "mid"),
		      "the other knobs name the profile they come from");
		profile_origin(&c, r.knobs[1].def->at, origin, sizeof(origin));
		CHECK(strstr(origin, "/t.conf:3") != NULL, "origin is FILE:LINE (%s)", origin);
		CHECK_STR(r.summary ? r.summary->value : NULL, "Top", "the own summary");
	}
	profile_resolved_free(&r);
	CHECK(profile_resolve(&c, "nope", &r, why, sizeof(why)) == -ENOENT, "unknown profile");
	CHECK_STR(why, "unknown profile 'nope' (profiles: base, mid, top)", "names the known ones");
	CHECK(profile_resolve(&c, "mdi", &r, why, sizeof(why)) == -ENOENT, "a misspelt profile");
	CHECK_STR(why, "unknown profile 'mdi': did you mean mid?", "suggests the close one");
	profile_config_free(&c);

	expect_error(
		"[profile a]\ninclude = b\n[profile b]\ninclude = c\n[profile c]\ninclude = a\n",
		":2: [profile a]: include loop: a -> b -> c -> a",
		"an include loop is reported once, with its chain");
	expect_error("[profile a]\ninclude = a\n", ":2: [profile a]: include loop: a -> a",
		     "a profile including itself");
	expect_error("[profile x]\nvm.numa_stat = 1\n[profile a]\ninclude = x b\n[profile b]\n"
		     "include = a\n",
		     ":4: [profile a]: include loop: a -> b -> a",
		     "a loop behind an innocent include");
	expect_error("[profile a]\ninclude = nope\n",
		     ":2: [profile a]: include: unknown profile 'nope' "
		     "(profiles: a)",
		     "an include of an unknown profile");
	expect_error("[profile base]\n[profile a]\ninclude = bsae\n",
		     ":3: [profile a]: include: "
		     "unknown profile 'bsae': did you mean base?",
		     "an include of a misspelt profile");
}

static void test_diamond(void)
{
	struct profile_config c;
	struct profile_resolved r;
	char why[256];

	load_text(&c, "[profile d]\nvm.numa_stat = 0\n[profile b]\ninclude = d\n[profile c]\n"
		      "include = d\n[profile a]\ninclude = b c\n");
	CHECK(c.nerrors == 0 && profile_resolve(&c, "a", &r, why, sizeof(why)) == 0 && r.n == 1 &&
		      r.knobs[0].noverrides == 0,
	      "a profile reached twice is neither a loop nor an override");
	profile_resolved_free(&r);
	profile_config_free(&c);
	load_text(&c,
		  "[profile d]\nvm.numa_stat = 0\n[profile b]\ninclude = d\nvm.numa_stat = 1\n"
		  "[profile c]\ninclude = d\nvm.min_slab_ratio = 3\n[profile a]\ninclude = b c\n");
	CHECK(c.nerrors == 0 && profile_resolve(&c, "a", &r, why, sizeof(why)) == 0 && r.n == 2 &&
		      strcmp(r.knobs[0].def->val.text, "1") == 0 && r.knobs[0].def->at.line == 5,
	      "a profile is merged once, where first reached: c's include of d does not undo b");
	profile_resolved_free(&r);
	profile_config_free(&c);
}

static void mkdir_or_die(const char *p)
{
	if (mkdir(p, 0755) < 0 && errno != EEXIST) {
		perror(p);
		exit(2);
	}
}

static void test_dropins(void)
{
	struct profile_config c = { 0 };
	struct profile_resolved r;
	char etc[4200], d[4300], why[256];

	snprintf(etc, sizeof(etc), "%s/etc", tmpdir);
	snprintf(d, sizeof(d), "%s/numastatctl.d", etc);
	mkdir_or_die(etc);
	mkdir_or_die(d);
	write_text("etc/numastatctl.conf", "[numastatctl]\nprofile = p\n[profile p]\n"
					   "vm.numa_stat = 1\nvm.min_slab_ratio = 7\n");
	write_text("etc/numastatctl.d/20-late.conf", "[profile p]\nvm.numa_stat = 0\n");
	write_text("etc/numastatctl.d/10-early.conf", "[profile p]\nvm.numa_stat = 1\n"
						      "vm.min_slab_ratio = 8\n");
	write_text("etc/numastatctl.d/.hidden.conf", "[broken\n");
	write_text("etc/numastatctl.d/notes.txt", "[broken\n");
	profile_config_load(&c, NULL, (const char *[]){ etc, NULL }, 0);
	CHECK(c.nerrors == 0, "drop-ins load (%s)", errors(&c));
	CHECK(c.nfiles == 3 && strstr(c.files[0], "etc/numastatctl.conf") &&
		      strstr(c.files[1], "10-early.conf") && strstr(c.files[2], "20-late.conf"),
	      "the main file, then *.conf drop-ins in name order; hidden and other files skipped");
	if (profile_resolve(&c, "p", &r, why, sizeof(why)) == 0 && r.n == 2) {
		CHECK(strcmp(r.knobs[0].def->val.text, "0") == 0 && r.knobs[0].def->at.file == 2,
		      "the last drop-in wins");
		CHECK(r.knobs[0].noverrides == 2 && r.knobs[0].overrides[0]->at.file == 1 &&
			      r.knobs[0].overrides[1]->at.file == 0,
		      "and the earlier files are remembered");
		CHECK(strcmp(r.knobs[1].def->val.text, "8") == 0, "a key set only earlier stays");
	} else
		CHECK(0, "profile p resolves (%s)", why);
	profile_resolved_free(&r);
	profile_config_free(&c);
}

/* The file list of c as names relative to tmpdir, joined by ' '. */
static const char *file_list(const struct profile_config *c)
{
	static char buf[4096];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nfiles && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "",
				      c->files[i] + strlen(tmpdir) + 1);
	return buf;
}

/* The overridden files as "PATH<BY", relative to tmpdir, joined by ' '. */
static const char *masked_list(const struct profile_config *c)
{
	static char buf[4096];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nmasked && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s<%s", i ? " " : "",
				      c->masked[i].path + strlen(tmpdir) + 1,
				      c->masked[i].by + strlen(tmpdir) + 1);
	return buf;
}

/* /etc over /run over /usr/lib, by name, and the drop-ins in one name order. */
static void test_layers(void)
{
	static const char *const sub[] = { "L/etc", "L/run", "L/usr", "L/usr/lib" };
	struct profile_config c = { 0 };
	struct profile_resolved r;
	char etc[4200], run[4200], lib[4200], d[4300], why[256];
	const char *dirs[] = { etc, run, lib, NULL };

	snprintf(d, sizeof(d), "%s/L", tmpdir);
	mkdir_or_die(d);
	for (size_t i = 0; i < 4; i++) {
		snprintf(d, sizeof(d), "%s/%s", tmpdir, sub[i]);
		mkdir_or_die(d);
		if (i != 2) {
			snprintf(d, sizeof(d), "%s/%s/numastatctl.d", tmpdir, sub[i]);
			mkdir_or_die(d);
		}
	}
	snprintf(etc, sizeof(etc), "%s/L/etc", tmpdir);
	snprintf(run, sizeof(run), "%s/L/run", tmpdir);
	snprintf(lib, sizeof(lib), "%s/L/usr/lib", tmpdir);
	write_text("L/usr/lib/numastatctl.conf", "[numastatctl]\nprofile = p\n[profile p]\n"
						 "vm.numa_stat = 1\nvm.min_slab_ratio = 7\n");
	write_text("L/usr/lib/numastatctl.d/10-a.conf", "[profile p]\nvm.min_slab_ratio = 10\n");
	write_text("L/usr/lib/numastatctl.d/30-c.conf", "[profile p]\nvm.min_slab_ratio = 30\n");
	write_text("L/run/numastatctl.d/10-a.conf", "[profile p]\nvm.min_slab_ratio = 11\n");
	write_text("L/run/numastatctl.d/20-b.conf", "[profile p]\nvm.min_slab_ratio = 20\n");
	write_text("L/etc/numastatctl.d/10-a.conf", "[profile p]\nvm.min_slab_ratio = 12\n");
	write_text("L/etc/numastatctl.d/30-c.conf", "");
	profile_config_load(&c, NULL, dirs, 0);
	CHECK(c.nerrors == 0, "three layers load (%s)", errors(&c));
	CHECK_STR(file_list(&c),
		  "L/usr/lib/numastatctl.conf L/etc/numastatctl.d/10-a.conf "
		  "L/run/numastatctl.d/20-b.conf L/etc/numastatctl.d/30-c.conf",
		  "the main file of the only layer that has one, then the drop-ins of every "
		  "layer in name order, each name from its highest layer");
	CHECK_STR(masked_list(&c),
		  "L/run/numastatctl.d/10-a.conf<L/etc/numastatctl.d/10-a.conf "
		  "L/usr/lib/numastatctl.d/10-a.conf<L/etc/numastatctl.d/10-a.conf "
		  "L/usr/lib/numastatctl.d/30-c.conf<L/etc/numastatctl.d/30-c.conf",
		  "/etc overrides /run and /usr/lib by name, and says so; an empty file too");
	if (profile_resolve(&c, "p", &r, why, sizeof(why)) == 0 && r.n == 2)
		CHECK(strcmp(r.knobs[1].def->val.text, "20") == 0 && r.knobs[1].def->at.file == 2,
		      "the last name wins key by key, whatever its layer (20-b in /run after "
		      "10-a in /etc; 30-c is empty)");
	else
		CHECK(0, "profile p resolves (%s)", why);
	profile_resolved_free(&r);
	profile_config_free(&c);

	write_text("L/run/numastatctl.conf", "[profile runtime]\nvm.numa_stat = 0\n");
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, NULL, dirs, 0);
	CHECK(c.nfiles > 0 && strstr(c.files[0], "L/run/numastatctl.conf") &&
		      profile_find(&c, "runtime") && !c.default_at.line,
	      "/run's numastatctl.conf overrides the shipped one whole: its profiles only");
	CHECK(c.nmasked == 4 && strcmp(c.masked[0].path + strlen(tmpdir) + 1,
				       "L/usr/lib/numastatctl.conf") == 0,
	      "and the shipped file is named as overridden");
	profile_config_free(&c);
	write_text("L/etc/numastatctl.conf", "[numastatctl]\nprofile = p\n[profile p]\n"
					     "vm.numa_stat = 0\n");
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, NULL, dirs, 0);
	CHECK(c.nfiles > 0 && strstr(c.files[0], "L/etc/numastatctl.conf") && c.nmasked == 5,
	      "/etc's numastatctl.conf overrides both");
	profile_config_free(&c);

	if (geteuid() != 0) {
		CHECK(1, "# SKIP not root: the trust checks need files owned by root");
		return;
	}
	snprintf(d, sizeof(d), "%s/numastatctl.d", run);
	chmod(d, 0775);
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, NULL, dirs, PROFILE_CHECK_OWNER);
	CHECK(c.nerrors == 1 && strstr(c.errors[0].text, "L/run/numastatctl.d: writable by group "
							 "or others: refusing it"),
	      "a group-writable /run layer is refused as root, like /etc's (%s)", errors(&c));
	CHECK(!strstr(file_list(&c), "20-b.conf"), "and none of its files is read");
	profile_config_free(&c);
	chmod(d, 0755);
	snprintf(d, sizeof(d), "%s/numastatctl.d/30-c.conf", lib);
	chmod(d, 0666);
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, NULL, dirs, PROFILE_CHECK_OWNER);
	CHECK(c.nerrors == 0,
	      "a world-writable file that /etc overrides is never read, so no "
	      "refusal (%s)",
	      errors(&c));
	profile_config_free(&c);
}

static void test_trust(void)
{
	struct profile_config c = { 0 };
	char etc[4200], d[4300];

	snprintf(etc, sizeof(etc), "%s/etc", tmpdir);
	snprintf(d, sizeof(d), "%s/numastatctl.d", etc);
	if (geteuid() != 0) {
		/* Files not root's are refused first, whatever their mode. */
		CHECK(1, "# SKIP not root: the mode checks need files owned by root");
		return;
	}
	chmod(d, 0777);
	profile_config_load(&c, NULL, (const char *[]){ etc, NULL }, PROFILE_CHECK_OWNER);
	CHECK(c.nerrors == 1 &&
		      strstr(c.errors[0].text, "numastatctl.d: writable by group or others: "
					       "refusing it (run 'chmod go-w ") != NULL,
	      "a world-writable drop-in directory is refused "
	      "(%s)",
	      c.nerrors ? c.errors[0].text : "no error");
	CHECK(c.nfiles == 1, "and its files are not read");
	profile_config_free(&c);
	chmod(d, 0755);
	snprintf(d, sizeof(d), "%s/numastatctl.conf", etc);
	chmod(d, 0664);
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, d, NULL, PROFILE_CHECK_OWNER);
	CHECK(c.nerrors == 1 && strstr(c.errors[0].text, "/numastatctl.conf: writable by group or "
							 "others: refusing it (run 'chmod go-w "),
	      "a group-writable file is refused");
	CHECK(c.nprofiles == 0, "and not read");
	profile_config_free(&c);
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, d, NULL, 0);
	CHECK(c.nerrors == 0, "without the check (not root) it loads");
	profile_config_free(&c);
	chmod(d, 0644);
	if (chown(d, 65534, 65534) < 0) {
		CHECK(1, "# SKIP cannot hand the file to another owner");
		return;
	}
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, d, NULL, PROFILE_CHECK_OWNER);
	CHECK(c.nerrors == 1 && strstr(c.errors[0].text, "owned by uid 65534, not by root: "
							 "refusing it (run 'chown root "),
	      "a file not owned by root is refused");
	profile_config_free(&c);
	if (chown(d, 0, 0) < 0)
		perror(d);
}

static void test_files(void)
{
	struct profile_config c = { 0 };

	profile_config_load(&c, "/nonexistent/numastatctl.conf", NULL, 0);
	CHECK_STR(c.nerrors ? c.errors[0].text : NULL,
		  "/nonexistent/numastatctl.conf: cannot "
		  "read: No such file or directory",
		  "a missing --config file is an error");
	profile_config_free(&c);
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, "/dev/null", NULL, PROFILE_CHECK_OWNER);
	CHECK(c.nerrors == 0 && c.nprofiles == 0, "--config /dev/null is an empty configuration");
	profile_config_free(&c);
	memset(&c, 0, sizeof(c));
	profile_config_load(&c, NULL, (const char *[]){ "/nonexistent", NULL },
			    PROFILE_CHECK_OWNER);
	CHECK(c.nerrors == 0 && c.nfiles == 0, "no default files at all is no error");
	profile_config_free(&c);
}

/*
 * Names are checked against the kernel (here the sparse3 dump) when the file
 * is read, in every profile: a typo is an error even in a profile nobody
 * applies, and '-' does not hide it; a registry knob the kernel lacks is not.
 */
static void test_presence(void)
{
	expect_error(
		"[profile used]\nvm.numa_stat = 1\n[profile unused]\nvm.zone_reclam_mode = 1\n",
		":4: [profile unused]: unknown knob 'vm.zone_reclam_mode': did you mean "
		"vm.zone_reclaim_mode?",
		"a typo in a profile that is not applied");
	expect_error("[profile p]\n-vm.zone_reclam_mode = 1\n",
		     ":2: [profile p]: unknown knob 'vm.zone_reclam_mode': did you mean "
		     "vm.zone_reclaim_mode?",
		     "'-' does not hide a typo");
	expect_error("[profile p]\nvm.swapiness = 10\n",
		     ":2: [profile p]: unknown knob "
		     "'vm.swapiness': did you mean vm.swappiness?",
		     "a typo of a pass-through sysctl the kernel has");
	expect_error("[profile p]\nkernel.numa_balancing_scan_delay_ms = 10\n",
		     ":2: [profile p]: "
		     "unknown knob 'kernel.numa_balancing_scan_delay_ms': no such sysctl on this "
		     "kernel, and not a registry knob ('numastatctl knobs' lists them)",
		     "a pass-through name this kernel lacks, nothing close");
	expect_error("[profile p]\nvm.swappiness = 10\nvm.zone_distribute_mode = 1\n"
		     "-vm.zone_distribute_mode = 1\n",
		     ":4: [profile p]: duplicate key "
		     "'vm.zone_distribute_mode' (first set at line 3)",
		     "a pass-through sysctl here and a registry knob the kernel lacks are fine");
}

/* No silent limit on sections: one first seen after 280 others is still seen again. */
static void test_many_sections(void)
{
	static char text[300 * 40 + 64];
	size_t n = 0;

	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "[profile p%d]\nvm.numa_stat = 1\n", i);
	snprintf(text + n, sizeof(text) - n, "[profile p280]\nvm.min_slab_ratio = 3\n");
	expect_error(text,
		     ":601: section [profile p280] appears twice in this file (first at line "
		     "561)",
		     "the 281st section repeated is refused, not merged");
}

/* The shipped numastatctl.conf: no errors, and every profile resolves to knobs. */
static void test_shipped(void)
{
	const char *fixtures = getenv("FIXTURES");
	struct profile_config c = { 0 };
	struct profile_resolved r;
	char file[4200], why[256];

	snprintf(file, sizeof(file), "%s/../../numastatctl.conf",
		 fixtures ? fixtures : "tests/fixtures");
	profile_config_load(&c, file, NULL, 0);
	CHECK(c.nerrors == 0, "the shipped numastatctl.conf validates (%s)",
	      c.nerrors ? c.errors[0].text : "");
	CHECK(c.nprofiles >= 4 && profile_find(&c, "default") && profile_find(&c, "throughput") &&
		      profile_find(&c, "hpc") && profile_find(&c, "tiering"),
	      "it ships the four profiles");
	CHECK_STR(c.default_profile, "default", "and names 'default' for the boot unit");
	for (size_t i = 0; i < c.nprofiles; i++) {
		const struct profile *p = &c.profiles[i];
		int ret = profile_resolve(&c, p->name, &r, why, sizeof(why));

		CHECK(ret == 0 && r.n > 0 && r.summary,
		      "shipped profile %s resolves, sets knobs and "
		      "has a summary",
		      p->name);
		profile_resolved_free(&r);
	}
	profile_config_free(&c);
}

int main(void)
{
	char cmd[4200];
	int rc;

	umask(022);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	/* Pass-through names are checked against this dump, not the host. */
	if (getenv("FIXTURES")) {
		snprintf(cmd, sizeof(cmd), "%s/sparse3", getenv("FIXTURES"));
		if (sysfs_init(cmd) < 0)
			perror(cmd);
	}
	test_good();
	test_syntax_errors();
	test_key_errors();
	test_presence();
	test_many_sections();
	test_bytes();
	test_continuation();
	test_includes();
	test_diamond();
	test_dropins();
	test_layers();
	test_trust();
	test_files();
	test_shipped();
	rc = tap_done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", tmpdir);
	return rc;
}
