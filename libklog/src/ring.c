// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ring.c - the record ring.
 *
 * DOC: record ring
 *
 * Records of variable length live in one power-of-two buffer.  Each one is
 * a struct klog_hdr, the text, the dictionary and padding to 8 bytes::
 *
 *   0                                                        size
 *   | rec n+2 | rec n+3 | free ....... | rec n | rec n+1 |0| |
 *             ^next_idx                ^first_idx          ^ wrap marker
 *
 * A header whose len is 0 is the wrap marker: the record "at" that offset
 * is really the one at offset 0.  Every store leaves at least one header's
 * worth of room behind the new record, so a wrap marker always fits.
 * Storing drops the oldest records until the new one fits.  A record is at
 * most half the ring (less the marker room) and its text at most
 * KLOG_RECORD_MAX bytes: longer input is truncated and flagged, so every
 * store succeeds without allocating.
 *
 * Locking: a ring has no lock; every function runs under its owner's lock.
 */
#include "internal.h"
#include "klog/ring.h"

/* The header in the ring.  len 0 marks the wrap. */
struct klog_hdr {
	u64 ts_nsec;
	u32 len;
	u16 text_len;
	u16 dict_len;
	u32 caller_id;
	u8 facility;
	u8 level;
	u8 flags;
	u8 pad;
};

/* Bytes of one header: a record's, or a wrap marker's. */
#define KLOG_HDR_SIZE ((u32)sizeof(struct klog_hdr))
/* Every record, hence every offset in the ring, is a multiple of this. */
#define KLOG_ALIGN 8u

static inline struct klog_hdr *hdr_at(const struct klog_ring *r, u32 idx)
{
	return (struct klog_hdr *)(r->buf + idx);
}

/* Offset of the record that @idx designates (follows a wrap marker). */
static inline u32 resolve(const struct klog_ring *r, u32 idx)
{
	return hdr_at(r, idx)->len ? idx : 0;
}

/**
 * klog_ring_init() - set up an empty ring over caller-provided storage.
 * @ring: the ring.
 * @buf:  storage of @size bytes, 8-byte aligned.
 * @size: a power of two, at least KLOG_RING_MIN, at most KLOG_RING_LIMIT.
 *
 * Context: any.
 * Return: 0, or -EINVAL for a bad size or buffer.
 */
int klog_ring_init(struct klog_ring *ring, void *buf, u32 size)
{
	if (!buf || size < KLOG_RING_MIN || size > KLOG_RING_LIMIT ||
	    (size & (size - 1)) || ((unsigned long)buf & (KLOG_ALIGN - 1)))
		return -EINVAL;
	ring->buf = buf;
	ring->size = size;
	ring->first_seq = 0;
	ring->first_idx = 0;
	ring->next_seq = 0;
	ring->next_idx = 0;
	ring->last_idx = 0;
	return 0;
}

/* Largest whole record (header included) a ring accepts. */
static inline u32 max_record(const struct klog_ring *r)
{
	return r->size / 2 - KLOG_HDR_SIZE;
}

/**
 * klog_ring_max_text() - the most text bytes one record can hold.
 * @ring: the ring.
 *
 * Context: any.
 * Return: min(KLOG_RECORD_MAX, what half the ring holds).
 */
u32 klog_ring_max_text(const struct klog_ring *ring)
{
	u32 body = max_record(ring) - KLOG_HDR_SIZE;

	return body < KLOG_RECORD_MAX ? body : KLOG_RECORD_MAX;
}

/* Where a record of @need bytes would go, or -1 if it does not fit yet. */
static long place(const struct klog_ring *r, u32 need)
{
	bool empty = r->first_seq == r->next_seq;

	if (empty || r->next_idx > r->first_idx) {
		if (r->next_idx + need + KLOG_HDR_SIZE <= r->size)
			return r->next_idx;
		if (need + KLOG_HDR_SIZE <=
		    (empty ? r->next_idx : r->first_idx))
			return 0;
		return -1;
	}
	if (need + KLOG_HDR_SIZE <= r->first_idx - r->next_idx)
		return r->next_idx;
	return -1;
}

