/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * prb_shim.h - just enough of the kernel to compile Linux 6.12's
 * kernel/printk/printk_ringbuffer.c unchanged in userspace.
 *
 * The ringbuffer source is extracted at build time from Debian's
 * linux-source-6.12 tarball (bench/prb/extract.sh) and is never committed.
 * Every kernel header it includes (<linux/atomic.h>, <linux/bug.h>, ...,
 * "internal.h") is a one-line file under bench/prb/include/ that includes
 * this one.
 *
 * Memory model: the kernel's fully ordered atomics (cmpxchg,
 * try_cmpxchg) are C11 seq_cst read-modify-writes, which on x86-64 are the
 * same LOCK CMPXCHG the kernel emits.  smp_mb() is the kernel's x86-64
 * "lock; addl $0,-4(%rsp)" (a C11 seq_cst fence elsewhere), smp_rmb() and
 * smp_wmb() are acquire and release fences (compiler barriers on x86-64,
 * as in the kernel).  _relaxed/_acquire/_release variants map one to one.
 */
#ifndef PRB_SHIM_H
#define PRB_SHIM_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * A copy whose length is known only at run time stays a call to libc's
 * memcpy(), as libklog's ring keeps its own (ring_memcpy() in
 * libklog/src/ring.c).  This covers every such copy of prb and of its
 * kbench glue (bench/be_prb.c), writes as well as reads: with link-time
 * optimisation GCC would otherwise expand the record copy that
 * prb_read_valid() inlines into kbench's reader as "rep movsq".  Copies
 * of a constant size are left to GCC.
 */
#define memcpy(d, s, n) ({						\
	size_t prb_shim_len = (n);					\
	if (!__builtin_constant_p(n))					\
		__asm__("" : "=r"(prb_shim_len) : "0"(prb_shim_len));	\
	memcpy((d), (s), prb_shim_len);					\
})

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#if !defined(__LP64__)
#error "the prb shim assumes a 64-bit long (CONFIG_64BIT)"
#endif
#define CONFIG_64BIT 1
#define BITS_PER_LONG 64

#define __aligned(x) __attribute__((aligned(x)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" ::: "memory")

#define ALIGN(x, a) (((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/* Barriers. */
#if defined(__x86_64__)
#define smp_mb() __asm__ __volatile__("lock; addl $0,-4(%%rsp)" ::: "memory", "cc")
#else
#define smp_mb() atomic_thread_fence(memory_order_seq_cst)
#endif
#define smp_rmb() atomic_thread_fence(memory_order_acquire)
#define smp_wmb() atomic_thread_fence(memory_order_release)

/* atomic_long_t on C11 atomics. */
typedef struct {
	_Atomic long counter;
} atomic_long_t;
typedef atomic_long_t atomic_t;

#define ATOMIC_INIT(i) { (i) }
#define ATOMIC_LONG_INIT(i) { (i) }

#define atomic_long_read(v) \
	atomic_load_explicit(&(v)->counter, memory_order_relaxed)
#define atomic_long_read_acquire(v) \
	atomic_load_explicit(&(v)->counter, memory_order_acquire)
#define atomic_long_set(v, i) \
	atomic_store_explicit(&(v)->counter, (long)(i), memory_order_relaxed)
#define atomic_long_inc(v) \
	((void)atomic_fetch_add_explicit(&(v)->counter, 1, memory_order_relaxed))

static inline long __prb_cmpxchg(atomic_long_t *v, long old, long new_,
				 memory_order mo)
{
	atomic_compare_exchange_strong_explicit(&v->counter, &old, new_, mo,
						memory_order_relaxed);
	return old;	/* the value found, as the kernel's cmpxchg() */
}

static inline bool __prb_try_cmpxchg(atomic_long_t *v, void *oldp, long new_,
				     memory_order mo)
{
	long *old = oldp;	/* the kernel passes unsigned long * */

	return atomic_compare_exchange_strong_explicit(&v->counter, old, new_,
						       mo, memory_order_relaxed);
}

#define atomic_long_cmpxchg(v, o, n) \
	__prb_cmpxchg((v), (long)(o), (long)(n), memory_order_seq_cst)
#define atomic_long_cmpxchg_relaxed(v, o, n) \
	__prb_cmpxchg((v), (long)(o), (long)(n), memory_order_relaxed)
#define atomic_long_try_cmpxchg(v, po, n) \
	__prb_try_cmpxchg((v), (po), (long)(n), memory_order_seq_cst)
#define atomic_long_try_cmpxchg_relaxed(v, po, n) \
	__prb_try_cmpxchg((v), (po), (long)(n), memory_order_relaxed)
#define atomic_long_try_cmpxchg_release(v, po, n) \
	__prb_try_cmpxchg((v), (po), (long)(n), memory_order_release)
#define atomic_long_try_cmpxchg_acquire(v, po, n) \
	__prb_try_cmpxchg((v), (po), (long)(n), memory_order_acquire)

/* Interrupts do not exist here: the reserve/commit window is preemptible. */
#define local_irq_save(flags) ((void)((flags) = 0))
#define local_irq_restore(flags) ((void)(flags))

/* Warnings. */
#define WARN_ON_ONCE(c) ({						\
	static bool __prb_warned;					\
	bool __prb_c = !!(c);						\
	if (__prb_c && !__prb_warned) {					\
		__prb_warned = true;					\
		fprintf(stderr, "prb: WARNING at %s:%d: %s\n",		\
			__FILE__, __LINE__, #c);			\
	}								\
	__prb_c;							\
})
#define WARN_ON(c) WARN_ON_ONCE(c)
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define pr_warn(...) fprintf(stderr, "prb: " __VA_ARGS__)
#define pr_warn_once(...) ({						\
	static bool __prb_pw;						\
	if (!__prb_pw) {						\
		__prb_pw = true;					\
		pr_warn(__VA_ARGS__);					\
	}								\
})
#define pr_info(...) ((void)0)

/* From kernel/printk/internal.h and printk.c: no panic in a benchmark. */
static inline bool panic_on_this_cpu(void)
{
	return false;
}
#define debug_non_panic_cpus false
#define legacy_allow_panic_sync false

/* From <linux/dev_printk.h>: part of struct printk_info (its size counts). */
#define PRINTK_INFO_SUBSYSTEM_LEN 16
#define PRINTK_INFO_DEVICE_LEN 48
struct dev_printk_info {
	char subsystem[PRINTK_INFO_SUBSYSTEM_LEN];
	char device[PRINTK_INFO_DEVICE_LEN];
};

/* From kernel/printk/printk.c and internal.h. */
#define PRB_AVGBITS 5
#define PRINTKRB_RECORD_MAX 1024
enum printk_info_flags {
	LOG_NEWLINE = 2,
	LOG_CONT = 8,
};

#endif /* PRB_SHIM_H */
