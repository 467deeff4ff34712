// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_platform.c - the user-space platform's checks of the locking rules.
 *
 * The user-space half of the seam counts the klog locks each thread holds
 * and aborts on a broken rule: a second klog lock (the core never holds
 * two), kl_might_sleep() with a lock held or in a deferred call (an
 * irq_work in the kernel), a formatter (kl_assert_unlocked()) with a lock
 * held.  Each rule is broken here on purpose in a child process, which
 * must die of it; common_teardown() fails any test that returns holding a
 * lock.  klog_testing_set_unlocked_hook() replaces the formatters' check
 * with a test's own, which sees every formatter call.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* The child's exit status when the platform aborted it. */
#define ABORTED 77

static void aborted(int sig)
{
	(void)sig;
	_exit(ABORTED);
}

/* Run @fn in a child; true if the platform aborted it. */
static bool dies(void (*fn)(void))
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		signal(SIGABRT, aborted);
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st) == ABORTED;
}

/*
 * Every klog lock is a namespace's (the tests' unlock check looks at the
 * namespace around it): two namespaces without a ring.
 */
static struct klog_ns ns_a, ns_b;

static void lock_then_might_sleep(void)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns_a.lock, flags);
	kl_might_sleep();
	kl_unlock_irqrestore(&ns_a.lock, flags);
}

static void lock_two(void)
{
	kl_irqflags_t fa, fb;

	kl_lock_irqsave(&ns_a.lock, fa);
	kl_lock_irqsave(&ns_b.lock, fb);
	kl_unlock_irqrestore(&ns_b.lock, fb);
	kl_unlock_irqrestore(&ns_a.lock, fa);
}

static void lock_unlock_might_sleep(void)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns_a.lock, flags);
	kl_unlock_irqrestore(&ns_a.lock, flags);
	kl_might_sleep();
}

static kl_defer_t deferred;

static void sleeps_when_run(kl_defer_t *d)
{
	(void)d;
	kl_might_sleep();
}

static void might_sleep_in_deferred_call(void)
{
	kl_defer_init(&deferred, sleeps_when_run);
	kl_defer_queue(&deferred);
}

static void might_sleep_checks_the_context(void **state)
{
	(void)state;
	kl_lock_init(&ns_a.lock);
	kl_lock_init(&ns_b.lock);
	/* A positive control first: the checks let a correct caller by. */
	assert_false(dies(lock_unlock_might_sleep));
	assert_true(dies(lock_then_might_sleep));
	assert_true(dies(might_sleep_in_deferred_call));
	kl_lock_destroy(&ns_b.lock);
	kl_lock_destroy(&ns_a.lock);
}

static void a_second_lock_aborts(void **state)
{
	(void)state;
	kl_lock_init(&ns_a.lock);
	kl_lock_init(&ns_b.lock);
	assert_true(dies(lock_two));
	kl_lock_destroy(&ns_b.lock);
	kl_lock_destroy(&ns_a.lock);
}

/* A function that returns holding its lock is seen by the count. */
static void a_lock_left_held_is_counted(void **state)
{
	struct klog_ns *ns = mk_root(NULL, 4096);
	kl_irqflags_t flags;

	(void)state;
	assert_int_equal(klog_testing_locks_held(), 0);
	kl_lock_irqsave(&ns->lock, flags);
	assert_int_equal(klog_testing_locks_held(), 1);
	kl_unlock_irqrestore(&ns->lock, flags);
	assert_int_equal(klog_testing_locks_held(), 0);
	/* Every call of the library leaves the count as it found it. */
	assert_int_equal(store_msg(ns, CALLER(1), 0, 6, "x\n"), 1);
	assert_int_equal(klog_testing_locks_held(), 0);
	klog_ns_put(ns);
	assert_int_equal(klog_testing_locks_held(), 0);
}

/* The count is the calling thread's own. */
static void *hold_in_thread(void *arg)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns_a.lock, flags);
	*(unsigned int *)arg = klog_testing_locks_held();
	kl_unlock_irqrestore(&ns_a.lock, flags);
	return NULL;
}

