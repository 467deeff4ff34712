/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * user.h - the userspace half of the platform seam.
 *
 * DOC: userspace platform
 *
 * Locks are pthread mutexes (interrupt flags are ignored), reference counts
 * are C11 atomics, the clock is CLOCK_MONOTONIC unless a test installed a
 * fake one, and wait queues are a mutex and a condition variable.  Every
 * allocation goes through klog_plat_alloc(), which tests can make fail.
 *
 * The objects struct klog_ns embeds are declared, with these layouts, in
 * the installed <klog/types.h> (klog_lock_t and friends); this private
 * half only adds the seam's names for them and the calls on them.
 */
#ifndef KLOG_PLATFORM_USER_H
#define KLOG_PLATFORM_USER_H

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sys/types.h>

#include <klog/types.h>

/*
 * The kernel's integer names, for the core only (the public headers say
 * __u32 and so on): the same types as in the kernel, u64 included.
 */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;

#ifndef __printf
#define __printf(a, b) KLOG_PRINTF(a, b)
#endif

/*
 * kl_lock_t: protects one namespace.  Userspace has no interrupts, so the
 * irqsave variants are mutex operations.  Each thread counts the klog
 * locks it holds: taking a second one is a bug (the core never holds two)
 * that aborts the program with a message, and a test finds a function
 * that returned with its lock held by the count it left
 * (klog_testing_locks_held()).
 */
typedef klog_lock_t kl_lock_t;
typedef unsigned long kl_irqflags_t;
void klog_plat_lock(kl_lock_t *l);
void klog_plat_unlock(kl_lock_t *l);
#define kl_lock_init(l) pthread_mutex_init((l), NULL)
#define kl_lock_destroy(l) pthread_mutex_destroy(l)
#define kl_lock_irqsave(l, f) ((void)(f), klog_plat_lock(l))
#define kl_unlock_irqrestore(l, f) ((void)(f), klog_plat_unlock(l))

/*
 * kl_might_sleep() - the caller may sleep: aborts the program with a
 * message if the calling thread holds a klog lock or runs a deferred
 * call (which the kernel runs as an irq_work, where nothing may sleep).
 */
void klog_plat_might_sleep(const char *func);
#define kl_might_sleep() klog_plat_might_sleep(__func__)

/*
 * kl_assert_unlocked() - the caller holds no klog lock (the formatters
 * run only with their record copied out and the lock dropped): aborts
 * the program with a message if the calling thread holds one, unless a
 * test replaced the check (klog_testing_set_unlocked_hook()).
 */
void klog_plat_assert_unlocked(const char *func);
#define kl_assert_unlocked() klog_plat_assert_unlocked(__func__)

/*
 * kl_scratch_get() - the calling thread's KL_SCRATCH_SIZE-byte buffer, or
 * NULL if the thread is already using it (the store path recursed).
 * kl_scratch_put() gives it back.
 */
#define KL_SCRATCH_SIZE 1024

/*
 * Deferred calls.  kl_defer_queue() runs @d->fn(@d) in the calling thread
 * once the call it is made from (if any) has returned: each thread drains
 * its own queue in order, so a deferred function that queues more work
 * (itself, or a parent namespace's forwarder) never nests.  A @d already
 * in the thread's queue is not queued twice.  kl_defer_sync() has nothing
 * to wait for.
 */
typedef klog_defer_t kl_defer_t;
void klog_plat_defer_queue(kl_defer_t *d);
#define kl_defer_init(d, f) ((d)->fn = (f))
#define kl_defer_queue(d) klog_plat_defer_queue(d)
#define kl_defer_sync(d) ((void)(d))

#define kl_container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
char *klog_plat_scratch_get(void);
void klog_plat_scratch_put(char *buf);
#define kl_scratch_get() klog_plat_scratch_get()
#define kl_scratch_put(b) klog_plat_scratch_put(b)

/*
 * kl_alloc() - zeroed memory; NULL on failure (or when a test injects a
 * failure).  May block.  kl_free(NULL) is a no-op.
 */
