// SPDX-License-Identifier: GPL-2.0-or-later
/* Containers and pods as cgroups, and their names (container-find.h). */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cg-find.h"
#include "container-find.h"
#include "json-tree.h"
#include "sysfs.h"

#define LOG_CONTAINERS "/var/log/containers"
#define LOG_PODS "/var/log/pods"
/* containers/storage keeps its list in <graph root>/<driver>-containers/. */
#define PODMAN_STORAGE "/var/lib/containers/storage"
static const char *const podman_drivers[] = { "overlay", "btrfs", "zfs", "vfs" };
#define DOCKER_DIR "/var/lib/docker/containers"
/*
 * Runtime metadata larger than this is not read.  podman's list holds about
 * 1 kB a container (16,000 in 16 MiB); docker's config.v2.json a few kB
 * with its environment and labels.
 */
#define PODMAN_LIST_MAX (16u << 20)
#define DOCKER_CONFIG_MAX (1u << 20)
/* A tree deeper than this is a loop in a dump, not a machine. */
#define WALK_DEPTH_MAX 32

static bool hex_id(const char *s, size_t len)
{
	if (len != CONTAINER_ID_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool has_suffix(const char *s, size_t len, const char *x)
{
	size_t n = strlen(x);

	return len >= n && memcmp(s + len - n, x, n) == 0;
}

/* A pod UID: 36 characters of hex and '-' ('_' in a systemd name, turned back). */
static bool pod_uid(const char *s, size_t len, char *out)
{
	if (len != 36)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i] == '_' ? '-' : s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-'))
			return false;
		out[i] = c;
	}
	out[len] = '\0';
	return true;
}

static const char *qos_word(const char *s, size_t len)
{
	static const char *const w[] = { "burstable", "besteffort" };

	for (size_t i = 0; i < 2; i++)
		if (strlen(w[i]) == len && memcmp(s, w[i], len) == 0)
			return w[i];
	return NULL;
}

void container_find_cg_name(const char *parent, const char *name, struct container_cg *out)
{
	static const struct {
		const char *prefix, *runtime;
	} scopes[] = {
		{ "cri-containerd-", "containerd" },
		{ "crio-", "cri-o" },
		{ "docker-", "docker" },
		{ "libpod-", "podman" },
	};
	size_t len = strlen(name), base = len;

	*out = (struct container_cg){ 0 };
	if (has_suffix(name, len, ".scope"))
		base = len - 6;
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		size_t pl = strlen(scopes[i].prefix);

		if (has_prefix(name, scopes[i].prefix) && hex_id(name + pl, base - pl)) {
			out->is_container = true;
			out->runtime = scopes[i].runtime;
			memcpy(out->id, name + pl, CONTAINER_ID_LEN);
			return;
		}
	}
	if (hex_id(name, len)) {
		/* cgroupfs: the runtime is not in the name, but docker's parent says it. */
		out->is_container = true;
		out->runtime = strcmp(parent, "docker") == 0 ? "docker" : "";
		memcpy(out->id, name, CONTAINER_ID_LEN);
		return;
	}
	/* systemd driver: kubepods-<qos>.slice, kubepods-[<qos>-]pod<uid>.slice */
	if (has_prefix(name, "kubepods-") && has_suffix(name, len, ".slice")) {
		const char *p = name + 9, *end = name + len - 6;
		const char *q = strchr(p, '-');

		if (q && q < end && qos_word(p, (size_t)(q - p))) {
			out->qos = qos_word(p, (size_t)(q - p));
			p = q + 1;
		} else if (qos_word(p, (size_t)(end - p))) {
			out->qos = qos_word(p, (size_t)(end - p));
			return;
		} else
			out->qos = "guaranteed";
		if (has_prefix(p, "pod") && pod_uid(p + 3, (size_t)(end - p - 3), out->pod_uid))
			out->is_pod = true;
		else
			out->qos = NULL;
		return;
	}
	/* cgroupfs driver: kubepods/[<qos>/]pod<uid> */
	if (has_prefix(name, "pod") && pod_uid(name + 3, len - 3, out->pod_uid)) {
		out->is_pod = true;
		out->qos = strcmp(parent, "kubepods") == 0    ? "guaranteed"
			   : qos_word(parent, strlen(parent)) ? qos_word(parent, strlen(parent))
							      : NULL;
	}
}

