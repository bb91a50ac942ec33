// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runtimes' metadata as placement --container reads it: the first
 * byte picks podman's containers.json (odd) or docker's config.v2.json
 * (even), the rest is its content, against two containers.  A name taken
 * is one docker or podman would take, on a container that had none.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "container-find.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two containers sorted by id, as container_find_scan() leaves them. */
static void two(struct container_list *l, struct container *v)
{
	memset(v, 0, 2 * sizeof(*v));
	memset(v[0].id, 'a', CONTAINER_ID_LEN);
	memset(v[1].id, 'b', CONTAINER_ID_LEN);
	v[0].runtime = v[1].runtime = "podman";
	*l = (struct container_list){ .v = v, .n = 2, .cap = 2 };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool podman = size && (data[0] & 1);
	size_t len = size ? size - 1 : 0;
	char *buf = malloc(len ? len : 1), *name = NULL;
	struct container v[2];
	struct container_list l;
	int r;

	if (!buf)
		abort();
	memcpy(buf, data + (size ? 1 : 0), len);
	two(&l, v);
	if (podman) {
		r = container_find_podman_names(&l, buf, len);
		for (size_t i = 0; r == 0 && i < l.n; i++) {
			if (v[i].name && !container_find_runtime_name(v[i].name, strlen(v[i].name)))
				abort();
			free(v[i].name);
		}
	} else {
		r = container_find_docker_name(buf, len, &name);
		if ((r == 1) != (name != NULL) ||
		    (name && !container_find_runtime_name(name, strlen(name))))
			abort();
		free(name);
	}
	free(buf);
	return 0;
}
