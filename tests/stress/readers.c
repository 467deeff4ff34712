// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * readers.c - destructive syslog readers racing each other.
 *
 * syslog(2) READ and /proc/kmsg read copy a record under the namespace's
 * lock, format it with the lock dropped and take the lock again to move
 * the shared syslog cursor, starting over if another reader moved it
 * meanwhile.  Here one writer stores numbered records into a ring that
 * holds them all, while several threads READ (some through /proc/kmsg)
 * with buffers that always hold a whole record, and one more walks the
 * ring with READ_ALL and SIZE_UNREAD, which must never move the syslog
 * cursor.  At the end every record was returned exactly once, each
 * reader got its records in order, and every returned line is whole.
 *
 * As in the stress run, the rings' invariants (R1-R8) are checked at the
 * end of every locked section, every formatter call is checked to run
 * with no klog lock held, and no call may return holding a lock.
 *
 * Usage: readers [-n RECORDS] [-r READERS].  Exit status 0, or 1 on any
 * violation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"

#define MAX_READERS 16
/* "<6>r0000000\n": a record as READ returns it (printk_time off). */
#define LINE_LEN 12

static struct klog_ns *ns;
static unsigned int nrecords = 20000, nreaders = 4;
static atomic_uint *seen;
static atomic_bool writing = true;
static atomic_long violations, formatted, reader_formats;
static __thread bool in_reader;

