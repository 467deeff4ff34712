// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kmsgbench - the cost of one /dev/kmsg write, measured in the guest.
 *
 * Usage: kmsgbench COUNT
 *
 * Opens /dev/kmsg write-only and writes COUNT records of 64 bytes each
 * ("<6>" and a numbered text), then prints "<ns per write>" on stdout.
 * tests/guest/bench_guest.sh runs it on the host log and in a child
 * syslog namespace, alternating; kernel.printk_devkmsg must be "on" (no
 * ratelimit) for the numbers to mean anything.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t;
	long i, count;
	char line[80];
	int fd, n;

	if (argc != 2 || (count = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: kmsgbench COUNT\n");
		return 2;
	}
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0) {
		perror("kmsgbench: /dev/kmsg");
		return 1;
	}
	t0 = now_ns();
	for (i = 0; i < count; i++) {
		/* stored: 63 bytes and the newline, as klog_bench's */
		n = snprintf(line, sizeof(line),
			     "<6>bench %08ld: 0123456789abcdef0123456789abcdef"
			     "0123456789abcde\n", i);
		if (write(fd, line, n) != n) {
			perror("kmsgbench: write");
			return 1;
		}
	}
	t = now_ns() - t0;
	printf("%llu\n", t / count);
	close(fd);
	return 0;
}
