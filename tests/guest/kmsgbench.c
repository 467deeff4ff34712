// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kmsgbench - the cost of /dev/kmsg writes and of reading a whole log,
 * measured in the guest.
 *
 * Usage: kmsgbench COUNT          write COUNT records
 *        kmsgbench readall ROUNDS read the whole log with syslog(2)
 *        kmsgbench readkmsg ROUNDS read every record of /dev/kmsg
 *        kmsgbench follow N RATE   a follower's lag behind a writer
 *
 * COUNT: opens /dev/kmsg write-only and writes COUNT records of 64 bytes
 * each ("<6>" and a numbered text), then prints "<ns per write>".
 * tests/guest/bench_guest.sh runs it on the host log and in a child
 * syslog namespace, alternating; kernel.printk_devkmsg must be "on" (no
 * ratelimit) for the numbers to mean anything.
 *
 * readall: SYSLOG_ACTION_READ_ALL into a buffer of SYSLOG_ACTION_SIZE_BUFFER
 * bytes (what dmesg(1) does), ROUNDS times; prints "<ns per read>
 * <bytes> <lines>" of the fastest round.
 * readkmsg: opens /dev/kmsg non-blocking at its oldest record and reads
 * until EAGAIN (what dmesg(1) does on util-linux), ROUNDS times; prints
 * "<ns per record> <records>" of the fastest round.
 * Both read the log of the caller's syslog namespace and leave it as it
 * was (neither clears nor moves the syslog cursor).
 *
 * follow: a reader blocked in read(2) on /dev/kmsg from its end (as
 * "dmesg -w" or journald) while a forked writer writes N records at RATE
 * records per second (what is due, then a sleep of a millisecond), each
 * carrying the CLOCK_MONOTONIC time of its write; prints "<records per
 * second written> <median lag ns> <99th percentile> <largest> <lost>",
 * where lag is the time from the write(2) call to the reader's read(2)
 * returning the record, and lost counts the records the writer overtook
 * (EPIPE) or that never came.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int write_records(long count)
{
	unsigned long long t0, t;
	char line[80];
	long i;
	int fd, n;

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

/* The whole log through syslog(2), as dmesg(1) reads it. */
static int read_all(long rounds)
{
	unsigned long long t0, t, best = 0;
	long r, lines = 0;
	int size, n = 0, i;
	char *buf;

	size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size <= 0) {
		perror("kmsgbench: SYSLOG_ACTION_SIZE_BUFFER");
		return 1;
	}
	buf = malloc(size);
	if (!buf)
		return 1;
	for (r = 0; r < rounds; r++) {
		t0 = now_ns();
		n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
		t = now_ns() - t0;
		if (n < 0) {
			perror("kmsgbench: SYSLOG_ACTION_READ_ALL");
			free(buf);
			return 1;
		}
		if (!r || t < best)
			best = t;
	}
	for (i = 0; i < n; i++)
		lines += buf[i] == '\n';
	printf("%llu %d %ld\n", best, n, lines);
	free(buf);
	return 0;
}

