// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm-mover: the guest's workloads for placement's plan and --move, each a
 * case of what a printed migratepages(8) got wrong.  Each prints "ready"
 * once its memory is where the case wants it, then sleeps until killed.
 *
 *   owner MB CPU        a System V segment (key 0x6e756d61) and a tmpfs file
 *                       (/dev/shm/vm-mover) of MB each, touched on CPU
 *   user KB ALLOC RUN   attaches both and reads every page (they are
 *                       shared now), faults KB of its own on ALLOC, runs on RUN
 *   thread MB MAIN WORKER
 *                       the main thread on MAIN; a worker on WORKER faults
 *                       MB of its own there and keeps it
 *   bind MB NODE ALLOC RUN
 *                       MB faulted on ALLOC, then mbind(MPOL_BIND, NODE)
 *                       without MPOL_MF_MOVE (off-policy); then MB of a
 *                       default mapping faulted on CPU NODE (node NODE's
 *                       CPU in the guest); runs on RUN
 *   local MB ALLOC RUN  set_mempolicy(MPOL_LOCAL), MB faulted on ALLOC, runs
 *                       on RUN
 *   away MB NODE        MB faulted under set_mempolicy(MPOL_BIND, NODE), then
 *                       the default policy again: default-policy pages on
 *                       NODE, which may have no CPU (a CXL or HMAT node)
 *   pair MB NODE MB2 NODE2
 *                       as away, twice: MB2 on NODE2 first, then MB on NODE
 *                       in a mapping of its own, which the kernel places
 *                       below the first (mmap goes down), so a plan moves
 *                       it first; prints both addresses
 *   cow MB FILE RUN     a file of MB (/vm-mover-cow) written on CPU FILE
 *                       (its page cache there), mapped private and read
 *                       whole; then on CPU RUN every other page written:
 *                       copies (anon=) on RUN's node, which numa_maps
 *                       counts with the file's pages; runs on RUN
 * No libnuma: the system calls themselves.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEY 0x6e756d61
#define SHM_FILE "/dev/shm/vm-mover"
#define COW_FILE "/vm-mover-cow"
#define MPOL_BIND_ 2
#define MPOL_LOCAL_ 4

static long page;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void run_on(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		die("sched_setaffinity");
}

static char *anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static void touch(volatile char *p, size_t len)
{
	for (size_t i = 0; i < len; i += (size_t)page)
		p[i] = 1;
}

static size_t read_all(volatile char *p, size_t len)
{
	size_t sum = 0;

	for (size_t i = 0; i < len; i += (size_t)page)
		sum += (size_t)p[i];
	return sum;
}

/* Fault len bytes at p on node under MPOL_BIND, then the default policy again. */
static void fault_on(char *p, size_t len, int node)
{
	unsigned long mask = 1UL << node;

	if (syscall(SYS_set_mempolicy, MPOL_BIND_, &mask, 64UL) < 0)
		die("set_mempolicy");
	touch(p, len);
	if (syscall(SYS_set_mempolicy, 0, NULL, 0UL) < 0)
		die("set_mempolicy");
}

static void ready(void)
{
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}

static char *shared_file(size_t len, int create)
{
	int fd = open(SHM_FILE, O_RDWR | (create ? O_CREAT : 0), 0600);
	char *p;

	if (fd < 0 || (create && ftruncate(fd, (off_t)len) < 0))
		die(SHM_FILE);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap " SHM_FILE);
	close(fd);
	return p;
}

static char *sysv(size_t len, int create)
{
	int id = shmget(KEY, len, create ? IPC_CREAT | 0600 : 0);
	char *p;

	if (id < 0)
		die("shmget");
	p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		die("shmat");
	return p;
}

struct worker {
	int cpu;
	size_t len;
};

static void *work(void *arg)
{
	const struct worker *w = arg;

	run_on(w->cpu);
	touch(anon(w->len), w->len);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
	return NULL;
}

