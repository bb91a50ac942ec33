// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dl.h"
#include "nodes.h"
#include "uevent.h"
#include "value.h"

/* The fields of one uevent that decide whether it matters. */
struct fields {
	const char *action, *devpath, *subsystem;
	size_t action_len, devpath_len, subsystem_len;
};

static bool is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* Store a value of ours; a repeated key is malformed. */
static int set_once(const char **val, size_t *vlen, const char *kv, size_t len, size_t klen)
{
	if (*val)
		return -EBADMSG;
	*val = kv + klen;
	*vlen = len - klen;
	return 0;
}

static bool has_key(const char *kv, size_t len, const char *key)
{
	return len >= strlen(key) && memcmp(kv, key, strlen(key)) == 0;
}

/* Record KEY=VALUE if it is one of ours. */
static int take_field(const char *kv, size_t len, struct fields *f)
{
	const char *eq = memchr(kv, '=', len);

	if (!eq || eq == kv)
		return -EBADMSG;
	if (has_key(kv, len, "ACTION="))
		return set_once(&f->action, &f->action_len, kv, len, 7);
	if (has_key(kv, len, "DEVPATH="))
		return set_once(&f->devpath, &f->devpath_len, kv, len, 8);
	if (has_key(kv, len, "SUBSYSTEM="))
		return set_once(&f->subsystem, &f->subsystem_len, kv, len, 10);
	return 0;
}

/* Split the NUL-separated environment after the header. */
static int split_env(const char *p, const char *end, struct fields *f)
{
	while (p < end) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		int r;

		if (!nul || nul == p)
			return -EBADMSG; /* truncated, or an empty entry */
		r = take_field(p, (size_t)(nul - p), f);
		if (r < 0)
			return r;
		p = nul + 1;
	}
	return f->action && f->devpath && f->subsystem ? 0 : -EBADMSG;
}

/* "<prefix><digits>" exactly, the id bounded; false for anything else. */
static bool devpath_id(const char *s, size_t len, const char *prefix, uint64_t max, unsigned *id)
{
	size_t plen = strlen(prefix);
	uint64_t v;

	if (len <= plen || memcmp(s, prefix, plen) != 0 ||
	    parse_u64_n(s + plen, len - plen, max, &v) < 0)
		return false;
	*id = (unsigned)v;
	return true;
}

static int classify(const struct fields *f, struct uevent *ev)
{
	const char *a = f->action;
	size_t al = f->action_len;

	if (is(f->subsystem, f->subsystem_len, "node")) {
		if (!devpath_id(f->devpath, f->devpath_len, "/devices/system/node/node",
				NODE_ID_MAX, &ev->id))
			return -ENOMSG;
		if (is(a, al, "add"))
			ev->kind = UEVENT_NODE_ADD;
		else if (is(a, al, "remove"))
			ev->kind = UEVENT_NODE_REMOVE;
		else
			return -ENOMSG;
		return 0;
	}
	if (!is(f->subsystem, f->subsystem_len, "memory") ||
	    !devpath_id(f->devpath, f->devpath_len, "/devices/system/memory/memory", UINT32_MAX,
			&ev->id))
		return -ENOMSG;
	if (is(a, al, "add"))
		ev->kind = UEVENT_MEMORY_ADD;
	else if (is(a, al, "remove"))
		ev->kind = UEVENT_MEMORY_REMOVE;
	else if (is(a, al, "online"))
		ev->kind = UEVENT_MEMORY_ONLINE;
	else if (is(a, al, "offline"))
		ev->kind = UEVENT_MEMORY_OFFLINE;
	else
		return -ENOMSG;
	return 0;
}

