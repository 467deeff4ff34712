// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * syslogns - run a program in a new syslog namespace, enter one, list
 * them, read one's log (docs/man/syslogns.1.md).
 *
 *   syslogns run [-t TAG] [-s SIZE] [--net] [--user] [--] [CMD...]
 *   syslogns enter PID|NSFILE [--] [CMD...]
 *   syslogns list [--json] [--noheadings]
 *   syslogns dmesg PID|NSFILE|TAG [DMESG-OPTION...]
 *
 * The kernel interface is docs/kernel-interface.md: CLONE_NEWSYSLOG
 * (0x40) for unshare(2) and setns(2), /proc/PID/ns/syslog, the
 * namespace's own kernel.syslog_ns_tag, kernel.syslog_ns_size and
 * kernel.syslog_ns_stats, and the nsfs ioctls.  Every failure of
 * syslogns itself is a message naming its cause on stderr and exit
 * status 1.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWSYSLOG
#define CLONE_NEWSYSLOG 0x00000040
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))

#ifndef SYSLOGNS_VERSION
#define SYSLOGNS_VERSION "unknown"
#endif

/* The initial syslog namespace's inode number (PROC_SYSLOG_INIT_INO). */
#define INIT_INO 4026531830UL
#define TAG_MAX 31
#define SYSLOG_ACTION_SIZE_BUFFER 10

#define SYSCTL_TAG "/proc/sys/kernel/syslog_ns_tag"
#define SYSCTL_SIZE "/proc/sys/kernel/syslog_ns_size"
#define SYSCTL_STATS "/proc/sys/kernel/syslog_ns_stats"
#define SYSCTL_MAX_SIZE "/proc/sys/kernel/syslog_ns_max_size"
#define SYSCTL_MAX_NS "/proc/sys/user/max_syslog_namespaces"

#define NO_FEATURE "kernel has no syslog namespaces (CONFIG_SYSLOG_NS)"
#define NEED_ADMIN \
	"need CAP_SYS_ADMIN over the namespace's owner user namespace"

static const char *cmdname = "syslogns";

static void __noreturn __printf(1, 2) fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "syslogns: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILURE);
}

/* A usage error: the message, then where the help is. */
static void __noreturn __printf(1, 2) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cmdname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", cmdname);
	exit(EXIT_FAILURE);
}

/* getopt_long()'s '?' or ':' for @argv: which option, and what is wrong. */
static void __noreturn bad_option(char **argv, int c)
{
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2);

	if (c == ':' && is_long)
		usage_error("option '%s' needs an argument", arg);
	if (c == ':')
		usage_error("option '-%c' needs an argument", optopt);
	if (optopt && !is_long)
		usage_error("unknown option '-%c'", optopt);
	usage_error("unknown option '%s'", arg);
}

/* --- small helpers --------------------------------------------------------- */

/* Read up to @len - 1 bytes of @path into @buf: the length, or -1. */
static ssize_t read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	e = errno;
	close(fd);
	errno = e;
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The first line of a small file as a number, or -1. */
static long read_number(const char *path)
{
	char buf[64], *end;
	long v;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v < 0)
		return -1;
	return v;
}

/* 1: the kernel has syslog namespaces, 0: it has none, -1: cannot tell. */
static int have_syslog_ns(void)
{
	struct stat st;

	if (!lstat("/proc/self/ns/syslog", &st))
		return 1;
	if (errno == ENOENT && !lstat("/proc/self/ns", &st))
		return 0;
	return -1;
}

static void require_syslog_ns(void)
{
	if (have_syslog_ns() == 0)
		fail(NO_FEATURE);
}

static bool valid_tag(const char *tag)
{
	size_t i, n = strlen(tag);

	if (n < 1 || n > TAG_MAX)
		return false;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)tag[i]) && !strchr("._-", tag[i]))
			return false;
	}
	return true;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
	}
	return true;
}

/* A PID argument: all digits, 1 .. INT_MAX. */
static pid_t parse_pid(const char *s)
{
	unsigned long v;

	errno = 0;
	v = strtoul(s, NULL, 10);
	if (!all_digits(s) || errno || v < 1 || v > INT_MAX)
		usage_error("invalid PID '%s'", s);
	return (pid_t)v;
}

/*
 * A ring size: bytes, or with a K, KiB, M or MiB suffix.  0 is the
 * kernel's default.  Up to UINT_MAX (the sysctl is an unsigned int).
 */
static unsigned long parse_size(const char *s)
{
	unsigned long long v, mult = 1;
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno)
		goto bad;
	if (!strcmp(end, "K") || !strcmp(end, "k") || !strcmp(end, "KiB"))
		mult = 1024;
	else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
		mult = 1024 * 1024;
	else if (*end)
		goto bad;
	if (v > UINT_MAX / mult)
		goto bad;
	return (unsigned long)(v * mult);
bad:
	usage_error("invalid size '%s': a number of bytes, optionally with K or M",
		    s);
}

