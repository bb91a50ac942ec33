// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The uevent listener believes only the kernel.  Any root process may send
 * a well-formed "add@/devices/system/node/node4242" to the uevent multicast
 * group; the listener must drop it (sender port != 0).  A second, plain
 * socket in the same group proves the forgery really was delivered.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tap.h"
#include "uevent.h"

/* Node 4242: no kernel event of this machine (nor another test's) has it. */
static const char forged[] = "add@/devices/system/node/node4242\0ACTION=add\0"
			     "DEVPATH=/devices/system/node/node4242\0SUBSYSTEM=node\0SEQNUM=1\0";

static int group_socket(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 5000) == 1;
}

/* Drain the witness socket until our forgery shows up. */
static bool witness_saw_it(int fd)
{
	char buf[UEVENT_MSG_MAX];

	while (readable(fd)) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n == (ssize_t)sizeof(forged) && memcmp(buf, forged, sizeof(forged)) == 0)
			return true;
	}
	return false;
}

int main(void)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	struct uevent_listener *l;
	struct uevent ev;
	char why[256];
	int witness, sender, r, accepted;

	if (uevent_open(&l, why, sizeof(why)) < 0 || (witness = group_socket()) < 0 ||
	    (sender = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT)) < 0) {
		printf("1..0 # SKIP no uevent socket here: %s\n", why[0] ? why : strerror(errno));
		return 0;
	}
	if (sendto(sender, forged, sizeof(forged), 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		printf("1..0 # SKIP cannot send to the uevent group: %s\n", strerror(errno));
		return 0;
	}
	CHECK(witness_saw_it(witness), "the forged event reached the uevent group");
	/*
	 * The listener joined the group before the send, so the forgery is in
	 * its queue too, maybe among real kernel events (a test elsewhere may
	 * write to a uevent file): only node 4242 would be ours.
	 */
	accepted = 0;
	while (readable(uevent_fd(l)) && (r = uevent_receive(l, &ev)) != -EAGAIN)
		if (r == 0 && ev.kind == UEVENT_NODE_ADD && ev.id == 4242)
			accepted++;
	CHECK(accepted == 0, "the listener ignored the forgery from a process (port != 0)");
	uevent_close(l);
	close(witness);
	close(sender);
	return tap_done();
}
