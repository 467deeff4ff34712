// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * klogfuzz - the in-guest system call fuzzer and fault injector of the
 * syslog namespace series (tests/guest/reliability.sh, parts 5 and 6).
 *
 * Built with "gcc -static" by tests/guest/run.sh.  Prints TAP-style
 * "ok - " / "not ok - " lines and "# " comments, as klogstress does.
 *
 *   klogfuzz run SEED WORKERS SECONDS [OPS]
 *       WORKERS processes, each a random sequence of calls drawn from its
 *       own generator (seeded by SEED and its number), until SECONDS have
 *       passed or it has made OPS calls: namespace creation (unshare,
 *       clone3, with and without CLONE_NEWUSER/CLONE_NEWNET), setns by
 *       ns file and by pidfd, every syslog(2) action with random
 *       arguments, /dev/kmsg and /proc/kmsg open/read/write/llseek/poll
 *       with random sizes and flags, the syslog sysctls with random
 *       values, the nsfs ioctls, fork (the child inherits the open files:
 *       files passed between namespaces), threads, signals sent to a
 *       blocked reader, and packets through an iptables LOG rule in a
 *       network namespace of the worker's.  A worker makes its calls in
 *       generations of GEN_OPS, each a new process, so that the namespaces
 *       it nests do not stay at the depth limit.  Every call's result must be
 *       one the interface documents (its allowed errno list below); a
 *       worker that dies of a signal, or a call that returns anything
 *       else, is a failure, named with the seed, worker and call number
 *       so that "run SEED WORKERS SECONDS OPS" replays that worker's
 *       sequence.
 *   klogfuzz faults
 *       For each entry point the series adds, fail its 1st, 2nd, ...
 *       allocation (/proc/thread-self/fail-nth, with failslab and
 *       fail_page_alloc armed through debugfs) until the call succeeds.
 *       Each injected failure must return ENOMEM (fault_errno_ok() lists
 *       the exceptions) and leave the caller as it was (same syslog
 *       namespace, same number of open files).  Prints how many failure
 *       points each entry point has.
 *   klogfuzz quota
 *       How many nested syslog namespaces this process can create before
 *       ENOSPC (user.max_syslog_namespaces): a leaked namespace or ucount
 *       charge lowers it.
 *   klogfuzz memcg CGROUP
 *       A hostile user against its memory cgroup: a child joins CGROUP
 *       (an empty cgroup2 directory with the memory controller), becomes
 *       uid 1000 in a user and syslog namespace of its own, and nests
 *       syslog namespaces (64 KiB rings, all it may have) while
 *       memory.max is its usage + 1 MiB.  The rings are charged to it,
 *       so unshare() must fail with ENOMEM before the depth limit; the
 *       failed call must leave the child in its namespace with its ring;
 *       with the limit lifted that namespace must log and one more must
 *       be possible; and once the child is gone, the cgroup's
 *       memory.current must fall back (no charge kept).  The child is
 *       exempt from the OOM killer (oom_score_adj -1000), so the
 *       kernel's charge fails instead of killing it (the kernel prints
 *       its OOM report all the same), and it touches no new user memory
 *       while the limit holds: a page fault at the limit of an
 *       unkillable task would retry forever.
 *   klogfuzz kcov-print FILE
 *       The kernel addresses in FILE (what "run", "faults" and "memcg"
 *       append to it), each once, in order, as "@kcov" lines for
 *       tests/guest/coverage.sh: "@kcov FIRST D1 D2 ...", FIRST in hex
 *       and each next address as the hex difference from the one before.
 *
 * With KLOGFUZZ_KCOV=FILE in the environment (a kernel with CONFIG_KCOV),
 * "run", "faults" and "memcg" collect the kernel code their calls run: every
 * process and thread that makes calls enables /sys/kernel/debug/kcov for
 * itself, each address is kept once in a table all of them share, and
 * the table is appended to FILE at the end.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/nsfs.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <net/if.h>
#include <unistd.h>

#include "syslog_ns.h"

#ifndef NS_GET_NSTYPE
#define NS_GET_NSTYPE _IO(NSIO, 0x3)
#endif
#ifndef NS_GET_OWNER_UID
#define NS_GET_OWNER_UID _IO(NSIO, 0x4)
#endif

/* ---- the generator: splitmix64, one per worker ------------------------- */

static __thread uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)(rnd64() % n) : 0;
}

/* ---- coverage: KCOV, every address once (MAP_SHARED) --------------------- */

#define KCOV_INIT_TRACE _IOR('c', 1, unsigned long)
#define KCOV_ENABLE _IO('c', 100)
#define KCOV_TRACE_PC 0
#define KCOV_WORDS (1 << 18)	/* addresses one call may leave */
#define COV_SLOTS (1 << 21)	/* the shared table: 16 MiB */

static const char *cov_file;	/* KLOGFUZZ_KCOV: collect, append there */
static uint64_t *cov_table;	/* open addressing, 0 = free */
static unsigned long *cov_count;
static __thread unsigned long *kcov_area;
static __thread int kcov_fd = -1;

/*
 * kcov_begin() - collect what this thread's calls run from now on.  Each
 * process and thread needs its own: KCOV follows one task, and a child
 * does not inherit it.  Without KLOGFUZZ_KCOV, or when the kernel has no
 * KCOV, it does nothing (the run does not depend on it).
 */