static const char *nstype_name(int type)
{
	switch (type) {
	case CLONE_NEWNS: return "mount";
	case CLONE_NEWUTS: return "uts";
	case CLONE_NEWIPC: return "ipc";
	case CLONE_NEWUSER: return "user";
	case CLONE_NEWPID: return "pid";
	case CLONE_NEWNET: return "net";
	case CLONE_NEWCGROUP: return "cgroup";
	case CLONE_NEWTIME: return "time";
	case CLONE_NEWSYSLOG: return "syslog";
	default: return "unknown";
	}
}

static unsigned long ino_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return 0;
	return (unsigned long)st.st_ino;
}

/*
 * The owner of the namespace open at @fd: its user namespace's inode
 * number and that user namespace's owner's uid.  0, or -1 with errno set
 * (EPERM: the owner is outside the caller's user namespace).
 */
static int ns_owner(int fd, unsigned long *userns, uid_t *uid)
{
	int ufd, e;

	ufd = ioctl(fd, NS_GET_USERNS);
	if (ufd < 0)
		return -1;
	*userns = ino_of(ufd);
	if (ioctl(ufd, NS_GET_OWNER_UID, uid)) {
		e = errno;
		close(ufd);
		errno = e;
		return -1;
	}
	close(ufd);
	return 0;
}

/* " (owner: user namespace N of uid U)" for a message, or "". */
static const char *owner_note(int fd)
{
	static char note[96];
	unsigned long userns;
	uid_t uid;

	note[0] = '\0';
	if (fd >= 0 && !ns_owner(fd, &userns, &uid))
		snprintf(note, sizeof(note),
			 " (its owner: user namespace %lu of uid %u)", userns,
			 (unsigned int)uid);
	return note;
}

/* --- a namespace named on the command line ---------------------------------- */

struct target {
	const char *arg;	/* as given */
	pid_t pid;		/* a PID target, else 0 */
	int pidfd;		/* its pidfd, -1 without pidfd_open() */
	int fd;			/* an open syslog namespace file, or -1 */
};

/* Open /proc/PID/ns/syslog, or fail naming the cause. */
static int open_proc_ns(pid_t pid)
{
	char path[64], dir[32];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/syslog", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT) {
		snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
		if (stat(dir, &st))
			fail("no such process: %d", (int)pid);
		if (have_syslog_ns() == 0)
			fail(NO_FEATURE);
		fail("process %d has no syslog namespace (it is exiting)",
		     (int)pid);
	}
	if (errno == EACCES || errno == EPERM)
		fail("cannot open %s: %s (need ptrace access to process %d)",
		     path, strerror(errno), (int)pid);
	fail("cannot open %s: %s", path, strerror(errno));
}

/* Check that @fd (opened from @path) is a syslog namespace file. */
static void check_ns_file(int fd, const char *path)
{
	int type;

	type = ioctl(fd, NS_GET_NSTYPE);
	if (type < 0)
		fail("%s is not a namespace file", path);
	if (type != CLONE_NEWSYSLOG)
		fail("%s is a %s namespace, not a syslog namespace", path,
		     nstype_name(type));
}

static void open_pid_target(struct target *t)
{
	/* a pidfd is close-on-exec */
	t->pidfd = syscall(SYS_pidfd_open, t->pid, 0);
	if (t->pidfd >= 0)
		return;
	if (errno == ESRCH)
		fail("no such process: %d", (int)t->pid);
	/* no pidfd_open() (before 5.3, or filtered): the ns file */
	t->fd = open_proc_ns(t->pid);
}

static void open_file_target(struct target *t)
{
	size_t n = strlen(t->arg);

	t->fd = open(t->arg, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0) {
		if (errno == ENOENT && n >= 10 &&
		    !strcmp(t->arg + n - 10, "/ns/syslog") &&
		    have_syslog_ns() == 0)
			fail(NO_FEATURE);
		if (errno == ENOENT)
			fail("no such file: %s", t->arg);
		fail("cannot open %s: %s", t->arg, strerror(errno));
	}
	check_ns_file(t->fd, t->arg);
}

static void __noreturn fail_setns(struct target *t, int e)
{
	const char *what = t->arg;

	char path[64];

	if (e == EPERM) {
		if (t->fd < 0 && t->pid) {
			snprintf(path, sizeof(path), "/proc/%d/ns/syslog",
				 (int)t->pid);
			t->fd = open(path, O_RDONLY | O_CLOEXEC);
		}
		fail("cannot enter the syslog namespace of %s: %s%s and in your own user namespace",
		     what, NEED_ADMIN, owner_note(t->fd));
	}
	if (e == ESRCH)
		fail("no such process: %s (it exited)", what);
	if (e == EINVAL && have_syslog_ns() == 0)
		fail(NO_FEATURE);
	fail("cannot enter the syslog namespace of %s: %s", what, strerror(e));
}

