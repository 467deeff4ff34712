// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_kmsg.c - /dev/kmsg (klog_kmsg_*) and /proc/kmsg (klog_proc_kmsg_*).
 *
 * Expected bytes and errno values are those of Linux 6.12's
 * devkmsg_open/read/write/llseek/poll (kernel/printk/printk.c) and
 * fs/proc/kmsg.c, acting on one namespace.  The per-namespace write
 * ratelimit is docs/design.md S6.  Time is a fake clock starting at 1 s, so a
 * record written then shows usec 1000000.
 */
#include <pthread.h>
#include <time.h>

#include "caller.h"

#define POLL_IN (KLOG_POLLIN | KLOG_POLLRDNORM)
#define POLL_LOST (POLL_IN | KLOG_POLLERR | KLOG_POLLPRI)

/* ---- fixture ----------------------------------------------------------- */

static struct klog_kmsg f, g;
static char out[8192];

/* caller.h's fixture, with no copies to the root, and two files. */
static int setup(void **state)
{
	(void)state;
	memset(&f, 0, sizeof(f));
	memset(&g, 0, sizeof(g));
	return caller_fixture_setup(KLOG_PROPAGATE_NONE);
}

static int teardown(void **state)
{
	(void)state;
	if (f.ns)
		klog_kmsg_release(&f);
	if (g.ns)
		klog_kmsg_release(&g);
	caller_fixture_teardown();
	return 0;
}

static void open_rw(struct klog_kmsg *file, struct tcaller *c)
{
	assert_int_equal(klog_kmsg_open(file, &c->ctx,
					KLOG_KMSG_READ | KLOG_KMSG_WRITE), 0);
}

static ssize_t wr(struct klog_kmsg *file, const char *s)
{
	return klog_kmsg_write(file, s, strlen(s), "test");
}

static void expect_wr(struct klog_kmsg *file, const char *s)
{
	assert_int_equal(wr(file, s), (ssize_t)strlen(s));
}

/* The next record (non-blocking read with a large buffer) is @want. */
static void expect_rec_n(struct klog_kmsg *file, const char *want,
			 size_t len)
{
	ssize_t n = klog_kmsg_read(file, KLOG_MESSAGE_MAX, true);

	if (n < 0)
		fail_msg("read: %zd, want \"%.*s\"", n, (int)len, want);
	if ((size_t)n != len || memcmp(file->outbuf, want, len))
		fail_msg("read \"%.*s\" (%zd) != \"%.*s\" (%zu)", (int)n,
			 file->outbuf, n, (int)len, want, len);
}

static void expect_rec(struct klog_kmsg *file, const char *want)
{
	expect_rec_n(file, want, strlen(want));
}

static void expect_none(struct klog_kmsg *file)
{
	assert_int_equal(klog_kmsg_read(file, KLOG_MESSAGE_MAX, true), -EAGAIN);
}

/* One write on a fresh file, then read back the one record it made. */
static void write_reads_back(const char *w, size_t wlen, const char *want)
{
	assert_int_equal(klog_kmsg_write(&f, w, wlen, "test"), (ssize_t)wlen);
	expect_rec(&f, want);
	expect_none(&f);
}

static struct klog_ns_stats stats(struct klog_ns *ns)
{
	struct klog_ns_stats st;

	klog_ns_get_stats(ns, &st);
	return st;
}

/* ---- open, reference, release ------------------------------------------- */

static void open_binds_namespace_and_holds_reference(void **state)
{
	struct klog_ns *child = mk_user_child(root, "c", 4096);
	struct tcaller c;

	(void)state;
	caller_init(&c, child);
	grant(&c, &child_userns);
	klog_ns_printk(root, "\0016host\n");
	klog_ns_printk(child, "\0016hello\n");
	assert_int_equal(kl_ref_read(&child->ref), 2);
	open_rw(&f, &c);
	assert_ptr_equal(f.ns, child);
	assert_int_equal(kl_ref_read(&child->ref), 3);
	/* The creator and the opener go away; the open file keeps it. */
	caller_fini(&c);
	klog_ns_put(child);
	assert_int_equal(kl_ref_read(&f.ns->ref), 1);
	expect_rec(&f, "6,0,1000000,-;hello\n");
	expect_wr(&f, "<5>still here\n");
	expect_rec(&f, "13,1,1000000,-;still here\n");
	expect_none(&f);
	/* The last reference goes with the file (valgrind checks it). */
	klog_kmsg_release(&f);
	assert_null(f.ns);
	assert_int_equal(kl_ref_read(&root->ref), 2);
}

static void open_starts_at_first_record(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 4096);
	struct tcaller c;
	char want[64];
	unsigned int i;

	(void)state;
	caller_init(&c, child);
	for (i = 0; i < 300; i++)
		klog_ns_printk(child, "\0016msg %03u\n", i);
	assert_true(child->ring.first_seq > 0);
	/* Opened after the overwrite: no loss to report. */
	open_rw(&f, &c);
	assert_int_equal(klog_kmsg_poll(&f), POLL_IN);
	snprintf(want, sizeof(want), "6,%llu,1000000,-;msg %03llu\n",
		 (unsigned long long)child->ring.first_seq,
		 (unsigned long long)child->ring.first_seq);
	expect_rec(&f, want);
	caller_fini(&c);
	klog_ns_put(child);
}

static void open_read_denied_by_dmesg_restrict(void **state)
{
	struct tcaller u;

	(void)state;
	caller_init(&u, root);
	klog_ns_printk(root, "\0016hello\n");
	/* Unrestricted, anybody may read. */
	open_rw(&f, &u);
	expect_rec(&f, "6,0,1000000,-;hello\n");
	klog_kmsg_release(&f);

	klog_ns_set_dmesg_restrict(root, 1);
	assert_int_equal(klog_kmsg_open(&f, &u.ctx, KLOG_KMSG_READ), -EPERM);
	assert_int_equal(klog_kmsg_open(&f, &u.ctx,
					KLOG_KMSG_READ | KLOG_KMSG_WRITE),
			 -EPERM);
	assert_int_equal(kl_ref_read(&root->ref), 3);
	/* Write-only needs no permission. */
	assert_int_equal(klog_kmsg_open(&f, &u.ctx, KLOG_KMSG_WRITE), 0);
	assert_int_equal(wr(&f, "<6>from user\n"), 13);
	klog_kmsg_release(&f);
	/* CAP_SYSLOG over the owner opens for reading. */
	assert_int_equal(klog_kmsg_open(&f, &me.ctx, KLOG_KMSG_READ), 0);
	expect_rec(&f, "6,0,1000000,-;hello\n");
	expect_rec(&f, "14,1,1000000,-;from user\n");
	caller_fini(&u);
}

