// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm-scx: a sched_ext scheduler without a BPF program, for the reasons
 * guest (init-reasons).  A struct_ops map of sched_ext_ops that sets only
 * the name (and, with partial, SCX_OPS_SWITCH_PARTIAL) is what the kernel
 * needs: every callback it lacks has a default in kernel/sched/ext.c.  The
 * map also wants a BTF of the caller's: one int, loaded first.
 *
 *   vm-scx full|partial NAME SECONDS
 *
 * The offsets come from the running kernel's BTF (/sys/kernel/btf/vmlinux),
 * never from a header: sched_ext_ops grows between releases.  One line on
 * stdout: "enabled NAME (full|partial)" once the link holds, or the step
 * that failed and its errno (exit 1).  The link is held until SIGTERM,
 * SIGINT or SECONDS; closing it disables the scheduler.
 * No libbpf: the bpf(2) calls themselves.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BTF_PATH "/sys/kernel/btf/vmlinux"
#define VALUE_TYPE "bpf_struct_ops_sched_ext_ops"
/* Linux 6.4's uapi, newer than the build host's headers may be. */
#define BPF_F_LINK_ (1U << 13)
#define BPF_STRUCT_OPS_ 44 /* enum bpf_attach_type, after BPF_LSM_CGROUP */

struct btf_file {
	char *buf;
	const char *types, *strs;
	uint32_t types_len, strs_len;
};

/* What the map and its value need, found in the BTF. */
struct scx_layout {
	uint32_t value_id, value_size; /* bpf_struct_ops_sched_ext_ops */
	uint32_t data_off;             /* its member data: the sched_ext_ops */
	int32_t name_off, flags_off;   /* in sched_ext_ops; -1 not found */
	uint64_t partial;              /* SCX_OPS_SWITCH_PARTIAL; 0 not found */
};

static struct scx_layout layout;

/*
 * The layout goes with the line: what the kernel refused is then judged
 * against what its BTF said.
 */
static void fail(const char *step)
{
	printf("vm-scx: %s: %s (errno %d); %s type %u, %u bytes, data at %u, name at %d, "
	       "flags at %d, SCX_OPS_SWITCH_PARTIAL %#llx\n",
	       step, strerror(errno), errno, VALUE_TYPE, layout.value_id, layout.value_size,
	       layout.data_off, layout.name_off, layout.flags_off,
	       (unsigned long long)layout.partial);
	exit(1);
}

static void fail_btf(const char *what)
{
	printf("vm-scx: " BTF_PATH ": %s\n", what);
	exit(1);
}

static void btf_load(struct btf_file *b)
{
	const struct btf_header *h;
	ssize_t n, got = 0;
	size_t cap = 1 << 24; /* grown as needed: the file's size is not read */
	int fd = open(BTF_PATH, O_RDONLY);

	if (fd < 0)
		fail("open " BTF_PATH);
	if (!(b->buf = malloc(cap)))
		fail("malloc");
	while ((n = read(fd, b->buf + got, cap - (size_t)got)) > 0) {
		char *bigger;

		if ((size_t)(got += n) < cap)
			continue;
		if (!(bigger = realloc(b->buf, cap *= 2)))
			fail("realloc");
		b->buf = bigger;
	}
	if (n < 0)
		fail("read " BTF_PATH);
	close(fd);
	h = (const struct btf_header *)b->buf;
	if ((size_t)got < sizeof(*h) || h->magic != BTF_MAGIC ||
	    (uint64_t)h->hdr_len + h->type_off + h->type_len > (uint64_t)got ||
	    (uint64_t)h->hdr_len + h->str_off + h->str_len > (uint64_t)got)
		fail_btf("not BTF, or cut short");
	b->types = b->buf + h->hdr_len + h->type_off;
	b->types_len = h->type_len;
	b->strs = b->buf + h->hdr_len + h->str_off;
	b->strs_len = h->str_len;
}

static const char *btf_str(const struct btf_file *b, uint32_t off)
{
	return off < b->strs_len ? b->strs + off : "";
}

