/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/testing.h - test hooks of the userspace platform.
 *
 * Not available in the kernel.  Tests use them to drive time, to make
 * allocations fail and to watch the locking rules.
 */
#ifndef KLOG_TESTING_H
#define KLOG_TESTING_H

#include <stdint.h>

#include <klog/types.h>

/**
 * klog_testing_set_clock() - replace the monotonic clock.
 * @clock: returns nanoseconds; NULL restores CLOCK_MONOTONIC.
 *
 * Context: any thread; affects the whole process.
 */
void klog_testing_set_clock(uint64_t (*clock)(void));

/**
 * klog_testing_set_caller_id() - fix the caller id of every record.
 * @id: what kl_caller_id() returns from now on, in every thread (the
 *      kernel's encoding: a thread id, or 0x80000000 | cpu); 0 restores
 *      the calling thread's id.
 *
 * The golden replay uses it to store records under the caller id the
 * recording kernel gave them.
 *
 * Context: any thread; affects the whole process.
 */
void klog_testing_set_caller_id(uint32_t id);

/**
 * klog_testing_fail_alloc() - make one allocation fail.
 * @nth: 1-based index, counted from this call, of the allocation that
 *       returns NULL; 0 disables injection.
 *
 * Context: any thread; affects the whole process.
 */
void klog_testing_fail_alloc(long nth);

/**
 * klog_testing_alloc_count() - allocations since klog_testing_fail_alloc().
 *
 * Return: the count.
 */
long klog_testing_alloc_count(void);

/**
 * klog_testing_locks_held() - klog locks the calling thread holds.
 *
 * 0 whenever the thread is outside the library: a function that returned
 * with its namespace's lock held leaves 1.  (Taking a second klog lock,
 * or calling a function that may sleep with one held, aborts at once.)
 *
 * Context: any thread; counts the calling thread's locks only.
 * Return: the count.
 */
unsigned int klog_testing_locks_held(void);

/**
 * klog_testing_set_unlock_check() - run a check at every klog unlock.
 * @check: called with the lock, still held, just before each release of
 *         a klog lock (each is the @lock of a struct klog_ns), so at the
 *         end of every locked section, where the namespace's invariants
 *         must hold; it must not take a klog lock.  NULL removes it.
 *
 * Context: any thread; affects the whole process.
 */
void klog_testing_set_unlock_check(void (*check)(klog_lock_t *lock));

/**
 * klog_testing_set_unlocked_hook() - replace the check that formatters run
 * with no klog lock held.
 * @hook: called by every kl_assert_unlocked(), the first statement of
 *        each formatter (klog_fmt_prefix(), klog_fmt_syslog(),
 *        klog_fmt_kmsg()), with the formatter's name and the number of
 *        klog locks the calling thread holds, instead of the built-in
 *        check, which aborts the program when that number is not 0.
 *        With 0 held it may call into the library (a test acts there
 *        between a reader's copy of a record and the commit of its
 *        cursor); otherwise it must not take a klog lock.  NULL
 *        restores the built-in check.
 *
 * Context: any thread; affects the whole process.
 */
void klog_testing_set_unlocked_hook(void (*hook)(const char *func,
						 unsigned int held));

#endif /* KLOG_TESTING_H */