static void open_eperm_when_devkmsg_off(void **state)
{
	(void)state;
	cfg.devkmsg = KLOG_DEVKMSG_OFF;
	assert_int_equal(klog_kmsg_open(&f, &me.ctx, KLOG_KMSG_READ), -EPERM);
	assert_int_equal(klog_kmsg_open(&f, &me.ctx, KLOG_KMSG_WRITE), -EPERM);
	assert_int_equal(klog_kmsg_open(&f, &me.ctx,
					KLOG_KMSG_READ | KLOG_KMSG_WRITE),
			 -EPERM);
	assert_int_equal(kl_ref_read(&root->ref), 2);
	cfg.devkmsg = KLOG_DEVKMSG_ON;
	open_rw(&f, &me);
}

/*
 * The hooks asked by one open, as 6.12's devkmsg_open(): a reader is
 * checked as SYSLOG_ACTION_READ_ALL from a reader (the capability only
 * under dmesg_restrict, then the security hook, each once); a write-only
 * open asks nothing.  @want is the hooks in order ('c', 's').
 */
static void expect_open_hooks(struct tcaller *c, unsigned int mode,
			      int ret, const char *want)
{
	int i;

	hooks_reset(c);
	assert_int_equal(klog_kmsg_open(&f, &c->ctx, mode), ret);
	if (strcmp(c->hooks, want))
		fail_msg("mode %u: hooks \"%s\", want \"%s\"", mode, c->hooks,
			 want);
	assert_int_equal(c->cap_calls, !!strchr(want, 'c'));
	assert_int_equal(c->sec_calls, !!strchr(want, 's'));
	for (i = 0; i < c->sec_calls; i++)
		assert_int_equal(c->sec_type[i], KLOG_SYSLOG_ACTION_READ_ALL);
	if (!ret)
		klog_kmsg_release(&f);
	assert_null(f.ns);
}

static void open_asks_each_hook_once(void **state)
{
	static const unsigned int modes[] = {
		KLOG_KMSG_READ, KLOG_KMSG_WRITE,
		KLOG_KMSG_READ | KLOG_KMSG_WRITE,
	};
	struct tcaller c;
	int dr, priv;
	size_t i;

	(void)state;
	for (dr = 0; dr < 2; dr++) {
		klog_ns_set_dmesg_restrict(root, dr);
		for (priv = 0; priv < 2; priv++) {
			caller_init(&c, root);
			if (priv)
				grant(&c, &init_userns);
			for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
				bool rd = modes[i] & KLOG_KMSG_READ;

				if (!rd)
					expect_open_hooks(&c, modes[i], 0, "");
				else if (!dr)
					expect_open_hooks(&c, modes[i], 0, "s");
				else if (priv)
					expect_open_hooks(&c, modes[i], 0,
							  "cs");
				else
					expect_open_hooks(&c, modes[i],
							  -EPERM, "c");
			}
			/* A /proc/kmsg ctx is still checked as a reader. */
			c.ctx.source = KLOG_FROM_PROC;
			if (dr && !priv)
				expect_open_hooks(&c, KLOG_KMSG_READ, -EPERM,
						  "c");
			caller_fini(&c);
		}
	}
	assert_int_equal(kl_ref_read(&root->ref), 2);
}

/*
 * The security hook refuses readers with its own error, and no
 * reference is taken; it is not asked for a write-only open (6.12 checks
 * nothing then).  Without the capability it is never asked.
 */
static void open_security_error_refuses_readers(void **state)
{
	struct tcaller u;

	(void)state;
	me.sec_ret = -EACCES;
	expect_open_hooks(&me, KLOG_KMSG_READ, -EACCES, "s");
	expect_open_hooks(&me, KLOG_KMSG_READ | KLOG_KMSG_WRITE, -EACCES,
			  "s");
	expect_open_hooks(&me, KLOG_KMSG_WRITE, 0, "");
	me.sec_ret = -EIO;
	expect_open_hooks(&me, KLOG_KMSG_READ, -EIO, "s");
	klog_ns_set_dmesg_restrict(root, 1);
	expect_open_hooks(&me, KLOG_KMSG_READ, -EIO, "cs");
	caller_init(&u, root);
	u.sec_ret = -EACCES;
	expect_open_hooks(&u, KLOG_KMSG_READ, -EPERM, "c");
	caller_fini(&u);
	assert_int_equal(kl_ref_read(&root->ref), 2);
}

/*
 * ctx->checked: the embedder already checked; the open asks neither
 * hook and lets the reader in.  printk.devkmsg=off is still -EPERM, and
 * comes before any hook, as in 6.12.
 */
static void open_checked_asks_no_hook(void **state)
{
	struct tcaller u;

	(void)state;
	klog_ns_printk(root, "\0016hello\n");
	klog_ns_set_dmesg_restrict(root, 1);
	caller_init(&u, root);
	u.sec_ret = -EACCES;
	u.ctx.checked = true;
	hooks_reset(&u);
	assert_int_equal(klog_kmsg_open(&f, &u.ctx, KLOG_KMSG_READ), 0);
	assert_string_equal(u.hooks, "");
	expect_rec(&f, "6,0,1000000,-;hello\n");
	klog_kmsg_release(&f);
	cfg.devkmsg = KLOG_DEVKMSG_OFF;
	expect_open_hooks(&u, KLOG_KMSG_READ, -EPERM, "");
	u.ctx.checked = false;
	expect_open_hooks(&u, KLOG_KMSG_READ, -EPERM, "");
	expect_open_hooks(&me, KLOG_KMSG_READ, -EPERM, "");
	caller_fini(&u);
}

static void write_dropped_when_devkmsg_turned_off(void **state)
{
	char big[KLOG_RECORD_MAX + 1];

	(void)state;
	open_rw(&f, &me);
	cfg.devkmsg = KLOG_DEVKMSG_OFF;
	assert_int_equal(wr(&f, "<6>ignored\n"), 11);
	expect_none(&f);
	/* The length check comes first. */
	memset(big, 'x', sizeof(big));
	assert_int_equal(klog_kmsg_write(&f, big, sizeof(big), "test"),
			 -EINVAL);
	assert_int_equal(stats(root).dropped_ratelimit, 0);
}

/* ---- read ------------------------------------------------------------------ */

static void read_one_record_per_call(void **state)
{
	(void)state;
	klog_ns_printk(root, "\0016hello\n");
	fake_now = 2 * NSEC_PER_SEC + 345678;
	klog_ns_printk(root, "\0013world\n");
	open_rw(&f, &me);
	expect_rec(&f, "6,0,1000000,-;hello\n");
	expect_rec(&f, "3,1,2000345,-;world\n");
	expect_none(&f);
}

