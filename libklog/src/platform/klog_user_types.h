/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog_user_types.h - the kernel's basic types for user-space builds.
 *
 * Part of the platform seam, user-space half (never imported into the
 * kernel): the fixed-width names the core and its public headers use,
 * from <stdint.h>, and __printf() as <linux/compiler_attributes.h>
 * spells it.
 */
#ifndef KLOG_USER_TYPES_H
#define KLOG_USER_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

#endif /* KLOG_USER_TYPES_H */
