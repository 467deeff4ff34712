// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * klogns - the in-guest helper of the syslog namespace tests.
 *
 * Built with "gcc -static" and run inside the QEMU guest by
 * tests/guest/syslog_ns_tests.sh.  Every subcommand does one thing and
 * reports it on stdout in a form the shell can compare:
 *
 *   klogns exec [-u UID] [-U] [-j NSFILE] [-n] [-t TAG] [-s SIZE] -- CMD...
 *       -u UID  drop to uid/gid UID (no supplementary groups) first
 *       -U      unshare(CLONE_NEWUSER) and map uid/gid 0 to the old ones
 *       -j NSFILE  setns(open(NSFILE), 0): join a syslog namespace
 *       -n      unshare(CLONE_NEWSYSLOG), then TAG and SIZE written to
 *               kernel.syslog_ns_tag and kernel.syslog_ns_size (when
 *               given): a new syslog namespace the command runs in
 *       then execvp(CMD).  A failing step prints "klogns: STEP: ERRNO"
 *       on stderr and exits with 100 + errno.
 *   klogns rc ACTION [LEN]      syslog(ACTION, NULL, LEN) (a scratch
 *                               buffer for reads): prints the result, or
 *                               the errno name (EPERM, EINVAL, ...)
 *   klogns read ACTION LEN      syslog(ACTION, buf, LEN): prints the text
 *   klogns newns TAG|- SIZE     a new syslog namespace as -n: prints 0
 *                               or the errno name of the failing step
 *   klogns kmsg [FD]            every /dev/kmsg record readable now (from
 *                               FD if given, else a fresh open), one per
 *                               line; "EPIPE" for a loss
 *   klogns proc-kmsg            what /proc/kmsg has now (nonblocking)
 *   klogns hold TEXT            open /dev/kmsg, write TEXT, move into a
 *                               new syslog namespace, then read the old
 *                               one through the open file: prints its
 *                               records
 *   klogns poll FD              poll() bits of FD: IN, PRI, ERR, RDNORM
 *   klogns churn N              N times: a new syslog namespace with an
 *                               open /dev/kmsg and /proc/kmsg, in a child
 *                               process; prints "done N"
 *   klogns setns NSFILE [TYPE]  setns(open(NSFILE), TYPE): prints 0 or
 *                               the errno name
 *   klogns parents NSFILE       the inode numbers of NSFILE's ancestors
 *                               by NS_GET_PARENT, on one line, ending
 *                               with the errno name that stopped it
 *   klogns owner NSFILE         NS_GET_USERNS: the owner's inode number
 *   klogns nstype NSFILE        NS_GET_NSTYPE: the type, in hex
 *   klogns sysctl NAME VALUE    write VALUE to /proc/sys/kernel/NAME:
 *                               prints 0 or the errno name
 *   klogns clone3 FLAGS CMD...  clone3() with FLAGS (hex) and SIGCHLD;
 *                               the child execs CMD; exits with its
 *                               status, or prints the errno name
 *   klogns pidfd-setns PID FLAGS CMD...
 *                               setns(pidfd_open(PID), FLAGS (hex)), then
 *                               exec CMD; prints the errno name if the
 *                               setns fails
 *   klogns flood COMM FILES LINES TEXT
 *                               as a task named COMM (prctl): open
 *                               /dev/kmsg FILES times and write LINES
 *                               records "<3>TEXT <n>" to each; prints
 *                               the number of writes that returned the
 *                               full length
 *   klogns udp PORT             send one UDP datagram to 127.0.0.1:PORT
 *                               (no privilege needed, unlike ping):
 *                               prints "sent" or the errno name
 *   klogns quota N SIZE [HOLD]  N child processes, each
 *                               a new syslog namespace of SIZE bytes, then
 *                               pause: prints
 *                               "created K", the errno name of the first
 *                               failure (or "none") and the kernel memory
 *                               (Slab + VmallocUsed + Percpu, KiB) the K
 *                               namespaces pinned; then, after HOLD
 *                               seconds (default 0) or a SIGTERM, kills
 *                               them
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nsfs.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syslog_ns.h"

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENOMEM: return "ENOMEM";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case EPIPE: return "EPIPE";
	case EBADF: return "EBADF";
	case ESPIPE: return "ESPIPE";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case EACCES: return "EACCES";
	default: return NULL;
	}
}

static void print_err(int e)
{
	const char *n = errname(e);

	if (n)
		printf("%s\n", n);
	else
		printf("E%d\n", e);
}

/* The raw system call: glibc's klogctl() takes no tag pointer. */
static long sys_syslog(int type, const char *buf, long len)
{
	return syscall(SYS_syslog, type, buf, len);
}

