/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kubelet's configuration file (a KubeletConfiguration, YAML) as far as
 * its Topology Manager goes: topologyManagerPolicy and the options of
 * topologyManagerPolicyOptions, each with its line.  Read as kubeadm writes
 * it: top-level "key: value" lines, the options a block mapping below their
 * key or a flow mapping on its line ({a: "b", c: "d"}); quotes and
 * comments as YAML has them.  Anything else is passed over.  Implemented by
 * kubelet-config.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "why.h"

/* Where kubeadm, and most installers after it, put the kubelet's --config. */
#define KUBELET_CONFIG "/var/lib/kubelet/config.yaml"
/* The file is a few kB; larger is not a kubelet configuration. */
#define KUBELET_CONFIG_MAX (1u << 20)

#define KUBELET_OPTIONS_MAX 8
/* The options line written whole: each of them, its name and value quoted. */
#define KUBELET_LINE_MAX (48 + KUBELET_OPTIONS_MAX * (64 + 64 + 6))

struct kubelet_option {
	char name[64], value[64];
	unsigned line;
};

struct kubelet_config {
	bool present;    /* the file exists (a kubelet host) */
	char policy[32]; /* topologyManagerPolicy, "" when unset: the kubelet's "none" */
	unsigned policy_line;
	bool options_seen; /* topologyManagerPolicyOptions is in the file */
	bool options_flow; /* as a flow mapping on its own line: {a: "b"} */
	unsigned options_line;
	struct kubelet_option opt[KUBELET_OPTIONS_MAX];
	size_t n_opt;
	char why[WHY_MAX]; /* why it could not be read, "" when it was */
};

/* The text of a configuration file into c (present set).  0 or -EBADMSG (NUL bytes) with c->why. */
int kubelet_config_parse(struct kubelet_config *c, const char *buf, size_t len);
/* KUBELET_CONFIG through sysfs (inside --sysroot): 0, or -errno with c->why (-ENOENT: no kubelet). */
int kubelet_config_read(struct kubelet_config *c);
/* The option's value, or NULL when the file does not set it. */
const struct kubelet_option *kubelet_config_option(const struct kubelet_config *c,
						   const char *name);
/* The policy as the kubelet takes it: "none" when unset. */
const char *kubelet_config_policy(const struct kubelet_config *c);