static void kcov_begin(void)
{
	int fd;
	void *a;

	kcov_area = NULL;
	kcov_fd = -1;
	if (!cov_table)
		return;
	fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (ioctl(fd, KCOV_INIT_TRACE, KCOV_WORDS)) {
		close(fd);
		return;
	}
	a = mmap(NULL, KCOV_WORDS * sizeof(unsigned long),
		 PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (a == MAP_FAILED || ioctl(fd, KCOV_ENABLE, KCOV_TRACE_PC)) {
		if (a != MAP_FAILED)
			munmap(a, KCOV_WORDS * sizeof(unsigned long));
		close(fd);
		return;
	}
	kcov_area = a;
	kcov_fd = fd;
	__atomic_store_n(&kcov_area[0], 0, __ATOMIC_RELAXED);
}

/*
 * kcov_end() - a thread's KCOV, given back before the thread ends: its
 * buffer and file belong to the process, which lives on.
 */
static void kcov_end(void)
{
	if (!kcov_area)
		return;
	munmap(kcov_area, KCOV_WORDS * sizeof(unsigned long));
	close(kcov_fd);
	kcov_area = NULL;
	kcov_fd = -1;
}

/* kcov_collect() - move what the thread's last calls ran to the table. */
static void kcov_collect(void)
{
	unsigned long i, n;

	if (!kcov_area)
		return;
	n = __atomic_load_n(&kcov_area[0], __ATOMIC_RELAXED);
	if (n > KCOV_WORDS - 1)
		n = KCOV_WORDS - 1;
	for (i = 1; i <= n; i++) {
		uint64_t pc = kcov_area[i], h = pc * 0x9e3779b97f4a7c15ULL;
		unsigned long j, slot = h >> (64 - 21);

		for (j = 0; j < COV_SLOTS; j++, slot = (slot + 1) % COV_SLOTS) {
			uint64_t *p = &cov_table[slot], old = 0;

			if (__atomic_load_n(p, __ATOMIC_RELAXED) == pc)
				break;
			if (__atomic_compare_exchange_n(p, &old, pc, 0,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED)) {
				__atomic_add_fetch(cov_count, 1,
						   __ATOMIC_RELAXED);
				break;
			}
			if (old == pc)
				break;
		}
	}
	__atomic_store_n(&kcov_area[0], 0, __ATOMIC_RELAXED);
}

/* cov_setup() - the shared table, before the first fork; 0 on success. */
static int cov_setup(void)
{
	cov_file = getenv("KLOGFUZZ_KCOV");
	if (!cov_file || !*cov_file)
		return 0;
	cov_table = mmap(NULL, COV_SLOTS * sizeof(uint64_t) + 64,
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			 -1, 0);
	if (cov_table == MAP_FAILED)
		return -1;
	/*
	 * Every page now, in this process's memory cgroup: the "memcg"
	 * child that fills it in must not be charged for it.
	 */
	memset(cov_table, 0, COV_SLOTS * sizeof(uint64_t) + 64);
	cov_count = (unsigned long *)(cov_table + COV_SLOTS);
	return 0;
}

/* cov_save() - append the table to KLOGFUZZ_KCOV; prints its size. */
static void cov_save(const char *what)
{
	FILE *f;
	unsigned long i;

	if (!cov_table)
		return;
	f = fopen(cov_file, "a");
	for (i = 0; f && i < COV_SLOTS; i++)
		if (cov_table[i])
			fprintf(f, "%llx\n", (unsigned long long)cov_table[i]);
	printf("# kcov: %s: %lu distinct kernel addresses%s\n", what,
	       *cov_count, f && !fclose(f) ? "" : " (not saved)");
}

/* ---- results: counters shared by every worker (MAP_SHARED) -------------- */

enum op {
	OP_UNSHARE, OP_CLONE3, OP_SETNS_FILE, OP_SETNS_PIDFD, OP_SYSLOG,
	OP_OPEN_KMSG, OP_OPEN_PROC_KMSG, OP_READ, OP_WRITE, OP_LSEEK,
	OP_POLL, OP_CLOSE, OP_FORK, OP_REAP, OP_SYSCTL, OP_NS_IOCTL,
	OP_PACKET, OP_THREADS, OP_SIGNAL, OP_N
};

static const char *const op_name[OP_N] = {
	"unshare", "clone3", "setns-file", "setns-pidfd", "syslog",
	"open-kmsg", "open-proc-kmsg", "read", "write", "llseek",
	"poll", "close", "fork", "reap", "sysctl", "ns-ioctl",
	"packet", "threads", "signal",
};

/*
 * What each call may return besides success: the errno values its
 * documentation lists (docs/kernel-interface.md, and the man pages of
 * the calls for the generic ones: EBADF on a file opened for the other
 * direction, EFAULT for a bad pointer, EINTR for the alarm that ends a
 * blocking read).  ENOMEM is allowed everywhere.
 */
static const int allowed[OP_N][12] = {
	[OP_UNSHARE] = { EINVAL, EPERM, ENOSPC, EUSERS },
	[OP_CLONE3] = { EINVAL, EPERM, ENOSPC, EUSERS, EAGAIN },
	[OP_SETNS_FILE] = { EINVAL, EPERM, ENOENT, ESRCH, EACCES },
	[OP_SETNS_PIDFD] = { EINVAL, EPERM, ESRCH },
	[OP_SYSLOG] = { EINVAL, EPERM, EFAULT, EINTR, EAGAIN },
	[OP_OPEN_KMSG] = { EPERM, EACCES },
	[OP_OPEN_PROC_KMSG] = { EPERM, EACCES },
	[OP_READ] = { EAGAIN, EINTR, EINVAL, EPIPE, EFAULT, EBADF, EPERM },
	[OP_WRITE] = { EINVAL, EBADF, EFAULT, EPERM },
	/* ENXIO: SEEK_DATA, SEEK_HOLE; EBADF: a thread closed the file */
	[OP_LSEEK] = { EINVAL, ESPIPE, ENXIO, EBADF },
	[OP_POLL] = { 0 },
	[OP_CLOSE] = { 0 },
	[OP_FORK] = { EAGAIN },
	[OP_REAP] = { ECHILD },
	[OP_SYSCTL] = { EINVAL, EPERM, EACCES, EBUSY, ENOENT, EBADF },
	[OP_NS_IOCTL] = { EPERM, ENOTTY, EINVAL, EFAULT },
	[OP_PACKET] = { ENETUNREACH, EPERM, ECONNREFUSED },
	[OP_THREADS] = { EAGAIN },
	[OP_SIGNAL] = { EAGAIN },
};

#define NERR 134	/* errno values counted (0: success) */

#define MAX_WORKERS 64

struct shared {
	unsigned long calls[OP_N][NERR];
	unsigned long bad;		/* calls with an undocumented result */
	char first_bad[256];		/* the first one, for the report */
	struct {			/* where a worker's generation ended */
		uint64_t rng;
		unsigned long call_no;
		int done;
	} gen[MAX_WORKERS];
};
static struct shared *sh;

static int seed_no, worker_no;
static unsigned long call_no;
static int trace;		/* KLOGFUZZ_TRACE=1: each call on stderr first */

#define TRACE(fmt, ...)							\
	do {								\
		if (trace)						\
			dprintf(2, "w%d.%lu " fmt "\n", worker_no,	\
				call_no, __VA_ARGS__);			\
	} while (0)

static void record(enum op op, int err)
{
	int i, ok = err == 0 || err == ENOMEM;

	kcov_collect();
	for (i = 0; !ok && i < 12 && allowed[op][i]; i++)
		ok = allowed[op][i] == err;
	__atomic_add_fetch(&sh->calls[op][err < NERR ? err : NERR - 1], 1,
			   __ATOMIC_RELAXED);
	if (!ok && __atomic_add_fetch(&sh->bad, 1, __ATOMIC_RELAXED) == 1)
		snprintf(sh->first_bad, sizeof(sh->first_bad),
			 "seed %d worker %d call %lu: %s failed with errno %d (%s), which its interface does not document",
			 seed_no, worker_no, call_no, op_name[op], err,
			 strerror(err));
}

/* A failure that is not an errno: a crashed child, a wrong answer. */
static void bad(const char *what)
{
	if (__atomic_add_fetch(&sh->bad, 1, __ATOMIC_RELAXED) == 1)
		snprintf(sh->first_bad, sizeof(sh->first_bad),
			 "seed %d worker %d call %lu: %s", seed_no, worker_no,
			 call_no, what);
}

/* ---- the worker's state ------------------------------------------------- */

#define NFD 12
static int fds[NFD];
static char buf[16384];
static char *big;		/* 1 MiB, then a page that faults */
#define BIG (1 << 20)
static ino_t init_net_ino;

static void add_fd(int fd)
{
	int i = rnd(NFD);

	if (fds[i] >= 0)
		close(fds[i]);
	fds[i] = fd;
}

static int any_fd(void)
{
	int i, start = rnd(NFD);

	for (i = 0; i < NFD; i++)
		if (fds[(start + i) % NFD] >= 0)
			return fds[(start + i) % NFD];
	return -1;
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * Interrupt whatever blocks within @ms milliseconds (no SA_RESTART), and
 * again every @ms until disarm(): a single expiry could come before the
 * call blocks (a slow guest), and the call would then block for good.
 */
static void arm(int ms)
{
	struct itimerval it = {
		.it_value = { 0, ms * 1000 },
		.it_interval = { 0, ms * 1000 },
	};

	setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm(void)
{
	struct itimerval it = { 0 };

	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * After unshare(CLONE_NEWUSER): be root in it, mapped to our uid.
 * Returns 0, or -1 with errno set by the first write that failed.
 */
static int map_root(uid_t uid, gid_t gid)
{
	static const char *const file[3] = {
		"/proc/self/setgroups", "/proc/self/uid_map",
		"/proc/self/gid_map",
	};
	char m[3][64];
	int fd, i, bad = 0;
	ssize_t n;

	snprintf(m[0], sizeof(m[0]), "deny");
	snprintf(m[1], sizeof(m[1]), "0 %u 1", uid);
	snprintf(m[2], sizeof(m[2]), "0 %u 1", gid);
	for (i = 0; i < 3; i++) {
		fd = open(file[i], O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			bad = bad ? bad : errno;	/* the first */
			continue;
		}
		n = write(fd, m[i], strlen(m[i]));
		if (n != (ssize_t)strlen(m[i]) && !bad)
			bad = n < 0 ? errno : EIO;
		close(fd);
	}
	errno = bad;
	return bad ? -1 : 0;
}

static ino_t net_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) ? 0 : st.st_ino;
}

static unsigned long ns_flags(void)
{
	unsigned long f = CLONE_NEWSYSLOG;

	if (!rnd(4))
		f |= CLONE_NEWUSER;
	if (!rnd(4))
		f |= CLONE_NEWNET;
	if (!rnd(8))
		f |= CLONE_NEWUTS;
	return f;
}

static void child_ops(int n);

static long sys_clone3(struct clone_args *ca)
{
	return syscall(SYS_clone3, ca, sizeof(*ca));
}

static int sys_pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

static pid_t some_pid(void)
{
	switch (rnd(4)) {
	case 0: return getpid();
	case 1: return getppid();
	case 2: return 1;
	default: return getpid() + 1 + (pid_t)rnd(8);
	}
}

/* A random text for /dev/kmsg: prefixes, control bytes, newlines. */
static size_t random_text(char *p, size_t max)
{
	static const char *const pre[] = {
		"", "<1>", "<7>", "<13>", "<191>", "<-1>", "<99999999>", "<",
		"<6", "\n", "\x01" "4", "<14>[ns:1] ",
	};
	size_t n = rnd(4) ? rnd(200) : rnd(max), i = 0, k;
	const char *s = pre[rnd(sizeof(pre) / sizeof(pre[0]))];

	if (n > max)
		n = max;
	k = strlen(s);
	if (k > n)
		k = n;
	memcpy(p, s, k);
	for (i = k; i < n; i++) {
		switch (rnd(16)) {
		case 0: p[i] = '\n'; break;
		case 1: p[i] = (char)rnd(32); break;
		case 2: p[i] = (char)(0x80 + rnd(128)); break;
		default: p[i] = (char)('a' + rnd(26)); break;
		}
	}
	return n;
}

static const char *const sysctls[] = {
	"kernel/syslog_ns_tag", "kernel/syslog_ns_size",
	"kernel/syslog_ns_propagate", "kernel/syslog_ns_propagate_burst",
	"kernel/syslog_ns_propagate_interval_ms", "kernel/syslog_ns_auto",
	"kernel/syslog_ns_max_size", "kernel/syslog_ns_stats",
	"kernel/dmesg_restrict", "user/max_syslog_namespaces",
};

/* Values: valid and invalid, none that sizes a ring above 1 MiB. */
static const char *const values[] = {
	"0", "1", "2", "3", "-1", "4096", "65536", "131072", "1048576",
	"99999999999999999999", "abc", "", "\n", "fz", "fz.1-x_y",
	"0123456789012345678901234567890123", "a b", "10", "5000", "7",
	"128", "4",
};

static void do_op(enum op op)
{
	long r = 0;
	int fd, e = 0;

	call_no++;
	TRACE("%s", op_name[op]);
	switch (op) {
	case OP_UNSHARE: {
		unsigned long f = ns_flags();
		uid_t u = getuid();
		gid_t g = getgid();

		r = unshare((int)f);
		e = errno;
		if (!r && (f & CLONE_NEWUSER))
			map_root(u, g);
		break;
	}
	case OP_CLONE3: {
		struct clone_args ca = {
			.flags = ns_flags(),
			.exit_signal = SIGCHLD,
		};
		uid_t u = getuid();
		gid_t g = getgid();

		r = sys_clone3(&ca);
		e = errno;
		if (r == 0) {
			if (ca.flags & CLONE_NEWUSER)
				map_root(u, g);
			child_ops(1 + rnd(6));
			_exit(0);
		}
		if (r > 0)
			r = 0;
		break;
	}
	case OP_SETNS_FILE: {
		char path[64];
		static const int types[] = { 0, CLONE_NEWSYSLOG, CLONE_NEWNET,
					     CLONE_NEWSYSLOG | CLONE_NEWNET };

		snprintf(path, sizeof(path), "/proc/%d/ns/syslog", some_pid());
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			r = -1;
			e = errno;
			break;
		}
		r = setns(fd, types[rnd(4)]);
		e = errno;
		if (rnd(2))
			add_fd(fd);	/* an ns file in the pool */
		else
			close(fd);
		break;
	}
	case OP_SETNS_PIDFD: {
		static const int types[] = { 0, CLONE_NEWSYSLOG,
					     CLONE_NEWSYSLOG | CLONE_NEWNET,
					     CLONE_NEWSYSLOG | CLONE_NEWUSER,
					     CLONE_NEWSYSLOG | CLONE_NEWUTS };

		fd = sys_pidfd_open(some_pid());
		if (fd < 0) {
			r = -1;
			e = errno;
			if (e == ESRCH)
				e = 0;	/* no such process: nothing to test */
			break;
		}
		r = setns(fd, types[rnd(5)]);
		e = errno;
		close(fd);
		break;
	}
	case OP_SYSLOG: {
		static const long lens[] = { -1, 0, 1, 7, 100, 4096,
					     sizeof(buf), 1 << 20, INT_MAX };
		int type = (int)rnd(16) - 2;
		long len = lens[rnd(sizeof(lens) / sizeof(lens[0]))];
		char *p = buf;

		if (type == 6 || type == 7 || type == 8)
			type = 9;	/* the console is the harness's */
		/*
		 * A length past the buffer must not let the kernel write over
		 * this process: long reads go to big, whose end faults.
		 */
		if (len > (long)sizeof(buf))
			p = big;
		switch (rnd(6)) {
		case 0: p = NULL; break;
		case 1: p = (char *)1; break;
		case 2: p = big + BIG - 16; break;	/* EFAULT part way */
		}
		TRACE("syslog(%d, %p, %ld)", type, (void *)p, len);
		arm(20);
		r = syscall(SYS_syslog, type, p, len);
		e = errno;
		disarm();
		break;
	}
	case OP_OPEN_KMSG: {
		static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };

		fd = open("/dev/kmsg", modes[rnd(3)] | (rnd(2) ? O_NONBLOCK : 0) |
			  O_CLOEXEC);
		if (fd < 0) {
			r = -1;
			e = errno;
		} else {
			add_fd(fd);
		}
		break;
	}
	case OP_OPEN_PROC_KMSG:
		fd = open("/proc/kmsg", O_RDONLY | O_CLOEXEC |
			  (rnd(2) ? O_NONBLOCK : 0));
		if (fd < 0) {
			r = -1;
			e = errno;
		} else {
			add_fd(fd);
		}
		break;
	case OP_READ: {
		size_t n = rnd(3) ? rnd(2048) : rnd(sizeof(buf));

		fd = any_fd();
		if (fd < 0)
			break;
		arm(20);
		r = read(fd, rnd(16) ? buf : (char *)8, n);
		e = errno;
		disarm();
		break;
	}
	case OP_WRITE: {
		size_t n;

		fd = any_fd();
		if (fd < 0)
			break;
		n = random_text(buf, rnd(8) ? 1100 : sizeof(buf));
		if (rnd(3)) {
			r = write(fd, buf, n);
		} else {
			struct iovec iov[2] = {
				{ buf, n / 2 }, { buf + n / 2, n - n / 2 },
			};

			r = writev(fd, iov, 2);
		}
		e = errno;
		break;
	}
	case OP_LSEEK: {
		static const off_t offs[] = { 0, 1, -1, 4096, LLONG_MAX };

		fd = any_fd();
		if (fd < 0)
			break;
		{
			off_t o = offs[rnd(5)];
			int wh = (int)rnd(6);

			TRACE("lseek(%d, %lld, %d)", fd, (long long)o, wh);
			r = lseek(fd, o, wh);
		}
		e = errno;
		break;
	}
	case OP_POLL: {
		struct pollfd p = { .fd = any_fd(), .events = POLLIN | POLLPRI };

		if (p.fd < 0)
			break;
		r = poll(&p, 1, 0);
		e = errno;
		break;
	}
	case OP_CLOSE: {
		int i = rnd(NFD);

		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
		break;
	}
	case OP_FORK:
		r = fork();
		e = errno;
		if (r == 0) {
			child_ops(1 + rnd(8));
			_exit(0);
		}
		if (r > 0)
			r = 0;
		break;
	case OP_REAP: {
		int st;

		r = waitpid(-1, &st, WNOHANG);
		e = errno;
		if (r > 0 && WIFSIGNALED(st))
			bad("a child process died of a signal");
		if (r > 0)
			r = 0;
		break;
	}
	case OP_SYSCTL: {
		char path[96];
		const char *v = values[rnd(sizeof(values) / sizeof(values[0]))];

		snprintf(path, sizeof(path), "/proc/sys/%s",
			 sysctls[rnd(sizeof(sysctls) / sizeof(sysctls[0]))]);
		TRACE("sysctl %s '%s'", path, v);
		fd = open(path, (rnd(3) ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
		if (fd < 0) {
			r = -1;
			e = errno;
			break;
		}
		r = rnd(2) ? write(fd, v, strlen(v)) : read(fd, buf, 256);
		e = errno;
		close(fd);
		break;
	}
	case OP_NS_IOCTL: {
		static const unsigned long cmds[] = {
			NS_GET_NSTYPE, NS_GET_PARENT, NS_GET_USERNS,
			NS_GET_OWNER_UID, _IO(NSIO, 0x7f),
		};
		unsigned long cmd = cmds[rnd(5)];
		uid_t uid;

		fd = open("/proc/self/ns/syslog", O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			r = -1;
			e = errno;
			break;
		}
		r = ioctl(fd, cmd, cmd == NS_GET_OWNER_UID && rnd(2) ?
			  (void *)&uid : (void *)8);
		e = errno;
		if ((cmd == NS_GET_PARENT || cmd == NS_GET_USERNS) && r >= 0)
			close((int)r);
		if (cmd == NS_GET_NSTYPE && r >= 0 && r != CLONE_NEWSYSLOG)
			bad("NS_GET_NSTYPE is not CLONE_NEWSYSLOG");
		close(fd);
		break;
	}
	case OP_PACKET: {
		/* lo up, a LOG rule (once in a while), one UDP datagram */
		struct ifreq ifr = { .ifr_name = "lo" };
		struct sockaddr_in to = {
			.sin_family = AF_INET,
			.sin_port = htons(9),
			.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
		};
		int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		if (s < 0)
			break;
		if (!ioctl(s, SIOCGIFFLAGS, &ifr) && !(ifr.ifr_flags & IFF_UP)) {
			ifr.ifr_flags |= IFF_UP;
			ioctl(s, SIOCSIFFLAGS, &ifr);
		}
		if (!rnd(16) && net_ino() != init_net_ino) {
			pid_t p = fork();

			if (p == 0) {
				int nul = open("/dev/null", O_WRONLY);

				dup2(nul, 1);
				dup2(nul, 2);
				execlp("xtables-legacy-multi", "iptables", "-A",
				       "OUTPUT", "-p", "udp", "-j", "LOG",
				       "--log-prefix", "FZ ", (char *)NULL);
				_exit(127);
			}
			if (p > 0)
				waitpid(p, NULL, 0);
		}
		r = sendto(s, "x", 1, 0, (struct sockaddr *)&to, sizeof(to));
		e = errno;
		close(s);
		break;
	}
	case OP_THREADS:
		r = 0;
		break;	/* run_threads() below: needs no state here */
	case OP_SIGNAL: {
		/* a reader blocked in the kernel, then a signal */
		static const int sigs[] = { SIGKILL, SIGTERM, SIGSTOP, SIGALRM };
		int sig = sigs[rnd(4)], how = rnd(3);
		pid_t p = fork();

		if (p < 0) {
			r = -1;
			e = errno;
			break;
		}
		if (p == 0) {
			signal(SIGTERM, SIG_DFL);
			if (how == 0) {
				syscall(SYS_syslog, 2, buf, 64);
			} else {
				fd = open(how == 1 ? "/dev/kmsg" : "/proc/kmsg",
					  O_RDONLY);
				if (fd >= 0) {
					lseek(fd, 0, SEEK_END);
					while (read(fd, buf, sizeof(buf)) > 0)
						;
				}
			}
			_exit(0);
		}
		usleep(1000 * (1 + rnd(5)));
		kill(p, sig);
		if (sig == SIGSTOP) {
			usleep(1000);
			kill(p, SIGCONT);
		}
		/*
		 * A signal that came before the child set its handlers may
		 * have been handled and gone: the child would read forever.
		 */
		usleep(1000);
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		break;
	}
	case OP_N:
		break;
	}
	record(op, r < 0 ? e : 0);
}

/*
 * Two threads on the worker's open files: writes, polls, seeks and
 * closes on the shared ones, reads on a nonblocking /dev/kmsg of their
 * own (the interval timer that ends a blocking read is per process).
 */
static void *thread_ops(void *arg)
{
	int i, fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char tb[2048];

	rng_state = (uint64_t)(uintptr_t)arg;
	kcov_begin();
	for (i = 0; i < 8; i++) {
		switch (rnd(5)) {
		case 0:
			if (fd >= 0) {
				long r = read(fd, tb, rnd(sizeof(tb)));

				record(OP_READ, r < 0 ? errno : 0);
			}
			break;
		case 1: do_op(OP_WRITE); break;
		case 2: do_op(OP_POLL); break;
		case 3: do_op(OP_LSEEK); break;
		default: do_op(OP_CLOSE); break;
		}
	}
	if (fd >= 0)
		close(fd);
	kcov_collect();
	kcov_end();
	return NULL;
}

static void run_threads(void)
{
	pthread_t t[2];
	int i, n = 0;

	for (i = 0; i < 2; i++)
		if (!pthread_create(&t[i], NULL, thread_ops,
				    (void *)(uintptr_t)rnd(1000)))
			n++;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static enum op pick(void)
{
	/* weights: the file operations more often than creation */
	static const enum op w[] = {
		OP_UNSHARE, OP_CLONE3, OP_SETNS_FILE, OP_SETNS_PIDFD,
		OP_SYSLOG, OP_SYSLOG, OP_OPEN_KMSG, OP_OPEN_KMSG,
		OP_OPEN_PROC_KMSG, OP_READ, OP_READ, OP_READ, OP_WRITE,
		OP_WRITE, OP_WRITE, OP_LSEEK, OP_POLL, OP_CLOSE, OP_FORK,
		OP_REAP, OP_REAP, OP_SYSCTL, OP_SYSCTL, OP_NS_IOCTL,
		OP_PACKET, OP_THREADS, OP_SIGNAL,
	};

	return w[rnd(sizeof(w) / sizeof(w[0]))];
}

static void child_ops(int n)
{
	kcov_begin();
	while (n--) {
		enum op op = pick();

		if (op == OP_FORK || op == OP_CLONE3 || op == OP_THREADS)
			op = OP_WRITE;	/* no grandchildren */
		do_op(op);
	}
}

/*
 * generation() - up to GEN_OPS calls of a worker's sequence, in a process
 * of its own: the namespaces it nests (up to the depth limit or
 * user.max_syslog_namespaces, where every creation is ENOSPC) and its
 * files go with it, and the next generation starts again from the
 * worker's namespaces, going on with the same generator.
 */
#define GEN_OPS 500

static int generation(unsigned long ops, time_t end)
{
	unsigned long i;
	int done = 0;

	for (i = 0; i < NFD; i++)
		fds[i] = -1;
	kcov_begin();
	for (i = 0; i < GEN_OPS; i++) {
		enum op op;

		if (ops ? call_no >= ops : time(NULL) >= end) {
			done = 1;
			break;
		}
		op = pick();
		if (op == OP_THREADS) {
			call_no++;
			run_threads();
			record(OP_THREADS, 0);
			continue;
		}
		do_op(op);
	}
	while (waitpid(-1, NULL, 0) > 0)
		;
	sh->gen[worker_no].rng = rng_state;
	sh->gen[worker_no].call_no = call_no;
	sh->gen[worker_no].done = done;
	return 0;
}

static int worker(unsigned long ops, time_t end)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);	/* the shell may have ignored it */
	for (;;) {
		pid_t g = fork();
		int st;

		if (g < 0)
			return 1;
		if (g == 0)
			_exit(generation(ops, end));
		if (waitpid(g, &st, 0) != g || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			bad("a generation of the worker died of a signal");
			return 1;
		}
		rng_state = sh->gen[worker_no].rng;
		call_no = sh->gen[worker_no].call_no;
		if (sh->gen[worker_no].done)
			return 0;
	}
}

static int cmd_run(int argc, char **argv)
{
	int workers, i, bad_exit = 0;
	unsigned long ops = 0, total = 0, pairs = 0;
	time_t t0 = time(NULL), secs;

	if (argc < 3)
		return 2;
	seed_no = atoi(argv[0]);
	workers = atoi(argv[1]);
	secs = atol(argv[2]);
	if (argc > 3)
		ops = strtoul(argv[3], NULL, 0);
	if (workers < 1 || workers > MAX_WORKERS)
		return 2;
	trace = getenv("KLOGFUZZ_TRACE") != NULL;
	if (cov_setup())
		return 2;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	big = mmap(NULL, BIG + 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || big == MAP_FAILED ||
	    mprotect(big + BIG, 4096, PROT_NONE))
		return 2;
	init_net_ino = net_ino();
	for (i = 0; i < workers; i++) {
		pid_t p = fork();

		if (p == 0) {
			worker_no = i;
			rng_state = ((uint64_t)seed_no << 20) ^ (uint64_t)i;
			_exit(worker(ops, t0 + secs));
		}
	}
	for (i = 0; i < workers; i++) {
		int st;
		pid_t p = wait(&st);

		if (p > 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			printf("# fuzz: worker pid %d ended with status 0x%x\n",
			       p, st);
			bad_exit++;
		}
	}
	secs = time(NULL) - t0;
	for (i = 0; i < OP_N; i++) {
		unsigned long n = 0;
		int e;

		for (e = 0; e < NERR; e++) {
			n += sh->calls[i][e];
			pairs += sh->calls[i][e] != 0;
		}
		total += n;
		printf("# fuzz: %-15s %8lu calls", op_name[i], n);
		for (e = 0; e < NERR; e++)
			if (sh->calls[i][e])
				printf(" %s=%lu", e ? strerror(e) : "ok",
				       sh->calls[i][e]);
		printf("\n");
	}
	printf("# fuzz: seed %d, %d workers, %ld s: %lu calls (%lu a minute), %lu distinct (call, result) pairs\n",
	       seed_no, workers, (long)secs, total,
	       secs ? total * 60 / (unsigned long)secs : total, pairs);
	printf("%s - fuzz seed %d: every call returned what its interface documents\n",
	       sh->bad ? "not ok" : "ok", seed_no);
	if (sh->bad)
		printf("# %lu such calls; the first: %s\n", sh->bad,
		       sh->first_bad);
	printf("%s - fuzz seed %d: every worker ended normally\n",
	       bad_exit ? "not ok" : "ok", seed_no);
	printf("%s - fuzz seed %d: the workers made calls\n",
	       total >= (unsigned long)workers * 10 ? "ok" : "not ok", seed_no);
	cov_save("run");
	return sh->bad || bad_exit;
}

/* ---- fault injection ------------------------------------------------------ */

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	errno = 0;
	r = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
	if (r && !errno)
		errno = EIO;	/* short write */
	close(fd);
	return r;
}

