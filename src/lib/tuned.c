// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tuned 2.20's configuration, as its profile loader, merger, variables and
 * sysctl plugin read it (tuned/profiles/ and tuned/plugins/plugin_sysctl.py
 * of Debian 12's package), reduced to what decides a /proc/sys value.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "sysctl-file.h"
#include "sysfs.h"
#include "tuned.h"
#include "value.h"

#define ETC_DIR "/etc/tuned"
#define LIB_DIR "/usr/lib/tuned"
#define UNIT_LINK "/etc/systemd/system/multi-user.target.wants/tuned.service"
#define PID_FILE "/run/tuned/tuned.pid"
/* tuned.conf files are a few hundred bytes; cpuinfo grows with the CPUs. */
#define CONF_MAX 65536
#define CPUINFO_MAX (4 << 20)
#define MAX_DEPTH 16
/* Debian's tuned ships 40 profiles; a dump naming thousands is not read whole. */
#define MAX_FILES 256

struct topt {
	char *key, *value;
	unsigned line;
	size_t file; /* index into loader.files */
};

struct tunit {
	char *name, *type, *uname_re, *cpuinfo_re;
	bool enabled, replace;
	struct topt *o;
	size_t n, cap;
};

struct tsection {
	char *name;
	struct topt *o;
	size_t n, cap;
};

struct loader {
	char **files; /* every tuned.conf loaded, as logical paths */
	char **names; /* the profile each file is, parallel to files */
	size_t nfiles, capfiles, capnames;
	struct tunit *u; /* the merged units, in tuned's order */
	size_t nu, capu;
	struct topt *vars; /* variables: key, expanded value ("${" left: unknown) */
	size_t nvars, capvars;
	char *problem;
	size_t problem_len;
	bool oom;
};

/* The first thing tuned fails on, or numastatctl cannot tell (st->problem). */
static void say(struct loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct loader *L, const char *fmt, ...)
{
	va_list ap;

	if (L->problem[0])
		return;
	va_start(ap, fmt);
	vsnprintf(L->problem, L->problem_len, fmt, ap);
	va_end(ap);
}

static char *dup_n(struct loader *L, const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		L->oom = true;
	return d;
}

/*
 * A whole file of the (sys)root, NUL-terminated; NULL when it cannot be
 * read or holds more than max bytes (never a part taken for the whole).
 */
static char *slurp_file(const char *path, size_t max)
{
	int fd = sysfs_open(path, O_RDONLY);
	size_t len = 0;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return NULL;
	buf = malloc(max + 2);
	while (buf && len <= max && (n = read(fd, buf + len, max + 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (buf && len > max) {
		free(buf);
		return NULL;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

static bool exists(const char *path, int flags)
{
	int fd = sysfs_open(path, flags);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (e > s && strchr(" \t\r", e[-1]))
		*--e = '\0';
	return s;
}

static int opt_set(struct loader *L, struct topt **o, size_t *n, size_t *cap, const char *key,
		   const char *value, unsigned line, size_t file)
{
	char *k, *v;

	/* strict=False: a key again in its section replaces the value, in place. */
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*o)[i].key, key) == 0) {
			if (!(v = dup_n(L, value, strlen(value))))
				return -ENOMEM;
			free((*o)[i].value);
			(*o)[i].value = v;
			(*o)[i].line = line;
			(*o)[i].file = file;
			return (int)i;
		}
	if (array_grow(o, cap, *n + 1, sizeof(**o)) < 0)
		return L->oom = true, -ENOMEM;
	k = dup_n(L, key, strlen(key));
	v = dup_n(L, value, strlen(value));
	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	(*o)[*n] = (struct topt){ k, v, line, file };
	return (int)(*n)++;
}

static void opts_free(struct topt *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].key);
		free(o[i].value);
	}
	free(o);
}

static void sections_free(struct tsection *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].name);
		opts_free(s[i].o, s[i].n);
	}
	free(s);
}