/*
 * Move into @t's syslog namespace: by pidfd where the kernel takes
 * CLONE_NEWSYSLOG for one, else through the namespace file.
 */
static void join_target(struct target *t)
{
	if (t->pidfd >= 0) {
		if (!setns(t->pidfd, CLONE_NEWSYSLOG))
			return;
		if (errno != EINVAL)
			fail_setns(t, errno);
		/* EINVAL: not by pidfd on this kernel; try the ns file */
	}
	if (t->fd < 0)
		t->fd = open_proc_ns(t->pid);
	if (setns(t->fd, CLONE_NEWSYSLOG))
		fail_setns(t, errno);
}

/* --- the namespaces on the system (list, and dmesg by tag) ------------------ */

enum { TAG_UNKNOWN, TAG_NONE, TAG_SET };

/*
 * The counters of kernel.syslog_ns_stats, in the file's order (the kernel
 * only ever appends new ones).  STATS_NONE: the namespace has no such
 * file (the initial namespace, whose counters are printk's own, or a
 * kernel without it); STATS_UNKNOWN: it could not be read.
 */
enum { ST_HELD, ST_STORED, ST_OVERWRITTEN, ST_RATELIMITED, ST_SENT,
	ST_REFUSED, NSTATS };
enum { STATS_UNKNOWN, STATS_NONE, STATS_SET };

struct nsinfo {
	unsigned long ino;
	int fd;			/* an open namespace file, or -1 */
	unsigned long parent;	/* 0: none, or not visible */
	unsigned long userns;	/* 0: not visible */
	uid_t uid;
	int nprocs;
	pid_t pid;		/* the lowest PID in it, 0: none */
	int tag_state;
	char tag[TAG_MAX + 2];
	long size;		/* -1: unknown */
	int stats_state;
	unsigned long long stats[NSTATS];
	int err;		/* why tag and size are unknown (errno), or 0 */
};

struct nslist {
	struct nsinfo *v;
	size_t n, cap;
};

static struct nsinfo *ns_find(struct nslist *l, unsigned long ino)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (l->v[i].ino == ino)
			return &l->v[i];
	}
	return NULL;
}

static struct nsinfo *ns_add(struct nslist *l, unsigned long ino, int fd)
{
	struct nsinfo *ns;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			fail("out of memory");
	}
	ns = &l->v[l->n++];
	memset(ns, 0, sizeof(*ns));
	ns->ino = ino;
	ns->fd = fd;
	ns->size = -1;
	return ns;
}

/* Every process's /proc/PID/ns/syslog, as lsns(8) scans them. */
static void scan_procs(struct nslist *l)
{
	char path[64];
	struct dirent *d;
	struct nsinfo *ns;
	struct stat st;
	DIR *dir;
	pid_t pid;
	int fd;

	dir = opendir("/proc");
	if (!dir)
		fail("cannot read /proc: %s", strerror(errno));
	while ((d = readdir(dir))) {
		if (!all_digits(d->d_name))
			continue;
		pid = (pid_t)atoi(d->d_name);
		snprintf(path, sizeof(path), "/proc/%d/ns/syslog", (int)pid);
		/* another user's process (EACCES), or gone: not counted */
		if (stat(path, &st))
			continue;
		ns = ns_find(l, st.st_ino);
		if (!ns) {
			fd = open(path, O_RDONLY | O_CLOEXEC);
			/* the PID may have been reused meanwhile */
			if (fd >= 0 && ino_of(fd) != st.st_ino) {
				close(fd);
				fd = -1;
			}
			ns = ns_add(l, st.st_ino, fd);
		}
		ns->nprocs++;
		if (!ns->pid || pid < ns->pid)
			ns->pid = pid;
	}
	closedir(dir);
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/* Namespace files bind-mounted in this mount namespace (nsfs mounts). */
static void scan_mounts(struct nslist *l)
{
	char *line = NULL, *sep, root[64], point[4096], fstype[32];
	unsigned long ino;
	size_t cap = 0;
	FILE *f;
	int fd;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		/* ID PARENT MAJ:MIN ROOT POINT OPTS [FIELDS...] - FSTYPE ... */
		if (sscanf(line, "%*d %*d %*s %63s %4095s", root, point) != 2)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%31s", fstype) != 1 ||
		    strcmp(fstype, "nsfs") ||
		    sscanf(root, "syslog:[%lu]", &ino) != 1 || ns_find(l, ino))
			continue;
		unescape(point);
		fd = open(point, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (ino_of(fd) != ino) {
			close(fd);
			continue;
		}
		ns_add(l, ino, fd);
	}
	free(line);
	fclose(f);
}

