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
 * Invariants.  They hold whenever the owner's lock is free (every function
 * here leaves them true), the lines that keep them are tagged with their
 * names, and klog_ring_check() and klog_ring_check_cursor() (built in
 * user space only, for the tests) test them, in constant time (the
 * positions, the oldest and the newest record):
 *
 * - R1 geometry: @buf is 8-byte aligned, @size a power of two from
 *   KLOG_RING_MIN to KLOG_RING_LIMIT; first_idx, next_idx and last_idx are
 *   multiples of KLOG_ALIGN below @size.
 * - R2 sequence: first_seq <= next_seq; the ring holds the next_seq -
 *   first_seq records from first_seq on, at most @size / KLOG_HDR_SIZE.
 * - R3 empty: the ring is empty iff first_seq == next_seq, iff first_idx ==
 *   next_idx.
 * - R4 room: a wrap marker always fits behind the newest record:
 *   next_idx + KLOG_HDR_SIZE <= @size and, while the records wrap
 *   (first_idx > next_idx), next_idx + KLOG_HDR_SIZE <= first_idx.
 * - R5 first: first_idx is the oldest record's offset or, when that record
 *   is at offset 0, the offset of the wrap marker before it: first_idx may
 *   name a marker, and then the records wrap.  It is never resolved, so the
 *   marker stays reserved while a cursor may hold its offset (as in 3.x).
 * - R6 record: a record's len is a multiple of KLOG_ALIGN, holds its
 *   header, text (at most KLOG_RECORD_MAX) and dictionary (at most
 *   KLOG_DICT_MAX), is at most max_record() and ends a header's room or
 *   more before @size; its level is 0-7 and its header's pad byte 0.
 * - R7 last: in a ring that is not empty, last_idx is the newest record,
 *   never a marker, and that record ends at next_idx.
 * - R8 cursor: a cursor is valid iff seq <= next_seq and, when seq >=
 *   first_seq, idx names record seq or the wrap marker before it: at
 *   first_seq the record first_idx names, at next_seq - 1 the one at
 *   last_idx, and at next_seq exactly next_idx.  A cursor below first_seq
 *   has been overtaken: it is valid, its idx means nothing, and
 *   klog_ring_cursor_fix() moves it to the oldest record.  Every function
 *   that takes a valid cursor leaves it valid.
 *
 * Locking: a ring has no lock; every function runs under its owner's lock.
 * A record that klog_ring_peek() returns points into the ring and is valid
 * only while that lock is held; a reader that formats it copies it out
 * first (klog_ring_copy()) and formats the copy with the lock dropped.
 */
#include "internal.h"
#include "klog/ring.h"
#include "ring_layout.h"

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
	/* R1 */
	if (!buf || size < KLOG_RING_MIN || size > KLOG_RING_LIMIT ||
	    (size & (size - 1)) || ((unsigned long)buf & (KLOG_ALIGN - 1)))
		return -EINVAL;
	ring->buf = buf;
	ring->size = size;
	/* R3: empty, both positions at 0. */
	ring->first_seq = 0;
	ring->first_idx = 0;
	ring->next_seq = 0;
	ring->next_idx = 0;
	ring->last_idx = 0;
	return 0;
}

/*
 * R6: even the smallest ring holds a record with KLOG_RECORD_MAX bytes of
 * text, and a header's room, in half its size.  The bound on text is
 * then the same for every ring, and a store compares with a constant.
 */
static_assert(KLOG_RING_MIN / 2 >= KLOG_RECORD_MAX + 2 * KLOG_HDR_SIZE,
	      "KLOG_RING_MIN is too small for KLOG_RECORD_MAX");

/**
 * klog_ring_max_text() - the most text bytes one record can hold.
 * @ring: the ring (unused: the bound is the same for every ring).
 *
 * Context: any.
 * Return: KLOG_RECORD_MAX, whatever the ring's size.
 */
u32 klog_ring_max_text(const struct klog_ring *ring)
{
	return KLOG_RECORD_MAX;
}

/*
 * Where a record of @need bytes would go, or -1 if it does not fit yet.
 * R4: a place leaves room for a marker behind the record, before the end
 * of the buffer or before the oldest record.
 */
static long place(const struct klog_ring *r, u32 need)
{
	/*
	 * R3, R4: the records wrap iff first_idx > next_idx (R3: an empty
	 * ring has them equal, a ring that is not empty never has); the free
	 * space is then the gap between them.
	 */
	if (r->first_idx > r->next_idx) {
		if (need + KLOG_HDR_SIZE <= r->first_idx - r->next_idx)
			return r->next_idx;
		return -1;
	}
	if (r->next_idx + need + KLOG_HDR_SIZE <= r->size)
		return r->next_idx;
	/*
	 * Wrap to offset 0, leaving a marker's room before the oldest record
	 * (in an empty ring, before next_idx, where the marker goes).
	 */
	if (need + KLOG_HDR_SIZE <= r->first_idx)
		return 0;
	return -1;
}

