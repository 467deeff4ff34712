// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * nfcost.c - what netfilter's LOG target costs per packet, in the QEMU
 * guest (make bench-guest).  Static; never run on the host.
 *
 *   nfcost MODE N M    N - 1 network namespaces, each bound to a syslog
 *                      namespace of its own (one unshare(CLONE_NEWSYSLOG |
 *                      CLONE_NEWNET) each, kept by an open ns file), alive
 *                      while the calling process, in one more network
 *                      namespace, sends M UDP packets over lo through a
 *                      LOG rule on output and one on input (two lines per
 *                      packet).  MODE says what that last one is:
 *                        bound  bound to a syslog namespace of its own: the
 *                               lines go there
 *                        host   a plain netns: with nf_log_all_netns=1 (the
 *                               caller sets it) the lines go to the host's
 *                               log, as upstream
 *                        none   a plain netns without the LOG rules: the
 *                               packet's own cost
 *
 * Prints "nflog MODE N NS": ns per packet over the M packets, after 1,000
 * not timed.  The namespaces go away when it exits (network namespaces in
 * the kernel's cleanup work, after it).
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

#include "nfrule.h"

#ifndef CLONE_NEWSYSLOG
#define CLONE_NEWSYSLOG 0x00000040
#endif

static void die(const char *what)
{
	fprintf(stderr, "nfcost: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int open_ns(const char *kind)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", kind);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	return fd;
}

int main(int argc, char **argv)
{
	int home_net, home_sys, s, rx, i;
	struct rlimit rl;
	const char *mode;
	uint64_t t0;
	long n, m;

	if (argc != 4)
		goto usage;
	mode = argv[1];
	n = atol(argv[2]);
	m = atol(argv[3]);
	if (n < 1 || m < 1 || (strcmp(mode, "bound") && strcmp(mode, "host") &&
			       strcmp(mode, "none")))
		goto usage;
	rl.rlim_cur = rl.rlim_max = n + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit");
	home_net = open_ns("net");
	home_sys = open_ns("syslog");
	/* The N - 1 others: bound pairs, siblings of the measured one. */
	for (i = 1; i < n; i++) {
		if (unshare(CLONE_NEWSYSLOG | CLONE_NEWNET))
			die("unshare(CLONE_NEWSYSLOG | CLONE_NEWNET)");
		open_ns("net");		/* kept open until exit */
		if (setns(home_net, CLONE_NEWNET) ||
		    setns(home_sys, CLONE_NEWSYSLOG))
			die("setns home");
	}
	if (unshare(CLONE_NEWNET | (strcmp(mode, "bound") ? 0 :
				    CLONE_NEWSYSLOG)))
		die("unshare (measured)");
	lo_up();
	if (strcmp(mode, "none"))
		add_log_rule("NFCOST: ");
	s = udp_open(&rx);
	for (i = 0; i < 1000; i++)
		udp_send(s, rx);
	t0 = now_ns();
	for (i = 0; i < m; i++)
		udp_send(s, rx);
	printf("nflog %s %ld %llu\n", mode, n,
	       (unsigned long long)((now_ns() - t0) / m));
	return 0;
usage:
	fprintf(stderr, "usage: nfcost bound|host|none N M\n");
	return 2;
}