static void drop_first(struct klog_ring *r)
{
	u32 idx = resolve(r, r->first_idx);

	r->first_idx = idx + hdr_at(r, idx)->len;
	r->first_seq++;
	/*
	 * first_idx may now be a wrap marker: it is kept, not resolved, so
	 * that the marker stays protected while the record at 0 lives and a
	 * cursor holding the marker's offset stays valid (as in 3.x).
	 */
	if (r->first_seq == r->next_seq)
		r->first_idx = r->next_idx;
}

/* Length of the dictionary prefix of at most @max bytes that ends a pair. */
static u32 dict_fit(const char *dict, u32 len, u32 max)
{
	if (len <= max)
		return len;
	while (max && dict[max] != '\0')
		max--;
	return max;
}

/**
 * klog_ring_store() - append a record, dropping the oldest as needed.
 * @ring: the ring.
 * @e:    the record; text is @e->pre then @e->text.
 *
 * Text beyond klog_ring_max_text() and dictionary beyond what is left
 * (cut at a pair boundary) are dropped and KLOG_F_TRUNC is set.  Never
 * allocates and never fails.
 *
 * Context: owner's lock held.
 * Return: the number of old records dropped to make room.
 */
u64 klog_ring_store(struct klog_ring *ring, const struct klog_entry *e)
{
	u32 max_text = klog_ring_max_text(ring);
	u32 pre_len = e->pre_len, text_len = e->text_len, dict_len;
	u8 flags = e->flags;
	struct klog_hdr *h;
	u64 dropped = 0;
	u32 need, room;
	long at;
	char *p;

	if (pre_len > max_text) {
		pre_len = max_text;
		flags |= KLOG_F_TRUNC;
	}
	if (text_len > max_text - pre_len) {
		text_len = max_text - pre_len;
		flags |= KLOG_F_TRUNC;
	}
	room = max_record(ring) - KLOG_HDR_SIZE - pre_len - text_len;
	if (room > KLOG_DICT_MAX)
		room = KLOG_DICT_MAX;
	dict_len = e->dict ? dict_fit(e->dict, e->dict_len, room) : 0;
	if (dict_len < (e->dict ? e->dict_len : 0))
		flags |= KLOG_F_TRUNC;

	need = KLOG_HDR_SIZE + pre_len + text_len + dict_len;
	need = (need + KLOG_ALIGN - 1) & ~(KLOG_ALIGN - 1);

	while ((at = place(ring, need)) < 0) {
		if (kl_warn_on_once(ring->first_seq == ring->next_seq))
			return dropped;
		drop_first(ring);
		dropped++;
	}
	if ((u32)at != ring->next_idx) {
		/* Wrap: mark the end so readers jump to offset 0. */
		kl_memset(hdr_at(ring, ring->next_idx), 0, KLOG_HDR_SIZE);
	}

	h = hdr_at(ring, at);
	h->ts_nsec = e->ts_nsec;
	h->len = need;
	h->text_len = pre_len + text_len;
	h->dict_len = dict_len;
	h->caller_id = e->caller_id;
	h->facility = e->facility;
	h->level = e->level & 7;
	h->flags = flags;
	h->pad = 0;
	p = (char *)(h + 1);
	if (pre_len)
		kl_memcpy(p, e->pre, pre_len);
	if (text_len)
		kl_memcpy(p + pre_len, e->text, text_len);
	if (dict_len)
		kl_memcpy(p + pre_len + text_len, e->dict, dict_len);

	ring->last_idx = at;
	ring->next_idx = at + need;
	ring->next_seq++;
	/*
	 * Warm what the next store touches: the oldest record's header,
	 * which it reads to drop that record, and the place it writes.  With
	 * many namespaces, other namespaces' stores evict both in between.
	 */
	kl_prefetchw(ring->buf + ring->first_idx);
	kl_prefetchw(ring->buf + ring->next_idx);
	return dropped;
}

