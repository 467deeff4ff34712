/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * klog/types.h - the types of libklog's public headers, for user space.
 *
 * Integers are spelled as the kernel's UAPI headers spell them: __u8,
 * __u16, __u32, __u64 and __s64 from <linux/types.h>, which names the
 * same types in the kernel and in user space, so that the headers need
 * no integer typedefs of their own (a program keeps its own u32, if it
 * has one).  The rest is C11: bool, size_t, ssize_t, va_list.
 *
 * struct klog_ns is public because an embedder embeds it in an object
 * of its own (the kernel in struct syslog_namespace), so its size is
 * part of the API, and with it the size of the few platform objects it
 * holds.  Those are declared here with what user space builds them
 * from, and nothing else: the platform's calls on them stay private
 * (src/platform/user.h).  Treat their members as opaque.
 *
 * Kernel code never sees this file: the kernel import leaves it out and
 * finds <klog/types.h> in src/platform/klog/types.h, the kernel half of
 * the platform seam.
 */
#ifndef KLOG_TYPES_H
#define KLOG_TYPES_H

#include <linux/types.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The lock of a namespace. */
typedef pthread_mutex_t klog_lock_t;

/* The reference count of a namespace. */
typedef atomic_uint klog_ref_t;

/* The wait queue of a namespace's blocking readers. */
struct klog_waitq {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	atomic_uint waiters;
};

typedef struct klog_waitq klog_waitq_t;

/* A namespace's deferred call (its forwarder). */
struct klog_defer {
	void (*fn)(struct klog_defer *d);
};

typedef struct klog_defer klog_defer_t;

/* printf-style format checking (the kernel's __printf()). */
#define KLOG_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

#endif /* KLOG_TYPES_H */