/* Parents by NS_GET_PARENT, adding those not found otherwise; owners. */
static void scan_relations(struct nslist *l)
{
	unsigned long ino;
	struct nsinfo *ns;
	size_t i;
	int pfd;

	/* l->n grows as parents are found: they are walked too */
	for (i = 0; i < l->n; i++) {
		ns = &l->v[i];
		if (ns->fd < 0)
			continue;
		if (ns_owner(ns->fd, &ns->userns, &ns->uid))
			ns->userns = 0;
		pfd = ioctl(ns->fd, NS_GET_PARENT);
		if (pfd < 0)
			continue;
		ino = ino_of(pfd);
		l->v[i].parent = ino;
		if (ns_find(l, ino))
			close(pfd);
		else
			ns_add(l, ino, pfd);
	}
}

/* What a child process in the namespace reads. */
struct ns_query {
	int err;		/* setns()'s errno, or 0 */
	int tag_state;
	char tag[TAG_MAX + 2];
	long size;
	int stats_state;
	unsigned long long stats[NSTATS];
};

/* kernel.syslog_ns_stats of the caller's namespace into @st: STATS_*. */
static int read_stats(unsigned long long *st)
{
	char buf[256];

	if (read_file(SYSCTL_STATS, buf, sizeof(buf)) < 0)
		return errno == ENOENT ? STATS_NONE : STATS_UNKNOWN;
	if (sscanf(buf, "%llu %llu %llu %llu %llu %llu", &st[ST_HELD],
		   &st[ST_STORED], &st[ST_OVERWRITTEN], &st[ST_RATELIMITED],
		   &st[ST_SENT], &st[ST_REFUSED]) != NSTATS)
		return STATS_UNKNOWN;
	return STATS_SET;
}

static void query_in_ns(struct nsinfo *ns, unsigned long self,
			struct ns_query *q)
{
	char buf[TAG_MAX + 8];
	ssize_t n;

	q->tag_state = TAG_UNKNOWN;
	q->size = -1;
	if (ns->ino != self && setns(ns->fd, CLONE_NEWSYSLOG)) {
		q->err = errno;
		return;
	}
	n = read_file(SYSCTL_TAG, buf, sizeof(buf));
	if (n >= 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (strlen(buf) > TAG_MAX) {
			q->tag_state = TAG_UNKNOWN;
		} else {
			memcpy(q->tag, buf, strlen(buf) + 1);
			q->tag_state = buf[0] ? TAG_SET : TAG_NONE;
		}
	} else if (errno == ENOENT && ns->ino == INIT_INO) {
		q->tag_state = TAG_NONE;	/* the host is never tagged */
	}
	q->size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (q->size < 0)
		q->size = read_number(SYSCTL_SIZE);
	q->stats_state = read_stats(q->stats);
}

/*
 * The tag, ring size and counters of every namespace with an open file:
 * each read by a child process that setns()es into it (the sysctls and
 * syslog(2) answer for the caller's own namespace only).
 */
static void query_all(struct nslist *l)
{
	unsigned long self = 0;
	struct ns_query q;
	struct stat st;
	size_t i;
	pid_t pid;
	int p[2];

	if (!stat("/proc/self/ns/syslog", &st))
		self = st.st_ino;
	fflush(NULL);
	for (i = 0; i < l->n; i++) {
		struct nsinfo *ns = &l->v[i];

		if (ns->fd < 0)
			continue;
		if (pipe2(p, O_CLOEXEC))
			fail("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (!pid) {
			memset(&q, 0, sizeof(q));
			query_in_ns(ns, self, &q);
			_exit(write(p[1], &q, sizeof(q)) == sizeof(q) ? 0 : 1);
		}
		close(p[1]);
		if (read(p[0], &q, sizeof(q)) == sizeof(q)) {
			ns->err = q.err;
			ns->tag_state = q.tag_state;
			memcpy(ns->tag, q.tag, sizeof(ns->tag));
			ns->size = q.size;
			ns->stats_state = q.stats_state;
			memcpy(ns->stats, q.stats, sizeof(ns->stats));
		}
		close(p[0]);
		waitpid(pid, NULL, 0);
	}
}

static int by_ino(const void *a, const void *b)
{
	const struct nsinfo *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Every syslog namespace this process can see, with what it can read. */
static void collect(struct nslist *l)
{
	require_syslog_ns();
	scan_procs(l);
	if (!l->n)
		fail("no /proc/PID/ns/syslog readable (is /proc mounted?)");
	scan_mounts(l);
	scan_relations(l);
	query_all(l);
	qsort(l->v, l->n, sizeof(*l->v), by_ino);
}

static void free_list(struct nslist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (l->v[i].fd >= 0)
			close(l->v[i].fd);
	}
	free(l->v);
}

/* --- run ------------------------------------------------------------------- */

static void exec_cmd(char **argv)
{
	char *shell[2] = { NULL, NULL };

	if (!*argv) {
		shell[0] = getenv("SHELL");
		if (!shell[0] || !*shell[0])
			shell[0] = "/bin/sh";
		argv = shell;
	}
	execvp(argv[0], argv);
	fail("cannot execute %s: %s", argv[0], strerror(errno));
}