/* Every record of /dev/kmsg from the oldest, as util-linux dmesg. */
static int read_kmsg(long rounds)
{
	unsigned long long t0, t, best = 0;
	long r, recs = 0, best_recs = 0;
	char rec[8192];
	ssize_t n;
	int fd;

	for (r = 0; r < rounds; r++) {
		fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			perror("kmsgbench: /dev/kmsg");
			return 1;
		}
		recs = 0;
		t0 = now_ns();
		for (;;) {
			n = read(fd, rec, sizeof(rec));
			if (n > 0) {
				recs++;
				continue;
			}
			if (n < 0 && errno == EPIPE)
				continue;	/* overtaken: go on */
			break;
		}
		t = now_ns() - t0;
		if (n < 0 && errno != EAGAIN) {
			perror("kmsgbench: read");
			close(fd);
			return 1;
		}
		close(fd);
		if (!recs) {
			fprintf(stderr, "kmsgbench: /dev/kmsg held nothing\n");
			return 1;
		}
		if (!r || t / recs < best) {
			best = t / recs;
			best_recs = recs;
		}
	}
	printf("%llu %ld\n", best, best_recs);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The writer of follow: n records at rate per second, then exit.  It
 * writes what is due by now, then sleeps a millisecond (a tick of the
 * guest's timer, which has no high-resolution mode): the rate holds on
 * average, in bursts, as long as the writes keep up.
 */
static void follow_writer(long n, long rate)
{
	unsigned long long start = now_ns(), due;
	struct timespec ts = { 0, 1000000 };
	char line[96];
	long i = 0;
	int fd, len;

	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0) {
		perror("kmsgbench: /dev/kmsg");
		_exit(1);
	}
	while (i < n) {
		due = (now_ns() - start) * (unsigned long long)rate /
		      1000000000ull + 1;
		for (; i < n && (unsigned long long)i < due; i++) {
			len = snprintf(line, sizeof(line),
				       "<6>follow %llu %08ld: 0123456789abcdef\n",
				       now_ns(), i);
			if (write(fd, line, len) != len) {
				perror("kmsgbench: write");
				_exit(1);
			}
		}
		nanosleep(&ts, NULL);
	}
	_exit(0);
}

/* A /dev/kmsg follower's lag behind follow_writer(). */
static int follow(long n, long rate)
{
	unsigned long long *lag, t0, t1 = 0, ts;
	long got = 0, seen = 0, last = -1, lost = 0;
	char rec[8192];
	int fd, status;
	pid_t pid;
	ssize_t r;

	lag = calloc(n, sizeof(*lag));
	fd = open("/dev/kmsg", O_RDONLY);
	if (!lag || fd < 0 || lseek(fd, 0, SEEK_END) < 0) {
		perror("kmsgbench: follow: /dev/kmsg");
		return 1;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("kmsgbench: fork");
		return 1;
	}
	if (!pid)
		follow_writer(n, rate);
	alarm(600);	/* a writer that never finishes ends the run */
	while (last < n - 1) {
		char *p;
		long idx;

		r = read(fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;	/* overtaken: counted from the gap */
		if (r <= 0) {
			perror("kmsgbench: follow: read");
			break;
		}
		ts = now_ns();
		rec[r] = 0;
		p = strchr(rec, ';');
		if (!p || sscanf(p + 1, "follow %llu %ld:", &t1, &idx) != 2)
			continue;	/* not the writer's */
		seen++;
		if (idx > last)
			last = idx;
		if (got < n)
			lag[got++] = ts - t1;
	}
	t1 = now_ns();
	waitpid(pid, &status, 0);
	close(fd);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "kmsgbench: follow: the writer failed\n");
		return 1;
	}
	if (!got) {
		fprintf(stderr, "kmsgbench: follow: no record read\n");
		return 1;
	}
	lost = n - seen;
	qsort(lag, got, sizeof(*lag), cmp_u64);
	printf("%llu %llu %llu %llu %ld\n",
	       (unsigned long long)n * 1000000000ull / (t1 - t0),
	       lag[got / 2], lag[got * 99 / 100], lag[got - 1], lost);
	free(lag);
	return 0;
}

int main(int argc, char **argv)
{
	long count;

	if (argc == 3 && !strcmp(argv[1], "readall") &&
	    (count = atol(argv[2])) > 0)
		return read_all(count);
	if (argc == 3 && !strcmp(argv[1], "readkmsg") &&
	    (count = atol(argv[2])) > 0)
		return read_kmsg(count);
	if (argc == 4 && !strcmp(argv[1], "follow") &&
	    (count = atol(argv[2])) > 0 && atol(argv[3]) > 0)
		return follow(count, atol(argv[3]));
	if (argc != 2 || (count = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: kmsgbench COUNT | readall ROUNDS | "
			"readkmsg ROUNDS | follow N RATE\n");
		return 2;
	}
	return write_records(count);
}
