/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel.h - the Linux kernel half of the platform seam.
 *
 * DOC: kernel platform
 *
 * Locks are raw spinlocks taken with interrupts disabled, so the store path
 * may run in any context that may take a spinlock (not NMI).  The core
 * never holds two of them: a copy to a parent is made after the child's
 * lock is dropped.  Records are carried from one namespace to the next
 * in a per-CPU scratch buffer, by the forwarder (a work item), with
 * preemption disabled and no lock held.  Memory comes from
 * kvzalloc(GFP_KERNEL_ACCOUNT), so rings are charged to the creator's
 * memory cgroup.  The clock is local_clock(), as printk's.
 */
#ifndef KLOG_PLATFORM_KERNEL_H
#define KLOG_PLATFORM_KERNEL_H

#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/prefetch.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#define klog_lock_t raw_spinlock_t
#define kl_lock_t klog_lock_t
#define kl_irqflags_t unsigned long

#define KLOG_PRINTF(fmt, args) __printf(fmt, args)

#define kl_lock_init(l) raw_spin_lock_init(l)

static inline void kl_lock_destroy(kl_lock_t *l)
{
}

#define kl_lock_irqsave(l, f) raw_spin_lock_irqsave((l), (f))
#define kl_unlock_irqrestore(l, f) raw_spin_unlock_irqrestore((l), (f))

/*
 * kl_might_sleep() - the caller may sleep.  might_sleep(): with
 * CONFIG_DEBUG_ATOMIC_SLEEP it reports a caller in atomic context (a
 * klog lock held, an irq_work, interrupts off) even when nothing sleeps.
 */
#define kl_might_sleep() might_sleep()

/*
 * kl_assert_unlocked() - the caller holds no klog lock.  Nothing to check
 * here: lockdep asserts about one lock it is given, and the formatters
 * that call this know no lock; every formatter's caller is in syslog.c
 * or kmsg.c, and the user-space half checks each call as the tests run.
 */
static inline void kl_assert_unlocked(void)
{
}

/*
 * Scratch buffers.  The kernel's only caller is the forwarder, in task
 * context (a work item): kl_scratch_get() disables preemption and returns
 * this CPU's buffer, or NULL outside task context or if the buffer is in
 * use.  kl_scratch_put() releases it.
 */
#define KL_SCRATCH_SIZE 1024

/*
 * Deferred calls run in process context: kl_defer_queue() may be called
 * in any context but NMI, with or without a klog lock held; it queues an
 * irq_work (@kick) whose only job is to queue @work on system_unbound_wq,
 * as printk's wake_up_klogd() defers its wake-up, and @work calls @fn.
 * So a forwarder runs preemptible, never in hard interrupt context, on
 * PREEMPT_RT or not.  kl_defer_sync() returns once no call is queued or
 * running, calls that the function queued again included (process
 * context; the caller has stopped everything else that queues): a
 * forwarder that queues itself again until its backlog is copied is
 * waited for until it is.
 */
struct kl_defer {
	struct irq_work kick;
	struct work_struct work;
	void (*fn)(struct kl_defer *d);
};

#define klog_defer_t struct kl_defer
#define kl_defer_t klog_defer_t

void klog_plat_defer_init(kl_defer_t *d, void (*fn)(kl_defer_t *d));
void klog_plat_defer_sync(kl_defer_t *d);
#define kl_defer_init(d, f) klog_plat_defer_init((d), (f))
#define kl_defer_queue(d) irq_work_queue(&(d)->kick)
#define kl_defer_sync(d) klog_plat_defer_sync(d)

#define kl_container_of(p, type, member) container_of(p, type, member)

char *klog_plat_scratch_get(void);
void klog_plat_scratch_put(char *buf);
#define kl_scratch_get() klog_plat_scratch_get()
#define kl_scratch_put(b) klog_plat_scratch_put(b)

/*
 * Memory is charged to the caller's memory cgroup.  May sleep.  A ring's
 * size is chosen by a container: a failure is the caller's ENOMEM, not a
 * warning with a stack trace in the host log.
 */
#define kl_alloc(n) kvzalloc((n), GFP_KERNEL_ACCOUNT | __GFP_NOWARN)
#define kl_free(p) kvfree(p)

#define kl_clock_ns() local_clock()
/* Ratelimit windows: jiffies never run backwards across CPUs. */
#define kl_coarse_ns() jiffies64_to_nsecs(get_jiffies_64())

/* Same encoding as printk_caller_id() in kernel/printk/printk.c. */
static inline u32 kl_caller_id(void)
{
	return in_task() ? task_pid_nr(current) :
		0x80000000 + smp_processor_id();
}

#define klog_ref_t refcount_t
#define kl_ref_t klog_ref_t
#define kl_ref_init(r, v) refcount_set((r), (v))
#define kl_ref_get(r) refcount_inc(r)
#define kl_ref_put(r) refcount_dec_and_test(r)
#define kl_ref_read(r) refcount_read(r)

/*
 * Wait queues.  kl_waitq_wake() only queues an irq_work that wakes the
 * sleepers, as printk's wake_up_klogd() does, so it may be called from
 * any context, NMI and scheduler code included, with or without a klog
 * lock held; on PREEMPT_RT the wake-up runs in the irq_work thread.
 * kl_waitq_destroy() waits for a queued wake-up (process context).
 * kl_waitq_wait() returns -ERESTARTSYS when a signal interrupts the sleep;
 * kl_waitq_head() is the wait queue for poll_wait().
 */
struct kl_waitq {
	wait_queue_head_t head;
	struct irq_work wake;
};

#define klog_waitq_t struct kl_waitq
#define kl_waitq_t klog_waitq_t

void klog_plat_waitq_wake(struct irq_work *work);

static inline void kl_waitq_init(kl_waitq_t *wq)
{
	init_waitqueue_head(&wq->head);
	init_irq_work(&wq->wake, klog_plat_waitq_wake);
}

static inline void kl_waitq_destroy(kl_waitq_t *wq)
{
	irq_work_sync(&wq->wake);
}

static inline void kl_waitq_wake(kl_waitq_t *wq)
{
	if (wq_has_sleeper(&wq->head))
		irq_work_queue(&wq->wake);
}

static inline wait_queue_head_t *kl_waitq_head(kl_waitq_t *wq)
{
	return &wq->head;
}

#define kl_waitq_wait(wq, c, a) wait_event_interruptible((wq)->head, (c)(a))

#define kl_warn_on_once(c) WARN_ON_ONCE(c)

#define kl_read_once(x) READ_ONCE(x)

/* kl_prefetchw() - hint that @p will be written soon; never faults. */
#define kl_prefetchw(p) prefetchw(p)

/* KL_CACHE_BYTES - bytes in a cache line. */
#define KL_CACHE_BYTES L1_CACHE_BYTES

/* kl_noinline - never inline this function. */
#define kl_noinline noinline

/* kl_always_inline - in place of inline: always inline this function. */
#define kl_always_inline __always_inline

/* kl_hide_var() - the compiler no longer knows @v's value or bounds. */
#define kl_hide_var(v) OPTIMIZER_HIDE_VAR(v)

#define kl_vsnprintf vsnprintf
#define kl_snprintf snprintf
#define kl_memcpy memcpy
#define kl_memmove memmove
#define kl_memset memset
#define kl_memchr memchr
#define kl_strnlen strnlen

static inline u64 kl_div_u64_rem(u64 n, u32 d, u32 *rem)
{
	return div_u64_rem(n, d, rem);
}

#endif /* KLOG_PLATFORM_KERNEL_H */
