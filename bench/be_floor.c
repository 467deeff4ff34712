// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * be_floor.c - the machine's floor as a kbench backend: one atomic add to
 * reserve, a memcpy and a release store to publish, what any multi-writer
 * ring must at least do.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

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
	char pad[BK_CACHELINE - sizeof(uint64_t)];
	char *buf;
	uint64_t size;
	uint64_t mask;
	/* Per-thread line assembly for Cont+ts lives with the caller. */
};

#define FLOOR_SLACK (sizeof(struct fhdr) + BK_TEXT_MAX + 8)
#define FLOOR_POS_MASK ((1ull << 48) - 1)

static void *fl_create(uint32_t size)
{
	struct floor *f = bk_zalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->buf = bk_zalloc(size + FLOOR_SLACK);
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
	uint64_t ts = bk_ts(m);
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
static _Thread_local struct bk_line fl_line;

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
