// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * backends.c - libklog and the classic rings as kbench backends.
 *
 * libklog          klog_ring_store()/klog_ring_read() under a spinlock, as
 *                  the kernel glue holds the namespace's raw spinlock.
 * libklog-nolock   the same ring with no lock (single writer, W1 only).
 * libklog-ns       the namespace store path klog_ns_store()/klog_ns_read()
 *                  as it runs in userspace: the namespace lock (a pthread
 *                  mutex here), the timestamp, the cont buffer, the wake-up.
 * libklog-printk   klog_ns_printk(): the same plus vsnprintf and prefix
 *                  parsing (Cont+ts only).
 * spin             a 3.x-style logbuf: struct log records, log_store() and
 *                  log_make_free_space() as in Linux 3.10-3.18, a 3.x cont
 *                  buffer, everything under one spinlock (logbuf_lock).
 * mutex            a naive ring: fixed 1 KiB slots under a pthread mutex.
 * floor            one atomic add to reserve, a memcpy and a release store
 *                  to publish: what any multi-writer ring must at least do.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"

#include "bench.h"

#define CACHELINE 64

static void *zalloc(size_t size)
{
	void *p = aligned_alloc(CACHELINE, (size + CACHELINE - 1) &
					   ~(size_t)(CACHELINE - 1));

	if (p)
		memset(p, 0, size);
	return p;
}

static inline uint64_t ts_of(const struct bk_msg *m)
{
	return m->ts == BK_TS_NOW ? bk_now() : m->ts;
}

/* ------------------------------------------------------------------ */
/* libklog: the ring under a spinlock                                  */

struct lk {
	pthread_spinlock_t lock;
	struct klog_ring ring;
};

static void *lk_create(uint32_t size)
{
	struct lk *l = zalloc(sizeof(*l));
	void *buf = zalloc(size);

	if (!l || !buf || klog_ring_init(&l->ring, buf, size)) {
		free(buf);
		free(l);
		return NULL;
	}
	pthread_spin_init(&l->lock, PTHREAD_PROCESS_PRIVATE);
	return l;
}

static void lk_destroy(void *ring)
{
	struct lk *l = ring;

	pthread_spin_destroy(&l->lock);
	free(l->ring.buf);
	free(l);
}

static size_t lk_mem(void *ring)
{
	struct lk *l = ring;

	return sizeof(*l) + l->ring.size;
}

static int lk_write(void *ring, const struct bk_msg *m)
{
	struct lk *l = ring;
	struct klog_entry e = {
		.ts_nsec = ts_of(m),
		.caller_id = m->caller,
		.level = 6,
		.flags = KLOG_F_NEWLINE,
		.text = m->text,
		.text_len = m->len,
	};

	pthread_spin_lock(&l->lock);
	klog_ring_store(&l->ring, &e);
	pthread_spin_unlock(&l->lock);
	return 0;
}

/* The ring alone, for one writer: what the lock costs (W1 only). */
static int lk_write_nolock(void *ring, const struct bk_msg *m)
{
	struct lk *l = ring;
	struct klog_entry e = {
		.ts_nsec = ts_of(m),
		.caller_id = m->caller,
		.level = 6,
		.flags = KLOG_F_NEWLINE,
		.text = m->text,
		.text_len = m->len,
	};

	klog_ring_store(&l->ring, &e);
	return 0;
}

static void lk_cursor_first(void *ring, struct bk_cursor *c)
{
	struct lk *l = ring;
	struct klog_cursor kc;

	pthread_spin_lock(&l->lock);
	klog_ring_cursor_first(&l->ring, &kc);
	pthread_spin_unlock(&l->lock);
	c->seq = kc.seq;
	c->idx = kc.idx;
}

