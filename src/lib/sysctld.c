// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "sysctl-file.h"
#include "sysctld.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

#define PROC_SYS "/proc/sys/"

/*
 * The directories in precedence order (sysctl.d(5), procps sysctl(8)).
 * systemd-sysctl reads all but the last; being last, that one masks nothing
 * the others hold, so one listing serves both readers.
 */
static const char *const dirs[] = {
	"/etc/sysctl.d",     "/run/sysctl.d", "/usr/local/lib/sysctl.d",
	"/usr/lib/sysctl.d", "/lib/sysctl.d", NULL,
};
#define SYSTEM_ONLY_DIR "/lib/sysctl.d/"
#define SYSTEM_ONLY_FILE "/etc/sysctl.conf"

struct conf_list {
	struct sysctld_setting *v; /* only .file is used: the path to read */
	size_t n, cap;
};

static const char *base_name(const char *path)
{
	return strrchr(path, '/') + 1;
}

static bool listed(const struct conf_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(base_name(l->v[i].file), name) == 0)
			return true;
	return false;
}

static int list_add(struct conf_list *l, const char *dir, const char *name)
{
	struct sysctld_setting *s;

	if (array_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
		return -ENOMEM;
	s = &l->v[l->n];
	if ((size_t)snprintf(s->file, sizeof(s->file), "%s/%s", dir, name) >= sizeof(s->file))
		return 0; /* no real sysctl.d name is that long */
	l->n++;
	return 0;
}

static bool is_conf(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".conf") == 0;
}

/* Every *.conf of dirs; a name in an earlier directory masks it in later ones. */
static int list_dirs(struct conf_list *l)
{
	int r = 0;

	for (const char *const *dir = dirs; r == 0 && *dir; dir++) {
		DIR *d = sysfs_opendir(*dir);
		struct dirent *de;

		if (!d)
			continue;
		while (r == 0 && (de = readdir(d)))
			if (is_conf(de->d_name) && !listed(l, de->d_name))
				r = list_add(l, *dir, de->d_name);
		closedir(d);
	}
	return r;
}

static int by_base_name(const void *a, const void *b)
{
	return strcmp(base_name(((const struct sysctld_setting *)a)->file),
		      base_name(((const struct sysctld_setting *)b)->file));
}

/* The key as the path under /proc/sys: the first separator decides. */
static void key_to_path(const char *key, char *buf, size_t len)
{
	const char *sep = strpbrk(key, "./");

	str_copy(buf, key, len);
	if (sep && *sep == '.')
		for (char *p = buf; *p; p++)
			if (*p == '.')
				*p = '/';
}

/* What one reader has assigned so far, one slot per plan item. */
struct reader {
	struct sysctld_setting *set;
	bool *explicit;           /* set[i] came from an explicit key */
	bool explicit_beats_glob; /* systemd-sysctl; procps: the last one wins */
};

struct scan {
	const struct plan *p;
	struct reader boot, system;
	bool system_only; /* the file being read is not systemd-sysctl's */
};

static void assign(struct reader *rd, size_t i, const char *file, const struct sysctl_entry *e,
		   bool is_explicit)
{
	if (!is_explicit && rd->explicit_beats_glob && rd->explicit[i])
		return;
	str_copy(rd->set[i].file, file, sizeof(rd->set[i].file));
	rd->set[i].line = e->line;
	str_copy(rd->set[i].value, e->value, sizeof(rd->set[i].value));
	rd->explicit[i] = is_explicit;
}

static void scan_entry(struct scan *s, const char *file, const struct sysctl_entry *e)
{
	char key[KNOB_PATH_MAX];
	bool glob = strpbrk(e->key, "*?[") != NULL;

	if (e->exclude)
		return;
	key_to_path(e->key, key, sizeof(key));
	for (size_t i = 0; i < s->p->n; i++) {
		const char *path = s->p->items[i].ref.path;

		/* Only sysctls: sysctl.d cannot reach a /sys knob. */
		if (strncmp(path, PROC_SYS, strlen(PROC_SYS)) != 0)
			continue;
		path += strlen(PROC_SYS);
		if (glob ? fnmatch(key, path, FNM_PATHNAME) != 0 : strcmp(key, path) != 0)
			continue;
		if (!s->system_only)
			assign(&s->boot, i, file, e, !glob);
		assign(&s->system, i, file, e, !glob);
	}
}

