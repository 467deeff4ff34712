// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * be_logbuf3.c - a 3.x-style logbuf as a kbench backend.
 *
 * struct log records, log_store() and log_make_free_space() as in Linux
 * 3.10-3.18, a 3.x cont buffer, everything under one spinlock
 * (logbuf_lock).
 *
 * spin          that logbuf, 16-byte headers.
 * spin-caller   (W1-size and R-scan) the same logbuf storing what a
 *               libklog record holds: the caller id too, in the header
 *               Linux 5.1-5.9 gave struct printk_log with
 *               CONFIG_PRINTK_CALLER, 20 bytes where it is packed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/*
 * Linux 3.x struct log (later struct printk_log).  Where unaligned access
 * is cheap (CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS: x86, arm64), 3.x
 * aligned records to 4 bytes, not to the header's 8; the header is packed
 * to 4 here so that C allows it there (3.x relied on the CPU).
 */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define LOG3_PACKED __attribute__((packed, aligned(4)))
#define LOG5_SIZE 20
#else
#define LOG3_PACKED
#define LOG5_SIZE 24
#endif

struct log3 {
	uint64_t ts_nsec;
	uint16_t len;
	uint16_t text_len;
	uint16_t dict_len;
	uint8_t facility;
	uint8_t flags:5;
	uint8_t level:3;
} LOG3_PACKED;
#define LOG_ALIGN __alignof__(struct log3)
_Static_assert(sizeof(struct log3) == 16, "3.x struct log is 16 bytes");

/*
 * struct printk_log of 5.1-5.9 with CONFIG_PRINTK_CALLER: 20 bytes where
 * it is packed, as there; 24 elsewhere.
 */
struct log5 {
	struct log3 h;
	uint32_t caller_id;
} LOG3_PACKED;
_Static_assert(sizeof(struct log5) == LOG5_SIZE, "5.x struct printk_log");

/*
 * The functions below that need the header's size take it as @hdr, a
 * constant at every call: log_store_as() and lb_read_as() are always
 * inlined into a wrapper for each header, so that spin's code is what it
 * would be written for struct log3 alone.
 */
#define LOG3_ALWAYS_INLINE inline __attribute__((always_inline))
#define LOG3_NEWLINE 2
#define LOG3_CONT 8

struct logbuf {
	pthread_spinlock_t lock;	/* logbuf_lock */
	uint32_t log_buf_len;
	char *log_buf;
	uint64_t log_first_seq;
	uint32_t log_first_idx;
	uint64_t log_next_seq;
	uint32_t log_next_idx;
	struct bk_line cont;		/* 3.x struct cont, reduced */
};

static inline struct log3 *log_from_idx(struct logbuf *b, uint32_t idx)
{
	struct log3 *msg = (struct log3 *)(b->log_buf + idx);

	/* A length of 0 marks the wrap: the record is at the start. */
	if (!msg->len)
		return (struct log3 *)b->log_buf;
	return msg;
}

static inline uint32_t log_next(struct logbuf *b, uint32_t idx)
{
	struct log3 *msg = (struct log3 *)(b->log_buf + idx);

	if (!msg->len) {
		msg = (struct log3 *)b->log_buf;
		return msg->len;
	}
	return idx + msg->len;
}

static bool logbuf_has_space(struct logbuf *b, uint32_t msg_size, bool empty,
			     uint32_t hdr)
{
	uint32_t free;

	if (b->log_next_idx > b->log_first_idx || empty) {
		free = b->log_buf_len - b->log_next_idx;
		if (b->log_first_idx > free)
			free = b->log_first_idx;
	} else {
		free = b->log_first_idx - b->log_next_idx;
	}
	/* Room for an empty header that marks the wrap, too. */
	return free >= msg_size + hdr;
}

