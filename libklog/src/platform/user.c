// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * user.c - the userspace half of the platform seam.
 *
 * DOC: userspace platform implementation
 *
 * Besides the seam calls, this file holds the test hooks declared in
 * <klog/testing.h>: a fake clock, allocation fault injection, the count of
 * klog locks a thread holds, a check run at every unlock and one that
 * replaces kl_assert_unlocked()'s.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "platform.h"
#include "klog/testing.h"

static _Atomic(uint64_t (*)(void)) fake_clock;
static atomic_long alloc_count;
static atomic_long alloc_fail_at;
static _Atomic(void (*)(kl_lock_t *)) unlock_check;
static _Atomic(void (*)(const char *, unsigned int)) unlocked_hook;

/*
 * What the calling thread holds and runs: the klog locks it holds (the
 * core never holds two), and whether it runs deferred calls (an irq_work
 * in the kernel, where nothing may sleep).
 */
static __thread unsigned int locks_held;
static __thread bool defer_draining;

/* A broken locking rule: say which and where, and stop. */
static void plat_bug(const char *func, const char *what)
{
	fprintf(stderr, "libklog: BUG: %s%s%s\n", func ? func : "",
		func ? ": " : "", what);
	abort();
}

void klog_plat_lock(kl_lock_t *l)
{
	if (locks_held)
		plat_bug(NULL, "a second klog lock taken");
	pthread_mutex_lock(l);
	locks_held++;
}

void klog_plat_unlock(kl_lock_t *l)
{
	void (*check)(kl_lock_t *) = atomic_load(&unlock_check);

	if (!locks_held)
		plat_bug(NULL, "a klog lock released that was not held");
	if (check)
		check(l);
	locks_held--;
	pthread_mutex_unlock(l);
}

void klog_plat_might_sleep(const char *func)
{
	if (locks_held)
		plat_bug(func, "may sleep, but a klog lock is held");
	if (defer_draining)
		plat_bug(func, "may sleep, but runs in a deferred call");
}

void klog_plat_assert_unlocked(const char *func)
{
	void (*hook)(const char *, unsigned int) = atomic_load(&unlocked_hook);

	if (hook)
		hook(func, locks_held);
	else if (locks_held)
		plat_bug(func, "formats, but a klog lock is held");
}

void *klog_plat_alloc(size_t size)
{
	long n = atomic_fetch_add(&alloc_count, 1) + 1;
	long fail = atomic_load(&alloc_fail_at);

	if (fail > 0 && n == fail)
		return NULL;
	return calloc(1, size);
}

void klog_plat_free(void *p)
{
	free(p);
}

u64 klog_plat_clock_ns(void)
{
	uint64_t (*fn)(void) = atomic_load(&fake_clock);
	struct timespec ts;

	if (fn)
		return fn();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/*
 * One scratch buffer per thread: a thread has a single context here (no
 * interrupts), so a second get before the put is recursion.
 */
static __thread char scratch[KL_SCRATCH_SIZE];
static __thread bool scratch_busy;

char *klog_plat_scratch_get(void)
{
	if (scratch_busy)
		return NULL;
	scratch_busy = true;
	return scratch;
}

void klog_plat_scratch_put(char *buf)
{
	(void)buf;
	scratch_busy = false;
}

/* Each thread's queue of deferred calls (kl_defer_queue()). */
#define DEFER_MAX 64
static __thread kl_defer_t *defer_q[DEFER_MAX];
static __thread unsigned int defer_n;

void klog_plat_defer_queue(kl_defer_t *d)
{
	unsigned int i;

	for (i = 0; i < defer_n; i++)
		if (defer_q[i] == d)
			return;
	/* Each call queues at most its parent's: the depth bounds it. */
	if (defer_n == DEFER_MAX)
		abort();
	defer_q[defer_n++] = d;
	if (defer_draining)
		return;
	defer_draining = true;
	while (defer_n) {
		d = defer_q[0];
		memmove(defer_q, defer_q + 1, --defer_n * sizeof(*defer_q));
		d->fn(d);
	}
	defer_draining = false;
}

/*
 * The caller id is the thread id, as the kernel's task_pid_nr(current).
 * gettid() is a system call: each thread asks once and keeps the answer;
 * a fork()ed child (whose one thread has a new id) forgets it.
 */
static __thread u32 cached_tid;
static pthread_once_t tid_once = PTHREAD_ONCE_INIT;
static _Atomic u32 fixed_caller;	/* klog_testing_set_caller_id() */

static void forget_tid(void)
{
	cached_tid = 0;
}

static void tid_init(void)
{
	pthread_atfork(NULL, NULL, forget_tid);
}

u32 klog_plat_caller_id(void)
{
	u32 fixed = atomic_load_explicit(&fixed_caller, memory_order_relaxed);

	if (fixed)
		return fixed;
	if (!cached_tid) {
		pthread_once(&tid_once, tid_init);
		cached_tid = (u32)syscall(SYS_gettid) & 0x7fffffffu;
	}
	return cached_tid;
}

void klog_plat_waitq_init(kl_waitq_t *wq)
{
	pthread_mutex_init(&wq->mu, NULL);
	pthread_cond_init(&wq->cv, NULL);
	atomic_init(&wq->waiters, 0);
}

void klog_plat_waitq_destroy(kl_waitq_t *wq)
{
	pthread_cond_destroy(&wq->cv);
	pthread_mutex_destroy(&wq->mu);
}

void klog_plat_waitq_wake(kl_waitq_t *wq)
{
	/*
	 * As the kernel's wq_has_sleeper(): the full fence orders the
	 * caller's store before the load; a waiter counts itself before it
	 * tests its condition, so one of the two sees the other.
	 */
	atomic_thread_fence(memory_order_seq_cst);
	if (!atomic_load_explicit(&wq->waiters, memory_order_relaxed))
		return;
	pthread_mutex_lock(&wq->mu);
	pthread_cond_broadcast(&wq->cv);
	pthread_mutex_unlock(&wq->mu);
}

int klog_plat_waitq_wait(kl_waitq_t *wq, bool (*cond)(void *), void *arg)
{
	pthread_mutex_lock(&wq->mu);
	atomic_fetch_add(&wq->waiters, 1);
	while (!cond(arg))
		pthread_cond_wait(&wq->cv, &wq->mu);
	atomic_fetch_sub(&wq->waiters, 1);
	pthread_mutex_unlock(&wq->mu);
	return 0;
}

void klog_testing_set_clock(uint64_t (*clock)(void))
{
	atomic_store(&fake_clock, clock);
}

void klog_testing_set_caller_id(uint32_t id)
{
	atomic_store_explicit(&fixed_caller, id, memory_order_relaxed);
}

void klog_testing_fail_alloc(long nth)
{
	atomic_store(&alloc_count, 0);
	atomic_store(&alloc_fail_at, nth);
}

long klog_testing_alloc_count(void)
{
	return atomic_load(&alloc_count);
}

unsigned int klog_testing_locks_held(void)
{
	return locks_held;
}

void klog_testing_set_unlock_check(void (*check)(klog_lock_t *lock))
{
	atomic_store(&unlock_check, check);
}

void klog_testing_set_unlocked_hook(void (*hook)(const char *func,
						 unsigned int held))
{
	atomic_store(&unlocked_hook, hook);
}