/* The bytes that follow a btf_type of this kind (uapi linux/btf.h). */
static size_t trailing(const struct btf_type *t)
{
	size_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return vlen * 12;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return vlen * 8;
	default:
		return 0;
	}
}

/* A member's byte offset; bit offsets of bitfields are not ours. */
static int32_t member_off(const struct btf_type *t, const char *name, const struct btf_file *b)
{
	const struct btf_member *m = (const struct btf_member *)(t + 1);

	for (size_t i = 0; i < BTF_INFO_VLEN(t->info); i++) {
		uint32_t bits =
			BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;

		if (strcmp(btf_str(b, m[i].name_off), name) == 0 && bits % 8 == 0)
			return (int32_t)(bits / 8);
	}
	return -1;
}

static uint64_t enum_value(const struct btf_type *t, const char *name, const struct btf_file *b)
{
	const struct btf_enum *e = (const struct btf_enum *)(t + 1);
	const struct btf_enum64 *e64 = (const struct btf_enum64 *)(t + 1);

	for (size_t i = 0; i < BTF_INFO_VLEN(t->info); i++) {
		if (BTF_INFO_KIND(t->info) == BTF_KIND_ENUM &&
		    strcmp(btf_str(b, e[i].name_off), name) == 0)
			return (uint32_t)e[i].val;
		if (BTF_INFO_KIND(t->info) == BTF_KIND_ENUM64 &&
		    strcmp(btf_str(b, e64[i].name_off), name) == 0)
			return (uint64_t)e64[i].val_hi32 << 32 | e64[i].val_lo32;
	}
	return 0;
}

static void note_type(const struct btf_file *b, const struct btf_type *t, uint32_t id,
		      struct scx_layout *l)
{
	const char *name = btf_str(b, t->name_off);
	unsigned int kind = BTF_INFO_KIND(t->info);
	int32_t off;

	if (kind == BTF_KIND_STRUCT && strcmp(name, VALUE_TYPE) == 0 &&
	    (off = member_off(t, "data", b)) >= 0) {
		l->value_id = id;
		l->value_size = t->size;
		l->data_off = (uint32_t)off;
	} else if (kind == BTF_KIND_STRUCT && strcmp(name, "sched_ext_ops") == 0) {
		l->name_off = member_off(t, "name", b);
		l->flags_off = member_off(t, "flags", b);
	} else if ((kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64) &&
		   strcmp(name, "scx_ops_flags") == 0) {
		l->partial = enum_value(t, "SCX_OPS_SWITCH_PARTIAL", b);
	}
}