/**
 * klog_ring_cursor_first() - point a cursor at the oldest record.
 * @ring: the ring.
 * @c:    the cursor.
 *
 * Context: owner's lock held.
 */
void klog_ring_cursor_first(const struct klog_ring *ring,
			    struct klog_cursor *c)
{
	c->seq = ring->first_seq;
	c->idx = ring->first_idx;
}

/**
 * klog_ring_cursor_end() - point a cursor past the newest record.
 * @ring: the ring.
 * @c:    the cursor.
 *
 * Context: owner's lock held.
 */
void klog_ring_cursor_end(const struct klog_ring *ring, struct klog_cursor *c)
{
	c->seq = ring->next_seq;
	c->idx = ring->next_idx;
}

/**
 * klog_ring_cursor_fix() - detect and repair an overtaken cursor.
 * @ring: the ring.
 * @c:    the cursor.
 *
 * Context: owner's lock held.
 * Return: how many records the cursor lost (0 if none); the cursor then
 * points at the oldest record.
 */
u64 klog_ring_cursor_fix(const struct klog_ring *ring, struct klog_cursor *c)
{
	u64 lost;

	if (c->seq >= ring->first_seq)
		return 0;
	lost = ring->first_seq - c->seq;
	klog_ring_cursor_first(ring, c);
	return lost;
}

/**
 * klog_ring_peek() - look at the record under a valid cursor.
 * @ring: the ring.
 * @c:    the cursor, at or after first_seq (see klog_ring_cursor_fix()).
 * @rec:  filled in; its pointers are valid while the lock is held.
 *
 * Context: owner's lock held.
 * Return: false if the cursor is at the end (or invalid).
 */
bool klog_ring_peek(const struct klog_ring *ring, const struct klog_cursor *c,
		    struct klog_record *rec)
{
	const struct klog_hdr *h;

	if (c->seq < ring->first_seq || c->seq >= ring->next_seq)
		return false;
	h = hdr_at(ring, resolve(ring, c->idx));
	rec->seq = c->seq;
	rec->ts_nsec = h->ts_nsec;
	rec->caller_id = h->caller_id;
	rec->facility = h->facility;
	rec->level = h->level;
	rec->flags = h->flags;
	rec->text = (const char *)(h + 1);
	rec->text_len = h->text_len;
	rec->dict = rec->text + h->text_len;
	rec->dict_len = h->dict_len;
	return true;
}

/**
 * klog_ring_advance() - move a valid cursor past its record.
 * @ring: the ring.
 * @c:    the cursor; must designate a record (klog_ring_peek() true).
 *
 * Context: owner's lock held.
 */
void klog_ring_advance(const struct klog_ring *ring, struct klog_cursor *c)
{
	u32 idx = resolve(ring, c->idx);

	c->idx = idx + hdr_at(ring, idx)->len;
	c->seq++;
}

/**
 * klog_ring_read() - read the next record and advance.
 * @ring: the ring.
 * @c:    the cursor.
 * @rec:  filled in when a record is returned.
 * @lost: if not NULL, set to the records lost before this one.
 *
 * Context: owner's lock held.
 * Return: true if a record was read.
 */
bool klog_ring_read(const struct klog_ring *ring, struct klog_cursor *c,
		    struct klog_record *rec, u64 *lost)
{
	u64 l = klog_ring_cursor_fix(ring, c);

	if (lost)
		*lost = l;
	if (!klog_ring_peek(ring, c, rec))
		return false;
	klog_ring_advance(ring, c);
	return true;
}

/**
 * klog_ring_last() - look at the newest record.
 * @ring: the ring.
 * @rec:  filled in; its pointers are valid while the lock is held.
 *
 * Context: owner's lock held.
 * Return: false if the ring is empty.
 */
bool klog_ring_last(const struct klog_ring *ring, struct klog_record *rec)
{
	struct klog_cursor c = {
		.seq = ring->next_seq - 1,
		.idx = ring->last_idx,
	};

	if (ring->next_seq == ring->first_seq)
		return false;
	return klog_ring_peek(ring, &c, rec);
}