static void write_proc(const char *path, const char *text)
{
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fail("cannot write %s: %s", path, strerror(errno));
	close(fd);
}

/* With --user: the caller is root in its new user namespace (unshare -r). */
static void map_root(uid_t uid, gid_t gid)
{
	char map[64];

	write_proc("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)uid);
	write_proc("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)gid);
	write_proc("/proc/self/gid_map", map);
}

static void __noreturn fail_unshare(int e, bool user, bool net)
{
	char limit[32];
	long max;

	/*
	 * Without syslog namespaces 0x40 is an unknown flag: EINVAL (or
	 * EPERM where a seccomp filter refuses unshare() first).
	 */
	if (have_syslog_ns() == 0 || (e == EINVAL && have_syslog_ns() < 0))
		fail(NO_FEATURE);
	switch (e) {
	case EPERM:
		if (user)
			fail("cannot create a syslog namespace: the kernel refused a new user namespace (%s; unprivileged user namespaces disabled?)",
			     strerror(e));
		fail("cannot create a syslog namespace: need CAP_SYS_ADMIN in the user namespace that will own it (run as root, or with --user)");
	case ENOSPC:
		max = read_number(SYSCTL_MAX_NS);
		snprintf(limit, sizeof(limit), max >= 0 ? " (%ld)" : "", max);
		fail("cannot create a syslog namespace: user.max_syslog_namespaces%s reached, or the tree is 32 levels deep%s%s",
		     limit, user ? "; or user.max_user_namespaces" : "",
		     net ? "; or user.max_net_namespaces" : "");
	case ENOMEM:
		fail("cannot create a syslog namespace: out of kernel memory");
	}
	fail("cannot create a syslog namespace: unshare: %s", strerror(e));
}

/*
 * Write @val to the new namespace's @path (kernel.syslog_ns_tag, or with
 * @size kernel.syslog_ns_size), or fail naming the cause.  @dflt is the
 * ring's size before the write (-1: unknown).
 */
static void set_sysctl(const char *path, const char *what, const char *val,
		       bool size, long dflt)
{
	ssize_t n;
	long max;
	int fd, e;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			fail("cannot set the %s: no %s (is /proc mounted?)", what,
			     path);
		if (errno == EACCES)
			fail("cannot set the %s: %s is not yours: it belongs to the root of the namespace's owner user namespace",
			     what, path);
		fail("cannot set the %s: %s: %s", what, path, strerror(errno));
	}
	n = write(fd, val, strlen(val));
	e = errno;
	close(fd);
	if (n == (ssize_t)strlen(val))
		return;
	if (n >= 0)
		fail("cannot set the %s: short write to %s", what, path);
	switch (e) {
	case EBUSY:
		fail("cannot set the %s: the namespace has already logged (tag and size can change only before its first record)",
		     what);
	case EPERM:
		if (size && dflt > 0 &&
		    strtoul(val, NULL, 10) > (unsigned long)dflt)
			fail("cannot set the %s to %s: a ring above the default (%ld bytes) needs CAP_SYS_ADMIN in the initial user namespace",
			     what, val, dflt);
		fail("cannot set the %s: %s", what, NEED_ADMIN);
	case EINVAL:
		max = read_number(SYSCTL_MAX_SIZE);
		if (size && max > 0)
			fail("cannot set the %s to %s: above kernel.syslog_ns_max_size (%ld)",
			     what, val, max);
		fail("cannot set the %s to '%s': %s", what, val, strerror(e));
	case ENOMEM:
		fail("cannot set the %s to %s: no memory for the ring", what,
		     val);
	}
	fail("cannot set the %s: %s: %s", what, path, strerror(e));
}

static void usage_run(void)
{
	printf("Usage:\n"
	       " syslogns run [options] [--] [<program> [<argument>...]]\n"
	       "\n"
	       "Run a program (default $SHELL or /bin/sh) in a new syslog namespace.\n"
	       "\n"
	       "Options:\n"
	       " -t, --tag <tag>    the namespace's tag: 1 to 31 of [A-Za-z0-9._-]\n"
	       " -s, --size <size>  its ring size in bytes (K and M suffixes);\n"
	       "                    rounded up to a power of two of at least 4096\n"
	       " -n, --net          a new network namespace too, bound to it\n"
	       " -U, --user         a new user namespace too, owning it; the caller\n"
	       "                    is mapped to root in it\n"
	       " -h, --help         display this help\n");
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tag", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "net", no_argument, NULL, 'n' },
		{ "user", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *tag = NULL, *size_arg = NULL;
	bool user = false, net = false;
	unsigned long size = 0;
	char num[32];
	int flags, c;
	long dflt;
	uid_t uid;
	gid_t gid;

	while ((c = getopt_long(argc, argv, "+:t:s:nUh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tag = optarg;
			if (!valid_tag(tag))
				usage_error("invalid tag '%s': 1 to 31 characters of [A-Za-z0-9._-]",
					    tag);
			break;
		case 's':
			size_arg = optarg;
			size = parse_size(optarg);
			break;
		case 'n':
			net = true;
			break;
		case 'U':
			user = true;
			break;
		case 'h':
			usage_run();
			return 0;
		default:
			bad_option(argv, c);
		}
	}

	uid = geteuid();
	gid = getegid();
	flags = CLONE_NEWSYSLOG | (user ? CLONE_NEWUSER : 0) |
		(net ? CLONE_NEWNET : 0);
	/* one call: a new netns is bound to a syslog namespace made with it */
	if (unshare(flags))
		fail_unshare(errno, user, net);
	if (user)
		map_root(uid, gid);
	if (tag)
		set_sysctl(SYSCTL_TAG, "tag", tag, false, -1);
	if (size_arg) {
		dflt = read_number(SYSCTL_SIZE);
		snprintf(num, sizeof(num), "%lu", size);
		set_sysctl(SYSCTL_SIZE, "ring size", num, true, dflt);
	}
	exec_cmd(argv + optind);
	return EXIT_FAILURE;
}

/* --- enter ----------------------------------------------------------------- */

static void usage_enter(void)
{
	printf("Usage:\n"
	       " syslogns enter <pid>|<nsfile> [--] [<program> [<argument>...]]\n"
	       "\n"
	       "Run a program (default $SHELL or /bin/sh) in the syslog namespace of a\n"
	       "process, or of a namespace file (/proc/PID/ns/syslog or a bind mount\n"
	       "of one).  An argument of digits only is a PID.\n"
	       "\n"
	       "Options:\n"
	       " -h, --help  display this help\n");
}

static void parse_target(struct target *t, const char *arg)
{
	memset(t, 0, sizeof(*t));
	t->arg = arg;
	t->pidfd = -1;
	t->fd = -1;
	if (all_digits(arg)) {
		t->pid = parse_pid(arg);
		open_pid_target(t);
	} else {
		open_file_target(t);
	}
}

static int cmd_enter(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct target t;
	int c;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage_enter();
			return 0;
		}
		bad_option(argv, c);
	}
	if (optind >= argc)
		usage_error("no PID or namespace file given");
	parse_target(&t, argv[optind++]);
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	join_target(&t);
	if (t.pidfd >= 0)
		close(t.pidfd);
	if (t.fd >= 0)
		close(t.fd);
	exec_cmd(argv + optind);
	return EXIT_FAILURE;
}

/* --- list ------------------------------------------------------------------ */

/* The command line of @pid (its comm in brackets for a kernel thread). */
static void command_of(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n, i;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	n = read_file(path, buf, len);
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	if (n > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i] == '\0' || buf[i] == '\n' || buf[i] == '\t')
				buf[i] = ' ';
		}
		buf[n] = '\0';
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (len > 2 && read_file(path, buf + 1, len - 2) > 0) {
		buf[0] = '[';
		buf[strcspn(buf, "\n")] = '\0';
		strcat(buf, "]");
		return;
	}
	snprintf(buf, len, "?");
}

