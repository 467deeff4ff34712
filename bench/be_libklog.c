// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * be_libklog.c - libklog's ring as kbench backends.
 *
 * libklog          klog_ring_store()/klog_ring_read() under a spinlock, as
 *                  the kernel glue holds the namespace's raw spinlock.
 * libklog-nolock   the same ring with no lock (single writer, W1 only):
 *                  what the lock costs.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "klog/klog.h"
#include "internal.h"

#include "bench.h"

struct lk {
	pthread_spinlock_t lock;
	struct klog_ring ring;
};

static void *lk_create(uint32_t size)
{
	struct lk *l = bk_zalloc(sizeof(*l));
	void *buf = bk_zalloc(size);

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

/* Store @m, timestamped @ts: the ring's own work. */
static inline void lk_store(struct lk *l, const struct bk_msg *m, uint64_t ts)
{
	struct klog_entry e = {
		.ts_nsec = ts,
		.caller_id = m->caller,
		.level = 6,
		.flags = KLOG_F_NEWLINE,
		.text = m->text,
		.text_len = m->len,
	};

	klog_ring_store(&l->ring, &e);
}

/* Under the spinlock; the clock is read before it is taken. */
static int lk_write(void *ring, const struct bk_msg *m)
{
	struct lk *l = ring;
	uint64_t ts = bk_ts(m);

	pthread_spin_lock(&l->lock);
	lk_store(l, m, ts);
	pthread_spin_unlock(&l->lock);
	return 0;
}

/* The ring alone, for one writer: what the lock costs (W1 only). */
static int lk_write_nolock(void *ring, const struct bk_msg *m)
{
	lk_store(ring, m, bk_ts(m));
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