/* "${i:PROFILE_DIR}" is the directory of the file, expanded as the file is read. */
static char *profile_dir(struct loader *L, const char *value, const char *dir)
{
	static const char token[] = "${i:PROFILE_DIR}";
	const char *at = strstr(value, token);
	char *out;

	if (!at)
		return dup_n(L, value, strlen(value));
	if (asprintf(&out, "%.*s%s%s", (int)(at - value), value, dir, at + sizeof(token) - 1) < 0)
		return L->oom = true, NULL;
	return out;
}

/*
 * Python's ConfigParser as tuned sets it up: '=' only, '#' and ';' comment
 * lines, '#' after whitespace ends a value, indented lines continue it, a
 * section or key seen again merges.  -EINVAL (with the problem said) where
 * ConfigParser raises: tuned then loads no profile at all.
 */
static int parse_conf(struct loader *L, size_t file, char *text, const char *dir,
		      struct tsection **secs, size_t *nsecs)
{
	size_t cap = 0, cur = (size_t)-1, indent, cont_indent = 0, blanks = 0;
	struct topt *cont = NULL;
	unsigned line = 0;
	char *next, *s, *eq, *v;

	*secs = NULL;
	*nsecs = 0;
	for (char *p = text; p && *p; p = next) {
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		line++;
		indent = strspn(p, " \t");
		s = trim(p);
		/* A blank line stays in a value that a continuation line goes on with. */
		if (!*s) {
			blanks++;
			continue;
		}
		if (*s == '#' || *s == ';')
			continue;
		for (char *c = s + 1; *c; c++)
			if (*c == '#' && (c[-1] == ' ' || c[-1] == '\t')) {
				*c = '\0';
				s = trim(s);
				break;
			}
		if (cont && indent > cont_indent) {
			char *joined;

			if (asprintf(&joined, "%s%.*s\n%s", cont->value, (int)blanks,
				     "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", s) < 0)
				return L->oom = true, -ENOMEM;
			free(cont->value);
			cont->value = joined;
			blanks = 0;
			continue;
		}
		cont = NULL;
		blanks = 0;
		if (*s == '[' && strrchr(s, ']') && strrchr(s, ']') > s + 1) {
			char *name = dup_n(L, s + 1, (size_t)(strrchr(s, ']') - s - 1));

			if (!name)
				return -ENOMEM;
			for (cur = 0; cur < *nsecs && strcmp((*secs)[cur].name, name) != 0; cur++)
				;
			if (cur < *nsecs) {
				free(name);
				continue;
			}
			if (array_grow(secs, &cap, *nsecs + 1, sizeof(**secs)) < 0) {
				free(name);
				return L->oom = true, -ENOMEM;
			}
			(*secs)[(*nsecs)++] = (struct tsection){ .name = name };
			continue;
		}
		if (cur == (size_t)-1 || !(eq = strchr(s, '=')) || eq == s) {
			say(L, "%s:%s: tuned cannot parse it, so it loads no profile",
			    L->files[file],
			    cur == (size_t)-1 ? "a key before the first section"
					      : "a line without '='");
			return -EINVAL;
		}
		*eq = '\0';
		if (!(v = profile_dir(L, trim(eq + 1), dir)))
			return -ENOMEM;
		if (opt_set(L, &(*secs)[cur].o, &(*secs)[cur].n, &(*secs)[cur].cap, trim(s), v,
			    line, file) < 0) {
			free(v);
			return -ENOMEM;
		}
		free(v);
		for (size_t i = 0; i < (*secs)[cur].n; i++)
			if (strcmp((*secs)[cur].o[i].key, trim(s)) == 0)
				cont = &(*secs)[cur].o[i];
		cont_indent = indent;
	}
	return 0;
}

/* True for "True", "true", "1": what tuned's Unit takes for enabled= and replace=. */
static bool unit_true(const char *v)
{
	return !strcmp(v, "True") || !strcmp(v, "true") || !strcmp(v, "1");
}

static const struct topt *find_opt(const struct tsection *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->o[i].key, key))
			return &s->o[i];
	return NULL;
}

