// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kernel.c - the Linux kernel half of the platform seam.
 *
 * DOC: kernel platform implementation
 *
 * A per-CPU scratch buffer for task context (the kernel's only user of
 * kl_scratch_get() is the forwarder, a work item), the irq_work that
 * defers wake-ups of readers (kl_waitq_wake()), and deferred calls: an
 * irq_work that queues a work item (kl_defer_queue()).
 */
#include <linux/percpu.h>

#include "platform.h"

/*
 * struct klog_plat_scratch - one CPU's scratch buffer.
 * Locking: only the owning CPU touches it, in task context with
 * preemption disabled; @busy is set while it is in use.
 */
struct klog_plat_scratch {
	char buf[KL_SCRATCH_SIZE];
	bool busy;
};

static DEFINE_PER_CPU(struct klog_plat_scratch, klog_plat_scratch);

char *klog_plat_scratch_get(void)
{
	struct klog_plat_scratch *s;
	unsigned char ctx;

	preempt_disable();
	ctx = interrupt_context_level();
	s = this_cpu_ptr(&klog_plat_scratch);
	if (ctx || s->busy) {
		preempt_enable();
		return NULL;
	}
	s->busy = true;
	return s->buf;
}

void klog_plat_scratch_put(char *buf)
{
	struct klog_plat_scratch *s = this_cpu_ptr(&klog_plat_scratch);

	WARN_ON_ONCE(interrupt_context_level() || buf != s->buf);
	s->busy = false;
	preempt_enable();
}

/* The irq_work of kl_waitq_wake(): hard irq, or the irq_work thread. */
void klog_plat_waitq_wake(struct irq_work *work)
{
	struct kl_waitq *wq = container_of(work, struct kl_waitq, wake);

	wake_up_interruptible(&wq->head);
}

/* @kick, in hard irq or the irq_work thread: hand the call to a worker. */
static void klog_plat_defer_kick(struct irq_work *kick)
{
	struct kl_defer *d = container_of(kick, struct kl_defer, kick);

	queue_work(system_unbound_wq, &d->work);
}

static void klog_plat_defer_run(struct work_struct *work)
{
	struct kl_defer *d = container_of(work, struct kl_defer, work);

	d->fn(d);
}

void klog_plat_defer_init(kl_defer_t *d, void (*fn)(kl_defer_t *d))
{
	init_irq_work(&d->kick, klog_plat_defer_kick);
	INIT_WORK(&d->work, klog_plat_defer_run);
	d->fn = fn;
}

/*
 * The kick is busy from the moment it is queued until its function has
 * returned, queue_work() included; its pending bit is cleared before the
 * function runs, so it cannot tell that the work item is about to be
 * queued.  A work item that queued the kick again is seen here as busy.
 */
void klog_plat_defer_sync(kl_defer_t *d)
{
	might_sleep();
	do {
		irq_work_sync(&d->kick);
		flush_work(&d->work);
	} while (irq_work_is_busy(&d->kick) || work_pending(&d->work));
}