/* The cow case: a private mapping of a file, half of it copied on write. */
static void cow(size_t len, int file_cpu, int run_cpu)
{
	char *buf = anon((size_t)page), *p;
	int fd;

	run_on(file_cpu);
	fd = open(COW_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(COW_FILE);
	memset(buf, 1, (size_t)page);
	for (size_t i = 0; i < len; i += (size_t)page)
		if (write(fd, buf, (size_t)page) != page)
			die("write " COW_FILE);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		die("mmap " COW_FILE);
	close(fd);
	read_all(p, len);
	run_on(run_cpu);
	for (size_t i = 0; i < len; i += 2 * (size_t)page)
		p[i] = 2;
	ready();
}

int main(int argc, char *argv[])
{
	size_t mb = argc > 2 ? (size_t)atol(argv[2]) << 20 : 0;

	page = sysconf(_SC_PAGESIZE);
	if (argc == 4 && strcmp(argv[1], "owner") == 0) {
		run_on(atoi(argv[3]));
		touch(sysv(mb, 1), mb);
		touch(shared_file(mb, 1), mb);
		ready();
	}
	if (argc == 5 && strcmp(argv[1], "user") == 0) {
		size_t kb = (size_t)atol(argv[2]) << 10;
		struct shmid_ds ds;
		int id = shmget(KEY, 0, 0);
		char *p;

		if (id < 0 || shmctl(id, IPC_STAT, &ds) < 0)
			die("shmget");
		read_all(sysv(ds.shm_segsz, 0), ds.shm_segsz);
		read_all(shared_file(ds.shm_segsz, 0), ds.shm_segsz);
		run_on(atoi(argv[3]));
		touch(p = anon(kb), kb);
		run_on(atoi(argv[4]));
		(void)p;
		ready();
	}
	if (argc == 5 && strcmp(argv[1], "thread") == 0) {
		static struct worker w;
		pthread_t t;

		run_on(atoi(argv[3]));
		w = (struct worker){ .cpu = atoi(argv[4]), .len = mb };
		if (pthread_create(&t, NULL, work, &w) != 0)
			die("pthread_create");
		for (;;)
			pause();
	}
	if (argc == 6 && strcmp(argv[1], "bind") == 0) {
		unsigned long mask = 1UL << atoi(argv[3]);
		char *b, *d;

		run_on(atoi(argv[4]));
		touch(b = anon(mb), mb);
		if (syscall(SYS_mbind, b, mb, MPOL_BIND_, &mask, 64UL, 0U) < 0)
			die("mbind");
		run_on(atoi(argv[3]));
		touch(d = anon(mb), mb);
		run_on(atoi(argv[5]));
		(void)d;
		ready();
	}
	if (argc == 5 && strcmp(argv[1], "local") == 0) {
		if (syscall(SYS_set_mempolicy, MPOL_LOCAL_, NULL, 0UL) < 0)
			die("set_mempolicy");
		run_on(atoi(argv[3]));
		touch(anon(mb), mb);
		run_on(atoi(argv[4]));
		ready();
	}
	if (argc == 4 && strcmp(argv[1], "away") == 0) {
		fault_on(anon(mb), mb, atoi(argv[3]));
		ready();
	}
	if (argc == 6 && strcmp(argv[1], "pair") == 0) {
		size_t mb2 = (size_t)atol(argv[4]) << 20;
		char *second = anon(mb2), *first;

		fault_on(second, mb2, atoi(argv[5]));
		first = anon(mb);
		/* Other flags than its neighbour's: two mappings, never merged into one. */
		madvise(first, mb, MADV_DONTFORK);
		fault_on(first, mb, atoi(argv[3]));
		printf("first %p second %p\n", (void *)first, (void *)second);
		ready();
	}
	if (argc == 5 && strcmp(argv[1], "cow") == 0)
		cow(mb, atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: vm-mover owner|user|thread|bind|local|away|pair|cow ...\n");
	return 2;
}