static bool unit_field(const char *key)
{
	static const char *const popped[] = { "type",          "enabled",     "replace",
					      "drop",          "devices",     "devices_udev_regex",
					      "cpuinfo_regex", "uname_regex", "script_pre",
					      "script_post",   NULL };

	for (const char *const *p = popped; *p; p++)
		if (!strcmp(key, *p))
			return true;
	return false;
}

static char *dup_opt(struct loader *L, const struct topt *o)
{
	return o ? dup_n(L, o->value, strlen(o->value)) : NULL;
}

static void unit_free(struct tunit *u)
{
	free(u->name);
	free(u->type);
	free(u->uname_re);
	free(u->cpuinfo_re);
	opts_free(u->o, u->n);
	*u = (struct tunit){ 0 };
}

/* Whether name is in drop=, a list split at ',' or ';'. */
static bool dropped(const char *drop, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = drop; p && *p; p += strcspn(p, ",;"), p += *p != '\0') {
		p += strspn(p, " \t");
		if (!strncmp(p, name, len) && strchr(",; \t", p[len]))
			return true;
	}
	return false;
}

/* Merge one section of a newer profile into the units, as tuned's Merger does. */
static int merge_section(struct loader *L, const struct tsection *s)
{
	const struct topt *type = find_opt(s, "type"), *en = find_opt(s, "enabled"),
			  *rep = find_opt(s, "replace"), *drop = find_opt(s, "drop");
	struct tunit *u = NULL;
	size_t i;

	for (i = 0; i < L->nu; i++)
		if (!strcmp(L->u[i].name, s->name))
			u = &L->u[i];
	if (!u || (rep && unit_true(rep->value))) {
		if (!u) {
			if (array_grow(&L->u, &L->capu, L->nu + 1, sizeof(*L->u)) < 0)
				return L->oom = true, -ENOMEM;
			u = &L->u[L->nu++];
			*u = (struct tunit){ 0 };
		} else
			unit_free(u);
		u->name = dup_n(L, s->name, strlen(s->name));
	}
	free(u->type);
	u->type = type ? dup_opt(L, type) : dup_n(L, s->name, strlen(s->name));
	u->enabled = en ? unit_true(en->value) : true;
	if (find_opt(s, "uname_regex")) {
		free(u->uname_re);
		u->uname_re = dup_opt(L, find_opt(s, "uname_regex"));
	}
	if (find_opt(s, "cpuinfo_regex")) {
		free(u->cpuinfo_re);
		u->cpuinfo_re = dup_opt(L, find_opt(s, "cpuinfo_regex"));
	}
	for (i = 0; drop && i < u->n;)
		if (dropped(drop->value, u->o[i].key)) {
			free(u->o[i].key);
			free(u->o[i].value);
			memmove(&u->o[i], &u->o[i + 1], (u->n - i - 1) * sizeof(*u->o));
			u->n--;
		} else
			i++;
	for (i = 0; i < s->n; i++)
		if (!unit_field(s->o[i].key) &&
		    opt_set(L, &u->o, &u->n, &u->cap, s->o[i].key, s->o[i].value, s->o[i].line,
			    s->o[i].file) < 0)
			return -ENOMEM;
	return L->oom ? -ENOMEM : 0;
}

static int load_names(struct loader *L, const char *names, const char *seps, unsigned depth);

/*
 * The tuned.conf of name, /etc/tuned first, never a file already loaded
 * (so /etc/tuned/x including x gets /usr/lib/tuned/x): 1 found, 0 none,
 * -1 only files already loaded (tuned passes over the name quietly).
 */
static int locate(struct loader *L, const char *name, char *path, size_t len)
{
	static const char *const dirs[] = { ETC_DIR, LIB_DIR };
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	int ret = 0;

	for (size_t d = 0; d < 2; d++) {
		bool loaded = false;

		snprintf(path, len, "%s/%s/tuned.conf", dirs[d], base);
		for (size_t i = 0; i < L->nfiles; i++)
			loaded |= !strcmp(L->files[i], path);
		if (loaded)
			ret = -1;
		else if (exists(path, O_RDONLY))
			return 1;
	}
	path[0] = '\0';
	return ret;
}

