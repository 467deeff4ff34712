// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * regress.c - deterministic replays of bugs that tests/stress found, so
 * that they stay fixed without depending on a thread schedule.
 *
 * 1. syslog READ, partial line, record overwritten before the next READ:
 *    the wait condition repaired the cursor without clearing the partial
 *    position, and the next READ returned the tail of another record.
 *
 * As in the stress run, the rings' invariants (R1-R8) are checked at the
 * end of every locked section, and no call may return holding a lock.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"

static int failures;

#define CHECK(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "regress: %s:%d: %s\n", __FILE__,	\
			__LINE__, #c);					\
		failures++;						\
	}								\
} while (0)

static void check_at_unlock(klog_lock_t *lock)
{
	struct klog_ns *ns = kl_container_of(lock, struct klog_ns, lock);
	int ret = klog_ns_check_locked(ns);

	if (ret)
		fprintf(stderr, "regress: invariant R%d broken\n", -ret);
	failures += ret != 0;
}

static void partial_then_overwrite(void)
{
	struct klog_config cfg;
	struct klog_ns_params p = { .size = 4096, .cfg = &cfg };
	struct klog_ns *ns;
	char scratch[KLOG_MESSAGE_MAX], buf[4096], text[1000];
	struct klog_syslog_ctx ctx = {
		.nonblock = true, .scratch = scratch,
	};
	struct klog_msg m = { .level = 6, .text = text };
	int i, n;

	klog_config_init(&cfg);
	cfg.printk_time = false;
	CHECK(klog_ns_create(NULL, &p, &ns) == 0);
	ctx.ns = ns;

	memset(text, 'A', sizeof(text));
	m.text_len = 900;
	m.flags = KLOG_F_NEWLINE;
	CHECK(klog_ns_store(ns, &m) == 900);
	n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ, buf, 10);
	CHECK(n == 10 && !memcmp(buf, "<6>AAAAAAA", 10));

	/* Overwrite record 0 with records of other text. */
	memset(text, 'B', sizeof(text));
	for (i = 0; i < 8; i++)
		CHECK(klog_ns_store(ns, &m) == 900);

	n = klog_syslog(&ctx, KLOG_SYSLOG_ACTION_READ, buf, sizeof(buf));
	CHECK(n > 3);
	/* A whole record of B's, not the tail of one from offset 10. */
	CHECK(n > 3 && !memcmp(buf, "<6>BBBB", 7));
	klog_ns_put(ns);
}

int main(void)
{
	klog_testing_set_unlock_check(check_at_unlock);
	partial_then_overwrite();
	CHECK(klog_testing_locks_held() == 0);
	klog_testing_set_unlock_check(NULL);
	printf("regress: %s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