static int lk_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	struct lk *l = ring;
	struct klog_cursor kc = { .seq = c->seq, .idx = c->idx };
	struct klog_record rec;
	int ret = 0;

	pthread_spin_lock(&l->lock);
	if (klog_ring_read(&l->ring, &kc, &rec, NULL)) {
		memcpy(c->scratch, rec.text, rec.text_len);
		out->len = rec.text_len;
		out->ts = rec.ts_nsec;
		ret = 1;
	}
	pthread_spin_unlock(&l->lock);
	c->seq = kc.seq;
	c->idx = kc.idx;
	out->text = c->scratch;
	return ret;
}

const struct bk_ops bk_libklog = {
	.name = "libklog",
	.what = "klog_ring_store()/klog_ring_read() under a pthread spinlock",
	.create = lk_create,
	.destroy = lk_destroy,
	.mem = lk_mem,
	.write = lk_write,
	.cursor_first = lk_cursor_first,
	.read = lk_read,
};

const struct bk_ops bk_libklog_nolock = {
	.name = "libklog-nolock",
	.what = "klog_ring_store() with no lock at all (one writer only): "
		"the ring's own cost",
	.create = lk_create,
	.destroy = lk_destroy,
	.mem = lk_mem,
	.write = lk_write_nolock,
	.cursor_first = lk_cursor_first,
	.read = lk_read,
};

/* ------------------------------------------------------------------ */
/* libklog-ns and libklog-printk: the namespace store path             */

static void *ns_create(uint32_t size)
{
	struct klog_ns_params p = { .size = size };
	struct klog_ns *ns;

	if (klog_ns_create(NULL, &p, &ns))
		return NULL;
	return ns;
}

static void ns_destroy(void *ring)
{
	klog_ns_put(ring);
}

static size_t ns_mem(void *ring)
{
	struct klog_ns *ns = ring;

	return sizeof(*ns) + ns->ring.size;
}

static const u32 ns_part_flags[] = {
	[BK_WHOLE] = KLOG_F_NEWLINE,
	[BK_FIRST] = 0,
	[BK_MID] = KLOG_F_CONT,
	[BK_LAST] = KLOG_F_CONT | KLOG_F_NEWLINE,
};

static int ns_write(void *ring, const struct bk_msg *m)
{
	struct klog_msg msg = {
		.level = 6,
		.flags = ns_part_flags[m->part],
		.caller_id = m->caller,
		.text = m->text,
		.text_len = m->len,
	};

	return klog_ns_store(ring, &msg) < 0 ? -1 : 0;
}

static void ns_cursor_first(void *ring, struct bk_cursor *c)
{
	struct klog_ns *ns = ring;
	struct klog_cursor kc;
	kl_irqflags_t flags;

	kl_lock_irqsave(&ns->lock, flags);
	klog_ring_cursor_first(&ns->ring, &kc);
	kl_unlock_irqrestore(&ns->lock, flags);
	c->seq = kc.seq;
	c->idx = kc.idx;
}

_Static_assert(sizeof(struct klog_msgbuf) <= BK_SCRATCH, "scratch");

static int ns_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	struct klog_cursor kc = { .seq = c->seq, .idx = c->idx };
	struct klog_msgbuf *mb = c->scratch;
	int ret = klog_ns_read(ring, &kc, mb);

	c->seq = kc.seq;
	c->idx = kc.idx;
	if (ret != 1)
		return 0;
	out->text = mb->text;
	out->len = mb->rec.text_len;
	out->ts = mb->rec.ts_nsec;
	return 1;
}

const struct bk_ops bk_libklog_ns = {
	.name = "libklog-ns",
	.what = "klog_ns_store()/klog_ns_read(): namespace lock (a pthread "
		"mutex in userspace), clock, cont buffer, wake-up",
	.create = ns_create,
	.destroy = ns_destroy,
	.mem = ns_mem,
	.write = ns_write,
	.write_part = ns_write,
	.cursor_first = ns_cursor_first,
	.read = ns_read,
};