static int load_one(struct loader *L, const char *name, unsigned depth)
{
	char path[512], *text;
	struct tsection *secs = NULL;
	size_t nsecs = 0, file;
	const struct topt *inc = NULL;
	bool conditional = name[0] == '-';
	int r;

	if (conditional)
		name++;
	r = locate(L, name, path, sizeof(path));
	if (r < 0 || (r == 0 && (conditional || !*name)))
		return 0;
	if (r == 0) {
		say(L, "tuned cannot find its profile '%s', so it loads none", name);
		return -ENOENT;
	}
	if (L->nfiles == MAX_FILES) {
		say(L, "more than %d tuned profiles to load: numastatctl reads no more", MAX_FILES);
		return -ELOOP;
	}
	if (array_grow(&L->files, &L->capfiles, L->nfiles + 1, sizeof(*L->files)) < 0 ||
	    array_grow(&L->names, &L->capnames, L->nfiles + 1, sizeof(*L->names)) < 0)
		return L->oom = true, -ENOMEM;
	file = L->nfiles;
	L->files[file] = dup_n(L, path, strlen(path));
	L->names[file] = dup_n(L, name, strlen(name));
	if (!L->files[file] || !L->names[file]) {
		free(L->files[file]);
		free(L->names[file]);
		return -ENOMEM;
	}
	L->nfiles++;
	if (!(text = slurp_file(path, CONF_MAX))) {
		say(L, "%s: cannot be read, so tuned loads no profile", path);
		return -EIO;
	}
	*strrchr(path, '/') = '\0';
	r = parse_conf(L, file, text, path, &secs, &nsecs);
	free(text);
	for (size_t i = 0; r == 0 && i < nsecs; i++)
		if (!strcmp(secs[i].name, "main"))
			inc = find_opt(&secs[i], "include");
	/* The includes first, then the profile: the later one wins. */
	if (r == 0 && inc && strstr(inc->value, "${"))
		say(L, "%s: include=%s uses a tuned function numastatctl does not evaluate",
		    L->files[file], inc->value);
	else if (r == 0 && inc)
		r = load_names(L, inc->value, ",;", depth + 1);
	for (size_t i = 0; r == 0 && i < nsecs; i++)
		if (strcmp(secs[i].name, "main") != 0)
			r = merge_section(L, &secs[i]);
	sections_free(secs, nsecs);
	return r;
}

static int load_names(struct loader *L, const char *names, const char *seps, unsigned depth)
{
	char *copy, *save = NULL;
	int r = 0;

	if (depth > MAX_DEPTH) {
		say(L, "tuned's includes nest deeper than %d", MAX_DEPTH);
		return -ELOOP;
	}
	if (!(copy = dup_n(L, names, strlen(names))))
		return -ENOMEM;
	for (char *n = strtok_r(copy, seps, &save); n && r == 0; n = strtok_r(NULL, seps, &save))
		if (*trim(n))
			r = load_one(L, trim(n), depth);
	free(copy);
	return r;
}

/*
 * value with the variables expanded ("${name}"; "\${" stays "${"; an
 * undefined one stays as written, as with tuned); false when a function
 * (${f:...}) is used, which only tuned can evaluate.
 */