static void die(const char *step, int code)
{
	int e = errno;

	fprintf(stderr, "klogns: %s: %s\n", step, errname(e) ? errname(e) :
		strerror(e));
	exit(code ? code : 100 + e);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path, 0);
	close(fd);
}

static int cmd_exec(int argc, char **argv)
{
	const char *tag = NULL;
	long size = 0;
	int uid = -1, userns = 0, newns = 0, opt, fd;
	const char *join = NULL;
	char map[64];

	while ((opt = getopt(argc, argv, "+u:Uj:nt:s:")) != -1) {
		switch (opt) {
		case 'u': uid = atoi(optarg); break;
		case 'U': userns = 1; break;
		case 'j': join = optarg; break;
		case 'n': newns = 1; break;
		case 't': tag = optarg; break;
		case 's': size = atol(optarg); break;
		default: return 2;
		}
	}
	if (optind >= argc)
		return 2;
	if (uid >= 0) {
		if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
			die("setuid", 0);
		/* setuid() made us non-dumpable: /proc/self would be root's */
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			die("prctl(PR_SET_DUMPABLE)", 0);
	}
	if (userns) {
		uid_t u = getuid();
		gid_t g = getgid();

		if (unshare(CLONE_NEWUSER))
			die("unshare(CLONE_NEWUSER)", 0);
		write_file("/proc/self/setgroups", "deny");
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)u);
		write_file("/proc/self/uid_map", map);
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)g);
		write_file("/proc/self/gid_map", map);
	}
	if (join) {
		fd = open(join, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die(join, 0);
		if (setns(fd, 0))
			die("setns", 0);
		close(fd);
	}
	if (newns && syslog_ns_new(tag, size))
		die("new syslog namespace", 0);
	execvp(argv[optind], argv + optind);
	die(argv[optind], 127);
	return 127;
}

static int cmd_rc(int argc, char **argv)
{
	static char buf[1 << 20];
	long len, ret;
	int type;

	if (argc < 2)
		return 2;
	type = atoi(argv[1]);
	len = argc > 2 ? atol(argv[2]) : 0;
	ret = sys_syslog(type, (type >= 2 && type <= 4) ? buf : NULL, len);
	if (ret < 0)
		print_err(errno);
	else
		printf("%ld\n", ret);
	return 0;
}

static int cmd_read(int argc, char **argv)
{
	static char buf[1 << 20];
	long len, ret;

	if (argc < 3)
		return 2;
	len = atol(argv[2]);
	if (len > (long)sizeof(buf))
		len = sizeof(buf);
	ret = sys_syslog(atoi(argv[1]), buf, len);
	if (ret < 0) {
		print_err(errno);
		return 1;
	}
	fwrite(buf, 1, ret, stdout);
	return 0;
}

static int cmd_newns(int argc, char **argv)
{
	const char *tag;

	if (argc < 3)
		return 2;
	tag = strcmp(argv[1], "-") ? argv[1] : NULL;
	if (syslog_ns_new(tag, atol(argv[2])))
		print_err(errno);
	else
		printf("0\n");
	return 0;
}

/* Every record readable now from @fd, one line each (text up to '\n'). */
static void dump_kmsg(int fd)
{
	char buf[8192];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE) {
			printf("EPIPE\n");
			continue;
		}
		if (n <= 0)
			break;
		buf[n] = '\0';
		fputs(buf, stdout);
	}
}

static int cmd_kmsg(int argc, char **argv)
{
	int fd;

	if (argc > 1) {
		fd = atoi(argv[1]);
		if (fcntl(fd, F_SETFL, O_NONBLOCK))
			die("fcntl", 1);
	} else {
		fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			print_err(errno);
			return 1;
		}
	}
	dump_kmsg(fd);
	return 0;
}