/* ---- the cgroup walk ---- */

struct walk {
	const char *root;
	struct container_list *l;
	size_t dirs;
};

static int add(struct walk *w, const char *path, const struct container_cg *c,
	       const struct container_cg *pod)
{
	struct container *x;

	if (array_grow(&w->l->v, &w->l->cap, w->l->n + 1, sizeof(*w->l->v)) < 0)
		return -ENOMEM;
	x = &w->l->v[w->l->n];
	*x = (struct container){ .runtime = c->runtime };
	memcpy(x->id, c->id, sizeof(x->id));
	if (pod && pod->is_pod) {
		memcpy(x->pod_uid, pod->pod_uid, sizeof(x->pod_uid));
		x->qos = pod->qos;
	}
	if (!(x->cgroup = strdup(path)))
		return -ENOMEM;
	w->l->n++;
	return 0;
}

/* Where a directory is, for the container names in it. */
enum {
	PLACE_RUNTIME = 1 << 0, /* in a tree a runtime or the kubelet puts containers in */
	PLACE_USER = 1 << 1,    /* a user's: user.slice, a user manager's tree */
};

/*
 * The place of the directory name, in its parent's place, depth levels
 * down.  The runtimes make their cgroups in the kubelet's kubepods tree
 * (both drivers; kubepods.slice is kubelet-kubepods.slice under a
 * --cgroup-root of its own), machine.slice and system.slice (systemd's
 * driver), /docker, /libpod_parent and /machine (cgroupfs).  A user's tree
 * is the user's to name: a scope called cri-containerd-<id>.scope there is
 * a clone, never that container (rootless containers included).
 */
static unsigned place_of(unsigned parent, const char *name, unsigned depth)
{
	static const char *const tops[] = { "machine.slice", "system.slice", "docker",
					    "libpod_parent", "machine" };
	size_t len = strlen(name);

	if (strcmp(name, "user.slice") == 0 ||
	    (has_prefix(name, "user@") && has_suffix(name, len, ".service")))
		return parent | PLACE_USER;
	for (size_t i = 0; depth == 0 && i < sizeof(tops) / sizeof(tops[0]); i++)
		if (strcmp(name, tops[i]) == 0)
			return parent | PLACE_RUNTIME;
	if (strcmp(name, "kubepods") == 0 || strcmp(name, "kubepods.slice") == 0 ||
	    has_suffix(name, len, "-kubepods.slice"))
		return parent | PLACE_RUNTIME;
	return parent;
}

/*
 * Is the cgroup sub, named like a container, where its runtime put it: in
 * a runtime's place, a systemd scope in a slice (not inside a delegated
 * service), made by root (a directory another user owns was delegated to
 * that user, who names what is in it)?
 */
static bool runtime_made(const struct walk *w, const char *sub, const char *parent,
			 const char *name, unsigned place)
{
	char dir[CG_PATH_MAX + CG_ROOT_MAX + 2];

	if (!(place & PLACE_RUNTIME) || (place & PLACE_USER) ||
	    (has_suffix(name, strlen(name), ".scope") &&
	     !has_suffix(parent, strlen(parent), ".slice")))
		return false;
	snprintf(dir, sizeof(dir), "%s%s", w->root, sub);
	return sysfs_root_owned(dir) == 1;
}