enum { C_NS, C_PARENT, C_USERNS, C_UID, C_TAG, C_SIZE, C_HELD, C_LOST,
	C_SENT, C_REFUSED, C_NPROCS, C_PID, C_COMMAND, NCOLS };

static const char *const col_name[NCOLS] = {
	"NS", "PARENT", "USERNS", "UID", "TAG", "SIZE", "HELD", "LOST", "SENT",
	"REFUSED", "NPROCS", "PID", "COMMAND"
};

/* The counters list shows: JSON key, column, kernel.syslog_ns_stats field. */
static const struct {
	const char *key;
	int col;
	int stat;
} shown[] = {
	{ "held", C_HELD, ST_HELD },
	{ "lost", C_LOST, ST_OVERWRITTEN },
	{ "sent", C_SENT, ST_SENT },
	{ "refused", C_REFUSED, ST_REFUSED },
};

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void json_ulong(const char *key, unsigned long v, bool known)
{
	if (known)
		printf("\"%s\": %lu, ", key, v);
	else
		printf("\"%s\": null, ", key);
}

static void print_json(struct nslist *l)
{
	char cmd[4096];
	size_t i;
	int c;

	printf("{\n   \"namespaces\": [\n");
	for (i = 0; i < l->n; i++) {
		struct nsinfo *ns = &l->v[i];

		printf("      {");
		json_ulong("ns", ns->ino, true);
		json_ulong("parent", ns->parent, ns->parent);
		json_ulong("userns", ns->userns, ns->userns);
		json_ulong("uid", ns->uid, ns->userns);
		printf("\"tag\": ");
		if (ns->tag_state == TAG_UNKNOWN)
			printf("null");
		else
			json_string(ns->tag_state == TAG_SET ? ns->tag : "");
		printf(", ");
		if (ns->size >= 0)
			printf("\"size\": %ld, ", ns->size);
		else
			printf("\"size\": null, ");
		for (c = 0; c < (int)ARRAY_SIZE(shown); c++) {
			if (ns->stats_state == STATS_SET)
				printf("\"%s\": %llu, ", shown[c].key,
				       ns->stats[shown[c].stat]);
			else
				printf("\"%s\": null, ", shown[c].key);
		}
		printf("\"nprocs\": %d, ", ns->nprocs);
		json_ulong("pid", ns->pid, ns->pid);
		printf("\"command\": ");
		if (ns->pid) {
			command_of(ns->pid, cmd, sizeof(cmd));
			json_string(cmd);
		} else {
			printf("null");
		}
		printf("}%s\n", i + 1 < l->n ? "," : "");
	}
	printf("   ]\n}\n");
}

