/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * platform.h - the platform seam of libklog.
 *
 * DOC: platform seam
 *
 * The core files of libklog include only this header and the public
 * headers.  It selects kernel.h (Linux kernel) or user.h (libc, pthreads,
 * C11 atomics).  Both halves provide the same short list of calls, each
 * documented in docs/core.md ("The platform seam") and next to its
 * definition:
 *
 * ========================== =============================================
 * kl_lock_t                  a lock that may be taken from any context
 * kl_lock_init(l, level)     initialise; @level is the nesting depth
 * kl_lock_irqsave(l, f)      take, disabling interrupts (kernel)
 * kl_unlock_irqrestore(l, f) release, restoring interrupts
 * kl_lock_nested(l)          take a parent's lock while a child's is held
 * kl_unlock_nested(l)        release without touching interrupt state
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
