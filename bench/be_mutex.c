// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * be_mutex.c - a naive ring as a kbench backend: fixed 1 KiB slots under
 * a pthread mutex.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

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
	struct bk_line cont;
};

static void *mr_create(uint32_t size)
{
	struct mring *r = bk_zalloc(sizeof(*r));

	if (!r)
		return NULL;
	r->size = size;
	r->nslots = size / sizeof(struct mslot);
	if (r->nslots < 2)
		r->nslots = 2;
	r->slots = bk_zalloc((size_t)r->nslots * sizeof(struct mslot));
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
	uint64_t ts = bk_ts(m);

	pthread_mutex_lock(&r->lock);
	mr_put(r, ts, m->caller, m->text, m->len);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static int mr_write_part(void *ring, const struct bk_msg *m)
{
	struct mring *r = ring;
	struct bk_line *c = &r->cont;
	uint64_t ts = bk_now();

	pthread_mutex_lock(&r->lock);
	if (c->len && (m->part == BK_WHOLE || m->part == BK_FIRST ||
		       c->owner != m->caller ||
		       c->len + m->len > sizeof(c->buf))) {
		mr_put(r, c->ts, c->owner, c->buf, c->len);
		c->len = 0;
	}
	if (m->part == BK_WHOLE) {
		mr_put(r, ts, m->caller, m->text, m->len);
	} else {
		if (!c->len) {
			c->owner = m->caller;
			c->ts = ts;
		}
		memcpy(c->buf + c->len, m->text, m->len);
		c->len += m->len;
		if (m->part == BK_LAST) {
			mr_put(r, c->ts, c->owner, c->buf, c->len);
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