static void the_count_is_per_thread(void **state)
{
	unsigned int theirs = 0;
	kl_irqflags_t flags;
	pthread_t t;

	(void)state;
	kl_lock_init(&ns_a.lock);
	kl_lock_init(&ns_b.lock);
	kl_lock_irqsave(&ns_b.lock, flags);
	assert_int_equal(pthread_create(&t, NULL, hold_in_thread, &theirs), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(theirs, 1);
	assert_int_equal(klog_testing_locks_held(), 1);
	kl_unlock_irqrestore(&ns_b.lock, flags);
	kl_lock_destroy(&ns_b.lock);
	kl_lock_destroy(&ns_a.lock);
}

/* ---- formatters ------------------------------------------------------ */

static const struct klog_record fmt_rec = {
	.ts_nsec = 1000000000, .level = 6, .text = "hello", .text_len = 5,
};

static void format_each(void)
{
	char buf[KLOG_MESSAGE_MAX];

	klog_fmt_prefix(&fmt_rec, KLOG_FMT_PRIO | KLOG_FMT_TIME, buf);
	klog_fmt_syslog(&fmt_rec, KLOG_FMT_PRIO, buf, sizeof(buf));
	klog_fmt_kmsg(&fmt_rec, 0, buf, sizeof(buf));
}

static void format_unlocked(void)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns_a.lock, flags);
	kl_unlock_irqrestore(&ns_a.lock, flags);
	format_each();
}

/* Counting is allowed under the lock: it never formats. */
static void count_under_lock(void)
{
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns_a.lock, flags);
	klog_fmt_syslog_size(&fmt_rec, KLOG_FMT_PRIO | KLOG_FMT_TIME);
	klog_fmt_prefix_len(&fmt_rec, KLOG_FMT_PRIO | KLOG_FMT_TIME);
	kl_unlock_irqrestore(&ns_a.lock, flags);
}

static void prefix_under_lock(void)
{
	kl_irqflags_t flags;
	char buf[48];

	kl_lock_irqsave(&ns_a.lock, flags);
	klog_fmt_prefix(&fmt_rec, KLOG_FMT_PRIO, buf);
	kl_unlock_irqrestore(&ns_a.lock, flags);
}

static void syslog_under_lock(void)
{
	char buf[KLOG_MESSAGE_MAX];
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns_a.lock, flags);
	klog_fmt_syslog(&fmt_rec, KLOG_FMT_PRIO, buf, sizeof(buf));
	kl_unlock_irqrestore(&ns_a.lock, flags);
}

static void kmsg_under_lock(void)
{
	char buf[KLOG_MESSAGE_MAX];
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns_a.lock, flags);
	klog_fmt_kmsg(&fmt_rec, 0, buf, sizeof(buf));
	kl_unlock_irqrestore(&ns_a.lock, flags);
}

static void formatting_under_a_lock_aborts(void **state)
{
	(void)state;
	kl_lock_init(&ns_a.lock);
	/* Positive controls: formatting unlocked, counting locked. */
	assert_false(dies(format_unlocked));
	assert_false(dies(count_under_lock));
	assert_true(dies(prefix_under_lock));
	assert_true(dies(syslog_under_lock));
	assert_true(dies(kmsg_under_lock));
	kl_lock_destroy(&ns_a.lock);
}

/* What the test's hook saw: each call's formatter and locks held. */
static struct {
	unsigned int n;
	const char *func[8];
	unsigned int held[8];
} seen;

static void see(const char *func, unsigned int held)
{
	if (seen.n < 8) {
		seen.func[seen.n] = func;
		seen.held[seen.n] = held;
	}
	seen.n++;
}

static void expect_seen(unsigned int i, const char *func, unsigned int held)
{
	assert_true(i < seen.n);
	assert_string_equal(seen.func[i], func);
	assert_int_equal(seen.held[i], held);
}

/* The hook sees every formatter call, and one made under a lock as such. */
static void the_unlocked_hook_sees_each_formatter(void **state)
{
	(void)state;
	kl_lock_init(&ns_a.lock);
	memset(&seen, 0, sizeof(seen));
	klog_testing_set_unlocked_hook(see);
	format_each();
	assert_int_equal(seen.n, 4);
	expect_seen(0, "klog_fmt_prefix", 0);
	expect_seen(1, "klog_fmt_syslog", 0);
	expect_seen(2, "klog_fmt_prefix", 0);
	expect_seen(3, "klog_fmt_kmsg", 0);

	/* Caught, not aborted: the hook replaces the check. */
	memset(&seen, 0, sizeof(seen));
	syslog_under_lock();
	kmsg_under_lock();
	assert_int_equal(seen.n, 3);
	expect_seen(0, "klog_fmt_syslog", 1);
	expect_seen(1, "klog_fmt_prefix", 1);
	expect_seen(2, "klog_fmt_kmsg", 1);
	count_under_lock();
	assert_int_equal(seen.n, 3);

	/* NULL restores the check. */
	klog_testing_set_unlocked_hook(NULL);
	assert_true(dies(kmsg_under_lock));
	kl_lock_destroy(&ns_a.lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(might_sleep_checks_the_context),
		T(a_second_lock_aborts),
		T(a_lock_left_held_is_counted),
		T(the_count_is_per_thread),
		T(formatting_under_a_lock_aborts),
		T(the_unlocked_hook_sees_each_formatter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
