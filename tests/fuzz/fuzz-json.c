// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON reader the runtimes' metadata and the kubelet's checkpoints go
 * through (exactly size bytes): a parsed tree's strings are as long as
 * they say and valid UTF-8 (Go's decoding: U+FFFD for what is not), a
 * member is found by its own name, a refusal says why and leaves nothing
 * behind (ASan's leak check).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json-tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct json_node *n, unsigned depth)
{
	if (depth > JSON_TREE_DEPTH_MAX + 1)
		abort();
	if ((n->type == JSON_STRING || n->type == JSON_NUMBER) && (!n->s || n->s[n->len]))
		abort();
	for (size_t i = 0; i < n->n; i++) {
		if (n->type == JSON_OBJECT && (!n->keys[i] || !json_tree_get(n, n->keys[i])))
			abort();
		check(&n->v[i], depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[256] = "";
	struct json_node root;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (json_tree_parse(buf, size, &root, why, sizeof(why)) == 0) {
		check(&root, 0);
		json_tree_free(&root);
	} else if (!why[0] || root.n || root.v || root.keys || root.s)
		abort();
	free(buf);
	return 0;
}
