/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * syslog_ns.h - how the in-guest helpers make a syslog namespace, as a
 * container runtime does: unshare(CLONE_NEWSYSLOG), then the new
 * namespace's tag and ring size through its own kernel.syslog_ns_tag and
 * kernel.syslog_ns_size, before anything is logged in it.
 */
#ifndef GUEST_SYSLOG_NS_H
#define GUEST_SYSLOG_NS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef CLONE_NEWSYSLOG
#define CLONE_NEWSYSLOG 0x00000040
#endif

/* Write @val to /proc/sys/kernel/@name: 0, or -1 with errno set. */
static inline int syslog_ns_sysctl(const char *name, const char *val)
{
	char path[128];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	e = errno;
	close(fd);
	errno = e;
	if (n < 0)
		return -1;
	if ((size_t)n != strlen(val)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/*
 * Move into a new syslog namespace with tag @tag (NULL or "": none) and
 * ring size @size (0: the default).  0, or -1 with errno set: the
 * unshare's error, else the first sysctl write's.
 */
static inline int syslog_ns_new(const char *tag, long size)
{
	char num[32];

	if (unshare(CLONE_NEWSYSLOG))
		return -1;
	if (tag && *tag && syslog_ns_sysctl("syslog_ns_tag", tag))
		return -1;
	if (size) {
		snprintf(num, sizeof(num), "%ld", size);
		if (syslog_ns_sysctl("syslog_ns_size", num))
			return -1;
	}
	return 0;
}

#endif /* GUEST_SYSLOG_NS_H */