static int log_make_free_space(struct logbuf *b, uint32_t msg_size,
			       uint32_t hdr)
{
	while (b->log_first_seq < b->log_next_seq &&
	       !logbuf_has_space(b, msg_size, false, hdr)) {
		/* Drop old messages until there is enough contiguous space. */
		b->log_first_idx = log_next(b, b->log_first_idx);
		b->log_first_seq++;
	}
	if (logbuf_has_space(b, msg_size, b->log_first_seq == b->log_next_seq,
			     hdr))
		return 0;
	return -1;
}

/*
 * Built with link-time optimisation (KBENCH_INLINE_STORES, from
 * meson.build), kbench gets libklog's klog_ring_store() inlined into
 * be_libklog.c's write: this store is then inlined into its callers too,
 * so that both are measured alike.  Otherwise both are calls (gcc 12
 * does not inline this one on its own).
 */
#ifdef KBENCH_INLINE_STORES
#define LOG_STORE_INLINE inline __attribute__((always_inline))
#else
#define LOG_STORE_INLINE
#endif

/* log_store() with a header of @hdr bytes; a struct log5 has @caller_id. */
static LOG3_ALWAYS_INLINE
void log_store_as(struct logbuf *b, uint64_t ts_nsec, uint8_t flags,
		  const char *text, uint16_t text_len, uint32_t caller_id,
		  uint32_t hdr)
{
	uint32_t size = hdr + text_len;
	uint32_t pad_len = (-size) & (LOG_ALIGN - 1);
	struct log3 *msg;

	size += pad_len;
	if (log_make_free_space(b, size, hdr))
		return;
	if (b->log_next_idx + size + hdr > b->log_buf_len) {
		/* This message and an empty header do not fit: wrap. */
		memset(b->log_buf + b->log_next_idx, 0, hdr);
		b->log_next_idx = 0;
	}
	msg = (struct log3 *)(b->log_buf + b->log_next_idx);
	memcpy((char *)msg + hdr, text, text_len);
	msg->text_len = text_len;
	msg->flags = flags & 0x1f;
	msg->level = 6;
	msg->facility = 0;
	msg->dict_len = 0;
	if (hdr == sizeof(struct log5))
		((struct log5 *)msg)->caller_id = caller_id;
	msg->ts_nsec = ts_nsec;
	memset((char *)msg + hdr + text_len, 0, pad_len);
	msg->len = size;
	b->log_next_idx += msg->len;
	b->log_next_seq++;
}

static LOG_STORE_INLINE
void log_store(struct logbuf *b, uint64_t ts_nsec, uint8_t flags,
	       const char *text, uint16_t text_len)
{
	log_store_as(b, ts_nsec, flags, text, text_len, 0,
		     sizeof(struct log3));
}

static LOG_STORE_INLINE
void log_store5(struct logbuf *b, uint64_t ts_nsec, uint8_t flags,
		const char *text, uint16_t text_len, uint32_t caller_id)
{
	log_store_as(b, ts_nsec, flags, text, text_len, caller_id,
		     sizeof(struct log5));
}

static void *lb_create(uint32_t size)
{
	struct logbuf *b = bk_zalloc(sizeof(*b));

	if (!b)
		return NULL;
	b->log_buf = bk_zalloc(size);
	if (!b->log_buf) {
		free(b);
		return NULL;
	}
	b->log_buf_len = size;
	pthread_spin_init(&b->lock, PTHREAD_PROCESS_PRIVATE);
	return b;
}

static void lb_destroy(void *ring)
{
	struct logbuf *b = ring;

	pthread_spin_destroy(&b->lock);
	free(b->log_buf);
	free(b);
}

static size_t lb_mem(void *ring)
{
	struct logbuf *b = ring;

	return sizeof(*b) + b->log_buf_len;
}

static int lb_write(void *ring, const struct bk_msg *m)
{
	struct logbuf *b = ring;

	pthread_spin_lock(&b->lock);
	/* 3.x log_store() read local_clock() under logbuf_lock. */
	log_store(b, bk_ts(m), LOG3_NEWLINE, m->text, m->len);
	pthread_spin_unlock(&b->lock);
	return 0;
}