static void read_too_small_einval_consumes(void **state)
{
	(void)state;
	klog_ns_printk(root, "\0016hello\n");	/* 20 bytes */
	klog_ns_printk(root, "\0016world\n");
	open_rw(&f, &me);
	assert_int_equal(klog_kmsg_read(&f, 19, true), -EINVAL);
	/* The record is gone for this reader: the next read is the next. */
	assert_int_equal(klog_kmsg_read(&f, 20, true), 20);
	assert_memory_equal(f.outbuf, "6,1,1000000,-;world\n", 20);
	expect_none(&f);
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_SET), 0);
	assert_int_equal(klog_kmsg_read(&f, 0, true), -EINVAL);
	assert_int_equal(klog_kmsg_read(&f, 20, true), 20);
	assert_memory_equal(f.outbuf, "6,1,1000000,-;world\n", 20);
}

static void read_epipe_once_after_overwrite(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 4096);
	struct tcaller c;
	char want[64];
	unsigned int i;
	u64 first;

	(void)state;
	caller_init(&c, child);
	open_rw(&f, &c);
	klog_ns_printk(child, "\0016msg 000\n");
	expect_rec(&f, "6,0,1000000,-;msg 000\n");
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_SET), 0);
	for (i = 1; i < 300; i++)
		klog_ns_printk(child, "\0016msg %03u\n", i);
	first = child->ring.first_seq;
	assert_true(first > 1);

	assert_int_equal(klog_kmsg_poll(&f), POLL_LOST);
	assert_int_equal(klog_kmsg_read(&f, KLOG_MESSAGE_MAX, true), -EPIPE);
	/* Once: then the oldest record, and on from there. */
	assert_int_equal(klog_kmsg_poll(&f), POLL_IN);
	snprintf(want, sizeof(want), "6,%llu,1000000,-;msg %03llu\n",
		 (unsigned long long)first, (unsigned long long)first);
	expect_rec(&f, want);
	snprintf(want, sizeof(want), "6,%llu,1000000,-;msg %03llu\n",
		 (unsigned long long)first + 1,
		 (unsigned long long)first + 1);
	expect_rec(&f, want);
	assert_int_equal(stats(child).dropped_overwrite, first);
	caller_fini(&c);
	klog_ns_put(child);
}

static void read_epipe_checked_before_size(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 4096);
	struct tcaller c;
	char want[64];
	unsigned int i;

	(void)state;
	caller_init(&c, child);
	open_rw(&f, &c);
	for (i = 0; i < 300; i++)
		klog_ns_printk(child, "\0016msg %03u\n", i);
	/* A lost cursor is EPIPE even for a tiny buffer, and nothing is
	 * consumed by it. */
	assert_int_equal(klog_kmsg_read(&f, 1, true), -EPIPE);
	assert_int_equal(klog_kmsg_read(&f, 1, true), -EINVAL);
	snprintf(want, sizeof(want), "6,%llu,1000000,-;msg %03llu\n",
		 (unsigned long long)child->ring.first_seq + 1,
		 (unsigned long long)child->ring.first_seq + 1);
	expect_rec(&f, want);
	assert_int_equal(klog_kmsg_poll(&f), POLL_IN);
	caller_fini(&c);
	klog_ns_put(child);
}

static void read_nonblock_empty_eagain(void **state)
{
	(void)state;
	open_rw(&f, &me);
	expect_none(&f);
	klog_ns_printk(root, "\0016x\n");
	expect_rec(&f, "6,0,1000000,-;x\n");
	expect_none(&f);
}

static ssize_t late_written;

static void *late_writer(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	(void)arg;
	nanosleep(&ts, NULL);
	late_written = wr(&g, "<6>late\n");
	return NULL;
}

static void read_blocks_until_a_record(void **state)
{
	pthread_t t;
	ssize_t n;

	(void)state;
	open_rw(&f, &me);
	assert_int_equal(klog_kmsg_open(&g, &me.ctx, KLOG_KMSG_WRITE), 0);
	assert_int_equal(pthread_create(&t, NULL, late_writer, NULL), 0);
	n = klog_kmsg_read(&f, KLOG_MESSAGE_MAX, false);
	pthread_join(t, NULL);
	assert_int_equal(late_written, 8);
	assert_int_equal(n, 20);
	assert_memory_equal(f.outbuf, "14,0,1000000,-;late\n", 20);
}

static void readers_have_own_cursors(void **state)
{
	(void)state;
	klog_ns_printk(root, "\0016a\n");
	klog_ns_printk(root, "\0016b\n");
	open_rw(&f, &me);
	open_rw(&g, &me);
	expect_rec(&f, "6,0,1000000,-;a\n");
	expect_rec(&f, "6,1,1000000,-;b\n");
	expect_rec(&g, "6,0,1000000,-;a\n");
	/* /dev/kmsg readers leave the syslog cursor alone. */
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_SIZE_UNREAD,
				     NULL, 0), 2 * 20);
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_READ, out,
				     sizeof(out)), 2 * 20);
	expect_rec(&g, "6,1,1000000,-;b\n");
}

static void read_cont_flag_and_dict(void **state)
{
	static const char dict[] = "SUBSYSTEM=net\0DEVICE=n2\0EMPTY=\0";
	struct klog_msg m = {
		.level = 3, .flags = KLOG_F_CONT, .caller_id = 7,
		.text = "tail\n", .text_len = 5,
	};
	struct klog_msg d = {
		.level = 6, .caller_id = 7, .text = "eth0: up", .text_len = 8,
		.dict = dict, .dict_len = sizeof(dict) - 1,
	};

	(void)state;
	assert_int_equal(klog_ns_store(root, &m), 4);
	assert_int_equal(klog_ns_store(root, &d), 8);
	/* A KERN_CONT fragment with nothing to continue. */
	klog_ns_printk(root, "\001cx\n");
	open_rw(&f, &me);
	expect_rec(&f, "3,0,1000000,c;tail\n");
	expect_rec(&f, "6,1,1000000,-;eth0: up\n SUBSYSTEM=net\n DEVICE=n2\n");
	expect_rec(&f, "4,2,1000000,c;x\n");
}

/* cfg->printk_caller: the caller id as CONFIG_PRINTK_CALLER shows it. */
static void read_caller_id_when_configured(void **state)
{
	struct klog_msg m = {
		.level = 6, .caller_id = 42, .text = "from a task\n",
		.text_len = 12,
	};
	struct klog_msg c = {
		.level = 4, .caller_id = 0x80000000u | 1,
		.text = "from cpu 1\n", .text_len = 11,
	};

	(void)state;
	cfg.printk_caller = true;
	assert_int_equal(klog_ns_store(root, &m), 11);
	assert_int_equal(klog_ns_store(root, &c), 10);
	open_rw(&f, &me);
	expect_rec(&f, "6,0,1000000,-,caller=T42;from a task\n");
	expect_rec(&f, "4,1,1000000,-,caller=C1;from cpu 1\n");
	/* syslog(2) text: "[   T42]" after the timestamp */
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_READ_ALL,
				     out, sizeof(out)),
			 (int)strlen("<6>[    1.000000][   T42] from a task\n"
				     "<4>[    1.000000][    C1] from cpu 1\n"));
	assert_memory_equal(out, "<6>[    1.000000][   T42] from a task\n"
			    "<4>[    1.000000][    C1] from cpu 1\n",
			    strlen("<6>[    1.000000][   T42] from a task\n"
				   "<4>[    1.000000][    C1] from cpu 1\n"));
	/* off again (the default): no caller field */
	cfg.printk_caller = false;
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_SET), 0);
	expect_rec(&f, "6,0,1000000,-;from a task\n");
}