static int cmd_proc_kmsg(void)
{
	char buf[8192];
	ssize_t n;
	int fd;

	fd = open("/proc/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		print_err(errno);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	if (n < 0 && errno != EAGAIN)
		print_err(errno);
	close(fd);
	return 0;
}

static int cmd_hold(int argc, char **argv)
{
	int fd;

	if (argc < 2)
		return 2;
	fd = open("/dev/kmsg", O_RDWR | O_NONBLOCK);
	if (fd < 0)
		die("open /dev/kmsg", 1);
	if (write(fd, argv[1], strlen(argv[1])) < 0)
		die("write /dev/kmsg", 1);
	/* Leave the namespace: only the open file still refers to it. */
	if (syslog_ns_new("other", 0))
		die("new syslog namespace", 1);
	dump_kmsg(fd);
	close(fd);
	return 0;
}

static int cmd_poll(int argc, char **argv)
{
	struct pollfd p = { .events = POLLIN | POLLPRI | POLLRDNORM };

	if (argc < 2)
		return 2;
	p.fd = atoi(argv[1]);
	if (poll(&p, 1, 0) < 0)
		die("poll", 1);
	printf("%s%s%s%s\n", p.revents & POLLIN ? "IN " : "",
	       p.revents & POLLPRI ? "PRI " : "",
	       p.revents & POLLERR ? "ERR " : "",
	       p.revents & POLLRDNORM ? "RDNORM" : "");
	return 0;
}

static int cmd_churn(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 100, status;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			die("fork", 1);
		if (!pid) {
			int a, b;

			if (syslog_ns_new(NULL, 4096))
				_exit(1);
			a = open("/dev/kmsg", O_RDWR);
			b = open("/proc/kmsg", O_RDONLY | O_NONBLOCK);
			if (a < 0 || b < 0 || write(a, "<6>churn\n", 9) != 9)
				_exit(2);
			/* exit with both files open: the last put is fput's */
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("failed at %d\n", i);
			return 1;
		}
	}
	printf("done %d\n", n);
	return 0;
}

static int cmd_setns(int argc, char **argv)
{
	int fd;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		die(argv[1], 1);
	if (setns(fd, argc > 2 ? (int)strtol(argv[2], NULL, 0) : 0))
		print_err(errno);
	else
		printf("0\n");
	close(fd);
	return 0;
}

static unsigned long inode_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		die("fstat", 1);
	return (unsigned long)st.st_ino;
}

static int cmd_parents(int argc, char **argv)
{
	int fd, parent;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		die(argv[1], 1);
	while ((parent = ioctl(fd, NS_GET_PARENT)) >= 0) {
		printf("%lu ", inode_of(parent));
		close(fd);
		fd = parent;
	}
	print_err(errno);
	close(fd);
	return 0;
}

/*
 * owner: NS_GET_USERNS, the owner's inode number; nstype: NS_GET_NSTYPE,
 * in hex.  Either prints the errno name if the ioctl fails.
 */
static int cmd_ns_ioctl(int argc, char **argv, unsigned long req)
{
	int fd, ret;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		die(argv[1], 1);
	ret = ioctl(fd, req);
	if (ret < 0) {
		print_err(errno);
	} else if (req == NS_GET_USERNS) {
		printf("%lu\n", inode_of(ret));
		close(ret);
	} else {
		printf("0x%x\n", ret);
	}
	close(fd);
	return 0;
}

static int cmd_sysctl(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	if (syslog_ns_sysctl(argv[1], argv[2]))
		print_err(errno);
	else
		printf("0\n");
	return 0;
}

static int cmd_clone3(int argc, char **argv)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	int status;
	long pid;

	if (argc < 3)
		return 2;
	args.flags = strtoull(argv[1], NULL, 16);
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0) {
		print_err(errno);
		return 0;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid", 1);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int cmd_pidfd_setns(int argc, char **argv)
{
	int pidfd;

	if (argc < 4)
		return 2;
	pidfd = syscall(SYS_pidfd_open, atoi(argv[1]), 0);
	if (pidfd < 0)
		die("pidfd_open", 1);
	if (setns(pidfd, strtoul(argv[2], NULL, 16))) {
		print_err(errno);
		return 0;
	}
	close(pidfd);
	execvp(argv[3], argv + 3);
	die(argv[3], 127);
	return 127;
}

static int cmd_flood(int argc, char **argv)
{
	int files, lines, i, j, ok = 0, *fds;
	char line[512];

	if (argc < 5)
		return 2;
	files = atoi(argv[2]);
	lines = atoi(argv[3]);
	if (files <= 0 || lines <= 0)
		return 2;
	if (prctl(PR_SET_NAME, argv[1], 0, 0, 0))
		die("prctl", 0);
	fds = calloc(files, sizeof(*fds));
	if (!fds)
		die("calloc", 0);
	for (i = 0; i < files; i++) {
		fds[i] = open("/dev/kmsg", O_WRONLY);
		if (fds[i] < 0)
			die("/dev/kmsg", 0);
	}
	for (i = 0; i < files; i++) {
		for (j = 0; j < lines; j++) {
			int n = snprintf(line, sizeof(line), "<3>%s %d\n",
					 argv[4], i * lines + j);

			if (write(fds[i], line, n) == n)
				ok++;
		}
	}
	for (i = 0; i < files; i++)
		close(fds[i]);
	free(fds);
	printf("%d\n", ok);
	return 0;
}

static int cmd_udp(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd;

	if (argc < 2)
		return 2;
	sa.sin_port = htons(atoi(argv[1]));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || sendto(fd, "x", 1, 0, (struct sockaddr *)&sa,
			     sizeof(sa)) != 1) {
		print_err(errno);
		return 1;
	}
	close(fd);
	printf("sent\n");
	return 0;
}

