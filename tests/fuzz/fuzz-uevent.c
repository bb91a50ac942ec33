// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One NETLINK_KOBJECT_UEVENT datagram, as anyone on the host could send it
 * to a listener (the port check happens before parsing, but the parser must
 * stand on its own).  The buffer is exactly size bytes: no NUL to lean on.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uevent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct uevent ev;
	int r;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	r = uevent_parse(buf, size, &ev);
	if (r == 0) {
		if (ev.kind > UEVENT_MEMORY_OFFLINE || !uevent_kind_name(ev.kind))
			abort();
	} else if (r != -ENOMSG && r != -EBADMSG) {
		abort(); /* the documented results only */
	}
	free(buf);
	return 0;
}
