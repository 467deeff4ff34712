// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kernel.c - the Linux kernel half of the platform seam.
 *
 * DOC: kernel platform implementation
 *
 * One lockdep class per namespace depth, so that the hand-over-hand
 * child-then-parent locking of the propagation path is visible to lockdep
 * as a strict order instead of recursion on one class.
 */
#include "platform.h"

struct lock_class_key klog_plat_lock_keys[KLOG_PLAT_LOCK_DEPTHS];