static void btf_find(const struct btf_file *b, struct scx_layout *l)
{
	size_t pos = 0;
	uint32_t id = 1; /* type 0 is void */

	*l = (struct scx_layout){ .name_off = -1, .flags_off = -1 };
	while (pos + sizeof(struct btf_type) <= b->types_len) {
		const struct btf_type *t = (const struct btf_type *)(b->types + pos);

		note_type(b, t, id++, l);
		pos += sizeof(*t) + trailing(t);
	}
	if (!l->value_id)
		fail_btf("no struct " VALUE_TYPE
			 " with a member data (no CONFIG_SCHED_CLASS_EXT?)");
	if (l->name_off < 0 || l->flags_off < 0)
		fail_btf("struct sched_ext_ops without name or flags");
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/*
 * A struct_ops map wants a BTF of the caller's as well (map_create()
 * takes btf_fd whenever btf_vmlinux_value_type_id is set, EINVAL without
 * one): the smallest the kernel accepts, a single int.
 */
static int btf_minimal(void)
{
	static const char strs[] = "\0int";
	struct {
		struct btf_header h;
		struct btf_type t;
		uint32_t enc;
		char s[sizeof(strs)];
	} __attribute__((packed)) blob = {
		.h = { .magic = BTF_MAGIC,
		       .version = BTF_VERSION,
		       .hdr_len = sizeof(struct btf_header),
		       .type_len = sizeof(struct btf_type) + sizeof(uint32_t),
		       .str_off = sizeof(struct btf_type) + sizeof(uint32_t),
		       .str_len = sizeof(strs) },
		.t = { .name_off = 1, .info = BTF_KIND_INT << 24, .size = 4 },
		.enc = BTF_INT_SIGNED << 24 | 32,
	};
	union bpf_attr a;
	long fd;

	memcpy(blob.s, strs, sizeof(strs));
	memset(&a, 0, sizeof(a));
	a.btf = (uint64_t)(uintptr_t)&blob;
	a.btf_size = sizeof(blob);
	if ((fd = sys_bpf(BPF_BTF_LOAD, &a)) < 0)
		fail("BPF_BTF_LOAD");
	return (int)fd;
}

static int map_create(const struct scx_layout *l, const char *name)
{
	union bpf_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.btf_fd = (uint32_t)btf_minimal();
	a.map_type = BPF_MAP_TYPE_STRUCT_OPS;
	a.key_size = 4;
	a.value_size = l->value_size;
	a.max_entries = 1;
	/* Registered by the link, not by the update: closing it unregisters. */
	a.map_flags = BPF_F_LINK_;
	a.btf_vmlinux_value_type_id = l->value_id;
	snprintf(a.map_name, sizeof(a.map_name), "%s", name);
	if ((fd = sys_bpf(BPF_MAP_CREATE, &a)) < 0)
		fail("BPF_MAP_CREATE");
	return (int)fd;
}

/*
 * The value: all zero (no callbacks, the common header's state INIT)
 * but the scheduler's name and its flags.
 */
static void map_fill(int map, const struct scx_layout *l, const char *name, uint64_t flags)
{
	char *value = calloc(1, l->value_size);
	union bpf_attr a;
	uint32_t key = 0;

	if (!value)
		fail("calloc");
	if (l->data_off + (size_t)l->name_off + strlen(name) + 1 > l->value_size ||
	    l->data_off + (size_t)l->flags_off + sizeof(flags) > l->value_size)
		fail_btf("name or flags past the end of " VALUE_TYPE);
	memcpy(value + l->data_off + l->name_off, name, strlen(name) + 1);
	memcpy(value + l->data_off + l->flags_off, &flags, sizeof(flags));
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)value;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &a) < 0)
		fail("BPF_MAP_UPDATE_ELEM");
	free(value);
}

static int link_create(int map)
{
	union bpf_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = (uint32_t)map; /* map_fd: the same field */
	a.link_create.attach_type = BPF_STRUCT_OPS_;
	if ((fd = sys_bpf(BPF_LINK_CREATE, &a)) < 0)
		fail("BPF_LINK_CREATE");
	return (int)fd;
}

/*
 * Until SIGTERM, SIGINT or the deadline: sigtimedwait keeps the signals
 * from killing us before the link is closed by hand.
 */
static void hold(long seconds)
{
	struct timespec ts = { .tv_sec = seconds };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (sigtimedwait(&set, NULL, &ts) < 0 && errno == EINTR)
		;
}

int main(int argc, char *argv[])
{
	struct btf_file b;
	uint64_t flags = 0;
	int map, link;

	if (argc != 4 || (strcmp(argv[1], "full") != 0 && strcmp(argv[1], "partial") != 0)) {
		fprintf(stderr, "usage: vm-scx full|partial NAME SECONDS\n");
		return 2;
	}
	btf_load(&b);
	btf_find(&b, &layout);
	free(b.buf);
	if (strcmp(argv[1], "partial") == 0 && !(flags = layout.partial))
		fail_btf("enum scx_ops_flags has no SCX_OPS_SWITCH_PARTIAL");
	map = map_create(&layout, argv[2]);
	map_fill(map, &layout, argv[2], flags);
	link = link_create(map);
	printf("enabled %s (%s)\n", argv[2], argv[1]);
	fflush(stdout);
	hold(atol(argv[3]));
	close(link);
	close(map);
	return 0;
}
