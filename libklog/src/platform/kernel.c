// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kernel.c - the Linux kernel half of the platform seam.
 *
 * DOC: kernel platform implementation
 *
 * Per-CPU scratch buffers, one per context that may store (task, softirq,
 * hard irq), and the irq_work that defers wake-ups of readers
 * (kl_waitq_wake()).
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
