// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kernel.c - the Linux kernel half of the platform seam.
 *
 * DOC: kernel platform implementation
 *
 * One lockdep class per namespace depth, so that the child-then-parent
 * locking of the propagation path is visible to lockdep as a strict order
 * instead of recursion on one class.  Wake-ups of readers are deferred to
 * an irq_work (kl_waitq_wake()).
 */
#include "platform.h"

struct lock_class_key klog_plat_lock_keys[KLOG_PLAT_LOCK_DEPTHS];

/* The irq_work of kl_waitq_wake(): hard irq, or the irq_work thread. */
void klog_plat_waitq_wake(struct irq_work *work)
{
	struct kl_waitq *wq = container_of(work, struct kl_waitq, wake);

	wake_up_interruptible(&wq->head);
}