/* path: the cgroup ("/" the root), name its last part, place where it is. */
static int walk_dir(struct walk *w, const char *path, const char *parent,
		    const struct container_cg *pod, unsigned place, unsigned depth)
{
	char dir[CG_PATH_MAX + CG_ROOT_MAX + 2];
	struct dirent *d;
	DIR *dp;
	int r = 0;

	if (depth > WALK_DEPTH_MAX || ++w->dirs > 1000000)
		return 0;
	snprintf(dir, sizeof(dir), "%s%s", w->root, strcmp(path, "/") == 0 ? "" : path);
	if (!(dp = sysfs_opendir(dir)))
		return depth ? 0 : -errno; /* gone since its parent was read */
	while (r == 0 && (d = readdir(dp))) {
		char sub[CG_PATH_MAX + 1];
		struct container_cg c;
		unsigned in;
		int len;

		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		len = snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") == 0 ? "" : path,
			       d->d_name);
		if (len < 0 || (size_t)len >= sizeof(sub))
			continue;
		container_find_cg_name(parent, d->d_name, &c);
		in = place_of(place, d->d_name, depth);
		if (c.is_container && runtime_made(w, sub, parent, d->d_name, place))
			r = add(w, sub, &c, pod); /* its own children are part of it */
		else
			r = walk_dir(w, sub, d->d_name, c.is_pod && !(in & PLACE_USER) ? &c : pod,
				     in, depth + 1);
	}
	closedir(dp);
	return r;
}

/* ---- the names ---- */

static bool dns_label(const char *s, size_t len, size_t max, bool dots)
{
	if (!len || len > max)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

		if (alnum)
			continue;
		if ((c == '-' || (dots && c == '.')) && i && i + 1 < len &&
		    (!dots || (s[i - 1] != '.' && s[i + 1] != '.')))
			continue;
		return false;
	}
	return true;
}

/*
 * docker's and podman's rule for a container's name (both refuse any
 * other at create): [a-zA-Z0-9][a-zA-Z0-9_.-]*.  A name of another form in
 * their files was not written by them, and could hold bytes meant for a
 * terminal (U+202E reverses the line, U+200B hides in it).
 */
bool container_find_runtime_name(const char *s, size_t len)
{
	if (!len || len > CONTAINER_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		bool alnum =
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		if (!alnum && (!i || (c != '_' && c != '.' && c != '-')))
			return false;
	}
	return true;
}

bool container_find_log_name(const char *file, struct container_log_name *out)
{
	size_t len = strlen(file);
	const char *u1, *u2, *dash;

	if (!has_suffix(file, len, ".log") || len < 4 + CONTAINER_ID_LEN + 6)
		return false;
	len -= 4;
	dash = file + len - CONTAINER_ID_LEN - 1;
	if (*dash != '-' || !hex_id(dash + 1, CONTAINER_ID_LEN))
		return false;
	u1 = memchr(file, '_', (size_t)(dash - file));
	u2 = u1 ? memchr(u1 + 1, '_', (size_t)(dash - u1 - 1)) : NULL;
	if (!u2 || !dns_label(file, (size_t)(u1 - file), 253, true) ||
	    !dns_label(u1 + 1, (size_t)(u2 - u1 - 1), 63, false) ||
	    !dns_label(u2 + 1, (size_t)(dash - u2 - 1), 63, false))
		return false;
	snprintf(out->pod, sizeof(out->pod), "%.*s", (int)(u1 - file), file);
	snprintf(out->ns, sizeof(out->ns), "%.*s", (int)(u2 - u1 - 1), u1 + 1);
	snprintf(out->name, sizeof(out->name), "%.*s", (int)(dash - u2 - 1), u2 + 1);
	memcpy(out->id, dash + 1, CONTAINER_ID_LEN);
	out->id[CONTAINER_ID_LEN] = '\0';
	return true;
}

bool container_find_pod_dir(const char *dir, char *ns, char *pod, size_t podlen, char *uid,
			    size_t uidlen)
{
	const char *u1 = strchr(dir, '_'), *u2 = u1 ? strchr(u1 + 1, '_') : NULL;
	char id[40];

	if (!u2 || !dns_label(dir, (size_t)(u1 - dir), 63, false) ||
	    !dns_label(u1 + 1, (size_t)(u2 - u1 - 1), 253, true) || strchr(u2 + 1, '_') ||
	    !pod_uid(u2 + 1, strlen(u2 + 1), id) || podlen < 254 || uidlen < 37)
		return false;
	snprintf(ns, 64, "%.*s", (int)(u1 - dir), dir);
	snprintf(pod, podlen, "%.*s", (int)(u2 - u1 - 1), u1 + 1);
	snprintf(uid, uidlen, "%s", id);
	return true;
}

static int cmp_id(const void *a, const void *b)
{
	const struct container *x = a, *y = b;

	return strcmp(x->id, y->id);
}

