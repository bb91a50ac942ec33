/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Containers and Kubernetes pods as cgroups, from what is on disk, with no
 * runtime API: the cgroup v2 directories the runtimes make (containerd,
 * CRI-O, docker, podman; the kubelet's systemd and cgroupfs drivers, its
 * QoS classes, a pod UID's '-' written '_' in systemd slice names), and the
 * names the kubelet leaves in /var/log/containers and /var/log/pods, podman
 * in its containers.json and docker in each container's config.v2.json.
 * A /var/log/containers entry is a symlink: only its name is read, never
 * its target.  HACKING-containers.md has the formats.  Nothing prints.
 * Implemented by container-find.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define CONTAINER_ID_LEN 64

struct container {
	char id[CONTAINER_ID_LEN + 1]; /* as in the cgroup's name, lower-case hex */
	char *cgroup;                  /* the path under the hierarchy */
	const char *runtime;           /* "containerd", "cri-o", "docker", "podman" or "" */
	const char *qos;               /* "guaranteed", "burstable", "besteffort", NULL */
	char pod_uid[40];              /* "" outside a pod */
	char *name, *pod, *ns;         /* NULL when nothing on disk names them */
	bool pod_clash;                /* two /var/log/pods directories for its pod UID */
	bool picked;                   /* matched by an argument */
	bool by_pattern;               /* matched only by a pattern */
};

struct container_list {
	struct container *v;
	size_t n, cap;
	size_t ignored; /* names that are not the kubelet's or the runtime's */
};

/* What a cgroup directory name says (parent: the name of its parent, for cgroupfs). */
struct container_cg {
	bool is_container;
	char id[CONTAINER_ID_LEN + 1];
	const char *runtime;
	bool is_pod;
	char pod_uid[40];
	const char *qos; /* of a pod, or of a QoS level ("burstable") */
};

/* One directory name, with its parent's and the QoS the walk is in. */
void container_find_cg_name(const char *parent, const char *name, struct container_cg *out);

/* The longest docker or podman name taken (neither sets one; a DNS name's 253 and more). */
#define CONTAINER_NAME_MAX 255
/* A docker or podman container's name: [a-zA-Z0-9][a-zA-Z0-9_.-]*, at most CONTAINER_NAME_MAX. */
bool container_find_runtime_name(const char *s, size_t len);
/* /var/log/containers/<pod>_<namespace>_<container>-<id>.log, split and checked. */
struct container_log_name {
	char pod[254], ns[64], name[64], id[CONTAINER_ID_LEN + 1];
};
bool container_find_log_name(const char *file, struct container_log_name *out);
/* /var/log/pods/<namespace>_<pod>_<uid>. */
bool container_find_pod_dir(const char *dir, char *ns, char *pod, size_t podlen, char *uid,
			    size_t uidlen);

/*
 * Every container cgroup under root (the hierarchy), then the names.
 * 0, -ENOMEM, or -errno of the hierarchy itself with why.
 */
int container_find_scan(const char *root, struct container_list *l, char *why, size_t whylen);
/*
 * The names in podman's containers.json (a JSON array of objects with
 * "id" and "names") onto the containers of l (sorted by id) that have
 * none, the first of each one's names, if podman would take it.  Text that
 * is not JSON names nothing.  0 or -ENOMEM.
 */
int container_find_podman_names(struct container_list *l, const char *buf, size_t len);
/*
 * The name in docker's config.v2.json ("Name": "/web") into *name
 * (malloc'ed): 1, 0 when it has none (or is not JSON), -EINVAL for a name
 * docker would refuse, -ENOMEM.
 */
int container_find_docker_name(const char *buf, size_t len, char **name);
/*
 * Mark what arg names: a container's name, its id or an id prefix, or a
 * pattern of names (pod false), or a pod, "NAMESPACE/NAME" (each part may
 * be a pattern; pod true).  Returns how many, 0 for a pattern that matched
 * none, -ENOENT (no such container or pod), -EEXIST (an id prefix of two
 * containers), -EINVAL (a pod without its namespace) with why.
 */
int container_find_pick(struct container_list *l, const char *arg, bool pod, char *why,
			size_t whylen);
void container_find_free(struct container_list *l);
