// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Topology Manager's settings from the kubelet's configuration file
 * (kubelet-config.h).  Not a YAML parser: the two keys are read where
 * kubeadm and the documentation put them, and a file written otherwise
 * (JSON, anchors) reads as not setting them, which the advice says.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kubelet-config.h"
#include "sysfs.h"

/* A YAML scalar into out: its quotes taken off, a trailing comment and spaces dropped. */
static void scalar(const char *s, size_t len, char *out, size_t size)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	if (len && (*s == '"' || *s == '\'')) {
		const char *end = memchr(s + 1, *s, len - 1);

		len = end ? (size_t)(end - s - 1) : len - 1;
		s++;
	} else {
		for (size_t i = 0; i < len; i++)
			if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
				len = i;
				break;
			}
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
			len--;
	}
	snprintf(out, size, "%.*s", (int)len, s);
}

static void add_option(struct kubelet_config *c, const char *s, size_t len, unsigned line)
{
	const char *colon = memchr(s, ':', len);
	struct kubelet_option *o;

	if (!colon || c->n_opt == KUBELET_OPTIONS_MAX)
		return;
	o = &c->opt[c->n_opt];
	scalar(s, (size_t)(colon - s), o->name, sizeof(o->name));
	scalar(colon + 1, len - (size_t)(colon - s) - 1, o->value, sizeof(o->value));
	o->line = line;
	if (o->name[0])
		c->n_opt++;
}

/* {a: "b", c: d} on the key's own line. */
static void flow_options(struct kubelet_config *c, const char *s, size_t len, unsigned line)
{
	const char *end = memchr(s, '}', len), *p = s + 1;

	if (!end)
		return;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;

		add_option(c, p, (size_t)(stop - p), line);
		p = stop + 1;
	}
}

/* "key:" at the start of a line (not indented), the rest after it in *rest. */
static bool top_key(const char *line, size_t len, const char *key, const char **rest)
{
	size_t k = strlen(key);

	if (len <= k || strncmp(line, key, k) != 0 || line[k] != ':')
		return false;
	*rest = line + k + 1;
	return true;
}

static void one_line(struct kubelet_config *c, const char *s, size_t len, unsigned line,
		     bool *in_options)
{
	const char *rest, *v;
	bool indented = len && (s[0] == ' ' || s[0] == '\t');
	size_t vl;

	if (*in_options && indented) {
		for (v = s; v < s + len && (*v == ' ' || *v == '\t'); v++)
			;
		if (v < s + len && *v != '#')
			add_option(c, v, len - (size_t)(v - s), line);
		return;
	}
	if (len && !indented && s[0] != '#')
		*in_options = false;
	if (top_key(s, len, "topologyManagerPolicy", &rest)) {
		scalar(rest, len - (size_t)(rest - s), c->policy, sizeof(c->policy));
		c->policy_line = line;
	} else if (top_key(s, len, "topologyManagerPolicyOptions", &rest)) {
		c->options_seen = true;
		c->options_line = line;
		for (v = rest, vl = len - (size_t)(rest - s); vl && (*v == ' ' || *v == '\t'); v++)
			vl--;
		c->options_flow = vl && *v == '{';
		if (c->options_flow)
			flow_options(c, v, vl, line);
		else
			*in_options = true;
	}
}

int kubelet_config_parse(struct kubelet_config *c, const char *buf, size_t len)
{
	bool in_options = false;
	unsigned line = 1;

	*c = (struct kubelet_config){ .present = true };
	if (memchr(buf, '\0', len)) {
		snprintf(c->why, sizeof(c->why), KUBELET_CONFIG ": a NUL byte: not a YAML file");
		return -EBADMSG;
	}
	for (const char *p = buf, *end = buf + len; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		one_line(c, p, l, line, &in_options);
		p += l + 1;
	}
	return 0;
}

int kubelet_config_read(struct kubelet_config *c)
{
	char *buf = NULL;
	ssize_t n = sysfs_read_alloc(KUBELET_CONFIG, KUBELET_CONFIG_MAX, &buf);
	int r;

	if (n < 0) {
		*c = (struct kubelet_config){ .present = n != -ENOENT };
		snprintf(c->why, sizeof(c->why), KUBELET_CONFIG ": %s",
			 n == -EFBIG ? "larger than 1 MiB" : sysfs_strerror((int)n));
		return (int)n;
	}
	r = kubelet_config_parse(c, buf, (size_t)n);
	free(buf);
	return r;
}

const struct kubelet_option *kubelet_config_option(const struct kubelet_config *c, const char *name)
{
	for (size_t i = 0; i < c->n_opt; i++)
		if (strcmp(c->opt[i].name, name) == 0)
			return &c->opt[i];
	return NULL;
}

const char *kubelet_config_policy(const struct kubelet_config *c)
{
	return c->policy[0] ? c->policy : "none";
}
