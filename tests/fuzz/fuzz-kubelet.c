// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kubelet's checkpoints as placement --pod reads them: the first byte
 * picks the CPU Manager's (odd) or the Memory Manager's (even) file, the
 * rest is its content.  A file that is used has its assignments sorted and
 * found again by pod and container; one that is not says why.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kubelet-state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kubelet_state st = { 0 };
	bool cpu = size && (data[0] & 1);
	size_t len = size ? size - 1 : 0;
	char *buf = malloc(len ? len : 1);
	const struct kubelet_file *f = cpu ? &st.cpu : &st.mem;
	int r;

	if (!buf)
		abort();
	memcpy(buf, data + (size ? 1 : 0), len);
	r = kubelet_state_parse(&st, cpu, buf, len);
	if (r < 0 && r != -ENOMEM && !f->why[0])
		abort();
	for (size_t i = 0; r == 0 && i < st.n; i++) {
		const struct kubelet_assign *a = &st.v[i];

		if ((a->pod_uid ? kubelet_state_find(&st, a->pod_uid, a->container, NULL)
				: kubelet_state_find(&st, NULL, NULL, a->container)) == NULL)
			abort();
		for (size_t k = 1; k < a->n_mem_nodes; k++)
			if (a->mem_nodes[k] <= a->mem_nodes[k - 1])
				abort();
	}
	kubelet_state_free(&st);
	free(buf);
	return 0;
}