static struct container *by_id(struct container_list *l, const char *id)
{
	struct container key = { 0 };

	memcpy(key.id, id, sizeof(key.id));
	return bsearch(&key, l->v, l->n, sizeof(*l->v), cmp_id);
}

static int set(char **dst, const char *s)
{
	if (*dst)
		return 0;
	*dst = strdup(s);
	return *dst ? 0 : -ENOMEM;
}

/* /var/log/containers: each entry's name (a symlink's: never followed). */
static int names_from_log_containers(struct container_list *l)
{
	DIR *dp = sysfs_opendir(LOG_CONTAINERS);
	struct dirent *d;
	int r = 0;

	if (!dp)
		return 0;
	while (r == 0 && (d = readdir(dp))) {
		struct container_log_name n;
		struct container *c;

		if (d->d_name[0] == '.')
			continue;
		if (!container_find_log_name(d->d_name, &n)) {
			l->ignored++;
			continue;
		}
		if (!(c = by_id(l, n.id)))
			continue;
		if (c->pod_clash) {
			l->ignored++;
			continue;
		}
		/*
		 * Anyone who can write here can name any id: a name whose pod the
		 * pod's own directory in /var/log/pods (found by the UID of the
		 * container's cgroup) contradicts is not the kubelet's.
		 */
		if ((c->pod && strcmp(c->pod, n.pod) != 0) || (c->ns && strcmp(c->ns, n.ns) != 0)) {
			l->ignored++;
			continue;
		}
		if ((r = set(&c->name, n.name)) == 0 && (r = set(&c->pod, n.pod)) == 0)
			r = set(&c->ns, n.ns);
	}
	closedir(dp);
	return r;
}

static int cmp_uid(const void *a, const void *b)
{
	const struct container *const *x = a, *const *y = b;

	return strcmp((*x)->pod_uid, (*y)->pod_uid);
}

/*
 * A second directory for the UID whose pod another one named: the kubelet
 * makes one per pod, so one of the two is not its, and which is not known.
 * Neither names the pod (readdir's order would pick one); the caller says so.
 */
static bool pod_clash(struct container *c, const char *ns, const char *pod)
{
	if (!c->pod || (strcmp(c->pod, pod) == 0 && strcmp(c->ns, ns) == 0))
		return false;
	free(c->pod);
	free(c->ns);
	free(c->name);
	c->pod = c->ns = c->name = NULL;
	c->pod_clash = true;
	return true;
}

