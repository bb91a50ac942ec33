/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small JSON reader into a tree, for files other programs write (the
 * kubelet's checkpoints, container runtimes' metadata).  Strings are decoded
 * (escapes, \u surrogate pairs) to UTF-8 as Go's encoding/json decodes them:
 * a byte that is not valid UTF-8 becomes U+FFFD.  Numbers are kept as their
 * text.  Bounded: JSON_TREE_DEPTH_MAX levels.  Nothing prints.
 * Implemented by json-tree.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define JSON_TREE_DEPTH_MAX 32

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_node {
	enum json_type type;
	bool b;
	char *s;             /* a string (decoded, NUL-terminated) or a number's text */
	size_t len;          /* of s */
	char **keys;         /* JSON_OBJECT: the members' names, decoded */
	struct json_node *v; /* the members or elements */
	size_t n;
};

/* buf (len bytes) into *out.  0, -EBADMSG with why ("offset 12: ..."), -ENOMEM. */
int json_tree_parse(const char *buf, size_t len, struct json_node *out, char *why, size_t whylen);
void json_tree_free(struct json_node *n);
/*
 * A member of an object as Go's decoder fills a struct field: the last
 * member whose name matches, ignoring ASCII case (each later one
 * overwrites).  NULL when none (or n is not an object).
 */
const struct json_node *json_tree_get(const struct json_node *n, const char *key);