/* Slab + VmallocUsed + Percpu from /proc/meminfo, in KiB. */
static long kernel_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char key[64];
	long v, sum = 0;

	if (!f)
		die("/proc/meminfo", 0);
	while (fscanf(f, "%63s %ld%*[^\n]", key, &v) == 2) {
		if (!strcmp(key, "Slab:") || !strcmp(key, "VmallocUsed:") ||
		    !strcmp(key, "Percpu:"))
			sum += v;
	}
	fclose(f);
	return sum;
}

/* SIGTERM ends quota's HOLD early; the children are still killed. */
static void on_term(int sig)
{
	(void)sig;
}

static int cmd_quota(int argc, char **argv)
{
	int n, i, created = 0, first = 0, p[2];
	long size, before, after;
	pid_t *pids;

	if (argc < 3)
		return 2;
	n = atoi(argv[1]);
	size = atol(argv[2]);
	if (n <= 0 || pipe(p))
		return 2;
	pids = calloc(n, sizeof(*pids));
	if (!pids)
		die("calloc", 0);
	before = kernel_kib();
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork", 0);
		if (!pids[i]) {
			int e = 0;

			close(p[0]);
			if (syslog_ns_new(NULL, size))
				e = errno;
			if (write(p[1], &e, sizeof(e)) != sizeof(e))
				_exit(1);
			if (e)
				_exit(0);
			for (;;)
				pause();
		}
	}
	close(p[1]);
	for (i = 0; i < n; i++) {
		int e;

		if (read(p[0], &e, sizeof(e)) != sizeof(e))
			die("pipe", 0);
		if (!e)
			created++;
		else if (!first)
			first = e;
	}
	after = kernel_kib();
	printf("created %d\n", created);
	if (first)
		print_err(first);
	else
		printf("none\n");
	printf("kib %ld\n", after - before);
	if (argc > 3) {
		signal(SIGTERM, on_term);
		sleep(atoi(argv[3]));
	}
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	free(pids);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: klogns exec|rc|read|newns|kmsg|"
			"proc-kmsg|hold|poll|churn|setns|parents|owner|nstype|sysctl|"
			"clone3|pidfd-setns|flood|udp|quota ...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "exec"))
		return cmd_exec(argc - 1, argv + 1);
	if (!strcmp(argv[1], "rc"))
		return cmd_rc(argc - 1, argv + 1);
	if (!strcmp(argv[1], "read"))
		return cmd_read(argc - 1, argv + 1);
	if (!strcmp(argv[1], "newns"))
		return cmd_newns(argc - 1, argv + 1);
	if (!strcmp(argv[1], "kmsg"))
		return cmd_kmsg(argc - 1, argv + 1);
	if (!strcmp(argv[1], "proc-kmsg"))
		return cmd_proc_kmsg();
	if (!strcmp(argv[1], "hold"))
		return cmd_hold(argc - 1, argv + 1);
	if (!strcmp(argv[1], "poll"))
		return cmd_poll(argc - 1, argv + 1);
	if (!strcmp(argv[1], "churn"))
		return cmd_churn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "setns"))
		return cmd_setns(argc - 1, argv + 1);
	if (!strcmp(argv[1], "parents"))
		return cmd_parents(argc - 1, argv + 1);
	if (!strcmp(argv[1], "owner"))
		return cmd_ns_ioctl(argc - 1, argv + 1, NS_GET_USERNS);
	if (!strcmp(argv[1], "nstype"))
		return cmd_ns_ioctl(argc - 1, argv + 1, NS_GET_NSTYPE);
	if (!strcmp(argv[1], "sysctl"))
		return cmd_sysctl(argc - 1, argv + 1);
	if (!strcmp(argv[1], "clone3"))
		return cmd_clone3(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pidfd-setns"))
		return cmd_pidfd_setns(argc - 1, argv + 1);
	if (!strcmp(argv[1], "flood"))
		return cmd_flood(argc - 1, argv + 1);
	if (!strcmp(argv[1], "udp"))
		return cmd_udp(argc - 1, argv + 1);
	if (!strcmp(argv[1], "quota"))
		return cmd_quota(argc - 1, argv + 1);
	fprintf(stderr, "klogns: unknown command %s\n", argv[1]);
	return 2;
}