static bool expand(const struct loader *L, const char *value, char *out, size_t len)
{
	size_t n = 0;
	bool known = true;

	for (const char *p = value; *p && n + 1 < len;) {
		const struct topt *v = NULL;
		const char *end;

		if (p[0] == '\\' && p[1] == '$' && p[2] == '{') {
			out[n++] = '$';
			p += 2;
			continue;
		}
		if (p[0] != '$' || p[1] != '{' || !(end = strchr(p, '}'))) {
			out[n++] = *p++;
			continue;
		}
		for (size_t i = 0; i < L->nvars; i++)
			if (strlen(L->vars[i].key) == (size_t)(end - p - 2) &&
			    !strncmp(L->vars[i].key, p + 2, (size_t)(end - p - 2)))
				v = &L->vars[i];
		/* tuned evaluates a function; it leaves an undefined variable as written. */
		if ((!v && !strncmp(p + 2, "f:", 2)) || (v && strstr(v->value, "${")))
			known = false;
		/* What cannot be expanded stays as written, for the message. */
		n += (size_t)snprintf(out + n, len - n, "%.*s",
				      v ? (int)strlen(v->value) : (int)(end + 1 - p),
				      v ? v->value : p);
		p = end + 1;
	}
	out[n < len ? n : len - 1] = '\0';
	return known && n + 1 < len;
}