static void read_escapes_written_bytes(void **state)
{
	static const char w[] = "<6>tab\tback\\del\x7fhi\xc3\xa9\n";

	(void)state;
	open_rw(&f, &me);
	write_reads_back(w, sizeof(w) - 1,
			 "14,0,1000000,-;tab\\x09back\\x5cdel\\x7fhi\\xc3\\xa9\n");
}

/* ---- write prefixes ------------------------------------------------------ */

static void write_prefix_level(void **state)
{
	(void)state;
	open_rw(&f, &me);
	/* Level 6, facility LOG_USER (1) as no facility was given. */
	write_reads_back("<6>x", 4, "14,0,1000000,-;x\n");
}

static void write_no_prefix_default_level(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("x", 1, "12,0,1000000,-;x\n");
	cfg.default_level = 6;
	write_reads_back("y\n", 2, "14,1,1000000,-;y\n");
}

static void write_prefix_facility_and_level(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("<999>x", 6, "999,0,1000000,-;x\n");
	write_reads_back("<14>x", 5, "14,1,1000000,-;x\n");
	write_reads_back("<13>x", 5, "13,2,1000000,-;x\n");
	write_reads_back("<165>x", 6, "165,3,1000000,-;x\n");
}

static void write_prefix_kernel_facility_becomes_user(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("<0>x", 4, "8,0,1000000,-;x\n");
	write_reads_back("<7>x", 4, "15,1,1000000,-;x\n");
	/* (2048 >> 3) & 0xff is 0 too. */
	write_reads_back("<2048>x", 7, "8,2,1000000,-;x\n");
	/* The number wraps as an unsigned int: 2^32 + 6 is 6. */
	write_reads_back("<4294967302>x", 13, "14,3,1000000,-;x\n");
}

static void write_prefix_empty_number(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("<>x", 3, "8,0,1000000,-;x\n");
}

static void write_prefix_malformed_kept(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("<6x>x", 5, "12,0,1000000,-;<6x>x\n");
	write_reads_back("<", 1, "12,1,1000000,-;<\n");
	write_reads_back("<6", 2, "12,2,1000000,-;<6\n");
	write_reads_back("< 6>x", 5, "12,3,1000000,-;< 6>x\n");
	write_reads_back("<+6>x", 5, "12,4,1000000,-;<+6>x\n");
	write_reads_back("x<6>y", 5, "12,5,1000000,-;x<6>y\n");
	/* Only one prefix is parsed. */
	write_reads_back("<6><3>x", 7, "14,6,1000000,-;<3>x\n");
}

static void write_prefix_only_makes_empty_record(void **state)
{
	(void)state;
	open_rw(&f, &me);
	/* devkmsg_emit(1, 6, "%s", "") stores an empty record. */
	write_reads_back("<6>", 3, "14,0,1000000,-;\n");
	write_reads_back("<6>\n", 4, "14,1,1000000,-;\n");
}

static void write_kernel_prefix_not_parsed(void **state)
{
	(void)state;
	open_rw(&f, &me);
	/* User text is printed with "%s": KERN_SOH stays in the text. */
	write_reads_back("\0013x", 3, "12,0,1000000,-;\\x013x\n");
	write_reads_back("<6>\001cy", 6, "14,1,1000000,-;\\x01cy\n");
}

static void write_strips_one_newline(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("hi\n", 3, "12,0,1000000,-;hi\n");
	write_reads_back("a\n\n", 3, "12,1,1000000,-;a\\x0a\n");
	write_reads_back("\n", 1, "12,2,1000000,-;\n");
}

static void write_multiline_one_record(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("<6>a\nb\n", 7, "14,0,1000000,-;a\\x0ab\n");
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_READ_ALL, out,
				     sizeof(out)), 2 * 19 + 4);
	out[2 * 19 + 4] = '\0';
	assert_string_equal(out, "<14>[    1.000000] a\n<14>[    1.000000] b\n");
}

static void write_stops_at_nul(void **state)
{
	(void)state;
	open_rw(&f, &me);
	write_reads_back("ab\0cd", 5, "12,0,1000000,-;ab\n");
	/* A NUL inside the number ends it: the prefix is kept. */
	write_reads_back("<6\0>x", 5, "12,1,1000000,-;<6\n");
}

static void write_empty_returns_zero(void **state)
{
	(void)state;
	open_rw(&f, &me);
	/* devkmsg_write() with len 0 still emits "%s" of "". */
	assert_int_equal(klog_kmsg_write(&f, "", 0, "test"), 0);
	expect_rec(&f, "12,0,1000000,-;\n");
	expect_none(&f);
}

static void write_over_1024_einval(void **state)
{
	char big[4096];
	int i;

	(void)state;
	memset(big, 'x', sizeof(big));
	open_rw(&f, &me);
	assert_int_equal(klog_kmsg_write(&f, big, KLOG_RECORD_MAX + 1, "test"),
			 -EINVAL);
	assert_int_equal(klog_kmsg_write(&f, big, sizeof(big), "test"),
			 -EINVAL);
	expect_none(&f);
	/* Refused writes use none of the ratelimit budget. */
	for (i = 0; i < 10; i++)
		assert_int_equal(wr(&f, "ok\n"), 3);
	assert_int_equal(stats(root).dropped_ratelimit, 0);
	assert_int_equal(root->ring.next_seq, 10);
}

static void write_exactly_1024_accepted(void **state)
{
	char big[KLOG_RECORD_MAX], want[KLOG_MESSAGE_MAX];
	size_t n;

	(void)state;
	open_rw(&f, &me);
	memset(big, 'x', sizeof(big));
	assert_int_equal(klog_kmsg_write(&f, big, sizeof(big), "test"),
			 KLOG_RECORD_MAX);
	/*
	 * vprintk_store() reserves at most PRINTKRB_RECORD_MAX bytes
	 * including the terminator: 1023 bytes of text are kept.
	 */
	n = (size_t)sprintf(want, "12,0,1000000,-;");
	memset(want + n, 'x', KLOG_RECORD_MAX - 1);
	n += KLOG_RECORD_MAX - 1;
	want[n++] = '\n';
	expect_rec_n(&f, want, n);
	/* With a newline as the 1024th byte, the newline is what is cut. */
	big[KLOG_RECORD_MAX - 1] = '\n';
	assert_int_equal(klog_kmsg_write(&f, big, sizeof(big), "test"),
			 KLOG_RECORD_MAX);
	n = (size_t)sprintf(want, "12,1,1000000,-;");
	memset(want + n, 'x', KLOG_RECORD_MAX - 1);
	n += KLOG_RECORD_MAX - 1;
	want[n++] = '\n';
	expect_rec_n(&f, want, n);
	/* The prefix does not count against the text. */
	memcpy(big, "<6>", 3);
	big[KLOG_RECORD_MAX - 1] = 'x';
	assert_int_equal(klog_kmsg_write(&f, big, sizeof(big), "test"),
			 KLOG_RECORD_MAX);
	n = (size_t)sprintf(want, "14,2,1000000,-;");
	memset(want + n, 'x', KLOG_RECORD_MAX - 3);
	n += KLOG_RECORD_MAX - 3;
	want[n++] = '\n';
	expect_rec_n(&f, want, n);
}