static unsigned long ns_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/syslog", &st) ? 0 : st.st_ino;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n++;
	closedir(d);
	return n;
}

enum entry {
	E_UNSHARE, E_UNSHARE_NET, E_UNSHARE_USER, E_CLONE3, E_SETNS_FILE,
	E_SETNS_PIDFD, E_OPEN_KMSG, E_OPEN_PROC_KMSG, E_WRITE_KMSG,
	E_READ_KMSG, E_SYSCTL_SIZE, E_SYSCTL_TAG, E_SYSLOG_READ_ALL,
	E_N
};

static const char *const entry_name[E_N] = {
	"unshare(CLONE_NEWSYSLOG)", "unshare(CLONE_NEWSYSLOG|CLONE_NEWNET)",
	"unshare(CLONE_NEWSYSLOG|CLONE_NEWUSER)", "clone3(CLONE_NEWSYSLOG)",
	"setns(ns file)", "setns(pidfd)", "open(/dev/kmsg)",
	"open(/proc/kmsg)", "write(/dev/kmsg)", "read(/dev/kmsg)",
	"kernel.syslog_ns_size", "kernel.syslog_ns_tag",
	"syslog(READ_ALL)",
};

/*
 * One try in a fresh child: prepare without faults, fail the @nth
 * allocation of the call, check the aftermath.  Writes "INJECTED RC
 * ERRNO SAME" to @out: whether the nth allocation was reached, the
 * call's result, and whether a failed call left the caller as it was.
 */
