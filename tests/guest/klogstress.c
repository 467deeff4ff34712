// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * klogstress - the in-guest helper of the reliability suite
 * (tests/guest/reliability.sh): floods, churn, concurrency and privilege
 * checks of syslog namespaces on the patched kernel.
 *
 * Built with "gcc -static", together with tests/common/selfcheck.c, and
 * run inside the QEMU guest.  Subcommands that check something print
 * TAP-like lines the suite renumbers: "ok - WHAT", "not ok - WHAT"
 * (details on "#" lines after it) and "# comment"; every subcommand exits
 * non-zero if a check failed.
 *
 *   klogstress follow FILE          copy the caller's /dev/kmsg to FILE
 *                                   until killed ("LOST" on EPIPE)
 *   klogstress write PREFIX FROM N  write "<6>PREFIX i" for i in
 *                                   [FROM, FROM + N) to /dev/kmsg
 *   klogstress expect PREFIX N      the caller's log holds exactly
 *                                   "PREFIX 0" .. "PREFIX N-1", seq i
 *   klogstress flood PREFIX N MS    write N records, sleep MS, write one
 *                                   more; print "elapsed_ms E", check the
 *                                   local ring (a contiguous tail ending
 *                                   at seq N, nothing foreign)
 *   klogstress nflood PREFIX N MS   a new netns with a LOG rule on lo:
 *                                   send N UDP packets, sleep MS, one
 *                                   more; print "elapsed_ms E", check the
 *                                   namespace logged all N + 1
 *   klogstress churn N              N times: a child process makes a user
 *                                   namespace, a syslog namespace (4 KiB)
 *                                   and a netns with a LOG rule, opens
 *                                   /dev/kmsg twice and /proc/kmsg, sends
 *                                   a packet, finds its LOG line, exits
 *   klogstress conc SECONDS RING    3 containers (user ns, syslog ns,
 *                                   netns with LOG rules: a, b, and c
 *                                   inside a), 4 processes each: writer
 *                                   (also of packets), /dev/kmsg reader,
 *                                   READ_ALL/CLEAR, /proc/kmsg and READ;
 *                                   every record read is checked
 *   klogstress quota LIMIT          user.max_syslog_namespaces = LIMIT
 *                                   holds for the caller's user across
 *                                   user namespaces
 *   klogstress fdpass MARK HOSTMARK a /dev/kmsg opened in namespace A and
 *                                   passed to namespace B over a unix
 *                                   socket reads and writes A only
 *   klogstress hold N FILE          N syslog namespaces (4 KiB rings)
 *                                   kept alive by /dev/kmsg files passed
 *                                   back from their exited creators;
 *                                   writes FILE when ready, then sleeps
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nfrule.h"
#include "selfcheck.h"
#include "syslog_ns.h"

#define SYSLOG_ACTION_READ		2
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CLEAR		5
#define SYSLOG_ACTION_SIZE_UNREAD	9
#define SYSLOG_ACTION_SIZE_BUFFER	10

#define REC_MAX 8192

static int failures;

static long sys_syslog(int type, const char *buf, long len)
{
	return syscall(SYS_syslog, type, buf, len);
}

static void __attribute__((format(printf, 2, 3)))
result(int good, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", good ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!good)
		failures++;
}

static void die(const char *what)
{
	fprintf(stderr, "klogstress: %s: %s\n", what, strerror(errno));
	exit(100 + (errno & 0x1f));
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int write_file(const char *path, const char *text)
{
	ssize_t len = strlen(text);
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* unshare(CLONE_NEWUSER), mapping uid and gid 0 to the caller's. */
static void enter_userns(void)
{
	uid_t u = getuid();
	gid_t g = getgid();
	char map[64];

	if (unshare(CLONE_NEWUSER))
		die("unshare(CLONE_NEWUSER)");
	if (write_file("/proc/self/setgroups", "deny"))
		die("setgroups");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)u);
	if (write_file("/proc/self/uid_map", map))
		die("uid_map");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)g);
	if (write_file("/proc/self/gid_map", map))
		die("gid_map");
}

static void new_syslog_ns(const char *tag, long size)
{
	if (syslog_ns_new(tag, size))
		die("new syslog namespace");
}