/* ---- write ratelimit (docs/design.md S6) --------------------------------- */

static void ratelimit_is_per_namespace_not_per_file(void **state)
{
	struct klog_kmsg h;
	int i;

	(void)state;
	assert_int_equal(cfg.devkmsg, KLOG_DEVKMSG_RATELIMIT);
	open_rw(&f, &me);
	open_rw(&g, &me);
	for (i = 0; i < 6; i++) {
		assert_int_equal(wr(&f, "f\n"), 2);
		assert_int_equal(wr(&g, "g\n"), 2);
	}
	assert_int_equal(root->ring.next_seq, 10);
	assert_int_equal(stats(root).dropped_ratelimit, 2);
	/* Another file buys no more budget. */
	assert_int_equal(klog_kmsg_open(&h, &me.ctx, KLOG_KMSG_WRITE), 0);
	clock_advance_ms(4999);
	assert_int_equal(wr(&h, "h\n"), 2);
	assert_int_equal(root->ring.next_seq, 10);
	assert_int_equal(stats(root).dropped_ratelimit, 3);
	klog_kmsg_release(&h);
}

static void ratelimit_window_reopens(void **state)
{
	char want[64];
	int i;

	(void)state;
	open_rw(&f, &me);
	for (i = 0; i < 12; i++)
		assert_int_equal(wr(&f, "<6>w\n"), 5);
	assert_int_equal(stats(root).dropped_ratelimit, 2);
	for (i = 0; i < 10; i++) {
		snprintf(want, sizeof(want), "14,%d,1000000,-;w\n", i);
		expect_rec(&f, want);
	}
	expect_none(&f);
	/*
	 * After the 5 s window the budget is back.  The namespace's limiter
	 * reports what it refused before the first write of the new window
	 * (upstream's per-file limiter reports it at release).
	 */
	clock_advance_ms(5001);
	assert_int_equal(wr(&f, "<6>again\n"), 9);
	expect_rec(&f, "4,10,6001000,-;printk: test: 2 output lines suppressed due to ratelimiting\n");
	expect_rec(&f, "14,11,6001000,-;again\n");
	for (i = 0; i < 9; i++)
		assert_int_equal(wr(&f, "<6>w\n"), 5);
	assert_int_equal(wr(&f, "<6>w\n"), 5);
	assert_int_equal(root->ring.next_seq, 21);
	assert_int_equal(stats(root).dropped_ratelimit, 3);
}

static void ratelimit_separate_namespaces(void **state)
{
	struct klog_ns *child = mk_user_child(root, "c", 4096);
	struct tcaller c;
	int i;

	(void)state;
	caller_init(&c, child);
	open_rw(&f, &me);
	open_rw(&g, &c);
	for (i = 0; i < 11; i++)
		assert_int_equal(wr(&f, "r\n"), 2);
	assert_int_equal(stats(root).dropped_ratelimit, 1);
	for (i = 0; i < 10; i++)
		assert_int_equal(wr(&g, "c\n"), 2);
	assert_int_equal(stats(child).dropped_ratelimit, 0);
	assert_int_equal(child->ring.next_seq, 10);
	caller_fini(&c);
	klog_ns_put(child);
}

static void ratelimit_off_when_devkmsg_on(void **state)
{
	int i;

	(void)state;
	cfg.devkmsg = KLOG_DEVKMSG_ON;
	open_rw(&f, &me);
	for (i = 0; i < 50; i++)
		assert_int_equal(wr(&f, "<6>on\n"), 6);
	assert_int_equal(root->ring.next_seq, 50);
	assert_int_equal(stats(root).dropped_ratelimit, 0);
}

/*
 * The write ratelimit's note names a comm the writer chose: it is user
 * text (KLOG_MSG_USER).  Under policy 1 it stays in the child like the
 * writes; under policy 2 it is copied with them.  The comm is cut to 16
 * bytes.
 */
static void ratelimit_note_copied_only_under_policy_all(void **state)
{
	struct klog_ns *child = mk_user_child(root, "c", 8192);
	struct tcaller c;
	char want[256];
	int i;

	(void)state;
	assert_int_equal(child->id, 2);
	caller_init(&c, child);
	grant(&c, &child_userns);
	open_rw(&g, &c);
	open_rw(&f, &me);
	cfg.propagate = KLOG_PROPAGATE_KERNEL;
	for (i = 0; i < 12; i++)
		expect_wr(&g, "<6>w\n");
	assert_int_equal(stats(child).dropped_ratelimit, 2);
	klog_ns_printk(child, "\0016kernel\n");
	clock_advance_ms(5001);
	assert_int_equal(klog_kmsg_write(&g, "<6>again\n", 9,
					 "a-very-long-command-name"), 9);
	for (i = 0; i < 11; i++)
		assert_true(klog_kmsg_read(&g, KLOG_MESSAGE_MAX, true) > 0);
	expect_rec(&g, "4,11,6001000,-;printk: a-very-long-comm: 2 output lines suppressed due to ratelimiting\n");
	expect_rec(&g, "14,12,6001000,-;again\n");
	expect_none(&g);
	/* The root got the kernel record only, with the copy dictionary. */
	expect_rec(&f, "6,0,1000000,-;[ns:2:c] kernel\n"
		   " SUBSYSTEM=syslog_ns\n DEVICE=+syslog_ns:2\n");
	expect_none(&f);
	assert_int_equal(stats(child).propagated, 1);
	assert_int_equal(stats(child).suppressed, 0);

	/* Policy 2: the writes and the note are copied. */
	cfg.propagate = KLOG_PROPAGATE_ALL;
	for (i = 0; i < 12; i++)
		expect_wr(&g, "<6>x\n");	/* 9 fit, 3 refused */
	clock_advance_ms(5001);
	expect_wr(&g, "<6>last\n");
	for (i = 0; i < 9; i++) {
		snprintf(want, sizeof(want), "14,%d,6001000,-;[ns:2:c] x\n"
			 " SUBSYSTEM=syslog_ns\n DEVICE=+syslog_ns:2\n", i + 1);
		expect_rec(&f, want);
	}
	/* The note names a task: a user copy, notice at most, LOG_USER. */
	expect_rec(&f, "13,10,11002000,-;[ns:2:c] printk: test: 3 output lines suppressed due to ratelimiting\n"
		   " SUBSYSTEM=syslog_ns\n DEVICE=+syslog_ns:2\n");
	expect_rec(&f, "14,11,11002000,-;[ns:2:c] last\n"
		   " SUBSYSTEM=syslog_ns\n DEVICE=+syslog_ns:2\n");
	expect_none(&f);
	assert_int_equal(stats(child).propagated, 1 + 9 + 2);
	caller_fini(&c);
	klog_ns_put(child);
}