/* /var/log/pods/<ns>_<pod>_<uid>/<container>/: a pod's name, and a lone container's. */
static int names_from_log_pods(struct container_list *l)
{
	struct container **by_uid;
	DIR *dp = sysfs_opendir(LOG_PODS);
	struct dirent *d;
	int r = 0;

	if (!dp)
		return 0;
	if (!(by_uid = malloc((l->n ? l->n : 1) * sizeof(*by_uid)))) {
		closedir(dp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->n; i++)
		by_uid[i] = &l->v[i];
	qsort(by_uid, l->n, sizeof(*by_uid), cmp_uid);
	while (r == 0 && (d = readdir(dp))) {
		char ns[64], pod[254], uid[40], sub[512], only[256] = "";
		struct container key, *kp = &key, **hit;
		size_t subdirs = 0, first, end;
		struct dirent *e;
		DIR *cp;

		if (d->d_name[0] == '.' ||
		    !container_find_pod_dir(d->d_name, ns, pod, sizeof(pod), uid, sizeof(uid)))
			continue;
		memcpy(key.pod_uid, uid, sizeof(key.pod_uid));
		hit = bsearch(&kp, by_uid, l->n, sizeof(*by_uid), cmp_uid);
		if (!hit)
			continue;
		for (first = (size_t)(hit - by_uid); first && !cmp_uid(&by_uid[first - 1], &kp);)
			first--;
		for (end = (size_t)(hit - by_uid) + 1; end < l->n && !cmp_uid(&by_uid[end], &kp);)
			end++;
		snprintf(sub, sizeof(sub), LOG_PODS "/%s", d->d_name);
		if (end - first == 1 && (cp = sysfs_opendir(sub))) {
			while ((e = readdir(cp)))
				if (e->d_name[0] != '.' && e->d_type == DT_DIR &&
				    dns_label(e->d_name, strlen(e->d_name), 63, false) &&
				    !subdirs++)
					snprintf(only, sizeof(only), "%s", e->d_name);
			closedir(cp);
		}
		for (size_t i = first; r == 0 && i < end; i++) {
			struct container *c = by_uid[i];

			if (c->pod_clash || pod_clash(c, ns, pod))
				continue;
			if ((r = set(&c->pod, pod)) == 0)
				r = set(&c->ns, ns);
			if (r == 0 && subdirs == 1)
				r = set(&c->name, only);
		}
	}
	free(by_uid);
	closedir(dp);
	return r;
}

/* podman's containers.json: [{"id": ..., "names": [...]}, ...]. */
int container_find_podman_names(struct container_list *l, const char *buf, size_t len)
{
	struct json_node root;
	char why[256];
	int r = json_tree_parse(buf, len, &root, why, sizeof(why));

	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; r == 0 && root.type == JSON_ARRAY && i < root.n; i++) {
		const struct json_node *id = json_tree_get(&root.v[i], "id");
		const struct json_node *names = json_tree_get(&root.v[i], "names");
		struct container *c;

		if (!id || id->type != JSON_STRING || !hex_id(id->s, id->len) || !names ||
		    names->type != JSON_ARRAY || !names->n || names->v[0].type != JSON_STRING ||
		    !(c = by_id(l, id->s)) || c->name)
			continue;
		if (!container_find_runtime_name(names->v[0].s, names->v[0].len)) {
			l->ignored++;
			continue;
		}
		r = set(&c->name, names->v[0].s);
	}
	json_tree_free(&root);
	return r;
}

static int names_from_podman_list(struct container_list *l, const char *path)
{
	char *buf;
	ssize_t n = sysfs_read_alloc(path, PODMAN_LIST_MAX, &buf);
	int r = n < 0 ? (n == -ENOMEM ? -ENOMEM : 0)
		      : container_find_podman_names(l, buf, (size_t)n);

	free(buf);
	return r;
}

/* Every storage driver's list: the driver is a host's choice (storage.conf). */
static int names_from_podman(struct container_list *l)
{
	char path[128];
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(podman_drivers) / sizeof(*podman_drivers); i++) {
		snprintf(path, sizeof(path), PODMAN_STORAGE "/%s-containers/containers.json",
			 podman_drivers[i]);
		r = names_from_podman_list(l, path);
	}
	return r;
}

int container_find_docker_name(const char *buf, size_t len, char **name)
{
	const struct json_node *n;
	struct json_node root;
	char why[256];
	int r = json_tree_parse(buf, len, &root, why, sizeof(why));

	*name = NULL;
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	n = json_tree_get(&root, "Name");
	if (n && n->type == JSON_STRING && n->len > 1 && n->s[0] == '/' &&
	    container_find_runtime_name(n->s + 1, n->len - 1))
		r = (*name = strdup(n->s + 1)) ? 1 : -ENOMEM;
	else if (n)
		r = -EINVAL;
	json_tree_free(&root);
	return r;
}

/* docker: /var/lib/docker/containers/<id>/config.v2.json's "Name" ("/web"). */
static int names_from_docker(struct container_list *l)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < l->n; i++) {
		struct container *c = &l->v[i];
		char path[256], *buf;
		ssize_t n;

		if (c->name || strcmp(c->runtime, "docker") != 0)
			continue;
		snprintf(path, sizeof(path), DOCKER_DIR "/%s/config.v2.json", c->id);
		n = sysfs_read_alloc(path, DOCKER_CONFIG_MAX, &buf);
		if (n == -ENOMEM)
			r = -ENOMEM;
		else if (n >= 0)
			r = container_find_docker_name(buf, (size_t)n, &c->name);
		l->ignored += r == -EINVAL;
		r = r == -ENOMEM ? r : 0;
		free(buf);
	}
	return r;
}

/* The shortest text of path for a message: whole up to 1,000 bytes, else marked as cut. */
static int shown_len(const char *path, const char **more)
{
	size_t n = strlen(path);

	*more = n > 1000 ? "..." : "";
	return n > 1000 ? 1000 : (int)n;
}

