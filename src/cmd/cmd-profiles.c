// SPDX-License-Identifier: GPL-2.0-or-later
/* profiles [NAME] [--cat-config]: what the configuration defines, and where. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "escape.h"
#include "log.h"
#include "out.h"
#include "profiles.h"
#include "slurp.h"
#include "why.h"
#include "wrap.h"

enum { OPT_CAT_CONFIG = OPT_CMD_BASE };

static const struct cmd_option options[] = {
	{ "cat-config", no_argument, OPT_CAT_CONFIG, NULL,
	  "print every configuration file in precedence order" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl profiles [options] [<profile>]\n"
	      "\nList the profiles of numastatctl.conf, or show one profile resolved: every\n"
	      "knob in force with the file:line it comes from and what it overrides.\n"
	      "The whole configuration is checked; problems are listed with exit status 2.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8) and numastatctl.conf(5).\n", out);
}

static int list(const struct profile_config *c)
{
	char why[WHY_MAX];
	struct out_table *t;
	int r = out_table_new(&t, "profiles", cmd_global.json ? OUT_JSON : 0, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	if (c->nfiles == 0 && !cmd_global.config && !cmd_global.json) {
		char none[512];

		out_table_free(t);
		profiles_none_text(none, sizeof(none));
		log_info("%s\n", none);
		return EXIT_OK;
	}
	out_table_add_column(t, "NAME", 0, 0);
	out_table_add_column(t, "APPLY_USES", 0, OUT_COL_BOOLEAN);
	out_table_add_column(t, "SUMMARY", 0, OUT_COL_WRAP);
	out_table_add_column(t, "ORIGIN", 0, 0);
	for (size_t i = 0; i < c->nprofiles; i++) {
		const struct profile *p = &c->profiles[i];
		const struct profile_key *s = profile_own_key(p, "summary");
		struct out_row *row = out_table_add_row(t);
		bool dflt = c->default_at.line && strcmp(c->default_profile, p->name) == 0;
		char at[4200];

		if (!row)
			break;
		profile_origin(c, p->at, at, sizeof(at));
		out_row_set(row, 0, p->name);
		out_row_set(row, 1, dflt ? "yes" : "no");
		out_row_set(row, 2, s ? s->value : "");
		/* Where its [profile NAME] first appears: which layer defines it. */
		out_row_set(row, 3, at);
	}
	r = out_table_print(t, stdout);
	out_table_free(t);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/* "1 at FILE:LINE, 37 at FILE:LINE": what e replaced, newest first. */
static void overrides(const struct profile_config *c, const struct profile_effective *e, char *buf,
		      size_t len)
{
	char at[4200], vbuf[KVAL_MAX];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < e->noverrides && n < len; i++) {
		const struct profile_key *o = e->overrides[i];

		profile_origin(c, o->at, at, sizeof(at));
		n += (size_t)snprintf(buf + n, len - n, "%s%s at %s", i ? ", " : "",
				      knob_display(&o->ref, &o->val, vbuf, sizeof(vbuf)), at);
	}
}