static void one_try(enum entry en, int nth, int out, pid_t holder)
{
	char nthbuf[16], path[64];
	unsigned long ino0;
	int fd = -1, fds0, rc, err, same = 1, failfd;
	ssize_t k;

	kcov_begin();
	/* the calls that act inside a namespace get a fresh one first */
	if (en >= E_OPEN_KMSG && syslog_ns_new(NULL, 0))
		_exit(3);
	if (en == E_WRITE_KMSG || en == E_READ_KMSG) {
		fd = open("/dev/kmsg", O_RDWR | O_NONBLOCK);
		if (fd < 0 || write(fd, "<6>fault-prep", 13) != 13)
			_exit(3);
	}
	if (en == E_SETNS_FILE || en == E_SETNS_PIDFD) {
		snprintf(path, sizeof(path), "/proc/%d/ns/syslog", holder);
		fd = en == E_SETNS_FILE ? open(path, O_RDONLY) :
					  sys_pidfd_open(holder);
		if (fd < 0)
			_exit(3);
	}
	failfd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (failfd < 0)
		_exit(4);
	ino0 = ns_ino();
	fds0 = count_fds();
	snprintf(nthbuf, sizeof(nthbuf), "%d", nth);
	if (write(failfd, nthbuf, strlen(nthbuf)) < 0)
		_exit(4);

	switch (en) {
	case E_UNSHARE:
		rc = unshare(CLONE_NEWSYSLOG);
		break;
	case E_UNSHARE_NET:
		rc = unshare(CLONE_NEWSYSLOG | CLONE_NEWNET);
		break;
	case E_UNSHARE_USER:
		rc = unshare(CLONE_NEWSYSLOG | CLONE_NEWUSER);
		break;
	case E_CLONE3: {
		struct clone_args ca = {
			.flags = CLONE_NEWSYSLOG, .exit_signal = SIGCHLD,
		};
		long p = sys_clone3(&ca);

		if (p == 0)
			_exit(0);
		rc = p < 0 ? -1 : 0;
		break;
	}
	case E_SETNS_FILE:
	case E_SETNS_PIDFD:
		rc = setns(fd, CLONE_NEWSYSLOG);
		break;
	case E_OPEN_KMSG:
	case E_OPEN_PROC_KMSG:
		rc = open(en == E_OPEN_KMSG ? "/dev/kmsg" : "/proc/kmsg",
			  O_RDONLY | O_NONBLOCK);
		break;
	case E_WRITE_KMSG:
		rc = (int)write(fd, "<5>fault-write", 14);
		break;
	case E_READ_KMSG:
		lseek(fd, 0, SEEK_SET);
		rc = (int)read(fd, buf, sizeof(buf));
		break;
	case E_SYSCTL_SIZE:
		rc = syslog_ns_sysctl("syslog_ns_size", "262144");
		break;
	case E_SYSCTL_TAG:
		rc = syslog_ns_sysctl("syslog_ns_tag", "fault");
		break;
	case E_SYSLOG_READ_ALL:
		rc = (int)syscall(SYS_syslog, 3, buf, sizeof(buf));
		break;
	default:
		rc = 0;
	}
	err = errno;
	kcov_collect();
	lseek(failfd, 0, SEEK_SET);
	k = read(failfd, nthbuf, sizeof(nthbuf) - 1);
	nthbuf[k > 0 ? k : 0] = 0;
	if (write(failfd, "0", 1) < 0)
		(void)0;
	if (rc < 0 && ns_ino() != ino0)
		same = 0;
	if (rc < 0 && count_fds() != fds0)
		same = 0;
	dprintf(out, "%d %d %d %d\n", atoi(nthbuf) == 0, rc < 0 ? -1 : 0,
		rc < 0 ? err : 0, same);
	_exit(0);
}

