// SPDX-License-Identifier: GPL-2.0-or-later
/* uevent_parse() on kernel datagrams built byte for byte, good and bad. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "uevent.h"

/* sizeof(literal) - 1: the literal's own terminating NUL is not sent. */
#define MSG(s) s, sizeof(s) - 1

static int parse(const char *buf, size_t len, struct uevent *ev)
{
	/* A heap copy of exactly len bytes lets ASan catch any over-read. */
	char *copy = malloc(len ? len : 1);
	int r;

	memcpy(copy, buf, len);
	r = uevent_parse(copy, len, ev);
	free(copy);
	return r;
}

static void good(void)
{
	struct uevent ev;

	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM=node\0SEQNUM=4711\0"),
		    &ev) == 0 &&
		      ev.kind == UEVENT_NODE_ADD && ev.id == 3,
	      "node add");
	CHECK(parse(MSG("remove@/devices/system/node/node1023\0ACTION=remove\0"
			"DEVPATH=/devices/system/node/node1023\0SUBSYSTEM=node\0SEQNUM=1\0"),
		    &ev) == 0 &&
		      ev.kind == UEVENT_NODE_REMOVE && ev.id == 1023,
	      "node remove with a large id");
	CHECK(parse(MSG("online@/devices/system/memory/memory32\0ACTION=online\0"
			"DEVPATH=/devices/system/memory/memory32\0SUBSYSTEM=memory\0SEQNUM=9\0"),
		    &ev) == 0 &&
		      ev.kind == UEVENT_MEMORY_ONLINE && ev.id == 32,
	      "memory online");
	CHECK(parse(MSG("offline@/devices/system/memory/memory0\0ACTION=offline\0"
			"DEVPATH=/devices/system/memory/memory0\0SUBSYSTEM=memory\0SEQNUM=9\0"),
		    &ev) == 0 &&
		      ev.kind == UEVENT_MEMORY_OFFLINE && ev.id == 0,
	      "memory offline");
	CHECK(parse(MSG("add@/devices/system/memory/memory7\0ACTION=add\0"
			"DEVPATH=/devices/system/memory/memory7\0SUBSYSTEM=memory\0SEQNUM=2\0"),
		    &ev) == 0 &&
		      ev.kind == UEVENT_MEMORY_ADD,
	      "memory add");
	CHECK(parse(MSG("remove@/devices/system/memory/memory7\0ACTION=remove\0"
			"DEVPATH=/devices/system/memory/memory7\0SUBSYSTEM=memory\0SEQNUM=3\0"),
		    &ev) == 0 &&
		      ev.kind == UEVENT_MEMORY_REMOVE,
	      "memory remove");
	CHECK(parse(MSG("add@/devices/system/node/node0\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node0\0SUBSYSTEM=node\0SYNTH_UUID=0\0SEQNUM=5\0"),
		    &ev) == 0 &&
		      ev.kind == UEVENT_NODE_ADD && ev.id == 0,
	      "extra keys (synthetic event) are fine");
}

static void ignored(void)
{
	struct uevent ev;

	CHECK(parse(MSG("libudev\0\xfe\xed\xca\xfe"
			"ACTION=add\0SUBSYSTEM=node\0"),
		    &ev) == -ENOMSG,
	      "libudev re-broadcasts are dropped");
	CHECK(parse(MSG("change@/devices/system/node/node0\0ACTION=change\0"
			"DEVPATH=/devices/system/node/node0\0SUBSYSTEM=node\0SEQNUM=5\0"),
		    &ev) == -ENOMSG,
	      "node change is not a topology change");
	CHECK(parse(MSG("online@/devices/system/cpu/cpu1\0ACTION=online\0"
			"DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu\0SEQNUM=5\0"),
		    &ev) == -ENOMSG,
	      "other subsystems are ignored");
	CHECK(parse(MSG("add@/devices/system/node/possible\0ACTION=add\0"
			"DEVPATH=/devices/system/node/possible\0SUBSYSTEM=node\0SEQNUM=5\0"),
		    &ev) == -ENOMSG,
	      "a node devpath without a node id is ignored");
	CHECK(parse(MSG("add@/devices/system/node/node99999\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node99999\0SUBSYSTEM=node\0SEQNUM=5\0"),
		    &ev) == -ENOMSG,
	      "a node id above the limit is ignored");
	CHECK(parse(MSG("add@/devices/system/node/node01\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node01\0SUBSYSTEM=node\0SEQNUM=5\0"),
		    &ev) == -ENOMSG,
	      "a node id with a leading zero is not a node");
	CHECK(parse(MSG("bind@/devices/system/memory/memory3\0ACTION=bind\0"
			"DEVPATH=/devices/system/memory/memory3\0SUBSYSTEM=memory\0SEQNUM=5\0"),
		    &ev) == -ENOMSG,
	      "memory bind is ignored");
}

static void malformed(void)
{
	struct uevent ev;
	char big[UEVENT_MSG_MAX + 2];

	CHECK(parse("", 0, &ev) == -EBADMSG, "empty datagram");
	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM=no"),
		    &ev) == -EBADMSG,
	      "truncated (no final NUL)");
	CHECK(parse(MSG("add@/devices/system/node/node3\0"), &ev) == -EBADMSG, "header only");
	CHECK(parse(MSG("add/devices/system/node/node3\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM=node\0"),
		    &ev) == -EBADMSG,
	      "header without '@'");
	CHECK(parse(MSG("@/devices/system/node/node3\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM=node\0"),
		    &ev) == -EBADMSG,
	      "header with an empty action");
	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=add\0\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM=node\0"),
		    &ev) == -EBADMSG,
	      "an empty entry (two NULs)");
	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM\0"),
		    &ev) == -EBADMSG,
	      "an entry without '='");
	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=add\0ACTION=remove\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM=node\0"),
		    &ev) == -EBADMSG,
	      "a repeated key");
	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=remove\0"
			"DEVPATH=/devices/system/node/node3\0SUBSYSTEM=node\0"),
		    &ev) == -EBADMSG,
	      "header and ACTION disagree");
	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node4\0SUBSYSTEM=node\0"),
		    &ev) == -EBADMSG,
	      "header and DEVPATH disagree");
	CHECK(parse(MSG("add@/devices/system/node/node3\0ACTION=add\0"
			"DEVPATH=/devices/system/node/node3\0"),
		    &ev) == -EBADMSG,
	      "no SUBSYSTEM");
	memset(big, 'A', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	CHECK(parse(big, sizeof(big), &ev) == -EBADMSG, "a datagram over the size limit");
	/* Every prefix of a good message is rejected, except the one that ends after SUBSYSTEM. */
	{
		static const char m[] =
			"online@/devices/system/memory/memory32\0ACTION=online\0"
			"DEVPATH=/devices/system/memory/memory32\0SUBSYSTEM=memory\0SEQNUM=9\0";
		size_t len = sizeof(m) - 1, parsed = 0, at = 0;

		for (size_t n = 0; n < len; n++)
			if (parse(m, n, &ev) == 0) {
				parsed++;
				at = n;
			}
		CHECK(parsed == 1 && at == len - strlen("SEQNUM=9") - 1,
		      "prefixes of a good message are rejected unless complete up to an entry");
	}
}

int main(void)
{
	good();
	ignored();
	malformed();
	CHECK(strcmp(uevent_kind_name(UEVENT_MEMORY_ONLINE), "online") == 0, "kind names");
	return tap_done();
}