/*
 * The default policy is KLOG_PROPAGATE_NONE: with a fresh config, or a
 * root's own, nothing a child stores reaches a parent, neither a kernel
 * record nor a /dev/kmsg write, from a child or a grandchild.
 */
static void default_policy_copies_nothing(void **state)
{
	struct klog_config fresh;
	struct klog_ns_params p = { .size = 4096 };
	struct klog_msg um = {
		.level = 5, .flags = KLOG_MSG_USER, .caller_id = 9,
		.text = "user in the grandchild\n", .text_len = 23,
	};
	struct klog_ns *own, *child, *grand;
	struct tcaller c;

	(void)state;
	memset(&fresh, 0xa5, sizeof(fresh));
	klog_config_init(&fresh);
	assert_int_equal(fresh.propagate, KLOG_PROPAGATE_NONE);
	assert_int_equal(klog_ns_create(NULL, &p, &own), 0);
	assert_int_equal(own->cfg->propagate, KLOG_PROPAGATE_NONE);
	klog_ns_put(own);

	/* The fixture's root runs on klog_config_init() as it is. */
	assert_int_equal(cfg.propagate, KLOG_PROPAGATE_NONE);
	child = mk_user_child(root, "c", 4096);
	grand = mk_user_child(child, NULL, 4096);
	caller_init(&c, child);
	grant(&c, &child_userns);
	open_rw(&g, &c);
	klog_ns_printk(child, "\0013kernel in the child\n");
	expect_wr(&g, "<5>written in the child\n");
	klog_ns_printk(grand, "\0013kernel in the grandchild\n");
	assert_int_equal(klog_ns_store(grand, &um), 22);
	klog_ns_flush(grand);
	klog_ns_flush(child);
	assert_int_equal(grand->ring.next_seq, 2);
	assert_int_equal(child->ring.next_seq, 2);	/* its own only */
	assert_int_equal(root->ring.next_seq, 0);
	assert_int_equal(stats(child).propagated, 0);
	assert_int_equal(stats(child).suppressed, 0);
	assert_int_equal(stats(grand).propagated, 0);
	assert_int_equal(stats(grand).suppressed, 0);
	/* The host's /dev/kmsg shows nothing of them. */
	open_rw(&f, &me);
	expect_none(&f);
	caller_fini(&c);
	klog_ns_put(grand);
	klog_ns_put(child);
}

/* ---- llseek ----------------------------------------------------------------- */

static void seek_set_end_data(void **state)
{
	(void)state;
	klog_ns_printk(root, "\0016a\n");
	klog_ns_printk(root, "\0016b\n");
	open_rw(&f, &me);
	/* SEEK_DATA without a clear: the first record. */
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_DATA), 0);
	expect_rec(&f, "6,0,1000000,-;a\n");
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_END), 0);
	expect_none(&f);
	assert_int_equal(klog_kmsg_poll(&f), 0);
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_CLEAR, NULL,
				     0), 0);
	klog_ns_printk(root, "\0016c\n");
	expect_rec(&f, "6,2,1000000,-;c\n");
	/* SEEK_DATA: the first record after the last clear. */
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_DATA), 0);
	expect_rec(&f, "6,2,1000000,-;c\n");
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_SET), 0);
	expect_rec(&f, "6,0,1000000,-;a\n");
	expect_rec(&f, "6,1,1000000,-;b\n");
}

/*
 * ---- formatting outside the lock ------------------------------------------
 *
 * A /dev/kmsg read copies the record into f.raw and moves the cursor
 * under the namespace's lock, then formats the copy with the lock dropped.
 */

/* Both files format with no lock held. */
static void reads_format_with_no_lock_held(void **state)
{
	struct tcaller p;
	unsigned int before;

	(void)state;
	klog_ns_printk(root, "\0016a\n");
	klog_ns_printk(root, "\0016b\n");
	open_rw(&f, &me);
	watch_start(NULL);
	expect_rec(&f, "6,0,1000000,-;a\n");
	assert_true(watch_calls > 0);
	before = watch_calls;
	assert_int_equal(klog_kmsg_read(&f, 4, true), -EINVAL);
	assert_true(watch_calls > before);
	caller_init(&p, root);
	p.ctx.source = KLOG_FROM_PROC;
	before = watch_calls;
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, 100, true), 40);
	assert_true(watch_calls > before);
	caller_fini(&p);
	watch_stop();
}

static void flood_child(void)
{
	unsigned int i;

	for (i = 1; i < 300; i++)
		klog_ns_printk(f.ns, "\0016msg %03u\n", i);
}

/*
 * A record overwritten while it is formatted is still returned whole, and
 * the loss is reported by the next read, as if it came after this one.
 */
static void read_formats_its_copy_of_an_overwritten_record(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 4096);
	struct tcaller c;
	char want[64];

	(void)state;
	caller_init(&c, child);
	open_rw(&f, &c);
	klog_ns_printk(child, "\0016msg 000\n");
	watch_start(flood_child);
	expect_rec(&f, "6,0,1000000,-;msg 000\n");
	watch_stop();
	assert_true(child->ring.first_seq > 1);
	assert_int_equal(klog_kmsg_read(&f, KLOG_MESSAGE_MAX, true), -EPIPE);
	snprintf(want, sizeof(want), "6,%llu,1000000,-;msg %03llu\n",
		 (unsigned long long)child->ring.first_seq,
		 (unsigned long long)child->ring.first_seq);
	expect_rec(&f, want);
	caller_fini(&c);
	klog_ns_put(child);
}

static void seek_to_end(void)
{
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_END), 0);
}

static void seek_to_start(void)
{
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_SET), 0);
}

/* A seek made while a read formats comes after that read. */
static void seek_while_a_read_formats(void **state)
{
	(void)state;
	klog_ns_printk(root, "\0016a\n");
	klog_ns_printk(root, "\0016b\n");
	open_rw(&f, &me);
	watch_start(seek_to_end);
	expect_rec(&f, "6,0,1000000,-;a\n");
	expect_none(&f);
	watch_start(seek_to_start);
	klog_ns_printk(root, "\0016c\n");
	expect_rec(&f, "6,2,1000000,-;c\n");
	watch_stop();
	expect_rec(&f, "6,0,1000000,-;a\n");
	expect_rec(&f, "6,1,1000000,-;b\n");
}