#define MAX_NTH 3000	/* more allocations than this: a runaway */

/*
 * The errno an injected failure may give @en.  ENOMEM everywhere; ENOSPC
 * where a new user namespace needs a new per-user counter, whose failed
 * allocation inc_ucount() reports as the limit (for every namespace
 * type); with CLONE_NEWNET, whatever the network stack's per-namespace
 * setup returns for its own allocations (ENOBUFS, ENODEV, EAFNOSUPPORT,
 * ...): not the series' code, so only "nothing half made" is checked.
 */
static int fault_errno_ok(enum entry en, int err)
{
	if (err == ENOMEM)
		return 1;
	if (en == E_UNSHARE_USER)
		return err == ENOSPC;
	return en == E_UNSHARE_NET && err > 0;
}

static int cmd_faults(void)
{
	static const char *const arm_files[][2] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/min-order", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	};
	int en, i, bad = 0, points_total = 0;
	pid_t holder;

	if (cov_setup())
		return 2;
	if (access("/proc/thread-self/fail-nth", W_OK)) {
		printf("not ok - faults: /proc/thread-self/fail-nth is there (CONFIG_FAULT_INJECTION)\n");
		return 1;
	}
	for (i = 0; i < 6; i++)
		if (write_file(arm_files[i][0], arm_files[i][1])) {
			printf("not ok - faults: %s can be set (FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS)\n",
			       arm_files[i][0]);
			return 1;
		}
	/* a namespace to enter: a child's, held by a sleeping process */
	holder = fork();
	if (holder == 0) {
		if (syslog_ns_new(NULL, 0))
			_exit(3);
		pause();
		_exit(0);
	}
	usleep(200000);

	for (en = 0; en < E_N; en++) {
		int points = 0, wrong = 0, dirty = 0, nth, fail_ok = 0;
		char line[64];

		for (nth = 1; nth <= MAX_NTH; nth++) {
			int p[2], inj = 0, rc = 0, err = 0, same = 1, st;
			FILE *f;
			pid_t c;

			if (pipe(p))
				return 2;
			c = fork();
			if (c == 0) {
				close(p[0]);
				one_try(en, nth, p[1], holder);
			}
			close(p[1]);
			f = fdopen(p[0], "r");
			line[0] = 0;
			if (!f || !fgets(line, sizeof(line), f) ||
			    sscanf(line, "%d %d %d %d", &inj, &rc, &err,
				   &same) != 4) {
				waitpid(c, &st, 0);
				printf("# faults: %s, allocation %d: the try did not report (status 0x%x)\n",
				       entry_name[en], nth, st);
				wrong++;
				if (f)
					fclose(f);
				break;
			}
			fclose(f);
			waitpid(c, &st, 0);
			if (!inj)
				break;	/* the call made fewer allocations */
			points++;
			if (rc < 0 && !fault_errno_ok(en, err)) {
				printf("# faults: %s, allocation %d failed: errno %d (%s), not what it may return\n",
				       entry_name[en], nth, err, strerror(err));
				wrong++;
			}
			if (rc < 0)
				fail_ok++;
			if (!same) {
				printf("# faults: %s, allocation %d failed: the caller's namespace or open files changed\n",
				       entry_name[en], nth);
				dirty++;
			}
		}
		printf("# faults: %-40s %3d failure points, %d of them failed the call\n",
		       entry_name[en], points, fail_ok);
		points_total += points;
		if (wrong || dirty || nth > MAX_NTH) {
			printf("not ok - faults: %s: every injected failure returns ENOMEM and leaves the caller as it was\n",
			       entry_name[en]);
			bad++;
		}
	}
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	printf("# faults: %d failure points over %d entry points\n",
	       points_total, E_N);
	printf("%s - faults: every entry point, every allocation failed in turn: ENOMEM and nothing half made\n",
	       bad ? "not ok" : "ok");
	printf("%s - faults: allocations were failed (positive control: fail-nth reached)\n",
	       points_total > E_N ? "ok" : "not ok");
	cov_save("faults");
	return bad || points_total <= E_N;
}