__attribute__((format(printf, 1, 2)))
static void violation(const char *fmt, ...)
{
	va_list ap;

	if (atomic_fetch_add(&violations, 1) >= 20)
		return;
	fprintf(stderr, "readers: VIOLATION: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void check_at_unlock(klog_lock_t *lock)
{
	struct klog_ns *n = kl_container_of(lock, struct klog_ns, lock);
	int ret = klog_ns_check_locked(n);

	if (ret)
		violation("invariant R%d broken", -ret);
}

static void check_unlocked(const char *func, unsigned int held)
{
	if (held)
		violation("%s formats under a klog lock", func);
	atomic_fetch_add_explicit(&formatted, 1, memory_order_relaxed);
	if (in_reader && !strcmp(func, "klog_fmt_syslog"))
		atomic_fetch_add_explicit(&reader_formats, 1,
					  memory_order_relaxed);
}

static void *writer_main(void *arg)
{
	struct klog_msg m = { .level = 6, .flags = KLOG_F_NEWLINE };
	char text[16];
	unsigned int i;

	(void)arg;
	for (i = 0; i < nrecords; i++) {
		m.text = text;
		m.text_len = (size_t)snprintf(text, sizeof(text), "r%07u", i);
		if (klog_ns_store(ns, &m) != (int)m.text_len)
			violation("store %u failed", i);
		if (i % 64 == 0)
			sched_yield();
	}
	atomic_store(&writing, false);
	return NULL;
}

/* One line of READ's output: a record this reader has not seen before. */
static void check_line(unsigned int id, const char *line, unsigned int *last,
		       bool *first)
{
	unsigned int n = 0;
	int i;

	for (i = 4; i < LINE_LEN - 1; i++) {
		if (line[i] < '0' || line[i] > '9')
			break;
		n = n * 10 + (unsigned int)(line[i] - '0');
	}
	if (memcmp(line, "<6>r", 4) || i != LINE_LEN - 1 ||
	    line[LINE_LEN - 1] != '\n' || n >= nrecords) {
		violation("reader %u: bad line \"%.*s\"", id, LINE_LEN, line);
		return;
	}
	if (!*first && n <= *last)
		violation("reader %u: record %u after %u", id, n, *last);
	*first = false;
	*last = n;
	if (atomic_fetch_add(&seen[n], 1))
		violation("record %u returned twice", n);
}

static void *reader_main(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg, last = 0, seed = id;
	char scratch[KLOG_MESSAGE_MAX], buf[LINE_LEN * 40];
	struct klog_syslog_ctx ctx = {
		.ns = ns, .nonblock = true, .scratch = scratch,
		.source = id % 2 ? KLOG_FROM_PROC : KLOG_FROM_READER,
	};
	bool first = true;
	long n;
	int i;

	in_reader = true;
	for (;;) {
		/* At least one record, never a piece of one. */
		int size = LINE_LEN + (int)(rand_r(&seed) % (sizeof(buf) -
							     LINE_LEN + 1));
		bool done = !atomic_load(&writing);

		if (ctx.source == KLOG_FROM_PROC)
			n = klog_proc_kmsg_read(&ctx, buf, size, true);
		else
			n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ, buf,
					size);
		if (klog_testing_locks_held())
			violation("reader %u returned holding a lock", id);
		if (n == -EAGAIN || n == 0) {
			if (done)
				break;
			sched_yield();
			continue;
		}
		if (n < 0 || n > size || n % LINE_LEN) {
			violation("reader %u: READ of %d returned %ld", id,
				  size, n);
			continue;
		}
		for (i = 0; i < n; i += LINE_LEN)
			check_line(id, buf + i, &last, &first);
	}
	return NULL;
}

/* READ_ALL and SIZE_UNREAD beside the readers: they move no cursor. */
static void *walker_main(void *arg)
{
	static char scratch[KLOG_MESSAGE_MAX], buf[1 << 16];
	struct klog_syslog_ctx ctx = {
		.ns = ns, .nonblock = true, .scratch = scratch,
	};
	long n;

	(void)arg;
	while (atomic_load(&writing)) {
		n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ_ALL, buf,
				sizeof(buf));
		if (n < 0 || n % LINE_LEN)
			violation("READ_ALL returned %ld", n);
		n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_SIZE_UNREAD, NULL, 0);
		if (n < 0 || n % LINE_LEN)
			violation("SIZE_UNREAD returned %ld", n);
		sched_yield();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct klog_ns_params p = { .size = 1u << 21 };
	pthread_t writer, walker, readers[MAX_READERS];
	struct klog_config cfg;
	unsigned int i, missing = 0;

	for (i = 1; i + 1 < (unsigned int)argc; i += 2) {
		if (!strcmp(argv[i], "-n"))
			nrecords = (unsigned int)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "-r"))
			nreaders = (unsigned int)strtoul(argv[i + 1], NULL, 0);
	}
	/* The ring (32 bytes a record) holds them all. */
	if (nreaders < 1 || nreaders > MAX_READERS || !nrecords ||
	    nrecords > 60000 || (argc - 1) % 2) {
		fprintf(stderr, "usage: readers [-n RECORDS] [-r READERS]\n");
		return 2;
	}
	klog_config_init(&cfg);
	cfg.max_size = p.size;
	cfg.printk_time = false;
	p.cfg = &cfg;
	klog_testing_set_unlock_check(check_at_unlock);
	klog_testing_set_unlocked_hook(check_unlocked);
	if (klog_ns_create(NULL, &p, &ns)) {
		fprintf(stderr, "readers: cannot create the namespace\n");
		return 1;
	}
	seen = calloc(nrecords, sizeof(*seen));
	if (!seen)
		return 1;

	pthread_create(&writer, NULL, writer_main, NULL);
	pthread_create(&walker, NULL, walker_main, NULL);
	for (i = 0; i < nreaders; i++)
		pthread_create(&readers[i], NULL, reader_main,
			       (void *)(uintptr_t)i);
	pthread_join(writer, NULL);
	pthread_join(walker, NULL);
	for (i = 0; i < nreaders; i++)
		pthread_join(readers[i], NULL);

	if (ns->ring.first_seq)
		violation("the ring lost %llu records",
			  (unsigned long long)ns->ring.first_seq);
	for (i = 0; i < nrecords; i++)
		missing += !atomic_load(&seen[i]);
	if (missing)
		violation("%u records never returned", missing);
	if (!atomic_load(&formatted))
		violation("no formatter ran");
	klog_ns_put(ns);
	klog_testing_set_unlocked_hook(NULL);
	klog_testing_set_unlock_check(NULL);
	free(seen);
	/* Formatted by READ but not returned: started over, or no room. */
	printf("readers: %u records, %u readers, %ld formatted and not "
	       "returned: %s\n", nrecords, nreaders,
	       atomic_load(&reader_formats) - (long)nrecords,
	       atomic_load(&violations) ? "FAILED" : "ok");
	return atomic_load(&violations) ? 1 : 0;
}
