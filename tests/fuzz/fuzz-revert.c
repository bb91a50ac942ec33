// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A revert file as a damaged disk, a hand edit, an older version or a
 * hostile value might leave it, read by `revert`.  The buffer is exactly
 * size bytes, so ASan catches any read past the file.  What is taken must
 * be what a revert file can hold: names that resolve, values shorter than
 * KVAL_MAX with no NUL, a header of a known version; a refusal says why in
 * one line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "why.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[WHY_MAX] = "";
	struct plan p = { 0 };
	struct state_point h;
	int n;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	n = state_parse_prior(buf, size, "revert", &p, &h, why, sizeof(why));
	if (n >= 0) {
		if ((size_t)n != p.n || (h.version != 1 && h.version != STATE_FORMAT) ||
		    (h.version == STATE_FORMAT && !h.id[0]) || (!h.live && !h.sysroot[0]))
			abort();
		for (size_t i = 0; i < p.n; i++)
			if (!memchr(p.items[i].want.text, '\0', KVAL_MAX) || !p.items[i].optional ||
			    (h.version == STATE_FORMAT) != p.items[i].have_written)
				abort();
	} else if (n != -ENOMEM &&
		   (!why[0] || !memchr(why, '\0', sizeof(why)) || strchr(why, '\n'))) {
		abort(); /* a refusal says why, in one line */
	}
	plan_free(&p);
	free(buf);
	return 0;
}