/* Write one record; 0 or -1. */
static int kmsg_put(int fd, const char *fmt, ...)
{
	char buf[REC_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return write(fd, buf, n) == n ? 0 : -1;
}

/* One /dev/kmsg record: "prio,seq,usec,flags[,...];text\n". */
struct rec {
	int prio;
	unsigned long long seq;
	char *text;
};

/*
 * A child's log begins with a kernel record that names it, at sequence
 * number 0; what its writers store follows from FIRST_SEQ.
 */
#define FIRST_SEQ 1
#define BEGINS_LOG "syslog_ns: log of ns:"

/* Is @text the record that begins a child's log? */
static int begins_log_text(const char *text)
{
	return !strncmp(text, BEGINS_LOG, strlen(BEGINS_LOG));
}

static int begins_log(const struct rec *r)
{
	return r->seq == 0 && begins_log_text(r->text);
}

/*
 * Parse the record in @buf (@n bytes, NUL-terminated by the caller).  The
 * text ends at the first newline (dictionary lines follow it).
 * Return: 0, or -1 if the header is malformed.
 */
static int parse_kmsg(char *buf, ssize_t n, struct rec *r)
{
	char *semi, *end, *nl;

	if (n < 2 || buf[n - 1] != '\n')
		return -1;
	semi = strchr(buf, ';');
	if (!semi)
		return -1;
	r->prio = (int)strtol(buf, &end, 10);
	if (*end != ',')
		return -1;
	r->seq = strtoull(end + 1, &end, 10);
	if (*end != ',')
		return -1;
	strtoull(end + 1, &end, 10);
	if (*end != ',' || end > semi)
		return -1;
	nl = strchr(semi + 1, '\n');
	*nl = '\0';
	r->text = semi + 1;
	return 0;
}

/* ---- follow ------------------------------------------------------------ */

static int cmd_follow(int argc, char **argv)
{
	char buf[REC_MAX];
	int in, out;
	ssize_t n;

	if (argc < 2)
		return 2;
	in = open("/dev/kmsg", O_RDONLY);
	out = open(argv[1], O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (in < 0 || out < 0)
		die("open");
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			n = snprintf(buf, sizeof(buf), "LOST\n");
		else if (n <= 0)
			die("read /dev/kmsg");
		if (write(out, buf, n) != n)
			die("write");
	}
}

/* ---- write, expect ------------------------------------------------------ */

static int cmd_write(int argc, char **argv)
{
	long i, from, count;
	int fd;

	if (argc < 4)
		return 2;
	from = atol(argv[2]);
	count = atol(argv[3]);
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		die("open /dev/kmsg");
	for (i = from; i < from + count; i++)
		if (kmsg_put(fd, "<6>%s %ld\n", argv[1], i))
			die("write /dev/kmsg");
	close(fd);
	return 0;
}

/*
 * Read the caller's whole log through a fresh /dev/kmsg and check it is
 * "PREFIX i" with seq i for i = first .. last, nothing else.
 * @want_first: the first seq that must be there (-1: any, a tail).
 * Return: the number of problems; @first, @last and @count describe the log.
 */
static int check_own_log(const char *prefix, long want_first, long want_last,
			 long *first, long *last, long *count)
{
	char buf[REC_MAX], want[256];
	int fd, bad = 0;
	struct rec r;
	ssize_t n;

	*first = -1;
	*last = -1;
	*count = 0;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("open /dev/kmsg");
	for (;;) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			printf("# read: %s\n", strerror(errno));
			bad++;
			break;
		}
		buf[n] = '\0';
		if (parse_kmsg(buf, n, &r)) {
			printf("# malformed record: %.80s\n", buf);
			bad++;
			continue;
		}
		if (begins_log(&r))
			continue;
		snprintf(want, sizeof(want), "%s %llu", prefix,
			 r.seq - FIRST_SEQ);
		if (strcmp(r.text, want)) {
			if (bad++ < 5)
				printf("# seq %llu: \"%.80s\", wanted \"%s\"\n",
				       r.seq, r.text, want);
		}
		if (*first < 0)
			*first = (long)r.seq;
		else if ((long)r.seq != *last + 1 && bad++ < 5)
			printf("# seq %llu after %ld\n", r.seq, *last);
		*last = (long)r.seq;
		(*count)++;
	}
	close(fd);
	if (want_first >= 0 && *first != want_first) {
		printf("# first seq %ld, wanted %ld\n", *first, want_first);
		bad++;
	}
	if (*last != want_last) {
		printf("# last seq %ld, wanted %ld\n", *last, want_last);
		bad++;
	}
	return bad;
}

static int cmd_expect(int argc, char **argv)
{
	long n, first, last, count;
	int bad;

	if (argc < 3)
		return 2;
	n = atol(argv[2]);
	bad = check_own_log(argv[1], FIRST_SEQ, n - 1 + FIRST_SEQ, &first,
			    &last, &count);
	printf("# log: %ld records, seq %ld..%ld\n", count, first, last);
	result(!bad && count == n,
	       "the namespace holds exactly its %ld records \"%s i\", seq i + 1",
	       n, argv[1]);
	return failures ? 1 : 0;
}

/* ---- flood -------------------------------------------------------------- */