static void no_report(void *ctx, unsigned line, const char *msg)
{
}

static void scan_file(struct scan *s, const char *file, bool system_only)
{
	struct sysctl_file sf = { 0 };
	int fd = sysfs_open(file, O_RDONLY | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	s->system_only = system_only;
	if (sysctl_file_parse(f, &sf, no_report, NULL) >= 0)
		for (size_t k = 0; k < sf.n; k++)
			scan_entry(s, file, &sf.v[k]);
	sysctl_file_free(&sf);
	fclose(f);
}

/* Every file in the order the readers take them. */
static int scan_all(struct scan *s)
{
	struct conf_list l = { 0 };
	int r = list_dirs(&l);

	if (r == 0) {
		/* qsort's pointer must not be NULL, even for 0 items (no sysctl.d file at all). */
		if (l.n > 1)
			qsort(l.v, l.n, sizeof(*l.v), by_base_name);
		for (size_t i = 0; i < l.n; i++)
			scan_file(s, l.v[i].file,
				  strncmp(l.v[i].file, SYSTEM_ONLY_DIR, strlen(SYSTEM_ONLY_DIR)) ==
					  0);
		scan_file(s, SYSTEM_ONLY_FILE, true);
	}
	free(l.v);
	return r;
}

bool sysctld_kernel_reads(const struct knob_ref *ref, const char *raw, struct kval *out)
{
	char why[WHY_MAX], num[32];
	const char *text = raw;
	long long v;
	char *end;

	if (ref->knob && ref->knob->type != KNOB_ENUM && ref->knob->type != KNOB_STRING) {
		errno = 0;
		v = strtoll(raw, &end, 0);
		while (*end == ' ' || *end == '\t' || *end == '\n')
			end++;
		if (errno || end == raw || *end)
			return false;
		snprintf(num, sizeof(num), "%lld", v);
		text = num;
	}
	return knob_parse(ref, text, out, why, sizeof(why)) == 0;
}

static bool differs(const struct plan_item *it, struct sysctld_setting *set)
{
	if (!set->line)
		return false;
	return sysctld_kernel_reads(&it->ref, set->value, &set->reads) &&
	       strcmp(set->reads.text, it->want.text) != 0;
}

static int add_conflict(struct sysctld_conflicts *out, const struct sysctld_conflict *c)
{
	if (array_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v)) < 0)
		return -ENOMEM;
	out->v[out->n++] = *c;
	return 0;
}

int sysctld_conflicts_find(const struct plan *p, struct sysctld_conflicts *out)
{
	size_t n = p->n ? p->n : 1;
	struct sysctld_setting *set = calloc(2 * n, sizeof(*set));
	bool *explicit = calloc(2 * n, sizeof(*explicit));
	struct scan s = { p, { set, explicit, true }, { set, explicit, false }, false };
	int r = -ENOMEM;

	if (set && explicit) {
		s.system.set += n;
		s.system.explicit += n;
		r = scan_all(&s);
	}

	for (size_t i = 0; r == 0 && i < p->n; i++) {
		struct sysctld_conflict c = { &p->items[i], s.boot.set[i], s.system.set[i] };

		c.boot_differs = differs(c.item, &c.boot);
		c.system_differs = differs(c.item, &c.system);
		if (c.item->action != ACT_SKIPPED && (c.boot_differs || c.system_differs))
			r = add_conflict(out, &c);
	}
	free(set);
	free(explicit);
	return r;
}

void sysctld_conflicts_free(struct sysctld_conflicts *c)
{
	free(c->v);
	*c = (struct sysctld_conflicts){ 0 };
}

#define BOOT_UNIT_LINK "/etc/systemd/system/sysinit.target.wants/numastatctl.service"

bool sysctld_boot_unit_enabled(void)
{
	int fd = sysfs_open(BOOT_UNIT_LINK, O_PATH | O_NOFOLLOW);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

const struct sysctld_conflict *sysctld_conflict_of(const struct sysctld_conflicts *c,
						   const struct plan_item *it)
{
	for (size_t i = 0; c && i < c->n; i++)
		if (c->v[i].item == it)
			return &c->v[i];
	return NULL;
}
