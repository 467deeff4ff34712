// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kernel.c - the Linux kernel half of the platform seam.
 *
 * DOC: kernel platform implementation
 *
 * Per-CPU scratch buffers, one per context that may store (task, softirq,
 * hard irq), the irq_work that defers wake-ups of readers
 * (kl_waitq_wake()), and deferred calls: an irq_work that queues a work
 * item (kl_defer_queue()).
 */
#include <linux/percpu.h>

#include "platform.h"

#define KLOG_PLAT_CONTEXTS 3	/* interrupt_context_level() below NMI */

/*
 * struct klog_plat_scratch - one CPU's scratch buffers.
 * Locking: only the owning CPU touches them, with preemption disabled;
 * @busy[c] is set while context c uses @buf[c].
 */
struct klog_plat_scratch {
	char buf[KLOG_PLAT_CONTEXTS][KL_SCRATCH_SIZE];
	bool busy[KLOG_PLAT_CONTEXTS];
};

static DEFINE_PER_CPU(struct klog_plat_scratch, klog_plat_scratch);

char *klog_plat_scratch_get(void)
{
	struct klog_plat_scratch *s;
	unsigned char ctx;

	preempt_disable();
	ctx = interrupt_context_level();
	s = this_cpu_ptr(&klog_plat_scratch);
	if (ctx >= KLOG_PLAT_CONTEXTS || s->busy[ctx]) {
		preempt_enable();
		return NULL;
	}
	s->busy[ctx] = true;
	return s->buf[ctx];
}

void klog_plat_scratch_put(char *buf)
{
	struct klog_plat_scratch *s = this_cpu_ptr(&klog_plat_scratch);
	unsigned char ctx = interrupt_context_level();

	WARN_ON_ONCE(ctx >= KLOG_PLAT_CONTEXTS || buf != s->buf[ctx]);
	if (ctx < KLOG_PLAT_CONTEXTS)
		s->busy[ctx] = false;
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

void klog_plat_defer_sync(kl_defer_t *d)
{
	might_sleep();
	do {
		irq_work_sync(&d->kick);
		flush_work(&d->work);
	} while (irq_work_is_pending(&d->kick) || work_pending(&d->work));
}