static int cmd_flood(int argc, char **argv)
{
	long i, n, first, last, count;
	unsigned int pause;
	uint64_t t0;
	int fd, bad;

	if (argc < 4)
		return 2;
	n = atol(argv[2]);
	pause = atoi(argv[3]);
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		die("open /dev/kmsg");
	t0 = now_ms();
	for (i = 0; i < n; i++)
		if (kmsg_put(fd, "<6>%s %ld\n", argv[1], i))
			die("write /dev/kmsg");
	printf("# flood_ms %llu\n", (unsigned long long)(now_ms() - t0));
	/* the next window's copy reports the last window's suppressed count */
	sleep_ms(pause);
	if (kmsg_put(fd, "<6>%s %ld\n", argv[1], n))
		die("write /dev/kmsg");
	printf("elapsed_ms %llu\n", (unsigned long long)(now_ms() - t0));
	close(fd);
	bad = check_own_log(argv[1], -1, n + FIRST_SEQ, &first, &last, &count);
	printf("# child ring: %ld records, seq %ld..%ld\n", count, first,
	       last);
	result(!bad && count > 0,
	       "flooding namespace: all %ld writes stored (last seq %ld), its ring a clean tail",
	       n + 1, n + FIRST_SEQ);
	return failures ? 1 : 0;
}

/* The container setup: lo up and the LOG rule, in a fresh netns. */
static void container_net(const char *prefix)
{
	if (unshare(CLONE_NEWNET))
		die("unshare(CLONE_NEWNET)");
	lo_up();
	add_log_rule(prefix);
}

static int cmd_nflood(int argc, char **argv)
{
	char buf[REC_MAX], prefix[32];
	long i, n, nout = 0, nin = 0, other = 0;
	unsigned long long last = 0;
	int s, rx, fd, malformed;
	unsigned int pause;
	char *t;
	struct rec r;
	uint64_t t0;
	ssize_t len;

	if (argc < 4)
		return 2;
	n = atol(argv[2]);
	pause = atoi(argv[3]);
	snprintf(prefix, sizeof(prefix), "%s: ", argv[1]);
	container_net(prefix);
	s = udp_open(&rx);
	t0 = now_ms();
	for (i = 0; i < n; i++)
		udp_send(s, rx);
	printf("# flood_ms %llu\n", (unsigned long long)(now_ms() - t0));
	sleep_ms(pause);
	udp_send(s, rx);
	printf("elapsed_ms %llu\n", (unsigned long long)(now_ms() - t0));

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("open /dev/kmsg");
	while ((len = read(fd, buf, sizeof(buf) - 1)) > 0 ||
	       (len < 0 && errno == EPIPE)) {
		if (len < 0) {
			printf("# EPIPE: the ring lost records\n");
			other++;
			continue;
		}
		buf[len] = '\0';
		malformed = parse_kmsg(buf, len, &r);
		if (!malformed && begins_log(&r))
			continue;
		if (malformed || strncmp(r.text, prefix, strlen(prefix)) ||
		    !strstr(r.text, "PROTO=UDP")) {
			if (other++ < 3)
				printf("# foreign record: %.100s\n", buf);
			continue;
		}
		t = r.text + strlen(prefix);
		if (!strncmp(t, "IN= OUT=lo ", 11))
			nout++;
		else if (!strncmp(t, "IN=lo OUT= ", 11))
			nin++;
		else if (other++ < 3)
			printf("# foreign record: %.100s\n", buf);
		last = r.seq;
	}
	close(fd);
	printf("# container log: %ld output + %ld input LOG lines, last seq %llu, %ld other\n",
	       nout, nin, last, other);
	result(nout == n + 1 && nin == n + 1 && !other &&
	       last == 2 * (unsigned long long)n + 1 + FIRST_SEQ,
	       "netfilter container: all %ld LOG lines (output and input) are in its own log",
	       2 * (n + 1));
	return failures ? 1 : 0;
}

/* ---- churn ----------------------------------------------------------- */

/* One cycle's child: returns the exit code (0 good). */
static int churn_one(long i)
{
	char buf[REC_MAX], prefix[32];
	int a, b, c, s, rx, found = 0;
	struct rec r;
	ssize_t n;

	enter_userns();
	new_syslog_ns("churn", 4096);
	snprintf(prefix, sizeof(prefix), "CH%ld: ", i);
	container_net(prefix);
	a = open("/dev/kmsg", O_RDWR | O_NONBLOCK);
	b = open("/dev/kmsg", O_RDONLY);
	c = open("/proc/kmsg", O_RDONLY | O_NONBLOCK);
	if (a < 0 || b < 0 || c < 0)
		return 2;
	s = udp_open(&rx);
	udp_send(s, rx);
	while ((n = read(a, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if (!parse_kmsg(buf, n, &r) && !strncmp(r.text, prefix,
							 strlen(prefix)))
			found = 1;
	}
	if (!found)
		return 3;
	if (kmsg_put(a, "<6>churn %ld\n", i))
		return 4;
	/* exit with every file, socket and namespace still in use */
	return 0;
}

static int cmd_churn(int argc, char **argv)
{
	long i, n;
	int status;
	uint64_t t0;
	pid_t pid;

	if (argc < 2)
		return 2;
	n = atol(argv[1]);
	t0 = now_ms();
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid)
			_exit(churn_one(i));
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("# cycle %ld: status 0x%x\n", i, status);
			result(0, "churn: %ld cycles", n);
			return 1;
		}
	}
	printf("# churn_ms %llu\n", (unsigned long long)(now_ms() - t0));
	result(1, "churn: %ld cycles of user ns + syslog ns + netns with a LOG rule, each found its LOG line",
	       n);
	return 0;
}

