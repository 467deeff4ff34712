/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * bench.h - the backends of kbench behind one interface.
 *
 * A backend is a record ring a kernel developer could pick: libklog's ring
 * (under a spinlock, as the kernel glue takes it), libklog's namespace
 * store path, Linux 6.12's lockless printk_ringbuffer (prb), a 3.x-style
 * logbuf under one spinlock (bk_logbuf3, "spin" in the results), a naive
 * mutex ring of fixed slots (mutex), and the machine's floor (one atomic
 * add, a memcpy and a release store).  Every backend stores and reads the
 * same records.
 */
#ifndef KBENCH_H
#define KBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Text bytes in one record at most (upstream's PRINTKRB_RECORD_MAX). */
#define BK_TEXT_MAX 1024

/* A timestamp the backend takes itself (local_clock() in a kernel). */
#define BK_TS_NOW UINT64_MAX

/* What part of a line a write is (the Cont+ts scenario). */
enum bk_part {
	BK_WHOLE,	/* a whole line, with its newline */
	BK_FIRST,	/* first fragment: no newline */
	BK_MID,		/* KERN_CONT fragment: no newline */
	BK_LAST,	/* KERN_CONT fragment ending the line */
};

struct bk_msg {
	const char *text;
	uint32_t len;
	uint32_t caller;
	uint64_t ts;		/* BK_TS_NOW: the backend reads the clock */
	enum bk_part part;
};

/*
 * A reader's position.  Each backend uses what it needs; @scratch is
 * reader-private memory of BK_SCRATCH bytes handed in by the harness.
 */
#define BK_SCRATCH 4096
struct bk_cursor {
	uint64_t seq;
	uint64_t pos;
	uint32_t idx;
	void *scratch;
};

/* A record read back.  @text points into the reader's scratch memory. */
struct bk_rec {
	const char *text;
	uint32_t len;
	uint64_t ts;
};

struct bk_ops {
	const char *name;
	const char *what;	/* one line for the docs */
	/* One ring of @size bytes of text storage (a power of two). */
	void *(*create)(uint32_t size);
	void (*destroy)(void *ring);
	/* Bytes of memory one ring of that size takes, metadata included. */
	size_t (*mem)(void *ring);
	/* 0 stored; -1 the store failed (the record is lost). */
	int (*write)(void *ring, const struct bk_msg *m);
	/* Line fragments (Cont+ts); NULL: the backend has no cont buffer. */
	int (*write_part)(void *ring, const struct bk_msg *m);
	void (*cursor_first)(void *ring, struct bk_cursor *c);
	/* 1 a record (copied into c->scratch), 0 nothing new yet. */
	int (*read)(void *ring, struct bk_cursor *c, struct bk_rec *r);
	/*
	 * Optional: true if a record of @len bytes would no longer leave the
	 * oldest record readable from cursor_first() (the floor's reader
	 * cannot find a record boundary in a ring that has wrapped).
	 */
	bool (*full)(void *ring, uint32_t len);
};

extern const struct bk_ops bk_libklog, bk_libklog_nolock, bk_libklog_ns,
	bk_libklog_printk, bk_prb, bk_logbuf3, bk_logbuf5, bk_mutex, bk_floor,
	bk_null;

static inline uint64_t bk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The timestamp of @m: its own, or the clock's now. */
static inline uint64_t bk_ts(const struct bk_msg *m)
{
	return m->ts == BK_TS_NOW ? bk_now() : m->ts;
}

#define BK_CACHELINE 64

/* @size zeroed bytes aligned to a cache line, or NULL; free() them. */
static inline void *bk_zalloc(size_t size)
{
	void *p = aligned_alloc(BK_CACHELINE, (size + BK_CACHELINE - 1) &
					      ~(size_t)(BK_CACHELINE - 1));

	if (p)
		memset(p, 0, size);
	return p;
}

/*
 * A line assembled from KERN_CONT fragments (Cont+ts): the cont buffers
 * of spin and mutex (3.x struct cont, reduced to what a store needs) and
 * the floor's per-thread line.  @owner is the caller that started it.
 */
struct bk_line {
	char buf[BK_TEXT_MAX];
	uint32_t len;
	uint32_t owner;
	uint64_t ts;
};

static inline void bk_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif /* KBENCH_H */
