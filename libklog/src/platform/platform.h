/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * platform.h - the platform seam of libklog.
 *
 * DOC: platform seam
 *
 * The core files of libklog include only this header and the public
 * headers.  It selects kernel.h (Linux kernel) or user.h (libc, pthreads,
 * C11 atomics).  Both halves provide the same short list of calls, each
 * documented here and next to its definition:
 *
 * ========================== =============================================
 * kl_lock_t                  a lock that may be taken from any context
 * kl_lock_init(l)            initialise
 * kl_lock_irqsave(l, f)      take, disabling interrupts (kernel); the
 *                            core never holds two klog locks
 * kl_unlock_irqrestore(l, f) release, restoring interrupts
 * kl_scratch_get()           KL_SCRATCH_SIZE bytes private to the calling
 *                            context until kl_scratch_put(), or NULL if
 *                            that context already holds them (recursion)
 * kl_scratch_put(b)          give them back
 * kl_defer_*                 run a function soon, outside the caller's
 *                            locks, in any context (kernel: an irq_work;
 *                            user space: the same thread, after the
 *                            current deferred call)
 * kl_container_of            container_of()
 * kl_alloc(n) / kl_free(p)   zeroed, accounted memory; may sleep
 * kl_clock_ns()              monotonic nanoseconds, any context (record
 *                            timestamps: local_clock() in the kernel)
 * kl_coarse_ns()             nanoseconds that never run backwards, even
 *                            across CPUs (ratelimit windows: jiffies)
 * kl_caller_id()             upstream-style caller id (T<pid> / C<cpu>)
 * kl_ref_*                   reference counts
 * kl_waitq_*                 wait queues for blocking readers; a wake
 *                            is allowed in any context (the kernel
 *                            defers it to an irq_work)
 * kl_warn_on_once(c)         report a broken invariant once
 * kl_prefetchw(p)            hint: @p will be written soon (never faults)
 * kl_vsnprintf, kl_snprintf  formatting into core buffers
 * kl_mem*, kl_str*           byte helpers
 * ========================== =============================================
 */
#ifndef KLOG_PLATFORM_H
#define KLOG_PLATFORM_H

#ifdef __KERNEL__
#include "kernel.h"
#else
#include "user.h"
#endif

#endif /* KLOG_PLATFORM_H */
