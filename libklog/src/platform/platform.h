/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * platform.h - the platform seam of libklog.
 *
 * DOC: platform seam
 *
 * Everything the core needs from its platform, in one place, as zstd's
 * zstd_deps.h has it.  The core files include this header (through
 * their private header, src/internal.h) and the public headers, nothing
 * else.  It selects kernel.h (Linux kernel) or user.h (libc, pthreads,
 * C11 atomics); this is the only place that tests __KERNEL__.  Both
 * halves provide the list below, each call documented here and next to
 * its definition.  None of it is installed.
 *
 * Need, for the public headers (<klog/types.h>; user space installs
 * include/klog/types.h, kernel code finds src/platform/klog/types.h,
 * which includes this file):
 *
 * ========================== =============================================
 * __u8 __u16 __u32 __u64     <linux/types.h>, in both worlds
 * __s64
 * bool size_t ssize_t        the C11 and POSIX types
 * va_list
 * klog_lock_t, klog_ref_t,   the storage of the platform objects that
 * klog_waitq_t, klog_defer_t struct klog_ns embeds: the same types as
 *                            kl_lock_t, kl_ref_t, kl_waitq_t, kl_defer_t
 * KLOG_PRINTF(f, a)          __printf(f, a)
 * ========================== =============================================
 *
 * Need, for the core only:
 *
 * ========================== =============================================
 * u8 u16 u32 u64 s64         the kernel's integer names (= __u8...)
 * __printf(f, a)             format checking
 * kl_lock_t                  a lock that may be taken from any context
 * kl_lock_init(l)            initialise
 * kl_lock_irqsave(l, f)      take, disabling interrupts (kernel); the
 *                            core never holds two klog locks (user space
 *                            aborts if it tries)
 * kl_unlock_irqrestore(l, f) release, restoring interrupts
 * kl_might_sleep()           the caller may sleep: first statement of
 *                            every core function documented "Context:
 *                            process context" (kernel: might_sleep();
 *                            user space: aborts if the calling thread
 *                            holds a klog lock or runs a deferred call)
 * kl_assert_unlocked()       the caller holds no klog lock: first
 *                            statement of every formatter (format.c;
 *                            kernel: nothing; user space: aborts if the
 *                            calling thread holds one)
 * kl_scratch_get()           KL_SCRATCH_SIZE bytes private to the calling
 *                            context until kl_scratch_put(), or NULL if
 *                            that context already holds them (recursion;
 *                            kernel: task context only, else NULL too)
 * kl_scratch_put(b)          give them back
 * kl_defer_*                 run a function soon, outside the caller's
 *                            locks, in any context (kernel: a work item
 *                            queued through an irq_work;
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
 * kl_read_once(x)            one untorn read of a scalar that another
 *                            thread may write at any time (a setting the
 *                            glue stores with WRITE_ONCE(); READ_ONCE())
 * kl_prefetchw(p)            hint: @p will be written soon (never faults)
 * KL_CACHE_BYTES             bytes in a cache line (L1_CACHE_BYTES)
 * kl_noinline                a function never inlined: a rare path kept
 *                            out of its caller's registers and cache lines
 * kl_always_inline           a function always inlined, even where the
 *                            kernel optimises for size
 * kl_hide_var(v)             make the compiler forget what it knows of
 *                            the value of the variable @v (no code)
 * kl_vsnprintf, kl_snprintf  formatting into core buffers
 * kl_mem*, kl_str*           byte helpers
 * kl_div_u64_rem()           64-bit division with remainder
 * ========================== =============================================
 *
 * The kernel glue, which embeds struct klog_ns, also calls
 * kl_waitq_head() and kl_caller_id(): in the kernel, <klog/klog.h>
 * brings this header.
 */
#ifndef KLOG_PLATFORM_H
#define KLOG_PLATFORM_H

#ifdef __KERNEL__
#include "kernel.h"
#else
#include "user.h"
#endif

#endif /* KLOG_PLATFORM_H */