/* ---- quota: nested namespaces until ENOSPC ---------------------------------- */

static int cmd_quota(void)
{
	int n = 0;

	while (n < 1000 && unshare(CLONE_NEWSYSLOG) == 0)
		n++;
	printf("%d %s\n", n, n < 1000 ? strerror(errno) : "none");
	return 0;
}

/* ---- memcg: a memory cgroup's limit, reached by syslog namespaces ------- */

struct memcg_run {
	int state;	/* 1 ready, 2 limited, 3 failed, 4 lifted, 5 done */
	int made;		/* namespaces made under the limit */
	int err;		/* the errno of the unshare() that failed */
	int depth;		/* from the namespace's first record, after */
	unsigned long ino, ino_rec;	/* stat() and the record, after */
	long size;		/* its ring, after */
	int again, logged;	/* with the limit lifted */
	int setup_step, setup_err;	/* the step that failed, its errno */
};

static int memcg_wait(struct memcg_run *r, int state, int secs)
{
	int i;

	for (i = 0; i < secs * 100; i++) {
		if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) >= state)
			return 0;
		usleep(10000);
	}
	return -1;
}

static long read_long(const char *path)
{
	char v[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, v, sizeof(v) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	v[n] = 0;
	return strtol(v, NULL, 10);
}

/* Fault in the stack that the calls below the caller's frame will use. */
static void __attribute__((noinline)) touch_stack(void)
{
	volatile char pad[256 << 10];

	memset((char *)pad, 1, sizeof(pad));
}

/*
 * The child: uid 1000 in a user namespace of its own, which may only
 * make namespaces with the default ring.  While the limit holds it makes
 * no call but unshare() and touches no memory it has not touched before.
 */
static void memcg_child(struct memcg_run *r, const char *cg)
{
	static char path[256], line[64], rb[16384];
	char *p;
	int fd;

	touch_stack();
	memset(rb, 0, sizeof(rb));
	kcov_begin();	/* /sys/kernel/debug/kcov is root's */
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(line, sizeof(line), "%d", getpid());
	errno = 0;
	if ((r->setup_step = 1,
	     write_file("/proc/self/oom_score_adj", "-1000")) ||
	    (r->setup_step = 2, write_file(path, line)) ||
	    (r->setup_step = 3, setgroups(0, NULL) || setgid(1000) ||
	     setuid(1000)) ||
	    /* setuid() made it undumpable: /proc/self/uid_map root's */
	    (r->setup_step = 4, prctl(PR_SET_DUMPABLE, 1)) ||
	    (r->setup_step = 5, unshare(CLONE_NEWUSER | CLONE_NEWSYSLOG)) ||
	    (r->setup_step = 6, map_root(1000, 1000))) {
		r->setup_err = errno;
		_exit(3);
	}
	kcov_collect();
	__atomic_store_n(&r->state, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) < 2)
		sched_yield();

	while (r->made < 40 && !unshare(CLONE_NEWSYSLOG))
		r->made++;
	r->err = errno;
	__atomic_store_n(&r->state, 3, __ATOMIC_RELEASE);
	while (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) < 4)
		sched_yield();

	/* the limit is lifted: it may touch memory again */
	kcov_collect();
	r->ino = ns_ino();
	r->size = read_long("/proc/sys/kernel/syslog_ns_size");
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd >= 0) {
		r->logged = write(fd, "<6>memcg-after-lift", 19) == 19;
		close(fd);
	}
	r->logged = r->logged &&
		    syscall(SYS_syslog, 3, rb, sizeof(rb) - 1) > 0 &&
		    strstr(rb, "memcg-after-lift");
	p = strstr(rb, "syslog_ns: log of ns:");
	if (p && sscanf(p, "syslog_ns: log of ns:%lu begins (depth %d",
			&r->ino_rec, &r->depth) != 2)
		r->depth = -1;
	r->again = !unshare(CLONE_NEWSYSLOG);
	kcov_collect();
	__atomic_store_n(&r->state, 5, __ATOMIC_RELEASE);
	_exit(0);
}