static void drop_first(struct klog_ring *r)
{
	u32 idx = resolve(r, r->first_idx);

	r->first_idx = idx + hdr_at(r, idx)->size.len;
	r->first_seq++;
	/*
	 * R5: first_idx may now be a wrap marker: it is kept, not resolved,
	 * so that the marker stays protected while the record at 0 lives and
	 * a cursor holding the marker's offset stays valid (as in 3.x).
	 */
	if (r->first_seq == r->next_seq)
		r->first_idx = r->next_idx;	/* R3 */
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

/*
 * Make room for a record of @need bytes (a multiple of KLOG_ALIGN, at most
 * max_record()), dropping the oldest records as needed, and write the
 * wrap marker if it goes to offset 0.  Return where it goes, or -1 if even
 * an empty ring has no room (a bug: R6 bounds @need); *@dropped counts
 * the records dropped.  Always inline: GCC does not inline it into its
 * two callers otherwise, and the common store then makes one call more.
 */
static kl_always_inline long reserve(struct klog_ring *ring, u32 need,
				     u64 *dropped)
{
	long at;

	while ((at = place(ring, need)) < 0) {
		if (kl_warn_on_once(ring->first_seq == ring->next_seq))
			return -1;
		drop_first(ring);
		(*dropped)++;
	}
	if ((u32)at != ring->next_idx) {
		/*
		 * Wrap: mark the end so readers jump to offset 0.  R4: the
		 * marker fits; R5: first_idx may come to name it.
		 */
		kl_memset(hdr_at(ring, ring->next_idx), 0, KLOG_HDR_SIZE);
	}
	return at;
}

/*
 * Write the header of a record of @need bytes with @text_len bytes of
 * text and @dict_len of dictionary, @flags, and @e's time, caller,
 * facility and level, a word at a time: each word is built whole in a
 * local and copied, which GCC does in a register.  Assigned field by
 * field, or as a structure, the header costs up to nine stores.
 */
static inline void fill_hdr(struct klog_hdr *h, const struct klog_entry *e,
			    u32 need, u32 text_len, u32 dict_len, u8 flags)
{
	struct klog_hdr_size size = {
		.len = need,
		.text_len = text_len,
		.dict_len = dict_len,
	};
	struct klog_hdr_from from = {
		.caller_id = e->caller_id,
		.facility = e->facility,
		.level = e->level & 7,		/* R6 */
		.flags = flags,
		.pad = 0,			/* R6 */
	};

	h->ts_nsec = e->ts_nsec;
	kl_memcpy(&h->size, &size, sizeof(size));
	kl_memcpy(&h->from, &from, sizeof(from));
}

/*
 * Account for the record of @need bytes just written at @at.  Always
 * inline, for the same reason as reserve().
 */
static kl_always_inline void commit(struct klog_ring *ring, u32 at, u32 need)
{
	u32 next = at + need, mask = ring->size - 1;	/* R1 */

	ring->last_idx = at;			/* R7 */
	ring->next_idx = next;			/* R4, R7 */
	ring->next_seq++;			/* R2 */
	/*
	 * Warm what the next store touches: the oldest record's header,
	 * which it reads to drop that record, and the first three cache
	 * lines of the place it writes, which in a full ring also hold the
	 * next records it drops when they are short.  @next leaves room
	 * for a header before the end (R4) and the other offsets wrap
	 * there, so no address beyond the buffer is formed.  With many
	 * namespaces, other namespaces' stores evict these in between.
	 */
	kl_prefetchw(ring->buf + ring->first_idx);
	kl_prefetchw(ring->buf + next);
	kl_prefetchw(ring->buf + ((next + KL_CACHE_BYTES) & mask));
	kl_prefetchw(ring->buf + ((next + 2 * KL_CACHE_BYTES) & mask));
}

/*
 * memcpy() of a record's bytes into or out of the ring.  The length is
 * hidden from the compiler: knowing it bounded (KLOG_RECORD_MAX,
 * KLOG_COPY_MAX), GCC may expand the copy inline as "rep movsq" instead
 * of calling the platform's memcpy(), the one tuned for the CPU.
 */
static inline void ring_memcpy(void *dst, const char *src, u32 len)
{
	kl_hide_var(len);
	kl_memcpy(dst, src, len);
}

/* R6: the record's size, header and padding included. */
static inline u32 record_size(u32 body)
{
	return (KLOG_HDR_SIZE + body + KLOG_ALIGN - 1) & ~(KLOG_ALIGN - 1);
}

/*
 * klog_ring_store() for a record with a prefix or a dictionary, or text
 * too long: cut each to what fits (R6), then store the parts.  Out of
 * line, so that its code stays out of the common case's.  The entry is
 * passed by value, a copy made on this path only: where the store is
 * inlined into its caller (link-time optimisation), the caller's entry
 * then need not be written to memory for the common record; called, as
 * in the kernel, the common path is the same either way.
 */
static kl_noinline u64 store_cut(struct klog_ring *ring,
				 const struct klog_entry entry)
{
	const struct klog_entry *e = &entry;
	u32 pre_len = e->pre_len, text_len = e->text_len, dict_len;
	u8 flags = e->flags;
	u64 dropped = 0;
	u32 room, need;
	char *p;
	long at;

	if (pre_len > KLOG_RECORD_MAX) {
		pre_len = KLOG_RECORD_MAX;
		flags |= KLOG_F_TRUNC;
	}
	if (text_len > KLOG_RECORD_MAX - pre_len) {
		text_len = KLOG_RECORD_MAX - pre_len;
		flags |= KLOG_F_TRUNC;
	}
	room = max_record(ring) - KLOG_HDR_SIZE - pre_len - text_len;
	if (room > KLOG_DICT_MAX)
		room = KLOG_DICT_MAX;
	dict_len = e->dict ? dict_fit(e->dict, e->dict_len, room) : 0;
	if (dict_len < (e->dict ? e->dict_len : 0))
		flags |= KLOG_F_TRUNC;

	need = record_size(pre_len + text_len + dict_len);
	at = reserve(ring, need, &dropped);
	if (at < 0)
		return dropped;
	fill_hdr(hdr_at(ring, at), e, need, pre_len + text_len, dict_len,
		 flags);
	p = (char *)(hdr_at(ring, at) + 1);
	if (pre_len)
		ring_memcpy(p, e->pre, pre_len);
	if (text_len)
		ring_memcpy(p + pre_len, e->text, text_len);
	if (dict_len)
		ring_memcpy(p + pre_len + text_len, e->dict, dict_len);
	commit(ring, at, need);
	return dropped;
}

/**
 * klog_ring_store() - append a record, dropping the oldest as needed.
 * @ring: the ring.
 * @e:    the record; text is @e->pre then @e->text.
 *
 * Text beyond klog_ring_max_text() and dictionary beyond what is left
 * (cut at a pair boundary) are dropped and KLOG_F_TRUNC is set.  A
 * @e->dict_len of 0 stores no dictionary.  Never allocates and never
 * fails.
 *
 * Context: owner's lock held.
 * Return: the number of old records dropped to make room.
 */
u64 klog_ring_store(struct klog_ring *ring, const struct klog_entry *e)
{
	u64 dropped = 0;
	long at;
	u32 need;

	/*
	 * Choose the path by the lengths: a dictionary of length 0 is none,
	 * so @e->dict is read only when there is one.  A caller that has
	 * just built @e with wide stores may not have them forwarded to a
	 * load of a pointer field in their middle.
	 */
	if (e->pre_len || e->dict_len || e->text_len > KLOG_RECORD_MAX)
		return store_cut(ring, *e);

	/* Most records are text alone and whole: one header, one copy. */
	need = record_size(e->text_len);
	at = reserve(ring, need, &dropped);
	if (at < 0)
		return dropped;
	fill_hdr(hdr_at(ring, at), e, need, e->text_len, 0, e->flags);
	if (e->text_len)
		ring_memcpy(hdr_at(ring, at) + 1, e->text, e->text_len);
	commit(ring, at, need);
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
	/* R8: first_idx names the record at first_seq. */
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
	/* R8: at next_seq, exactly next_idx. */
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
	return ring_cursor_fix(ring, c);
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
	/* R8: only a cursor from first_seq on names a record. */
	if (c->seq < ring->first_seq || c->seq >= ring->next_seq)
		return false;
	ring_fill(ring, resolve(ring, c->idx), c->seq, rec);
	return true;
}

/**
 * klog_ring_copy() - copy the record under a valid cursor out of the ring.
 * @ring: the ring.
 * @c:    the cursor, at or after first_seq (see klog_ring_cursor_fix()).
 * @rec:  filled in as by klog_ring_peek(), but its text and dict point into
 *        @buf, so they stay valid once the lock is dropped.
 * @buf:  receives the text, then the dictionary.
 * @size: @buf's size.  Text beyond it is left out, and the dictionary is
 *        cut at the end of the last pair that fits in the rest (as
 *        klog_ring_store() cuts it); @rec's text_len and dict_len say what
 *        was copied, its flags are the record's.  KLOG_COPY_MAX bytes hold
 *        any record whole.
 *
 * A reader copies under the lock, drops it, then formats the copy: the
 * lock is held for at most @size bytes of copying, never for formatting
 * (L7, "DOC: printk store path").
 *
 * Context: owner's lock held.
 * Return: false, with nothing copied, if the cursor is at the end (or
 * invalid).
 */
bool klog_ring_copy(const struct klog_ring *ring, const struct klog_cursor *c,
		    struct klog_record *rec, char *buf, u32 size)
{
	u32 text_len, dict_len;

	if (!klog_ring_peek(ring, c, rec))
		return false;
	text_len = rec->text_len < size ? rec->text_len : size;
	dict_len = dict_fit(rec->dict, rec->dict_len, size - text_len);
	ring_memcpy(buf, rec->text, text_len);
	ring_memcpy(buf + text_len, rec->dict, dict_len);
	rec->text = buf;
	rec->text_len = text_len;
	rec->dict = buf + text_len;
	rec->dict_len = dict_len;
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

	/* R8: the next record starts where this one ends (or a marker). */
	c->idx = idx + hdr_at(ring, idx)->size.len;
	c->seq++;
}
