/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * fuzz.h - shared by the libFuzzer targets in tests/fuzz.
 *
 * Every target defines LLVMFuzzerTestOneInput(); meson links it with
 * clang's libFuzzer (-Dfuzz=true, for run.sh) and with replay.c, a plain
 * main() that replays files (the meson tests, under gcc, ASan and
 * valgrind).
 */
#ifndef KLOG_FUZZ_H
#define KLOG_FUZZ_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"
#include "klog/testing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A failed check is a crash: libFuzzer saves the input. */
#define FCHECK(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "fuzz: %s:%d: check failed: %s\n",	\
			__FILE__, __LINE__, #c);			\
		abort();						\
	}								\
} while (0)

/* Input reader: bytes run out as zeros. */
struct in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t in_u8(struct in *in)
{
	uint8_t v;

	if (!in->n)
		return 0;
	v = *in->p++;
	in->n--;
	return v;
}

static inline uint16_t in_u16(struct in *in)
{
	uint16_t lo = in_u8(in);

	return (uint16_t)(lo | (uint16_t)in_u8(in) << 8);
}

static inline uint32_t in_u32(struct in *in)
{
	uint32_t lo = in_u16(in);

	return lo | (uint32_t)in_u16(in) << 16;
}

/* Up to @max bytes (fewer if the input ends); *@len gets the count. */
static inline const uint8_t *in_bytes(struct in *in, size_t max, size_t *len)
{
	const uint8_t *p = in->p;

	if (max > in->n)
		max = in->n;
	in->p += max;
	in->n -= max;
	*len = max;
	return p;
}

/*
 * The library's invariants, checked as an input runs.  Installed with
 * klog_testing_set_unlock_check(): every namespace's ring and cursors
 * (R1-R8, klog_ns_check_locked()) at the end of every locked section.
 * A broken invariant is a crash, so libFuzzer keeps the input.
 */
static inline void fuzz_check_at_unlock(klog_lock_t *lock)
{
	struct klog_ns *ns = kl_container_of(lock, struct klog_ns, lock);
	int ret = klog_ns_check_locked(ns);

	if (ret) {
		fprintf(stderr, "fuzz: invariant R%d broken in ns %llu\n", -ret,
			(unsigned long long)ns->id);
		abort();
	}
}

/* After an operation: no klog lock left held, and @c (of @ns) valid. */
static inline void fuzz_check_cursor(struct klog_ns *ns,
				     const struct klog_cursor *c)
{
	kl_irqflags_t flags = 0;
	int ret;

	FCHECK(klog_testing_locks_held() == 0);
	kl_lock_irqsave(&ns->lock, flags);
	ret = klog_ring_check_cursor(&ns->ring, c);
	kl_unlock_irqrestore(&ns->lock, flags);
	FCHECK(ret == 0);
}

/* A fake clock the targets advance themselves. */
static uint64_t fuzz_now = 1000000000ull;

static inline uint64_t fuzz_clock(void)
{
	return fuzz_now;
}

#endif /* KLOG_FUZZ_H */
