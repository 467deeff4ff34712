/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/testing.h - test hooks of the userspace platform.
 *
 * Not available in the kernel.  Tests use them to drive time and to make
 * allocations fail.
 */
#ifndef KLOG_TESTING_H
#define KLOG_TESTING_H

#include <stdint.h>

/**
 * klog_testing_set_clock() - replace the monotonic clock.
 * @clock: returns nanoseconds; NULL restores CLOCK_MONOTONIC.
 *
 * Context: any thread; affects the whole process.
 */
void klog_testing_set_clock(uint64_t (*clock)(void));

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

#endif /* KLOG_TESTING_H */