#define MEMCG_ROOM (1L << 20)	/* memory.max: the child's usage + this */

/*
 * memcg_kernel() - the "kernel" line of CG's memory.stat: the kernel
 * memory charged to it, which, unlike memory.current, leaves out the
 * pages a CPU holds precharged for the cgroup (up to 64 per CPU); the
 * bytes a CPU holds for its slab objects (less than a page each) are in
 * it.  The figure is flushed every 2 s at the latest.  Returns the
 * bytes, or -1.
 */
static long memcg_kernel(const char *cg)
{
	char path[256], line[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", cg);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "kernel %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int cmd_memcg(const char *cg)
{
	char path[256], val[64];
	struct memcg_run *r;
	long base, limit, cur, full = -1, k0, kfull, kgone = -1;
	int i, bad = 0, nbad = 0, ok;
	pid_t c;

	if (cov_setup())
		return 2;
	r = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (r == MAP_FAILED)
		return 2;
	memset(r, 0, sizeof(*r));
	k0 = memcg_kernel(cg);	/* the empty cgroup's */
	c = fork();
	if (c == 0)
		memcg_child(r, cg);
	if (c < 0 || k0 < 0 || memcg_wait(r, 1, 20)) {
		printf("not ok - memcg: the child joined %s as uid 1000 in namespaces of its own (kernel %ld; step %d, errno %d)\n",
		       cg, k0, r->setup_step, r->setup_err);
		if (c > 0) {
			kill(c, SIGKILL);
			waitpid(c, NULL, 0);
		}
		return 1;
	}
	snprintf(path, sizeof(path), "%s/memory.current", cg);
	base = read_long(path);
	limit = base + MEMCG_ROOM;
	snprintf(val, sizeof(val), "%ld", limit);
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	if (base < 0 || write_file(path, val)) {
		printf("not ok - memcg: memory.max can be set in %s\n", cg);
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
		return 1;
	}
	__atomic_store_n(&r->state, 2, __ATOMIC_RELEASE);
	if (memcg_wait(r, 3, 120))
		bad++;
	/*
	 * The child waits, under the limit: the stats the kernel flushes
	 * every 2 s are flushed before kfull is read.
	 */
	sleep(5);
	snprintf(path, sizeof(path), "%s/memory.current", cg);
	full = read_long(path);
	kfull = memcg_kernel(cg);
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	if (write_file(path, "max")) {
		printf("not ok - memcg: the limit can be lifted (errno %d)\n",
		       errno);
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
		return 1;
	}
	__atomic_store_n(&r->state, 4, __ATOMIC_RELEASE);
	if (memcg_wait(r, 5, 60))
		bad++;
	if (bad) {
		kill(c, SIGKILL);
		printf("# memcg: the child did not go on (state %d)\n",
		       r->state);
	}
	waitpid(c, NULL, 0);
	snprintf(path, sizeof(path), "%s/memory.current", cg);
	cur = read_long(path);
	/*
	 * What the namespaces' RCU callbacks free, they free soon after;
	 * the dentries and inodes the child's lookups left charged go with
	 * the reclaimable caches.  Wait up to 10 s for the figure to come
	 * down to a few pages (15 were left on the patched kernel, 1 on the
	 * debug one, in one run); the check below allows less than a ring.
	 */
	for (i = 0; i < 100; i++) {
		write_file("/proc/sys/vm/drop_caches", "2");
		kgone = memcg_kernel(cg);
		if (kgone >= 0 && kgone - k0 < MEMCG_ROOM / 64)
			break;
		usleep(100000);
	}
	printf("# memcg: memory.current %ld at the start, limit %ld: %d namespaces made (memory.current %ld, kernel %ld), then unshare(): %s\n",
	       base, limit, r->made, full, kfull,
	       r->made < 40 ? strerror(r->err) : "no error");
	printf("# memcg: after the lift: depth %d (ns:%lu; stat: %lu), ring %ld, one more namespace: %s; after the child: memory.current %ld, kernel %ld (%ld when empty) %.1f s later\n",
	       r->depth, r->ino_rec, r->ino, r->size,
	       r->again ? "made" : "failed", cur, kgone, k0, i / 10.0);
#define MEMCG_RESULT(cond, ...) do {					\
		ok = (cond);						\
		nbad += !ok;						\
		printf("%s - ", ok ? "ok" : "not ok");			\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	} while (0)
	/* 1 MiB holds about 16 of these (a 64 KiB ring and the object) */
	MEMCG_RESULT(!bad && r->made < 25 && r->err == ENOMEM,
		     "memcg: as uid 1000, nested syslog namespaces fail with ENOMEM at its memory cgroup's limit (1 MiB above its usage; %d made)",
		     r->made);
	MEMCG_RESULT(!bad && r->depth == 1 + r->made && r->ino_rec == r->ino &&
		     r->size == 65536,
		     "memcg: the failed unshare() left the caller in its namespace (depth %d = 1 + %d made) with its ring",
		     r->depth, r->made);
	MEMCG_RESULT(!bad && r->logged && r->again,
		     "memcg: with the limit lifted the namespace logs and one more can be made");
	/* less than one 64 KiB ring: none of them stayed charged */
	MEMCG_RESULT(kgone >= 0 && kgone - k0 < MEMCG_ROOM / 16,
		     "memcg: the rings' charge left the cgroup with the child (kernel memory %ld, %ld when empty: less than one ring more)",
		     kgone, k0);
	MEMCG_RESULT(r->made >= 4,
		     "memcg: positive control: the child made namespaces before the limit");
	/* the charge was there to give back: the cgroup was at its limit */
	MEMCG_RESULT(full >= limit - MEMCG_ROOM / 4 &&
		     kfull - kgone >= MEMCG_ROOM * 3 / 4,
		     "memcg: positive control: they filled the cgroup to its limit (memory.current %ld; kernel memory %ld, 3/4 MiB above the end's %ld at least)",
		     full, kfull, kgone);
#undef MEMCG_RESULT
	cov_save("memcg");
	return nbad ? 1 : 0;
}

/* ---- kcov-print: the addresses, each once, in order --------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmd_kcov_print(const char *path)
{
	FILE *f = fopen(path, "r");
	uint64_t *pc = NULL, prev = 0;
	size_t n = 0, cap = 0, i, k = 0, out = 0;
	unsigned long long v;

	if (!f) {
		perror(path);
		return 1;
	}
	while (fscanf(f, "%llx", &v) == 1) {
		if (n == cap) {
			uint64_t *p;

			cap = cap ? 2 * cap : 65536;
			p = realloc(pc, cap * sizeof(*pc));
			if (!p) {
				free(pc);
				fclose(f);
				return 1;
			}
			pc = p;
		}
		pc[n++] = v;
	}
	fclose(f);
	qsort(pc, n, sizeof(*pc), cmp_u64);
	for (i = 0; i < n; i++) {
		if (i && pc[i] == pc[i - 1])
			continue;
		if (k == 0)
			printf("@kcov %llx", (unsigned long long)pc[i]);
		else
			printf(" %llx", (unsigned long long)(pc[i] - prev));
		prev = pc[i];
		out++;
		if (++k == 32) {
			printf("\n");
			k = 0;
		}
	}
	if (k)
		printf("\n");
	printf("# kcov: %zu distinct kernel addresses in all\n", out);
	free(pc);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "faults"))
		return cmd_faults();
	if (argc >= 2 && !strcmp(argv[1], "quota"))
		return cmd_quota();
	if (argc >= 3 && !strcmp(argv[1], "memcg"))
		return cmd_memcg(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "kcov-print"))
		return cmd_kcov_print(argv[2]);
	fprintf(stderr, "usage: klogfuzz run SEED WORKERS SECONDS [OPS] | faults | quota | memcg CGROUP | kcov-print FILE\n");
	return 2;
}