static void seek_bad_offset_and_whence(void **state)
{
	(void)state;
	klog_ns_printk(root, "\0016a\n");
	klog_ns_printk(root, "\0016b\n");
	open_rw(&f, &me);
	expect_rec(&f, "6,0,1000000,-;a\n");
	assert_int_equal(klog_kmsg_seek(&f, 1, KLOG_SEEK_SET), -ESPIPE);
	assert_int_equal(klog_kmsg_seek(&f, -1, KLOG_SEEK_END), -ESPIPE);
	assert_int_equal(klog_kmsg_seek(&f, 5, KLOG_SEEK_DATA), -ESPIPE);
	/* The offset is checked before the origin. */
	assert_int_equal(klog_kmsg_seek(&f, 1, KLOG_SEEK_CUR), -ESPIPE);
	assert_int_equal(klog_kmsg_seek(&f, 0, KLOG_SEEK_CUR), -EINVAL);
	assert_int_equal(klog_kmsg_seek(&f, 0, 4 /* SEEK_HOLE */), -EINVAL);
	assert_int_equal(klog_kmsg_seek(&f, 0, -1), -EINVAL);
	/* No failed seek moved the reader. */
	expect_rec(&f, "6,1,1000000,-;b\n");
}

/* ---- poll ------------------------------------------------------------------ */

static void poll_states(void **state)
{
	struct klog_ns *child = mk_user_child(root, NULL, 4096);
	struct tcaller c;
	unsigned int i;

	(void)state;
	caller_init(&c, child);
	open_rw(&f, &c);
	assert_int_equal(klog_kmsg_poll(&f), 0);
	expect_wr(&f, "<6>one\n");
	assert_int_equal(klog_kmsg_poll(&f), POLL_IN);
	expect_rec(&f, "14,0,1000000,-;one\n");
	assert_int_equal(klog_kmsg_poll(&f), 0);
	/* A pending line counts: readers never wait for it. */
	klog_ns_printk(child, "\0016open line");
	assert_int_equal(klog_kmsg_poll(&f), POLL_IN);
	expect_rec(&f, "6,1,1000000,-;open line\n");
	for (i = 0; i < 300; i++)
		klog_ns_printk(child, "\0016msg %03u\n", i);
	assert_int_equal(klog_kmsg_poll(&f), POLL_LOST);
	assert_int_equal(klog_kmsg_read(&f, KLOG_MESSAGE_MAX, true), -EPIPE);
	assert_int_equal(klog_kmsg_poll(&f), POLL_IN);
	caller_fini(&c);
	klog_ns_put(child);
}

/* ---- /proc/kmsg -------------------------------------------------------------- */

static void proc_init(struct tcaller *p, bool privileged)
{
	caller_init(p, root);
	p->ctx.source = KLOG_FROM_PROC;
	if (privileged)
		grant(p, &init_userns);
}

static void proc_kmsg_open_needs_privilege(void **state)
{
	struct tcaller p, u;

	(void)state;
	proc_init(&u, false);
	proc_init(&p, true);
	assert_int_equal(klog_proc_kmsg_open(&u.ctx), -EPERM);
	assert_int_equal(klog_proc_kmsg_open(&p.ctx), 0);
	klog_proc_kmsg_release(&p.ctx);
	caller_fini(&u);
	caller_fini(&p);
}

static void proc_kmsg_read_nonblock_empty(void **state)
{
	struct tcaller p;

	(void)state;
	proc_init(&p, true);
	assert_int_equal(klog_proc_kmsg_open(&p.ctx), 0);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, sizeof(out), true),
			 -EAGAIN);
	klog_proc_kmsg_release(&p.ctx);
	caller_fini(&p);
}

static void proc_kmsg_read_is_destructive(void **state)
{
	struct tcaller p;
	ssize_t n;

	(void)state;
	proc_init(&p, true);
	klog_ns_printk(root, "\0016hello\n");
	fake_now = 2 * NSEC_PER_SEC;
	klog_ns_printk(root, "\0016world\n");
	assert_int_equal(klog_proc_kmsg_open(&p.ctx), 0);
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), POLL_IN);
	n = klog_proc_kmsg_read(&p.ctx, out, sizeof(out), true);
	assert_int_equal(n, 48);
	out[n] = '\0';
	assert_string_equal(out, "<6>[    1.000000] hello\n"
			    "<6>[    2.000000] world\n");
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), 0);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, sizeof(out), true),
			 -EAGAIN);
	/* It is the namespace's syslog cursor: syslog(2) saw it go too. */
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_SIZE_UNREAD,
				     NULL, 0), 0);
	/* But the log is still there for READ_ALL and /dev/kmsg. */
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_READ_ALL, out,
				     sizeof(out)), 48);
	klog_proc_kmsg_release(&p.ctx);
	caller_fini(&p);
}

static void proc_kmsg_partial_reads(void **state)
{
	struct tcaller p;
	ssize_t n;

	(void)state;
	proc_init(&p, true);
	klog_ns_printk(root, "\0016hello\n");
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, 10, true), 10);
	assert_memory_equal(out, "<6>[    1.", 10);
	/* The record is not consumed yet: poll still says readable. */
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), POLL_IN);
	n = klog_proc_kmsg_read(&p.ctx, out, sizeof(out), false);
	assert_int_equal(n, 14);
	assert_memory_equal(out, "000000] hello\n", 14);
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), 0);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, 0, true), -EAGAIN);
	caller_fini(&p);
}

static void proc_kmsg_read_zero_with_data(void **state)
{
	struct tcaller p;

	(void)state;
	proc_init(&p, true);
	klog_ns_printk(root, "\0016hello\n");
	/* kmsg_read() passes count 0 to do_syslog(READ): 0. */
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, 0, true), 0);
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), POLL_IN);
	caller_fini(&p);
}

/*
 * The hooks asked by each /proc/kmsg call, as fs/proc/kmsg.c calls
 * do_syslog() (source SYSLOG_FROM_PROC): the open is OPEN (capability,
 * then security hook); poll is SIZE_UNREAD, a read is READ, a
 * non-blocking read first asks SIZE_UNREAD (two actions), close is
 * CLOSE: each asks the security hook once and never the capability,
 * dmesg_restrict or not.
 */
static void expect_proc_hooks(const struct tcaller *c, const char *want,
			      int type0, int type1)
{
	if (strcmp(c->hooks, want))
		fail_msg("hooks \"%s\", want \"%s\"", c->hooks, want);
	if (c->sec_calls > 0)
		assert_int_equal(c->sec_type[0], type0);
	if (c->sec_calls > 1)
		assert_int_equal(c->sec_type[1], type1);
}