/* "FILE:LINE (profile b), overrides 1 at FILE:LINE" */
static void provenance(const struct profile_config *c, const struct profile_resolved *r,
		       const struct profile_effective *e, char *buf, size_t len)
{
	char at[4200], over[4096];
	size_t n;

	profile_origin(c, e->def->at, at, sizeof(at));
	n = (size_t)snprintf(buf, len, "%s", at);
	if (e->from != r->profile && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (profile %s)", e->from->name);
	overrides(c, e, over, sizeof(over));
	if (over[0] && n < len)
		snprintf(buf + n, len - n, ", overrides %s", over);
}

#define ORIGIN_COLUMN 40

/*
 * "ASSIGNMENT ; ORIGIN", the comments in a column.  On a terminal too narrow
 * for the line, the comment folds at spaces under its column, on a line of
 * its own below an assignment longer than the column (itself folded).
 */
static void text_line(const char *assignment, const char *origin)
{
	size_t width = wrap_width(STDOUT_FILENO), alen = strlen(assignment);
	char esc[4 * 8192 + 1];

	if (!width || (alen > ORIGIN_COLUMN ? alen : ORIGIN_COLUMN) + 3 + strlen(origin) <= width) {
		log_info("%-*s ; %s\n", ORIGIN_COLUMN, assignment, origin);
		return;
	}
	if (alen > ORIGIN_COLUMN)
		log_info_wrapped(width, 2, "%s", assignment);
	else
		log_info("%s", assignment);
	if (log_is_quiet())
		return;
	printf("%*s; ", alen > ORIGIN_COLUMN ? ORIGIN_COLUMN + 1 : ORIGIN_COLUMN + 1 - (int)alen,
	       "");
	wrap_fputs(stdout, escape_text(origin, esc, sizeof(esc), 0), ORIGIN_COLUMN + 3,
		   ORIGIN_COLUMN + 3, width);
	putchar('\n');
}

static int show_text(const struct profile_config *c, const struct profile_resolved *r)
{
	char line[PROFILE_VALUE_MAX + KNOB_NAME_MAX + 8], at[4200], vbuf[KVAL_MAX];
	const struct profile_key *own[] = { r->summary, r->include };

	profile_origin(c, r->profile->at, at, sizeof(at));
	snprintf(line, sizeof(line), "[profile %s]", r->profile->name);
	text_line(line, at);
	for (size_t i = 0; i < 2; i++) {
		if (!own[i])
			continue;
		profile_origin(c, own[i]->at, at, sizeof(at));
		snprintf(line, sizeof(line), "%s = %s", own[i]->key, own[i]->value);
		text_line(line, at);
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct profile_key *k = r->knobs[i].def;
		char origin[8192];

		provenance(c, r, &r->knobs[i], origin, sizeof(origin));
		snprintf(line, sizeof(line), "%s%s = %s", k->optional ? "-" : "", k->key,
			 knob_display(&k->ref, &k->val, vbuf, sizeof(vbuf)));
		text_line(line, origin);
	}
	return EXIT_OK;
}

static void json_row(struct out_table *t, const struct profile_config *c,
		     const struct profile_resolved *r, const struct profile_key *k,
		     const struct profile_effective *e)
{
	struct out_row *row = out_table_add_row(t);
	char vbuf[KVAL_MAX], origin[8192];

	if (!row)
		return;
	profile_origin(c, k->at, origin, sizeof(origin));
	out_row_set(row, 0, k->key);
	out_row_set(row, 1,
		    k->is_knob ? knob_display(&k->ref, &k->val, vbuf, sizeof(vbuf)) : k->value);
	out_row_set(row, 2, k->optional ? "yes" : "no");
	out_row_set(row, 3, e ? e->from->name : r->profile->name);
	out_row_set(row, 4, origin);
	if (e && e->noverrides) {
		overrides(c, e, origin, sizeof(origin));
		out_row_set(row, 5, origin);
	}
}

static int show_json(const struct profile_config *c, const struct profile_resolved *r)
{
	/* "name" and "wants", as in every command (numastatctl(8), JSON OUTPUT). */
	static const char *const cols[] = { "name",    "wants",  "optional",
					    "profile", "origin", "overrides" };
	char why[WHY_MAX];
	struct out_table *t;
	int ret = out_table_new(&t, "keys", OUT_JSON, why, sizeof(why));

	if (ret < 0) {
		log_err("cannot print JSON: %s", why);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < 6; i++)
		out_table_add_column(t, cols[i], 0, i == 2 ? OUT_COL_BOOLEAN : 0);
	if (r->summary)
		json_row(t, c, r, r->summary, NULL);
	if (r->include)
		json_row(t, c, r, r->include, NULL);
	for (size_t i = 0; i < r->n; i++)
		json_row(t, c, r, r->knobs[i].def, &r->knobs[i]);
	ret = out_table_print(t, stdout);
	out_table_free(t);
	return ret < 0 ? EXIT_FAIL : EXIT_OK;
}

static int show(const struct profile_config *c, const char *name)
{
	struct profile_resolved r;
	char why[WHY_MAX];
	int rc;

	if (profile_resolve(c, name, &r, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_USAGE;
	}
	rc = cmd_global.json ? show_json(c, &r) : show_text(c, &r);
	profile_resolved_free(&r);
	return rc;
}

/*
 * Copy a file to stdout, control characters escaped (lines and tabs kept):
 * false when it cannot be read whole.
 */
static bool cat_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	char *buf = NULL;
	ssize_t n;

	if (!f) {
		log_err("%s: cannot read: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	n = slurp_stream(f, PROFILE_FILE_MAX, &buf);
	fclose(f);
	if (n == -EFBIG)
		log_err("%s: larger than %d MiB: not a configuration file", path,
			PROFILE_FILE_MAX >> 20);
	else if (n < 0)
		log_err("%s: cannot read: %s", path, strerror((int)-n));
	/* A NUL would end the text early: each piece, then the NUL as \x00. */
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1) {
		escape_fputs(buf + i, stdout, ESCAPE_KEEP_NEWLINE | ESCAPE_KEEP_TAB);
		if (i + (ssize_t)strlen(buf + i) < n)
			fputs("\\x00", stdout);
	}
	if (n > 0 && buf[n - 1] != '\n')
		putchar('\n');
	free(buf);
	return n >= 0;
}

/* systemd-sysctl --cat-config: each file under a "# PATH" header, in precedence order. */
static int cat_config(void)
{
	struct profile_config c = { 0 };
	int rc = EXIT_OK;

	if (profile_config_files(&c, cmd_global.config, profiles_conf_dirs, 0) < 0) {
		log_err("cannot list the configuration files: %s", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < c.nerrors; i++) {
		log_err("%s", c.errors[i].text);
		rc = EXIT_FAIL;
	}
	for (size_t i = 0; i < c.nfiles; i++) {
		printf("%s# ", i ? "\n" : "");
		escape_fputs(c.files[i], stdout, 0);
		putchar('\n');
		/* What this file hides in the layers below it, as systemd-delta says. */
		for (size_t m = 0; m < c.nmasked; m++)
			if (strcmp(c.masked[m].by, c.files[i]) == 0) {
				fputs("# overrides ", stdout);
				escape_fputs(c.masked[m].path, stdout, 0);
				putchar('\n');
			}
		if (!cat_file(c.files[i]))
			rc = EXIT_FAIL;
	}
	profile_config_free(&c);
	return rc;
}

static int run(int argc, char *argv[])
{
	struct profile_config c = { 0 };
	bool cat = false;
	int ch, rc;

	while ((ch = cmd_getopt(argc, argv, options)) != -1) {
		if (ch == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (ch != OPT_CAT_CONFIG)
			return EXIT_USAGE;
		cat = true;
	}
	if (argc - optind > 1 || (cat && optind < argc)) {
		log_usage_err("unexpected argument '%s'", argv[argc - 1]);
		return EXIT_USAGE;
	}
	if (cat && cmd_global.json) {
		log_usage_err("--cat-config has no JSON form: it prints the configuration files as "
			      "they are ('profiles -J NAME' gives a profile's keys)");
		return EXIT_USAGE;
	}
	if (cat)
		return cat_config();
	/* Knob names are checked against the kernel: the sysroot's, under --sysroot. */
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	rc = profiles_load(&c, true);
	if (rc == EXIT_OK)
		rc = optind < argc ? show(&c, argv[optind]) : list(&c);
	profile_config_free(&c);
	return rc;
}

const struct cmd cmd_profiles = {
	.name = "profiles",
	.run = run,
	.summary = "list profiles, or show one with provenance",
	.usage = usage,
	.options = options,
};