/* ---- concurrency ------------------------------------------------------- */

#define NNS	3
#define NWORK	4

enum { OP_WRITE, OP_KMSG_READ, OP_KMSG_REC, OP_EPIPE, OP_SEEK, OP_REOPEN,
	OP_READ_ALL, OP_CLEAR, OP_READ_CLEAR, OP_SIZE, OP_PROC_READ,
	OP_SYSLOG_READ, OP_LINES, OP_PACKET, OP_BAD, NOPS };

static const char *const op_names[NOPS] = {
	"writes", "kmsg_reads", "kmsg_records", "epipe", "seeks", "reopens",
	"read_all", "clears", "read_clears", "sizes", "proc_reads",
	"syslog_reads", "lines_checked", "packets", "violations",
};

struct conc_stats {
	unsigned long op[NNS][NWORK][NOPS];
};

static struct conc_stats *cst;
static const char *const ns_tag[NNS] = { "ca", "cb", "cc" };
/* SIGALRM only interrupts a blocking syslog(SYSLOG_ACTION_READ) */
static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * Is @text a record of namespace @ns: one self-checking fragment
 * (tests/common/selfcheck.h) of writer @ns, the namespace's writer
 * process, or the LOG line of a packet of its netns, "NFns: IN=..."; in
 * "ca" also a copy from "cc": "[ns:<id>:cc] " + such a record of ns 2,
 * or "[ns:<id>:cc] N messages suppressed"?
 */
static int conc_valid(int ns, const char *text)
{
	const char *p, *end, *why;
	struct sc_frag fr;
	unsigned long seq;
	unsigned int rns;
	int off = 0;

	if (ns == 0 && sscanf(text, "[ns:%lu:cc] %n", &seq, &off) == 1 &&
	    off) {
		text += off;
		off = 0;
		ns = 2;
		if (sscanf(text, "%lu messages suppressed%n", &seq,
			   &off) == 1 && !text[off])
			return 1;
	}
	if (sscanf(text, "NF%u: IN=%n", &rns, &off) == 1 && off &&
	    (int)rns == ns)
		return strstr(text, " PROTO=UDP ") && strstr(text, " DPT=9 ");
	p = text;
	end = text + strlen(text);
	return sc_parse(&p, end, &fr, &why) && p == end &&
	       fr.w == (uint32_t)ns && fr.k == 1;
}

static void conc_bad(int ns, int w, const char *what, const char *text)
{
	if (cst->op[ns][w][OP_BAD]++ < 3)
		printf("# ns %s worker %d: %s: %.100s\n", ns_tag[ns], w, what,
		       text);
}

/* Check every line of syslog(2)-format text: "<p>[ time] text\n". */
static void conc_lines(int ns, int w, char *buf, long n)
{
	char *line = buf, *nl, *t;

	buf[n] = '\0';
	while (line < buf + n) {
		nl = strchr(line, '\n');
		if (!nl) {
			conc_bad(ns, w, "line without newline", line);
			return;
		}
		*nl = '\0';
		t = line;
		if (*t == '<')
			t = strchr(t, '>') ? strchr(t, '>') + 1 : t;
		if (*t == '[')
			t = strstr(t, "] ") ? strstr(t, "] ") + 2 : t;
		if (t == line || (!begins_log_text(t) && !conc_valid(ns, t)))
			conc_bad(ns, w, "bad line", line);
		cst->op[ns][w][OP_LINES]++;
		line = nl + 1;
	}
}

static void conc_writer(int ns, uint64_t end)
{
	struct sc_frag fr = { .w = ns, .f = 1, .k = 1 };
	char fill[128], frag[SC_FRAG_MAX];
	unsigned long seq, *op = cst->op[ns][0];
	int fd = -1, len, s, rx;

	s = udp_open(&rx);
	for (seq = 0; now_ms() < end; seq++) {
		/* every 16th: a packet, two LOG lines from the kernel */
		if (seq % 16 == 15) {
			udp_send(s, rx);
			op[OP_PACKET]++;
		}
		if (fd < 0 || !(seq % 64)) {
			if (fd >= 0)
				close(fd);
			fd = open("/dev/kmsg", O_WRONLY);
			if (fd < 0)
				die("open /dev/kmsg");
			op[OP_REOPEN]++;
		}
		len = seq % 97 + 1;
		memset(fill, 'a' + seq % 26, len);
		fr.s = seq;
		sc_format(frag, &fr, fill, len);
		/* LOG_USER, levels 5-7: nothing for the console */
		if (kmsg_put(fd, "<%lu>%s\n", 13 + seq % 3, frag)) {
			conc_bad(ns, 0, "write failed", strerror(errno));
			break;
		}
		op[OP_WRITE]++;
		if (!(seq % 256) &&
		    sys_syslog(SYSLOG_ACTION_SIZE_UNREAD, NULL, 0) >= 0)
			op[OP_SIZE]++;
	}
	if (fd >= 0)
		close(fd);
}

