/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog_types.h - basic types for the libklog public headers.
 *
 * Part of the platform seam: the only header outside the core that is
 * selected by __KERNEL__.  It is installed next to the public headers.
 */
#ifndef KLOG_TYPES_H
#define KLOG_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stdarg.h>
#else
#include "klog_user_types.h"
#endif

#endif /* KLOG_TYPES_H */