static int lb5_write(void *ring, const struct bk_msg *m)
{
	struct logbuf *b = ring;

	pthread_spin_lock(&b->lock);
	log_store5(b, bk_ts(m), LOG3_NEWLINE, m->text, m->len, m->caller);
	pthread_spin_unlock(&b->lock);
	return 0;
}

static void cont3_flush(struct logbuf *b, bool newline)
{
	struct bk_line *c = &b->cont;

	if (!c->len)
		return;
	log_store(b, c->ts, newline ? LOG3_NEWLINE : 0, c->buf, c->len);
	c->len = 0;
}

static int lb_write_part(void *ring, const struct bk_msg *m)
{
	struct logbuf *b = ring;
	struct bk_line *c = &b->cont;

	pthread_spin_lock(&b->lock);
	if (m->part == BK_WHOLE) {
		cont3_flush(b, false);
		log_store(b, bk_now(), LOG3_NEWLINE, m->text, m->len);
		pthread_spin_unlock(&b->lock);
		return 0;
	}
	if (c->len && (m->part == BK_FIRST || c->owner != m->caller ||
		       c->len + m->len > sizeof(c->buf)))
		cont3_flush(b, false);
	if (!c->len) {
		c->owner = m->caller;
		c->ts = bk_now();	/* 3.x cont_add(): local_clock() */
	}
	memcpy(c->buf + c->len, m->text, m->len);
	c->len += m->len;
	if (m->part == BK_LAST)
		cont3_flush(b, true);
	pthread_spin_unlock(&b->lock);
	return 0;
}

static void lb_cursor_first(void *ring, struct bk_cursor *c)
{
	struct logbuf *b = ring;

	pthread_spin_lock(&b->lock);
	c->seq = b->log_first_seq;
	c->idx = b->log_first_idx;
	pthread_spin_unlock(&b->lock);
}

static LOG3_ALWAYS_INLINE
int lb_read_as(void *ring, struct bk_cursor *c, struct bk_rec *out,
	       uint32_t hdr)
{
	struct logbuf *b = ring;
	struct log3 *msg;

	pthread_spin_lock(&b->lock);
	if (c->seq < b->log_first_seq) {
		/* Messages are gone: move to the first one. */
		c->seq = b->log_first_seq;
		c->idx = b->log_first_idx;
	}
	if (c->seq == b->log_next_seq) {
		pthread_spin_unlock(&b->lock);
		return 0;
	}
	msg = log_from_idx(b, c->idx);
	memcpy(c->scratch, (char *)msg + hdr, msg->text_len);
	out->len = msg->text_len;
	out->ts = msg->ts_nsec;
	c->idx = log_next(b, c->idx);
	c->seq++;
	pthread_spin_unlock(&b->lock);
	out->text = c->scratch;
	return 1;
}

static int lb_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	return lb_read_as(ring, c, out, sizeof(struct log3));
}

static int lb5_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	return lb_read_as(ring, c, out, sizeof(struct log5));
}

const struct bk_ops bk_logbuf3 = {
	/* Its column in the results, docs/performance.md: one spinlock. */
	.name = "spin",
	.what = "3.x logbuf: struct log records, log_store(), one spinlock",
	.create = lb_create,
	.destroy = lb_destroy,
	.mem = lb_mem,
	.write = lb_write,
	.write_part = lb_write_part,
	.cursor_first = lb_cursor_first,
	.read = lb_read,
};

const struct bk_ops bk_logbuf5 = {
	.name = "spin-caller",
	.what = "spin storing the caller id too: 5.1-5.9's "
		"struct printk_log (20 bytes, packed on x86 and arm64)",
	.create = lb_create,
	.destroy = lb_destroy,
	.mem = lb_mem,
	.write = lb5_write,
	.cursor_first = lb_cursor_first,
	.read = lb5_read,
};