static int add_var(struct loader *L, const char *key, const char *value)
{
	char buf[1024];

	/* tuned: names of word characters only; the value expanded as defined. */
	if (!*key || key[strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_")])
		return 0;
	if (!expand(L, value, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "${%s}", key); /* stays unknown */
	return opt_set(L, &L->vars, &L->nvars, &L->capvars, key, buf, 0, 0) < 0 ? -ENOMEM : 0;
}

/* The [variables] unit, then taken out of the units, as tuned's loader does. */
static int variables(struct loader *L)
{
	for (size_t i = 0; i < L->nu; i++) {
		struct tunit *u = &L->u[i];

		if (strcmp(u->name, "variables") != 0)
			continue;
		for (size_t k = 0; k < u->n; k++) {
			struct tsection *secs = NULL;
			size_t nsecs = 0;
			char *text, *with;

			if (strcmp(u->o[k].key, "include") != 0) {
				if (add_var(L, u->o[k].key, u->o[k].value) < 0)
					return -ENOMEM;
				continue;
			}
			/* A file of variables, read as a section of its own. */
			if (!(text = slurp_file(u->o[k].value, CONF_MAX)))
				continue;
			if (asprintf(&with, "[variables]\n%s", text) < 0)
				with = NULL;
			free(text);
			if (!with)
				return L->oom = true, -ENOMEM;
			if (parse_conf(L, u->o[k].file, with, "", &secs, &nsecs) == 0)
				for (size_t s = 0; s < nsecs; s++)
					for (size_t j = 0; j < secs[s].n; j++)
						if (add_var(L, secs[s].o[j].key,
							    secs[s].o[j].value))
							L->oom = true;
			sections_free(secs, nsecs);
			free(with);
		}
		unit_free(u);
		memmove(u, u + 1, (L->nu - i - 1) * sizeof(*u));
		L->nu--;
		break;
	}
	return L->oom ? -ENOMEM : 0;
}

/* A line of a file of the root without its newline ("" when missing). */
static void read_line(const char *path, char *buf, size_t len)
{
	if (sysfs_read_file(path, buf, len) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Python's " ".join(os.uname()), from /proc/sys/kernel; "" when a part is missing. */
static void uname_string(char *buf, size_t len)
{
	static const char *const parts[] = { "ostype", "hostname", "osrelease", "version", "arch" };
	char part[256], path[64];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", parts[i]);
		read_line(path, part, sizeof(part));
		if (!part[0]) {
			buf[0] = '\0';
			return;
		}
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? " " : "", part);
	}
}

enum cond { COND_NO, COND_YES, COND_UNKNOWN };

/* re.search(regex, text, re.MULTILINE), as far as POSIX extended expressions go. */
static enum cond matches(const struct loader *L, const char *regex, const char *text)
{
	char buf[1024];
	regex_t re;
	int r;

	if (!regex)
		return COND_YES;
	if (!text || !expand(L, regex, buf, sizeof(buf)) ||
	    regcomp(&re, buf, REG_EXTENDED | REG_NEWLINE | REG_NOSUB) != 0)
		return COND_UNKNOWN;
	r = regexec(&re, text, 0, NULL, 0);
	regfree(&re);
	return r == 0 ? COND_YES : COND_NO;
}

/* The item of p a [sysctl] key names: tuned writes /proc/sys/<key, '.' -> '/'>. */
static size_t item_of(const struct plan *p, const char *key)
{
	char path[KNOB_PATH_MAX];

	snprintf(path, sizeof(path), "/proc/sys/%s", key);
	for (char *c = path; *c; c++)
		if (*c == '.')
			*c = '/';
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->items[i].ref.path, path))
			return i;
	return (size_t)-1;
}

struct found {
	struct sysctld_setting set, reapplied;
	char profile[64];
	bool unknown; /* a variable or function numastatctl cannot expand */
};

/* tuned's "key = value" in the unit: set f for the plan's items. */
static void unit_settings(const struct loader *L, const struct tunit *u, const struct plan *p,
			  struct found *f)
{
	for (size_t k = 0; k < u->n; k++) {
		size_t i = item_of(p, u->o[k].key);
		struct found *x;
		char buf[KVAL_MAX];
		const char *v = u->o[k].value;
		size_t len = strlen(v);

		if (i == (size_t)-1)
			continue;
		x = &f[i];
		/* commands.unquote(): one pair of double quotes around the value. */
		snprintf(buf, sizeof(buf), "%.*s",
			 len > 1 && v[0] == '"' && v[len - 1] == '"' ? (int)len - 2 : (int)len,
			 len > 1 && v[0] == '"' && v[len - 1] == '"' ? v + 1 : v);
		snprintf(x->set.file, sizeof(x->set.file), "%s", L->files[u->o[k].file]);
		x->set.line = u->o[k].line;
		x->unknown = !expand(L, buf, x->set.value, sizeof(x->set.value));
		snprintf(x->profile, sizeof(x->profile), "%s", L->names[u->o[k].file]);
	}
}

static void no_report(void *ctx, unsigned line, const char *msg)
{
}

/* One sysctl.d file as tuned's _apply_sysctl_config_file() writes it. */
static void reapply_file(const char *path, const struct plan *p, struct found *f)
{
	struct sysctl_file sf = { 0 };
	int fd = sysfs_open(path, O_RDONLY);
	FILE *in = fd >= 0 ? fdopen(fd, "re") : NULL;

	if (!in) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* "key = value" written as it is: no '-' prefix, no glob, '.' -> '/'. */
	if (sysctl_file_parse(in, &sf, no_report, NULL) >= 0)
		for (size_t e = 0; e < sf.n; e++) {
			const struct sysctl_entry *x = &sf.v[e];
			size_t i = x->exclude || x->ignore_failure || strpbrk(x->key, "*?[")
					   ? (size_t)-1
					   : item_of(p, x->key);

			if (i == (size_t)-1)
				continue;
			snprintf(f[i].reapplied.file, sizeof(f[i].reapplied.file), "%s", path);
			f[i].reapplied.line = x->line;
			snprintf(f[i].reapplied.value, sizeof(f[i].reapplied.value), "%s",
				 x->value);
		}
	sysctl_file_free(&sf);
	fclose(in);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(strrchr(*(char *const *)a, '/'), strrchr(*(char *const *)b, '/'));
}

/* reapply_sysctl: /run/sysctl.d over /etc/sysctl.d by name, in name order, then sysctl.conf. */
static int reapply(const struct plan *p, struct found *f)
{
	static const char *const dirs[] = { "/run/sysctl.d", "/etc/sysctl.d" };
	char **paths = NULL, *path;
	size_t n = 0, cap = 0;
	int r = 0;

	for (size_t d = 0; d < 2 && r == 0; d++) {
		DIR *dir = sysfs_opendir(dirs[d]);
		struct dirent *e;

		while (dir && r == 0 && (e = readdir(dir))) {
			size_t len = strlen(e->d_name);
			bool seen = false;

			if (len < 5 || strcmp(e->d_name + len - 5, ".conf") != 0)
				continue;
			for (size_t i = 0; i < n; i++)
				seen |= !strcmp(strrchr(paths[i], '/') + 1, e->d_name);
			if (seen)
				continue;
			if (array_grow(&paths, &cap, n + 1, sizeof(*paths)) < 0 ||
			    asprintf(&path, "%s/%s", dirs[d], e->d_name) < 0)
				r = -ENOMEM;
			else
				paths[n++] = path;
		}
		if (dir)
			closedir(dir);
	}
	if (n > 1)
		qsort(paths, n, sizeof(*paths), cmp_names);
	for (size_t i = 0; i < n; i++) {
		if (r == 0)
			reapply_file(paths[i], p, f);
		free(paths[i]);
	}
	free(paths);
	if (r == 0)
		reapply_file("/etc/sysctl.conf", p, f);
	return r;
}

/* What tuned leaves in item it: reapplied sysctl.d over the profile's value. */
static bool tuned_leaves(const struct plan_item *it, struct found *x, struct kval *out)
{
	const char *v = x->set.value;
	int64_t want;
	long long n;
	char *end;

	if (x->reapplied.line && sysctld_kernel_reads(&it->ref, x->reapplied.value, out))
		return true;
	if (!x->set.line)
		return false;
	/* ">N" raises only, "<N" lowers only what tuned finds: the profile's value at boot. */
	if ((v[0] == '>' || v[0] == '<') && v[1]) {
		errno = 0;
		n = strtoll(v + 1, &end, 10);
		if (!errno && !*end && parse_i64(it->want.text, INT64_MIN, INT64_MAX, &want) == 0) {
			if (v[0] == '>' ? n <= want : n >= want)
				return false;
			v++;
		}
	}
	return sysctld_kernel_reads(&it->ref, v, out);
}

static void loader_free(struct loader *L)
{
	for (size_t i = 0; i < L->nfiles; i++) {
		free(L->files[i]);
		free(L->names[i]);
	}
	free(L->files);
	free(L->names);
	for (size_t i = 0; i < L->nu; i++)
		unit_free(&L->u[i]);
	free(L->u);
	opts_free(L->vars, L->nvars);
}

static int add_conflict(struct tuned_conflicts *out, const struct tuned_conflict *c)
{
	if (array_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v)) < 0)
		return -ENOMEM;
	out->v[out->n++] = *c;
	return 0;
}

