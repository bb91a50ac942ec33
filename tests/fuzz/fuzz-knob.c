// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Knob names and values as a user or a profile types them: "name=value".
 * The name goes through knob_resolve(); the value through knob_parse() for
 * the resolved knob and for every registry knob (so every type's parser sees
 * every input), and the same text through knob_parse_live() as if the kernel
 * had returned it, then through the display and description helpers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise_value(const struct knob_ref *ref, const char *value)
{
	char why[512], buf[512];
	struct kval v, live;

	if (knob_parse(ref, value, &v, why, sizeof(why)) == 0) {
		/* A canonical value must parse again to itself. */
		struct kval again;

		if (knob_parse(ref, v.text, &again, why, sizeof(why)) != 0 ||
		    strcmp(again.text, v.text) != 0)
			abort();
	}
	knob_parse_live(ref, value, &live);
	knob_display(ref, &live, buf, sizeof(buf));
	knob_describe(ref, &live, buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *value;
	char why[512], allowed[200];
	struct knob_ref ref;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	value = strchr(s, '=');
	if (value)
		*value++ = '\0';
	else
		value = s;
	if (knob_resolve(s, &ref, why, sizeof(why)) == 0) {
		/* Whatever resolves must stay where the design allows writes. */
		if (strncmp(ref.path, "/proc/sys/vm/", 13) != 0 &&
		    strncmp(ref.path, "/proc/sys/kernel/numa_", 22) != 0 && !ref.knob)
			abort();
		if (strstr(ref.path, "..") || strstr(ref.path, "//"))
			abort();
		exercise_value(&ref, value);
	}
	for (size_t i = 0; i < knob_count; i++) {
		struct knob_ref r = { .knob = &knob_table[i] };

		strcpy(r.name, knob_table[i].name);
		strcpy(r.path, knob_table[i].path);
		exercise_value(&r, value);
		knob_allowed(&knob_table[i], allowed, sizeof(allowed));
	}
	free(s);
	return 0;
}