int uevent_parse(const void *buf, size_t len, struct uevent *ev)
{
	const char *p = buf, *end = p + len, *nul, *at;
	struct fields f = { 0 };
	int r;

	/* udevd re-broadcasts on group 2 with a binary header; never ours. */
	if (len >= 8 && memcmp(p, "libudev", 8) == 0)
		return -ENOMSG;
	if (len == 0 || len > UEVENT_MSG_MAX || p[len - 1] != '\0')
		return -EBADMSG;
	nul = memchr(p, '\0', len);
	at = memchr(p, '@', (size_t)(nul - p));
	if (!at || at == p || at + 1 == nul)
		return -EBADMSG;
	r = split_env(nul + 1, end, &f);
	if (r < 0)
		return r;
	/* The header repeats ACTION and DEVPATH; a disagreement is not the kernel's. */
	if (f.action_len != (size_t)(at - p) || memcmp(f.action, p, f.action_len) != 0 ||
	    f.devpath_len != (size_t)(nul - at - 1) ||
	    memcmp(f.devpath, at + 1, f.devpath_len) != 0)
		return -EBADMSG;
	return classify(&f, ev);
}

const char *uevent_kind_name(enum uevent_kind kind)
{
	switch (kind) {
	case UEVENT_NODE_ADD:
		return "added";
	case UEVENT_NODE_REMOVE:
		return "removed";
	case UEVENT_MEMORY_ADD:
		return "added";
	case UEVENT_MEMORY_REMOVE:
		return "removed";
	case UEVENT_MEMORY_ONLINE:
		return "online";
	case UEVENT_MEMORY_OFFLINE:
		return "offline";
	}
	return "changed";
}

/* libmnl, loaded by the first listener. */
static void *mnl;
static typeof(mnl_socket_open2) *sym_mnl_socket_open2;
static typeof(mnl_socket_bind) *sym_mnl_socket_bind;
static typeof(mnl_socket_get_fd) *sym_mnl_socket_get_fd;
static typeof(mnl_socket_close) *sym_mnl_socket_close;

static const struct dl_sym mnl_syms[] = {
	/* clang-format off */
	DL_SYM(mnl_socket_open2),
	DL_SYM(mnl_socket_bind),
	DL_SYM(mnl_socket_get_fd),
	DL_SYM(mnl_socket_close),
	/* clang-format on */
	{ NULL, NULL },
};

struct uevent_listener {
	struct mnl_socket *nl;
	char buf[UEVENT_MSG_MAX + 1];
};

int uevent_open(struct uevent_listener **lp, char *why, size_t whylen)
{
	struct uevent_listener *l;
	int r = dl_load(DL_LIB_mnl, &mnl, mnl_syms, why, whylen);
	int size = 1 << 20;

	if (r < 0)
		return r;
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	l->nl = sym_mnl_socket_open2(NETLINK_KOBJECT_UEVENT, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!l->nl || sym_mnl_socket_bind(l->nl, 1, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		snprintf(why, whylen, "uevent socket: %s", strerror(errno));
		uevent_close(l);
		return r;
	}
	/*
	 * Events come in bursts (a memory hot-add is add+online per block); a
	 * large buffer keeps them, and ENOBUFS after an overflow means re-scan.
	 * FORCE works for root; the plain option is the fallback.
	 */
	if (setsockopt(uevent_fd(l), SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(uevent_fd(l), SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	*lp = l;
	return 0;
}

int uevent_fd(const struct uevent_listener *l)
{
	return sym_mnl_socket_get_fd(l->nl);
}

int uevent_receive(struct uevent_listener *l, struct uevent *ev)
{
	struct sockaddr_nl sender = { 0 };
	struct iovec iov = { l->buf, sizeof(l->buf) };
	struct msghdr msg = {
		.msg_name = &sender,
		.msg_namelen = sizeof(sender),
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	ssize_t n;

	do
		n = recvmsg(uevent_fd(l), &msg, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	/* Only the kernel has port 0: anything else is a local process talking. */
	if (msg.msg_namelen != sizeof(sender) || sender.nl_pid != 0 || (msg.msg_flags & MSG_TRUNC))
		return -ENOMSG;
	return uevent_parse(l->buf, (size_t)n, ev) == 0 ? 0 : -ENOMSG;
}

void uevent_close(struct uevent_listener *l)
{
	if (!l)
		return;
	if (l->nl)
		sym_mnl_socket_close(l->nl);
	free(l);
}