/* The settings of the loaded units that apply on this machine, then reapply_sysctl. */
static int settings(struct tuned_state *st, struct loader *L, const struct plan *p, struct found *f)
{
	char uname[1024];
	char *cpuinfo = NULL;
	bool any = false;
	int r = 0;

	uname_string(uname, sizeof(uname));
	for (size_t i = 0; i < L->nu; i++) {
		const struct tunit *u = &L->u[i];
		enum cond c, cu;

		if (strcmp(u->type, "sysctl") != 0 || !u->enabled)
			continue;
		if (u->cpuinfo_re && !cpuinfo)
			cpuinfo = slurp_file("/proc/cpuinfo", CPUINFO_MAX);
		c = matches(L, u->cpuinfo_re, cpuinfo);
		cu = matches(L, u->uname_re, uname[0] ? uname : NULL);
		if (c == COND_NO || cu == COND_NO)
			continue;
		if (cu == COND_UNKNOWN)
			c = COND_UNKNOWN;
		if (c == COND_UNKNOWN)
			say(L,
			    "tuned's [%s] applies only where its regular expressions match, "
			    "which numastatctl could not check: counted as applying",
			    u->name);
		unit_settings(L, u, p, f);
		any = true;
	}
	free(cpuinfo);
	/* Each [sysctl] instance applied writes sysctl.d again after its own keys. */
	if (any && st->reapply_sysctl)
		r = reapply(p, f);
	return r;
}