/* Numbers right-aligned, the tag and the command left-aligned. */
static bool col_left(int c)
{
	return c == C_TAG || c == C_COMMAND;
}

static void print_table(struct nslist *l, bool headings)
{
	char (*cell)[NCOLS][4096];
	size_t i, w[NCOLS] = { 0 };
	int c;

	cell = calloc(l->n, sizeof(*cell));
	if (!cell)
		fail("out of memory");
	for (i = 0; i < l->n; i++) {
		struct nsinfo *ns = &l->v[i];
		char *r[NCOLS];

		for (c = 0; c < NCOLS; c++)
			r[c] = cell[i][c];
		snprintf(r[C_NS], 4096, "%lu", ns->ino);
		snprintf(r[C_PARENT], 4096, ns->parent ? "%lu" : "-",
			 ns->parent);
		snprintf(r[C_USERNS], 4096, ns->userns ? "%lu" : "-",
			 ns->userns);
		if (ns->userns)
			snprintf(r[C_UID], 4096, "%u", (unsigned int)ns->uid);
		else
			snprintf(r[C_UID], 4096, "-");
		snprintf(r[C_TAG], 4096, "%s", ns->tag_state == TAG_SET ?
			 ns->tag : ns->tag_state == TAG_NONE ? "-" : "?");
		if (ns->size >= 0)
			snprintf(r[C_SIZE], 4096, "%ld", ns->size);
		else
			snprintf(r[C_SIZE], 4096, "?");
		for (c = 0; c < (int)ARRAY_SIZE(shown); c++) {
			char *cl = r[shown[c].col];

			if (ns->stats_state == STATS_SET)
				snprintf(cl, 4096, "%llu",
					 ns->stats[shown[c].stat]);
			else
				snprintf(cl, 4096, "%s", ns->stats_state ==
					 STATS_NONE ? "-" : "?");
		}
		snprintf(r[C_NPROCS], 4096, "%d", ns->nprocs);
		snprintf(r[C_PID], 4096, ns->pid ? "%d" : "-", (int)ns->pid);
		if (ns->pid)
			command_of(ns->pid, r[C_COMMAND], 4096);
		else
			snprintf(r[C_COMMAND], 4096, "-");
	}
	for (c = 0; c < NCOLS; c++) {
		w[c] = headings ? strlen(col_name[c]) : 0;
		for (i = 0; i < l->n; i++) {
			if (strlen(cell[i][c]) > w[c])
				w[c] = strlen(cell[i][c]);
		}
	}
	for (i = headings ? 0 : 1; i <= l->n; i++) {
		for (c = 0; c < NCOLS; c++) {
			const char *s = i ? cell[i - 1][c] : col_name[c];

			if (c == C_COMMAND)
				printf("%s\n", s);
			else if (col_left(c))
				printf("%-*s ", (int)w[c], s);
			else
				printf("%*s ", (int)w[c], s);
		}
	}
	free(cell);
}

static void usage_list(void)
{
	printf("Usage:\n"
	       " syslogns list [options]\n"
	       "\n"
	       "List the syslog namespaces: those of every process, those bind-mounted\n"
	       "here, and their ancestors.\n"
	       "\n"
	       "Options:\n"
	       " -J, --json        JSON output\n"
	       " -n, --noheadings  no header line\n"
	       " -h, --help        display this help\n"
	       "\n"
	       "Columns: NS (inode number, the id in [ns:<id>] labels), PARENT, USERNS\n"
	       "(the owner user namespace), UID (its owner), TAG (- none, ? unreadable),\n"
	       "SIZE (ring bytes, ? unreadable), HELD (records in the ring), LOST\n"
	       "(records overwritten), SENT and REFUSED (copies to the parent's log\n"
	       "sent, and refused by its budget; - for the host), NPROCS, PID (the\n"
	       "lowest), COMMAND.\n");
}