static void conc_kmsg_reader(int ns, uint64_t end)
{
	unsigned long *op = cst->op[ns][1], i = 0;
	long long last = -1;
	struct pollfd p;
	char buf[REC_MAX];
	struct rec r;
	ssize_t n;
	int fd = -1;

	while (now_ms() < end) {
		if (fd < 0) {
			fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
			if (fd < 0)
				die("open /dev/kmsg");
			op[OP_REOPEN]++;
			last = -1;
		}
		i++;
		if (!(i % 1000)) {
			static const int wh[] = { SEEK_SET, SEEK_DATA,
						  SEEK_END };

			if (lseek(fd, 0, wh[i / 1000 % 3]) < 0)
				conc_bad(ns, 1, "lseek", strerror(errno));
			op[OP_SEEK]++;
			last = -1;
		}
		if (!(i % 3000)) {
			close(fd);
			fd = -1;
			continue;
		}
		n = read(fd, buf, sizeof(buf) - 1);
		op[OP_KMSG_READ]++;
		if (n < 0 && errno == EAGAIN) {
			p.fd = fd;
			p.events = POLLIN;
			poll(&p, 1, 20);
			continue;
		}
		if (n < 0 && errno == EPIPE) {
			op[OP_EPIPE]++;
			last = -1;
			continue;
		}
		if (n <= 0) {
			conc_bad(ns, 1, "read", strerror(errno));
			continue;
		}
		buf[n] = '\0';
		op[OP_KMSG_REC]++;
		if (parse_kmsg(buf, n, &r)) {
			conc_bad(ns, 1, "malformed", buf);
			continue;
		}
		if (last >= 0 && (long long)r.seq <= last)
			conc_bad(ns, 1, "seq went back", buf);
		last = r.seq;
		if (!begins_log(&r) && !conc_valid(ns, r.text))
			conc_bad(ns, 1, "foreign or corrupt record", r.text);
	}
	if (fd >= 0)
		close(fd);
}

static void conc_reader_all(int ns, uint64_t end, long ring)
{
	unsigned long *op = cst->op[ns][2], i;
	static char buf[1 << 17];
	long n;

	for (i = 0; now_ms() < end; i++) {
		n = sys_syslog(SYSLOG_ACTION_READ_ALL, buf,
			       i % 2 ? (long)sizeof(buf) - 1 : 1 + i % 4000);
		if (n < 0)
			conc_bad(ns, 2, "READ_ALL", strerror(errno));
		else
			conc_lines(ns, 2, buf, n);
		op[OP_READ_ALL]++;
		if (i % 7 == 3) {
			if (sys_syslog(SYSLOG_ACTION_CLEAR, NULL, 0))
				conc_bad(ns, 2, "CLEAR", strerror(errno));
			op[OP_CLEAR]++;
		}
		if (i % 11 == 5) {
			n = sys_syslog(SYSLOG_ACTION_READ_CLEAR, buf, 8192);
			if (n < 0)
				conc_bad(ns, 2, "READ_CLEAR", strerror(errno));
			else
				conc_lines(ns, 2, buf, n);
			op[OP_READ_CLEAR]++;
		}
		if (sys_syslog(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0) != ring)
			conc_bad(ns, 2, "SIZE_BUFFER", "not the ring size");
		op[OP_SIZE]++;
	}
}