void *klog_plat_alloc(size_t size);
void klog_plat_free(void *p);
#define kl_alloc(n) klog_plat_alloc(n)
#define kl_free(p) klog_plat_free(p)

/* kl_clock_ns() - monotonic time in ns; a test may install a fake clock. */
u64 klog_plat_clock_ns(void);
#define kl_clock_ns() klog_plat_clock_ns()
/* kl_coarse_ns() - the clock of ratelimit windows: the same one here. */
#define kl_coarse_ns() klog_plat_clock_ns()

/* kl_caller_id() - "T<tid>" style id of the calling thread. */
u32 klog_plat_caller_id(void);
#define kl_caller_id() klog_plat_caller_id()

/* Reference counts: never below zero; kl_ref_put() is true at zero. */
typedef klog_ref_t kl_ref_t;
#define kl_ref_init(r, v) atomic_init((r), (v))
#define kl_ref_get(r) ((void)atomic_fetch_add_explicit((r), 1, \
					memory_order_relaxed))
#define kl_ref_put(r) (atomic_fetch_sub_explicit((r), 1, \
					memory_order_acq_rel) == 1)
#define kl_ref_read(r) atomic_load(r)

/*
 * Wait queues.  kl_waitq_wait() sleeps until @cond(@arg) is true and
 * returns 0; the kernel half may return -ERESTARTSYS on a signal.  The
 * condition is evaluated under the queue's own mutex and every wake-up
 * takes that mutex, so a wake-up between test and sleep is never lost.
 */
/* Waiters: a wake skips an empty queue. */
typedef klog_waitq_t kl_waitq_t;
void klog_plat_waitq_init(kl_waitq_t *wq);
void klog_plat_waitq_destroy(kl_waitq_t *wq);
void klog_plat_waitq_wake(kl_waitq_t *wq);
int klog_plat_waitq_wait(kl_waitq_t *wq, bool (*cond)(void *), void *arg);
#define kl_waitq_init(wq) klog_plat_waitq_init(wq)
#define kl_waitq_destroy(wq) klog_plat_waitq_destroy(wq)
#define kl_waitq_wake(wq) klog_plat_waitq_wake(wq)
#define kl_waitq_wait(wq, c, a) klog_plat_waitq_wait((wq), (c), (a))

/* kl_warn_on_once() - evaluates to @c; reports the first true one. */
#define kl_warn_on_once(c) ({						\
	static bool __kl_warned;					\
	bool __kl_c = !!(c);						\
	if (__kl_c && !__kl_warned) {					\
		__kl_warned = true;					\
		fprintf(stderr, "libklog: WARNING at %s:%d: %s\n",	\
			__FILE__, __LINE__, #c);			\
	}								\
	__kl_c;								\
})

/* kl_read_once() - one relaxed atomic read of the scalar @x. */
#define kl_read_once(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* kl_prefetchw() - hint that @p will be written soon; never faults. */
#define kl_prefetchw(p) __builtin_prefetch((p), 1, 3)

/* KL_CACHE_BYTES - bytes in a cache line (x86-64 and arm64: 64). */
#define KL_CACHE_BYTES 64u

/* kl_noinline - never inline this function. */
#define kl_noinline __attribute__((__noinline__))

/* kl_always_inline - in place of inline: always inline this function. */
#define kl_always_inline inline __attribute__((__always_inline__))

/* kl_hide_var() - the compiler no longer knows @v's value or bounds. */
#define kl_hide_var(v) __asm__("" : "+r"(v))

#define kl_vsnprintf vsnprintf
#define kl_snprintf snprintf
#define kl_memcpy memcpy
#define kl_memmove memmove
#define kl_memset memset
#define kl_memchr memchr
#define kl_strnlen strnlen

/* kl_div_u64_rem() - 64-bit division with remainder (do_div in kernel). */
static inline u64 kl_div_u64_rem(u64 n, u32 d, u32 *rem)
{
	*rem = (u32)(n % d);
	return n / d;
}

#endif /* KLOG_PLATFORM_USER_H */
