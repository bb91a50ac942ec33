// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A trial file as a damaged disk, a hand edit, another version or a
 * hostile value might leave it, read by set, apply, status, trial,
 * confirm and the armed revert.  The buffer is exactly size bytes, so ASan
 * catches any read past the file.  What is taken must be what a trial file
 * can hold: an id, a known state and way of arming, knob strings that end
 * within their fields, readings that name known nodes; a refusal says why
 * in one line (set and apply refuse the change on it: it must be said).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trial.h"
#include "why.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[WHY_MAX] = "";
	struct trial t;
	int r;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	r = trial_parse(buf, size, "trial", &t, why, sizeof(why));
	if (r == 0) {
		if (!t.point.id[0] || t.state > TRIAL_REVERTED ||
		    (t.armed != TRIAL_TIMER && t.armed != TRIAL_FOREGROUND) ||
		    (t.n_knobs && !t.knobs))
			abort();
		for (size_t i = 0; i < t.n_knobs; i++)
			if (!memchr(t.knobs[i].name, '\0', sizeof(t.knobs[i].name)) ||
			    !memchr(t.knobs[i].before, '\0', sizeof(t.knobs[i].before)) ||
			    !memchr(t.knobs[i].written, '\0', sizeof(t.knobs[i].written)))
				abort();
		(void)trial_deadline_ns(&t);
		trial_free(&t);
	} else if (r != -ENOMEM &&
		   (!why[0] || !memchr(why, '\0', sizeof(why)) || strchr(why, '\n'))) {
		abort(); /* a refusal says why, in one line */
	}
	free(buf);
	return 0;
}