static int nsp_write(void *ring, const struct bk_msg *m)
{
	int n, len = (int)m->len;

	switch (m->part) {
	case BK_WHOLE:
		n = klog_ns_printk(ring, "\0016%.*s\n", len, m->text);
		break;
	case BK_FIRST:
		n = klog_ns_printk(ring, "\0016%.*s", len, m->text);
		break;
	case BK_MID:
		n = klog_ns_printk(ring, "\001c%.*s", len, m->text);
		break;
	default:
		n = klog_ns_printk(ring, "\001c%.*s\n", len, m->text);
		break;
	}
	return n < 0 ? -1 : 0;
}

const struct bk_ops bk_libklog_printk = {
	.name = "libklog-printk",
	.what = "klog_ns_printk(): libklog-ns plus vsnprintf, prefix parsing "
		"and the caller id (a gettid() system call in userspace)",
	.create = ns_create,
	.destroy = ns_destroy,
	.mem = ns_mem,
	.write = nsp_write,
	.write_part = nsp_write,
	.cursor_first = ns_cursor_first,
	.read = ns_read,
};

/* ------------------------------------------------------------------ */
/* spin: a 3.x logbuf                                                  */

/* Linux 3.x struct log (later struct printk_log). */
struct log3 {
	uint64_t ts_nsec;
	uint16_t len;
	uint16_t text_len;
	uint16_t dict_len;
	uint8_t facility;
	uint8_t flags:5;
	uint8_t level:3;
};
#define LOG_ALIGN __alignof__(struct log3)
#define LOG3_NEWLINE 2
#define LOG3_CONT 8

/* 3.x struct cont, reduced to what a store needs. */
struct cont3 {
	char buf[BK_TEXT_MAX];
	uint32_t len;
	uint32_t owner;
	uint64_t ts_nsec;
};

struct logbuf {
	pthread_spinlock_t lock;	/* logbuf_lock */
	uint32_t log_buf_len;
	char *log_buf;
	uint64_t log_first_seq;
	uint32_t log_first_idx;
	uint64_t log_next_seq;
	uint32_t log_next_idx;
	struct cont3 cont;
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

static bool logbuf_has_space(struct logbuf *b, uint32_t msg_size, bool empty)
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
	return free >= msg_size + sizeof(struct log3);
}

static int log_make_free_space(struct logbuf *b, uint32_t msg_size)
{
	while (b->log_first_seq < b->log_next_seq &&
	       !logbuf_has_space(b, msg_size, false)) {
		/* Drop old messages until there is enough contiguous space. */
		b->log_first_idx = log_next(b, b->log_first_idx);
		b->log_first_seq++;
	}
	if (logbuf_has_space(b, msg_size, b->log_first_seq == b->log_next_seq))
		return 0;
	return -1;
}

static void log_store(struct logbuf *b, uint64_t ts_nsec, uint8_t flags,
		      const char *text, uint16_t text_len)
{
	uint32_t size = sizeof(struct log3) + text_len;
	uint32_t pad_len = (-size) & (LOG_ALIGN - 1);
	struct log3 *msg;

	size += pad_len;
	if (log_make_free_space(b, size))
		return;
	if (b->log_next_idx + size + sizeof(struct log3) > b->log_buf_len) {
		/* This message and an empty header do not fit: wrap. */
		memset(b->log_buf + b->log_next_idx, 0, sizeof(struct log3));
		b->log_next_idx = 0;
	}
	msg = (struct log3 *)(b->log_buf + b->log_next_idx);
	memcpy(msg + 1, text, text_len);
	msg->text_len = text_len;
	msg->flags = flags & 0x1f;
	msg->level = 6;
	msg->facility = 0;
	msg->dict_len = 0;
	msg->ts_nsec = ts_nsec;
	memset((char *)(msg + 1) + text_len, 0, pad_len);
	msg->len = size;
	b->log_next_idx += msg->len;
	b->log_next_seq++;
}

static void *lb_create(uint32_t size)
{
	struct logbuf *b = zalloc(sizeof(*b));

	if (!b)
		return NULL;
	b->log_buf = zalloc(size);
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
	log_store(b, ts_of(m), LOG3_NEWLINE, m->text, m->len);
	pthread_spin_unlock(&b->lock);
	return 0;
}