static void conc_destructive(int ns, uint64_t end)
{
	unsigned long *op = cst->op[ns][3], i;
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { { 0, 0 }, { 1, 0 } };
	char buf[REC_MAX];
	long n;
	int fd;

	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: a read ends */
	fd = open("/proc/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("open /proc/kmsg");
	for (i = 0; now_ms() < end; i++) {
		if (i % 2) {
			n = read(fd, buf, sizeof(buf) - 1);
			op[OP_PROC_READ]++;
			if (n < 0 && errno == EAGAIN) {
				sleep_ms(1);
				continue;
			}
		} else {
			/* a blocking READ; the timer ends a long wait */
			setitimer(ITIMER_REAL, &it, NULL);
			n = sys_syslog(SYSLOG_ACTION_READ, buf,
				       i % 4 ? (long)sizeof(buf) - 1 : 300);
			op[OP_SYSLOG_READ]++;
			if (n < 0 && errno == EINTR)
				continue;
		}
		if (n < 0) {
			conc_bad(ns, 3, "read", strerror(errno));
			continue;
		}
		/* every buffer holds a whole line: nothing may be cut */
		conc_lines(ns, 3, buf, n);
	}
	close(fd);
}

/* After the workers: a fresh /dev/kmsg read of the whole ring. */
static void conc_final(int ns, unsigned long writes, long ring)
{
	char buf[REC_MAX], *all;
	long long first = -1, last = -1;
	unsigned long count = 0, bad = 0;
	int fd, malformed;
	struct rec r;
	ssize_t n;
	long len;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("open /dev/kmsg");
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		malformed = parse_kmsg(buf, n, &r);
		if (!malformed && begins_log(&r)) {
			last = r.seq;
			continue;
		}
		if (malformed || !conc_valid(ns, r.text) ||
		    (last >= 0 && (long long)r.seq != last + 1)) {
			if (bad++ < 3)
				printf("# ns %s final: %.100s\n", ns_tag[ns],
				       buf);
			continue;
		}
		if (first < 0)
			first = r.seq;
		last = r.seq;
		count++;
	}
	if (n < 0 && errno != EAGAIN)
		bad++;
	close(fd);
	printf("# ns %s: %lu records readable, seq %lld..%lld, %lu writes\n",
	       ns_tag[ns], count, first, last, writes);
	result(!bad && count > 0, "concurrency: ns %s log well formed afterwards (/dev/kmsg: only its own records, consecutive seqs)",
	       ns_tag[ns]);
	if (ns != 0)	/* "ca" also holds copies from "cc" */
		result(last + 1 - FIRST_SEQ == (long long)writes,
		       "concurrency: ns %s stored every write and 2 LOG lines per packet (last seq == %lu)",
		       ns_tag[ns], writes - 1 + FIRST_SEQ);
	all = malloc(ring * 2);
	if (!all)
		die("malloc");
	len = sys_syslog(SYSLOG_ACTION_READ_ALL, all, ring * 2 - 1);
	bad = cst->op[ns][2][OP_BAD];
	if (len >= 0)
		conc_lines(ns, 2, all, len);
	result(len >= 0 && cst->op[ns][2][OP_BAD] == bad,
	       "concurrency: ns %s READ_ALL afterwards gives only its own whole lines",
	       ns_tag[ns]);
	free(all);
}

static void conc_worker(int ns, int w, uint64_t end, long ring)
{
	switch (w) {
	case 0:
		conc_writer(ns, end);
		break;
	case 1:
		conc_kmsg_reader(ns, end);
		break;
	case 2:
		conc_reader_all(ns, end, ring);
		break;
	default:
		conc_destructive(ns, end);
		break;
	}
	fflush(stdout);
	_exit(0);
}

/*
 * Make namespace @ns: a user namespace (root mapped to root), the
 * syslog namespace in it, a netns with LOG rules "NFns: ".
 */
static void conc_enter(int ns, long ring)
{
	char prefix[16];

	enter_userns();
	new_syslog_ns(ns_tag[ns], ring);
	snprintf(prefix, sizeof(prefix), "NF%d: ", ns);
	container_net(prefix);
}

/* The leader of namespace @ns: its workers, then the final check. */
static int conc_leader(int ns, uint64_t end, long ring)
{
	pid_t pid[NWORK];
	int w, status, bad = 0;

	for (w = 0; w < NWORK; w++) {
		pid[w] = fork();
		if (pid[w] < 0)
			die("fork");
		if (!pid[w])
			conc_worker(ns, w, end, ring);
	}
	for (w = 0; w < NWORK; w++)
		if (waitpid(pid[w], &status, 0) != pid[w] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# ns %s worker %d: status 0x%x\n", ns_tag[ns],
			       w, status);
			bad++;
		}
	result(!bad, "concurrency: ns %s: 4 workers ended normally",
	       ns_tag[ns]);
	conc_final(ns, cst->op[ns][0][OP_WRITE] +
		   2 * cst->op[ns][0][OP_PACKET], ring);
	fflush(stdout);
	return failures ? 1 : 0;
}

