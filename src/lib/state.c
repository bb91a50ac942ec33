// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "state.h"
#include "statedir.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

#define HEADER "# numastatctl revert state: 'numastatctl revert' writes these back"
#define WHAT_PREFIX "# values before "
#define FOR_PREFIX "# for "
#define STASH_FILE "." STATE_REVERT_FILE ".prev"

/*
 * Which system the values belong to: a revert point saved for a --sysroot
 * tree must never be written to the live kernel, nor the other way round.
 */
static void target(char *buf, size_t len)
{
	char real[PATH_MAX];

	if (sysfs_is_live())
		snprintf(buf, len, "the live system");
	else
		snprintf(buf, len, "--sysroot %s",
			 realpath(sysfs_root(), real) ? real : sysfs_root());
}

static void save_items(FILE *f, const struct plan *p, bool side_effects)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];

		if (it->action != ACT_WRITE || it->side_effect != side_effects)
			continue;
		if (side_effects)
			fprintf(f, "# a side effect of the change above, restored last:\n");
		fprintf(f, "%s = %s\n", it->ref.name, it->old.text);
	}
}

int state_save_prior(int dirfd, const char *dir, const struct plan *p, const char *what, char *why,
		     size_t whylen)
{
	char stamp[32], system[PATH_MAX + 16];
	struct atomic_file af;
	time_t now = time(NULL);
	int r = atomic_file_beginat(&af, dirfd, STATE_REVERT_FILE, 0600);

	if (r == 0) {
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		target(system, sizeof(system));
		fprintf(af.f, HEADER "\n" WHAT_PREFIX "'%s' at %s\n" FOR_PREFIX "%s\n",
			what ? what : "a change", stamp, system);
		save_items(af.f, p, false);
		/* What the kernel changed on its own comes back last, after what caused it. */
		save_items(af.f, p, true);
		r = atomic_file_commit(&af);
	}
	if (r < 0)
		snprintf(why, whylen, "cannot save the revert point in %s: %s", dir, strerror(-r));
	return r;
}

/* What the kernel held: printable, non-empty, short enough to write back whole. */
static int load_value(const char *origin, const char *name, const char *text, struct plan *out,
		      char *why, size_t whylen)
{
	struct knob_ref ref;
	struct kval v;
	char msg[WHY_MAX];

	if (knob_resolve(name, &ref, msg, sizeof(msg)) < 0) {
		snprintf(why, whylen, "%s: %s", origin, msg);
		return -EBADMSG;
	}
	if (!*text || strlen(text) >= KVAL_MAX) {
		snprintf(why, whylen, "%s: %s: %s", origin, ref.name,
			 *text ? "value too long" : "no value");
		return -EBADMSG;
	}
	knob_parse_live(&ref, text, &v);
	return plan_add(out, &ref, &v, false, origin);
}

/* One line without its newline; only printable ASCII reaches the terminal or a knob. */
static int load_line(char *line, const char *origin, struct plan *out, char *why, size_t whylen)
{
	char *eq;

	for (const char *c = line; *c; c++)
		if (*c < 0x20 || *c == 0x7f) {
			snprintf(why, whylen, "%s: a control character: not a revert file", origin);
			return -EBADMSG;
		}
	if (line[0] == '#' || !*str_strip(line))
		return 0;
	eq = strchr(line, '=');
	if (!eq) {
		snprintf(why, whylen, "%s: expected 'knob = value'", origin);
		return -EBADMSG;
	}
	*eq = '\0';
	return load_value(origin, str_strip(line), str_strip(eq + 1), out, why, whylen);
}

struct header {
	char *what;
	size_t whatlen;
	char system[PATH_MAX + 16];
	bool have_system;
};

static void note_header(struct header *h, const char *line)
{
	if (strncmp(line, WHAT_PREFIX, strlen(WHAT_PREFIX)) == 0)
		snprintf(h->what, h->whatlen, "%s", line + strlen(WHAT_PREFIX));
	else if (strncmp(line, FOR_PREFIX, strlen(FOR_PREFIX)) == 0) {
		snprintf(h->system, sizeof(h->system), "%s", line + strlen(FOR_PREFIX));
		h->have_system = true;
	}
}

static int load_lines(FILE *f, const char *path, struct plan *out, struct header *h, char *why,
		      size_t whylen)
{
	char line[1024], origin[4300];
	unsigned lineno = 0;
	int r = 0;

	while (r == 0 && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		snprintf(origin, sizeof(origin), "%s:%u", path, ++lineno);
		if (len == 0 || line[len - 1] != '\n') {
			snprintf(why, whylen, "%s: %s: not a revert file", origin,
				 len + 1 < sizeof(line) ? "no newline at the end"
							: "line too long");
			return -EBADMSG;
		}
		line[len - 1] = '\0';
		r = load_line(line, origin, out, why, whylen);
		if (r == 0)
			note_header(h, line);
	}
	if (r == 0 && ferror(f)) {
		snprintf(why, whylen, "%s: %s", path, strerror(EIO));
		return -EIO;
	}
	return r;
}

int state_load_prior(int dirfd, const char *dir, struct plan *out, char *what, size_t whatlen,
		     char *why, size_t whylen)
{
	struct header h = { .what = what, .whatlen = whatlen };
	char path[4200], system[sizeof(h.system)];
	struct stat st;
	FILE *f = NULL;
	int fd, r;

	snprintf(path, sizeof(path), "%s/" STATE_REVERT_FILE, dir);
	snprintf(what, whatlen, "an earlier change");
	fd = statedir_open_file(dirfd, dir, STATE_REVERT_FILE, why, whylen);
	if (fd < 0)
		return fd;
	r = fstat(fd, &st) < 0 ? -errno : st.st_size > STATE_REVERT_MAX ? -EFBIG : 0;
	if (r == 0 && !(f = fdopen(fd, "r")))
		r = -errno;
	if (r < 0) {
		snprintf(why, whylen, "%s: %s", path,
			 r == -EFBIG ? "larger than a revert file can be" : strerror(-r));
		close(fd);
		return r;
	}
	r = load_lines(f, path, out, &h, why, whylen);
	fclose(f);
	target(system, sizeof(system));
	if (r == 0 && !h.have_system) {
		snprintf(why, whylen, "%s: does not say which system it is for: not a revert file",
			 path);
		r = -EBADMSG;
	} else if (r == 0 && strcmp(h.system, system) != 0) {
		snprintf(why, whylen, "%s: saved for %s, not for %s", path, h.system, system);
		r = -EXDEV;
	}
	return r < 0 ? r : (int)out->n;
}

int state_clear_prior(int dirfd)
{
	if (unlinkat(dirfd, STATE_REVERT_FILE, 0) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

void state_stash_prior(int dirfd)
{
	unlinkat(dirfd, STASH_FILE, 0);
	/* A link, not a copy: the revert file stays in place until it is replaced. */
	if (linkat(dirfd, STATE_REVERT_FILE, dirfd, STASH_FILE, 0) < 0 && errno != ENOENT)
		unlinkat(dirfd, STASH_FILE, 0);
}

void state_unstash_prior(int dirfd, bool restore)
{
	if (!restore)
		unlinkat(dirfd, STASH_FILE, 0);
	else if (renameat(dirfd, STASH_FILE, dirfd, STATE_REVERT_FILE) < 0 && errno == ENOENT)
		unlinkat(dirfd, STATE_REVERT_FILE, 0); /* nothing was saved before this change */
}