static void cont3_flush(struct logbuf *b, bool newline)
{
	struct cont3 *c = &b->cont;

	if (!c->len)
		return;
	log_store(b, c->ts_nsec, newline ? LOG3_NEWLINE : 0, c->buf, c->len);
	c->len = 0;
}

static int lb_write_part(void *ring, const struct bk_msg *m)
{
	struct logbuf *b = ring;
	struct cont3 *c = &b->cont;

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
		c->ts_nsec = bk_now();	/* 3.x cont_add(): local_clock() */
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

static int lb_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
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
	memcpy(c->scratch, msg + 1, msg->text_len);
	out->len = msg->text_len;
	out->ts = msg->ts_nsec;
	c->idx = log_next(b, c->idx);
	c->seq++;
	pthread_spin_unlock(&b->lock);
	out->text = c->scratch;
	return 1;
}

const struct bk_ops bk_spin = {
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

/* ------------------------------------------------------------------ */
/* mutex: a naive ring of fixed slots                                  */

struct mslot {
	uint64_t seq;
	uint64_t ts;
	uint32_t len;
	uint32_t caller;
	char text[BK_TEXT_MAX];
};

struct mring {
	pthread_mutex_t lock;
	uint64_t head;
	uint32_t nslots;
	uint32_t size;
	struct mslot *slots;
	struct cont3 cont;
};

static void *mr_create(uint32_t size)
{
	struct mring *r = zalloc(sizeof(*r));

	if (!r)
		return NULL;
	r->size = size;
	r->nslots = size / sizeof(struct mslot);
	if (r->nslots < 2)
		r->nslots = 2;
	r->slots = zalloc((size_t)r->nslots * sizeof(struct mslot));
	if (!r->slots) {
		free(r);
		return NULL;
	}
	pthread_mutex_init(&r->lock, NULL);
	return r;
}

static void mr_destroy(void *ring)
{
	struct mring *r = ring;

	pthread_mutex_destroy(&r->lock);
	free(r->slots);
	free(r);
}

static size_t mr_mem(void *ring)
{
	struct mring *r = ring;

	return sizeof(*r) + (size_t)r->nslots * sizeof(struct mslot);
}

static void mr_put(struct mring *r, uint64_t ts, uint32_t caller,
		   const char *text, uint32_t len)
{
	struct mslot *s = &r->slots[r->head % r->nslots];

	s->seq = r->head;
	s->ts = ts;
	s->len = len;
	s->caller = caller;
	memcpy(s->text, text, len);
	r->head++;
}

static int mr_write(void *ring, const struct bk_msg *m)
{
	struct mring *r = ring;
	uint64_t ts = ts_of(m);

	pthread_mutex_lock(&r->lock);
	mr_put(r, ts, m->caller, m->text, m->len);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static int mr_write_part(void *ring, const struct bk_msg *m)
{
	struct mring *r = ring;
	struct cont3 *c = &r->cont;
	uint64_t ts = bk_now();

	pthread_mutex_lock(&r->lock);
	if (c->len && (m->part == BK_WHOLE || m->part == BK_FIRST ||
		       c->owner != m->caller ||
		       c->len + m->len > sizeof(c->buf))) {
		mr_put(r, c->ts_nsec, c->owner, c->buf, c->len);
		c->len = 0;
	}
	if (m->part == BK_WHOLE) {
		mr_put(r, ts, m->caller, m->text, m->len);
	} else {
		if (!c->len) {
			c->owner = m->caller;
			c->ts_nsec = ts;
		}
		memcpy(c->buf + c->len, m->text, m->len);
		c->len += m->len;
		if (m->part == BK_LAST) {
			mr_put(r, c->ts_nsec, c->owner, c->buf, c->len);
			c->len = 0;
		}
	}
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static void mr_cursor_first(void *ring, struct bk_cursor *c)
{
	struct mring *r = ring;

	pthread_mutex_lock(&r->lock);
	c->seq = r->head > r->nslots ? r->head - r->nslots : 0;
	pthread_mutex_unlock(&r->lock);
}

static int mr_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	struct mring *r = ring;
	struct mslot *s;

	pthread_mutex_lock(&r->lock);
	if (r->head - c->seq > r->nslots)
		c->seq = r->head - r->nslots;
	if (c->seq == r->head) {
		pthread_mutex_unlock(&r->lock);
		return 0;
	}
	s = &r->slots[c->seq % r->nslots];
	memcpy(c->scratch, s->text, s->len);
	out->len = s->len;
	out->ts = s->ts;
	c->seq++;
	pthread_mutex_unlock(&r->lock);
	out->text = c->scratch;
	return 1;
}

const struct bk_ops bk_mutex = {
	.name = "mutex",
	.what = "naive ring: fixed 1 KiB slots under a pthread mutex",
	.create = mr_create,
	.destroy = mr_destroy,
	.mem = mr_mem,
	.write = mr_write,
	.write_part = mr_write_part,
	.cursor_first = mr_cursor_first,
	.read = mr_read,
};

/* ------------------------------------------------------------------ */
/* null: the harness alone                                             */

static void *null_create(uint32_t size)
{
	uint32_t *p = zalloc(sizeof(*p));

	if (p)
		*p = size;
	return p;
}

static size_t null_mem(void *ring)
{
	return *(uint32_t *)ring;
}

static int null_write(void *ring, const struct bk_msg *m)
{
	__asm__ __volatile__("" : : "r"(ring), "r"(m) : "memory");
	return 0;
}

static void null_cursor_first(void *ring, struct bk_cursor *c)
{
	(void)ring;
	c->seq = 0;
}

static int null_read(void *ring, struct bk_cursor *c, struct bk_rec *r)
{
	(void)ring;
	(void)c;
	(void)r;
	return 0;
}

const struct bk_ops bk_null = {
	.name = "null",
	.what = "a write that does nothing: the harness's own cost per record "
		"(loop, call through a pointer), included in every number",
	.create = null_create,
	.destroy = free,
	.mem = null_mem,
	.write = null_write,
	.cursor_first = null_cursor_first,
	.read = null_read,
};

/* ------------------------------------------------------------------ */
/* floor: atomic add + memcpy + release store                          */

/*
 * A record at byte position pos is a header and the text padded to 8:
 * the writer reserves with one fetch_add on @head, copies, and publishes
 * with one release store of @tag = pos << 16 | len.  A record reserved
 * near the end runs on into @slack instead of wrapping, so the copy is one
 * memcpy.  A reader checks the tag and, after copying, that the head has
 * not passed pos + size (the record would have been overwritten).
 */
struct fhdr {
	uint64_t ts;
	_Atomic uint64_t tag;
};

struct floor {
	_Atomic uint64_t head;
	char pad[CACHELINE - sizeof(uint64_t)];
	char *buf;
	uint64_t size;
	uint64_t mask;
	/* Per-thread line assembly for Cont+ts lives with the caller. */
};

#define FLOOR_SLACK (sizeof(struct fhdr) + BK_TEXT_MAX + 8)
#define FLOOR_POS_MASK ((1ull << 48) - 1)

static void *fl_create(uint32_t size)
{
	struct floor *f = zalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->buf = zalloc(size + FLOOR_SLACK);
	if (!f->buf) {
		free(f);
		return NULL;
	}
	f->size = size;
	f->mask = size - 1;
	return f;
}

static void fl_destroy(void *ring)
{
	struct floor *f = ring;

	free(f->buf);
	free(f);
}

static size_t fl_mem(void *ring)
{
	struct floor *f = ring;

	return sizeof(*f) + f->size + FLOOR_SLACK;
}

static inline uint64_t fl_need(uint32_t len)
{
	return sizeof(struct fhdr) + ((len + 7u) & ~7u);
}

static int fl_write(void *ring, const struct bk_msg *m)
{
	struct floor *f = ring;
	uint64_t ts = ts_of(m);
	uint64_t pos = atomic_fetch_add_explicit(&f->head, fl_need(m->len),
						 memory_order_relaxed);
	struct fhdr *h = (struct fhdr *)(f->buf + (pos & f->mask));

	h->ts = ts;
	memcpy(h + 1, m->text, m->len);
	atomic_store_explicit(&h->tag, (pos & FLOOR_POS_MASK) << 16 | m->len,
			      memory_order_release);
	return 0;
}

/*
 * Fragments are joined in the caller's own line buffer (one per thread,
 * no lock), the timestamp is read at the first one, and the line is stored
 * once at its end.
 */
static _Thread_local struct {
	char buf[BK_TEXT_MAX];
	uint32_t len;
	uint64_t ts;
} fl_line;

static int fl_write_part(void *ring, const struct bk_msg *m)
{
	struct bk_msg line = *m;

	if (m->part == BK_WHOLE) {
		line.ts = bk_now();
		return fl_write(ring, &line);
	}
	if (m->part == BK_FIRST || fl_line.len + m->len > BK_TEXT_MAX) {
		if (fl_line.len) {
			line.text = fl_line.buf;
			line.len = fl_line.len;
			line.ts = fl_line.ts;
			fl_write(ring, &line);
		}
		fl_line.len = 0;
	}
	if (!fl_line.len)
		fl_line.ts = bk_now();
	memcpy(fl_line.buf + fl_line.len, m->text, m->len);
	fl_line.len += m->len;
	if (m->part != BK_LAST)
		return 0;
	line.text = fl_line.buf;
	line.len = fl_line.len;
	line.ts = fl_line.ts;
	fl_line.len = 0;
	return fl_write(ring, &line);
}

static void fl_cursor_first(void *ring, struct bk_cursor *c)
{
	struct floor *f = ring;
	uint64_t head = atomic_load_explicit(&f->head, memory_order_acquire);

	/* Only an unwrapped ring has a known oldest record. */
	c->pos = head <= f->size ? 0 : head;
}

static int fl_read(void *ring, struct bk_cursor *c, struct bk_rec *out)
{
	struct floor *f = ring;
	uint64_t pos = c->pos, head, tag;
	struct fhdr *h;
	uint32_t len;

	head = atomic_load_explicit(&f->head, memory_order_acquire);
	if (pos == head)
		return 0;
	if (head - pos > f->size) {
		/* Lapped: no record boundary is known but the head. */
		c->pos = head;
		return 0;
	}
	h = (struct fhdr *)(f->buf + (pos & f->mask));
	tag = atomic_load_explicit(&h->tag, memory_order_acquire);
	len = tag & 0xffff;
	if ((tag >> 16) != (pos & FLOOR_POS_MASK) || !len)
		return 0;	/* reserved, not yet published */
	memcpy(c->scratch, h + 1, len);
	out->ts = h->ts;
	atomic_thread_fence(memory_order_acquire);
	head = atomic_load_explicit(&f->head, memory_order_relaxed);
	if (head - pos > f->size) {
		c->pos = head;	/* overwritten while we copied */
		return 0;
	}
	c->pos = pos + fl_need(len);
	out->text = c->scratch;
	out->len = len;
	return 1;
}

static bool fl_full(void *ring, uint32_t len)
{
	struct floor *f = ring;

	return atomic_load(&f->head) + fl_need(len) > f->size;
}

const struct bk_ops bk_floor = {
	.name = "floor",
	.what = "one atomic add, a memcpy and a release store per record",
	.create = fl_create,
	.destroy = fl_destroy,
	.mem = fl_mem,
	.write = fl_write,
	.write_part = fl_write_part,
	.cursor_first = fl_cursor_first,
	.read = fl_read,
	.full = fl_full,
};
