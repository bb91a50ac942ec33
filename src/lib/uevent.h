/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel hotplug events (NETLINK_KOBJECT_UEVENT, multicast group 1) that
 * change the NUMA topology: node add/remove and memory block
 * add/remove/online/offline.  The parser is a pure function on the bytes of
 * one datagram; the listener loads libmnl on first use (dl.h), so only
 * interval sampling on the live system pays for it.  Implemented by uevent.c.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

enum uevent_kind {
	UEVENT_NODE_ADD,
	UEVENT_NODE_REMOVE,
	UEVENT_MEMORY_ADD,
	UEVENT_MEMORY_REMOVE,
	UEVENT_MEMORY_ONLINE,
	UEVENT_MEMORY_OFFLINE,
};

struct uevent {
	enum uevent_kind kind;
	/* The node id (node events) or the memory block number (memory events). */
	unsigned id;
};

/* A datagram is at most a page of environment plus the header (UEVENT_BUFFER_SIZE 2048). */
#define UEVENT_MSG_MAX 8192

/*
 * Parse one kernel uevent: "ACTION@DEVPATH\0KEY=VALUE\0...".  Returns 0 for
 * an event that matters here, -ENOMSG for one to ignore (libudev's
 * re-broadcasts, other subsystems, other actions) and -EBADMSG for bytes
 * that are not a well-formed uevent.
 */
int uevent_parse(const void *buf, size_t len, struct uevent *ev);
/* "node 3 added", "memory block 32 online": for messages. */
const char *uevent_kind_name(enum uevent_kind kind);

struct uevent_listener;

/*
 * Open and bind the kernel's uevent socket (group 1).  Returns 0, or
 * -errno with a reason in why (libmnl missing, socket refused).
 */
int uevent_open(struct uevent_listener **lp, char *why, size_t whylen);
/* The fd to poll for POLLIN. */
int uevent_fd(const struct uevent_listener *l);
/*
 * Receive one datagram without blocking.  Returns 0 with *ev filled for a
 * relevant kernel event, -ENOMSG for anything to ignore (including senders
 * other than the kernel, port 0), -EAGAIN when nothing is queued, -ENOBUFS
 * when events were lost (the caller re-scans), or -errno.
 */
int uevent_receive(struct uevent_listener *l, struct uevent *ev);
void uevent_close(struct uevent_listener *l);