static int cmd_conc(int argc, char **argv)
{
	unsigned long tot[NOPS] = { 0 }, nsbad;
	pid_t a, b, c = -1;
	int ns, w, k, status = 0, bad = 0, pc[2];
	long ring;
	uint64_t end;
	char line[32];

	if (argc < 3)
		return 2;
	ring = atol(argv[2]);
	cst = mmap(NULL, sizeof(*cst), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cst == MAP_FAILED)
		die("mmap");
	fflush(stdout);
	end = now_ms() + atol(argv[1]) * 1000 + 500;
	if (pipe(pc))
		die("pipe");
	a = fork();
	if (a < 0)
		die("fork");
	if (!a) {
		conc_enter(0, ring);
		/* "cc" is a child of "ca": copies go c -> a -> host */
		c = fork();
		if (c < 0)
			die("fork");
		if (!c) {
			conc_enter(2, ring);
			_exit(conc_leader(2, end, ring));
		}
		k = conc_leader(0, end, ring);
		if (waitpid(c, &status, 0) != c || !WIFEXITED(status))
			k = 1;
		snprintf(line, sizeof(line), "%d\n", WEXITSTATUS(status));
		if (write(pc[1], line, strlen(line)) < 0)
			k = 1;
		_exit(k);
	}
	b = fork();
	if (b < 0)
		die("fork");
	if (!b) {
		conc_enter(1, ring);
		_exit(conc_leader(1, end, ring));
	}
	close(pc[1]);
	if (waitpid(a, &status, 0) != a || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		bad++;
	if (waitpid(b, &status, 0) != b || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		bad++;
	if (read(pc[0], line, sizeof(line)) <= 0 || atoi(line))
		bad++;
	for (ns = 0; ns < NNS; ns++) {
		nsbad = 0;
		for (w = 0; w < NWORK; w++)
			for (k = 0; k < NOPS; k++) {
				tot[k] += cst->op[ns][w][k];
				if (k == OP_BAD)
					nsbad += cst->op[ns][w][k];
			}
		result(!nsbad,
		       "concurrency: ns %s: every record and line read during the run was its own and intact",
		       ns_tag[ns]);
		bad += !!nsbad;
	}
	printf("# ops in %s s over 3 namespaces x 4 processes:", argv[1]);
	for (k = 0; k < NOPS; k++)
		printf(" %s=%lu", op_names[k], tot[k]);
	printf("\n");
	result(tot[OP_WRITE] > 0 && tot[OP_KMSG_REC] > 0 &&
	       tot[OP_PACKET] > 0 &&
	       tot[OP_READ_ALL] > 0 && tot[OP_CLEAR] > 0 &&
	       tot[OP_PROC_READ] + tot[OP_SYSLOG_READ] > 0 &&
	       tot[OP_LINES] > 0,
	       "concurrency: every kind of operation ran");
	return bad || failures ? 1 : 0;
}

/* ---- quota ------------------------------------------------------------ */

static int cmd_quota(int argc, char **argv)
{
	int limit, i, pa[2], pb[2], ok;
	pid_t pid, other;
	long r = 0;
	char c = 0;

	if (argc < 2)
		return 2;
	limit = atoi(argv[1]);
	if (pipe(pa) || pipe(pb))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		/* holder: LIMIT nested namespaces in a user namespace */
		enter_userns();
		for (i = 0; i < limit; i++)
			if (syslog_ns_new(NULL, 4096))
				break;
		result(i == limit, "quota: %d nested syslog namespaces fit the limit of %d",
		       i, limit);
		errno = 0;
		r = syslog_ns_new(NULL, 4096);
		result(r < 0 && errno == ENOSPC,
		       "quota: namespace %d is ENOSPC (got %ld, %s)",
		       limit + 1, r, strerror(errno));
		ok = !write_file("/proc/sys/user/max_syslog_namespaces",
				 "100000");
		result(ok, "quota: the user namespace's root raises its own user.max_syslog_namespaces");
		errno = 0;
		r = syslog_ns_new(NULL, 4096);
		result(r < 0 && errno == ENOSPC,
		       "quota: still ENOSPC: the host's limit for the user holds (got %ld, %s)",
		       r, strerror(errno));
		fflush(stdout);
		if (write(pa[1], "x", 1) != 1 || read(pb[0], &c, 1) != 1)
			die("pipe");
		_exit(failures ? 1 : 0);
	}
	if (read(pa[0], &c, 1) != 1)
		die("pipe");
	/* the same user in another user namespace, while the holder lives */
	other = fork();
	if (!other) {
		enter_userns();
		errno = 0;
		r = syslog_ns_new(NULL, 4096);
		result(r < 0 && errno == ENOSPC,
		       "quota: the same user in another user namespace is ENOSPC (got %ld, %s)",
		       r, strerror(errno));
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	if (waitpid(other, &i, 0) != other || !WIFEXITED(i) || WEXITSTATUS(i))
		failures++;
	if (write(pb[1], "x", 1) != 1)
		die("pipe");
	if (waitpid(pid, &i, 0) != pid || !WIFEXITED(i) || WEXITSTATUS(i))
		failures++;
	/* the holder's namespaces are gone: the user may create again */
	other = fork();
	if (!other) {
		enter_userns();
		for (i = 0; i < 50; i++) {
			r = syslog_ns_new(NULL, 4096);
			if (!r || errno != ENOSPC)
				break;
			sleep_ms(100);
		}
		result(r == 0, "quota: after the holder exits the user can create again (%d retries)",
		       i);
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	if (waitpid(other, &i, 0) != other || !WIFEXITED(i) || WEXITSTATUS(i))
		failures++;
	return failures ? 1 : 0;
}

/* ---- fd passing ---------------------------------------------------------- */

static void send_fd(int sock, int fd)
{
	char data = 'f', cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &data, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;

	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &m, 0) != 1)
		die("sendmsg");
}

static int recv_fd(int sock)
{
	char data, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &data, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &m, 0) != 1)
		die("recvmsg");
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS) {
		errno = EBADMSG;
		die("recvmsg: no fd");
	}
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * Every record text readable from @fd (nonblocking), '\n'-joined; not
 * the record that begins the log.
 */