int tuned_conflicts_find(struct tuned_state *st, const struct plan *p, struct tuned_conflicts *out)
{
	struct loader L = { .problem = st->problem, .problem_len = sizeof(st->problem) };
	struct found *f;
	int r;

	if (!tuned_active(st))
		return 0;
	if (!(f = calloc(p->n ? p->n : 1, sizeof(*f))))
		return -ENOMEM;
	r = load_names(&L, st->profile, " \t\n", 0);
	if (r == 0)
		r = variables(&L);
	if (r == 0)
		r = settings(st, &L, p, f);
	for (size_t i = 0; r == 0 && i < p->n; i++) {
		const struct plan_item *it = &p->items[i];
		struct tuned_conflict c = { .item = it,
					    .set = f[i].set,
					    .reapplied = f[i].reapplied };

		if (it->action == ACT_SKIPPED || (!f[i].set.line && !f[i].reapplied.line))
			continue;
		snprintf(c.set_profile, sizeof(c.set_profile), "%s", f[i].profile);
		c.after_known = !f[i].unknown || f[i].reapplied.line;
		if (c.after_known &&
		    (!tuned_leaves(it, &f[i], &c.after) || !strcmp(c.after.text, it->want.text)))
			continue;
		r = add_conflict(out, &c);
	}
	/* A profile tuned cannot load: it applies nothing, so nothing conflicts. */
	if (r == -ENOENT || r == -EINVAL || r == -EIO || r == -ELOOP)
		r = 0;
	if (L.oom)
		r = -ENOMEM;
	loader_free(&L);
	free(f);
	return r;
}

void tuned_conflicts_free(struct tuned_conflicts *c)
{
	free(c->v);
	*c = (struct tuned_conflicts){ 0 };
}

const struct tuned_conflict *tuned_conflict_of(const struct tuned_conflicts *c,
					       const struct plan_item *it)
{
	for (size_t i = 0; c && i < c->n; i++)
		if (c->v[i].item == it)
			return &c->v[i];
	return NULL;
}

void tuned_mark_sysctld(const struct tuned_conflicts *t, struct sysctld_conflicts *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct tuned_conflict *k = tuned_conflict_of(t, s->v[i].item);

		s->v[i].tuned_later = false;
		if (k && k->after_known) {
			s->v[i].tuned_later = true;
			s->v[i].tuned_value = k->after;
		}
	}
}

bool tuned_active(const struct tuned_state *st)
{
	return st->installed && (st->enabled || st->running) && st->profile[0];
}

/* tuned-main.conf's reapply_sysctl, as ConfigParser's getboolean reads it. */
static bool main_conf_reapply(void)
{
	char *text = slurp_file(ETC_DIR "/tuned-main.conf", CONF_MAX), *save = NULL;
	bool on = true;

	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *s = trim(l), *eq = strchr(s, '=');

		if (*s == '#' || *s == ';' || !eq)
			continue;
		*eq = '\0';
		if (strcmp(trim(s), "reapply_sysctl") != 0)
			continue;
		s = trim(eq + 1);
		s[strcspn(s, " \t#")] = '\0';
		on = !(str_word_eq(s, "0") || str_word_eq(s, "no") || str_word_eq(s, "false") ||
		       str_word_eq(s, "off"));
	}
	free(text);
	return on;
}

int tuned_read(struct tuned_state *st)
{
	char names[sizeof(st->profile)], *save = NULL;
	size_t n = 0;

	*st = (struct tuned_state){ .reapply_sysctl = true };
	st->installed =
		exists(LIB_DIR, O_PATH | O_DIRECTORY) || exists(ETC_DIR, O_PATH | O_DIRECTORY);
	if (!st->installed)
		return 0;
	st->enabled = exists(UNIT_LINK, O_PATH | O_NOFOLLOW);
	st->running = exists(PID_FILE, O_PATH);
	st->reapply_sysctl = main_conf_reapply();
	read_line(ETC_DIR "/active_profile", names, sizeof(names));
	/* Names tuned's loader takes: [a-zA-Z0-9_.-]+, the others it drops. */
	for (char *w = strtok_r(names, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (!w[strspn(w,
			      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")])
			n += (size_t)snprintf(st->profile + n, sizeof(st->profile) - n, "%s%s",
					      n ? " " : "", w);
	return 0;
}
