// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "state.h"
#include "value.h"

#define WHAT_PREFIX "# values before "

int state_save_prior(const char *state_dir, const struct plan *p, const char *what,
		     char *why, size_t whylen)
{
	struct atomic_file af;
	char stamp[32];
	time_t now = time(NULL);
	int r = mkdir_p(state_dir, 0755);

	if (r == 0)
		r = atomic_file_begin(&af, state_dir, STATE_REVERT_FILE, 0600);
	if (r != 0) {
		snprintf(why, whylen, "cannot save values for revert in %s: %s", state_dir,
			 strerror(-r));
		return r;
	}
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(af.f, "# numastatctl revert state: 'numastatctl revert' writes these back\n");
	fprintf(af.f, WHAT_PREFIX "'%s' at %s\n", what ? what : "a change", stamp);
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].action == ACT_WRITE)
			fprintf(af.f, "%s = %s\n", p->items[i].ref.name, p->items[i].old.text);
	r = atomic_file_commit(&af);
	if (r < 0)
		snprintf(why, whylen, "cannot save values for revert in %s: %s", state_dir,
			 strerror(-r));
	return r;
}

static int load_line(char *line, struct plan *out, const char *origin, char *why, size_t whylen)
{
	char *eq = strchr(line, '=');
	struct knob_ref ref;
	struct kval v;
	char msg[320];

	if (!eq) {
		snprintf(why, whylen, "%s: expected 'knob = value'", origin);
		return -EBADMSG;
	}
	*eq = '\0';
	if (knob_resolve(strip(line), &ref, msg, sizeof(msg)) < 0 ||
	    knob_parse(&ref, strip(eq + 1), &v, msg, sizeof(msg)) < 0) {
		snprintf(why, whylen, "%s: %s", origin, msg);
		return -EBADMSG;
	}
	return plan_add(out, &ref, &v, false, origin);
}

int state_load_prior(const char *state_dir, struct plan *out, char *what, size_t whatlen,
		     char *why, size_t whylen)
{
	char path[4096], origin[4200], line[512];
	unsigned lineno = 0;
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "%s/" STATE_REVERT_FILE, state_dir);
	snprintf(what, whatlen, "an earlier change");
	f = fopen(path, "re");
	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (r == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		snprintf(origin, sizeof(origin), "%s:%u", path, lineno);
		if (strncmp(line, WHAT_PREFIX, strlen(WHAT_PREFIX)) == 0)
			snprintf(what, whatlen, "%s", strip(line + strlen(WHAT_PREFIX)));
		if (line[0] == '#' || !*strip(line))
			continue;
		r = load_line(line, out, origin, why, whylen);
	}
	fclose(f);
	return r < 0 ? r : (int)out->n;
}

int state_clear_prior(const char *state_dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/" STATE_REVERT_FILE, state_dir);
	return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
}

#define STASH_FILE "." STATE_REVERT_FILE ".prev"

void state_stash_prior(const char *state_dir)
{
	char cur[4096], prev[4096];

	snprintf(cur, sizeof(cur), "%s/" STATE_REVERT_FILE, state_dir);
	snprintf(prev, sizeof(prev), "%s/" STASH_FILE, state_dir);
	unlink(prev);
	/* A link, not a copy: the revert file stays in place until it is replaced. */
	if (link(cur, prev) < 0 && errno != ENOENT)
		unlink(prev);
}

void state_unstash_prior(const char *state_dir, bool restore)
{
	char cur[4096], prev[4096];

	snprintf(cur, sizeof(cur), "%s/" STATE_REVERT_FILE, state_dir);
	snprintf(prev, sizeof(prev), "%s/" STASH_FILE, state_dir);
	if (!restore)
		unlink(prev);
	else if (rename(prev, cur) < 0 && errno == ENOENT)
		unlink(cur); /* nothing was saved before this change */
}
