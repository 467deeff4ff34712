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
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Kernel-style fixed-width names used by the core and its headers. */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
#endif

#endif /* KLOG_TYPES_H */