/*
 * An id is one container: two cgroups of one id are a copy made to pass
 * for it (or a dump of two machines), and either one would take the
 * other's name, pod and series.  l sorted by id.
 */
static int one_cgroup_per_id(const struct container_list *l, char *why, size_t whylen)
{
	for (size_t i = 1; i < l->n; i++) {
		const char *a = l->v[i - 1].cgroup, *b = l->v[i].cgroup, *ma, *mb;
		int na, nb;

		if (strcmp(l->v[i - 1].id, l->v[i].id) != 0)
			continue;
		na = shown_len(a, &ma);
		nb = shown_len(b, &mb);
		snprintf(why, whylen, "container id %s is in two cgroups: %.*s%s and %.*s%s",
			 l->v[i].id, na, a, ma, nb, b, mb);
		return -EEXIST;
	}
	return 0;
}

int container_find_scan(const char *root, struct container_list *l, char *why, size_t whylen)
{
	struct walk w = { .root = root, .l = l };
	int r = walk_dir(&w, "/", "", NULL, 0, 0);

	if (r < 0 && r != -ENOMEM) {
		snprintf(why, whylen, "%s: %s", root, strerror(-r));
		return r;
	}
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_id);
	if (r == 0 && (r = one_cgroup_per_id(l, why, whylen)) < 0)
		return r;
	/* The pods' directories first: they check the names of the links. */
	if (r == 0)
		r = names_from_log_pods(l);
	if (r == 0)
		r = names_from_log_containers(l);
	if (r == 0)
		r = names_from_podman(l);
	if (r == 0)
		r = names_from_docker(l);
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	return r;
}

static int mark(struct container *c, bool pattern)
{
	if (!c->picked)
		c->by_pattern = pattern;
	else if (!pattern)
		c->by_pattern = false;
	c->picked = true;
	return 1;
}

int container_find_pick(struct container_list *l, const char *arg, bool pod, char *why,
			size_t whylen)
{
	bool pattern = cg_is_pattern(arg);
	const char *slash = strchr(arg, '/');
	size_t hits = 0, len = strlen(arg);
	struct container *prefix = NULL;
	char ns[256], name[256];

	if (pod) {
		if (!slash || slash == arg || !slash[1] || strchr(slash + 1, '/')) {
			snprintf(why, whylen, "expected NAMESPACE/NAME (each may be a pattern)");
			return -EINVAL;
		}
		snprintf(ns, sizeof(ns), "%.*s", (int)(slash - arg), arg);
		snprintf(name, sizeof(name), "%s", slash + 1);
		for (size_t i = 0; i < l->n; i++) {
			struct container *c = &l->v[i];

			if (c->pod && c->ns && fnmatch(ns, c->ns, 0) == 0 &&
			    fnmatch(name, c->pod, 0) == 0)
				hits += (size_t)mark(c, pattern);
		}
		if (!hits && !pattern)
			snprintf(why, whylen,
				 "no such pod here (names come from " LOG_CONTAINERS
				 " and " LOG_PODS ")");
		return hits || pattern ? (int)hits : -ENOENT;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct container *c = &l->v[i];

		if (c->name &&
		    (pattern ? fnmatch(arg, c->name, 0) == 0 : strcmp(arg, c->name) == 0))
			hits += (size_t)mark(c, pattern);
	}
	if (hits || pattern)
		return (int)hits;
	for (size_t i = 0; len && len <= CONTAINER_ID_LEN && i < l->n; i++)
		if (strncmp(l->v[i].id, arg, len) == 0) {
			if (prefix) {
				snprintf(
					why, whylen,
					"an id prefix of more than one container: give more of the "
					"id");
				return -EEXIST;
			}
			prefix = &l->v[i];
		}
	if (prefix)
		return mark(prefix, false);
	snprintf(why, whylen, "no container of that name or id here");
	return -ENOENT;
}

void container_find_free(struct container_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].cgroup);
		free(l->v[i].name);
		free(l->v[i].pod);
		free(l->v[i].ns);
	}
	free(l->v);
	*l = (struct container_list){ 0 };
}