static char *all_texts(int fd)
{
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap), buf[REC_MAX];
	struct rec r;
	ssize_t n;

	if (!out)
		die("malloc");
	out[0] = '\0';
	if (fcntl(fd, F_SETFL, O_NONBLOCK))
		die("fcntl");
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0 ||
	       (n < 0 && errno == EPIPE)) {
		if (n < 0)
			continue;
		buf[n] = '\0';
		if (parse_kmsg(buf, n, &r) || begins_log(&r))
			continue;
		if (len + strlen(r.text) + 2 > cap)
			break;
		len += sprintf(out + len, "%s\n", r.text);
	}
	return out;
}

static int cmd_fdpass(int argc, char **argv)
{
	char a1[64], a2[64], b1[64], via[64], want[160], *t;
	int sv[2], fd, st;
	pid_t pa, pb;
	char c;

	if (argc < 3)
		return 2;
	snprintf(a1, sizeof(a1), "FDA1-%s", argv[1]);
	snprintf(a2, sizeof(a2), "FDA2-%s", argv[1]);
	snprintf(b1, sizeof(b1), "FDB-%s", argv[1]);
	snprintf(via, sizeof(via), "VIAB-%s", argv[1]);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair");
	pa = fork();
	if (pa < 0)
		die("fork");
	if (!pa) {
		close(sv[1]);
		enter_userns();
		new_syslog_ns("fda", 0);
		fd = open("/dev/kmsg", O_RDWR);
		if (fd < 0 || kmsg_put(fd, "<6>%s\n", a1) ||
		    kmsg_put(fd, "<6>%s\n", a2))
			die("/dev/kmsg in A");
		send_fd(sv[0], fd);
		close(fd);
		/* wait until B has read and written through the fd */
		if (read(sv[0], &c, 1) != 1)
			die("read");
		fd = open("/dev/kmsg", O_RDONLY);
		if (fd < 0)
			die("open /dev/kmsg");
		t = all_texts(fd);
		printf("# A's log: %s\n", t);
		result(strstr(t, via) != NULL,
		       "fd passing: B's write through A's file landed in A");
		result(!strstr(t, b1),
		       "fd passing: A's log has nothing of B's own log");
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	pb = fork();
	if (pb < 0)
		die("fork");
	if (!pb) {
		close(sv[0]);
		enter_userns();
		new_syslog_ns("fdb", 0);
		fd = open("/dev/kmsg", O_WRONLY);
		if (fd < 0 || kmsg_put(fd, "<6>%s\n", b1))
			die("/dev/kmsg in B");
		close(fd);
		fd = recv_fd(sv[1]);
		t = all_texts(fd);
		snprintf(want, sizeof(want), "%s\n%s\n", a1, a2);
		result(!strcmp(t, want),
		       "fd passing: B reads exactly A's two records through the passed file");
		result(!strstr(t, b1) && !strstr(t, argv[2]),
		       "fd passing: B sees none of its own or the host's records through it");
		if (kmsg_put(fd, "<6>%s\n", via))
			die("write through the passed fd");
		close(fd);
		fd = open("/dev/kmsg", O_RDONLY);
		if (fd < 0)
			die("open /dev/kmsg");
		t = all_texts(fd);
		result(strstr(t, b1) && !strstr(t, via) && !strstr(t, a1),
		       "fd passing: B's own log has its record, not A's nor the write through A's file");
		fflush(stdout);
		if (write(sv[1], "x", 1) != 1)
			die("write");
		_exit(failures ? 1 : 0);
	}
	close(sv[0]);
	close(sv[1]);
	if (waitpid(pb, &st, 0) != pb || !WIFEXITED(st) || WEXITSTATUS(st))
		failures++;
	if (waitpid(pa, &st, 0) != pa || !WIFEXITED(st) || WEXITSTATUS(st))
		failures++;
	return failures ? 1 : 0;
}

/* ---- hold: live namespaces, the churn measurement's control ------------- */

static int cmd_hold(int argc, char **argv)
{
	int i, n, sv[2], fd, st;
	pid_t pid;

	if (argc < 3)
		return 2;
	n = atoi(argv[1]);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair");
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			new_syslog_ns(NULL, 4096);
			fd = open("/dev/kmsg", O_RDWR);
			if (fd < 0 || kmsg_put(fd, "<6>held %d\n", i))
				die("/dev/kmsg");
			send_fd(sv[0], fd);
			_exit(0);
		}
		recv_fd(sv[1]);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			return 1;
	}
	/* every namespace is alive only through the files received */
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "ready\n", 6) != 6 || close(fd))
		die(argv[2]);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "follow", cmd_follow }, { "write", cmd_write },
		{ "expect", cmd_expect }, { "flood", cmd_flood },
		{ "nflood", cmd_nflood }, { "churn", cmd_churn },
		{ "conc", cmd_conc }, { "quota", cmd_quota },
		{ "fdpass", cmd_fdpass }, { "hold", cmd_hold },
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "usage: klogstress follow|write|expect|flood|nflood|churn|conc|quota|fdpass|hold ...\n");
	return 2;
}
