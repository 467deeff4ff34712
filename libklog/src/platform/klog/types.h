/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <klog/types.h> for kernel code: the kernel half of the platform seam.
 *
 * The public headers take their types from <klog/types.h>.  User space
 * gets include/klog/types.h, which is installed; the kernel import
 * leaves that file out, and kernel code (the core and the glue, both
 * built with -I.../libklog/include -I.../libklog/src/platform) finds
 * this one instead: the seam, whose kernel half supplies the same names
 * from <linux/types.h>, spinlocks, irq_work, refcount_t and wait queues.
 */
#ifndef KLOG_KERNEL_TYPES_H
#define KLOG_KERNEL_TYPES_H

#include "../platform.h"

#endif /* KLOG_KERNEL_TYPES_H */
