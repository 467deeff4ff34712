// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * nsscale.c - many namespaces alive at once, in the QEMU guest
 * (make bench-guest).  Static; never run on the host.
 *
 *   nsscale KIND N     KIND uts, net or syslog: N namespaces of that kind
 *                      created one after another by the calling process
 *                      (unshare(2), keep /proc/self/ns/KIND open, setns(2)
 *                      back home, so every one is a child of the same
 *                      parent), all alive together, then all released.
 *   nsscale hold KIND N FILE
 *                      the same N created, then FILE created (empty) and
 *                      the N kept alive until the process is killed (for
 *                      the host-cost benchmark: the host's paths timed
 *                      with 10^4 syslog namespaces alive).
 *   nsscale unshare N  unshare(CLONE_NEWUTS | CLONE_NEWNET) N times by the
 *                      calling process (each call replaces its nsproxy and
 *                      frees the one before: the path the series touches
 *                      in nsproxy.c), timed.
 *
 * Prints one line per figure for bench_guest.sh:
 *   create KIND N NS       ns per namespace (unshare + open + setns)
 *   destroy KIND N NS      ns per namespace to close the last reference
 *   mem KIND N SLAB VMALLOC PERCPU FREEDROP
 *                          /proc/meminfo's Slab, VmallocUsed and Percpu
 *                          grown, and MemFree dropped, while the N were
 *                          alive, in bytes per namespace (once memory
 *                          has settled)
 *   kept KIND N SLAB VMALLOC PERCPU FREEDROP
 *                          what stayed after they were released (bytes per
 *                          namespace; a network namespace is torn down
 *                          later by a work queue, so this is after a pause)
 *   unshare N NS           ns per unshare(CLONE_NEWUTS | CLONE_NEWNET)
 * The open and setns are in every KIND's figure alike; compare kinds by
 * their ratio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef CLONE_NEWSYSLOG
#define CLONE_NEWSYSLOG 0x00000040
#endif

static void die(const char *what)
{
	fprintf(stderr, "nsscale: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define NKEYS 4

/*
 * Slab, VmallocUsed, Percpu and MemFree from /proc/meminfo, in kB.
 * MemFree also sees what the first three do not: allocations served by
 * the page allocator directly (a kmalloc() above 8 KiB).
 */
static void meminfo(long long kb[NKEYS])
{
	static const char *const keys[NKEYS] = { "Slab:", "VmallocUsed:",
						 "Percpu:", "MemFree:" };
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	for (int k = 0; k < NKEYS; k++)
		kb[k] = -1;
	while (fgets(line, sizeof(line), f))
		for (int k = 0; k < NKEYS; k++)
			if (!strncmp(line, keys[k], strlen(keys[k])))
				kb[k] = atoll(line + strlen(keys[k]));
	fclose(f);
	for (int k = 0; k < NKEYS; k++)
		if (kb[k] < 0) {
			errno = ENOENT;
			die(keys[k]);
		}
}

/*
 * Once RCU callbacks and work queues (a network namespace's teardown)
 * have run: MemFree steady within 256 kB over a second, 120 s at most.
 */
static void settled(long long kb[NKEYS])
{
	long long prev[NKEYS];

	sleep(2);
	meminfo(prev);
	for (int i = 0; i < 120; i++) {
		sleep(1);
		meminfo(kb);
		if (llabs(kb[3] - prev[3]) <= 256)
			return;
		memcpy(prev, kb, sizeof(prev));
	}
}

static void print_mem(const char *what, const char *kind, long n,
		      const long long a[NKEYS], const long long b[NKEYS])
{
	printf("%s %s %ld", what, kind, n);
	for (int k = 0; k < 3; k++)
		printf(" %lld", (b[k] - a[k]) * 1024 / n);
	printf(" %lld\n", (a[3] - b[3]) * 1024 / n);	/* MemFree's drop */
}

/* unshare(CLONE_NEWUTS | CLONE_NEWNET) n times, timed. */
static int unshare_loop(long n)
{
	uint64_t t0, t1;

	t0 = now_ns();
	for (long i = 0; i < n; i++)
		if (unshare(CLONE_NEWUTS | CLONE_NEWNET))
			die("unshare(CLONE_NEWUTS | CLONE_NEWNET)");
	t1 = now_ns();
	printf("unshare %ld %llu\n", n, (unsigned long long)((t1 - t0) / n));
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int flag; } kinds[] = {
		{ "uts", CLONE_NEWUTS },
		{ "net", CLONE_NEWNET },
		{ "syslog", CLONE_NEWSYSLOG },
	};
	long long m0[NKEYS], m1[NKEYS], m2[NKEYS];
	char path[64];
	struct rlimit rl;
	uint64_t t0, t1;
	int flag = 0, home, *fds;
	const char *kind, *hold = NULL;
	long n;

	if (argc == 3 && !strcmp(argv[1], "unshare") && atol(argv[2]) > 0)
		return unshare_loop(atol(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "hold")) {
		hold = argv[4];
		argv++;
		argc -= 2;
	}
	if (argc != 3)
		goto usage;
	kind = argv[1];
	n = atol(argv[2]);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcmp(kind, kinds[k].name))
			flag = kinds[k].flag;
	if (!flag || n < 1)
		goto usage;

	rl.rlim_cur = rl.rlim_max = (rlim_t)n + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit(RLIMIT_NOFILE)");
	fds = calloc((size_t)n, sizeof(*fds));
	if (!fds)
		die("calloc");
	snprintf(path, sizeof(path), "/proc/self/ns/%s", kind);
	home = open(path, O_RDONLY | O_CLOEXEC);
	if (home < 0)
		die(path);

	if (!hold)
		settled(m0);
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		if (unshare(flag))
			die("unshare");
		fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0)
			die(path);
		if (setns(home, flag))
			die("setns home");
	}
	t1 = now_ns();
	printf("create %s %ld %llu\n", kind, n,
	       (unsigned long long)((t1 - t0) / (uint64_t)n));
	if (hold) {
		int fd;

		fflush(stdout);
		fd = open(hold, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			die(hold);
		close(fd);
		for (;;)
			pause();
	}
	settled(m1);
	print_mem("mem", kind, n, m0, m1);

	t0 = now_ns();
	for (long i = 0; i < n; i++)
		close(fds[i]);
	t1 = now_ns();
	printf("destroy %s %ld %llu\n", kind, n,
	       (unsigned long long)((t1 - t0) / (uint64_t)n));
	settled(m2);
	print_mem("kept", kind, n, m0, m2);
	free(fds);
	return 0;
usage:
	fprintf(stderr, "usage: nsscale [hold] uts|net|syslog N [FILE] | "
		"nsscale unshare N\n");
	return 2;
}