static int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool json = false, headings = true;
	struct nslist l = { 0 };
	int c;

	while ((c = getopt_long(argc, argv, "+Jnh", opts, NULL)) != -1) {
		switch (c) {
		case 'J':
			json = true;
			break;
		case 'n':
			headings = false;
			break;
		case 'h':
			usage_list();
			return 0;
		default:
			bad_option(argv, c);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	collect(&l);
	if (json)
		print_json(&l);
	else
		print_table(&l, headings);
	free_list(&l);
	return 0;
}

/* --- dmesg ----------------------------------------------------------------- */

static void usage_dmesg(void)
{
	printf("Usage:\n"
	       " syslogns dmesg [--] <pid>|<nsfile>|<tag> [<dmesg option>...]\n"
	       "\n"
	       "Run dmesg(1) with the options given in the syslog namespace of a\n"
	       "process (digits only), of a namespace file (a path with a '/'), or\n"
	       "with a tag (as 'syslogns list' shows it).\n"
	       "\n"
	       "Options:\n"
	       " -h, --help  display this help\n");
}

/* The namespace whose tag is @tag, or fail naming the cause. */
static void find_tag(struct target *t, const char *tag)
{
	struct nslist l = { 0 };
	char ids[512] = "";
	size_t i, found = 0, unread = 0, len = 0;
	int fd = -1, err = 0;

	collect(&l);
	for (i = 0; i < l.n; i++) {
		struct nsinfo *ns = &l.v[i];

		if (ns->tag_state == TAG_UNKNOWN) {
			unread++;
			err = ns->err;
			continue;
		}
		if (ns->tag_state != TAG_SET || strcmp(ns->tag, tag))
			continue;
		found++;
		if (len < sizeof(ids))
			len += snprintf(ids + len, sizeof(ids) - len, " %lu",
					ns->ino);
		if (fd < 0)
			fd = fcntl(ns->fd, F_DUPFD_CLOEXEC, 0);
	}
	free_list(&l);
	if (found > 1)
		fail("tag %s is ambiguous: namespaces%s; name one by PID or file",
		     tag, ids);
	if (found == 1) {
		t->fd = fd;
		return;
	}
	if (unread && err == EPERM)
		fail("no syslog namespace with the tag %s among those readable (%zu not: %s)",
		     tag, unread, NEED_ADMIN);
	fail("no syslog namespace with the tag %s", tag);
}

static void exec_dmesg(char **args)
{
	static const char *const paths[] = { "/bin/dmesg", "/usr/bin/dmesg" };
	size_t i;

	args[0] = "dmesg";
	execvp("dmesg", args);
	for (i = 0; errno == ENOENT && i < 2; i++)
		execv(paths[i], args);
	fail("cannot execute dmesg: %s", strerror(errno));
}

static int cmd_dmesg(int argc, char **argv)
{
	const char *arg;
	struct target t;
	int status, i;
	pid_t pid;

	i = 1;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage_dmesg();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--"))
		i++;
	if (i >= argc)
		usage_error("no PID, namespace file or tag given");
	arg = argv[i];
	if (!all_digits(arg) && !strchr(arg, '/') && !valid_tag(arg))
		usage_error("'%s' is not a PID, a namespace file (a path with a '/') or a tag",
			    arg);
	if (all_digits(arg) || strchr(arg, '/')) {
		parse_target(&t, arg);
	} else {
		memset(&t, 0, sizeof(t));
		t.arg = arg;
		t.pidfd = -1;
		find_tag(&t, arg);
	}

	fflush(NULL);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		join_target(&t);
		/* argv[i] becomes dmesg's argv[0] */
		exec_dmesg(argv + i);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			fail("waitpid: %s", strerror(errno));
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* --- main ------------------------------------------------------------------ */

static void usage(void)
{
	printf("Usage:\n"
	       " syslogns run [options] [--] [<program> [<argument>...]]\n"
	       " syslogns enter <pid>|<nsfile> [--] [<program> [<argument>...]]\n"
	       " syslogns list [--json] [--noheadings]\n"
	       " syslogns dmesg <pid>|<nsfile>|<tag> [<dmesg option>...]\n"
	       "\n"
	       "Syslog namespaces: run a program with a kernel log of its own, run\n"
	       "one in another's, list them, read one's log.\n"
	       "\n"
	       "Options:\n"
	       " -h, --help     display this help\n"
	       " -V, --version  display version\n"
	       "\n"
	       "'syslogns <command> --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	static char name[32];

	opterr = 0;
	if (argc < 2)
		usage_error("no command given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage();
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("syslogns from libklog %s\n", SYSLOGNS_VERSION);
		return 0;
	}
	snprintf(name, sizeof(name), "syslogns %s", argv[1]);
	if (!strcmp(argv[1], "run")) {
		cmdname = name;
		return cmd_run(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "enter")) {
		cmdname = name;
		return cmd_enter(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "list")) {
		cmdname = name;
		return cmd_list(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "dmesg")) {
		cmdname = name;
		return cmd_dmesg(argc - 1, argv + 1);
	}
	usage_error("unknown command '%s'", argv[1]);
}