static void proc_kmsg_hooks_per_call(void **state)
{
	struct tcaller p, u;

	(void)state;
	proc_init(&u, false);
	proc_init(&p, true);
	assert_int_equal(klog_proc_kmsg_open(&u.ctx), -EPERM);
	expect_proc_hooks(&u, "c", 0, 0);
	assert_int_equal(klog_proc_kmsg_open(&p.ctx), 0);
	expect_proc_hooks(&p, "cs", KLOG_SYSLOG_ACTION_OPEN, 0);

	klog_ns_set_dmesg_restrict(root, 1);
	klog_ns_printk(root, "\0016hello\n");
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), POLL_IN);
	expect_proc_hooks(&p, "s", KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0);
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, 10, true), 10);
	expect_proc_hooks(&p, "ss", KLOG_SYSLOG_ACTION_SIZE_UNREAD,
			  KLOG_SYSLOG_ACTION_READ);
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, sizeof(out), false),
			 14);
	expect_proc_hooks(&p, "s", KLOG_SYSLOG_ACTION_READ, 0);
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, sizeof(out), true),
			 -EAGAIN);
	expect_proc_hooks(&p, "s", KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0);
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), 0);
	expect_proc_hooks(&p, "s", KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0);
	hooks_reset(&p);
	klog_proc_kmsg_release(&p.ctx);
	expect_proc_hooks(&p, "s", KLOG_SYSLOG_ACTION_CLOSE, 0);
	caller_fini(&u);
	caller_fini(&p);
}

/*
 * The security hook's error fails the open and every read, and nothing
 * is consumed.  As 6.12's kmsg_read(), a non-blocking read takes the
 * error of SIZE_UNREAD for "something to read" and goes on to READ,
 * which fails the same way; as kmsg_poll(), poll reports any non-zero
 * answer, an error too, as readable.
 */
static void proc_kmsg_security_error(void **state)
{
	struct tcaller p;
	size_t i;

	(void)state;
	proc_init(&p, true);
	p.sec_ret = -EACCES;
	assert_int_equal(klog_proc_kmsg_open(&p.ctx), -EACCES);
	expect_proc_hooks(&p, "cs", KLOG_SYSLOG_ACTION_OPEN, 0);
	p.sec_ret = 0;
	assert_int_equal(klog_proc_kmsg_open(&p.ctx), 0);

	klog_ns_printk(root, "\0016hello\n");
	p.sec_ret = -EACCES;
	memset(out, 'x', sizeof(out));
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, sizeof(out), true),
			 -EACCES);
	expect_proc_hooks(&p, "ss", KLOG_SYSLOG_ACTION_SIZE_UNREAD,
			  KLOG_SYSLOG_ACTION_READ);
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, sizeof(out), false),
			 -EACCES);
	expect_proc_hooks(&p, "s", KLOG_SYSLOG_ACTION_READ, 0);
	hooks_reset(&p);
	assert_int_equal(klog_proc_kmsg_poll(&p.ctx), POLL_IN);
	expect_proc_hooks(&p, "s", KLOG_SYSLOG_ACTION_SIZE_UNREAD, 0);
	/* Nothing was copied or consumed. */
	assert_int_equal(p.copies, 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 'x');
	assert_int_equal(klog_syslog(&me.ctx, KLOG_SYSLOG_ACTION_SIZE_UNREAD,
				     NULL, 0), 24);
	p.sec_ret = 0;
	assert_int_equal(klog_proc_kmsg_read(&p.ctx, out, sizeof(out), true),
			 24);
	assert_memory_equal(out, "<6>[    1.000000] hello\n", 24);
	klog_proc_kmsg_release(&p.ctx);
	caller_fini(&p);
}

/* ctx->checked: no /proc/kmsg call asks either hook. */
static void proc_kmsg_checked_asks_no_hook(void **state)
{
	struct tcaller u;

	(void)state;
	proc_init(&u, false);
	u.ctx.checked = true;
	u.sec_ret = -EACCES;
	klog_ns_printk(root, "\0016hello\n");
	assert_int_equal(klog_proc_kmsg_open(&u.ctx), 0);
	assert_int_equal(klog_proc_kmsg_poll(&u.ctx), POLL_IN);
	assert_int_equal(klog_proc_kmsg_read(&u.ctx, out, sizeof(out), true),
			 24);
	assert_int_equal(klog_proc_kmsg_read(&u.ctx, out, sizeof(out), true),
			 -EAGAIN);
	klog_proc_kmsg_release(&u.ctx);
	expect_proc_hooks(&u, "", 0, 0);
	caller_fini(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
/* A test with this file's fixture (setup, teardown). */
#define TC(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		TC(open_binds_namespace_and_holds_reference),
		TC(open_starts_at_first_record),
		TC(open_read_denied_by_dmesg_restrict),
		TC(open_eperm_when_devkmsg_off),
		TC(open_asks_each_hook_once),
		TC(open_security_error_refuses_readers),
		TC(open_checked_asks_no_hook),
		TC(write_dropped_when_devkmsg_turned_off),
		TC(read_one_record_per_call),
		TC(read_too_small_einval_consumes),
		TC(read_epipe_once_after_overwrite),
		TC(read_epipe_checked_before_size),
		TC(read_nonblock_empty_eagain),
		TC(read_blocks_until_a_record),
		TC(readers_have_own_cursors),
		TC(read_cont_flag_and_dict),
		TC(read_caller_id_when_configured),
		TC(read_escapes_written_bytes),
		TC(write_prefix_level),
		TC(write_no_prefix_default_level),
		TC(write_prefix_facility_and_level),
		TC(write_prefix_kernel_facility_becomes_user),
		TC(write_prefix_empty_number),
		TC(write_prefix_malformed_kept),
		TC(write_prefix_only_makes_empty_record),
		TC(write_kernel_prefix_not_parsed),
		TC(write_strips_one_newline),
		TC(write_multiline_one_record),
		TC(write_stops_at_nul),
		TC(write_empty_returns_zero),
		TC(write_over_1024_einval),
		TC(write_exactly_1024_accepted),
		TC(ratelimit_is_per_namespace_not_per_file),
		TC(ratelimit_window_reopens),
		TC(ratelimit_separate_namespaces),
		TC(ratelimit_off_when_devkmsg_on),
		TC(ratelimit_note_copied_only_under_policy_all),
		TC(default_policy_copies_nothing),
		TC(seek_set_end_data),
		TC(seek_bad_offset_and_whence),
		TC(reads_format_with_no_lock_held),
		TC(read_formats_its_copy_of_an_overwritten_record),
		TC(seek_while_a_read_formats),
		TC(poll_states),
		TC(proc_kmsg_open_needs_privilege),
		TC(proc_kmsg_read_nonblock_empty),
		TC(proc_kmsg_read_is_destructive),
		TC(proc_kmsg_partial_reads),
		TC(proc_kmsg_read_zero_with_data),
		TC(proc_kmsg_hooks_per_call),
		TC(proc_kmsg_security_error),
		TC(proc_kmsg_checked_asks_no_hook),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
